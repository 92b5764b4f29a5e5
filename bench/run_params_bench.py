#!/usr/bin/env python3
"""A model whose weights live in a parameter archive: load + first call.

    python3 bench/run_params_bench.py [--rounds 5] [--mib 256] [--no-write]

The model multiplies a vector through four square f32 matrices (matvec +
ReLU) held as
externalized parameters (`#stream.parameter.named<"model"::"wN">`), stored
in one `.irpa` file written with the official runtime's
`ParameterIndex.create_archive_file` (about 256 MiB by default). Each round
starts a fresh process per runtime (alternating which goes first) that
loads the archive (`ParameterIndex.load`), makes the `io_parameters` and
`hal` modules, loads the program and makes the first call, and reports the
wall time of all that and the memory it added: RssAnon (anonymous memory:
copies of the weights would show here) and VmRSS (which also counts the
archive's mapped pages the call touched, file-backed and shared with the
page cache). Results are checked bit-identical between the runtimes.
Medians over rounds; rewrites "## Parameter archives" in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import report

REPO = report.REPO
CACHE_DIR = REPO / "build" / "bench-modules"
COMPILE_FLAGS = [
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
]
LAYERS = 4


def program(width: int) -> str:
    """y = relu(W3 relu(W2 relu(W1 relu(W0 x)))) with `linalg.matvec`: each
    weight is read once per call, row by row (the layout it is stored in),
    so the program runs at memory speed without data tiling (data tiling
    would repack the weights at initialization, a copy in any runtime)."""
    t = f"tensor<{width}x{width}xf32>"
    v = f"tensor<{width}xf32>"
    globals_ = "\n".join(
        f'util.global private @w{i} = '
        f'#stream.parameter.named<"model"::"w{i}"> : {t}'
        for i in range(LAYERS))
    body = []
    last = "%x"
    for i in range(LAYERS):
        body += [
            f"  %w{i} = util.global.load @w{i} : {t}",
            f"  %f{i} = linalg.fill ins(%z : f32) outs(%e : {v}) -> {v}",
            f"  %m{i} = linalg.matvec ins(%w{i}, {last} : {t}, {v}) "
            f"outs(%f{i} : {v}) -> {v}",
            f"  %y{i} = linalg.generic {{indexing_maps = "
            f"[affine_map<(d) -> (d)>, affine_map<(d) -> (d)>], "
            f'iterator_types = ["parallel"]}} ins(%m{i} : {v}) '
            f"outs(%e : {v}) {{",
            "  ^bb0(%a: f32, %b: f32):",
            "    %r = arith.maximumf %a, %z : f32",
            "    linalg.yield %r : f32",
            f"  }} -> {v}",
        ]
        last = f"%y{i}"
    return f"""{globals_}
func.func @main(%x: {v}) -> {v} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {v}
{chr(10).join(body)}
  return {last} : {v}
}}
"""


def prepare(width: int, version: str) -> tuple[Path, Path]:
    """The compiled program and the archive (both cached)."""
    vmfb = report.compile_mlir_cached(CACHE_DIR, f"params_model_{width}",
                                      program(width), COMPILE_FLAGS, version)
    irpa = CACHE_DIR / f"params_model_{width}.irpa"
    if not irpa.exists():
        import numpy as np
        import iree.runtime as iree_rt
        rng = np.random.default_rng(0)
        index = iree_rt.ParameterIndex()
        for i in range(LAYERS):
            weight = (rng.standard_normal((width, width), dtype=np.float32)
                      / np.sqrt(width)).astype(np.float32)
            index.add_buffer(f"w{i}", weight)
        index.create_archive_file(str(irpa))
    return vmfb, irpa


WORKER = r"""
import json, sys, time
import numpy as np
def memory():
    values = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile"):
                values[key] = int(rest.split()[0]) * 1024
    return values
runtime, vmfb, irpa, width, out_path = sys.argv[1:6]
if runtime == "ember":
    import ember.runtime as rt
else:
    import iree.runtime as rt
x = np.ones((int(width),), np.float32)
before = memory()
start = time.perf_counter()
instance = rt.VmInstance()
device = rt.get_device("local-task")
index = rt.ParameterIndex()
index.load(irpa)
modules = rt.load_vm_modules(
    rt.create_io_parameters_module(instance, index.create_provider(scope="model")),
    rt.create_hal_module(instance, device),
    rt.VmModule.mmap(instance, vmfb),
    config=rt.Config(device=device))
result = np.asarray(modules[-1].main(x))
elapsed = time.perf_counter() - start
after = memory()
np.save(out_path, result)
print(json.dumps({"seconds": elapsed,
                  "anon": after["RssAnon"] - before["RssAnon"],
                  "rss": after["VmRSS"] - before["VmRSS"]}))
"""


def run_worker(runtime: str, vmfb: Path, irpa: Path, width: int,
               ember_path: str) -> dict:
    out = CACHE_DIR / f"params_result_{runtime}.npy"
    env = dict(os.environ)
    if runtime == "ember":
        env["PYTHONPATH"] = ember_path
    result = report.run([sys.executable, "-c", WORKER, runtime, str(vmfb),
                         str(irpa), str(width), str(out)], env=env)
    row = json.loads(result.stdout.strip().splitlines()[-1])
    row["out"] = out
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--mib", type=int, default=256,
                        help="total size of the weights")
    parser.add_argument("--ember-path", default=str(REPO / "python"))
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    import numpy as np
    width = int((args.mib * 2**20 / 4 / LAYERS) ** 0.5) // 64 * 64
    version = report.compiler_version()
    vmfb, irpa = prepare(width, version)
    weights = os.path.getsize(irpa)
    rows = {"ember": [], "iree": []}
    for i in range(args.rounds):
        order = ("ember", "iree") if i % 2 == 0 else ("iree", "ember")
        for runtime in order:
            rows[runtime].append(run_worker(runtime, vmfb, irpa, width,
                                            args.ember_path))
        a = np.load(rows["ember"][-1]["out"])
        b = np.load(rows["iree"][-1]["out"])
        if a.tobytes() != b.tobytes():
            raise SystemExit("results differ between the runtimes")
    med = {r: {k: statistics.median(row[k] for row in rows[r])
               for k in ("seconds", "anon", "rss")} for r in rows}
    ratio = statistics.median(e["seconds"] / o["seconds"]
                              for e, o in zip(rows["ember"], rows["iree"]))
    mib = 2**20
    print(f"weights {weights / mib:.0f} MiB ({LAYERS}x {width}x{width} f32)")
    for r in ("ember", "iree"):
        print(f"{r}: load + first call {med[r]['seconds'] * 1e3:.1f} ms, "
              f"RssAnon +{med[r]['anon'] / mib:.1f} MiB, VmRSS "
              f"+{med[r]['rss'] / mib:.1f} MiB")
    print(f"time ratio ember/iree {ratio:.2f}")
    if args.no_write:
        return 0
    command = "python3 bench/run_params_bench.py " + " ".join(sys.argv[1:])
    text = "\n".join([
        "## Parameter archives", "",
        report.run_facts(command, version),
        f"A program whose {LAYERS} weights ({LAYERS}x {width}x{width} f32, "
        f"{weights / mib:.0f} MiB in one `.irpa`) are externalized "
        "parameters: a fresh process loads the archive, makes the "
        "`io_parameters` and `hal` modules, loads the program and makes the "
        f"first call on local-task. Medians of {args.rounds} alternating "
        "rounds; results bit-identical. RssAnon is anonymous memory (a copy "
        "of the weights would land there); VmRSS also counts the archive's "
        "pages the call touched (file-backed, shared with the page cache).",
        "",
        "| runtime | load + first call | RssAnon added | VmRSS added |",
        "|---|---|---|---|",
        *(f"| {r} | {med[r]['seconds'] * 1e3:.1f} ms | "
          f"{med[r]['anon'] / mib:.1f} MiB | {med[r]['rss'] / mib:.1f} MiB |"
          for r in ("ember", "iree")),
        "",
        f"Time ratio Ember / official: "
        f"{f'**{ratio:.2f}**' if ratio <= 0.5 else f'{ratio:.2f}'} "
        "(target <= 0.5); "
        f"Ember's anonymous memory added: {med['ember']['anon'] / mib:.1f} "
        f"MiB = {med['ember']['anon'] / weights * 100:.1f}% of the weights "
        "(target < 10%).", ""])
    report.write_section("## Parameter archives", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
