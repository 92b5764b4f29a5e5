"""HalElementType.map_to_dtype and ember.runtime.version, against
iree.runtime 3.11."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ember.runtime as rt


def _outcome(runtime, name):
    try:
        return ("ok", np.dtype(runtime.HalElementType.map_to_dtype(
            getattr(runtime.HalElementType, name))).str)
    except ValueError:
        return ("raise", "ValueError")


NAMES = [name for name in dir(rt.HalElementType)
         if name.isupper() and not name.startswith("_")]


# Beyond iree.runtime 3.11, which raises for these: the ml_dtypes types.
ML_DTYPES = {"BFLOAT_16": "bfloat16", "FLOAT_8_E4M3_FN": "float8_e4m3fn",
             "FLOAT_8_E4M3_FNUZ": "float8_e4m3fnuz",
             "FLOAT_8_E5M2": "float8_e5m2",
             "FLOAT_8_E5M2_FNUZ": "float8_e5m2fnuz",
             "FLOAT_8_E8M0_FNU": "float8_e8m0fnu"}


@pytest.mark.parametrize("name", NAMES)
def test_map_to_dtype_as_iree(name, iree_rt):
    if not hasattr(iree_rt.HalElementType, name):
        pytest.skip(f"iree.runtime has no HalElementType.{name}")
    if name in ML_DTYPES:
        ml_dtypes = pytest.importorskip("ml_dtypes")
        expected = getattr(ml_dtypes, ML_DTYPES[name], None)
        if expected is not None:
            assert rt.HalElementType.map_to_dtype(
                getattr(rt.HalElementType, name)) == np.dtype(expected)
            return
    assert _outcome(rt, name) == _outcome(iree_rt, name)


def test_map_to_dtype_examples():
    assert rt.HalElementType.map_to_dtype(
        rt.HalElementType.FLOAT_32) == np.float32
    assert rt.HalElementType.map_to_dtype(rt.HalElementType.INT_32) == np.int32
    with pytest.raises(ValueError, match="Unsupported"):
        rt.HalElementType.map_to_dtype(rt.HalElementType.OPAQUE_8)


def test_version():
    import ember
    from ember.runtime import version
    assert version.VERSION == ember.__version__
    assert version.IREE_VERSION == "3.13.0"
    assert isinstance(version.REVISIONS, dict)
    assert rt.version is version


def _run_fresh(code: str) -> subprocess.CompletedProcess:
    """Runs `code` in a new interpreter importing the ember package these
    tests import."""
    import ember
    package_root = os.path.dirname(os.path.dirname(ember.__file__))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [package_root, *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, env=env,
                          timeout=120)


def test_ml_dtypes_is_imported_on_first_need_only():
    pytest.importorskip("ml_dtypes")
    # Importing ml_dtypes takes most of a second; ember.runtime leaves it
    # until a bf16/f8 type is asked for, and then the types map as before:
    # through map_to_dtype, a buffer view read by the native call path, and
    # an array of the user's.
    result = _run_fresh("""
        import sys
        import numpy as np
        import ember.runtime as rt
        assert "ml_dtypes" not in sys.modules, "imported with ember.runtime"
        device = rt.get_device("local-sync")
        f32 = rt.asdevicearray(device, np.arange(4, dtype=np.float32))
        assert f32.to_host().dtype == np.float32
        assert "ml_dtypes" not in sys.modules, "imported by a float32 call"

        bits = np.array([0x3F80, 0x4000, 0xC040, 0], dtype=np.uint16)
        # A buffer view of the bits, typed bfloat16.
        view = device.allocator.allocate_buffer_copy(
            memory_type=rt.MemoryType.DEVICE_LOCAL,
            allowed_usage=rt.BufferUsage.DEFAULT, device=device,
            buffer=bits, element_type=rt.HalElementType.BFLOAT_16)
        host = np.asarray(rt.DeviceArray(device, view,
                                          implicit_host_transfer=True))
        import ml_dtypes
        assert host.dtype == np.dtype(ml_dtypes.bfloat16), host.dtype
        assert host.astype(np.float32).tolist() == [1.0, 2.0, -3.0, 0.0]
        print("ok")
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"

    for code in (
            "rt.HalElementType.map_to_dtype(rt.HalElementType.BFLOAT_16)",
            "rt.array_interop.map_dtype_to_element_type('bfloat16')"):
        result = _run_fresh(f"""
            import sys
            import ember.runtime as rt
            value = {code}
            import ml_dtypes
            assert str(value) in ("bfloat16", str(
                rt.HalElementType.BFLOAT_16)), value
            print("ok")
        """)
        assert result.returncode == 0, (code, result.stderr)

    # A user's bfloat16 array (ml_dtypes imported by the user) goes in.
    result = _run_fresh("""
        import ml_dtypes
        import numpy as np
        import ember.runtime as rt
        device = rt.get_device("local-sync")
        array = np.array([1.5, -2.0], dtype=ml_dtypes.bfloat16)
        on_device = rt.asdevicearray(device, array)
        assert on_device.dtype == np.dtype(ml_dtypes.bfloat16)
        assert on_device.to_host().tolist() == array.tolist()
        print("ok")
    """)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", sorted(ML_DTYPES.values()))
def test_asdevicearray_round_trips_ml_dtypes(name):
    # numpy cannot export these through the buffer protocol; the bytes go
    # as unsigned integers and the element type follows the dtype.
    ml_dtypes = pytest.importorskip("ml_dtypes")
    dtype = getattr(ml_dtypes, name, None)
    if dtype is None:
        pytest.skip(f"this ml_dtypes has no {name}")
    device = rt.get_device("local-sync")
    array = np.array([[1.0, -2.0], [0.5, 0.25]], dtype=dtype)
    on_device = rt.asdevicearray(device, array)
    assert on_device.dtype == np.dtype(dtype)
    assert on_device._buffer_view.element_type == getattr(
        rt.HalElementType, next(k for k, v in ML_DTYPES.items() if v == name))
    host = on_device.to_host()
    assert host.dtype == np.dtype(dtype)
    assert host.view(np.uint8).tobytes() == array.view(np.uint8).tobytes()
