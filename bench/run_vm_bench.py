#!/usr/bin/env python3
"""Times Ember's bytecode interpreter against IREE's, in one run.

For every program under bench/ (vm_*.mlir) this script
  1. compiles it with iree-compile --compile-mode=vm (cached under
     build/bench/, keyed by a hash of the source and the compiler version);
  2. runs it alternately, for --rounds rounds, under
       ember-run-module --repeat=N --print-timing   (Ember)
       iree-benchmark-module --benchmark_repetitions=N
                             --benchmark_min_time=1x (IREE 3.13)
     Both tools load the module once and time only the function call, one
     call per sample; each round contributes the median of its N samples
     per runtime. The results of both are checked to be equal.
  3. prints a table of the medians over all samples (wall time, and process
     CPU time, which is steadier on a shared machine) and the ratio
     Ember / IREE, and rewrites BENCHMARKS.md with the command, the machine,
     the compiler and the numbers.

Usage: python3 bench/run_vm_bench.py [--ember PATH] [--rounds R] [--repeat N]
                                     [--no-write]
ember-run-module is looked for in $EMBER_RUN_MODULE, --ember, the build
directories /tmp/perf, build/, build/release, then PATH.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH_DIR = REPO / "bench"
CACHE_DIR = REPO / "build" / "bench"

# program -> (function, input). Iteration counts are fixed so that numbers
# stay comparable across runs.
PROGRAMS = {
    "vm_loop": ("loop", "10000000"),
    "vm_lists": ("lists", "200000"),
}


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kwargs)


def compiler_version() -> str:
    out = run(["iree-compile", "--version"]).stdout
    m = re.search(r"IREE.*?version\s+(\S+)", out, re.S)
    return m.group(1) if m else out.strip().splitlines()[0]


def compile_program(name: str, version: str) -> Path:
    source = BENCH_DIR / f"{name}.mlir"
    key = hashlib.sha256(source.read_bytes() + version.encode()).hexdigest()[:16]
    out = CACHE_DIR / f"{name}.{key}.vmfb"
    if not out.exists():
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp")
        run(["iree-compile", "--compile-mode=vm", str(source), "-o", str(tmp)])
        tmp.replace(out)
    return out


def find_ember(explicit: str | None) -> str:
    candidates = [os.environ.get("EMBER_RUN_MODULE"), explicit,
                  "/tmp/perf/ember-run-module",
                  str(REPO / "build" / "ember-run-module"),
                  str(REPO / "build" / "release" / "ember-run-module"),
                  shutil.which("ember-run-module")]
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return c
    sys.exit("ember-run-module not found: build it (ninja -C BUILD ember-run-module) "
             "or pass --ember")


def results_of(stdout: str) -> list[str]:
    return [line.split(":", 1)[1].strip() for line in stdout.splitlines()
            if line.startswith("result[")]


def time_ember(ember: str, module: Path, function: str, value: str, repeat: int):
    cp = run([ember, f"--module={module}", f"--function={function}",
              f"--input={value}", f"--repeat={repeat}", "--print-timing"])
    # The tool reports the median of the batch's per-call times.
    m = re.search(r"median_ms=([\d.]+).*cpu_median_ms=([\d.]+)", cp.stderr)
    return float(m.group(1)), float(m.group(2)), results_of(cp.stdout)


def time_iree(module: Path, function: str, value: str, repeat: int):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        run(["iree-benchmark-module", f"--module={module}", f"--function={function}",
             f"--input={value}", f"--benchmark_repetitions={repeat}",
             "--benchmark_min_time=1x", f"--benchmark_out={out}",
             "--benchmark_out_format=json"])
        data = json.loads(out.read_text())
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    runs = [b for b in data["benchmarks"] if b.get("run_type") == "iteration"]
    # Medians of the per-repetition times, like Ember's batch median.
    wall = statistics.median(b["real_time"] * scale[b["time_unit"]] for b in runs)
    cpu = statistics.median(b["cpu_time"] * scale[b["time_unit"]] for b in runs)
    reference = run(["iree-run-module", f"--module={module}", f"--function={function}",
                     f"--input={value}"]).stdout
    return wall, cpu, results_of(reference)


def machine() -> dict:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cxx = "unknown"
    for compiler in ("c++", "g++", "clang++"):
        if shutil.which(compiler):
            cxx = run([compiler, "--version"]).stdout.splitlines()[0]
            break
    return {"cores": os.cpu_count(), "cpu": model, "os": platform.platform(),
            "cxx": cxx}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ember", help="path of ember-run-module")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=7,
                        help="calls (Ember) / repetitions (IREE) per round")
    parser.add_argument("--no-write", action="store_true",
                        help="do not rewrite BENCHMARKS.md")
    args = parser.parse_args()

    ember = find_ember(args.ember)
    version = compiler_version()
    rows = []
    for name, (function, value) in PROGRAMS.items():
        module = compile_program(name, version)
        samples = {"ember_wall": [], "ember_cpu": [], "iree_wall": [], "iree_cpu": [],
                   "ratio_cpu": []}
        for round_index in range(args.rounds):
            # Alternate which runtime goes first, so that a machine speeding
            # up or slowing down during a round favours neither.
            if round_index % 2 == 0:
                ew, ec, eres = time_ember(ember, module, function, value, args.repeat)
                iw, ic, ires = time_iree(module, function, value, args.repeat)
            else:
                iw, ic, ires = time_iree(module, function, value, args.repeat)
                ew, ec, eres = time_ember(ember, module, function, value, args.repeat)
            if eres != ires:
                sys.exit(f"{name}: results differ: ember {eres} vs iree {ires}")
            samples["ember_wall"].append(ew)
            samples["ember_cpu"].append(ec)
            samples["iree_wall"].append(iw)
            samples["iree_cpu"].append(ic)
            # Both runtimes ran back to back in this round: their ratio is
            # less exposed to the machine's load drifting between rounds.
            samples["ratio_cpu"].append(ec / ic)
        med = {k: statistics.median(v) for k, v in samples.items()}
        rows.append((f"{name}.{function}({value})", med))

    header = ("| benchmark | Ember wall ms | IREE wall ms | ratio (wall) "
              "| Ember CPU ms | IREE CPU ms | ratio (CPU) | per-round ratio (CPU) |")
    lines = [header, "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label, m in rows:
        lines.append(
            f"| {label} | {m['ember_wall']:.1f} | {m['iree_wall']:.1f} "
            f"| {m['ember_wall'] / m['iree_wall']:.2f} | {m['ember_cpu']:.1f} "
            f"| {m['iree_cpu']:.1f} | {m['ember_cpu'] / m['iree_cpu']:.2f} "
            f"| {m['ratio_cpu']:.2f} |")
    table = "\n".join(lines)
    print(table)

    if not args.no_write:
        info = machine()
        command = "python3 bench/run_vm_bench.py " + " ".join(sys.argv[1:])
        text = f"""# Benchmarks

Ember's bytecode interpreter against IREE's (iree-compile / iree-base-runtime
{version}), measured in one run by `bench/run_vm_bench.py`. Each number is the
median over {args.rounds} rounds of the median of {args.repeat} calls (the last
column: the median over rounds of each round's Ember/IREE ratio, the two
runtimes having run back to back); both tools load the module once and
time the function call alone (`ember-run-module --repeat --print-timing`,
`iree-benchmark-module --benchmark_min_time=1x`). A ratio below 1 means Ember
is faster. CPU time is process CPU time, steadier than wall time on a
shared machine.

- command: `{command.strip()}`
- date: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}
- machine: {info['cores']} cores (`nproc`), {info['cpu']}, {info['os']}
- compiler (Ember): {info['cxx']}, CMAKE_BUILD_TYPE=Release
- ember-run-module: `{ember}`

{table}

Programs (bench/*.mlir): `vm_loop` runs 10M iterations of i32 and f32
arithmetic (ten i32 ops, an i32->f32 cast, two f32 ops, a compare and two
branches per iteration); `vm_lists` allocates a 16-element `!vm.list<i32>`
200k times, growing it one element at a time, reading and rewriting every
element, and storing it in a list of lists.
"""
        # A hand-written "## Notes" section (analysis, history) survives
        # reruns.
        target = REPO / "BENCHMARKS.md"
        if target.exists():
            old = target.read_text()
            marker = old.find("\n## Notes\n")
            if marker >= 0:
                text += old[marker:]
        target.write_text(text)
        print(f"wrote {REPO / 'BENCHMARKS.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
