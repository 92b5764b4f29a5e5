"""``DeviceArray``: a numpy-friendly handle on a ``HalBufferView``.

Shape and dtype are read from the buffer view without touching the data.
The data reaches the host on demand: a host-visible, mappable buffer is
mapped once and the numpy view over the mapping is kept; any other buffer
is copied to a host buffer on each request.
"""

from __future__ import annotations

import logging
import sys
from typing import Optional

import numpy as np
import numpy.lib.mixins

from ember import _ember
from ember._ember import (
    BufferUsage,
    HalBufferView,
    HalDevice,
    HalElementType,
    HalFence,
    MemoryType,
)

__all__ = [
    "asdevicearray",
    "DeviceArray",
    "from_dlpack",
]

# The extended float types live in ml_dtypes, which is optional here and
# is imported on first need, not with this module: its import registers
# hundreds of numpy loops and takes most of a second, more than the rest of
# ``import ember.runtime`` together. An array of one of its types means the
# caller has imported it already; a program result of one of them, or a
# dtype named by a string numpy does not know, imports it then.
_ML_DTYPE_NAMES = (
    ("bfloat16", HalElementType.BFLOAT_16),
    ("float8_e4m3fn", HalElementType.FLOAT_8_E4M3_FN),
    ("float8_e4m3fnuz", HalElementType.FLOAT_8_E4M3_FNUZ),
    ("float8_e5m2", HalElementType.FLOAT_8_E5M2),
    ("float8_e5m2fnuz", HalElementType.FLOAT_8_E5M2_FNUZ),
    ("float8_e8m0fnu", HalElementType.FLOAT_8_E8M0_FNU),
)
_ML_ELEMENT_CODES = frozenset(int(code) for _, code in _ML_DTYPE_NAMES)
_ml_dtypes_tried = False


def _load_ml_dtypes() -> bool:
    """Imports ml_dtypes (once) and adds its types to the dtype tables;
    whether that added any."""
    global _ml_dtypes_tried
    if _ml_dtypes_tried:
        return False
    _ml_dtypes_tried = True
    try:
        import ml_dtypes
    except ImportError:  # pragma: no cover
        return False
    added = False
    for name, element_type in _ML_DTYPE_NAMES:
        dtype = getattr(ml_dtypes, name, None)
        if dtype is None:
            continue
        dtype = np.dtype(dtype)
        _DTYPE_TO_ELEMENT_TYPE.append((dtype, element_type))
        _DTYPE_LOOKUP[dtype] = element_type
        _ELEMENT_TYPE_TO_DTYPE[int(element_type)] = dtype
        _MAPPABLE_ELEMENT_TYPES[int(element_type)] = dtype
        added = True
    return added


def _may_be_ml_dtype(dtype: np.dtype) -> bool:
    """Whether a dtype missing from the tables may be one of ml_dtypes'
    (whose module is then loaded already)."""
    return not _ml_dtypes_tried and "ml_dtypes" in sys.modules


def _build_dtype_table() -> list:
    pairs = [
        (np.float16, HalElementType.FLOAT_16),
        (np.float32, HalElementType.FLOAT_32),
        (np.float64, HalElementType.FLOAT_64),
        (np.int32, HalElementType.SINT_32),
        (np.int64, HalElementType.SINT_64),
        (np.int16, HalElementType.SINT_16),
        (np.int8, HalElementType.SINT_8),
        (np.uint32, HalElementType.UINT_32),
        (np.uint64, HalElementType.UINT_64),
        (np.uint16, HalElementType.UINT_16),
        (np.uint8, HalElementType.UINT_8),
        (np.bool_, HalElementType.BOOL_8),
        (np.complex64, HalElementType.COMPLEX_64),
        (np.complex128, HalElementType.COMPLEX_128),
    ]
    return [(np.dtype(dtype), element_type) for dtype, element_type in pairs]


# dtype -> element type, and the reverse keyed by the integer code. The
# reverse also knows the signless and opaque integer codes that buffer
# views produced by compiled programs may carry.
_DTYPE_TO_ELEMENT_TYPE = _build_dtype_table()
_DTYPE_LOOKUP = {dtype: element_type
                 for dtype, element_type in _DTYPE_TO_ELEMENT_TYPE}
_ELEMENT_TYPE_TO_DTYPE = {int(element_type): dtype
                          for dtype, element_type in _DTYPE_TO_ELEMENT_TYPE}
for _code, _dtype in ((HalElementType.INT_8, np.int8),
                      (HalElementType.INT_16, np.int16),
                      (HalElementType.INT_32, np.int32),
                      (HalElementType.INT_64, np.int64),
                      (HalElementType.OPAQUE_8, np.int8),
                      (HalElementType.OPAQUE_16, np.int16),
                      (HalElementType.OPAQUE_32, np.int32),
                      (HalElementType.OPAQUE_64, np.int64)):
    _ELEMENT_TYPE_TO_DTYPE.setdefault(int(_code), np.dtype(_dtype))


def map_dtype_to_element_type(dtype) -> Optional[HalElementType]:
    """The HAL element type of a numpy dtype, or None if it has none."""
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        # Perhaps a name ml_dtypes gives numpy ("bfloat16").
        if not _load_ml_dtypes():
            return None
        try:
            dtype = np.dtype(dtype)
        except TypeError:
            return None
    element_type = _DTYPE_LOOKUP.get(dtype)
    if element_type is None and _may_be_ml_dtype(dtype) and _load_ml_dtypes():
        element_type = _DTYPE_LOOKUP.get(dtype)
    return element_type


def _element_type_to_dtype_or_none(element_type) -> Optional[np.dtype]:
    code = int(element_type)
    dtype = _ELEMENT_TYPE_TO_DTYPE.get(code)
    if dtype is None and code in _ML_ELEMENT_CODES and _load_ml_dtypes():
        dtype = _ELEMENT_TYPE_TO_DTYPE.get(code)
    return dtype


def map_element_type_to_dtype(element_type) -> np.dtype:
    """The numpy dtype of a HAL element type (ValueError if unknown)."""
    dtype = _element_type_to_dtype_or_none(element_type)
    if dtype is None:
        raise ValueError(
            f"HAL element type 0x{int(element_type):08x} has no numpy dtype")
    return dtype


# The numpy dtypes HalElementType.map_to_dtype gives, as iree.runtime's:
# the signed, unsigned and signless integers, floats, bool, complex and the
# ml_dtypes types; opaque codes have none.
_MAPPABLE_ELEMENT_TYPES = {int(element_type): dtype
                           for dtype, element_type in _DTYPE_TO_ELEMENT_TYPE}
for _code, _dtype in ((HalElementType.INT_8, np.int8),
                      (HalElementType.INT_16, np.int16),
                      (HalElementType.INT_32, np.int32),
                      (HalElementType.INT_64, np.int64)):
    _MAPPABLE_ELEMENT_TYPES[int(_code)] = np.dtype(_dtype)


def _map_to_dtype(element_type) -> np.dtype:
    """The numpy dtype of a HalElementType (bfloat16 and the float8 types
    through ml_dtypes); ValueError for a type numpy cannot hold."""
    code = int(element_type)
    dtype = _MAPPABLE_ELEMENT_TYPES.get(code)
    if dtype is None and code in _ML_ELEMENT_CODES and _load_ml_dtypes():
        dtype = _MAPPABLE_ELEMENT_TYPES.get(code)
    if dtype is None:
        raise ValueError("Unsupported VM Buffer -> numpy dtype mapping")
    return dtype


HalElementType.map_to_dtype = staticmethod(_map_to_dtype)

_DEVICE_HANDLED_FUNCTIONS: dict = {}


class _DeviceArrayMethods:
    """The Python half of ``DeviceArray``, attached to the native class.

    ``DeviceArray`` is the native ``ember._ember.DeviceArray`` (it holds the
    buffer view and does the fast paths of ``to_host``, ``__array__``,
    ``dtype``, ``shape``); the methods here -- numpy's operator mixin, the
    rest of iree.runtime's API and the slow paths -- are set on it below.
    A class rather than a Python subclass, because instances of a Python
    subclass are tracked by the garbage collector, which a call that makes a
    result each time pays for in collections.
    """

    def __array_function__(self, func, types, args, kwargs):
        """numpy functions: shape and reshape natively, others on the host
        contents."""
        handler = _DEVICE_HANDLED_FUNCTIONS.get(func)
        if handler is not None:
            return handler(*args, **kwargs)
        return self.to_host().__array_function__(func, types, args, kwargs)

    # -- slow paths of the native to_host / __array__ ----------------------

    def _raw_dtype(self) -> np.dtype:
        return map_element_type_to_dtype(self._buffer_view.element_type)

    def _map_to_host(self) -> np.ndarray:
        """Maps the buffer for a dtype without a buffer format (bfloat16,
        float8) or a dtype override."""
        buffer_view = self._buffer_view
        raw_dtype = self._raw_dtype()
        array = buffer_view.map().asarray(buffer_view.shape, raw_dtype)
        # A dtype the device cannot hold (bool as i8) is converted on the host.
        override = self._override_dtype
        if override is not None and np.dtype(override) != raw_dtype:
            array = array.astype(override)
        return array

    def _copy_to_host(self) -> np.ndarray:
        """Copies a buffer the host cannot map (not kept)."""
        source = self._buffer_view.get_buffer()
        device = self._device
        staging = device.allocator.allocate_buffer(
            memory_type=MemoryType.HOST_LOCAL | MemoryType.DEVICE_VISIBLE,
            allowed_usage=(BufferUsage.TRANSFER_TARGET
                           | BufferUsage.MAPPING_SCOPED),
            allocation_size=source.byte_length(),
        )
        semaphore = device.create_semaphore(0)
        done = HalFence.create_at(semaphore, 1)
        device.queue_copy(source, staging, HalFence.create_at(semaphore, 0),
                          done)
        done.wait()
        raw_dtype = self._raw_dtype()
        array = staging.map().asarray(self._buffer_view.shape, raw_dtype)
        override = self._override_dtype
        if override is not None and np.dtype(override) != raw_dtype:
            array = array.astype(override)
        return array

    # -- DLPack ------------------------------------------------------------

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        """A DLPack capsule of the contents (the Python array API's
        protocol), for ``numpy.from_dlpack`` and other consumers.

        Zero-copy: the consumer's array aliases the device buffer, which it
        keeps alive. A consumer passing ``max_version >= (1, 0)`` gets a
        versioned capsule (``dltensor_versioned``), others the unversioned
        one. ``copy=True`` exports a copy; ``copy=False`` never copies
        (BufferError when it would have to). The memory is the CPU's:
        ``stream`` must be None and ``dl_device`` ``(1, 0)`` if given, else
        BufferError. An array made with a dtype the buffer does not hold
        (``override_dtype``) exports its converted host contents, a copy.
        """
        override = self._override_dtype
        if override is not None and np.dtype(override) != self._raw_dtype():
            if copy is False:
                raise BufferError(
                    f"the buffer holds {self._raw_dtype()}, not the array's "
                    f"{np.dtype(override)}: exporting it needs a copy")
            host = self.to_host()
            return host.__dlpack__(stream=stream, max_version=max_version,
                                   dl_device=dl_device, copy=copy)
        memory_type = self._buffer_view.get_buffer().memory_type()
        if not memory_type & int(MemoryType.HOST_VISIBLE):
            # Device memory the host cannot see (a GPU's): the consumer gets
            # the host copy, unless it forbade copies.
            if copy is False:
                raise BufferError(
                    "the array lives in device memory the host cannot map: "
                    "exporting it needs a copy")
            host = self.to_host()
            return host.__dlpack__(stream=stream, max_version=max_version,
                                   dl_device=dl_device)
        return self._buffer_view.__dlpack__(
            stream=stream, max_version=max_version, dl_device=dl_device,
            copy=copy)

    def __dlpack_device__(self):
        """``(1, 0)``: DLPack's CPU device, where the buffer's memory is."""
        return self._buffer_view.__dlpack_device__()

    # -- host conveniences -------------------------------------------------

    def astype(self, dtype, casting="unsafe", copy=True):
        """The contents converted to ``dtype`` on the host (``self`` when
        the dtype already matches and ``copy`` is false)."""
        if self.dtype == dtype and not copy:
            return self
        return self.to_host().astype(dtype, casting=casting, copy=copy)

    def reshape(self, *args):
        """The host contents reshaped (numpy's ``reshape``)."""
        return self.to_host().reshape(*args)

    def __iter__(self):
        """Iterates over the host contents' first axis."""
        return iter(self.to_host())

    def __getitem__(self, index):
        """Indexes the host contents."""
        return self.to_host()[index]

    def __deepcopy__(self, memo):
        """A deep copy is a host ndarray."""
        return self.to_host()

    def __reduce__(self):
        """Pickles as the host ndarray."""
        return _identity, (self.to_host(),)


DeviceArray = _ember.DeviceArray
DeviceArray.__doc__ = """A tensor that lives in a device buffer.

``DeviceArray(device, buffer_view, implicit_host_transfer=False,
override_dtype=None)``. Metadata (``shape``, ``dtype``, ``size``, ``ndim``)
never moves data. ``to_host()`` returns the contents as an ndarray -- on a
CPU device a view of the buffer itself, kept by the array -- and numpy
conversion (``np.asarray``, ufuncs, operators) does the same implicitly only
when the array was created with ``implicit_host_transfer=True``, as function
results are.
"""
for _source in (numpy.lib.mixins.NDArrayOperatorsMixin, _DeviceArrayMethods):
    for _name, _value in vars(_source).items():
        if _name not in ("__dict__", "__weakref__", "__doc__", "__module__",
                         "__slots__", "__qualname__"):
            setattr(DeviceArray, _name, _value)
# Defining __eq__ makes a Python class unhashable; as upstream's.
DeviceArray.__hash__ = None


def _identity(value):
    return value


def _shape_of(array: DeviceArray):
    return array._buffer_view.shape  # pylint: disable=protected-access


def _reshape_of(array: DeviceArray, *args):
    return array.reshape(*args)


_DEVICE_HANDLED_FUNCTIONS[np.shape] = _shape_of
_DEVICE_HANDLED_FUNCTIONS[np.reshape] = _reshape_of


def asdevicearray(device: HalDevice, a, dtype=None, *,
                  implicit_host_transfer: bool = False,
                  memory_type=MemoryType.DEVICE_LOCAL,
                  allowed_usage=(BufferUsage.DEFAULT | BufferUsage.MAPPING),
                  element_type: Optional[HalElementType] = None) -> DeviceArray:
    """A DeviceArray holding a copy of the array-like ``a`` on ``device``.

    A DeviceArray passes through unchanged when no dtype is asked for; with
    a dtype it is converted on the host first. ``memory_type``,
    ``allowed_usage`` and ``element_type`` only apply to new arrays (the
    element type always follows the dtype, as upstream).
    """
    if isinstance(a, DeviceArray):
        if dtype is None:
            return a
        logging.warning(
            "Implicit dtype conversion of a DeviceArray forces a host transfer")
    host = np.asarray(a, dtype=dtype, order="C")
    element_type = map_dtype_to_element_type(host.dtype)
    if element_type is None:
        raise ValueError(
            f"Could not map dtype {host.dtype} to IREE element type")
    source = host
    if host.dtype.isbuiltin == 2:  # a type another package gave numpy
        # bfloat16 and the float8 types have no buffer-protocol format:
        # their bytes go as unsigned integers of the same width.
        source = host.view(np.dtype(f"u{host.dtype.itemsize}"))
    buffer_view = device.allocator.allocate_buffer_copy(
        memory_type=memory_type,
        allowed_usage=allowed_usage,
        device=device,
        buffer=source,
        element_type=element_type,
    )
    return DeviceArray(device, buffer_view,
                       implicit_host_transfer=implicit_host_transfer,
                       override_dtype=host.dtype)


# The newest DLPack version this consumer reads (1.x keeps one layout).
_DLPACK_MAX_VERSION = (1, 0)
_DLPACK_CPU = 1


def from_dlpack(obj, device: HalDevice, *, copy: Optional[bool] = None,
                implicit_host_transfer: bool = False) -> DeviceArray:
    """A DeviceArray on ``device`` over the DLPack data of ``obj``.

    ``obj`` is anything with ``__dlpack__`` (numpy arrays, other array
    libraries' CPU tensors). The array aliases the producer's memory --
    keeping it alive until the buffer dies -- when the data is dense
    row-major, 64-byte aligned (the alignment compiled kernels assume) and
    writable; otherwise it is copied once into a new buffer. ``copy=True``
    always copies; ``copy=False`` raises BufferError where a copy would be
    needed. Only CPU memory is accepted (BufferError otherwise).
    """
    if not hasattr(obj, "__dlpack__"):
        raise TypeError(
            f"from_dlpack needs an object with __dlpack__, not "
            f"{type(obj).__name__}")
    if hasattr(obj, "__dlpack_device__"):
        device_type, device_id = obj.__dlpack_device__()
        if int(device_type) != _DLPACK_CPU:
            raise BufferError(
                f"from_dlpack: the data is on DLPack device ({int(device_type)}"
                f", {int(device_id)}); only CPU memory (1) can be imported")
    # The producer is never asked for a copy: one it made could be
    # unaligned, and the import copies what it must, once.
    kwargs = {"max_version": _DLPACK_MAX_VERSION}
    if copy is False:
        kwargs["copy"] = False
    try:
        capsule = obj.__dlpack__(**kwargs)
    except TypeError:
        # A producer of the protocol before the 2023.12 standard takes no
        # max_version or copy (the standard's fallback).
        capsule = obj.__dlpack__()
    buffer_view = device._import_dlpack(capsule, copy)  # pylint: disable=protected-access
    return DeviceArray(device, buffer_view,
                       implicit_host_transfer=implicit_host_transfer)
