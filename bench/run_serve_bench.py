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
size. Prints a Markdown table (the lead copies it into BENCHMARKS.md).
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
    rng = np.random.default_rng(1)
    index = rt.ParameterIndex()
    nbytes = 0
    for i in range(len(widths) - 1):
        k, n = widths[i], widths[i + 1]
        w = (rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float32)
        b = (rng.standard_normal(n) * 0.1).astype(np.float32)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--serial-requests", type=int, default=500)
    parser.add_argument("--memory-width", type=int, default=4096,
                        help="hidden width of the MLP whose replicas' memory "
                             "is measured (4096: 147 MiB of weights)")
    args = parser.parse_args()
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # loopback only
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

    rows = [("direct ember.runtime call (in process, serial)",
             bench_direct(vmfb, weights, inputs, expected))]
    memory, big_memory, big_bytes = {}, {}, 0
    ray.init(address="local", num_cpus=4, include_dashboard=False,
             log_to_driver=False)
    serve.start(http_options={"host": "127.0.0.1", "port": 0})
    try:
        for replicas in (1, 2):
            for batch in (None, 16):
                app = ModelDeployment.options(
                    num_replicas=replicas,
                    ray_actor_options={"num_cpus": 1}).bind(
                        module=str(vmfb), function="main",
                        parameters={"model": str(weights)},
                        max_batch_size=batch, batch_wait_timeout_s=0.002)
                handle = serve.run(app, name="bench", route_prefix=None)
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
        app = serve.deployment(NaiveIree, max_ongoing_requests=64).options(
            num_replicas=1, ray_actor_options={"num_cpus": 1}).bind(
                str(vmfb), str(weights))
        handle = serve.run(app, name="naive", route_prefix=None)
        rows.append((f"naive iree.runtime 3.13 deployment, 1 replica, "
                     f"{args.concurrency} clients",
                     asyncio.run(drive(handle, inputs, expected,
                                       args.concurrency))))
        n = args.serial_requests
        rows.append(("naive iree.runtime 3.13 deployment, 1 client (serial)",
                     asyncio.run(drive(handle, inputs[:n], expected[:n], 1))))
        memory["naive"] = replica_memory(handle, 1)
        serve.delete("naive")
        # Memory with large weights: mapped by Ember (shared by the replicas
        # of a node), read into each process by the naive deployment.
        w = args.memory_width
        big_vmfb, big_weights, big_bytes = build(
            work, [WIDTHS[0], w, w, w, WIDTHS[-1]])
        x = inputs[0]
        for replicas in (1, 2):
            app = ModelDeployment.options(
                num_replicas=replicas, ray_actor_options={"num_cpus": 1}).bind(
                    module=str(big_vmfb), function="main",
                    parameters={"model": str(big_weights)})
            handle = serve.run(app, name="big", route_prefix=None)
            big_memory[replicas] = replica_memory(handle, replicas, x)
            serve.delete("big")
        app = serve.deployment(NaiveIree).options(
            num_replicas=1, ray_actor_options={"num_cpus": 1}).bind(
                str(big_vmfb), str(big_weights))
        handle = serve.run(app, name="naive_big", route_prefix=None)
        big_memory["naive"] = replica_memory(handle, 1, x)
        serve.delete("naive_big")
    finally:
        serve.shutdown()
        ray.shutdown()
        shutil.rmtree(work, ignore_errors=True)

    cpu = os.cpu_count()
    print(f"\nMLP {'-'.join(map(str, WIDTHS))} (batch-1 f32 requests), "
          f"weights {weight_bytes / 2**20:.1f} MiB in an .irpa; {cpu} CPUs; "
          f"{args.requests} requests per row\n")
    print("| path | requests/s | p50 ms | p99 ms |")
    print("| --- | ---: | ---: | ---: |")
    for name, r in rows:
        print(f"| {name} | {r['rps']:.0f} | {r['p50_ms']:.2f} | "
              f"{r['p99_ms']:.2f} |")
    for title, table in ((f"weights {weight_bytes / 2**20:.1f} MiB",
                          memory),
                         (f"hidden width {args.memory_width}, weights "
                          f"{big_bytes / 2**20:.1f} MiB", big_memory)):
        print(f"\nReplica memory, {title} (each replica listed):\n")
        print("| replicas on the node | RSS MiB | PSS MiB | anonymous MiB | "
              "file PSS MiB |")
        print("| --- | --- | --- | --- | --- |")
        for key, mems in table.items():
            label = f"{key} (ember)" if key != "naive" else "1 (naive iree)"
            cells = [" / ".join(f"{m.get(f, 0) / 2**20:.1f}" for m in mems)
                     for f in ("rss", "pss", "anonymous", "pss_file")]
            print(f"| {label} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
