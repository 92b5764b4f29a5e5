#!/usr/bin/env python3
"""Times tensor programs on Ember and on the official IREE 3.13, in one run.

For every model of bench/models.py (tiny call, MLP, conv net, transformer
block) this script
  1. generates the StableHLO source and compiles it for the host CPU with
     iree-compile (llvm-cpu, --iree-llvmcpu-target-cpu=host, data tiling
     on), cached under build/bench/models/ by a hash of the source, the
     flags and the compiler version; both runtimes then run the same
     file, so the kernels are the same machine code and the difference is
     the runtime;
  2. checks once per device that ember-run-module and iree-run-module
     produce the same result bits (--output=@file.npy, compared byte for
     byte);
  3. for --rounds rounds, runs
       ember-benchmark-module   and   iree-benchmark-module
     one after the other (the order alternating between rounds) with the
     same flags: --benchmark_repetitions=N, a fixed number of calls per
     repetition (--benchmark_min_time=Kx), --benchmark_format=json, on
     local-sync and on local-task with --task_topology_max_group_count=2;
     each run gives the median of its N repetitions (wall time per call,
     and process CPU time per call);
  4. prints per model and device the median over rounds of those medians
     and the median of the per-round ratios Ember / IREE (below 1: Ember is
     faster), and replaces the "## Tensor programs" section of BENCHMARKS.md
     (unless --no-write).

Usage: python3 bench/run_model_bench.py [--bin DIR] [--rounds R]
           [--repetitions N] [--models a,b] [--devices local-sync,local-task]
           [--no-write]
Ember's tools are looked for in --bin, $EMBER_BIN, build/rel, build/release,
build/, then PATH.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
import models  # noqa: E402
import report  # noqa: E402

CACHE_DIR = REPO / "build" / "bench" / "models"
COMPILE_FLAGS = [
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
    # Without data tiling iree-compile 3.11 compiled these f32 matmuls about
    # 70x slower (the MLP took 40 ms instead of 0.6 ms); a deployment would
    # tile.
    "--iree-opt-data-tiling=true",
]
# Calls per repetition, so that a repetition lasts a few tens of ms at least.
CALLS = {"tiny": 2000, "mlp": 50, "convnet": 4, "transformer": 10}
DEVICES = {
    "local-sync": ["--device=local-sync"],
    "local-task": ["--device=local-task", "--task_topology_max_group_count=2"],
}
SECTION = "## Tensor programs"


run = report.run
compiler_version = report.compiler_version


def compile_model(name: str, version: str) -> Path:
    source = getattr(models, name)()
    key = hashlib.sha256(
        (source + "\0".join(COMPILE_FLAGS) + version).encode()).hexdigest()[:16]
    out = CACHE_DIR / f"{name}.{key}.vmfb"
    if not out.exists():
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        mlir = out.with_suffix(".mlir")
        mlir.write_text(source)
        tmp = out.with_suffix(".tmp")
        run(["iree-compile", *COMPILE_FLAGS, str(mlir), "-o", str(tmp)])
        tmp.replace(out)
        mlir.unlink()
    return out


def find_tool(name: str, explicit: str | None) -> str:
    dirs = [explicit, os.environ.get("EMBER_BIN"), str(REPO / "build" / "rel"),
            str(REPO / "build" / "release"), str(REPO / "build")]
    for d in dirs:
        if d and (Path(d) / name).is_file():
            return str(Path(d) / name)
    found = shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found (build Ember, or pass --bin)")
    return found


def benchmark(tool: str, module: Path, name: str, device: str,
              repetitions: int) -> tuple[float, float]:
    return benchmark_median(tool, module, name, DEVICES[device], CALLS[name],
                            repetitions)


def benchmark_median(tool: str, module: Path, name: str,
                     device_flags: list[str], calls: int,
                     repetitions: int) -> tuple[float, float]:
    """(wall ms, CPU ms) per call: the median of `repetitions` runs of
    `calls` calls of model `name` by `tool` (an *-benchmark-module)."""
    function, inputs = models.INPUTS[name]
    cmd = [tool, f"--module={module}", f"--function={function}",
           *[f"--input={value}" for value in inputs], *device_flags,
           f"--benchmark_repetitions={repetitions}",
           f"--benchmark_min_time={calls}x", "--benchmark_format=json"]
    report = json.loads(run(cmd).stdout)
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    for row in report["benchmarks"]:
        if row.get("aggregate_name") == "median":
            unit = scale[row["time_unit"]]
            return row["real_time"] * unit, row["cpu_time"] * unit
    raise SystemExit(f"no median row from {tool}")


def check_results(ember_run: str, module: Path, name: str,
                  device: str) -> None:
    """Both runtimes write the result as .npy; the files must be identical."""
    function, inputs = models.INPUTS[name]
    args = [f"--module={module}", f"--function={function}",
            *[f"--input={value}" for value in inputs], DEVICES[device][0]]
    with tempfile.TemporaryDirectory() as tmp:
        outputs = []
        for tool in (ember_run, "iree-run-module"):
            out = Path(tmp) / f"{Path(tool).name}.npy"
            run([tool, *args, f"--output=@{out}"])
            outputs.append(out.read_bytes())
    if outputs[0] != outputs[1]:
        raise SystemExit(f"{name} on {device}: results differ between "
                         "ember-run-module and iree-run-module")


def fmt(ms: float) -> str:
    return f"{ms * 1e3:.1f} µs" if ms < 1 else f"{ms:.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--models", default="tiny,mlp,convnet,transformer")
    parser.add_argument("--devices", default="local-sync,local-task")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the result comparison")
    args = parser.parse_args()

    names = args.models.split(",")
    devices = args.devices.split(",")
    for name in names:
        if name not in models.INPUTS:
            raise SystemExit(f"unknown model {name}")
    for device in devices:
        if device not in DEVICES:
            raise SystemExit(f"unknown device {device}")
    ember_bench = find_tool("ember-benchmark-module", args.bin)
    ember_run = find_tool("ember-run-module", args.bin)
    iree_bench = shutil.which("iree-benchmark-module")
    if not iree_bench:
        raise SystemExit("iree-benchmark-module not found "
                         "(pip install iree-base-runtime==3.13.0)")
    version = compiler_version()
    modules = {name: compile_model(name, version) for name in names}
    for name in names:
        for device in devices:
            if not args.no_check:
                check_results(ember_run, modules[name], name, device)

    # (name, device) -> runtime -> list of (wall, cpu) per round
    samples: dict[tuple[str, str], dict[str, list[tuple[float, float]]]] = {}
    for round_index in range(args.rounds):
        for name in names:
            for device in devices:
                order = [("ember", ember_bench), ("iree", iree_bench)]
                if round_index % 2:
                    order.reverse()
                cell = samples.setdefault((name, device),
                                          {"ember": [], "iree": []})
                for runtime, tool in order:
                    cell[runtime].append(benchmark(
                        tool, modules[name], name, device, args.repetitions))
        print(f"round {round_index + 1}/{args.rounds} done", file=sys.stderr)

    header = ("| model | device | Ember wall | IREE wall | ratio (wall) | "
              "Ember CPU | IREE CPU | ratio (CPU) |")
    lines = [header, "|---|---|---:|---:|---:|---:|---:|---:|"]
    for (name, device), cell in samples.items():
        ember, iree = cell["ember"], cell["iree"]
        wall_ratio = statistics.median(e[0] / i[0] for e, i in zip(ember, iree))
        cpu_ratio = statistics.median(e[1] / i[1] for e, i in zip(ember, iree))
        lines.append(
            f"| {name} | {device} | "
            f"{fmt(statistics.median(e[0] for e in ember))} | "
            f"{fmt(statistics.median(i[0] for i in iree))} | "
            f"{wall_ratio:.2f} | "
            f"{fmt(statistics.median(e[1] for e in ember))} | "
            f"{fmt(statistics.median(i[1] for i in iree))} | "
            f"{cpu_ratio:.2f} |")
    table = "\n".join(lines)
    print(table)

    if args.no_write:
        return 0
    command = "python3 bench/run_model_bench.py " + " ".join(sys.argv[1:])
    text = f"""{SECTION}

Compiled for the host CPU by `bench/models.py` + iree-compile (llvm-cpu,
`{' '.join(COMPILE_FLAGS[2:])}`);
`ember-benchmark-module` against `iree-benchmark-module` on the same file.
Each cell: the median over {args.rounds} alternating rounds of each run's
median of {args.repetitions} repetitions (a fixed number of calls each), per
call; the ratio columns are the median of the per-round Ember / IREE ratios
(below 1: Ember is faster). `local-task` runs with
`--task_topology_max_group_count=2` (two workers) in both. Results were
checked bit-identical (`ember-run-module` against `iree-run-module`, .npy
outputs) before timing.

{report.run_facts(command, version)}
{table}
"""
    target = report.write_section(SECTION, text)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
