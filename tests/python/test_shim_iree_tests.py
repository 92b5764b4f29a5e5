"""What IREE's own Python tests need of Ember under ``ember.shim`` beyond
the public API, each checked against iree.runtime 3.13 itself:

- ``import iree.runtime`` through the shim imports ml_dtypes, as the
  official package does (``np.dtype("bfloat16")`` then works), while
  ``import ember.runtime`` alone still does not;
- ``iree.runtime.benchmark._build_benchmark_args``: the tool's command
  line and the module's bytes, as 3.13's private helper makes them;
- ``iree.runtime._binding``'s driver cache: ``create_hal_driver`` (a new
  driver each call), ``get_cached_hal_driver`` (one per driver name, what
  ``get_driver`` returns) and ``clear_hal_driver_cache``;
- ``HalDevice.begin_profiling(mode=...)``: 3.13's "profile sink"
  ValueError, with 3.11's ``mode=..., file_path=...`` form still accepted.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import compile_mlir

TWO_ENTRIES_MLIR = """
func.func @entry_1(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.absf %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @entry_2(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = math.absf %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
"""


def _probe(tmp_path, code: str, *, shim: bool, env_shim: bool = False) -> str:
    """Runs `code` as a script in a fresh interpreter (through
    ``python -m ember.shim`` with `shim`, with $EMBER_SHIM_IREE_RUNTIME=1
    with `env_shim`) and returns its stdout."""
    (tmp_path / "probe.py").write_text(code)
    env = dict(os.environ)
    env.pop("EMBER_SHIM_IREE_RUNTIME", None)
    if env_shim:
        env["EMBER_SHIM_IREE_RUNTIME"] = "1"
    args = [sys.executable] + (["-m", "ember.shim"] if shim else [])
    result = subprocess.run(args + ["probe.py"], capture_output=True,
                            text=True, timeout=120, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


BFLOAT16_PROBE = """
import sys
import numpy as np
import ember.runtime
print("ml_dtypes" in sys.modules, end=" ")
import iree.runtime
print(iree.runtime is ember.runtime, "ml_dtypes" in sys.modules,
      np.dtype("bfloat16").itemsize)
"""


@pytest.mark.parametrize("how", ["official", "shim", "environment"])
def test_importing_iree_runtime_registers_bfloat16(tmp_path, how):
    pytest.importorskip("ml_dtypes")
    if how == "official":
        pytest.importorskip("iree.runtime")
    out = _probe(tmp_path, BFLOAT16_PROBE, shim=how == "shim",
                 env_shim=how == "environment")
    # ember.runtime alone leaves ml_dtypes alone (shim installed or not);
    # iree.runtime, official or Ember's, brings it in.
    is_ember = "False" if how == "official" else "True"
    assert out == f"False {is_ember} True 2", out


# ---- _build_benchmark_args --------------------------------------------------

def _argument_cases():
    return [
        dict(module="m.vmfb", entry_function="f",
             inputs=[np.array([1.0, 2.0], np.float32)], device="local-sync",
             extra_arg="x"),
        dict(module="m.vmfb"),
        dict(module="m.vmfb", entry_function="f", inputs=None),
        dict(module="dir/m.vmfb", entry_function="f",
             inputs=[np.ones([2], np.float16),
                     np.ones([2, 3], np.float64), np.ones([3], np.int8),
                     np.array([0, 1, 2, 3], np.uint8),
                     np.array([[1, 2], [3, 4]], np.int32),
                     np.array([-1, 7], np.int64), "2xi32=1,2", "@x.npy"],
             benchmark_repetitions=[2, 3], benchmark_min_time="4x",
             report_aggregates_only=True, flag_off=False),
    ]


def test_build_benchmark_args_as_iree313(ember_rt, iree_rt, tmp_path):
    ours = ember_rt.benchmark._build_benchmark_args
    theirs = iree_rt.benchmark._build_benchmark_args
    for case in _argument_cases():
        args, blob = ours(**case)
        their_args, their_blob = theirs(**case)
        assert args[0] == ember_rt.benchmark.benchmark_exe()
        assert args[1:] == their_args[1:], case
        assert blob is None and their_blob is None
        # With an executable, that is the first argument.
        args, _ = ours(executable=tmp_path / "tool", **case)
        their_args, _ = theirs(executable=tmp_path / "tool", **case)
        assert args == their_args == [str(tmp_path / "tool")] + args[1:]
    # The exact text 3.13 writes (what IREE's test compares).
    args, _ = ours(module="m.vmfb", entry_function="f",
                   inputs=[np.array([0, 1, 2, 3], np.uint8),
                           np.ones([2], np.float16)], flag=[1, 2])
    assert args[1:] == ["--module=m.vmfb", "--function=f", "--flag=1",
                        "--flag=2", "--input=4xi8=0,1,2,3",
                        "--input=2xf16=1.0"]


def test_build_benchmark_args_of_a_vm_module(ember_rt, iree_rt):
    vmfb = compile_mlir("bench_two_entries", TWO_ENTRIES_MLIR).read_bytes()
    for rt in (ember_rt, iree_rt):
        module = rt.VmModule.copy_buffer(rt.VmInstance(), vmfb)
        build = rt.benchmark._build_benchmark_args
        args, blob = build(module, "entry_2",
                           inputs=[np.array([1.5, -2], np.float32)])
        assert args[1:] == ["--module=-", "--function=entry_2",
                            "--input=2xf32=1.5,-2.0"], rt
        assert bytes(blob) == bytes(module.stashed_flatbuffer_blob)
        assert bytes(blob) == vmfb
        with pytest.raises(ValueError, match="multiple options"):
            build(module)
        with pytest.raises(ValueError, match="unknown function"):
            build(module, "entry_3")


# ---- the driver cache ---------------------------------------------------------

@pytest.mark.parametrize("which", ["ember", "iree"])
def test_driver_cache(ember_rt, iree_rt, which):
    rt = ember_rt if which == "ember" else iree_rt
    from importlib import import_module
    binding = import_module(rt.__name__ + "._binding")
    setup = rt.system_setup
    binding.clear_hal_driver_cache()
    cached = setup.get_driver("local-sync")
    assert setup.get_driver("local-sync") is cached
    # One per driver name: a device URI of that driver shares it.
    assert setup.get_driver("local-sync://0") is cached
    assert binding.get_cached_hal_driver("local-sync") is cached
    assert binding.get_cached_hal_driver("local-sync://0?x=1") is cached
    assert setup.get_driver("local-task") is not cached
    made = binding.create_hal_driver("local-sync")
    assert made is not cached
    assert binding.create_hal_driver("local-sync") is not made
    assert setup.get_driver("local-sync") is cached  # made ones not cached
    binding.clear_hal_driver_cache()
    fresh = setup.get_driver("local-sync")
    assert fresh is not cached
    assert setup.get_driver("local-sync") is fresh
    assert fresh.query_available_devices() == [
        {"device_id": 0, "path": "", "name": "default"}]
    for call in (binding.create_hal_driver, binding.get_cached_hal_driver,
                 setup.get_driver):
        with pytest.raises(ValueError):
            call("bogus")


def test_binding_driver_cache_is_system_setups(ember_rt):
    from ember.runtime import _binding
    setup = ember_rt.system_setup
    assert _binding.get_cached_hal_driver is setup.get_cached_hal_driver
    assert _binding.clear_hal_driver_cache is setup.clear_hal_driver_cache
    assert _binding.create_hal_driver is setup.create_hal_driver


# ---- begin_profiling ----------------------------------------------------------

PROFILING_MODES = ["queue", "dispatch", "executable", "queue-events",
                   "cycles", ""]


@pytest.mark.parametrize("which", ["ember", "iree"])
def test_a_profiling_mode_needs_a_profile_sink(ember_rt, iree_rt, which):
    rt = ember_rt if which == "ember" else iree_rt
    device = rt.get_driver("local-task").create_default_device()
    for mode in PROFILING_MODES:
        with pytest.raises(ValueError, match="profile sink"):
            device.begin_profiling(mode=mode)
        with pytest.raises(ValueError, match="profile sink"):
            device.begin_profiling(mode)
    device.begin_profiling(mode=None)
    device.flush_profiling()
    device.end_profiling()


def test_iree311_profiling_call_form_stays(ember_rt):
    device = ember_rt.get_driver("local-task").create_default_device()
    for mode in ("queue", "dispatch", "executable"):
        device.begin_profiling(mode=mode, file_path="/nonexistent/trace")
        device.flush_profiling()
        device.end_profiling()
    device.begin_profiling(file_path="/nonexistent/trace")
    device.end_profiling()
    for mode in ("cycles", "queue-events", ""):
        with pytest.raises(ValueError, match="unrecognized profiling mode"):
            device.begin_profiling(mode=mode, file_path="/x")
