#!/usr/bin/env python3
"""Ember on Ray Serve: throughput and latency of batch-1 requests.

    python3 bench/run_serve_bench.py [--requests 2000] [--concurrency 16]

The model is the MLP of the model benchmark (784 -> 512 -> 512 -> 512 -> 10,
ReLU; bench/models.py's shapes) with a dynamic batch dim and its weights in
an .irpa parameter archive (`#stream.parameter.named<"model"::...>`), compiled
for the host CPU. Requests are single rows (1x784 f32), sent through a
DeploymentHandle by `--concurrency` concurrent asyncio clients in this
process, on a one-node Ray instance started here (loopback). Measured:

  direct        ember.runtime in process, one call after another
  serve         ember.serve.ModelDeployment: 1 and 2 replicas, with and
                without batching (max_batch_size 16, 2 ms wait), and one
                client at a time (the latency the Serve path adds)
  naive iree    the same deployment written naively around iree.runtime
                3.13: one replica, no batching, module bytes and weights
                copied into the process (ParameterIndex.load(mmap=False))

For each: requests/s, p50 and p99 latency; every answer checked bit for bit
against the direct call. Replica memory from /proc/PID/smaps_rollup: RSS,
PSS (shared pages divided among the processes that map them) and anonymous
memory, for one and for two Ember replicas on the node, against the weights'
size (`--memory-width`: 12288 gives 1.2 GiB of weights).

`--parts` picks what runs (default: all):

  main          the table above
  overhead      serial latency, one client, of a no-op deployment (returns
                its input: what Ray costs by itself), the MLP in numpy, and
                ModelDeployment timed inside the replica (handler, executor
                call, compiled call), each request sent to every path in
                turn; Ray's share = client p50 - handler p50
  batching      16 (and 64) concurrent clients, the no-op and Ember with and
                without serve.batch, clients as asyncio tasks (router on its
                own thread or on the clients' loop) or threads; CPU used per
                request by the load generator, the replica and the machine
  copy          what copying a read-only input costs (direct calls)
  memory        replicas' memory with large weights

`--ray-throughput-optimized` sets Ray Serve's RAY_SERVE_THROUGHPUT_OPTIMIZED=1
and `--no-access-log` turns Serve's per-request log off. Prints Markdown
tables (the lead copies them into BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
WIDTHS = [784, 512, 512, 512, 10]
COMPILE_FLAGS = [
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
]


def program(widths=WIDTHS) -> str:
    """relu(x W0 + b0) ... x W3 + b3 with a dynamic batch dim; weights and
    biases are parameters."""
    lines = []
    for i in range(len(widths) - 1):
        k, n = widths[i], widths[i + 1]
        lines.append(f'util.global private @w{i} = #stream.parameter.named'
                     f'<"model"::"w{i}"> : tensor<{k}x{n}xf32>')
        lines.append(f'util.global private @b{i} = #stream.parameter.named'
                     f'<"model"::"b{i}"> : tensor<{n}xf32>')
    lines.append(f"func.func @main(%x: tensor<?x{widths[0]}xf32>) -> "
                 f"tensor<?x{widths[-1]}xf32> {{")
    lines.append("  %c0 = arith.constant 0 : index")
    lines.append("  %zero = arith.constant 0.0 : f32")
    lines.append(f"  %d = tensor.dim %x, %c0 : tensor<?x{widths[0]}xf32>")
    last = "%x"
    for i in range(len(widths) - 1):
        k, n = widths[i], widths[i + 1]
        t = f"tensor<?x{n}xf32>"
        relu = i + 2 < len(widths)
        lines += [
            f"  %w{i} = util.global.load @w{i} : tensor<{k}x{n}xf32>",
            f"  %b{i} = util.global.load @b{i} : tensor<{n}xf32>",
            f"  %e{i} = tensor.empty(%d) : {t}",
            f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : {t}) -> {t}",
            f"  %m{i} = linalg.matmul ins({last}, %w{i} : tensor<?x{k}xf32>, "
            f"tensor<{k}x{n}xf32>) outs(%f{i} : {t}) -> {t}",
            f"  %y{i} = linalg.generic {{indexing_maps = [affine_map<(a, b) -> "
            f"(a, b)>, affine_map<(a, b) -> (b)>, affine_map<(a, b) -> "
            f"(a, b)>], iterator_types = [\"parallel\", \"parallel\"]}} "
            f"ins(%m{i}, %b{i} : {t}, tensor<{n}xf32>) outs(%e{i} : {t}) {{",
            "  ^bb0(%v: f32, %bias: f32, %o: f32):",
            "    %s = arith.addf %v, %bias : f32",
        ]
        if relu:
            lines += ["    %r = arith.maximumf %s, %zero : f32",
                      "    linalg.yield %r : f32"]
        else:
            lines.append("    linalg.yield %s : f32")
        lines.append(f"  }} -> {t}")
        last = f"%y{i}"
    lines.append(f"  return {last} : tensor<?x{widths[-1]}xf32>")
    lines.append("}")
    return "\n".join(lines) + "\n"


def weights_of(widths=WIDTHS) -> list[tuple[np.ndarray, np.ndarray]]:
    """The MLP's (weight, bias) per layer, the same on every call."""
    rng = np.random.default_rng(1)
    layers = []
    for i in range(len(widths) - 1):
        k, n = widths[i], widths[i + 1]
        # Made in f32 directly: no f64 temporary (the memory part's weights
        # are over 1 GiB).
        w = rng.standard_normal((k, n), dtype=np.float32)
        w *= np.float32(1 / np.sqrt(k))
        b = rng.standard_normal(n, dtype=np.float32) * np.float32(0.1)
        layers.append((w, b))
    return layers


def build(workdir: Path, widths=WIDTHS) -> tuple[Path, Path, int]:
    """(module, weights archive, weight bytes)."""
    import ember.runtime as rt
    stem = "mlp_serve_" + "_".join(map(str, widths))
    mlir = workdir / f"{stem}.mlir"
    mlir.write_text(program(widths))
    vmfb = workdir / f"{stem}.vmfb"
    compiler = Path(sys.executable).parent / "iree-compile"
    subprocess.run([str(compiler) if compiler.exists() else "iree-compile",
                    str(mlir), *COMPILE_FLAGS, "-o", str(vmfb)], check=True)
    index = rt.ParameterIndex()
    nbytes = 0
    for i, (w, b) in enumerate(weights_of(widths)):
        rt.parameter_index_add_numpy_ndarray(index, f"w{i}", w)
        rt.parameter_index_add_numpy_ndarray(index, f"b{i}", b)
        nbytes += w.nbytes + b.nbytes
    weights = workdir / f"{stem}.irpa"
    index.create_archive_file(str(weights))
    return vmfb, weights, nbytes


def summary(latencies: list[float], elapsed: float) -> dict:
    ordered = sorted(latencies)
    return {"rps": len(ordered) / elapsed,
            "p50_ms": 1e3 * statistics.median(ordered),
            "p99_ms": 1e3 * ordered[min(len(ordered) - 1,
                                        int(0.99 * len(ordered)))]}


def bench_direct(vmfb, weights, inputs, expected) -> dict:
    from ember.serve import EmberModel
    model = EmberModel(vmfb, "main", parameters={"model": str(weights)})
    f = model.invoker  # the plain ember.runtime FunctionInvoker
    for x in inputs[:100]:
        f(x)
    latencies = []
    start = time.perf_counter()
    for x, want in zip(inputs, expected):
        t = time.perf_counter()
        y = np.asarray(f(x))
        latencies.append(time.perf_counter() - t)
        assert y.tobytes() == want.tobytes()
    return summary(latencies, time.perf_counter() - start)


async def drive(handle, inputs, expected, concurrency: int) -> dict:
    latencies = []

    async def client(k: int):
        for i in range(k, len(inputs), concurrency):
            t = time.perf_counter()
            y = await handle.remote(inputs[i])
            latencies.append(time.perf_counter() - t)
            if expected is not None:
                assert np.asarray(y).tobytes() == expected[i].tobytes(), i

    warm = inputs[: 4 * concurrency]
    await asyncio.gather(*(handle.remote(x) for x in warm))
    start = time.perf_counter()
    await asyncio.gather(*(client(k) for k in range(concurrency)))
    return summary(latencies, time.perf_counter() - start)


class NaiveIree:
    """A deployment as one writes it around iree.runtime: a sync call on
    one context, module bytes and weights read into memory."""

    def __init__(self, module: str, weights: str):
        import iree.runtime as ireert
        self.instance = ireert.VmInstance()
        self.device = ireert.get_device("local-task")
        index = ireert.ParameterIndex()
        index.load(weights, mmap=False)
        with open(module, "rb") as f:
            vm_module = ireert.VmModule.copy_buffer(self.instance, f.read())
        modules = ireert.load_vm_modules(
            ireert.create_io_parameters_module(
                self.instance, index.create_provider(scope="model")),
            ireert.create_hal_module(self.instance, self.device),
            vm_module, config=ireert.Config(device=self.device))
        self.index = index
        self.main = modules[-1].main

    def __call__(self, x):
        return self.main(x).to_host()

    def stats(self):
        from ember.serve.deployment import _memory
        return {"pid": os.getpid(), "memory": _memory()}


def thread_handle(serve, app: str):
    """A new handle on `app` whose router runs on its own thread (Serve's
    default), whatever RAY_SERVE_THROUGHPUT_OPTIMIZED says: it may be used
    from several asyncio.run loops and synchronously."""
    from ray.serve.handle import DeploymentHandle
    handle = DeploymentHandle(serve.get_app_handle(app).deployment_name, app)
    handle._init(_run_router_in_separate_loop=True)
    return handle


def replica_memory(handle, want: int, x=None) -> list[dict]:
    """Memory of `want` replicas, each having answered calls first."""
    if x is not None:
        for _ in range(8 * want):
            handle.remote(x).result(timeout_s=120)
    seen = {}
    for _ in range(40):
        s = handle.stats.remote().result(timeout_s=60)
        seen[s["pid"]] = s["memory"]
        if len(seen) >= want:
            break
    return list(seen.values())



# -- Where the time goes: Ray's share and Ember's share ---------------------
#
# The same Serve options as ModelDeployment (max_ongoing_requests 64, an async
# handler, serve.batch with the same sizes), around handlers that do not call
# Ember: one that returns its input (what Ray costs by itself) and one that
# runs the same MLP in numpy. The Ember deployment is ModelDeployment with
# time.perf_counter() around its handler, its executor call and the compiled
# function's call, inside the replica.


def machine_busy() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs so far, from /proc/stat."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def deployments(serve):
    """(Noop, NumpyMLP, TimedEmber) deployment classes (made here, where
    Ray is imported)."""
    from ember.serve import ModelDeployment

    class Noop:
        """Answers each request with its input; serve.batch as Ember's."""

        def __init__(self, max_batch_size=None, batch_wait_timeout_s=0.002):
            self._batching = bool(max_batch_size)
            self.calls = 0
            if self._batching:
                self._batched.set_max_batch_size(int(max_batch_size))
                self._batched.set_batch_wait_timeout_s(
                    float(batch_wait_timeout_s))

        async def __call__(self, *args):
            if self._batching:
                return await self._batched(args)
            self.calls += 1
            return args[0]

        @serve.batch(max_batch_size=16, batch_wait_timeout_s=0.005)
        async def _batched(self, requests: list):
            self.calls += 1
            return [r[0] for r in requests]

        def stats(self):
            return {"pid": os.getpid(), "cpu_s": time.process_time(),
                    "calls": self.calls}

        def timings(self):
            return {}

    class NumpyMLP:
        """The same MLP in numpy, run in the handler."""

        def __init__(self, widths):
            self.layers = weights_of(widths)
            self.calls = 0
            self.handler = []

        async def __call__(self, x):
            t = time.perf_counter()
            self.calls += 1
            h = x
            for i, (w, b) in enumerate(self.layers):
                h = h @ w + b
                if i + 1 < len(self.layers):
                    h = np.maximum(h, 0)
            self.handler.append(time.perf_counter() - t)
            return h

        def stats(self):
            return {"pid": os.getpid(), "cpu_s": time.process_time(),
                    "calls": self.calls}

        def timings(self):
            out = {"handler": self.handler}
            self.handler = []
            return out

    class TimedEmber(ModelDeployment.func_or_class):
        """ModelDeployment, timed inside the replica: the handler body
        (`handler`), the executor call of run_batch (`run_batch`: stacking,
        the call, numpy results) and the compiled function's call alone
        (`invoke`: argument import, the run, result arrays)."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.times = {"handler": [], "run_batch": [], "invoke": []}
            model = self.model
            run_batch, invoker = model.run_batch, model.invoker

            def timed_run_batch(requests):
                t = time.perf_counter()
                out = run_batch(requests)
                self.times["run_batch"].append(time.perf_counter() - t)
                return out

            def timed_invoker(*args):
                t = time.perf_counter()
                out = invoker(*args)
                self.times["invoke"].append(time.perf_counter() - t)
                return out

            model.run_batch = timed_run_batch
            model.invoker = timed_invoker

        async def __call__(self, *args):
            t = time.perf_counter()
            out = await super().__call__(*args)
            self.times["handler"].append(time.perf_counter() - t)
            return out

        def stats(self):
            out = super().stats()
            out["cpu_s"] = time.process_time()
            return out

        def timings(self):
            out = self.times
            self.times = {k: [] for k in out}
            return out

    return Noop, NumpyMLP, TimedEmber


def ms(values) -> float:
    return 1e3 * statistics.median(values) if values else float("nan")


def part_overhead(serve, vmfb, weights, inputs, expected, rounds: int,
                  per_round: int, options: dict) -> list[str]:
    """Serial (1 client) latency of the no-op, numpy and Ember deployments
    and of direct calls, alternated over `rounds`; Ember's time inside the
    replica."""
    Noop, NumpyMLP, TimedEmber = deployments(serve)
    apps = {
        "no-op (returns its input)": serve.deployment(
            Noop, **options).bind(),
        "numpy MLP": serve.deployment(NumpyMLP, **options).bind(WIDTHS),
        "ember.serve ModelDeployment": serve.deployment(
            TimedEmber, **options).bind(
                module=str(vmfb), function="main",
                parameters={"model": str(weights)}),
    }
    handles = {}
    for i, (name, app) in enumerate(apps.items()):
        serve.run(app, name=f"o{i}", route_prefix=None)
        # Serve's default handle: with RAY_SERVE_THROUGHPUT_OPTIMIZED its
        # router runs on this process's event loop (no thread hop).
        handles[name] = serve.get_app_handle(f"o{i}")
    want = {x.tobytes(): e for x, e in zip(inputs, expected)}
    layers = weights_of(WIDTHS)

    def numpy_ref(x):
        h = x
        for i, (w, b) in enumerate(layers):
            h = h @ w + b
            if i + 1 < len(layers):
                h = np.maximum(h, 0)
        return h

    def check(name):
        if name.startswith("no-op"):
            return lambda x, y: np.testing.assert_array_equal(y, x)
        if name.startswith("numpy"):
            # The replica's BLAS may differ in threads: close, not equal.
            return lambda x, y: np.testing.assert_allclose(
                y, numpy_ref(x), rtol=1e-4, atol=1e-5)
        return lambda x, y: np.testing.assert_array_equal(y, want[x.tobytes()])

    from ember.serve import EmberModel
    direct = EmberModel(vmfb, "main", parameters={"model": str(weights)})
    lat = {name: [] for name in handles}
    lat["direct ember.runtime call"] = []
    lat["direct numpy call"] = []
    round_p50 = {name: [] for name in lat}
    inside = {}

    async def run_all():
        for x in inputs[:50]:
            for h in handles.values():
                await h.remote(x)
        for h in handles.values():
            await h.timings.remote()
        # Interleaved request by request (each input goes to every path in
        # turn, the order rotating), so that the machine's changing load
        # falls on all paths alike.
        direct_calls = {"direct ember.runtime call": direct.invoker,
                        "direct numpy call": numpy_ref}
        names = list(lat)
        checks = {name: check(name) for name in handles}
        for r in range(rounds):
            xs = inputs[r * per_round:(r + 1) * per_round]
            got = {name: [] for name in names}
            for j, x in enumerate(xs):
                k = j % len(names)
                for name in names[k:] + names[:k]:
                    if name in handles:
                        t = time.perf_counter()
                        y = await handles[name].remote(x)
                        got[name].append(time.perf_counter() - t)
                        checks[name](x, y)
                    else:
                        t = time.perf_counter()
                        np.asarray(direct_calls[name](x))
                        got[name].append(time.perf_counter() - t)
            for name in names:
                lat[name] += got[name]
                round_p50[name].append(ms(got[name]))
        for name, h in handles.items():
            inside[name] = await h.timings.remote()

    asyncio.run(run_all())
    for i in range(len(apps)):
        serve.delete(f"o{i}")
    out = [f"\nSerial latency, 1 client, {rounds} rounds of {per_round} "
           "requests, each request sent to every path in turn (p50 of all; "
           "each round's p50 in the last column):\n",
           "| path | p50 ms | p99 ms | round p50s ms |",
           "| --- | ---: | ---: | --- |"]
    for name, values in lat.items():
        ordered = sorted(values)
        p99 = 1e3 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        rounds_text = ", ".join(f"{v:.2f}" for v in round_p50[name])
        out.append(f"| {name} | {ms(values):.3f} | {p99:.2f} | "
                   f"{rounds_text} |")
    out += ["\nInside the replica (p50 of each request's time, ms; Ray's "
            "share = client p50 - handler p50):\n",
            "| deployment | client p50 | handler | run_batch (executor) | "
            "invoke (compiled call) | Ray's share |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, t in inside.items():
        handler = ms(t.get("handler", []))
        ray_share = ms(lat[name]) - (handler if handler == handler else 0.0)
        out.append(f"| {name} | {ms(lat[name]):.3f} | {handler:.3f} | "
                   f"{ms(t.get('run_batch', [])):.3f} | "
                   f"{ms(t.get('invoke', [])):.3f} | {ray_share:.3f} |")
    return out


async def load(handle, inputs, concurrency: int, how: str) -> dict:
    """Batch-1 requests from `concurrency` clients: asyncio tasks of this
    process (`how` = "tasks"), or threads each waiting on its own request
    (`how` = "threads"). Returns the summary plus CPU use."""
    latencies = []

    async def client(k: int):
        for i in range(k, len(inputs), concurrency):
            t = time.perf_counter()
            await handle.remote(inputs[i])
            latencies.append(time.perf_counter() - t)

    def thread_client(k: int):
        for i in range(k, len(inputs), concurrency):
            t = time.perf_counter()
            handle.remote(inputs[i]).result(timeout_s=120)
            latencies.append(time.perf_counter() - t)

    await asyncio.gather(*(handle.remote(x) for x in inputs[:concurrency]))
    before = await handle.stats.remote()
    busy0, total0 = machine_busy()
    cpu0, start = time.process_time(), time.perf_counter()
    if how == "threads":
        import concurrent.futures
        loop = asyncio.get_running_loop()
        with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
            await asyncio.gather(*(loop.run_in_executor(
                pool, thread_client, k) for k in range(concurrency)))
    else:
        await asyncio.gather(*(client(k) for k in range(concurrency)))
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu0
    busy1, total1 = machine_busy()
    after = await handle.stats.remote()
    result = summary(latencies, elapsed)
    n = len(inputs)
    result["client_cpu_ms_per_req"] = 1e3 * cpu / n
    result["replica_cpu_ms_per_req"] = (
        1e3 * (after["cpu_s"] - before["cpu_s"]) / n
        if after["pid"] == before["pid"] else float("nan"))
    cores = os.cpu_count() or 1
    busy = (busy1 - busy0) / max(1, total1 - total0)
    result["machine_busy"] = busy
    result["machine_cpu_ms_per_req"] = 1e3 * busy * cores * elapsed / n
    calls = after["calls"] - before["calls"]
    result["requests_per_call"] = n / calls if calls > 0 else float("nan")
    return result


def part_batching(serve, vmfb, weights, inputs, rounds: int,
                  concurrency: int, options: dict) -> list[str]:
    """Throughput of batch-1 requests with and without serve.batch, for the
    no-op and the Ember deployments, alternated over `rounds`; client CPU,
    replica CPU and the machine's busy share per request."""
    Noop, _, TimedEmber = deployments(serve)
    ember_args = dict(module=str(vmfb), function="main",
                      parameters={"model": str(weights)})
    apps = {
        "no-op, no batching": serve.deployment(Noop, **options).bind(),
        "no-op, serve.batch 16": serve.deployment(Noop, **options).bind(
            max_batch_size=16),
        "ember, no batching": serve.deployment(TimedEmber, **options).bind(
            **ember_args),
        "ember, batching 16": serve.deployment(TimedEmber, **options).bind(
            **ember_args, max_batch_size=16, batch_wait_timeout_s=0.002),
    }
    names = {}
    for i, (name, app) in enumerate(apps.items()):
        serve.run(app, name=f"b{i}", route_prefix=None)
        names[name] = f"b{i}"
    variants = [("tasks", concurrency, True), ("tasks", concurrency, False),
                ("threads", concurrency, True), ("tasks", 4 * concurrency,
                                                 True)]
    results: dict = {}

    async def run_all():
        handles = {}
        for name, app in names.items():
            # One handle per client variant: the router either on its own
            # thread (Serve's default) or on this event loop.
            from ray.serve.handle import DeploymentHandle
            ingress = serve.get_app_handle(app).deployment_name
            for separate in (True, False):
                # A handle of its own (get_app_handle's are cached, and a
                # handle's router is chosen once).
                h = DeploymentHandle(ingress, app)
                h._init(_run_router_in_separate_loop=separate)
                handles[name, separate] = h
        for r in range(rounds):
            order = list(names)
            if r % 2:
                order.reverse()
            for how, clients, separate in variants:
                if r and (how, clients, separate) != variants[0]:
                    continue  # other variants once, the main one per round
                for name in order:
                    got = await load(handles[name, separate], inputs, clients,
                                     how)
                    key = (name, how, clients, separate)
                    results.setdefault(key, []).append(got)

    asyncio.run(run_all())
    for app in names.values():
        serve.delete(app)
    out = [f"\nThroughput, batch-1 requests, {len(inputs)} per row (median "
           f"of rounds where several; {os.cpu_count()} CPUs):\n",
           "| deployment | clients | req/s | p50 ms | client CPU ms/req | "
           "replica CPU ms/req | machine CPU ms/req (busy %) | "
           "requests per call |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (name, how, clients, separate), runs in results.items():
        def med(key):
            return statistics.median(r[key] for r in runs)
        where = ("router on its own thread" if separate
                 else "router on the clients' loop")
        out.append(
            f"| {name} | {clients} {how} ({where}), {len(runs)} run(s) | "
            f"{med('rps'):.0f} | {med('p50_ms'):.2f} | "
            f"{med('client_cpu_ms_per_req'):.2f} | "
            f"{med('replica_cpu_ms_per_req'):.2f} | "
            f"{med('machine_cpu_ms_per_req'):.2f} "
            f"({100 * med('machine_busy'):.0f}%) | "
            f"{med('requests_per_call'):.1f} |")
    return out


# -- What copying a read-only input costs ------------------------------------
#
# Arrays that come out of Ray's object store are read-only; Ember copies a
# read-only input once (python/bindings/function_bindings.cc), where a
# writable, aligned one is imported without a copy. The same call with the
# same bytes, writable and read-only, alternated call by call: the difference
# is the copy.

SUM_MLIR = """
func.func @main(%x: tensor<{n}xf32>) -> tensor<f32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%x : tensor<{n}xf32>) outs(%f : tensor<f32>)
         dimensions = [0]
    (%a: f32, %b: f32) {{
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    }}
  return %s : tensor<f32>
}}
"""


def aligned_copy(array: np.ndarray) -> np.ndarray:
    """A writable, 64-byte-aligned copy of `array` (imported without a
    copy)."""
    raw = np.empty(array.nbytes + 64, np.uint8)
    offset = (-raw.ctypes.data) % 64
    out = raw[offset:offset + array.nbytes].view(array.dtype).reshape(
        array.shape)
    out[...] = array
    return out


def part_copy(work: Path, vmfb, weights, calls: int) -> list[str]:
    from ember.serve import EmberModel
    n = 16 << 20  # 64 MiB of f32
    mlir = work / "sum64.mlir"
    mlir.write_text(SUM_MLIR.format(n=n))
    sum_vmfb = work / "sum64.vmfb"
    compiler = Path(sys.executable).parent / "iree-compile"
    subprocess.run([str(compiler) if compiler.exists() else "iree-compile",
                    str(mlir), *COMPILE_FLAGS, "-o", str(sum_vmfb)],
                   check=True)
    rng = np.random.default_rng(3)
    cases = [("MLP input, 1x784 f32 (3 KiB)",
              EmberModel(vmfb, "main", parameters={"model": str(weights)}),
              rng.standard_normal((1, WIDTHS[0])).astype(np.float32), calls),
             ("64 MiB f32 input, sum", EmberModel(sum_vmfb, "main"),
              rng.standard_normal(n).astype(np.float32), max(5, calls // 50))]
    out = ["\nCopy of a read-only input (direct calls, writable and "
           "read-only alternated call by call; p50):\n",
           "| input | writable (no copy) ms | read-only (copied) ms | copy "
           "ms | np.copy of the same bytes ms |",
           "| --- | ---: | ---: | ---: | ---: |"]
    for name, model, data, count in cases:
        writable = aligned_copy(data)
        readonly = aligned_copy(data)
        readonly.flags.writeable = False
        f = model.invoker
        want = np.asarray(f(writable)).copy()
        assert np.asarray(f(readonly)).tobytes() == want.tobytes()
        times = {"w": [], "r": [], "c": []}
        for i in range(count):
            for key in ("w", "r", "c") if i % 2 else ("r", "w", "c"):
                t = time.perf_counter()
                if key == "c":
                    np.copy(data)
                else:
                    np.asarray(f(writable if key == "w" else readonly))
                times[key].append(time.perf_counter() - t)
        del model
        w, r, c = ms(times["w"]), ms(times["r"]), ms(times["c"])
        out.append(f"| {name} | {w:.3f} | {r:.3f} | {r - w:.3f} | "
                   f"{c:.3f} |")
    return out


def memory_table(title, table, weight_bytes) -> list[str]:
    out = [f"\nReplica memory, {title} (each replica listed):\n",
           "| replicas on the node | RSS MiB | PSS MiB | anonymous MiB | "
           "file PSS MiB |",
           "| --- | --- | --- | --- | --- |"]
    for key, mems in table.items():
        label = f"{key} (ember)" if key != "naive" else "1 (naive iree)"
        cells = [" / ".join(f"{m.get(f, 0) / 2**20:.1f}" for m in mems)
                 for f in ("rss", "pss", "anonymous", "pss_file")]
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    if 1 in table and 2 in table:
        # PSS sums to the node's memory for these processes (shared pages
        # counted once): what the second replica adds is the difference.
        added = sum(m.get("pss", 0) for m in table[2]) - \
            sum(m.get("pss", 0) for m in table[1])
        out.append(f"\nAdded by the second replica (PSS of both - PSS of "
                   f"one): {added / 2**20:.1f} MiB = "
                   f"{100 * added / max(1, weight_bytes):.1f}% of the "
                   f"weights ({weight_bytes / 2**20:.1f} MiB)")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--serial-requests", type=int, default=500)
    parser.add_argument("--parts",
                        default="main,overhead,batching,copy,memory",
                        help="comma-separated: main (the table of paths), "
                             "overhead (serial latency split, no-op and "
                             "numpy deployments), batching (no-op and Ember "
                             "with and without serve.batch, client "
                             "variants), copy (what copying a read-only "
                             "input costs), memory (replicas' memory)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternated rounds of the overhead and "
                             "batching parts")
    parser.add_argument("--ray-throughput-optimized", action="store_true",
                        help="set RAY_SERVE_THROUGHPUT_OPTIMIZED=1 (Ray "
                             "Serve's own switch: user code and the "
                             "handle's router on the calling event loop, "
                             "buffered request logs)")
    parser.add_argument("--no-access-log", action="store_true",
                        help="deployments with Serve's per-request access "
                             "log off (logging_config)")
    parser.add_argument("--memory-width", type=int, default=12288,
                        help="hidden width of the MLP whose replicas' memory "
                             "is measured (12288: 1.2 GiB of weights)")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # loopback only
    if args.ray_throughput_optimized:
        # Read by Serve at import, in this process and (inherited) in the
        # replicas.
        os.environ["RAY_SERVE_THROUGHPUT_OPTIMIZED"] = "1"
    import ray
    from ray import serve

    from ember.serve import ModelDeployment

    work = Path(tempfile.mkdtemp(prefix="ember-serve-bench-"))
    vmfb, weights, weight_bytes = build(work)
    rng = np.random.default_rng(7)
    inputs = [rng.standard_normal((1, WIDTHS[0])).astype(np.float32)
              for _ in range(args.requests)]
    from ember.serve import EmberModel
    reference = EmberModel(vmfb, "main", parameters={"model": str(weights)})
    expected = [np.asarray(reference.invoker(x)).copy() for x in inputs]
    del reference

    extra: list[str] = []
    if "copy" in parts:
        extra += part_copy(work, vmfb, weights, args.serial_requests * 4)
    options = {"max_ongoing_requests": 64,
               "ray_actor_options": {"num_cpus": 1}}
    if args.no_access_log:
        options["logging_config"] = {"enable_access_log": False}
    rows = []
    if "main" in parts:
        rows.append(("direct ember.runtime call (in process, serial)",
                     bench_direct(vmfb, weights, inputs, expected)))
    memory, big_memory, big_bytes = {}, {}, 0
    ray.init(address="local", num_cpus=8, include_dashboard=False,
             log_to_driver=False)
    serve.start(http_options={"host": "127.0.0.1", "port": 0})
    busy0 = machine_busy()
    try:
        if "overhead" in parts:
            n = min(args.serial_requests, len(inputs) // args.rounds)
            extra += part_overhead(serve, vmfb, weights, inputs, expected,
                                   args.rounds, n, options)
        if "batching" in parts:
            extra += part_batching(serve, vmfb, weights, inputs,
                                   args.rounds, args.concurrency, options)
        for replicas in (1, 2) if "main" in parts else ():
            for batch in (None, 16):
                app = ModelDeployment.options(
                    num_replicas=replicas, **options).bind(
                        module=str(vmfb), function="main",
                        parameters={"model": str(weights)},
                        max_batch_size=batch, batch_wait_timeout_s=0.002)
                serve.run(app, name="bench", route_prefix=None)
                handle = thread_handle(serve, "bench")
                name = (f"ember.serve, {replicas} replica"
                        f"{'s' if replicas > 1 else ''}, "
                        f"{'batching 16' if batch else 'no batching'}")
                rows.append((name + f", {args.concurrency} clients",
                             asyncio.run(drive(handle, inputs, expected,
                                               args.concurrency))))
                if batch is None and replicas == 1:
                    n = args.serial_requests
                    rows.append((name + ", 1 client (serial)", asyncio.run(
                        drive(handle, inputs[:n], expected[:n], 1))))
                if batch is None:
                    memory[replicas] = replica_memory(handle, replicas)
                serve.delete("bench")
        if "main" in parts:
            app = serve.deployment(NaiveIree, **options).options(
                num_replicas=1).bind(str(vmfb), str(weights))
            serve.run(app, name="naive", route_prefix=None)
            handle = thread_handle(serve, "naive")
            rows.append((f"naive iree.runtime 3.13 deployment, 1 replica, "
                         f"{args.concurrency} clients",
                         asyncio.run(drive(handle, inputs, expected,
                                           args.concurrency))))
            n = args.serial_requests
            rows.append(("naive iree.runtime 3.13 deployment, 1 client "
                         "(serial)", asyncio.run(
                             drive(handle, inputs[:n], expected[:n], 1))))
            memory["naive"] = replica_memory(handle, 1)
            serve.delete("naive")
        if "memory" in parts:
            # Memory with large weights: mapped by Ember (shared by the
            # replicas of a node), read into each process by the naive
            # deployment.
            w = args.memory_width
            big_vmfb, big_weights, big_bytes = build(
                work, [WIDTHS[0], w, w, w, WIDTHS[-1]])
            x = inputs[0]
            for replicas in (1, 2):
                app = ModelDeployment.options(
                    num_replicas=replicas, **options).bind(
                        module=str(big_vmfb), function="main",
                        parameters={"model": str(big_weights)})
                serve.run(app, name="big", route_prefix=None)
                handle = thread_handle(serve, "big")
                big_memory[replicas] = replica_memory(handle, replicas, x)
                serve.delete("big")
            app = serve.deployment(NaiveIree).options(
                num_replicas=1, ray_actor_options={"num_cpus": 1}).bind(
                    str(big_vmfb), str(big_weights))
            serve.run(app, name="naive_big", route_prefix=None)
            handle = thread_handle(serve, "naive_big")
            big_memory["naive"] = replica_memory(handle, 1, x)
            serve.delete("naive_big")
    finally:
        busy1 = machine_busy()
        try:
            serve.shutdown()
        except RuntimeError as error:
            # Handles whose router ran on a finished event loop
            # (RAY_SERVE_THROUGHPUT_OPTIMIZED) cannot be shut down; Ray's
            # shutdown below stops everything anyway.
            print(f"serve.shutdown: {error}", file=sys.stderr)
        ray.shutdown()
        shutil.rmtree(work, ignore_errors=True)

    cpu = os.cpu_count()
    load = os.getloadavg()
    print(f"\nMLP {'-'.join(map(str, WIDTHS))} (batch-1 f32 requests), "
          f"weights {weight_bytes / 2**20:.1f} MiB in an .irpa; {cpu} CPUs; "
          f"{args.requests} requests per row; Ray {ray.__version__}; "
          f"RAY_SERVE_THROUGHPUT_OPTIMIZED="
          f"{os.environ.get('RAY_SERVE_THROUGHPUT_OPTIMIZED', '0')}; "
          f"access log {'off' if args.no_access_log else 'on'}; machine "
          f"{100 * (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]):.0f}% "
          f"busy during the run, load average after "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    if rows:
        print("| path | requests/s | p50 ms | p99 ms |")
        print("| --- | ---: | ---: | ---: |")
        for name, r in rows:
            print(f"| {name} | {r['rps']:.0f} | {r['p50_ms']:.2f} | "
                  f"{r['p99_ms']:.2f} |")
    for line in extra:
        print(line)
    if memory:
        print("\n".join(memory_table(
            f"weights {weight_bytes / 2**20:.1f} MiB", memory, weight_bytes)))
    if big_memory:
        print("\n".join(memory_table(
            f"hidden width {args.memory_width}, weights "
            f"{big_bytes / 2**20:.1f} MiB", big_memory, big_bytes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
