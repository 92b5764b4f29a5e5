#!/usr/bin/env python3
"""Times the Python API of Ember and of iree.runtime 3.13, in one run.

Four cases, each on local-sync and local-task, and the import time:

  tiny       per-call time of `abs` of a 4xf32 called with a numpy array,
             the result read with np.asarray (the whole user-visible path:
             packing, invoke, result wrapping, host mapping);
  sum8       per-call time of a function of eight 4x4xf32 tensors (their
             sum) called with device-resident arguments made once with
             asdevicearray; the result is not read;
  big_input  a 64 MiB f32 argument (16M elements, summed): time per call,
             bytes the device allocator handed out during one call, and
             the peak RSS the first call added (ru_maxrss), i.e. what the
             call copied; then the same with the array at a 64-byte
             aligned address (what Ember imports without a copy; numpy's
             own allocations are 16-byte aligned, and copied);
  import     (every worker) the time `import ember.runtime` / `import
             iree.runtime` takes in a fresh process that has imported
             numpy already;
  big_load   load_vm_flatbuffer_file of a module with 100 MiB of constants
             (a function returning |row i| of a 6400x4096 f32 constant):
             time to load + first call, and the RSS added (total and
             anonymous, /proc/self/status).

Each runtime runs in its own subprocess (`--worker`), one per round, case
group and device, the two runtimes alternating which goes first; a worker
makes `--repeats` timed repetitions of a fixed number of calls and reports
the median per call (wall, and process CPU time, which on local-task
includes the worker threads). A big_load worker loads once (a first call is
only first once). The table gives the median over rounds of each value and
the median of the per-round ratios Ember / IREE (below 1: Ember is faster
or smaller). Results are checked against numpy in every worker. The
tables are printed and replace the "## Python API" section of
BENCHMARKS.md (unless --no-write).

The programs are written here (MLIR of the tensor/linalg/math dialects;
the 100 MiB constant from a fixed integer hash, so the same text comes out
every time) and compiled for the host CPU with iree-compile (llvm-cpu,
--iree-llvmcpu-target-cpu=host), cached under build/bench/python/ by a
hash of the source (for the big module: of the code that writes it), the
flags and the compiler version.

Usage: python3 bench/run_python_bench.py [--rounds R] [--repeats N]
           [--cases tiny,sum8,big_input,big_load]
           [--devices local-sync,local-task] [--no-write]
Ember is imported from python/ (this checkout) unless --ember-path says
otherwise; iree.runtime must be installed (pip install
iree-base-runtime==3.13.0). local-task runs with
--task_topology_max_group_count=2 in both runtimes.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
import report  # noqa: E402
CACHE_DIR = REPO / "build" / "bench" / "python"
COMPILE_FLAGS = [
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
]
RUNTIMES = {"ember": "ember.runtime", "iree": "iree.runtime"}
DEVICES = ("local-sync", "local-task")
CASES = ("tiny", "sum8", "big_input", "big_load")
SECTION = "## Python API"

# Calls per timed repetition (a repetition lasts tens of ms at least).
CALLS = {"tiny": 2000, "sum8": 2000, "big_input": 3}

BIG_INPUT_ELEMENTS = 16 * 1024 * 1024  # 64 MiB of f32
BIG_ROWS, BIG_COLS = 6400, 4096  # 100 MiB of f32 constants
BIG_ROW = 4321  # the row the first call reads

CALL_PROGRAMS = {
    "tiny": """
module @tiny {
  func.func @abs(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = math.absf %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
""",
    "sum8": """
module @sum8 {
  func.func @sum8(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>,
                  %c: tensor<4x4xf32>, %d: tensor<4x4xf32>,
                  %e: tensor<4x4xf32>, %f: tensor<4x4xf32>,
                  %g: tensor<4x4xf32>, %h: tensor<4x4xf32>)
      -> tensor<4x4xf32> {
    %0 = arith.addf %a, %b : tensor<4x4xf32>
    %1 = arith.addf %0, %c : tensor<4x4xf32>
    %2 = arith.addf %1, %d : tensor<4x4xf32>
    %3 = arith.addf %2, %e : tensor<4x4xf32>
    %4 = arith.addf %3, %f : tensor<4x4xf32>
    %5 = arith.addf %4, %g : tensor<4x4xf32>
    %6 = arith.addf %5, %h : tensor<4x4xf32>
    return %6 : tensor<4x4xf32>
  }
}
""",
    "big_input": f"""
module @big_input {{
  func.func @sum(%x: tensor<{BIG_INPUT_ELEMENTS}xf32>) -> tensor<f32> {{
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<f32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<f32>)
        -> tensor<f32>
    %sum = linalg.reduce ins(%x : tensor<{BIG_INPUT_ELEMENTS}xf32>)
        outs(%init : tensor<f32>) dimensions = [0]
      (%in: f32, %acc: f32) {{
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }}
    return %sum : tensor<f32>
  }}
}}
""",
}


def big_constant_rows(first: int, last: int):
    """Rows [first, last) of the big constant: a multiplicative hash of the
    element index mapped to [-0.5, 0.5), so no two rows are alike and
    nothing folds it into a splat or an iota."""
    import numpy as np
    index = np.arange(first * BIG_COLS, last * BIG_COLS, dtype=np.uint64)
    hashed = (index * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
    return ((hashed.astype(np.float64) / 2.0**32 - 0.5)
            .astype(np.float32).reshape(last - first, BIG_COLS))


def write_big_load_mlir(path: Path) -> None:
    """`row(i) = |constant[i]|`: the index is a runtime value, so the
    compiler can neither fold the slice nor drop the constant."""
    with path.open("w", encoding="ascii") as out:
        out.write("module @big_load {\n"
                  "  func.func @row(%i: i64) -> tensor<4096xf32> {\n"
                  '    %cst = arith.constant dense<"0x')
        for first in range(0, BIG_ROWS, 256):
            rows = big_constant_rows(first, min(first + 256, BIG_ROWS))
            out.write(rows.astype("<f4").tobytes().hex().upper())
        out.write(f'"> : tensor<{BIG_ROWS}x{BIG_COLS}xf32>\n')
        out.write(f"""    %idx = arith.index_cast %i : i64 to index
    %row = tensor.extract_slice %cst[%idx, 0] [1, {BIG_COLS}] [1, 1]
        : tensor<{BIG_ROWS}x{BIG_COLS}xf32> to tensor<{BIG_COLS}xf32>
    %abs = math.absf %row : tensor<{BIG_COLS}xf32>
    return %abs : tensor<{BIG_COLS}xf32>
  }}
}}
""")


# -- compilation (cached) ------------------------------------------------------


run = report.run
compiler_version = report.compiler_version


def compile_cached(name: str, key_text: str, write_source, version: str
                   ) -> Path:
    return report.compile_mlir_cached(CACHE_DIR, name, key_text,
                                      COMPILE_FLAGS, version, write_source)


def compile_programs(cases: list[str], version: str) -> dict[str, str]:
    paths = {}
    for name in cases:
        if name in CALL_PROGRAMS:
            text = CALL_PROGRAMS[name]
            paths[name] = str(compile_cached(
                name, text, lambda p, t=text: p.write_text(t), version))
        elif name == "big_load":
            recipe = "\0".join([inspect.getsource(big_constant_rows),
                                inspect.getsource(write_big_load_mlir),
                                str((BIG_ROWS, BIG_COLS))])
            paths[name] = str(compile_cached(name, recipe,
                                             write_big_load_mlir, version))
    return paths


# -- workers (run in a fresh process per runtime) -------------------------------


def _memory() -> dict[str, float]:
    """VmRSS, RssAnon, RssFile (bytes) and ru_maxrss (bytes)."""
    import resource
    values = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile"):
                values[key] = int(rest.split()[0]) * 1024
    values["maxrss"] = resource.getrusage(
        resource.RUSAGE_SELF).ru_maxrss * 1024
    return values


def _timed(action, calls: int, repeats: int) -> tuple[float, float]:
    """Median over repeats of (wall s, CPU s) per call."""
    import time
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(calls):
            action()
        walls.append((time.perf_counter() - wall) / calls)
        cpus.append((time.process_time() - cpu) / calls)
    return statistics.median(walls), statistics.median(cpus)


def _allocator_bytes(device) -> dict[str, int]:
    """The allocator's counters, whatever the runtime calls them."""
    stats = dict(device.allocator.statistics)
    return {key: int(value) for key, value in stats.items()}


def _bytes_allocated_by(device, action) -> int | None:
    """Bytes the device allocator handed out while `action` ran.

    iree.runtime counts bytes allocated ever (host_ and device_
    bytes_allocated), so the difference is exact. Ember counts live bytes
    and the peak, so the difference of the peak over the live bytes before
    is the most the call held at once, which is the total as long as the
    call frees nothing before it ends (true of these programs). Where the
    peak did not rise (a zero-copy call, say), the call held at most the
    old peak less the live bytes, and that bound is returned."""
    before = _allocator_bytes(device)
    action()
    after = _allocator_bytes(device)
    if "device_bytes_allocated" in before:
        return sum(after[k] - before[k] for k in
                   ("host_bytes_allocated", "device_bytes_allocated"))
    return max(after["bytes_peak"], before["bytes_peak"]) - before[
        "bytes_allocated"]


def worker_calls(rt, device_name: str, cases: list[str], paths: dict,
                 repeats: int) -> dict:
    import numpy as np
    config = rt.Config(device_name)
    device = config.device
    modules = [rt.VmModule.mmap(config.vm_instance, paths[name])
               for name in cases]
    context = rt.SystemContext(vm_modules=modules, config=config)
    out: dict = {}

    if "big_input" in cases:  # first: its memory numbers need a clean peak
        function = context.modules.big_input.sum
        x = np.random.default_rng(7).random(BIG_INPUT_ELEMENTS,
                                            dtype=np.float32)
        expected = float(np.sum(x, dtype=np.float64))
        # The same values at a 64-byte aligned address (numpy's allocator
        # gives 16): what a zero-copy import needs, because compiled
        # kernels assume their bindings are 64-byte aligned.
        backing = np.empty(BIG_INPUT_ELEMENTS + 16, np.float32)
        skip = (-backing.ctypes.data % 64) // 4
        aligned = backing[skip:skip + BIG_INPUT_ELEMENTS]
        aligned[...] = x
        for key, array in (("big_input", x), ("big_input_aligned", aligned)):
            results = []
            memory_before = _memory()
            allocated = _bytes_allocated_by(
                device,
                lambda array=array: results.append(
                    np.asarray(function(array))))
            memory_after = _memory()
            got = float(results[0])
            assert abs(got - expected) <= 1e-4 * expected, (got, expected)
            wall, cpu = _timed(lambda array=array: np.asarray(function(array)),
                               CALLS["big_input"], repeats)
            out[key] = {
                "wall": wall, "cpu": cpu,
                "alloc_bytes": allocated,
                "peak_rss_added": (memory_after["maxrss"]
                                   - memory_before["maxrss"]),
            }

    if "tiny" in cases:
        function = context.modules.tiny.abs
        x = np.array([-1.0, 2.0, -3.0, 4.0], np.float32)
        assert np.array_equal(np.asarray(function(x)), np.abs(x))
        for _ in range(200):  # warm-up
            np.asarray(function(x))
        wall, cpu = _timed(lambda: np.asarray(function(x)), CALLS["tiny"],
                           repeats)
        out["tiny"] = {"wall": wall, "cpu": cpu}

    if "sum8" in cases:
        function = context.modules.sum8.sum8
        hosts = [np.full((4, 4), index + 0.5, np.float32) * (-1) ** index
                 for index in range(8)]
        args = [rt.asdevicearray(device, host) for host in hosts]
        assert np.array_equal(function(*args).to_host(), sum(hosts))
        for _ in range(200):
            function(*args)
        wall, cpu = _timed(lambda: function(*args), CALLS["sum8"], repeats)
        out["sum8"] = {"wall": wall, "cpu": cpu}
    return out


def worker_load(rt, device_name: str, paths: dict) -> dict:
    import time
    import numpy as np
    before = _memory()
    start, start_cpu = time.perf_counter(), time.process_time()
    module = rt.load_vm_flatbuffer_file(paths["big_load"], driver=device_name)
    loaded, loaded_cpu = time.perf_counter(), time.process_time()
    row = np.asarray(module.row(BIG_ROW))
    end, end_cpu = time.perf_counter(), time.process_time()
    after = _memory()
    expected = np.abs(big_constant_rows(BIG_ROW, BIG_ROW + 1)[0])
    assert np.array_equal(row, expected), "wrong row"
    return {
        "big_load": {
            "wall": end - start, "cpu": end_cpu - start_cpu,
            "rss_added": after["VmRSS"] - before["VmRSS"],
            "anon_added": after["RssAnon"] - before["RssAnon"],
        },
        "big_load_only": {"wall": loaded - start, "cpu": loaded_cpu - start_cpu},
    }


def worker_main(argv: list[str]) -> int:
    runtime, device_name, group, spec = argv
    spec = json.loads(spec)
    sys.path.insert(0, spec["ember_path"])
    import importlib
    import time
    import numpy  # noqa: F401  (not part of the runtime's import time)
    start, start_cpu = time.perf_counter(), time.process_time()
    rt = importlib.import_module(RUNTIMES[runtime])
    imported = {"wall": time.perf_counter() - start,
                "cpu": time.process_time() - start_cpu}
    if device_name == "local-task":
        rt.flags.parse_flags("--task_topology_max_group_count=2")
    if group == "load":
        result = worker_load(rt, device_name, spec["paths"])
    else:
        result = worker_calls(rt, device_name, spec["cases"], spec["paths"],
                              spec["repeats"])
    result["import"] = imported
    print(json.dumps(result))
    sys.stdout.flush()
    # iree.runtime leaks one HalBufferView and one MappedMemory per
    # np.asarray(result) and nanobind lists them at exit; skip the report.
    os._exit(0)


# -- the driver ----------------------------------------------------------------


def run_worker(runtime: str, device: str, group: str, spec: dict) -> dict:
    # numpy's OpenBLAS starts threads that spin for a while after the
    # import; neither runtime uses BLAS, and their spinning would count in
    # the process CPU time of whatever is timed first.
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    result = run([sys.executable, __file__, "--worker", runtime, device,
                  group, json.dumps(spec)], timeout=900, env=env)
    return json.loads(result.stdout.strip().splitlines()[-1])


def fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.2f} ms"


def fmt_mib(value) -> str:
    return "n/a" if value is None else f"{value / 2**20:.1f} MiB"


def median_ratio(ember: list, iree: list, key: str, floor: float = 0.0):
    """Median of the per-round ratios; rounds where IREE's value is at most
    `floor` (a memory measure near zero) give no ratio."""
    ratios = [e[key] / i[key] for e, i in zip(ember, iree)
              if e[key] is not None and i[key] is not None and i[key] > floor]
    return f"{statistics.median(ratios):.2f}" if ratios else "n/a"


def median_of(rows: list, key: str):
    values = [row[key] for row in rows if row[key] is not None]
    return statistics.median(values) if values else None


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        return worker_main(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--devices", default=",".join(DEVICES))
    parser.add_argument("--ember-path", default=str(REPO / "python"),
                        help="put first on sys.path of the Ember workers")
    parser.add_argument("--no-write", action="store_true",
                        help=f"do not replace the '{SECTION}' section of "
                        "BENCHMARKS.md with this run")
    args = parser.parse_args()
    cases = args.cases.split(",")
    devices = args.devices.split(",")
    for name in cases:
        if name not in CASES:
            raise SystemExit(f"unknown case {name}")
    for device in devices:
        if device not in DEVICES:
            raise SystemExit(f"unknown device {device}")

    version = compiler_version()
    paths = compile_programs(cases, version)
    call_cases = [name for name in cases if name != "big_load"]
    spec = {"paths": paths, "cases": call_cases, "repeats": args.repeats,
            "ember_path": args.ember_path}
    groups = (["calls"] if call_cases else []) + (
        ["load"] if "big_load" in cases else [])

    # (case, device) -> runtime -> one dict per round
    samples: dict = {}
    for round_index in range(args.rounds):
        for device in devices:
            for group in groups:
                order = ["ember", "iree"]
                if round_index % 2:
                    order.reverse()
                for runtime in order:
                    for case, values in run_worker(runtime, device, group,
                                                   spec).items():
                        samples.setdefault((case, device), {
                            "ember": [], "iree": []})[runtime].append(values)
        print(f"round {round_index + 1}/{args.rounds} done", file=sys.stderr)

    time_rows = ["| case | device | Ember wall | IREE wall | ratio (wall) | "
                 "Ember CPU | IREE CPU | ratio (CPU) |",
                 "|---|---|---:|---:|---:|---:|---:|---:|"]
    memory_rows = ["| case | device | measure | Ember | IREE | ratio |",
                   "|---|---|---|---:|---:|---:|"]
    labels = {"tiny": "tiny: abs(4xf32), numpy in, np.asarray out",
              "sum8": "sum8: 8 device-resident 4x4xf32",
              "big_input": "big_input: 64 MiB numpy argument",
              "big_input_aligned": "big_input: the same, 64-byte aligned",
              "big_load": "big_load: load + first call, 100 MiB constants",
              "big_load_only": "big_load: the load alone",
              "import": "import of the runtime package (numpy loaded)"}
    memory_measures = {
        "big_input": [("alloc_bytes", "allocator bytes in one call"),
                      ("peak_rss_added", "peak RSS added by the first call")],
        "big_input_aligned": [
            ("alloc_bytes", "allocator bytes in one call"),
            ("peak_rss_added", "peak RSS added by the first call")],
        "big_load": [("rss_added", "RSS added"),
                     ("anon_added", "anonymous RSS added")],
    }
    shown = [case for case in (*cases, "big_input_aligned", "big_load_only",
                               "import")
             if any((case, device) in samples for device in devices)]
    for case in shown:
        for device in devices:
            cell = samples[(case, device)]
            ember, iree = cell["ember"], cell["iree"]
            time_rows.append(
                f"| {labels[case]} | {device} | "
                f"{fmt_time(median_of(ember, 'wall'))} | "
                f"{fmt_time(median_of(iree, 'wall'))} | "
                f"{median_ratio(ember, iree, 'wall')} | "
                f"{fmt_time(median_of(ember, 'cpu'))} | "
                f"{fmt_time(median_of(iree, 'cpu'))} | "
                f"{median_ratio(ember, iree, 'cpu')} |")
            for key, measure in memory_measures.get(case, []):
                memory_rows.append(
                    f"| {case} | {device} | {measure} | "
                    f"{fmt_mib(median_of(ember, key))} | "
                    f"{fmt_mib(median_of(iree, key))} | "
                    f"{median_ratio(ember, iree, key, 4 * 2**20)} |")
    tables = "\n".join(time_rows)
    if len(memory_rows) > 2:
        tables += "\n\n" + "\n".join(memory_rows)
    print(tables)

    if args.no_write:
        return 0
    command = "python3 bench/run_python_bench.py " + " ".join(sys.argv[1:])
    text = f"""{SECTION}

The Python call path of `ember.runtime` against `iree.runtime`
(`bench/run_python_bench.py`; what each case does is in its docstring).
Each runtime runs in its own subprocess per round, the order alternating;
a cell is the median over {args.rounds} rounds of each worker's median of
{args.repeats} repetitions (per call), the ratio the median of the
per-round Ember / IREE ratios (below 1: Ember is faster or smaller).

{report.run_facts(command, version)}
{tables}
"""
    target = report.write_section(SECTION, text)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
