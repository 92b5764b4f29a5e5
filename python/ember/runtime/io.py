"""Parameters from Python, as ``iree.runtime.io``.

The native classes (``ParameterIndex``, ``ParameterIndexEntry``,
``ParameterProvider``, ``FileHandle``) come from ``ember._ember``; this
module adds iree.runtime's helpers over them: ``SplatValue`` and
``save_archive_file`` (write an .irpa from a dict), and the numpy helpers
that store an array with its dtype and shape in the entry metadata
(``TENSORv0:{json}``; ``PYTORCH:`` metadata that iree-turbine writes is read
too) and view an entry as an array again without a copy.
"""

import array
import json
import math
from os import PathLike
from typing import Any, Dict, Sequence, Union

import numpy as np

from ember._ember import ParameterIndex, ParameterIndexEntry

__all__ = [
    "parameter_index_add_numpy_ndarray",
    "parameter_index_entry_as_numpy_flat_ndarray",
    "parameter_index_entry_as_numpy_ndarray",
    "SplatValue",
    "save_archive_file",
]

# The metadata prefix written by parameter_index_add_numpy_ndarray, and the
# one iree-turbine's files carry; both are read.
_TENSOR_METADATA_VERSION = "TENSORv0"
_TURBINE_METADATA_VERSION = "PYTORCH"
_METADATA_SEPARATOR = ":"

# dtype <-> metadata name, in iree.runtime's spelling.
_DTYPE_NAMES = [
    (np.float16, "float16"),
    (np.float32, "float32"),
    (np.float64, "float64"),
    (np.int32, "int32"),
    (np.int64, "int64"),
    (np.int16, "int16"),
    (np.int8, "int8"),
    (np.uint32, "uint32"),
    (np.uint64, "uint64"),
    (np.uint16, "uint16"),
    (np.uint8, "uint8"),
    (np.bool_, "bool"),
    (np.complex64, "complex64"),
    (np.complex128, "complex128"),
]
_NAME_TO_DTYPE = {name: dtype for dtype, name in _DTYPE_NAMES}


class SplatValue:
    """A parameter made of one element repeated: ``pattern`` (an array of
    exactly one element) ``count`` times (an int or a shape)."""

    def __init__(
        self,
        pattern: Union[array.array, np.ndarray],
        count: Union[Sequence[int], int],
    ):
        shape = getattr(pattern, "shape", None)
        if shape is not None:
            elements = math.prod(shape) if shape else 1
        else:
            elements = len(pattern)
        if elements != 1:
            raise ValueError("SplatValue requires an array of a single element")
        self.pattern = pattern
        if isinstance(count, int):
            logical_length = count
        else:
            logical_length = math.prod(count)
        self.total_length = logical_length * pattern.itemsize

    def __repr__(self):
        return f"SplatValue({self.pattern} of {self.total_length})"


def save_archive_file(
    entries: Dict[str, Union[Any, SplatValue]], file_path: PathLike
):
    """Writes an IRPA (IREE parameter archive) at ``file_path`` holding
    ``entries``: key -> a buffer (its bytes) or a ``SplatValue``."""
    index = ParameterIndex()
    for key, value in entries.items():
        if isinstance(value, SplatValue):
            index.add_splat(key, value.pattern, value.total_length)
        else:
            index.add_buffer(key, value)
    index.create_archive_file(str(file_path))


def _dtype_name(dtype) -> str:
    for candidate, name in _DTYPE_NAMES:
        if candidate == dtype:
            return name
    raise KeyError(f"Numpy dtype {dtype} not found.")


def _tensor_metadata(array: np.ndarray) -> str:
    dtype = array.dtype
    description = {
        "type": "Tensor",
        "dtype": _dtype_name(dtype),
        "shape": list(array.shape),
        "dtype_desc": {
            "class_name": type(dtype).__name__,
            "is_complex": bool(np.issubdtype(dtype, np.complexfloating)),
            "is_floating_point": bool(np.issubdtype(dtype, np.floating)),
            "is_signed": bool(np.issubdtype(dtype, np.signedinteger)),
            "itemsize": dtype.itemsize,
        },
    }
    return (
        _TENSOR_METADATA_VERSION + _METADATA_SEPARATOR + json.dumps(description)
    )


def parameter_index_add_numpy_ndarray(
    index: ParameterIndex, name: str, array: np.ndarray
):
    """Adds ``array`` to ``index`` as ``name`` with its dtype and shape in the
    metadata; a contiguous array is used in place (no copy)."""
    metadata = _tensor_metadata(array)
    if array.ndim == 0:
        # A 0-d array has no reliable byte view; it is small, so copy it.
        flat = array.copy()
    else:
        flat = np.ascontiguousarray(array).view(np.uint8)
    index.add_buffer(name, flat, metadata=metadata)


def parameter_index_entry_as_numpy_flat_ndarray(
    index_entry: ParameterIndexEntry,
) -> np.ndarray:
    """The entry's bytes as a flat uint8 array: a view of a file entry's
    memory, or a copy of a splat's pattern. ValueError otherwise."""
    if index_entry.is_file:
        return np.asarray(index_entry.file_view)
    if index_entry.is_splat:
        return np.array(memoryview(index_entry.splat_pattern), copy=True)
    raise ValueError(f"Unsupported ParameterIndexEntry: {index_entry}")


def parameter_index_entry_as_numpy_ndarray(
    index_entry: ParameterIndexEntry,
) -> np.ndarray:
    """The entry as an array of the dtype and shape its metadata records
    (``TENSORv0:`` or ``PYTORCH:`` JSON). ValueError for missing or bad
    metadata."""
    text = index_entry.metadata.decode()
    parts = text.split(_METADATA_SEPARATOR, maxsplit=1)
    if len(parts) == 1:
        raise ValueError(
            f'Invalid metadata for parameter index entry "{index_entry.key}".'
            f" Expected format version prefix not found in "
            f'"{parts[0][:100]}".'
        )
    version, body = parts
    if version not in (_TENSOR_METADATA_VERSION, _TURBINE_METADATA_VERSION):
        raise ValueError(
            f'Unsupported metadata format version "{version}" for parameter '
            'index entry "{index_entry.key}": Cannot convert to tensor'
        )
    description = json.loads(body)
    try:
        type_name = description["type"]
        if type_name != "Tensor":
            raise ValueError(
                f"Metadata for parameter entry {index_entry.key} is not a "
                f"Tensor ('{type_name}')"
            )
        dtype_name = description["dtype"]
        shape = description["shape"]
    except KeyError as e:
        raise ValueError(
            f"Bad metadata for parameter entry {index_entry.key}"
        ) from e
    try:
        dtype = _NAME_TO_DTYPE[dtype_name]
    except KeyError:
        raise ValueError(f"Unknown dtype name '{dtype_name}'")
    try:
        shape = [int(dim) for dim in shape]
    except ValueError as e:
        raise ValueError(
            f"Illegal shape for parameter entry {index_entry.key}"
        ) from e
    flat = parameter_index_entry_as_numpy_flat_ndarray(index_entry)
    return flat.view(dtype=dtype).reshape(shape)
