"""Awaitable calls (`FunctionInvoker.async_call`) and `HalDeviceLoopBridge`.

A coarse-fences function (`iree.abi.model = "coarse-fences"`, what
`--iree-execution-model=async-external` makes of every export) on
local-task is issued on the event loop's thread and completed through the
loop's eventfd when its signal fence is reached; anything else runs on the
loop's executor. Both must give exactly the results of a plain call, keep
the loop free, fail with the plain call's exceptions, survive cancellation
and a loop that closes with calls in flight, and leak nothing.
"""

from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
import time
import textwrap
from pathlib import Path

import numpy as np
import pytest

from conftest import CPU_COMPILE_FLAGS, compile_mlir

N = 64
PROGRAM = f"""
util.func public @mlp_async(%x: tensor<4x{N}xf32>, %w: tensor<{N}x{N}xf32>)
    -> tensor<4x{N}xf32> attributes {{iree.abi.model = "coarse-fences"}} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x{N}xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x{N}xf32>) -> tensor<4x{N}xf32>
  %a = linalg.matmul ins(%x, %w : tensor<4x{N}xf32>, tensor<{N}x{N}xf32>)
      outs(%f : tensor<4x{N}xf32>) -> tensor<4x{N}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                         affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}}
      ins(%a : tensor<4x{N}xf32>) outs(%e : tensor<4x{N}xf32>) {{
    ^bb0(%i: f32, %o: f32):
      %m = arith.maximumf %i, %z : f32
      linalg.yield %m : f32
  }} -> tensor<4x{N}xf32>
  util.return %r : tensor<4x{N}xf32>
}}
util.func public @two_async(%a: tensor<4xi32>, %b: tensor<4xi32>)
    -> (tensor<4xi32>, tensor<4xi32>)
    attributes {{iree.abi.model = "coarse-fences"}} {{
  %0 = arith.addi %a, %a : tensor<4xi32>
  %1 = arith.muli %a, %b : tensor<4xi32>
  util.return %0, %1 : tensor<4xi32>, tensor<4xi32>
}}
func.func @mlp_sync(%x: tensor<4x{N}xf32>, %w: tensor<{N}x{N}xf32>)
    -> tensor<4x{N}xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x{N}xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x{N}xf32>) -> tensor<4x{N}xf32>
  %a = linalg.matmul ins(%x, %w : tensor<4x{N}xf32>, tensor<{N}x{N}xf32>)
      outs(%f : tensor<4x{N}xf32>) -> tensor<4x{N}xf32>
  return %a : tensor<4x{N}xf32>
}}
"""


@pytest.fixture(scope="module")
def vmfb():
    return compile_mlir("async_calls", PROGRAM, CPU_COMPILE_FLAGS)


def _module(rt, vmfb, driver):
    ctx = rt.SystemContext(config=rt.Config(driver))
    ctx.add_vm_module(rt.VmModule.mmap(ctx.instance, str(vmfb)))
    return ctx.modules.module


def _inputs(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((4, N), dtype=np.float32)
    w = (rng.standard_normal((N, N), dtype=np.float32) / 8).astype(np.float32)
    return x, w


@pytest.mark.parametrize("driver", ["local-task", "local-sync"])
def test_gathered_calls_match_plain_calls(ember_rt, vmfb, driver):
    m = _module(ember_rt, vmfb, driver)
    inputs = [_inputs(seed) for seed in range(16)]
    expected = [np.asarray(m.mlp_async(x, w)).copy() for x, w in inputs]
    for (x, w), e in zip(inputs, expected):
        np.testing.assert_allclose(e, np.maximum(x @ w, 0), rtol=1e-5,
                                   atol=1e-5)

    async def main():
        return await asyncio.gather(*[m.mlp_async.async_call(x, w)
                                      for x, w in inputs])

    for _ in range(3):
        results = asyncio.run(main())
        for r, e in zip(results, expected):
            assert isinstance(r, ember_rt.DeviceArray)
            np.testing.assert_array_equal(np.asarray(r), e)


def test_several_results(ember_rt, vmfb):
    m = _module(ember_rt, vmfb, "local-task")
    a = np.array([1, -2, 3, 40], np.int32)

    async def main():
        return await asyncio.gather(*[
            m.two_async.async_call(a, np.full(4, k, np.int32))
            for k in range(10)])

    for k, (doubled, product) in enumerate(asyncio.run(main())):
        np.testing.assert_array_equal(np.asarray(doubled), a + a)
        np.testing.assert_array_equal(np.asarray(product), a * k)


def test_native_path_is_taken_only_where_it_can_be(ember_rt, vmfb):
    """The native path needs a coarse-fences function on a device with queue
    threads; everything else goes to the executor (None here)."""
    from ember import _ember
    from ember.runtime.function import _completion_port
    task = _module(ember_rt, vmfb, "local-task")
    sync = _module(ember_rt, vmfb, "local-sync")
    x, w = _inputs(0)

    async def main():
        loop = asyncio.get_running_loop()
        port = _completion_port(loop)
        future = _ember._start_async_call(task.mlp_async, port, loop, x, w)
        assert isinstance(future, asyncio.Future)
        np.testing.assert_array_equal(np.asarray(await future),
                                      np.asarray(task.mlp_async(x, w)))
        assert _ember._start_async_call(task.mlp_sync, port, loop, x,
                                        w) is None
        assert _ember._start_async_call(sync.mlp_async, port, loop, x,
                                        w) is None
        # The executor path still gives the plain call's result.
        np.testing.assert_array_equal(
            np.asarray(await task.mlp_sync.async_call(x, w)),
            np.asarray(task.mlp_sync(x, w)))

    asyncio.run(main())


def test_errors_are_the_plain_calls(ember_rt, vmfb):
    m = _module(ember_rt, vmfb, "local-task")
    x, w = _inputs(0)

    async def main():
        with pytest.raises(ValueError, match="expected 2 arguments"):
            await m.mlp_async.async_call(x)
        with pytest.raises(ValueError, match="argument 1 of 'mlp_async'"):
            await m.mlp_async.async_call(x, w[:8])
        with pytest.raises(ValueError, match="kwargs"):
            await m.mlp_async.async_call(x, w=w)
        # The invoker still works afterwards.
        return np.asarray(await m.mlp_async.async_call(x, w))

    np.testing.assert_array_equal(asyncio.run(main()),
                                  np.asarray(m.mlp_async(x, w)))


def test_cancelled_calls_leave_the_others_alone(ember_rt, vmfb):
    m = _module(ember_rt, vmfb, "local-task")
    inputs = [_inputs(seed) for seed in range(8)]

    async def main():
        tasks = [asyncio.ensure_future(m.mlp_async.async_call(x, w))
                 for x, w in inputs]
        await asyncio.sleep(0)  # every call issued
        for task in tasks[::2]:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for i, result in enumerate(results):
            if i % 2 == 0:
                assert isinstance(result, asyncio.CancelledError)
            else:
                x, w = inputs[i]
                np.testing.assert_array_equal(np.asarray(result),
                                              np.asarray(m.mlp_async(x, w)))
        # Let the cancelled calls finish on the device, then call again.
        await asyncio.sleep(0.05)
        x, w = inputs[0]
        return np.asarray(await m.mlp_async.async_call(x, w))

    x, w = inputs[0]
    np.testing.assert_array_equal(asyncio.run(main()),
                                  np.asarray(m.mlp_async(x, w)))


def test_references_are_balanced(ember_rt, vmfb):
    m = _module(ember_rt, vmfb, "local-task")
    x, w = _inputs(1)
    invoker = m.mlp_async

    async def main(count):
        for _ in range(count):
            await asyncio.gather(*[invoker.async_call(x, w) for _ in range(8)])

    asyncio.run(main(2))  # warm up: ports, caches
    gc.collect()
    before = (sys.getrefcount(x), sys.getrefcount(w), sys.getrefcount(invoker))
    asyncio.run(main(50))
    # An imported argument is given back by whichever thread drops the
    # buffer last, possibly a moment after its call's future resolved (the
    # release waits for the GIL: python_owner.h); so allow that moment, and
    # no more.
    deadline = time.monotonic() + 5
    while True:
        gc.collect()
        after = (sys.getrefcount(x), sys.getrefcount(w),
                 sys.getrefcount(invoker))
        if after == before or time.monotonic() > deadline:
            break
        time.sleep(0.01)
    assert after == before


def _run_python(code: str) -> subprocess.CompletedProcess:
    import ember.runtime as rt
    env = dict(os.environ)
    # The ember package the tests import, wherever it is installed.
    package_root = str(Path(rt.__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(
        [package_root, *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
        text=True, timeout=300, env=env)


def test_no_leak_report_and_loops_closed_with_calls_in_flight(vmfb):
    """Calls still in flight when their loop closes, and at interpreter exit,
    crash nothing and leak nothing (nanobind reports leaked instances at
    exit on stderr)."""
    proc = _run_python(f"""
        import asyncio, numpy as np
        import ember.runtime as rt
        ctx = rt.SystemContext(config=rt.Config("local-task"))
        ctx.add_vm_module(rt.VmModule.mmap(ctx.instance, {str(vmfb)!r}))
        f = ctx.modules.module.mlp_async
        x = np.ones((4, {N}), np.float32)
        w = np.eye({N}, dtype=np.float32)
        async def main():
            for _ in range(200):
                r = await asyncio.gather(*[f.async_call(x, w) for _ in range(4)])
            assert (np.asarray(r[0]) == x).all()
        asyncio.run(main())
        # A loop closed while calls are in flight: their futures are dropped.
        loop = asyncio.new_event_loop()
        async def start():
            return [asyncio.ensure_future(f.async_call(x, w)) for _ in range(8)]
        pending = loop.run_until_complete(start())
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()
        del pending, loop
        # And calls in flight at exit.
        loop2 = asyncio.new_event_loop()
        left = loop2.run_until_complete(start())
        print("done")
    """)
    assert proc.returncode == 0, proc.stderr
    assert "done" in proc.stdout
    assert "leaked" not in proc.stderr, proc.stderr


# -- HalDeviceLoopBridge ------------------------------------------------------


def test_loop_bridge_resolves_fails_and_cancels(ember_rt):
    device = ember_rt.get_device("local-task")
    loop = asyncio.new_event_loop()
    bridge = ember_rt.HalDeviceLoopBridge(device, loop)
    try:
        sem1 = device.create_semaphore(0)
        sem2 = device.create_semaphore(0)
        bad = device.create_semaphore(0)
        never = device.create_semaphore(0)
        order = []

        async def main():
            f1 = bridge.on_semaphore(sem1, 1, "one")
            f1.add_done_callback(lambda _: (order.append(1), sem2.signal(2)))
            f2 = bridge.on_semaphore(sem2, 2, "two")
            f2_early = bridge.on_semaphore(sem2, 0, "already")
            fbad = bridge.on_semaphore(bad, 1, "bad")
            assert await f2_early == "already"
            sem1.signal(1)
            assert await f1 == "one"
            assert await f2 == "two"
            bad.fail("producer failed")
            with pytest.raises(RuntimeError):
                await fbad
            return bridge.on_semaphore(never, 1, "never")

        pending = loop.run_until_complete(main())
        assert order == [1]
    finally:
        bridge.stop()
    loop.run_until_complete(asyncio.sleep(0.01))
    assert pending.cancelled()
    # After stop, a request is cancelled at once.
    late = bridge.on_semaphore(never, 1, "late")
    loop.run_until_complete(asyncio.sleep(0.01))
    assert late.cancelled()
    loop.close()


def test_loop_bridge_many_timepoints_from_other_threads(ember_rt):
    import threading
    device = ember_rt.get_device("local-task")
    loop = asyncio.new_event_loop()
    bridge = ember_rt.HalDeviceLoopBridge(device, loop)
    try:
        sems = [device.create_semaphore(0) for _ in range(32)]

        async def main():
            futures = [bridge.on_semaphore(s, 3, i) for i, s in enumerate(sems)]
            threads = [threading.Thread(target=lambda s=s: [s.signal(v)
                                                            for v in (1, 2, 3)])
                       for s in sems]
            for t in threads:
                t.start()
            values = await asyncio.gather(*futures)
            for t in threads:
                t.join()
            return values

        assert loop.run_until_complete(main()) == list(range(32))
    finally:
        bridge.stop()
        loop.close()
