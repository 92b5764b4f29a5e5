#!/usr/bin/env python3
"""Times the tensor programs on the `vulkan` device: Ember against IREE 3.13.

The sibling of bench/run_model_bench.py for the Vulkan device: the same
models (bench/models.py: tiny call, MLP, conv net, transformer block), but
  1. compiled with iree-compile --iree-hal-target-device=vulkan (SPIR-V),
     cached under build/bench/vulkan-models/ by a hash of the source, the
     flags and the compiler version; both runtimes run the same file, on
     the same Vulkan implementation (here Mesa's lavapipe, a CPU device),
     so the difference is the runtime;
  2. checked once: ember-run-module and iree-run-module, both with
     --device=vulkan, must write the same result bits (--output=@file.npy,
     compared byte for byte);
  3. timed for --rounds rounds, ember-benchmark-module and
     iree-benchmark-module one after the other (the order alternating
     between rounds), each with --device=vulkan,
     --benchmark_repetitions=N, a fixed number of calls per repetition
     (--benchmark_min_time=Kx) and --benchmark_format=json; each run gives
     the median of its repetitions (wall and process CPU time per call;
     lavapipe's worker threads are in the process, so CPU time includes the
     shader execution);
  4. prints per model the median over rounds of those medians and the
     median of the per-round ratios Ember / IREE (below 1: Ember is
     faster), and replaces the "## Vulkan tensor programs" section of
     BENCHMARKS.md (unless --no-write).

--official-only times iree-benchmark-module alone (no Ember column, no
result check, nothing written): the baseline, and a way to size --calls,
while Ember's Vulkan device is not there.

Usage: python3 bench/run_vulkan_model_bench.py [--bin DIR] [--iree-bin DIR]
           [--rounds R] [--repetitions N] [--models a,b] [--calls m=K,...]
           [--device URI] [--official-only] [--no-write] [--no-check]
Ember's tools are looked for in --bin, $EMBER_BIN, build/rel, build/release,
build/, then PATH; IREE's (iree-compile, iree-run-module,
iree-benchmark-module) in --iree-bin, then PATH.
"""

from __future__ import annotations

import argparse
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
from run_model_bench import benchmark_median, find_tool, fmt  # noqa: E402

CACHE_DIR = REPO / "build" / "bench" / "vulkan-models"
COMPILE_FLAGS = ["--iree-hal-target-device=vulkan"]
# Calls per repetition, so that one repetition lasts about 80-100 ms on
# lavapipe (IREE 3.13 took about 0.16 ms, 3.8 ms, 40 ms and 24 ms per call
# on this machine), fewer than on the CPU devices.
CALLS = {"tiny": 500, "mlp": 20, "convnet": 2, "transformer": 4}
SECTION = "## Vulkan tensor programs"

run = report.run


def benchmark(tool: str, module: Path, name: str, device: str,
              calls: int, repetitions: int) -> tuple[float, float]:
    return benchmark_median(tool, module, name, [f"--device={device}"],
                            calls, repetitions)


def check_results(ember_run: str, iree_run: str, module: Path, name: str,
                  device: str) -> None:
    """Both runtimes write the result as .npy; the files must be identical
    (the same SPIR-V on the same Vulkan implementation)."""
    function, inputs = models.INPUTS[name]
    args = [f"--module={module}", f"--function={function}",
            *[f"--input={value}" for value in inputs], f"--device={device}"]
    with tempfile.TemporaryDirectory() as tmp:
        outputs = []
        for index, tool in enumerate((ember_run, iree_run)):
            out = Path(tmp) / f"{index}.npy"
            run([tool, *args, f"--output=@{out}"])
            outputs.append(out.read_bytes())
    if outputs[0] != outputs[1]:
        raise SystemExit(f"{name} on {device}: results differ between "
                         "ember-run-module and iree-run-module")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", help="Ember's tools")
    parser.add_argument("--iree-bin", help="IREE's tools (default: PATH)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--models", default="tiny,mlp,convnet,transformer")
    parser.add_argument("--calls", default="",
                        help="calls per repetition, e.g. mlp=20,tiny=500")
    parser.add_argument("--device", default="vulkan")
    parser.add_argument("--official-only", action="store_true",
                        help="time iree-benchmark-module alone")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the result comparison")
    args = parser.parse_args()

    if args.iree_bin:
        os.environ["PATH"] = (str(Path(args.iree_bin).resolve()) +
                              os.pathsep + os.environ.get("PATH", ""))
    calls = dict(CALLS)
    for item in filter(None, args.calls.split(",")):
        key, _, value = item.partition("=")
        if key not in calls or not value.isdigit() or int(value) < 1:
            raise SystemExit(f"bad --calls entry {item}")
        calls[key] = int(value)
    names = args.models.split(",")
    for name in names:
        if name not in models.INPUTS:
            raise SystemExit(f"unknown model {name}")
    tools = {}
    for tool in ("iree-compile", "iree-run-module", "iree-benchmark-module"):
        tools[tool] = shutil.which(tool)
        if not tools[tool]:
            raise SystemExit(f"{tool} not found (pip install "
                             "iree-base-compiler==3.13.0 iree-base-runtime"
                             "==3.13.0, or pass --iree-bin)")
    runtimes = [("iree", tools["iree-benchmark-module"])]
    if not args.official_only:
        runtimes.insert(0, ("ember",
                            find_tool("ember-benchmark-module", args.bin)))
        ember_run = find_tool("ember-run-module", args.bin)
    version = report.compiler_version()
    modules = {name: report.compile_mlir_cached(
        CACHE_DIR, name, getattr(models, name)(), COMPILE_FLAGS, version)
        for name in names}
    if not args.official_only and not args.no_check:
        for name in names:
            check_results(ember_run, tools["iree-run-module"], modules[name],
                          name, args.device)

    # name -> runtime -> list of (wall, cpu) per round
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for round_index in range(args.rounds):
        for name in names:
            order = list(runtimes)
            if round_index % 2:
                order.reverse()
            cell = samples.setdefault(name, {key: [] for key, _ in runtimes})
            for key, tool in order:
                cell[key].append(benchmark(tool, modules[name], name,
                                           args.device, calls[name],
                                           args.repetitions))
        print(f"round {round_index + 1}/{args.rounds} done", file=sys.stderr)

    if args.official_only:
        lines = ["| model | device | calls/rep | IREE wall | IREE CPU |",
                 "|---|---|---:|---:|---:|"]
        for name, cell in samples.items():
            iree = cell["iree"]
            lines.append(
                f"| {name} | {args.device} | {calls[name]} | "
                f"{fmt(statistics.median(i[0] for i in iree))} | "
                f"{fmt(statistics.median(i[1] for i in iree))} |")
        print("\n".join(lines))
        return 0

    lines = ["| model | device | Ember wall | IREE wall | ratio (wall) | "
             "Ember CPU | IREE CPU | ratio (CPU) |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for name, cell in samples.items():
        ember, iree = cell["ember"], cell["iree"]
        pairs = list(zip(ember, iree))
        wall_ratio = statistics.median(e[0] / i[0] for e, i in pairs)
        cpu_ratio = statistics.median(e[1] / i[1] for e, i in pairs)
        lines.append(
            f"| {name} | {args.device} | "
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
    command = "python3 bench/run_vulkan_model_bench.py " + " ".join(
        sys.argv[1:])
    per_rep = ", ".join(f"{name} {calls[name]}" for name in names)
    text = f"""{SECTION}

The models of `bench/models.py` compiled by iree-compile with
`{' '.join(COMPILE_FLAGS)}` (SPIR-V), run on `--device={args.device}` (this
machine: Mesa lavapipe, a CPU implementation of Vulkan, so these numbers
measure the runtimes' Vulkan paths, not a GPU); `ember-benchmark-module`
against `iree-benchmark-module` on the same file. Each cell: the median over
{args.rounds} alternating rounds of each run's median of {args.repetitions}
repetitions ({per_rep} calls each), per call; the ratio columns are the
median of the per-round Ember / IREE ratios (below 1: Ember is faster). CPU
time is the process's, lavapipe's shader threads included. Results were
checked bit-identical (`ember-run-module` against `iree-run-module`, .npy
outputs) before timing{' (skipped this run)' if args.no_check else ''}.

{report.run_facts(command, version)}
{table}
"""
    target = report.write_section(SECTION, text)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
