"""Ember's Vulkan device against the official 3.13 runtime, on Mesa's
lavapipe (a conformant Vulkan 1.3 implementation that runs on the CPU).

Same SPIR-V, same driver: every corpus program compiled for vulkan gives the
official runtime's bits (ember-run-module against iree-run-module, both with
--device=vulkan), and the Python API works on vulkan memory as it does on
the CPU devices (to_host, np.asarray, asdevicearray, DLPack, call
arguments).

Where the machine has no Vulkan at all (no loader or no device: neither
runtime lists it) the tests are skipped saying so; where the official runtime
sees a device and Ember does not, they fail. CI installs lavapipe.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import compile_mlir
from test_compiler_versions import _tensor_program_names, compare_program

VULKAN_FLAGS = ["--iree-hal-target-device=vulkan"]
CORPUS_DIR = Path(__file__).resolve().parents[1] / "corpus"


def _official_sees_vulkan(iree_rt) -> bool:
    try:
        return bool(iree_rt.get_driver("vulkan").query_available_devices())
    except Exception:  # noqa: BLE001 - any failure means "no device"
        return False


@pytest.fixture(scope="module")
def vulkan(ember_rt, iree_rt):
    """Ember's vulkan device; skips only where no runtime has one."""
    if "vulkan" not in ember_rt.query_available_drivers():
        if _official_sees_vulkan(iree_rt):
            pytest.fail("the official runtime sees a Vulkan device and Ember "
                        "does not list the vulkan driver")
        pytest.skip("no Vulkan loader or device on this machine (install "
                    "mesa-vulkan-drivers)")
    return ember_rt.get_device("vulkan")


def _program_text(name: str) -> tuple[str, list[str]]:
    import shlex
    text = (CORPUS_DIR / f"{name}.mlir").read_text()
    extra = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("// ember-corpus-flags:"):
            extra += shlex.split(line.split(":", 1)[1])
    return text, extra


@pytest.mark.parametrize("program", _tensor_program_names())
def test_corpus_programs_match_the_official_runtime_on_vulkan(
        vulkan, iree_run_module, tmp_path, program):
    text, extra = _program_text(program)
    module = compile_mlir(f"{program}-vulkan", text, VULKAN_FLAGS + extra)
    compared = compare_program(module, iree_run_module, tmp_path,
                               devices=("vulkan",))
    assert compared >= 1, program


MATMUL = """
func.func @affine(%x: tensor<64x96xf32>, %w: tensor<96x32xf32>,
                  %b: tensor<32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<64x32xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<64x32xf32>) -> tensor<64x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<64x96xf32>, tensor<96x32xf32>)
                     outs(%filled : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<64x32xf32>, tensor<32xf32>) outs(%init : tensor<64x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
func.func @scale(%x: tensor<?xi32>, %k: i32) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xi32>
  %init = tensor.empty(%n) : tensor<?xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xi32>) outs(%init : tensor<?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %m = arith.muli %a, %k : i32
    linalg.yield %m : i32
  } -> tensor<?xi32>
  return %r : tensor<?xi32>
}
"""


def _inputs():
    rng = np.random.default_rng(7)
    x = (rng.integers(-8, 8, (64, 96)) / 4).astype(np.float32)
    w = (rng.integers(-8, 8, (96, 32)) / 4).astype(np.float32)
    b = (rng.integers(-8, 8, (32,)) / 4).astype(np.float32)
    return x, w, b


def _load(rt, device, path: Path):
    config = rt.Config(device=device)
    context = rt.SystemContext(config=config)
    context.add_vm_module(rt.VmModule.mmap(config.vm_instance, str(path)))
    return context.modules.module


def test_calls_through_the_python_api(ember_rt, vulkan):
    module_path = compile_mlir("vulkan-affine", MATMUL, VULKAN_FLAGS)
    module = _load(ember_rt, vulkan, module_path)
    x, w, b = _inputs()
    # Small integers / 4: every product and sum is exact in f32.
    expected = x @ w + b
    result = module.affine(x, w, b)
    np.testing.assert_array_equal(result.to_host(), expected)
    np.testing.assert_array_equal(np.asarray(result), expected)
    # Arguments of every kind: device arrays, non-contiguous and read-only
    # numpy arrays, and a result fed back in.
    xt = np.asfortranarray(x)
    wr = w.copy()
    wr.flags.writeable = False
    again = module.affine(ember_rt.asdevicearray(vulkan, xt), wr, b)
    np.testing.assert_array_equal(again.to_host(), expected)
    scaled = module.scale(np.arange(1000, dtype=np.int32), 3)
    np.testing.assert_array_equal(scaled.to_host(),
                                  np.arange(1000, dtype=np.int32) * 3)
    fed = module.scale(scaled, -1)
    np.testing.assert_array_equal(fed.to_host(),
                                  np.arange(1000, dtype=np.int32) * -3)


def test_results_match_the_official_runtime_bit_for_bit(
        ember_rt, vulkan, iree_run_module, tmp_path):
    # The oracle is iree-run-module: iree.runtime 3.13's own to_host() fails
    # on lavapipe (it imports host memory that is not aligned to the
    # device's 4096-byte minImportedHostPointerAlignment).
    module_path = compile_mlir("vulkan-affine", MATMUL, VULKAN_FLAGS)
    rng = np.random.default_rng(11)
    x = rng.standard_normal((64, 96)).astype(np.float32)
    w = rng.standard_normal((96, 32)).astype(np.float32)
    b = rng.standard_normal((32,)).astype(np.float32)
    for name, array in (("x", x), ("w", w), ("b", b)):
        np.save(tmp_path / f"{name}.npy", array)
    out = tmp_path / "out.npy"
    official = subprocess.run(
        [iree_run_module, f"--module={module_path}", "--device=vulkan",
         "--function=affine", f"--input=@{tmp_path / 'x.npy'}",
         f"--input=@{tmp_path / 'w.npy'}", f"--input=@{tmp_path / 'b.npy'}",
         f"--output=@{out}"], capture_output=True, text=True, timeout=120)
    assert official.returncode == 0, official.stderr
    theirs = np.load(out)
    ours = _load(ember_rt, vulkan, module_path).affine(x, w, b).to_host()
    assert ours.tobytes() == theirs.tobytes()
    # And not trivially: the result is the product, to f32 rounding.
    np.testing.assert_allclose(ours, x @ w + b, rtol=1e-4, atol=1e-4)


def test_device_arrays_and_dlpack(ember_rt, vulkan):
    data = np.arange(24, dtype=np.float32).reshape(4, 6)
    array = ember_rt.asdevicearray(vulkan, data)
    np.testing.assert_array_equal(array.to_host(), data)
    np.testing.assert_array_equal(np.from_dlpack(array), data)
    np.testing.assert_array_equal(
        np.from_dlpack(ember_rt.from_dlpack(data, vulkan)), data)
    # The device's allocator says where its memory lives.
    stats = vulkan.allocator.statistics
    assert stats is not None


def test_tools_run_on_vulkan_and_list_it(tmp_path, vulkan):
    from conftest import ember_run_module_command
    listed = subprocess.run(ember_run_module_command() + ["--list_devices"],
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert any(line.startswith("vulkan://") for line in
               listed.stdout.splitlines()), listed.stdout
    module_path = compile_mlir("vulkan-affine", MATMUL, VULKAN_FLAGS)
    run = subprocess.run(
        ember_run_module_command() + [
            f"--module={module_path}", "--function=scale", "--device=vulkan",
            "--input=5xi32=1,2,3,4,5", "--input=i32=7"],
        capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "5xi32=7 14 21 28 35" in run.stdout


TWO_DEVICES = """
func.func @on_cpu(%a: tensor<4xf32> {iree.abi.affinity = #hal.device.promise<@__device_0>}) -> (tensor<4xf32> {iree.abi.affinity = #hal.device.promise<@__device_0>}) {
  %b = arith.addf %a, %a : tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func @on_gpu(%a: tensor<4xf32> {iree.abi.affinity = #hal.device.promise<@__device_1>}) -> (tensor<4xf32> {iree.abi.affinity = #hal.device.promise<@__device_1>}) {
  %b = arith.mulf %a, %a : tensor<4xf32>
  return %b : tensor<4xf32>
}
"""
TWO_DEVICE_FLAGS = ["--iree-hal-target-device=local",
                    "--iree-hal-local-target-device-backends=llvm-cpu",
                    "--iree-llvmcpu-target-cpu=generic",
                    "--iree-hal-target-device=vulkan"]


def test_a_program_for_two_devices_runs_on_both(ember_rt, vulkan):
    module_path = compile_mlir("vulkan-two-devices", TWO_DEVICES,
                               TWO_DEVICE_FLAGS)
    cpu = ember_rt.get_driver("local-task").create_default_device()
    instance = ember_rt.VmInstance()
    hal = ember_rt.create_hal_module(instance, devices=[cpu, vulkan])
    module = ember_rt.VmModule.mmap(instance, str(module_path))
    context = ember_rt.VmContext(instance, modules=[hal, module])
    x = np.array([1, 2, 3, 4], dtype=np.float32)
    for name, device, expected in (("on_cpu", cpu, x + x),
                                   ("on_gpu", vulkan, x * x)):
        function = module.lookup_function(name)
        invoker = ember_rt.FunctionInvoker(context, device, function)
        # Each function's input lives on the device it runs on.
        result = invoker(ember_rt.asdevicearray(device, x))
        np.testing.assert_array_equal(result.to_host(), expected)
    # A CPU buffer handed to the Vulkan function is refused, not misused.
    invoker = ember_rt.FunctionInvoker(context, cpu,
                                       module.lookup_function("on_gpu"))
    with pytest.raises(Exception, match="(?i)device|memory"):
        invoker(x)


def test_memory_the_host_cannot_map(ember_rt, vulkan):
    """Buffers in device-only memory (`strict_device_local=1` makes lavapipe
    behave as a discrete GPU: memory requested without HOST_VISIBLE is not
    mapped): arguments, results, to_host, DLPack and asdevicearray go through
    staging copies and give the same values."""
    strict = ember_rt.get_device("vulkan?strict_device_local=1")
    module = _load(ember_rt, strict, compile_mlir("vulkan-affine", MATMUL,
                                                  VULKAN_FLAGS))
    x, w, b = _inputs()
    result = module.affine(x, w, b)
    memory_type = result._buffer_view.get_buffer().memory_type()
    assert not memory_type & int(ember_rt.MemoryType.HOST_VISIBLE)
    expected = x @ w + b
    np.testing.assert_array_equal(result.to_host(), expected)
    np.testing.assert_array_equal(np.asarray(result), expected)
    np.testing.assert_array_equal(np.from_dlpack(result), expected)
    with pytest.raises(BufferError, match="cannot map"):
        result.__dlpack__(copy=False)
    array = ember_rt.asdevicearray(strict, x)
    np.testing.assert_array_equal(array.to_host(), x)
    np.testing.assert_array_equal(module.affine(array, w, b).to_host(),
                                  expected)
