"""HalElementType.map_to_dtype and ember.runtime.version, against
iree.runtime 3.11."""

from __future__ import annotations

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
    assert version.IREE_VERSION == "3.11.0"
    assert isinstance(version.REVISIONS, dict)
    assert rt.version is version
