"""The hal module's debug sink and device list, and the allocator's
iree.runtime statistics, next to iree.runtime 3.11.

HalModuleDebugSink receives what programs trace (`flow.tensor.trace`), the
default sink prints traces to stderr as IREE's does, create_hal_module takes
one device or several, allocator statistics carry IREE's per-heap keys and
text, and queue_copy's size check is worded so that both runtimes' messages
match the same pattern.
"""

from __future__ import annotations

import gc
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import REPO_ROOT, compile_mlir

RUNTIMES = ["ember", "iree"]

TRACE_MLIR = """
func.func @trace_args(%a: tensor<2xi32>, %b: tensor<3xi32>) {
  flow.tensor.trace "debug_sink_test" = [%a : tensor<2xi32>, %b : tensor<3xi32>]
  return
}
func.func @trace_twice(%a: tensor<2xf32>) -> tensor<2xf32> {
  flow.tensor.trace "first" = [%a : tensor<2xf32>]
  %0 = arith.addf %a, %a : tensor<2xf32>
  flow.tensor.trace "second" = [%0 : tensor<2xf32>]
  return %0 : tensor<2xf32>
}
"""


@pytest.fixture(scope="module")
def trace_vmfb():
    return compile_mlir("debug_sink_trace", TRACE_MLIR)


def _rt(ember_rt, iree_rt, which):
    return ember_rt if which == "ember" else iree_rt


def _run_traced(rt, path, function, args, debug_sink):
    """Calls `function` of the program with a hal module made with
    `debug_sink`; returns the function's results."""
    instance = rt.VmInstance()
    device = rt.get_device("local-task")
    hal = rt.create_hal_module(instance, device, debug_sink=debug_sink)
    program = rt.VmModule.copy_buffer(instance, path.read_bytes())
    context = rt.VmContext(instance)
    context.register_modules([hal, program])
    invoker = rt.FunctionInvoker(context, device,
                                 program.lookup_function(function))
    return invoker(*args)


@pytest.mark.parametrize("which", RUNTIMES)
def test_callback_gets_the_traced_views(ember_rt, iree_rt, trace_vmfb, which):
    rt = _rt(ember_rt, iree_rt, which)
    calls = []

    def callback(key, views):
        assert all(isinstance(v, rt.HalBufferView) for v in views)
        calls.append((key, [rt.DeviceArray(rt.get_device("local-task"), v)
                            .to_host().copy() for v in views]))

    sink = rt.HalModuleDebugSink(callback)
    assert sink.buffer_view_trace_callback is callback
    a = np.array([1, 2], np.int32)
    b = np.array([3, 4, 5], np.int32)
    _run_traced(rt, trace_vmfb, "trace_args", (a, b), sink)
    assert len(calls) == 1
    key, arrays = calls[0]
    assert key == "debug_sink_test"
    np.testing.assert_array_equal(arrays[0], a)
    np.testing.assert_array_equal(arrays[1], b)
    assert arrays[0].dtype == np.int32

    calls.clear()
    result = _run_traced(rt, trace_vmfb, "trace_twice",
                         (np.array([1.5, -2], np.float32),), sink)
    assert [key for key, _ in calls] == ["first", "second"]
    np.testing.assert_array_equal(calls[0][1][0], [1.5, -2])
    np.testing.assert_array_equal(calls[1][1][0], [3, -4])
    np.testing.assert_array_equal(np.asarray(result), [3, -4])


@pytest.mark.parametrize("which", RUNTIMES)
def test_callback_exception_fails_the_call(ember_rt, iree_rt, trace_vmfb,
                                           which):
    rt = _rt(ember_rt, iree_rt, which)

    def callback(key, views):
        raise KeyError("raised by the sink")

    sink = rt.HalModuleDebugSink(callback)
    with pytest.raises(RuntimeError, match="UNKNOWN") as info:
        _run_traced(rt, trace_vmfb, "trace_args",
                    (np.zeros(2, np.int32), np.zeros(3, np.int32)), sink)
    if which == "ember":
        assert "raised by the sink" in str(info.value)


def test_module_keeps_the_sink_alive(ember_rt, trace_vmfb):
    rt = ember_rt
    keys = []
    instance = rt.VmInstance()
    device = rt.get_device("local-task")
    hal = rt.create_hal_module(
        instance, device,
        debug_sink=rt.HalModuleDebugSink(lambda key, views: keys.append(key)))
    program = rt.VmModule.copy_buffer(instance, trace_vmfb.read_bytes())
    context = rt.VmContext(instance, modules=[hal, program])
    del hal
    gc.collect()
    rt.FunctionInvoker(context, device, program.lookup_function("trace_args"))(
        np.zeros(2, np.int32), np.zeros(3, np.int32))
    assert keys == ["debug_sink_test"]


@pytest.mark.parametrize("which", RUNTIMES)
def test_self_referencing_callback_is_collected(ember_rt, iree_rt, which):
    rt = _rt(ember_rt, iree_rt, which)
    destroyed = []

    class Callback:
        def __del__(self):
            destroyed.append(True)

        def __call__(self, key, views):
            pass

    callback = Callback()
    sink = rt.HalModuleDebugSink(callback)
    callback.sink = sink  # a cycle through the sink
    instance = rt.VmInstance()
    hal = rt.create_hal_module(instance, rt.get_device("local-task"),
                               debug_sink=sink)
    context = rt.VmContext(instance)
    context.register_modules([hal])
    del callback, sink
    gc.collect()
    assert not destroyed, "the hal module holds the sink"
    del hal, context, instance
    gc.collect()
    assert destroyed


@pytest.mark.parametrize("which", RUNTIMES)
def test_sink_arguments_are_checked(ember_rt, iree_rt, which):
    rt = _rt(ember_rt, iree_rt, which)
    with pytest.raises(TypeError):
        rt.HalModuleDebugSink(3)
    with pytest.raises(TypeError):
        rt.create_hal_module(rt.VmInstance(), rt.get_device("local-task"),
                             debug_sink=print)
    rt.create_hal_module(rt.VmInstance(), rt.get_device("local-task"),
                         debug_sink=None)


def test_default_sink_prints_like_iree(trace_vmfb):
    """Without a sink, traces go to stderr, byte for byte as IREE's."""
    script = textwrap.dedent(f"""
        import sys
        import numpy as np
        if sys.argv[1] == "ember":
            import ember.runtime as rt
        else:
            import iree.runtime as rt
        instance = rt.VmInstance()
        device = rt.get_device("local-task")
        hal = rt.create_hal_module(instance, device)
        program = rt.VmModule.copy_buffer(
            instance, open({str(trace_vmfb)!r}, "rb").read())
        context = rt.VmContext(instance, modules=[hal, program])
        f = rt.FunctionInvoker(context, device,
                               program.lookup_function("trace_args"))
        f(np.array([1, -2], np.int32), np.array([3, 4, 5], np.int32))
        f = rt.FunctionInvoker(context, device,
                               program.lookup_function("trace_twice"))
        f(np.array([0.5, 1e-7], np.float32))
    """)
    outputs = []
    for which in RUNTIMES:
        if which == "iree":
            pytest.importorskip("iree.runtime")
        result = subprocess.run([sys.executable, "-c", script, which],
                                capture_output=True, text=True, timeout=120,
                                cwd=REPO_ROOT)
        assert result.returncode == 0, result.stderr
        outputs.append(result.stderr)
    assert outputs[0].startswith(
        "=== debug_sink_test ===\n2xi32=1 -2\n3xi32=3 4 5\n\n=== first ===\n")
    assert outputs[0] == outputs[1]


# ---- several devices ----------------------------------------------------------

@pytest.mark.parametrize("which", RUNTIMES)
def test_hal_module_over_several_devices(ember_rt, iree_rt, which):
    rt = _rt(ember_rt, iree_rt, which)
    instance = rt.VmInstance()
    devices = [rt.get_device("local-task"), rt.get_device("local-sync")]
    hal = rt.create_hal_module(instance, devices=devices)
    assert isinstance(hal, rt.VmModule)
    context = rt.VmContext(instance, modules=[hal])
    outputs = rt.VmVariantList(1)
    context.invoke(hal.lookup_function("devices.count"), rt.VmVariantList(0),
                   outputs)
    assert outputs.get_variant(0) == 2
    if which == "iree":
        return  # iree.runtime's HalDevice cannot be cast from a VmRef
    for index, device in enumerate(devices):
        inputs, outputs = rt.VmVariantList(1), rt.VmVariantList(1)
        inputs.push_int(index)
        context.invoke(hal.lookup_function("devices.get"), inputs, outputs)
        got = outputs.get_as_object(0, rt.HalDevice)
        # Same device: allocations from it show in its allocator.
        before = device.allocator.statistics["device_bytes_allocated"]
        buffer = got.allocator.allocate_buffer(
            memory_type=rt.MemoryType.DEVICE_LOCAL,
            allowed_usage=rt.BufferUsage.DEFAULT, allocation_size=64)
        assert device.allocator.statistics["device_bytes_allocated"] >= \
            before + 64
        del buffer


def test_device_arguments_are_checked(ember_rt, iree_rt):
    for rt in (ember_rt, iree_rt):
        instance = rt.VmInstance()
        with pytest.raises(ValueError):
            rt.create_hal_module(instance, devices=[])
    rt = ember_rt
    device = rt.get_device("local-task")
    with pytest.raises(ValueError, match="mutually exclusive"):
        rt.create_hal_module(rt.VmInstance(), device, devices=[device])
    with pytest.raises(ValueError):
        rt.create_hal_module(rt.VmInstance())
    with pytest.raises(TypeError):
        rt.create_hal_module(rt.VmInstance(), devices=[device, "local-sync"])


# ---- allocator statistics ---------------------------------------------------------

IREE_KEYS = ("host_bytes_peak", "host_bytes_allocated", "host_bytes_freed",
             "device_bytes_peak", "device_bytes_allocated",
             "device_bytes_freed")


# A heap's line in formatted_statistics: the name right-aligned in 12
# columns, then each count right-aligned in 12 and followed by "B".
STATS_LINE = (r"(  HOST|DEVICE)_LOCAL: [ \d]{11}\dB peak / [ \d]{11}\dB allocated / "
              r"[ \d]{11}\dB freed / [ \d]{11}\dB live")


def _allocation_steps(rt, allocator):
    """Statistics before, during and after a fixed set of allocations."""
    def snapshot():
        stats = allocator.statistics
        return {k: stats[k] for k in IREE_KEYS}, allocator.formatted_statistics

    def allocate(memory_type, size):
        return allocator.allocate_buffer(
            memory_type=memory_type, allowed_usage=rt.BufferUsage.DEFAULT,
            allocation_size=size)

    gc.collect()
    steps = [snapshot()]
    a = allocate(rt.MemoryType.DEVICE_LOCAL, 1000)
    b = allocate(rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE, 300)
    c = allocate(rt.MemoryType.DEVICE_LOCAL, 24)
    steps.append(snapshot())
    del a, c
    d = allocate(rt.MemoryType.DEVICE_LOCAL, 500)
    steps.append(snapshot())
    del b, d
    steps.append(snapshot())
    return steps


def test_statistics_match_iree(ember_rt, iree_rt):
    runs = []
    for rt in (ember_rt, iree_rt):
        allocator = rt.get_driver("local-sync").create_default_device() \
            .allocator
        assert allocator.has_statistics
        runs.append(_allocation_steps(rt, allocator))
    # The per-heap totals move alike (iree.runtime's allocator may have
    # served other devices of its driver before: compare differences).
    for ours, theirs in zip(runs[0][1:], runs[1][1:]):
        for key in ("host_bytes_allocated", "device_bytes_allocated",
                    "host_bytes_freed", "device_bytes_freed"):
            assert ours[0][key] - runs[0][0][0][key] == \
                theirs[0][key] - runs[1][0][0][key], key
    for steps in runs:
        for stats, text in steps:
            lines = text.splitlines()
            assert len(lines) == 2 and text.endswith("\n")
            for line, heap in zip(lines, ("host", "device")):
                assert re.fullmatch(STATS_LINE, line), line
                numbers = [int(n) for n in re.findall(r"(\d+)B", line)]
                allocated = stats[f"{heap}_bytes_allocated"]
                freed = stats[f"{heap}_bytes_freed"]
                assert numbers == [stats[f"{heap}_bytes_peak"], allocated,
                                   freed, allocated - freed]
    # Ember's device is new: absolute values, peaks included.
    first, during, reused, final = (stats for stats, _ in runs[0])
    assert first == dict.fromkeys(IREE_KEYS, 0)
    assert during["device_bytes_allocated"] == 1024
    assert during["host_bytes_allocated"] == 300
    assert reused["device_bytes_peak"] == 1024
    assert reused["device_bytes_freed"] == 1024
    assert final == {"host_bytes_peak": 300, "host_bytes_allocated": 300,
                     "host_bytes_freed": 300, "device_bytes_peak": 1024,
                     "device_bytes_allocated": 1524,
                     "device_bytes_freed": 1524}


def test_ember_statistics_keys_are_kept(ember_rt):
    device = ember_rt.get_driver("local-sync").create_default_device()
    stats = device.allocator.statistics
    for key in ("bytes_allocated", "bytes_peak", "allocation_count",
                "bytes_imported"):
        assert key in stats


# ---- queue_copy -------------------------------------------------------------------

@pytest.mark.parametrize("which", RUNTIMES)
def test_queue_copy_size_mismatch(ember_rt, iree_rt, which):
    rt = _rt(ember_rt, iree_rt, which)
    device = rt.get_device("local-task")

    def allocate(size):
        return device.allocator.allocate_buffer(
            memory_type=rt.MemoryType.DEVICE_LOCAL,
            allowed_usage=rt.BufferUsage.DEFAULT, allocation_size=size)

    semaphore = device.create_semaphore(0)
    with pytest.raises(ValueError, match="length must be less than"):
        device.queue_copy(allocate(13), allocate(12),
                          wait_semaphores=rt.HalFence.create_at(semaphore, 0),
                          signal_semaphores=rt.HalFence.create_at(semaphore,
                                                                  1))
    # A source that fits is copied.
    source = device.allocator.allocate_buffer_copy(
        memory_type=rt.MemoryType.DEVICE_LOCAL,
        allowed_usage=rt.BufferUsage.DEFAULT, device=device,
        buffer=np.arange(3, dtype=np.int32),
        element_type=rt.HalElementType.SINT_32).get_buffer()
    target = allocate(16)
    fence = rt.HalFence.create_at(semaphore, 1)
    device.queue_copy(source, target,
                      wait_semaphores=rt.HalFence.create_at(semaphore, 0),
                      signal_semaphores=fence)
    fence.wait()
    view = rt.HalBufferView(target, [4], rt.HalElementType.SINT_32)
    np.testing.assert_array_equal(
        view.map().asarray(view.shape, np.dtype(np.int32)), [0, 1, 2, 0])
