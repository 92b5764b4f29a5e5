"""DLPack: HalDevice.create_dlpack_capsule / from_dlpack_capsule as in
iree.runtime 3.11, and HalBufferView.__dlpack__ for numpy.from_dlpack --
zero copy both ways, capsule lifetimes right, hostile tensors refused."""

from __future__ import annotations

import ctypes
import gc

import numpy as np
import pytest


def _device(rt):
    return rt.get_driver("local-task").create_default_device()


def _view(rt, device, array):
    return device.allocator.allocate_buffer_copy(
        memory_type=rt.MemoryType.DEVICE_LOCAL,
        allowed_usage=rt.BufferUsage.DEFAULT, device=device, buffer=array,
        element_type={np.float32: rt.HalElementType.FLOAT_32,
                      np.int16: rt.HalElementType.SINT_16,
                      np.uint8: rt.HalElementType.UINT_8,
                      np.float64: rt.HalElementType.FLOAT_64,
                      np.bool_: rt.HalElementType.BOOL_8}[array.dtype.type])


def _capsule_name(capsule) -> bytes:
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    return get_name(capsule)


class _Producer:
    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, stream=None, **_):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.uint8, np.float64,
                                   np.bool_])
def test_round_trip_matches_iree(ember_rt, iree_rt, dtype):
    source = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    results = {}
    for name, rt in (("ember", ember_rt), ("iree", iree_rt)):
        device = _device(rt)
        view = _view(rt, device, source)
        mapped = view.map().asarray(source.shape, source.dtype)
        imported = device.from_dlpack_capsule(mapped.__dlpack__())
        del mapped
        gc.collect()
        back = np.from_dlpack(_Producer(
            device.create_dlpack_capsule(imported, 1, 0)))
        del imported
        gc.collect()
        results[name] = (back.copy(), back.dtype, back.shape)
    np.testing.assert_array_equal(results["ember"][0], source)
    assert results["ember"][1:] == results["iree"][1:]
    np.testing.assert_array_equal(results["ember"][0], results["iree"][0])


def test_numpy_views_are_zero_copy_and_keep_the_buffer(ember_rt):
    device = _device(ember_rt)
    view = _view(ember_rt, device, np.arange(8, dtype=np.float32))
    array = np.from_dlpack(view)
    assert view.__dlpack_device__() == (1, 0)
    view.map().asarray([8], np.float32)[3] = 42.0  # write through the buffer
    assert array[3] == 42.0
    del view
    gc.collect()
    assert array.sum() == sum(range(8)) - 3 + 42  # still valid memory
    with pytest.raises(BufferError):
        _view(ember_rt, device, np.ones(2, np.float32)).__dlpack__(copy=True)


def test_imports_alias_the_producer_memory(ember_rt):
    device = _device(ember_rt)
    holder = _view(ember_rt, device, np.zeros(16, np.float32))
    aligned = holder.map().asarray([16], np.float32)
    imported = device.from_dlpack_capsule(aligned.__dlpack__())
    aligned[5] = 7.0
    assert imported.map().asarray([16], np.float32)[5] == 7.0
    assert imported.shape == [16]


def test_hostile_tensors_are_refused_and_left_unconsumed(ember_rt):
    device = _device(ember_rt)
    holder = _view(ember_rt, device, np.zeros(64, np.float32))
    aligned = holder.map().asarray([64], np.float32)
    for bad, message in [
        (aligned[1:], "aligned"),                 # offset data
        (aligned.reshape(8, 8)[:, ::2], "strided"),
        (aligned.reshape(8, 8).T, "strided"),
    ]:
        capsule = bad.__dlpack__()
        with pytest.raises(ValueError, match=message):
            device.from_dlpack_capsule(capsule)
        assert _capsule_name(capsule) == b"dltensor"  # still the producer's
    used = aligned.__dlpack__()
    device.from_dlpack_capsule(used)
    assert _capsule_name(used) == b"used_dltensor"
    with pytest.raises(ValueError, match="unconsumed"):
        device.from_dlpack_capsule(used)
    with pytest.raises(ValueError):
        device.from_dlpack_capsule(object())
    # An exported capsule nobody consumes frees its tensor when it dies.
    for _ in range(100):
        device.create_dlpack_capsule(holder, 1, 0)
    gc.collect()
