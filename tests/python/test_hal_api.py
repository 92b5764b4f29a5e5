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
