"""ember.runtime has the names and behaviour of iree.runtime 3.13 where
3.11 and 3.13 differ (external timepoints, external captures, FileHandle's
is_async, the dtypes and typing modules, the tokenizers, begin_profiling),
and raises the exception classes 3.13 raises.

The official 3.13 runtime runs in a subprocess, through the interpreter that
$EMBER_IREE313_PYTHON names (tests comparing with it skip, saying so, when
it is unset); the rest check Ember on its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import ember.runtime as rt

from conftest import compile_mlir

IREE313_VARIABLE = "EMBER_IREE313_PYTHON"


def run_iree313(code: str):
    """Runs `code` with the official iree.runtime 3.13 and returns the JSON
    it prints on its last line (skips when no such interpreter is named)."""
    python = os.environ.get(IREE313_VARIABLE)
    if not python:
        pytest.skip(f"${IREE313_VARIABLE} (a python with iree-base-runtime "
                    "3.13) is not set")
    result = subprocess.run(
        [python, "-c", textwrap.dedent(code)], capture_output=True,
        text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    version = json.loads(result.stdout.splitlines()[-1])
    return version


# The public surface of a runtime module, as JSON: each name's kind, and for
# a class its public members. The same code runs on both runtimes.
SURFACE = """
import inspect, json
def surface(module):
    out = {}
    for name in dir(module):
        if name.startswith("_"):
            continue
        value = getattr(module, name)
        if inspect.isclass(value):
            out[name] = sorted(m for m in dir(value) if not m.startswith("_"))
        elif inspect.ismodule(value):
            out[name] = "module"
        else:
            out[name] = "other"
    return out
"""


def test_every_public_name_of_iree313_exists():
    theirs = run_iree313(SURFACE + """
        import iree.runtime as rt
        print(json.dumps(surface(rt)))
    """.replace("\n        ", "\n"))
    namespace = {}
    exec(SURFACE, namespace)
    ours = namespace["surface"](rt)
    missing = sorted(set(theirs) - set(ours))
    assert not missing, f"ember.runtime lacks {missing}"
    for name, members in theirs.items():
        if isinstance(members, list):
            assert isinstance(ours[name], list), name
            lacking = sorted(set(members) - set(ours[name]))
            assert not lacking, f"ember.runtime.{name} lacks {lacking}"
        elif members == "module":
            assert ours[name] == "module", name


def test_enum_values_match_iree313():
    theirs = run_iree313("""
        import json
        import iree.runtime as rt
        out = {}
        for enum in ("ExternalTimepointType", "ExternalTimepointFlags",
                     "SemaphoreCompatibility", "BufferUsage"):
            cls = getattr(rt, enum)
            out[enum] = {m.name: m.value for m in cls}
        print(json.dumps(out))
    """)
    for enum, members in theirs.items():
        cls = getattr(rt, enum)
        for name, value in members.items():
            assert int(getattr(cls, name)) == value, f"{enum}.{name}"


def test_wait_primitive_is_an_alias_of_async_primitive():
    ett = rt.ExternalTimepointType
    assert int(ett.ASYNC_PRIMITIVE) == 1
    assert ett.WAIT_PRIMITIVE == ett.ASYNC_PRIMITIVE
    # 3.13's listing: the alias is no separate member.
    assert [m.name for m in ett] == ["NONE", "ASYNC_PRIMITIVE", "CUDA_EVENT",
                                     "HIP_EVENT"]


# The same timepoint scenario on both runtimes: what export fills in, what
# import does, and which calls raise what.
TIMEPOINTS = """
import json, time
import iree.runtime as rt
out = {}
def outcome(call):
    try:
        call()
        return "ok"
    except Exception as error:
        return type(error).__name__
for driver in ("local-sync", "local-task"):
    device = rt.get_device(driver)
    source = device.create_semaphore(0)
    target = device.create_semaphore(0)
    point = rt.HalExternalTimepoint()
    fresh = [point.type, point.flags, point.compatibility]
    out[driver + " export"] = outcome(lambda: source.export_timepoint(
        4, rt.ExternalTimepointType.ASYNC_PRIMITIVE,
        rt.ExternalTimepointFlags.NONE, point))
    out[driver + " fields"] = fresh + [point.type, point.flags,
                                       point.compatibility]
    out[driver + " import"] = outcome(lambda: target.import_timepoint(9,
                                                                       point))
    before = target.query()
    source.signal(3)
    time.sleep(0.05)
    between = target.query()
    source.signal(4)
    target.wait(9, timeout=5 * 10**9)
    out[driver + " values"] = [before, between, target.query()]
    for kind in ("NONE", "CUDA_EVENT", "HIP_EVENT"):
        out[driver + " export " + kind] = outcome(
            lambda: source.export_timepoint(
                5, getattr(rt.ExternalTimepointType, kind), 0,
                rt.HalExternalTimepoint()))
    out[driver + " import empty"] = outcome(
        lambda: target.import_timepoint(10, rt.HalExternalTimepoint()))
    out[driver + " capture"] = outcome(
        lambda: device.begin_external_capture("renderdoc"))
    out[driver + " capture all"] = outcome(
        lambda: device.begin_external_capture("renderdoc", "/tmp/x", "l"))
    out[driver + " end capture"] = outcome(device.end_external_capture)
point = rt.HalExternalTimepoint()
point.cuda_event = 5  # a NONE timepoint becomes a CUDA_EVENT one
out["cuda_event"] = [point.type, point.cuda_event]
out["hip_event on CUDA"] = outcome(lambda: setattr(point, "hip_event", 5))
point = rt.HalExternalTimepoint()
point.type = rt.ExternalTimepointType.ASYNC_PRIMITIVE
out["cuda_event on ASYNC"] = outcome(lambda: setattr(point, "cuda_event", 5))
print(json.dumps(out))
"""


def _run_ember(code: str):
    """`code` run with ember.runtime as iree.runtime (ember.shim), in a
    fresh interpreter; the JSON of its last line."""
    result = subprocess.run(
        [sys.executable, "-c",
         "import ember.shim; ember.shim.install()\n" + textwrap.dedent(code)],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_timepoints_and_captures_behave_as_iree313():
    ours = _run_ember(TIMEPOINTS)
    # Ember's own answers, whatever the oracle: export of an async primitive
    # works, the imported semaphore follows the exported one, other kinds
    # are not implemented.
    for driver in ("local-sync", "local-task"):
        assert ours[driver + " export"] == "ok"
        assert ours[driver + " fields"] == [0, 0, 0, 1, 0, 5]
        assert ours[driver + " values"] == [0, 0, 9]
        assert ours[driver + " export CUDA_EVENT"] == "NotImplementedError"
        assert ours[driver + " import empty"] == "NotImplementedError"
        assert ours[driver + " capture"] == "NotImplementedError"
        assert ours[driver + " end capture"] == "NotImplementedError"
    assert ours["cuda_event"] == [2, 5]
    assert ours["hip_event on CUDA"] == "ValueError"
    assert ours["cuda_event on ASYNC"] == "ValueError"
    assert run_iree313(TIMEPOINTS) == ours


def test_an_imported_timepoint_fails_with_its_source():
    device = rt.get_device("local-sync")
    source = device.create_semaphore(0)
    target = device.create_semaphore(0)
    point = rt.HalExternalTimepoint()
    source.export_timepoint(2, rt.ExternalTimepointType.WAIT_PRIMITIVE, 0,
                            point)
    target.import_timepoint(1, point)
    waiter_error = []

    def wait():
        try:
            target.wait(1, timeout=10 * 10**9)
        except RuntimeError as error:
            waiter_error.append(str(error))

    thread = threading.Thread(target=wait)
    thread.start()
    source.fail("the producer broke")
    thread.join(20)
    assert not thread.is_alive()
    assert waiter_error and "the producer broke" in waiter_error[0]
    with pytest.raises(RuntimeError, match="the producer broke"):
        target.query()
    # A value no semaphore can take is refused before anything is armed.
    with pytest.raises(ValueError):
        device.create_semaphore(0).import_timepoint(2**40, point)


def test_file_handle_is_async_and_profiling(tmp_path):
    handle = rt.FileHandle.wrap_memory(b"abcd")
    assert handle.is_async is False
    (tmp_path / "data").write_bytes(b"abcd")
    fd = os.open(tmp_path / "data", os.O_RDONLY)
    try:
        assert rt.FileHandle.wrap_fd(fd).is_async is False
    finally:
        os.close(fd)
    device = rt.get_device("local-task")
    device.begin_profiling()  # 3.13's form
    device.end_profiling()
    # 3.11's forms stay accepted (CPU devices record nothing either way).
    device.begin_profiling(mode="queue", file_path="/nonexistent/trace")
    device.flush_profiling()
    device.end_profiling()
    with pytest.raises(ValueError):
        device.begin_profiling(mode="cycles")
    with pytest.raises(TypeError):
        device.begin_external_capture()


def test_shape_makes_views():
    device = rt.get_device("local-sync")
    buffer = device.allocator.allocate_buffer(
        memory_type=rt.MemoryType.DEVICE_LOCAL,
        allowed_usage=rt.BufferUsage.DEFAULT, allocation_size=24)
    view = buffer.create_view(rt.Shape([2, 3]), rt.HalElementType.FLOAT_32)
    assert view.shape == [2, 3]
    assert view.byte_length == 24
    with pytest.raises(IndexError):
        buffer.create_view(rt.Shape([7]), rt.HalElementType.FLOAT_32)
    with pytest.raises(TypeError):
        rt.Shape()


DTYPES = """
import json
import numpy as np
import ml_dtypes
from iree.runtime import dtypes
def info(call):
    try:
        i = call()
    except KeyError as error:
        return ["KeyError", str(error)]
    return [str(i.dtype), i.name, i.abi_type, int(i.hal_type), i.is_complex,
            i.is_floating_point, i.is_integer, i.is_signed]
names = ["float16", "float32", "float64", "int8", "uint8", "int16",
         "uint16", "int32", "uint32", "int64", "uint64", "bool",
         "complex64", "complex128", "float128", "str_"]
abi = ["f16", "f32", "f64", "i1", "i8", "i16", "i32", "i64",
       "complex<f32>", "complex<f64>", "bf16", "si32", "ui8", "x"]
ml = ["bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",
      "float8_e5m2fnuz", "float8_e8m0fnu", "int4", "float8_e3m4"]
out = {
    "fields": [f.name for f in
               __import__("dataclasses").fields(dtypes.DTypeInfo)],
    "by dtype": {n: info(lambda: dtypes.map_dtype_to_dtype_info(
        getattr(np, n))) for n in names},
    "by name": {n: info(lambda: dtypes.map_name_to_dtype_info(n))
                for n in names},
    "by abi": {a: info(lambda: dtypes.map_abi_type_to_dtype_info(a))
               for a in abi},
    "hal": {n: (lambda t: None if t is None else int(t))(
        dtypes.map_dtype_to_hal_element_type(getattr(np, n)))
        for n in names},
    "hal ml": {n: (lambda t: None if t is None else int(t))(
        dtypes.map_dtype_to_hal_element_type(getattr(ml_dtypes, n, None)))
        for n in ml},
    "hal other": [dtypes.map_dtype_to_hal_element_type("not a dtype"),
                  int(dtypes.map_dtype_to_hal_element_type("float32"))],
    "abi table": sorted([str(d), a] for d, a in
                        dtypes.DTYPE_TO_ABI_TYPE.items()),
}
print(json.dumps(out))
"""


def test_dtypes_module_as_iree313():
    ours = _run_ember(DTYPES.replace("from iree.runtime import dtypes",
                                     "from ember.runtime import dtypes"))
    assert ours["fields"] == ["dtype", "name", "abi_type", "hal_type"]
    assert ours["by abi"]["i32"][1] == "int32"  # signed, never uint32
    assert ours["by dtype"]["float128"][0] == "KeyError"
    assert ours["hal ml"]["bfloat16"] == int(rt.HalElementType.BFLOAT_16)
    assert run_iree313(DTYPES) == ours


def test_dtype_info_is_a_frozen_dataclass():
    info = rt.dtypes.map_dtype_to_dtype_info(np.uint16)
    assert (info.dtype, info.name, info.abi_type, info.hal_type) == (
        np.dtype(np.uint16), "uint16", "i16", rt.HalElementType.UINT_16)
    assert info.is_integer and not info.is_signed
    with pytest.raises(Exception):
        info.name = "x"
    assert info == rt.dtypes.DTypeInfo(np.dtype(np.uint16), "uint16", "i16",
                                       rt.HalElementType.UINT_16)


def test_typing_module():
    from ember.runtime import typing as rt_typing
    assert rt_typing.TraceKey is str
    assert rt.HalModuleBufferViewTraceCallback is \
        rt_typing.HalModuleBufferViewTraceCallback
    # The debug sink takes such a callback.
    sink = rt.HalModuleDebugSink(lambda key, views: None)
    assert callable(sink.buffer_view_trace_callback)


@pytest.mark.parametrize("make,error,match", [
    (lambda: rt.Tokenizer.from_tiktoken("", "cl100k_base"), ValueError,
     "no tokens"),
    (lambda: rt.TokenizerEncodeStream(), TypeError, "encode_stream"),
], ids=["from_tiktoken_empty", "TokenizerEncodeStream"])
def test_tokenizer_parts_refuse_as_3_13_does(make, error, match):
    # iree.runtime 3.13: ValueError ("empty tiktoken input") and TypeError
    # ("no constructor defined"). The rest of the Tokenizer is tested in
    # the test_tokenizer*.py files.
    with pytest.raises(error, match=match):
        make()


def test_binding_module_and_shim_submodules(tmp_path):
    from ember.runtime import _binding
    assert _binding.VmVariantList is rt.VmVariantList
    assert _binding.Tokenizer is rt.Tokenizer
    assert _binding.ExternalTimepointType is rt.ExternalTimepointType
    result = _run_ember("""
        import json
        import iree.runtime.dtypes, iree.runtime.typing, iree.runtime._binding
        import ember.runtime
        print(json.dumps([iree.runtime.dtypes is ember.runtime.dtypes,
                          iree.runtime.typing is ember.runtime.typing,
                          iree.runtime._binding.HalDevice is
                          ember.runtime.HalDevice]))
    """)
    assert result == [True, True, True]


def test_module_dependencies_cannot_be_made_by_name():
    context = rt.SystemContext(config=rt.Config("local-sync"))
    with pytest.raises(ValueError, match="required module 'hal'"):
        context.add_module_dependency("hal")
    with pytest.raises(ValueError):
        rt.VmModule.resolve_module_dependency(rt.VmInstance(), "check", 0)


# ---- exception classes: the same failing scenarios on both runtimes --------

IMPORTS_CUSTOM = """
func.func private @custom.add(i32, i32) -> i32
func.func @main(%a: i32) -> i32 {
  %r = call @custom.add(%a, %a) : (i32, i32) -> i32
  return %r : i32
}
"""

FAILURES = """
import json, os, sys
import numpy as np
import iree.runtime as rt
sample, imports_custom, scratch = sys.argv[1:4]
out = {}
def outcome(name, call):
    try:
        call()
        out[name] = "ok"
    except Exception as error:
        entry = [type(error).__name__]
        if isinstance(error, OSError):
            entry += [error.errno, error.filename, error.strerror]
        out[name] = entry
instance = rt.VmInstance()
device = rt.get_device("local-sync")
missing = os.path.join(scratch, "missing.vmfb")
outcome("mmap missing", lambda: rt.VmModule.mmap(instance, missing))
outcome("mmap directory", lambda: rt.VmModule.mmap(instance, scratch))
outcome("load file missing",
        lambda: rt.load_vm_flatbuffer_file(missing, driver="local-sync"))
outcome("garbage module",
        lambda: rt.VmModule.copy_buffer(instance, b"garbage" * 10))
module = rt.VmModule.mmap(instance, sample)
outcome("context without hal", lambda: rt.VmContext(instance, [module]))
outcome("register without hal",
        lambda: rt.VmContext(instance).register_modules([module]))
custom_user = rt.VmModule.mmap(instance, imports_custom)
class State:
    def __init__(self, iface):
        pass
    def add(self, a, b):
        return a + b
def custom(cconv, name="add"):
    iface = rt.PyModuleInterface("custom", State)
    iface.export(name, cconv, State.add)
    return iface.create()
outcome("link ok", lambda: rt.VmContext(instance,
                                        [custom("0ii_i"), custom_user]))
outcome("link missing export",
        lambda: rt.VmContext(instance, [custom("0ii_i", "sub"), custom_user]))
outcome("link signature mismatch",
        lambda: rt.VmContext(instance, [custom("0II_I"), custom_user]))
outcome("driver bogus", lambda: rt.get_driver("bogus"))
semaphore = device.create_semaphore(5)
outcome("signal not above", lambda: semaphore.signal(5))
bound = rt.load_vm_flatbuffer_file(sample, driver="local-sync")
a = np.arange(4, dtype=np.float32)
outcome("call too few", lambda: bound.simple_mul(a))
outcome("call f64", lambda: bound.simple_mul(a.astype(np.float64), a))
outcome("call shape", lambda: bound.simple_mul(np.zeros(5, np.float32), a))
outcome("call str", lambda: bound.simple_mul("x", a))
small = device.allocator.allocate_buffer(
    memory_type=rt.MemoryType.DEVICE_LOCAL,
    allowed_usage=rt.BufferUsage.DEFAULT, allocation_size=8)
outcome("view too large",
        lambda: rt.HalBufferView(small, [4], rt.HalElementType.FLOAT_32))
print(json.dumps(out))
"""


def _failures(run, sample_vmfb, tmp_path):
    imports_custom = compile_mlir("imports_custom", IMPORTS_CUSTOM)
    scratch = tmp_path / "scratch"
    scratch.mkdir(exist_ok=True)
    return run(FAILURES.replace(
        "sys.argv[1:4]",
        repr([str(sample_vmfb), str(imports_custom), str(scratch)])))


def test_failures_raise_what_iree313_raises(sample_vmfb, tmp_path):
    ours = _failures(_run_ember, sample_vmfb, tmp_path)
    missing = str(tmp_path / "scratch" / "missing.vmfb")
    assert ours["mmap missing"] == ["FileNotFoundError", 2, missing,
                                    "No such file or directory"]
    assert ours["load file missing"] == ours["mmap missing"]
    assert ours["mmap directory"][0] == "IsADirectoryError"
    assert ours["link ok"] == "ok"
    assert ours["signal not above"] == ["ValueError"]
    theirs = _failures(run_iree313, sample_vmfb, tmp_path)
    # Ember's link failures use other status codes than IREE's context.c
    # (runtime/vm/context.cc): compared by the test below.
    link = {"link signature mismatch"}
    assert {k: v for k, v in ours.items() if k not in link} == \
        {k: v for k, v in theirs.items() if k not in link}


def test_a_signature_mismatch_is_a_runtime_error(sample_vmfb, tmp_path):
    ours = _failures(_run_ember, sample_vmfb, tmp_path)
    assert ours["link signature mismatch"] == ["RuntimeError"]


def test_file_async_parameters_compute_as_mapped_ones(tmp_path):
    """ParameterIndex.load's 3.13 modes: mode="file_async" entries refer to
    the file handle and give a program the same bits as mapped ones."""
    from test_parameters import PROGRAM, run_program, values
    program = compile_mlir("parameters_model", PROGRAM)
    path = tmp_path / "model.irpa"
    rt.save_archive_file(values(), path)
    x = np.array([1.5, -2.0, 0.25, 3.0], np.float32)
    results = {}
    for name, kwargs in (("mapped", {}), ("file_async",
                                          {"mode": "file_async"})):
        index = rt.ParameterIndex()
        index.load(str(path), **kwargs)
        results[name] = run_program(rt, program, index, "model", "run", x)
    assert "fd(" in repr(index.items()[0][1])  # the last: file-backed
    for mapped, streamed in zip(results["mapped"], results["file_async"]):
        assert mapped.tobytes() == streamed.tobytes()
    np.testing.assert_array_equal(results["file_async"][0], x * values()["w"])
    index = rt.ParameterIndex()
    with pytest.raises(ValueError, match="mutually exclusive"):
        index.load(str(path), mmap=False, mode="file_async")
    with pytest.raises(ValueError, match="unsupported parameter file mode"):
        index.load(str(path), mode="preload")
    with pytest.raises(TypeError):
        index.load(str(path), None, True, False, None, "file_async")
