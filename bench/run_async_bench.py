#!/usr/bin/env python3
"""Concurrent asyncio calls vs the same calls one after another, on Ember.

    python3 bench/run_async_bench.py [--rounds 15] [--calls 16] [--no-write]

Two small MLPs compiled with `--iree-execution-model=async-external` (every
export takes a wait and a signal fence) run on `local-task` with 2 workers:

- sequential: `await f.async_call(x, w1, w2)` 16 times, one after another;
- concurrent: the 16 calls issued together (`asyncio.gather`);
- plain: 16 ordinary blocking calls `f(x, w1, w2)` (for reference).

Rounds alternate the three inside one event loop; each figure is the median
over rounds of the time for the 16 calls, and the ratio is sequential /
concurrent (throughput gained by overlapping). iree.runtime has no
awaitable call (and cannot call async-external functions from
FunctionInvoker), so there is no oracle row; every result is checked against
numpy. Rewrites the "## asyncio calls" section of BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import report

REPO = report.REPO
CACHE_DIR = REPO / "build" / "bench-modules"
COMPILE_FLAGS = [
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
    "--iree-execution-model=async-external",
]
# (name, batch, width): two matmul layers with a ReLU between.
MODELS = [("mlp 1x128", 1, 128), ("mlp 4x256", 4, 256)]


def mlp_mlir(batch: int, width: int) -> str:
    t = f"tensor<{batch}x{width}xf32>"
    w = f"tensor<{width}x{width}xf32>"
    return f"""
func.func @main(%x: {t}, %w1: {w}, %w2: {w}) -> {t} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %f = linalg.fill ins(%z : f32) outs(%e : {t}) -> {t}
  %a = linalg.matmul ins(%x, %w1 : {t}, {w}) outs(%f : {t}) -> {t}
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                         affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}}
      ins(%a : {t}) outs(%e : {t}) {{
    ^bb0(%i: f32, %o: f32):
      %m = arith.maximumf %i, %z : f32
      linalg.yield %m : f32
  }} -> {t}
  %b = linalg.matmul ins(%r, %w2 : {t}, {w}) outs(%f : {t}) -> {t}
  return %b : {t}
}}
"""


def compile_model(batch: int, width: int, version: str) -> Path:
    return report.compile_mlir_cached(CACHE_DIR, f"async_mlp_{batch}x{width}",
                                      mlp_mlir(batch, width), COMPILE_FLAGS,
                                      version)


def measure(rt, path: Path, batch: int, width: int, rounds: int, calls: int):
    config = rt.Config("local-task")
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.mmap(ctx.instance, str(path)))
    f = ctx.modules.module.main
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((batch, width), dtype=np.float32)
          for _ in range(calls)]
    w1 = (rng.standard_normal((width, width), dtype=np.float32) / 16)
    w2 = (rng.standard_normal((width, width), dtype=np.float32) / 16)
    expected = [np.maximum(x @ w1, 0) @ w2 for x in xs]

    def check(results):
        for r, e in zip(results, expected):
            np.testing.assert_allclose(np.asarray(r), e, rtol=1e-3, atol=1e-3)

    async def sequential():
        return [await f.async_call(x, w1, w2) for x in xs]

    async def concurrent():
        return await asyncio.gather(*[f.async_call(x, w1, w2) for x in xs])

    async def plain():
        return [f(x, w1, w2) for x in xs]

    async def main():
        times = {"sequential": [], "concurrent": [], "plain": []}
        kinds = [("sequential", sequential), ("concurrent", concurrent),
                 ("plain", plain)]
        for kind, fn in kinds:  # warm-up and correctness
            check(await fn())
        for i in range(rounds):
            order = kinds if i % 2 == 0 else kinds[::-1]
            for kind, fn in order:
                start = time.perf_counter()
                results = await fn()
                times[kind].append(time.perf_counter() - start)
                del results
        return times

    return asyncio.run(main())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=16)
    parser.add_argument("--ember-path", default=str(REPO / "python"))
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, args.ember_path)
    import ember.runtime as rt

    version = report.compiler_version()
    rows = []
    for name, batch, width in MODELS:
        path = compile_model(batch, width, version)
        times = measure(rt, path, batch, width, args.rounds, args.calls)
        med = {k: statistics.median(v) for k, v in times.items()}
        ratios = [s / c for s, c in zip(times["sequential"],
                                        times["concurrent"])]
        rows.append((name, med, statistics.median(ratios)))
        print(f"{name}: sequential {med['sequential'] * 1e3:.2f} ms, "
              f"concurrent {med['concurrent'] * 1e3:.2f} ms, plain "
              f"{med['plain'] * 1e3:.2f} ms per {args.calls} calls; "
              f"throughput x{statistics.median(ratios):.2f}")
    if args.no_write:
        return 0
    command = "python3 bench/run_async_bench.py " + " ".join(sys.argv[1:])
    lines = ["## asyncio calls", "",
             report.run_facts(command, version),
             f"{args.calls} calls of a small model compiled with "
             "`--iree-execution-model=async-external`, on `local-task` "
             "(2 workers), medians over "
             f"{args.rounds} alternating rounds in one event loop. "
             "Throughput gain = sequential awaits / concurrent "
             "(`asyncio.gather`); target >= 1.5. Plain blocking calls for "
             "reference.", "",
             "| model | sequential awaits | concurrent (gather) | gain | "
             "plain blocking calls |", "|---|---|---|---|---|"]
    for name, med, ratio in rows:
        mark = f"**{ratio:.2f}**" if ratio >= 1.5 else f"{ratio:.2f}"
        lines.append(
            f"| {name} | {med['sequential'] * 1e3:.2f} ms | "
            f"{med['concurrent'] * 1e3:.2f} ms | {mark} | "
            f"{med['plain'] * 1e3:.2f} ms |")
    report.write_section("## asyncio calls", "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
