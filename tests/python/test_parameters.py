"""Parameters: programs whose globals live in parameter files, on Ember and
on the official runtime (iree.runtime 3.11), compared bit for bit.

The programs are compiled here by the pinned iree-compile with globals
externalized as `#stream.parameter.named<"scope"::"key">`; the archives are
written by one runtime and read by the other (both directions), the values
are random, and every result must be identical. Also: splats, a missing key
and scope, zero copy (no heap bytes for a large parameter), lifetimes (the
index and provider dropped while the module lives), the Python index API
against the official one, and ember-run-module --parameters against
iree-run-module --parameters.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO_ROOT, compile_mlir, ember_run_module_command

sys.path.insert(0, str(REPO_ROOT / "tests" / "io"))
import param_files  # noqa: E402  (pure-Python gguf/safetensors writers)

PROGRAM = r"""
util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<4xf32>
util.global private @s = #stream.parameter.named<"model"::"s"> : tensor<3xi32>
util.global private @big = #stream.parameter.named<"model"::"big"> : tensor<262144xf32>
func.func @run(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<3xi32>, tensor<262144xf32>) {
  %w = util.global.load @w : tensor<4xf32>
  %s = util.global.load @s : tensor<3xi32>
  %b = util.global.load @big : tensor<262144xf32>
  %r = arith.mulf %x, %w : tensor<4xf32>
  return %r, %s, %b : tensor<4xf32>, tensor<3xi32>, tensor<262144xf32>
}
"""

# No scope: `--parameters=file.irpa` and create_provider() serve it.
UNSCOPED = r"""
util.global private @a = #stream.parameter.named<"a"> : tensor<2x3xi64>
util.global private @b = #stream.parameter.named<"b"> : tensor<5xf64>
func.func @get() -> (tensor<2x3xi64>, tensor<5xf64>) {
  %a = util.global.load @a : tensor<2x3xi64>
  %b = util.global.load @b : tensor<5xf64>
  return %a, %b : tensor<2x3xi64>, tensor<5xf64>
}
"""

# A parameter the program writes to (a mutable global): it must get its own
# copy, never write into the file or the caller's array.
MUTABLE = r"""
util.global private mutable @m = #stream.parameter.named<"m"> : tensor<4xi32>
func.func @bump() -> tensor<4xi32> {
  %m = util.global.load @m : tensor<4xi32>
  %one = arith.constant dense<1> : tensor<4xi32>
  %r = arith.addi %m, %one : tensor<4xi32>
  util.global.store %r, @m : tensor<4xi32>
  return %r : tensor<4xi32>
}
"""

# Parameters the program reads and writes (variable globals) are packed
# into one buffer and fetched with io_parameters.gather, not load.
GATHER = r"""
util.global private mutable @w0 = #stream.parameter.named<"model"::"w0"> : tensor<4xf32>
util.global private mutable @w1 = #stream.parameter.named<"model"::"w1"> : tensor<4xf32>
func.func @step(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = util.global.load @w0 : tensor<4xf32>
  %b = util.global.load @w1 : tensor<4xf32>
  %0 = arith.addf %a, %b : tensor<4xf32>
  %1 = arith.mulf %0, %x : tensor<4xf32>
  %2 = arith.subf %b, %x : tensor<4xf32>
  util.global.store %1, @w0 : tensor<4xf32>
  util.global.store %2, @w1 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""

# A program that writes a tensor into a parameter: io_parameters.scatter.
SCATTER = r"""
func.func @save(%x: tensor<4xf32>) -> tensor<4xf32> {
  %key = util.buffer.constant : !util.buffer = "out"
  %scope = util.buffer.constant : !util.buffer = "model"
  %c0 = arith.constant 0 : i64
  %y = arith.addf %x, %x : tensor<4xf32>
  %w = flow.parameter.write %y -> %scope::%key[%c0] : tensor<4xf32>
  return %w : tensor<4xf32>
}
"""

BIG = 262144


def values():
    rng = np.random.default_rng(1234)
    return {
        "w": rng.standard_normal(4).astype(np.float32),
        "s": rng.integers(-2**31, 2**31, 3, dtype=np.int64).astype(np.int32),
        "big": rng.standard_normal(BIG).astype(np.float32),
    }


def run_program(rt, vmfb: Path, index, scope: str, function: str, *args,
                driver="local-task"):
    """The results of `function` as numpy arrays, the program linked with an
    io_parameters module serving `index` under `scope`."""
    instance = rt.VmInstance()
    device = rt.get_device(driver)
    modules = rt.load_vm_modules(
        rt.create_io_parameters_module(instance,
                                       index.create_provider(scope=scope)),
        rt.create_hal_module(instance, device),
        rt.VmModule.mmap(instance, str(vmfb)),
        config=rt.Config(device=device))
    results = getattr(modules[-1], function)(*args)
    if not isinstance(results, (tuple, list)):
        results = [results]
    return [np.array(r.to_host()) if hasattr(r, "to_host") else np.array(r)
            for r in results]


def assert_same_bits(expected, actual):
    assert len(expected) == len(actual)
    for e, a in zip(expected, actual):
        assert e.dtype == a.dtype and e.shape == a.shape
        assert e.tobytes() == a.tobytes()


@pytest.fixture(scope="module")
def program() -> Path:
    return compile_mlir("parameters_model", PROGRAM)


@pytest.mark.parametrize("writer", ["official", "ember"])
@pytest.mark.parametrize("mmap", [True, False])
def test_irpa_results_equal_official(ember_rt, iree_rt, program, tmp_path,
                                     writer, mmap):
    """Both runtimes read the same .irpa (written by either) and compute the
    same bits."""
    path = tmp_path / "model.irpa"
    (iree_rt if writer == "official" else ember_rt).save_archive_file(
        values(), path)
    x = np.array([1.5, -2.0, 0.25, 3.0], np.float32)
    results = {}
    for name, rt in (("official", iree_rt), ("ember", ember_rt)):
        index = rt.ParameterIndex()
        index.load(str(path), mmap=mmap)
        results[name] = run_program(rt, program, index, "model", "run", x)
    assert_same_bits(results["official"], results["ember"])
    v = values()
    np.testing.assert_array_equal(results["ember"][0], x * v["w"])
    np.testing.assert_array_equal(results["ember"][1], v["s"])
    np.testing.assert_array_equal(results["ember"][2], v["big"])


@pytest.mark.parametrize("format", ["safetensors", "gguf"])
def test_other_formats_equal_official(ember_rt, iree_rt, program, tmp_path,
                                      format):
    """The same .safetensors / .gguf file read by both runtimes gives the
    same results (gguf data is the writer's byte pattern)."""
    v = values()
    path = tmp_path / f"model.{format}"
    if format == "safetensors":
        path.write_bytes(param_files.safetensors([
            ("w", "F32", [4], v["w"].tobytes()),
            ("s", "I32", [3], v["s"].tobytes()),
            ("big", "F32", [BIG], v["big"].tobytes()),
        ]))
    else:
        data, _ = param_files.gguf([("w", 0, [4]), ("s", 18, [3]),
                                    ("big", 0, [BIG])])
        path.write_bytes(data)
    x = np.array([1.0, -1.0, 0.5, 2.0], np.float32)
    results = {}
    for name, rt in (("official", iree_rt), ("ember", ember_rt)):
        index = rt.ParameterIndex()
        index.load(str(path))
        results[name] = run_program(rt, program, index, "model", "run", x)
    assert_same_bits(results["official"], results["ember"])
    if format == "safetensors":
        np.testing.assert_array_equal(results["ember"][2], v["big"])


def test_buffers_and_splats_equal_official(ember_rt, iree_rt, program):
    """Entries from Python buffers (add_buffer, no file) and splats."""
    x = np.ones(4, np.float32)
    results = {}
    for name, rt in (("official", iree_rt), ("ember", ember_rt)):
        index = rt.ParameterIndex()
        index.add_splat("w", np.float32(-0.75), 4 * 4)
        index.add_splat("s", np.array([0x01020304], np.int32), 3 * 4)
        index.add_buffer("big", values()["big"])
        results[name] = run_program(rt, program, index, "model", "run", x)
    assert_same_bits(results["official"], results["ember"])
    np.testing.assert_array_equal(results["ember"][0], np.full(4, -0.75))
    np.testing.assert_array_equal(results["ember"][1], np.full(3, 0x01020304))


def test_unscoped_parameters_equal_official(ember_rt, iree_rt, tmp_path):
    vmfb = compile_mlir("parameters_unscoped", UNSCOPED)
    a = np.arange(6, dtype=np.int64).reshape(2, 3) - 3
    b = np.array([0.5, -1e300, np.pi, 0.0, 7.0])
    path = tmp_path / "u.irpa"
    iree_rt.save_archive_file({"a": a, "b": b}, path)
    results = {}
    for name, rt in (("official", iree_rt), ("ember", ember_rt)):
        index = rt.ParameterIndex()
        index.load(str(path))
        results[name] = run_program(rt, vmfb, index, "", "get")
    assert_same_bits(results["official"], results["ember"])
    np.testing.assert_array_equal(results["ember"][0], a)
    np.testing.assert_array_equal(results["ember"][1], b)


def test_mutable_parameter_is_copied(ember_rt, iree_rt, tmp_path):
    """A program writing its parameter changes neither the file nor the
    array the index wraps, on either runtime, and computes the same."""
    vmfb = compile_mlir("parameters_mutable", MUTABLE)
    path = tmp_path / "m.irpa"
    start = np.array([10, 20, 30, 40], np.int32)
    ember_rt.save_archive_file({"m": start}, path)
    before = path.read_bytes()
    results = {}
    for name, rt in (("official", iree_rt), ("ember", ember_rt)):
        index = rt.ParameterIndex()
        index.load(str(path))
        instance = rt.VmInstance()
        device = rt.get_device("local-task")
        modules = rt.load_vm_modules(
            rt.create_io_parameters_module(instance, index.create_provider()),
            rt.create_hal_module(instance, device),
            rt.VmModule.mmap(instance, str(vmfb)),
            config=rt.Config(device=device))
        results[name] = [np.array(modules[-1].bump().to_host())
                         for _ in range(3)]
    assert_same_bits(results["official"], results["ember"])
    np.testing.assert_array_equal(results["ember"][-1], start + 3)
    assert path.read_bytes() == before
    # The same with the array itself as the parameter (add_buffer).
    array = start.copy()
    index = ember_rt.ParameterIndex()
    index.add_buffer("m", array)
    instance = ember_rt.VmInstance()
    device = ember_rt.get_device("local-task")
    modules = ember_rt.load_vm_modules(
        ember_rt.create_io_parameters_module(instance,
                                             index.create_provider()),
        ember_rt.create_hal_module(instance, device),
        ember_rt.VmModule.mmap(instance, str(vmfb)),
        config=ember_rt.Config(device=device))
    np.testing.assert_array_equal(modules[-1].bump().to_host(), start + 1)
    np.testing.assert_array_equal(array, start)


def test_missing_key_names_scope_and_key(ember_rt, program):
    index = ember_rt.ParameterIndex()
    index.add_buffer("w", np.zeros(4, np.float32))
    index.add_buffer("big", np.zeros(BIG, np.float32))
    with pytest.raises(ValueError, match="parameter 'model::s' not found"):
        run_program(ember_rt, program, index, "model", "run",
                    np.ones(4, np.float32))


def test_missing_scope(ember_rt, program):
    index = ember_rt.ParameterIndex()
    with pytest.raises(ValueError,
                       match="no provider registered that handles scopes "
                             "like 'model'"):
        run_program(ember_rt, program, index, "other", "run",
                    np.ones(4, np.float32))


def test_short_parameter_is_out_of_range(ember_rt, program):
    """An entry shorter than the program's global: an error, not a read past
    the entry."""
    index = ember_rt.ParameterIndex()
    index.add_buffer("w", np.zeros(3, np.float32))  # 12 of 16 bytes
    index.add_buffer("s", np.zeros(3, np.int32))
    index.add_buffer("big", np.zeros(BIG, np.float32))
    with pytest.raises(IndexError, match="'model::w' range out of bounds"):
        run_program(ember_rt, program, index, "model", "run",
                    np.ones(4, np.float32))


def test_large_parameter_is_not_copied(ember_rt, program, tmp_path):
    """Loading a mapped .irpa allocates no heap bytes for its parameters
    (they alias the mapping), and the result is the file's bytes."""
    path = tmp_path / "model.irpa"
    ember_rt.save_archive_file(values(), path)
    rt = ember_rt
    index = rt.ParameterIndex()
    index.load(str(path))
    instance = rt.VmInstance()
    device = rt.get_device("local-sync")
    modules = rt.load_vm_modules(
        rt.create_io_parameters_module(instance, index.create_provider("model")),
        rt.create_hal_module(instance, device),
        rt.VmModule.mmap(instance, str(program)),
        config=rt.Config(device=device))
    stats = device.allocator.statistics
    # The globals are loaded at initialization: imported, not allocated.
    assert stats["bytes_imported"] >= BIG * 4
    assert stats["bytes_allocated"] < BIG * 4
    big = modules[-1].run(np.ones(4, np.float32))[2].to_host()
    np.testing.assert_array_equal(big, values()["big"])


def test_index_dropped_while_module_lives(ember_rt, program):
    """The module keeps its providers, indexes and the Python buffers alive."""
    rt = ember_rt
    v = values()
    index = rt.ParameterIndex()
    for key, value in v.items():
        index.add_buffer(key, value.copy())
    instance = rt.VmInstance()
    module = rt.create_io_parameters_module(instance,
                                            index.create_provider("model"))
    del index
    gc.collect()
    device = rt.get_device("local-task")
    modules = rt.load_vm_modules(
        module, rt.create_hal_module(instance, device),
        rt.VmModule.mmap(instance, str(program)),
        config=rt.Config(device=device))
    del module
    gc.collect()
    results = modules[-1].run(np.ones(4, np.float32))
    np.testing.assert_array_equal(results[1].to_host(), v["s"])
    np.testing.assert_array_equal(results[2].to_host(), v["big"])


def test_create_io_parameters_module_rejects_non_providers(ember_rt):
    with pytest.raises(TypeError):
        ember_rt.create_io_parameters_module(ember_rt.VmInstance(), 42)


def test_index_api_matches_official(ember_rt, iree_rt, tmp_path):
    """Entries, reprs and errors as iree.runtime's."""
    reprs = {}
    for name, rt in (("official", iree_rt), ("ember", ember_rt)):
        path = tmp_path / f"{name}.irpa"
        rt.save_archive_file({
            "weight": rt.SplatValue(np.int8(2), [30, 20]),
            "bias": rt.SplatValue(np.array([1.0], np.float32), 30),
            "array": np.arange(6, dtype=np.int64),
        }, path)
        index = rt.ParameterIndex()
        index.load(str(path))
        assert len(index) == 3
        entries = dict(index.items())
        assert entries["weight"].is_splat and not entries["weight"].is_file
        assert entries["array"].is_file
        assert entries["array"].length == 48
        assert bytes(entries["array"].file_view) == \
            np.arange(6, dtype=np.int64).tobytes()
        with pytest.raises(ValueError, match="Entry is not file storage"):
            entries["weight"].file_storage
        with pytest.raises(ValueError, match="Entry is not splat"):
            entries["array"].splat_pattern
        with pytest.raises(IndexError):
            index[3]
        with pytest.raises(ValueError):
            index.add_splat("x", np.zeros(5, np.float32), 20)
        reprs[name] = (repr(entries["weight"]), repr(entries["bias"]),
                       repr(index[0]).split(" FileHandle")[0])
        assert "Parameter scope <global> (3 entries" in repr(index)
    assert reprs["official"] == reprs["ember"]


def test_numpy_helpers(ember_rt):
    rt = ember_rt
    index = rt.ParameterIndex()
    array = np.arange(12, dtype=np.float16).reshape(3, 4)
    rt.parameter_index_add_numpy_ndarray(index, "t", array)
    rt.parameter_index_add_numpy_ndarray(index, "z", np.array(7, np.int64))
    entry = index[0]
    assert entry.metadata.startswith(b"TENSORv0:")
    view = rt.parameter_index_entry_as_numpy_ndarray(entry)
    assert view.dtype == np.float16 and view.shape == (3, 4)
    np.testing.assert_array_equal(view, array)
    np.testing.assert_array_equal(
        rt.parameter_index_entry_as_numpy_ndarray(index[1]), 7)
    # iree-turbine's metadata.
    index.add_buffer("p", np.array([1, 2, 3, 4], np.uint8),
                     metadata='PYTORCH:{"type": "Tensor", "dtype": "uint8", '
                              '"shape": [2, 2]}')
    np.testing.assert_array_equal(
        rt.parameter_index_entry_as_numpy_ndarray(index[2]),
        [[1, 2], [3, 4]])
    index.add_buffer("bad", b"abcd", metadata="nope")
    with pytest.raises(ValueError, match="Expected format version prefix"):
        rt.parameter_index_entry_as_numpy_ndarray(index[3])
    index.add_splat("sp", np.int16(-2), 6)
    np.testing.assert_array_equal(
        rt.parameter_index_entry_as_numpy_flat_ndarray(index[4]),
        np.frombuffer(np.int16(-2).tobytes(), np.uint8))


def test_file_handle(ember_rt):
    rt = ember_rt
    handle = rt.FileHandle.wrap_memory(b"foobar")
    assert handle.is_host_allocation and not handle.is_fd
    view = handle.host_allocation
    del handle
    gc.collect()
    assert bytes(view) == b"foobar"
    assert view.readonly
    index = rt.ParameterIndex()
    index.add_from_file_handle("d", rt.FileHandle.wrap_memory(b"foobar"),
                               length=3, offset=3)
    assert bytes(index[0].file_view) == b"bar"
    assert repr(rt.FileHandle.wrap_memory(b"x")).startswith(
        "FileHandle<host_allocation(<memory at")


def test_wrap_fd(ember_rt, tmp_path):
    rt = ember_rt
    path = tmp_path / "a.irpa"
    rt.save_archive_file({"k": np.arange(4, dtype=np.int32)}, path)
    with open(path, "rb") as f:
        handle = rt.FileHandle.wrap_fd(f.fileno(), True, False)
        assert handle.is_fd and not handle.is_host_allocation
        assert repr(handle).startswith("FileHandle<fd(")
        index = rt.ParameterIndex()
        index.load_from_file_handle(handle, "irpa")
        assert repr(index[0]).startswith("<ParameterIndexEntry 'k' FileHandle<fd(")


def tool_output(command):
    result = subprocess.run(command, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_run_module_parameters_match_iree_run_module(
        iree_rt, iree_run_module, tmp_path):
    vmfb = compile_mlir("parameters_unscoped", UNSCOPED)
    scoped = compile_mlir("parameters_model", PROGRAM)
    path = tmp_path / "u.irpa"
    iree_rt.save_archive_file(
        {"a": np.arange(6, dtype=np.int64).reshape(2, 3) * -7,
         "b": np.linspace(-1, 1, 5)}, path)
    model = tmp_path / "model.irpa"
    iree_rt.save_archive_file(values(), model)
    cases = [
        [f"--module={vmfb}", "--function=get", f"--parameters={path}"],
        [f"--module={scoped}", "--function=run", f"--parameters=model={model}",
         "--input=4xf32=1,2,3,4", "--output_max_element_count=16"],
    ]
    for args in cases:
        ours = tool_output(ember_run_module_command() + args)
        theirs = tool_output([iree_run_module, "--device=local-task", *args])
        assert ours == theirs
    # A missing parameter file fails with its name.
    result = subprocess.run(
        ember_run_module_command() + [f"--module={vmfb}", "--function=get",
                                      f"--parameters={tmp_path}/none.irpa"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode != 0 and "none.irpa" in result.stderr


def test_gathered_parameters_equal_official(ember_rt, iree_rt):
    vmfb = compile_mlir("parameters_gather", GATHER)
    dump = ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(vmfb)).dump()
    assert "io_parameters.gather" in dump
    assert "io_parameters.load" not in dump
    rng = np.random.default_rng(7)
    w0 = rng.standard_normal(4).astype(np.float32)
    w1 = rng.standard_normal(4).astype(np.float32)
    x = rng.standard_normal(4).astype(np.float32)
    originals = (w0.copy(), w1.copy())
    results = {}
    for name, rt in (("official", iree_rt), ("ember", ember_rt)):
        index = rt.ParameterIndex()
        index.add_buffer("w0", w0)
        index.add_buffer("w1", w1)
        instance = rt.VmInstance()
        device = rt.get_device("local-task")
        modules = rt.load_vm_modules(
            rt.create_io_parameters_module(
                instance, index.create_provider(scope="model")),
            rt.create_hal_module(instance, device),
            rt.VmModule.mmap(instance, str(vmfb)),
            config=rt.Config(device=device))
        results[name] = [np.array(modules[-1].step(x).to_host())
                         for _ in range(3)]
    assert_same_bits(results["official"], results["ember"])
    # numpy, step by step (each operation rounds to f32 as the kernels do).
    a, b = originals
    for got in results["ember"]:
        a, b = (a + b) * x, b - x
        np.testing.assert_array_equal(got, a)
    # The program's writes went to its own copy, never the caller's arrays.
    np.testing.assert_array_equal(w0, originals[0])
    np.testing.assert_array_equal(w1, originals[1])


def _scatter_module(rt, vmfb, index):
    instance = rt.VmInstance()
    device = rt.get_device("local-sync")
    return rt.load_vm_modules(
        rt.create_io_parameters_module(instance,
                                       index.create_provider(scope="model")),
        rt.create_hal_module(instance, device),
        rt.VmModule.mmap(instance, str(vmfb)),
        config=rt.Config(device=device))[-1]


def _eight_floats(aligned: bool) -> np.ndarray:
    """Eight -1.0 floats whose first byte is (or is not) 64-byte aligned."""
    raw = np.full(8 + 32, -1.0, np.float32)
    shift = (-raw.ctypes.data % 64) // 4
    if not aligned:
        shift += 4  # 16 bytes past the boundary
    target = raw[shift:shift + 8]
    assert (target.ctypes.data % 64 == 0) == aligned
    return target


def test_scatter_writes_parameters_as_official(ember_rt, iree_rt, tmp_path):
    vmfb = compile_mlir("parameters_scatter", SCATTER)
    dump = ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(vmfb)).dump()
    assert "io_parameters.scatter" in dump
    x = np.array([1.5, -2.0, 0.25, 8.0], np.float32)
    files = {}
    for name, rt in (("official", iree_rt), ("ember", ember_rt)):
        # Into caller memory, at an offset inside it: only those bytes
        # change. (The official runtime refuses the write with a
        # DISCARD_WRITE permission error when the wrapped memory starts at
        # a 64-byte aligned address -- it then imports the memory instead
        # of staging the write -- and at byte offset 8; numpy's 16-byte
        # aligned arrays hit the first case one time in four. So its half
        # uses memory that is not 64-byte aligned; Ember writes into both,
        # below.)
        target = _eight_floats(aligned=False)
        handle = rt.FileHandle.wrap_memory(target, readable=True,
                                           writable=True)
        index = rt.ParameterIndex()
        index.add_from_file_handle("out", handle, 16, 16)
        result = _scatter_module(rt, vmfb, index).save(x)
        np.testing.assert_array_equal(np.array(result.to_host()), 2 * x)
        np.testing.assert_array_equal(
            target, np.concatenate([[-1.0] * 4, 2 * x]))
        # Into a file through its descriptor.
        path = tmp_path / f"{name}.bin"
        path.write_bytes(b"\xab" * 40)
        fd = os.open(path, os.O_RDWR)
        try:
            handle = rt.FileHandle.wrap_fd(fd, readable=True, writable=True)
            index = rt.ParameterIndex()
            index.add_from_file_handle("out", handle, 16, 12)
            module = _scatter_module(rt, vmfb, index)
            module.save(x)
            del module, index, handle
            gc.collect()
        finally:
            os.close(fd)
        files[name] = path.read_bytes()
    assert files["ember"] == files["official"]
    assert files["ember"] == (b"\xab" * 12 + (2 * x).tobytes() +
                              b"\xab" * 12)
    # Ember writes at any offset inside the memory (8 included), wherever
    # the memory starts.
    for aligned in (True, False):
        for offset in (0, 4, 8, 16):
            target = _eight_floats(aligned)
            handle = ember_rt.FileHandle.wrap_memory(target, readable=True,
                                                     writable=True)
            index = ember_rt.ParameterIndex()
            index.add_from_file_handle("out", handle, 16, offset)
            _scatter_module(ember_rt, vmfb, index).save(x)
            expected = np.full(8, -1.0, np.float32)
            expected.view(np.uint8)[offset:offset + 16] = (2 * x).view(
                np.uint8)
            np.testing.assert_array_equal(target, expected)


def test_scatter_refusals(ember_rt, iree_rt):
    vmfb = compile_mlir("parameters_scatter", SCATTER)
    x = np.ones(4, np.float32)
    # A read-only parameter: refused by both runtimes, nothing written.
    for rt in (iree_rt, ember_rt):
        target = np.zeros(4, np.float32)
        index = rt.ParameterIndex()
        index.add_buffer("out", target)
        with pytest.raises(RuntimeError, match="PERMISSION_DENIED"):
            _scatter_module(rt, vmfb, index).save(x)
        np.testing.assert_array_equal(target, 0)
    # A parameter shorter than the write: out of range (IndexError, as
    # upstream), nothing written.
    for rt in (iree_rt, ember_rt):
        target = np.zeros(4, np.float32)
        handle = rt.FileHandle.wrap_memory(target, readable=True,
                                           writable=True)
        index = rt.ParameterIndex()
        index.add_from_file_handle("out", handle, 12, 0)
        with pytest.raises(IndexError, match="out of bounds"):
            _scatter_module(rt, vmfb, index).save(x)
        np.testing.assert_array_equal(target, 0)
