"""``DeviceArray``: a numpy-friendly handle on a ``HalBufferView``.

Shape and dtype are read from the buffer view without touching the data.
The data reaches the host on demand: a host-visible, mappable buffer is
mapped once and the numpy view over the mapping is kept; any other buffer
is copied to a host buffer on each request.
"""

from __future__ import annotations

import logging
from typing import Optional

import numpy as np
import numpy.lib.mixins

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
]

try:  # Extended float types live in ml_dtypes (optional here).
    import ml_dtypes as _ml_dtypes
except ImportError:  # pragma: no cover
    _ml_dtypes = None


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
    if _ml_dtypes is not None:
        for name, element_type in (
                ("bfloat16", HalElementType.BFLOAT_16),
                ("float8_e4m3fn", HalElementType.FLOAT_8_E4M3_FN),
                ("float8_e4m3fnuz", HalElementType.FLOAT_8_E4M3_FNUZ),
                ("float8_e5m2", HalElementType.FLOAT_8_E5M2),
                ("float8_e5m2fnuz", HalElementType.FLOAT_8_E5M2_FNUZ),
                ("float8_e8m0fnu", HalElementType.FLOAT_8_E8M0_FNU)):
            dtype = getattr(_ml_dtypes, name, None)
            if dtype is not None:
                pairs.append((dtype, element_type))
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
        return _DTYPE_LOOKUP.get(np.dtype(dtype))
    except TypeError:
        return None


def map_element_type_to_dtype(element_type) -> np.dtype:
    """The numpy dtype of a HAL element type (ValueError if unknown)."""
    dtype = _ELEMENT_TYPE_TO_DTYPE.get(int(element_type))
    if dtype is None:
        raise ValueError(
            f"HAL element type 0x{int(element_type):08x} has no numpy dtype")
    return dtype


_DEVICE_HANDLED_FUNCTIONS: dict = {}


class DeviceArray(numpy.lib.mixins.NDArrayOperatorsMixin):
    """A tensor that lives in a device buffer.

    Metadata (``shape``, ``dtype``) never moves data. ``to_host()`` returns
    the contents as an ndarray; numpy conversion (``np.asarray``, ufuncs,
    operators) does the same implicitly only when the array was created
    with ``implicit_host_transfer=True``, as function results are.
    """

    def __init__(self, device: HalDevice, buffer_view: HalBufferView,
                 implicit_host_transfer: bool = False, override_dtype=None):
        self._device = device
        self._buffer_view = buffer_view
        self._implicit_host_transfer = implicit_host_transfer
        self._override_dtype = override_dtype
        # Set once the buffer has been mapped (host-visible buffers only).
        self._mapped_memory = None
        self._host_array: Optional[np.ndarray] = None

    # -- numpy protocols ---------------------------------------------------

    def __array__(self, dtype=None, copy=None):
        host = self._transfer_to_host(implicit=True)
        if dtype is None:
            return host
        return host.__array__(dtype)

    def __array_function__(self, func, types, args, kwargs):
        handler = _DEVICE_HANDLED_FUNCTIONS.get(func)
        if handler is not None:
            return handler(*args, **kwargs)
        return self.to_host().__array_function__(func, types, args, kwargs)

    # -- metadata ----------------------------------------------------------

    @property
    def dtype(self):
        if self._override_dtype:
            return self._override_dtype
        return self._raw_dtype()

    @property
    def shape(self):
        return np.shape(self)

    @property
    def is_host_accessible(self) -> bool:
        """True once the data has been mapped to the host (and kept)."""
        return self._host_array is not None

    def __repr__(self):
        return (f"<IREE DeviceArray: shape={np.shape(self)}, "
                f"dtype={self.dtype}>")

    # -- host transfer -----------------------------------------------------

    def to_host(self) -> np.ndarray:
        """The contents as an ndarray (a kept mapping when possible)."""
        return self._transfer_to_host(implicit=False)

    def _raw_dtype(self) -> np.dtype:
        return map_element_type_to_dtype(self._buffer_view.element_type)

    def _is_mappable(self) -> bool:
        buffer = self._buffer_view.get_buffer()
        visible = int(MemoryType.HOST_VISIBLE)
        scoped = int(BufferUsage.MAPPING_SCOPED)
        return (int(buffer.memory_type()) & visible == visible
                and int(buffer.allowed_usage()) & scoped == scoped)

    def _transfer_to_host(self, implicit: bool) -> np.ndarray:
        if implicit and not self._implicit_host_transfer:
            raise ValueError(
                "DeviceArray cannot be implicitly transferred to the host: "
                "if necessary, do an explicit transfer via .to_host()")
        if not self._is_mappable():
            return self._copy_to_host()
        if self._host_array is None:
            self._mapped_memory = self._buffer_view.map()
            self._host_array = self._as_host_array(self._mapped_memory)
        return self._host_array

    def _as_host_array(self, mapped_memory) -> np.ndarray:
        raw_dtype = self._raw_dtype()
        array = mapped_memory.asarray(self._buffer_view.shape, raw_dtype)
        # A dtype the device cannot hold (bool as i8) is converted on the host.
        if (self._override_dtype is not None
                and np.dtype(self._override_dtype) != raw_dtype):
            array = array.astype(self._override_dtype)
        return array

    def _copy_to_host(self) -> np.ndarray:
        source = self._buffer_view.get_buffer()
        staging = self._device.allocator.allocate_buffer(
            memory_type=MemoryType.HOST_LOCAL | MemoryType.DEVICE_VISIBLE,
            allowed_usage=(BufferUsage.TRANSFER_TARGET
                           | BufferUsage.MAPPING_SCOPED),
            allocation_size=source.byte_length(),
        )
        semaphore = self._device.create_semaphore(0)
        done = HalFence.create_at(semaphore, 1)
        self._device.queue_copy(source, staging,
                                HalFence.create_at(semaphore, 0), done)
        done.wait()
        # Not kept: the mapping owns the staging buffer and the copy is fresh.
        return self._as_host_array(staging.map())

    # -- host conveniences -------------------------------------------------

    def astype(self, dtype, casting="unsafe", copy=True):
        if self.dtype == dtype and not copy:
            return self
        return self.to_host().astype(dtype, casting=casting, copy=copy)

    def reshape(self, *args):
        return self.to_host().reshape(*args)

    def __iter__(self):
        return iter(self.to_host())

    def __getitem__(self, index):
        return self.to_host()[index]

    def __deepcopy__(self, memo):
        return self.to_host()

    def __reduce__(self):
        return _identity, (self.to_host(),)


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
    buffer_view = device.allocator.allocate_buffer_copy(
        memory_type=memory_type,
        allowed_usage=allowed_usage,
        device=device,
        buffer=host,
        element_type=element_type,
    )
    return DeviceArray(device, buffer_view,
                       implicit_host_transfer=implicit_host_transfer,
                       override_dtype=host.dtype)
