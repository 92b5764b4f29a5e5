"""What Python users inspect in Ember's exceptions, every dtype asdevicearray
takes as a call argument, and ``python -m ember.shim`` where no ``iree``
package is installed."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ember.runtime as rt

from conftest import CPU_COMPILE_FLAGS, compile_mlir

# ---- missing and unreadable module files ----------------------------------


@pytest.mark.parametrize("load", [
    lambda path: rt.VmModule.mmap(rt.VmInstance(), path),
    lambda path: rt.load_vm_flatbuffer_file(path, driver="local-sync"),
], ids=["VmModule.mmap", "load_vm_flatbuffer_file"])
def test_a_missing_module_file_is_file_not_found(load, tmp_path):
    missing = str(tmp_path / "absent.vmfb")
    with pytest.raises(FileNotFoundError) as raised:
        load(missing)
    error = raised.value
    assert error.errno == errno.ENOENT
    assert error.filename == missing
    assert error.strerror == os.strerror(errno.ENOENT)
    assert str(error) == f"[Errno 2] No such file or directory: '{missing}'"
    with pytest.raises(IsADirectoryError) as raised:
        load(str(tmp_path))
    assert raised.value.errno == errno.EISDIR
    assert raised.value.filename == str(tmp_path)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root reads files without read permission")
def test_an_unreadable_module_file_is_permission_error(tmp_path):
    path = tmp_path / "locked.vmfb"
    path.write_bytes(b"\0" * 64)
    path.chmod(0)
    with pytest.raises(PermissionError) as raised:
        rt.VmModule.mmap(rt.VmInstance(), str(path))
    assert raised.value.errno == errno.EACCES
    assert raised.value.filename == str(path)


def test_a_file_that_opens_but_is_no_module_says_so_first(tmp_path):
    """'not an IREE module (.vmfb)' first, then the loader's detail."""
    path = tmp_path / "garbage.vmfb"
    path.write_bytes(b"garbage!" * 16)
    with pytest.raises(ValueError,
                       match=r"not an IREE module \(\.vmfb\): .*FlatBuffer"):
        rt.VmModule.mmap(rt.VmInstance(), str(path))
    with pytest.raises(ValueError, match=r"not an IREE module \(\.vmfb\)"):
        rt.VmModule.copy_buffer(rt.VmInstance(), b"\x93NUMPY" + b"\0" * 120)


# ---- dtype mismatches name the argument ------------------------------------


def test_a_dtype_mismatch_names_the_argument(sample_vmfb):
    module = rt.load_vm_flatbuffer_file(sample_vmfb, driver="local-sync")
    a = np.arange(4, dtype=np.float32)
    cases = [
        ((a.astype(np.float64), a), "argument 0 of 'simple_mul' must be a "
         "tensor<4xf32>: expected f32, got f64"),
        ((a, a.astype(np.int32)), "argument 1 of 'simple_mul' must be a "
         "tensor<4xf32>: expected f32, got si32"),
        ((a, rt.asdevicearray(rt.get_device("local-sync"),
                              a.astype(np.float16))),
         "argument 1 of 'simple_mul' must be a tensor<4xf32>: expected f32, "
         "got f16"),
    ]
    for args, message in cases:
        with pytest.raises(ValueError) as raised:
            module.simple_mul(*args)
        assert str(raised.value) == message
        # No raw HAL type codes (the program's own check prints them).
        assert not re.search(r"\b[0-9A-F]{8}\b", str(raised.value))
    # Integers of the width pass whatever their signedness, as the program's
    # check lets them.
    ints = compile_mlir("add_i32", """
        func.func @add(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
          %0 = arith.addi %a, %b : tensor<3xi32>
          return %0 : tensor<3xi32>
        }""")
    add = rt.load_vm_flatbuffer_file(ints, driver="local-sync").add
    x = np.array([1, 2, 3], np.uint32)
    assert add(x, x.astype(np.int32)).to_host().tolist() == [2, 4, 6]
    with pytest.raises(ValueError, match=r"^argument 0 of 'add' must be a "
                                         r"tensor<3xi32>: expected i32, got "
                                         r"si64$"):
        add(x.astype(np.int64), x)


# ---- every dtype asdevicearray takes, as a call argument -------------------

# numpy dtype name -> MLIR element type of a function taking it.
DTYPES = {
    "float16": "f16", "float32": "f32", "float64": "f64",
    "int8": "i8", "uint8": "i8", "int16": "i16", "uint16": "i16",
    "int32": "i32", "uint32": "i32", "int64": "i64", "uint64": "i64",
    "bool": "i1", "complex64": "complex<f32>", "complex128": "complex<f64>",
    "bfloat16": "bf16", "float8_e4m3fn": "f8E4M3FN",
    "float8_e4m3fnuz": "f8E4M3FNUZ", "float8_e5m2": "f8E5M2",
    "float8_e5m2fnuz": "f8E5M2FNUZ", "float8_e8m0fnu": "f8E8M0FNU",
}


def _dtype(name):
    if hasattr(np, name) and name != "bool":
        return np.dtype(getattr(np, name))
    if name == "bool":
        return np.dtype(np.bool_)
    ml_dtypes = pytest.importorskip("ml_dtypes")
    return np.dtype(getattr(ml_dtypes, name))


class ArrayLike:
    """An object numpy converts (``__array__``) that is no array itself."""

    def __init__(self, array):
        self.array = array

    def __array__(self, dtype=None, copy=None):
        return self.array if dtype is None else self.array.astype(dtype)


@pytest.mark.parametrize("name", list(DTYPES))
def test_every_asdevicearray_dtype_is_a_call_argument(name):
    dtype = _dtype(name)
    mlir_type = DTYPES[name]
    module_path = compile_mlir(f"twice_{re.sub(r'[^a-z0-9]', '', mlir_type)}",
                               f"""
        func.func @twice(%a: tensor<4x{mlir_type}>) -> tensor<8x{mlir_type}> {{
          %0 = tensor.concat dim(0) %a, %a
              : (tensor<4x{mlir_type}>, tensor<4x{mlir_type}>)
              -> tensor<8x{mlir_type}>
          return %0 : tensor<8x{mlir_type}>
        }}""", CPU_COMPILE_FLAGS)
    twice = rt.load_vm_flatbuffer_file(module_path, driver="local-task").twice
    host = np.array([1, 2, 0.5, 4]).astype(dtype)
    expected = np.concatenate([host, host]).view(np.uint8)
    device = rt.get_device("local-task")
    device_array = rt.asdevicearray(device, host)
    for argument in (host, host[::-1].copy()[::-1], ArrayLike(host),
                     device_array):
        result = twice(argument).to_host()
        assert result.shape == (8,)
        assert result.view(np.uint8).tobytes() == expected.tobytes(), name


def test_allocate_buffer_copy_takes_arrays_without_a_buffer_format():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    device = rt.get_device("local-sync")
    host = np.array([1.5, -2, 3.25], dtype=ml_dtypes.bfloat16)
    view = device.allocator.allocate_buffer_copy(
        memory_type=rt.MemoryType.DEVICE_LOCAL,
        allowed_usage=rt.BufferUsage.DEFAULT, device=device, buffer=host,
        element_type=rt.HalElementType.BFLOAT_16)
    assert view.shape == [3]
    back = rt.DeviceArray(device, view).to_host()
    assert back.dtype == host.dtype
    assert back.tobytes() == host.tobytes()


# ---- the shim without an installed iree package ----------------------------

SHIM_PROBE = """
import sys
import numpy as np
import iree.runtime as rt
import ember.runtime
iree = sys.modules["iree"]
a = np.arange(4, dtype=np.float32)
module = rt.load_vm_flatbuffer_file(sys.argv[1], driver="local-sync")
print(rt is ember.runtime, list(getattr(iree, "__path__", [])) == [],
      module.simple_mul(a, a).to_host().tolist())
try:
    import iree.compiler
    print("compiler", iree.compiler.__name__)
except ModuleNotFoundError as error:
    print("no compiler:", error.name)
"""


def _isolated_site(root: Path) -> Path:
    """A folder with only Ember and numpy (links to the ones these tests
    import), for an interpreter started with -S: no site-packages, so no
    iree package."""
    import ember
    import ember._ember
    site = root / "site"
    (site / "ember").mkdir(parents=True)
    package = Path(ember.__file__).parent
    for item in package.iterdir():
        (site / "ember" / item.name).symlink_to(item)
    extension = Path(ember._ember.__file__)
    if not (site / "ember" / extension.name).exists():  # an editable install
        (site / "ember" / extension.name).symlink_to(extension)
    numpy_dir = Path(np.__file__).parent
    (site / "numpy").symlink_to(numpy_dir)
    if (numpy_dir.parent / "numpy.libs").is_dir():
        (site / "numpy.libs").symlink_to(numpy_dir.parent / "numpy.libs")
    return site


def test_shim_runs_where_no_iree_is_installed(tmp_path, sample_vmfb):
    site = _isolated_site(tmp_path)
    (tmp_path / "probe.py").write_text(SHIM_PROBE)
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("EMBER_SHIM_IREE_RUNTIME", None)
    # Without the shim this interpreter has no iree at all.
    bare = subprocess.run([sys.executable, "-S", "-c", "import iree"],
                          capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert bare.returncode != 0 and "No module named 'iree'" in bare.stderr
    result = subprocess.run(
        [sys.executable, "-S", "-m", "ember.shim", "probe.py",
         str(sample_vmfb)], capture_output=True, text=True, env=env,
        cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "True True [0.0, 1.0, 4.0, 9.0]", "no compiler: iree.compiler"]


def test_shim_keeps_an_installed_iree_package(tmp_path, sample_vmfb):
    try:
        import iree.compiler  # noqa: F401
    except ImportError:
        pytest.skip("no iree.compiler installed beside Ember")
    (tmp_path / "probe.py").write_text(SHIM_PROBE)
    result = subprocess.run(
        [sys.executable, "-m", "ember.shim", "probe.py", str(sample_vmfb)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    # The installed namespace package (its path is not empty) and its real
    # compiler; only iree.runtime is Ember's.
    assert result.stdout.splitlines() == [
        "True False [0.0, 1.0, 4.0, 9.0]", "compiler iree.compiler"]
