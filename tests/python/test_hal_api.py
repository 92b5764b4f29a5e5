"""The low-level HAL API from Python, used exactly as with iree.runtime:
drivers, devices, buffer views from numpy, the hal module in a VmContext,
results read back through map().asarray(). Ember and the official runtime
must produce the same bits."""

import gc
import sys

import numpy as np
import pytest


def run_low_level(rt, module_path, function, inputs, driver):
    device = rt.get_driver(driver).create_default_device()
    instance = rt.VmInstance()
    hal = rt.create_hal_module(instance, device)
    module = rt.VmModule.mmap(instance, str(module_path))
    context = rt.VmContext(instance, modules=[hal, module])
    args = rt.VmVariantList(len(inputs))
    for array in inputs:
        args.push_ref(device.allocator.allocate_buffer_copy(
            memory_type=rt.MemoryType.DEVICE_LOCAL,
            allowed_usage=rt.BufferUsage.DEFAULT, device=device,
            buffer=array, element_type=rt.HalElementType.FLOAT_32))
    results = rt.VmVariantList(1)
    context.invoke(module.lookup_function(function), args, results)
    view = results.get_as_object(0, rt.HalBufferView)
    # iree.runtime's asarray takes a numpy dtype object, not a scalar type.
    return np.array(view.map().asarray(view.shape, np.dtype(np.float32)))


@pytest.mark.parametrize("driver", ["local-sync", "local-task"])
def test_sample_same_bits_as_iree(ember_rt, iree_rt, sample_vmfb, driver):
    a = np.array([1.5, -2.0, 3.25, 4.0], np.float32)
    b = np.array([10.0, 0.5, -3.0, 1e-3], np.float32)
    ours = run_low_level(ember_rt, sample_vmfb, "simple_mul", [a, b], driver)
    theirs = run_low_level(iree_rt, sample_vmfb, "simple_mul", [a, b], driver)
    np.testing.assert_array_equal(ours, a * b)
    assert ours.tobytes() == theirs.tobytes()


def test_matmul_same_bits_as_iree(ember_rt, iree_rt, corpus_by_name):
    module = corpus_by_name["matmul"]["forms"]["embedded"]
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 8), dtype=np.float32)
    b = rng.standard_normal((8, 16), dtype=np.float32)
    ours = run_low_level(ember_rt, module, "matmul", [a, b], "local-task")
    theirs = run_low_level(iree_rt, module, "matmul", [a, b], "local-task")
    assert ours.shape == (4, 16)
    assert ours.tobytes() == theirs.tobytes()
    np.testing.assert_allclose(ours, a @ b, rtol=1e-5, atol=1e-5)


def test_drivers_and_errors(ember_rt):
    assert ember_rt.query_available_drivers() == ["local-sync", "local-task"]
    with pytest.raises(ValueError, match="cuda"):
        ember_rt.get_driver("cuda")
    device = ember_rt.get_driver("local-task").create_default_device()
    with pytest.raises((BufferError, ValueError), match="contiguous"):
        # Not C-contiguous: refused, as a copy would need a layout choice.
        device.allocator.allocate_buffer_copy(
            memory_type=ember_rt.MemoryType.DEVICE_LOCAL,
            allowed_usage=ember_rt.BufferUsage.DEFAULT, device=device,
            buffer=np.zeros((4, 4), np.float32)[:, ::2],
            element_type=ember_rt.HalElementType.FLOAT_32)


def test_mapped_array_keeps_the_buffer_alive(ember_rt):
    device = ember_rt.get_driver("local-sync").create_default_device()
    source = np.arange(6, dtype=np.float32).reshape(2, 3)
    view = device.allocator.allocate_buffer_copy(
        memory_type=ember_rt.MemoryType.DEVICE_LOCAL,
        allowed_usage=ember_rt.BufferUsage.DEFAULT, device=device,
        buffer=source, element_type=ember_rt.HalElementType.FLOAT_32)
    assert view.shape == [2, 3]
    assert view.element_type == ember_rt.HalElementType.FLOAT_32
    array = view.map().asarray(view.shape, np.float32)
    stats = device.allocator.statistics
    assert stats["bytes_allocated"] == 24
    del view
    gc.collect()
    np.testing.assert_array_equal(array, source)  # still valid
    assert device.allocator.statistics["bytes_allocated"] == 24
    before = sys.getrefcount(array)
    del array
    gc.collect()
    assert device.allocator.statistics["bytes_allocated"] == 0
    assert before >= 2


def test_import_host_allocation_is_zero_copy(ember_rt):
    device = ember_rt.get_driver("local-sync").create_default_device()
    array = np.arange(8, dtype=np.float32)
    before = sys.getrefcount(array)
    buffer = device.allocator.import_host_allocation(
        buffer=array, memory_type=ember_rt.MemoryType.DEVICE_LOCAL,
        allowed_usage=ember_rt.BufferUsage.DEFAULT)
    assert sys.getrefcount(array) == before + 1, "the buffer holds the array"
    stats = device.allocator.statistics
    assert stats["bytes_imported"] == 32 and stats["bytes_allocated"] == 0
    view = buffer.create_view([2, 4], ember_rt.HalElementType.FLOAT_32)
    mapped = view.map().asarray([2, 4], np.float32)
    array[5] = 42.0  # the same memory, no copy
    assert mapped[1, 1] == 42.0
    del mapped, view, buffer
    gc.collect()
    assert sys.getrefcount(array) == before
    assert device.allocator.statistics["bytes_imported"] == 0
    with pytest.raises((BufferError, ValueError)):
        readonly = np.zeros(4, np.float32)
        readonly.flags.writeable = False
        device.allocator.import_host_allocation(
            buffer=readonly, memory_type=ember_rt.MemoryType.DEVICE_LOCAL,
            allowed_usage=ember_rt.BufferUsage.DEFAULT)


@pytest.mark.parametrize("which", ["ember", "iree"])
def test_semaphores_and_fences_behave_as_upstream(ember_rt, iree_rt, which):
    rt = ember_rt if which == "ember" else iree_rt
    device = rt.get_driver("local-sync").create_default_device()
    sem = device.create_semaphore(0)
    assert sem.query() == 0
    assert sem.wait(1, timeout=1_000_000) is False  # 1 ms: not reached
    sem.signal(2)
    assert sem.query() == 2
    assert sem.wait(2) is True
    single = rt.HalFence.create_at(sem, 3)
    assert single.timepoint_count == 1
    assert single.wait(timeout=1_000_000) is False
    other = device.create_semaphore(0)
    fence = rt.HalFence(2)
    fence.insert(sem, 3)
    fence.insert(other, 1)
    assert fence.timepoint_count == 2
    fence.signal()
    assert fence.wait() is True
    assert sem.query() == 3 and other.query() == 1
    joined = rt.HalFence.join([fence, rt.HalFence.create_at(other, 1)])
    assert joined.wait(timeout=0) is True
    failing = device.create_semaphore(0)
    failing.fail("broken")
    with pytest.raises(RuntimeError):
        rt.HalFence.create_at(failing, 1).wait()
    with pytest.raises((ValueError, RuntimeError)):
        sem.wait(5, timeout=1, deadline=1)
