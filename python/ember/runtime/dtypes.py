"""numpy dtypes and their names in the ABI and the HAL (``iree.runtime.dtypes``
of iree.runtime 3.12+).

``DTypeInfo`` describes one dtype: its numpy dtype, its numpy name, the
element type the compiler's ABI spells (``"f32"``, ``"i1"``,
``"complex<f32>"``) and the ``HalElementType``. The lookup functions raise
``KeyError`` for what they do not know, as iree.runtime's:

- ``map_dtype_to_dtype_info`` and ``map_name_to_dtype_info`` cover the
  numpy types (bool, signed and unsigned integers of 8-64 bits, float16-64,
  complex64/128);
- ``map_abi_type_to_dtype_info`` gives the signed type for an integer ABI
  type (``"i32"`` is int32, never uint32: the ABI has no sign);
- ``map_dtype_to_hal_element_type`` also knows the ml_dtypes types
  (bfloat16 and the float8 types), and returns None instead of raising.

``DTYPE_TO_ABI_TYPE`` maps each numpy dtype of the table to its ABI type.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ember._ember import HalElementType

from .array_interop import map_dtype_to_element_type as _hal_element_type

__all__ = [
    "DTYPE_TO_ABI_TYPE",
    "DTypeInfo",
    "map_abi_type_to_dtype_info",
    "map_dtype_to_dtype_info",
    "map_dtype_to_hal_element_type",
    "map_name_to_dtype_info",
]


@dataclasses.dataclass(frozen=True)
class DTypeInfo:
    """One numpy dtype with its numpy name, ABI type and HAL element type."""

    dtype: np.dtype
    name: str
    abi_type: str
    hal_type: HalElementType

    @property
    def is_complex(self) -> bool:
        return bool(np.issubdtype(self.dtype, np.complexfloating))

    @property
    def is_floating_point(self) -> bool:
        return bool(np.issubdtype(self.dtype, np.floating))

    @property
    def is_integer(self) -> bool:
        return bool(np.issubdtype(self.dtype, np.integer))

    @property
    def is_signed(self) -> bool:
        return bool(np.issubdtype(self.dtype, np.signedinteger))


def _info(numpy_type, abi_type: str, hal_type: HalElementType) -> DTypeInfo:
    dtype = np.dtype(numpy_type)
    return DTypeInfo(dtype, dtype.name, abi_type, hal_type)


_E = HalElementType
# Ordered as the lookups by ABI type need it: the signed integer type of a
# width comes before the unsigned one, which shares its ABI type.
_TABLE = (
    _info(np.float16, "f16", _E.FLOAT_16),
    _info(np.float32, "f32", _E.FLOAT_32),
    _info(np.float64, "f64", _E.FLOAT_64),
    _info(np.int8, "i8", _E.SINT_8),
    _info(np.uint8, "i8", _E.UINT_8),
    _info(np.int16, "i16", _E.SINT_16),
    _info(np.uint16, "i16", _E.UINT_16),
    _info(np.int32, "i32", _E.SINT_32),
    _info(np.uint32, "i32", _E.UINT_32),
    _info(np.int64, "i64", _E.SINT_64),
    _info(np.uint64, "i64", _E.UINT_64),
    _info(np.bool_, "i1", _E.BOOL_8),
    _info(np.complex64, "complex<f32>", _E.COMPLEX_64),
    _info(np.complex128, "complex<f64>", _E.COMPLEX_128),
)
del _E

_BY_DTYPE: dict[np.dtype, DTypeInfo] = {info.dtype: info for info in _TABLE}
_BY_NAME: dict[str, DTypeInfo] = {info.name: info for info in _TABLE}
_BY_ABI_TYPE: dict[str, DTypeInfo] = {}
for _entry in _TABLE:
    _BY_ABI_TYPE.setdefault(_entry.abi_type, _entry)
del _entry

DTYPE_TO_ABI_TYPE: dict[np.dtype, str] = {
    info.dtype: info.abi_type for info in _TABLE
}


def map_dtype_to_dtype_info(dtype: np.dtype | type) -> DTypeInfo:
    """The DTypeInfo of a numpy dtype (or anything np.dtype takes);
    KeyError if it has none."""
    normalized = np.dtype(dtype)
    info = _BY_DTYPE.get(normalized)
    if info is None:
        raise KeyError(f"Numpy dtype {normalized} not found.")
    return info


def map_name_to_dtype_info(name: str) -> DTypeInfo:
    """The DTypeInfo of a numpy dtype name ("float32", "bool", ...);
    KeyError if it has none."""
    info = _BY_NAME.get(name)
    if info is None:
        raise KeyError(f"Numpy dtype name {name!r} not found.")
    return info


def map_abi_type_to_dtype_info(abi_type: str) -> DTypeInfo:
    """The DTypeInfo of an ABI element type ("f32", "i1", "complex<f64>");
    integers map to the signed type. KeyError if it has none."""
    info = _BY_ABI_TYPE.get(abi_type)
    if info is None:
        raise KeyError(f"ABI type {abi_type!r} not found.")
    return info


def map_dtype_to_hal_element_type(dtype: Any) -> HalElementType | None:
    """The HalElementType of a dtype (ml_dtypes types included), or None
    for one that has none or is no dtype at all."""
    # The ml_dtypes types have a HAL element type but no DTypeInfo (as in
    # iree.runtime: numpy does not class them as floating point).
    # array_interop knows them, and imports ml_dtypes only when a dtype may
    # be one of its types.
    return _hal_element_type(dtype)
