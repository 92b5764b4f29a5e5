"""DLPack: HalDevice.create_dlpack_capsule / from_dlpack_capsule as in
iree.runtime 3.11, the protocol (HalBufferView.__dlpack__ and
DeviceArray.__dlpack__ for numpy.from_dlpack, ember.runtime.from_dlpack for
any producer) in both ABIs (the unversioned "dltensor" and DLPack 1.x's
"dltensor_versioned") -- zero copy both ways where the memory allows, copies
exactly where asked or needed, capsule lifetimes right (nothing leaks,
nothing is freed early), hostile tensors refused.

No DLPack producer besides numpy is installed (torch and jax are too heavy
for the test environment), so producers with arbitrary fields are made here
with ctypes: `_HandMade` builds DLManagedTensor(Versioned) structs and
capsules and records the deleter calls."""

from __future__ import annotations

import ctypes
import gc
import weakref

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
    # copy=True is the protocol's explicit copy: memory of its own.
    source = _view(ember_rt, device, np.ones(2, np.float32))
    copied = np.from_dlpack(source, copy=True)
    source.map().asarray([2], np.float32)[0] = 5.0
    assert copied.tolist() == [1.0, 1.0]


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


# ---- the versioned ABI, the protocol's keywords ----------------------------

class _Version(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device),
                ("ndim", ctypes.c_int32), ("dtype", _DataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class _Managed(ctypes.Structure):
    _fields_ = [("dl_tensor", _Tensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", _DELETER)]


class _ManagedVersioned(ctypes.Structure):
    _fields_ = [("version", _Version), ("manager_ctx", ctypes.c_void_p),
                ("deleter", _DELETER), ("flags", ctypes.c_uint64),
                ("dl_tensor", _Tensor)]


_READ_ONLY = 1
_IS_COPIED = 2


def _capsule_pointer(capsule, name: bytes) -> int:
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(capsule, name)


def _versioned_header(capsule) -> _ManagedVersioned:
    assert _capsule_name(capsule) == b"dltensor_versioned"
    return _ManagedVersioned.from_address(
        _capsule_pointer(capsule, b"dltensor_versioned"))


class _HandMade:
    """A producer of one capsule with whatever fields a test wants, over
    memory it owns; `deleted` counts the deleter calls."""

    def __init__(self, nbytes=4096, *, shape=(4,), strides=None,
                 dtype=(2, 32, 1), offset=0, byte_offset=0, versioned=True,
                 flags=0, version=(1, 0), device=(1, 0), data=None,
                 ndim=None, null_shape=False):
        self.memory = np.zeros(nbytes + 64, np.uint8)
        base = self.memory.ctypes.data
        self.aligned = base + (-base) % 64  # the first 64-byte aligned byte
        self.deleted = 0
        self._deleter = _DELETER(self._delete)  # kept alive by self
        self.shape = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        self.strides = (None if strides is None else
                        (ctypes.c_int64 * max(len(strides), 1))(*strides))
        tensor = _Tensor(
            data=self.aligned + offset if data is None else data,
            device=_Device(*device),
            ndim=len(shape) if ndim is None else ndim,
            dtype=_DataType(*dtype),
            shape=None if null_shape else self.shape,
            strides=self.strides, byte_offset=byte_offset)
        if versioned:
            self.managed = _ManagedVersioned(
                version=_Version(*version), manager_ctx=None,
                deleter=self._deleter, flags=flags, dl_tensor=tensor)
            name = b"dltensor_versioned"
        else:
            self.managed = _Managed(dl_tensor=tensor, manager_ctx=None,
                                    deleter=self._deleter)
            name = b"dltensor"
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        self.name = name
        # No capsule destructor: an unconsumed capsule's tensor lives in
        # this object, which the test holds.
        self.capsule = new(ctypes.addressof(self.managed), name, None)

    def _delete(self, _):
        self.deleted += 1

    def floats(self, count, offset=0):
        """The memory at the aligned start + offset, as float32s."""
        start = self.aligned - self.memory.ctypes.data + offset
        return self.memory[start:start + 4 * count].view(np.float32)


def test_the_consumer_chooses_the_abi(ember_rt):
    device = _device(ember_rt)
    view = _view(ember_rt, device, np.arange(6, dtype=np.float32))
    assert _capsule_name(view.__dlpack__()) == b"dltensor"
    assert _capsule_name(view.__dlpack__(max_version=(0, 8))) == b"dltensor"
    for max_version in ((1, 0), (1, 3), (2, 0)):
        capsule = view.__dlpack__(max_version=max_version)
        header = _versioned_header(capsule)
        assert (header.version.major, header.version.minor) == (1, 0)
        assert header.flags == 0  # writable, not a copy
        tensor = header.dl_tensor
        assert (tensor.device.device_type, tensor.device.device_id) == (1, 0)
        assert (tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes) == (
            2, 32, 1)
        assert tensor.ndim == 1 and tensor.shape[0] == 6
        assert tensor.strides[0] == 1 and tensor.byte_offset == 0
        assert tensor.data % 64 == 0
    copied = _versioned_header(view.__dlpack__(max_version=(1, 0), copy=True))
    assert copied.flags == _IS_COPIED
    with pytest.raises(TypeError, match="max_version"):
        view.__dlpack__(max_version="1.0")


def test_numpy_asks_for_the_versioned_abi(ember_rt):
    device = _device(ember_rt)
    view = _view(ember_rt, device, np.arange(6, dtype=np.float32))
    calls = []

    class Spy:
        def __dlpack__(self, **kwargs):
            calls.append(kwargs)
            return view.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return view.__dlpack_device__()

    array = np.from_dlpack(Spy())
    assert array.tolist() == list(range(6))
    if np.lib.NumpyVersion(np.__version__) >= "2.1.0":
        assert tuple(calls[0]["max_version"]) >= (1, 0)
    view.map().asarray([6], np.float32)[0] = 9.0
    assert array[0] == 9.0  # zero copy


def test_devices_and_streams_other_than_the_cpu_are_refused(ember_rt):
    device = _device(ember_rt)
    view = _view(ember_rt, device, np.arange(4, dtype=np.float32))
    assert np.from_dlpack(view, device="cpu").tolist() == [0, 1, 2, 3]
    assert _capsule_name(view.__dlpack__(dl_device=(1, 0))) == b"dltensor"
    for dl_device in ((2, 0), (1, 1)):
        with pytest.raises(BufferError, match="device"):
            view.__dlpack__(dl_device=dl_device)
    with pytest.raises(BufferError, match="stream"):
        view.__dlpack__(stream=1)


# ---- DeviceArray <-> numpy --------------------------------------------------

def _simple_mul(rt, sample_vmfb):
    module = rt.load_vm_flatbuffer_file(str(sample_vmfb), driver="local-task")
    return module.simple_mul


def test_call_results_reach_numpy_without_a_copy(ember_rt, sample_vmfb):
    simple_mul = _simple_mul(ember_rt, sample_vmfb)
    a = np.arange(4, dtype=np.float32)
    result = simple_mul(a, a)
    assert result.__dlpack_device__() == (1, 0)
    array = np.from_dlpack(result)
    np.testing.assert_array_equal(array, a * a)
    host = result.to_host()
    assert np.shares_memory(array, host)
    host[1] = 100.0
    assert array[1] == 100.0
    assert _capsule_name(result.__dlpack__()) == b"dltensor"
    assert _capsule_name(
        result.__dlpack__(max_version=(1, 0))) == b"dltensor_versioned"
    copied = np.from_dlpack(result, copy=True)
    assert not np.shares_memory(copied, host)
    # numpy's own from_dlpack of an ember.runtime array, and back again.
    back = ember_rt.from_dlpack(array, result._device)
    np.testing.assert_array_equal(back.to_host(), array)


def _aligned(values: np.ndarray) -> np.ndarray:
    """A copy of `values` whose data starts on a 64-byte boundary."""
    raw = np.empty(values.nbytes + 64, np.uint8)
    start = (-raw.ctypes.data) % 64
    out = raw[start:start + values.nbytes].view(values.dtype).reshape(
        values.shape)
    out[...] = values
    return out


def test_numpy_arrays_become_device_arrays(ember_rt, sample_vmfb):
    device = _device(ember_rt)
    stats = device.allocator.statistics
    source = _aligned(np.arange(12, dtype=np.float32).reshape(3, 4))
    imported = ember_rt.from_dlpack(source, device)
    assert isinstance(imported, ember_rt.DeviceArray)
    assert imported.shape == [3, 4] and imported.dtype == np.float32
    # Aligned, dense and writable: aliased.
    assert device.allocator.statistics["bytes_imported"] == (
        stats["bytes_imported"] + source.nbytes)
    source[1, 2] = -1.0
    assert imported.to_host()[1, 2] == -1.0
    # Copied once otherwise: unaligned, strided (negative strides too),
    # read-only, or asked for.
    unaligned = _aligned(np.arange(13, dtype=np.float32))[1:]
    readonly = _aligned(np.arange(4, dtype=np.float32))
    readonly.flags.writeable = False
    grid = np.arange(24, dtype=np.int16).reshape(4, 6)
    for value in (unaligned, grid.T, grid[::-1, ::-2], grid[1:3, 2],
                  readonly, _aligned(np.array([0.0, 2.5]))[1:].reshape(())):
        copied = ember_rt.from_dlpack(value, device)
        np.testing.assert_array_equal(copied.to_host(), value)
        assert copied.dtype == np.asarray(value).dtype
        assert not np.shares_memory(copied.to_host(), value)
    forced = ember_rt.from_dlpack(source, device, copy=True)
    source[0, 0] = 77.0
    assert forced.to_host()[0, 0] == 0.0
    for value in (unaligned, grid.T, readonly):
        with pytest.raises(BufferError, match="copy"):
            ember_rt.from_dlpack(value, device, copy=False)
    assert ember_rt.from_dlpack(source, device, copy=False).to_host()[0, 0] == 77
    with pytest.raises(TypeError, match="__dlpack__"):
        ember_rt.from_dlpack([1, 2], device)
    # An imported array is an argument like any other.
    simple_mul = _simple_mul(ember_rt, sample_vmfb)
    x = ember_rt.from_dlpack(_aligned(np.arange(4, dtype=np.float32)), device)
    np.testing.assert_array_equal(simple_mul(x, x).to_host(), [0, 1, 4, 9])


def test_readonly_versioned_tensors_are_copied(ember_rt):
    device = _device(ember_rt)
    base = _aligned(np.arange(16, dtype=np.float32))
    readonly = base[:]
    readonly.flags.writeable = False
    capsule = readonly.__dlpack__(max_version=(1, 0))
    assert _versioned_header(capsule).flags & _READ_ONLY
    imported = device.from_dlpack_capsule(capsule)
    assert _capsule_name(capsule) == b"used_dltensor_versioned"
    mapped = imported.map().asarray([16], np.float32)
    mapped[0] = 50.0  # writes the copy, never the producer's memory
    assert base[0] == 0.0
    base[1] = 60.0
    assert mapped[1] == 1.0
    # A hand-made read-only tensor: copied, and given back at once.
    made = _HandMade(flags=_READ_ONLY)
    made.floats(4)[:] = [1, 2, 3, 4]
    imported = device.from_dlpack_capsule(made.capsule)
    assert made.deleted == 1
    assert imported.map().asarray([4], np.float32).tolist() == [1, 2, 3, 4]


def test_both_abis_import_and_honour_byte_offset(ember_rt):
    device = _device(ember_rt)
    for versioned in (False, True):
        # Data 64 bytes before the tensor, byte_offset 128 past it: the
        # tensor starts at aligned + 64.
        made = _HandMade(versioned=versioned, shape=(2, 3), offset=-64,
                         byte_offset=128)
        made.floats(6, offset=64)[:] = np.arange(6) + 10
        view = device.from_dlpack_capsule(made.capsule)
        assert _capsule_name(made.capsule) == b"used_" + made.name
        assert view.shape == [2, 3]
        mapped = view.map().asarray([2, 3], np.float32)
        np.testing.assert_array_equal(mapped, np.arange(6).reshape(2, 3) + 10)
        made.floats(6, offset=64)[4] = -3.0  # aliased
        assert mapped[1, 1] == -3.0
        assert made.deleted == 0
        del view, mapped
        gc.collect()
        assert made.deleted == 1  # given back when the buffer died
        # from_dlpack copies an unaligned byte_offset, once, and gives the
        # producer's tensor back right away.
        made = _HandMade(versioned=versioned, shape=(3,), byte_offset=4)
        made.floats(4)[:] = [9, 8, 7, 6]
        array = ember_rt.from_dlpack(_Producer(made.capsule), device)
        assert made.deleted == 1
        assert array.to_host().tolist() == [8, 7, 6]


def test_strided_hand_made_tensors(ember_rt):
    device = _device(ember_rt)
    # A 2x3 view of a 3x4 grid, column stride 1, row stride 4; then the
    # same read backwards through negative strides and a byte_offset.
    made = _HandMade(shape=(2, 3), strides=(4, 1))
    made.floats(12)[:] = np.arange(12)
    with pytest.raises(ValueError, match="strided"):
        device.from_dlpack_capsule(made.capsule)
    assert made.deleted == 0 and _capsule_name(made.capsule) == made.name
    array = ember_rt.from_dlpack(_Producer(made.capsule), device)
    assert array.to_host().tolist() == [[0, 1, 2], [4, 5, 6]]
    made = _HandMade(shape=(2, 3), strides=(-4, -1), byte_offset=4 * 11)
    made.floats(12)[:] = np.arange(12)
    array = ember_rt.from_dlpack(_Producer(made.capsule), device)
    assert array.to_host().tolist() == [[11, 10, 9], [7, 6, 5]]
    # Strides of dimensions of 1 (and of empty tensors) are never read.
    made = _HandMade(shape=(1, 4), strides=(1 << 62, 1))
    made.floats(4)[:] = [1, 2, 3, 4]
    assert device.from_dlpack_capsule(made.capsule).shape == [1, 4]
    made = _HandMade(shape=(0, 4), strides=(-(1 << 62), 1 << 62))
    assert device.from_dlpack_capsule(made.capsule).shape == [0, 4]
    assert made.deleted == 1


@pytest.mark.parametrize("fields, error, message", [
    (dict(ndim=-1), ValueError, "rank"),
    (dict(ndim=65, shape=(1,) * 65), ValueError, "rank"),
    (dict(null_shape=True), ValueError, "shape"),
    (dict(shape=(4, -2)), ValueError, "negative"),
    (dict(shape=(1 << 62, 1 << 3)), ValueError, "overflow"),
    (dict(shape=(1 << 40, 1 << 20)), ValueError, "overflow"),
    (dict(data=0), ValueError, "no data"),
    (dict(dtype=(2, 32, 4)), ValueError, "lanes"),
    (dict(dtype=(3, 64, 1)), ValueError, "dtype code"),
    (dict(dtype=(2, 4, 1)), ValueError, "byte aligned"),
    (dict(dtype=(2, 0, 1)), ValueError, "byte aligned"),
    (dict(dtype=(2, 24, 1)), ValueError, "code 2 with 24 bits"),
    (dict(dtype=(6, 16, 1)), ValueError, "code 6 with 16 bits"),
    (dict(device=(2, 0)), ValueError, "device type 2"),
    (dict(version=(2, 0)), BufferError, "version 2.0"),
    (dict(shape=(2, 2), strides=(1 << 62, 1)), ValueError, "strides overflow"),
    (dict(shape=(2, 2), strides=(-(1 << 60), 1)), ValueError,
     "address space"),
    (dict(byte_offset=(1 << 64) - 16), ValueError, "address space"),
    (dict(shape=(1 << 20,), data=(1 << 64) - 64), ValueError,
     "address space"),
])
@pytest.mark.parametrize("importer", ["capsule", "from_dlpack"])
def test_hostile_fields_are_refused(ember_rt, fields, error, message,
                                    importer):
    device = _device(ember_rt)
    made = _HandMade(**fields)
    with pytest.raises(error, match=message):
        if importer == "capsule":
            device.from_dlpack_capsule(made.capsule)
        else:
            ember_rt.from_dlpack(_Producer(made.capsule), device)
    # Refused before it was consumed: still the producer's to free.
    assert _capsule_name(made.capsule) == made.name
    assert made.deleted == 0


def test_unversioned_consumers_do_not_get_versioned_capsules_wrongly(
        ember_rt):
    device = _device(ember_rt)
    with pytest.raises(ValueError, match="unconsumed"):
        device.from_dlpack_capsule(object())
    made = _HandMade(versioned=False)
    device.from_dlpack_capsule(made.capsule)
    with pytest.raises(ValueError, match="already consumed"):
        device.from_dlpack_capsule(made.capsule)


# ---- lifetimes --------------------------------------------------------------

def _live(device) -> tuple[int, int]:
    gc.collect()
    stats = device.allocator.statistics
    return stats["bytes_allocated"], stats["bytes_imported"]


@pytest.mark.parametrize("max_version", [None, (1, 0)])
def test_exported_buffers_live_exactly_as_long_as_their_users(
        ember_rt, max_version):
    device = _device(ember_rt)
    before = _live(device)
    nbytes = 1 << 16
    array = ember_rt.asdevicearray(device, np.ones(nbytes // 4, np.float32))
    assert _live(device)[0] == before[0] + nbytes
    # Consumed: numpy's array holds the buffer, whichever goes first.
    host = np.from_dlpack(_Producer(array.__dlpack__(max_version=max_version)))
    del array
    assert _live(device)[0] == before[0] + nbytes
    assert host.sum() == nbytes // 4
    del host
    assert _live(device) == before
    # Unconsumed: the capsule holds it, and frees it when it dies.
    array = ember_rt.asdevicearray(device, np.ones(nbytes // 4, np.float32))
    capsule = array.__dlpack__(max_version=max_version)
    del array
    assert _live(device)[0] == before[0] + nbytes
    del capsule
    assert _live(device) == before
    # Many round trips leave nothing behind.
    for _ in range(50):
        array = ember_rt.asdevicearray(device, np.ones(256, np.float32))
        view = device.from_dlpack_capsule(array.__dlpack__(
            max_version=max_version))
        host = np.from_dlpack(view)
        del array, view, host
    assert _live(device) == before


def test_imported_memory_lives_until_the_device_array_dies(ember_rt):
    device = _device(ember_rt)
    before = _live(device)
    owner = _aligned(np.arange(1024, dtype=np.float32))
    gone = weakref.ref(owner.base)
    imported = ember_rt.from_dlpack(owner, device)
    del owner
    gc.collect()
    assert gone() is not None  # numpy's tensor is held by the buffer
    assert _live(device)[1] == before[1] + 4096
    assert imported.to_host()[1023] == 1023.0
    exported = np.from_dlpack(imported)  # and re-exported
    del imported
    gc.collect()
    assert gone() is not None
    assert exported[5] == 5.0
    del exported
    assert _live(device) == before
    assert gone() is None
