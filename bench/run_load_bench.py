#!/usr/bin/env python3
"""Times module loading in Ember and in the official runtime, in one run.

Loading here is what a Python user pays before the first call:
    module = rt.VmModule.copy_buffer(instance, data)
    context = rt.VmContext(instance, modules=[module])
for `rt` = ember.runtime and iree.runtime (both must be installed; the
project's environment has iree-base-runtime 3.13). That is parsing and
checking the file and verifying every function's bytecode, then creating the
module state. (Ember makes a function's quickened copy on its first call,
runtime/vm/bytecode/quickened_code.h, not at load.)

Programs:
  vm_loop     bench/vm_loop.mlir (one small function)
  many_funcs  generated here: --functions functions (default 400), each a
              counting loop with 30 i32 ops (deterministic), a 140 KB file.
  many_funcs(--large-functions) the same with 29000 functions (default), a
              10 MB file (--large-functions 0 leaves it out).
Compiled with --compile-mode=vm by --compiler (default: the iree-compile on
PATH) and cached under build/bench/ by source hash and compiler version.

Each round times --repeat loads per runtime (alternating which goes first)
and takes the median; the table shows the median over rounds and the ratio
Ember / IREE. Results replace the "## Module load" section of BENCHMARKS.md
unless --no-write.

Usage: python3 bench/run_load_bench.py [--rounds R] [--repeat N]
           [--functions N] [--large-functions N] [--compiler PATH] [--no-write]
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE_DIR = REPO / "build" / "bench"
SECTION = "## Module load"


COMPILER = "iree-compile"


def compiler_version() -> str:
    out = subprocess.run([COMPILER, "--version"], check=True, text=True,
                         capture_output=True).stdout
    for line in out.splitlines():
        if "version" in line:
            return line.strip()
    return out.strip().splitlines()[0]


def many_functions_source(count: int) -> str:
    rng = random.Random(1)
    lines = ["vm.module @many_funcs {"]
    for f in range(count):
        lines += [
            f"  vm.export @f{f}",
            f"  vm.func @f{f}(%n: i32, %x0: i32) -> i32 {{",
            "    %c0 = vm.const.i32 0",
            "    %c1 = vm.const.i32 1",
            f"    %k = vm.const.i32 {rng.randint(1, 1000)}",
            "    vm.br ^loop(%c0, %x0 : i32, i32)",
            "  ^loop(%i: i32, %acc: i32):",
            "    %more = vm.cmp.lt.i32.s %i, %n : i32",
            "    vm.cond_br %more, ^body, ^done",
            "  ^body:",
        ]
        previous = "%acc"
        for j in range(30):
            op = rng.choice(["add", "sub", "mul", "xor", "and", "or"])
            lines.append(f"    %t{j} = vm.{op}.i32 {previous}, %k : i32")
            previous = f"%t{j}"
        lines += [
            "    %i1 = vm.add.i32 %i, %c1 : i32",
            f"    vm.br ^loop(%i1, {previous} : i32, i32)",
            "  ^done:",
            "    vm.return %acc : i32",
            "  }",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def compile_source(name: str, source: str, version: str) -> Path:
    key = hashlib.sha256((source + version).encode()).hexdigest()[:16]
    out = CACHE_DIR / f"{name}.{key}.vmfb"
    if not out.exists():
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        mlir = CACHE_DIR / f"{name}.{key}.mlir"
        mlir.write_text(source)
        tmp = out.with_suffix(".tmp")
        subprocess.run([COMPILER, "--compile-mode=vm", str(mlir), "-o", str(tmp)],
                       check=True)
        tmp.replace(out)
    return out


def time_loads(rt, instance, data: bytes, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        module = rt.VmModule.copy_buffer(instance, data)
        context = rt.VmContext(instance, modules=[module])
        times.append(time.perf_counter() - start)
        del context, module
    return statistics.median(times) * 1e3


def official_version(iree_rt) -> str:
    try:
        from iree.runtime import version
        return version.VERSION
    except ImportError:
        return getattr(iree_rt, "__version__", "unknown")


def write_section(text: str) -> None:
    target = REPO / "BENCHMARKS.md"
    old = target.read_text() if target.exists() else "# Benchmarks\n"
    start = old.find("\n" + SECTION + "\n")
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + text
    else:
        end = old.find("\n## ", start + 1)
        new = old[:start + 1] + text + (old[end:] if end >= 0 else "")
    target.write_text(new)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--functions", type=int, default=400)
    parser.add_argument("--large-functions", type=int, default=29000,
                        help="functions of the large module (~10 MB); 0: none")
    parser.add_argument("--compiler", default="iree-compile",
                        help="the iree-compile that makes the modules")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    import ember.runtime as ember_rt
    import iree.runtime as iree_rt

    global COMPILER
    COMPILER = args.compiler
    version = compiler_version()
    programs = {
        "vm_loop": compile_source("vm_loop", (REPO / "bench" / "vm_loop.mlir").read_text(),
                                  version),
        f"many_funcs({args.functions})": compile_source(
            "many_funcs", many_functions_source(args.functions), version),
    }
    if args.large_functions:
        programs[f"many_funcs({args.large_functions})"] = compile_source(
            "many_funcs", many_functions_source(args.large_functions), version)
    rows = []
    for name, path in programs.items():
        data = path.read_bytes()
        ember_instance = ember_rt.VmInstance()
        iree_instance = iree_rt.VmInstance()
        ember_ms, iree_ms = [], []
        for r in range(args.rounds):
            order = [(ember_rt, ember_instance, ember_ms), (iree_rt, iree_instance, iree_ms)]
            if r % 2:
                order.reverse()
            for rt, instance, sink in order:
                sink.append(time_loads(rt, instance, data, args.repeat))
        e, i = statistics.median(ember_ms), statistics.median(iree_ms)
        rows.append((name, len(data), e, i, e / i))

    header = ("| module | file bytes | Ember ms | IREE ms | ratio |\n"
              "|---|---:|---:|---:|---:|\n")
    table = header + "".join(f"| {n} | {size} | {e:.3f} | {i:.3f} | {ratio:.2f} |\n"
                             for n, size, e, i, ratio in rows)
    print(table, end="")
    if args.no_write:
        return 0
    command = "python3 bench/run_load_bench.py" + "".join(
        f" {a}" for a in sys.argv[1:])
    text = (f"{SECTION}\n\n"
            "Loading a module from Python (`VmModule.copy_buffer` + `VmContext`), "
            "median of medians; ratio = Ember / IREE, lower is faster.\n\n"
            f"- command: `{command}`\n"
            f"- date: {datetime.datetime.now():%Y-%m-%d %H:%M}\n"
            f"- machine: {os.cpu_count()} cores (`nproc`)\n"
            f"- compiler: {version}\n"
            f"- official runtime: iree.runtime {official_version(iree_rt)}\n\n"
            + table + "\n")
    write_section(text)
    print(f"wrote {REPO / 'BENCHMARKS.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
