"""The command-line tools take IREE's flags: the same spellings, the same
function selection, every flag of IREE's tools either implemented, accepted
as a no-op (listed as [ignored] in --help) or refused as not implemented.

Each comparison runs the official tool (iree-run-module /
iree-benchmark-module beside the test interpreter) and Ember's with the same
flags on the same module. The modules are small VM programs compiled by
conftest's compile_mlir, so they need no HAL module of either version.

$EMBER_RUN_MODULE, when set to a build directory's ember-run-module, makes
these tests use that directory's ember-benchmark-module and
ember-check-module too; otherwise the installed package's tools run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CPU_COMPILE_FLAGS, compile_mlir

TIMEOUT = 120
VM_FLAGS = ("--compile-mode=vm",)

ONE = """
vm.module @one {
  vm.export @twice
  vm.func @twice(%a: i32) -> i32 {
    %r = vm.add.i32 %a, %a : i32
    vm.return %r : i32
  }
}
"""

TWO = """
vm.module @two {
  vm.export @twice
  vm.func @twice(%a: i32) -> i32 {
    %r = vm.add.i32 %a, %a : i32
    vm.return %r : i32
  }
  vm.export @seven
  vm.func @seven() -> i32 {
    %c = vm.const.i32 7
    vm.return %c : i32
  }
}
"""

# `__init` and a `$` variant do not count as runnable exports.
INTERNALS = """
vm.module @internals {
  vm.global.i32 private mutable @g : i32
  vm.export @__init
  vm.func @__init() {
    %c = vm.const.i32 5
    vm.global.store.i32 %c, @g : i32
    vm.return
  }
  vm.export @get
  vm.func @get() -> i32 {
    %v = vm.global.load.i32 @g : i32
    vm.return %v : i32
  }
  vm.export @"get$async"
  vm.func @"get$async"() -> i32 {
    %c = vm.const.i32 3
    vm.return %c : i32
  }
}
"""

# Imports from `one`, loaded by an earlier --module.
MAIN = """
vm.module @main {
  vm.import private @one.twice(%a : i32) -> i32
  vm.export @quad
  vm.func @quad(%a: i32) -> i32 {
    %t = vm.call @one.twice(%a) : (i32) -> i32
    %r = vm.call @one.twice(%t) : (i32) -> i32
    vm.return %r : i32
  }
}
"""

# local-task answers `hal.dispatch :: concurrency` with its worker count, in
# IREE and in Ember, so the task topology flags can be observed.
WORKERS = """
vm.module @workers {
  vm.import private @hal.devices.get(%index : i32) -> !vm.ref<!hal.device>
  vm.import private @hal.device.query.i64(%device : !vm.ref<!hal.device>,
      %category : !vm.buffer, %key : !vm.buffer) -> (i32, i64)
  vm.export @workers
  vm.func @workers() -> i64 {
    %zero = vm.const.i32 0
    %dev = vm.call @hal.devices.get(%zero) : (i32) -> !vm.ref<!hal.device>
    %cat = vm.rodata.inline "category" : !vm.buffer = "hal.dispatch"
    %key = vm.rodata.inline "key" : !vm.buffer = "concurrency"
    %ok, %value = vm.call @hal.device.query.i64(%dev, %cat, %key)
        : (!vm.ref<!hal.device>, !vm.buffer, !vm.buffer) -> (i32, i64)
    vm.return %value : i64
  }
}
"""

# Passes a ref through: tensors given as inputs come back as results, so
# the comparison flags can be exercised without a device.
IDENTITY = """
vm.module @identity {
  vm.export @id
  vm.func @id(%a: !vm.ref<?>) -> !vm.ref<?> {
    vm.return %a : !vm.ref<?>
  }
}
"""


def run(argv, **kwargs):
    return subprocess.run([str(a) for a in argv], capture_output=True,
                          text=True, timeout=TIMEOUT, **kwargs)


def ember_tool(name: str) -> list[str]:
    """How to run ember-<name> (name: run-module, benchmark-module,
    check-module)."""
    explicit = os.environ.get("EMBER_RUN_MODULE")
    if explicit:
        return [str(Path(explicit).parent / f"ember-{name}")]
    function = name.replace("-", "_")
    return [sys.executable, "-c",
            f"from ember._tools import {function}; {function}()"]


def iree_tool(name: str) -> str:
    found = shutil.which(f"iree-{name}")
    if not found:
        pytest.fail(f"iree-{name} (iree-base-runtime) is needed")
    return found


@pytest.fixture(scope="module")
def modules() -> dict[str, Path]:
    return {name: compile_mlir(f"tool_flags_{name}", text, VM_FLAGS)
            for name, text in [("one", ONE), ("two", TWO),
                               ("internals", INTERNALS),
                               ("identity", IDENTITY), ("main", MAIN),
                               ("workers", WORKERS)]}


@pytest.fixture(scope="module")
def iree_help() -> str:
    return run([iree_tool("run-module"), "--help"]).stdout


@pytest.fixture(scope="module")
def needs_313(iree_help):
    """Skips where the oracle predates IREE 3.13's flags."""
    if "--expected_rtol" not in iree_help:
        pytest.skip("the official tools are older than IREE 3.13")


def both(tool: str, *args):
    """(ours, theirs) for the same arguments."""
    return (run([*ember_tool(tool), *args]),
            run([iree_tool(tool), *args]))


def same_run(tool: str, *args, check_stdout=True):
    ours, theirs = both(tool, *args)
    # Ember exits 2 on bad usage where IREE exits 1; both fail alike.
    assert (ours.returncode == 0) == (theirs.returncode == 0), (
        ours.stderr, theirs.stderr)
    if ours.returncode == 0 or ours.returncode == 1:
        assert ours.returncode == theirs.returncode, (ours.stderr,
                                                      theirs.stderr)
    if check_stdout and theirs.returncode == 0:
        assert ours.stdout == theirs.stdout
    return ours, theirs


# ---------------------------------------------------------------------------
# Choosing the function
# ---------------------------------------------------------------------------

def test_function_may_be_left_out_with_one_export(modules):
    ours, _ = same_run("run-module", f"--module={modules['one']}",
                       "--input=4")
    assert ours.stdout == "EXEC @twice\nresult[0]: i32=8\n"


def test_internal_exports_do_not_count(modules):
    ours, _ = same_run("run-module", f"--module={modules['internals']}")
    assert ours.stdout == "EXEC @get\nresult[0]: i32=5\n"


def test_several_exports_need_function_and_are_listed(modules):
    ours, theirs = both("run-module", f"--module={modules['two']}",
                        "--input=4")
    assert theirs.returncode != 0 and ours.returncode == 1
    assert "more than one exported function" in theirs.stderr
    assert "more than one exported function" in ours.stderr
    assert "twice, seven" in ours.stderr


def test_several_modules_link_in_order(modules):
    ours, _ = same_run("run-module", f"--module={modules['one']}",
                       f"--module={modules['main']}", "--input=3")
    assert ours.stdout == "EXEC @quad\nresult[0]: i32=12\n"
    # In the other order `main` cannot resolve its import.
    ours, theirs = both("run-module", f"--module={modules['main']}",
                        f"--module={modules['one']}", "--function=twice",
                        "--input=3")
    assert theirs.returncode != 0 and ours.returncode == 1


def test_module_from_stdin(modules):
    data = modules["one"].read_bytes()
    ours = subprocess.run([*ember_tool("run-module"), "--module=-",
                           "--input=3"], input=data, capture_output=True,
                          timeout=TIMEOUT)
    theirs = subprocess.run([iree_tool("run-module"), "--module=-",
                             "--input=3"], input=data, capture_output=True,
                            timeout=TIMEOUT)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout == b"EXEC @twice\nresult[0]: i32=6\n"


def test_a_missing_module_is_an_error(modules):
    ours, theirs = both("run-module", "--input=4")
    assert theirs.returncode != 0 and ours.returncode != 0
    assert "--module" in ours.stderr


# ---------------------------------------------------------------------------
# Spellings
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    # Quotes around a string value are dropped.
    ['--function="twice"', "--input=4"],
    # So is whitespace around the argument, the name and the value.
    [" --function = twice ", "--input= 4"],
    # A later value replaces an earlier one.
    ["--function=seven", "--function=twice", "--input=4"],
    # Booleans: bare, true/false, 1/0.
    ["--function=twice", "--input=4", "--print_statistics"],
    ["--function=twice", "--input=4", "--print_statistics=false"],
    ["--function=twice", "--input=4", "--print_statistics=1"],
    ["--function=twice", "--input=4", "--print_statistics=0"],
    # Positional arguments are ignored.
    ["--function=twice", "--input=4", "stray"],
    # Ignored tuning flags, and default values of unimplemented ones.
    ["--function=twice", "--input=4", "--task_topology_max_group_count=2",
     "--task_topology_group_count=1", "--task_worker_spin_us=10",
     "--module_mode=mmap", "--trace_execution=false",
     "--device_profiling_mode=", "--cuda_tracing=1",
     "--device_allocator=caching"],
])
def test_spellings_that_work_match_iree(modules, args):
    same_run("run-module", f"--module={modules['two']}", *args)


@pytest.mark.parametrize("args", [
    ["--module", "MODULE", "--function=twice", "--input=4"],  # no value
    ["-module=MODULE", "--function=twice", "--input=4"],      # one dash
    ["--module=MODULE", "--function=twice", "--input=4",
     "--noprint_statistics"],                                  # no --no
    ["--module=MODULE", "--function=twice", "--input=4",
     "--frobnicate=1"],                                        # unknown
    ["--module=MODULE", "--function=nope"],
])
def test_spellings_that_fail_match_iree(modules, args):
    args = [a.replace("MODULE", str(modules["two"])) for a in args]
    ours, theirs = both("run-module", *args)
    assert theirs.returncode != 0
    assert ours.returncode != 0 and ours.stderr.strip()


@pytest.mark.parametrize("flags,workers", [
    (["--task_topology_group_count=1"], 1),
    (["--task_topology_group_count=3"], 3),
    (["--task_topology_max_group_count=1"], 1),
    (["--task_topology_group_count=3", "--task_topology_max_group_count=1"],
     3),  # the cap is for the default count only
    (["--task_topology_group_count=2", "--task_worker_spin_us=5",
      "--task_topology_distribution=compact"], 2),
])
def test_task_topology_sets_the_worker_count(modules, flags, workers):
    ours, _ = same_run("run-module", f"--module={modules['workers']}",
                       *flags)
    assert ours.stdout == f"EXEC @workers\nresult[0]: i64={workers}\n"


@pytest.mark.parametrize("tool,extra", [
    ("run-module", []),
    ("benchmark-module", ["--benchmark_min_time=2x", "--function=workers"]),
])
def test_print_statistics_matches_iree(modules, needs_313, tool, extra):
    # A program that allocates nothing: the same block, byte for byte.
    ours, theirs = both(tool, f"--module={modules['workers']}",
                        "--device=local-sync", "--print_statistics", *extra)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    block = theirs.stderr[theirs.stderr.index("Device: local-sync"):]
    assert block.startswith("Device: local-sync\n[[ iree_hal_allocator_t")
    assert ours.stderr.endswith(block)
    # Without a device (a VM-only program) there is nothing to print.
    ours, theirs = both(tool, f"--module={modules['two']}",
                        "--function=seven", "--print_statistics", *extra)
    assert "Device:" not in ours.stderr and "Device:" not in theirs.stderr


def test_bad_values_are_usage_errors(modules):
    # IREE reads these as 0 / false; Ember refuses them.
    for flag in ["--output_max_element_count=lots",
                 "--print_statistics=yes",
                 "--task_topology_max_group_count=0",
                 "--equality_mode=fuzzy",
                 "--module_mode=swap"]:
        ours = run([*ember_tool("run-module"), f"--module={modules['one']}",
                    "--input=4", flag])
        assert ours.returncode == 2, flag
        assert flag.split("=")[0] in ours.stderr, ours.stderr


def test_flagfile_matches_iree(modules, tmp_path):
    flagfile = tmp_path / "flags.txt"
    flagfile.write_text(
        "# comment\n// another\n\n"
        f"--module={modules['two']}\n"
        "  --function=twice  \n"
        "--input=21\n", encoding="utf-8")
    ours, _ = same_run("run-module", f"--flagfile={flagfile}")
    assert ours.stdout.endswith("result[0]: i32=42\n")
    # A flag after the file overrides it.
    ours, _ = same_run("run-module", f"--flagfile={flagfile}",
                       "--function=seven", "--input=(ignored)")
    assert ours.returncode != 0  # --input still holds 21: both refuse it
    flagfile.write_text(f"--module={modules['two']}\n--function=twice\n",
                        encoding="utf-8")
    ours, _ = same_run("run-module", f"--flagfile={flagfile}",
                       "--function=seven")
    assert ours.stdout.endswith("result[0]: i32=7\n")
    # Positional lines are errors in a flag file.
    flagfile.write_text("twice\n", encoding="utf-8")
    ours, theirs = both("run-module", f"--flagfile={flagfile}")
    assert theirs.returncode != 0 and ours.returncode == 2
    assert "flags.txt:1" in ours.stderr


def test_flagfile_nesting_is_bounded(tmp_path):
    flagfile = tmp_path / "loop.txt"
    flagfile.write_text(f"--flagfile={flagfile}\n", encoding="utf-8")
    ours = run([*ember_tool("run-module"), f"--flagfile={flagfile}"])
    assert ours.returncode == 2
    assert "nest" in ours.stderr


# ---------------------------------------------------------------------------
# Every flag of IREE's tools is known
# ---------------------------------------------------------------------------

def iree_flag_names(help_text: str) -> set[str]:
    names = set(re.findall(r"^(?:# )?--([A-Za-z0-9_]+)", help_text, re.M))
    # Google Benchmark's, from its usage block.
    names |= set(re.findall(r"\[--([a-z_]+)=", help_text))
    names.discard("help")
    names.discard("flagfile")
    return names


@pytest.mark.parametrize("tool", ["run-module", "benchmark-module"])
def test_every_iree_flag_is_in_help(tool):
    theirs = run([iree_tool(tool), "--help"]).stdout
    ours = run([*ember_tool(tool), "--help"])
    assert ours.returncode == 0
    listed = set(re.findall(r"^  --([A-Za-z0-9_-]+)", ours.stdout, re.M))
    missing = iree_flag_names(theirs) - listed
    assert not missing, sorted(missing)
    # One line each, every one explained.
    for line in ours.stdout.splitlines():
        if line.startswith("  --"):
            assert len(line.split(None, 1)) == 2, line
    assert "(null)\n" not in ours.stdout


@pytest.mark.parametrize("tool", ["run-module", "benchmark-module"])
def test_iree_defaults_are_all_accepted(tool, modules, tmp_path):
    """IREE's --help output lists every flag at its default; those lines as
    a flag file change nothing."""
    theirs = run([iree_tool(tool), "--help"]).stdout
    lines = [line for line in theirs.splitlines() if line.startswith("--")]
    assert len(lines) > 40
    flagfile = tmp_path / "defaults.txt"
    flagfile.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = [f"--module={modules['two']}", "--function=seven"]
    if tool == "benchmark-module":
        args += ["--benchmark_min_time=3x", "--benchmark_list_tests"]
    plain = run([*ember_tool(tool), *args])
    ours = run([*ember_tool(tool), f"--flagfile={flagfile}", *args])
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == plain.stdout


@pytest.mark.parametrize("flag", [
    "--trace_execution=true",
    "--trace_execution",
    "--device_profiling_mode=queue-events",
    "--device_replay_output=x.ireereplay",
    "--executable_plugin=plugin.so",
    "--instrument_file=x.bin",
    "--task_topology_cpu_ids=0,1",
    "--task_abort_on_failure=true",
    "--print_device_statistics",
    "--agents_md",
])
def test_unimplemented_flags_are_refused_by_name(modules, flag):
    ours = run([*ember_tool("run-module"), f"--module={modules['one']}",
                "--input=4", flag])
    assert ours.returncode == 2
    name = flag.split("=")[0]
    assert name in ours.stderr and "not implemented in Ember" in (
        ours.stderr)
    assert ours.stdout == ""


def test_device_choices_that_are_not_implemented(modules):
    ours = run([*ember_tool("run-module"), f"--module={modules['one']}",
                "--input=4", "--device_allocator=debug"])
    assert ours.returncode == 1
    assert "UNIMPLEMENTED" in ours.stderr


def test_several_devices(modules):
    # Every --device joins the hal module, inputs are made on the first: a
    # program for one device runs as on the first alone, as with IREE's tool.
    ours, theirs = same_run("run-module", f"--module={modules['one']}",
                            "--input=4", "--device=local-sync",
                            "--device=local-task")
    assert ours.returncode == 0, ours.stderr


def test_listing_drivers_and_devices(modules):
    ours, theirs = both("run-module", "--list_devices=local-sync")
    assert ours.returncode == theirs.returncode == 0
    assert ours.stdout == theirs.stdout == "local-sync://\n"
    ours = run([*ember_tool("run-module"), "--list_drivers"])
    assert ours.returncode == 0
    assert re.search(r"^ +local-task: ", ours.stdout, re.M)


# ---------------------------------------------------------------------------
# Comparing results
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("flags", [
    [],
    ["--expected_f32_threshold=0.000001"],
    ["--expected_f32_threshold=0", "--expected_rtol=0"],
    ["--expected_rtol=0.001", "--expected_f32_threshold=0"],
    ["--equality_mode=exact"],
    ["--equality_mode=approximate"],
])
def test_tolerances_match_iree(modules, needs_313, flags):
    same_run("run-module", f"--module={modules['identity']}",
             "--input=3xf32=1,2,nan", "--expected_output=3xf32=1.00001,2,nan",
             *flags)


@pytest.mark.parametrize("expected,flags", [
    ("2xbf16=1.5,2", []),
    ("2xbf16=1.5,2", ["--expected_bf16_threshold=0.001"]),
    ("2xf16=1.0005,2", []),
    ("2xf16=1.0005,2", ["--expected_f16_threshold=0.00001"]),
])
def test_half_precision_tolerances_match_iree(modules, needs_313, expected,
                                              flags):
    dtype = expected.split("=")[0]
    same_run("run-module", f"--module={modules['identity']}",
             f"--input={dtype}=1.5,2" if "bf16" in dtype else
             f"--input={dtype}=1,2", f"--expected_output={expected}", *flags)


# ---------------------------------------------------------------------------
# iree-benchmark-module
# ---------------------------------------------------------------------------

def report_shape(text: str):
    report = json.loads(text)
    return [(row["name"], row["run_type"], row.get("aggregate_name"),
             row["iterations"], row.get("time_unit"), row["repetitions"],
             row.get("aggregate_unit"))
            for row in report["benchmarks"]]


@pytest.mark.parametrize("flags", [
    ["--benchmark_repetitions=3", "--benchmark_min_warmup_time=0.01"],
    ["--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"],
    ["--benchmark_repetitions=2", "--benchmark_display_aggregates_only=yes"],
    ["--time_unit=us"],
    ["--time_unit=ns", "--benchmark_time_unit=s"],
    ["--batch_size=4"],
    ["--benchmark_dry_run", "--benchmark_repetitions=3"],
    ["--benchmark_repetitions=2", "--benchmark_enable_random_interleaving"],
])
def test_benchmark_reports_match_iree(modules, flags):
    args = [f"--module={modules['one']}", "--function=twice", "--input=4",
            "--benchmark_min_time=8x", "--benchmark_format=json", *flags]
    ours, theirs = both("benchmark-module", *args)
    assert theirs.returncode == 0, theirs.stderr
    assert ours.returncode == 0, ours.stderr
    assert report_shape(ours.stdout) == report_shape(theirs.stdout)


def test_benchmark_out_keeps_every_row_when_display_is_aggregates(
        modules, tmp_path):
    args = [f"--module={modules['one']}", "--function=twice", "--input=4",
            "--benchmark_min_time=5x", "--benchmark_repetitions=2",
            "--benchmark_display_aggregates_only=true",
            "--benchmark_format=json"]
    ours = run([*ember_tool("benchmark-module"), *args,
                f"--benchmark_out={tmp_path / 'ours.json'}"])
    theirs = run([iree_tool("benchmark-module"), *args,
                  f"--benchmark_out={tmp_path / 'theirs.json'}"])
    assert ours.returncode == theirs.returncode == 0
    assert report_shape(ours.stdout) == report_shape(theirs.stdout)
    assert (report_shape((tmp_path / "ours.json").read_text()) ==
            report_shape((tmp_path / "theirs.json").read_text()))
    assert len(report_shape((tmp_path / "ours.json").read_text())) == 6


def test_benchmark_csv_matches_iree(modules):
    args = [f"--module={modules['one']}", "--function=twice", "--input=4",
            "--benchmark_min_time=5x", "--benchmark_repetitions=2",
            "--benchmark_format=csv"]
    ours, theirs = both("benchmark-module", *args)
    assert ours.returncode == theirs.returncode == 0

    def columns(text):
        rows = [line.split(",") for line in text.strip().splitlines()]
        return rows[0], [(row[0], row[1], row[4]) for row in rows[1:]]
    assert columns(ours.stdout) == columns(theirs.stdout)


def test_benchmark_without_function_runs_every_nullary_export(modules):
    args = [f"--module={modules['two']}", "--benchmark_min_time=5x",
            "--benchmark_format=json"]
    ours, theirs = both("benchmark-module", *args)
    assert ours.returncode == theirs.returncode == 0
    assert report_shape(ours.stdout) == report_shape(theirs.stdout)
    assert [row[0] for row in report_shape(ours.stdout)] == [
        "BM_seven/process_time/real_time"]
    same_run("benchmark-module", f"--module={modules['two']}",
             "--benchmark_list_tests")
    same_run("benchmark-module", f"--module={modules['two']}",
             "--benchmark_list_tests", "--benchmark_filter=twice")


@pytest.mark.parametrize("expected,exit_code", [("2xf32=1,2", 0),
                                                 ("2xf32=1,3", 1)])
def test_benchmark_output_processing_matches_iree(modules, needs_313,
                                                  expected, exit_code):
    # (Tensors: iree-run-module 3.13 still reports equal scalars as a type
    # mismatch, where Ember compares them.)
    args = [f"--module={modules['identity']}", "--function=id",
            "--input=2xf32=1,2", "--benchmark_min_time=3x",
            "--benchmark_format=json", "--enable_output_processing",
            f"--expected_output={expected}"]
    ours, theirs = both("benchmark-module", *args)
    assert theirs.returncode == exit_code
    assert ours.returncode == exit_code, ours.stderr
    ours_tail = ours.stdout[ours.stdout.rindex("}") + 1:]
    theirs_tail = theirs.stdout[theirs.stdout.rindex("}") + 1:]
    assert ours_tail == theirs_tail


def test_benchmark_refuses_what_it_does_not_implement(modules):
    base = [*ember_tool("benchmark-module"), f"--module={modules['one']}",
            "--function=twice", "--input=4", "--benchmark_min_time=2x"]
    ours = run([*base, "--dispatch_statistics"])
    assert ours.returncode == 2
    assert "--dispatch_statistics is not implemented in Ember" in ours.stderr
    # Unknown flags are errors here, where iree-benchmark-module ignores
    # them.
    ours = run([*base, "--benchmark_min_tme=1x"])
    assert ours.returncode == 2 and "benchmark_min_tme" in ours.stderr
    for bad in ("--benchmark_min_time=fast", "--time_unit=s",
                "--benchmark_repetitions=0", "--benchmark_format=yaml"):
        ours = run([*base, bad])
        assert ours.returncode == 2, bad


# ---------------------------------------------------------------------------
# Functions of the coarse-fences model get their fences, as in IREE
# ---------------------------------------------------------------------------

ASYNC = """
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @ones() -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}
"""


@pytest.fixture(scope="module")
def async_module() -> Path:
    return compile_mlir("tool_flags_async", ASYNC,
                        [*CPU_COMPILE_FLAGS,
                         "--iree-execution-model=async-external"])


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_coarse_fences_functions_run_as_in_iree(async_module, needs_313,
                                                device):
    ours, _ = same_run("run-module", f"--module={async_module}",
                       f"--device={device}", "--function=add",
                       "--input=4xf32=1,2,3,4", "--input=4xf32=0.5")
    assert ours.stdout.endswith("4xf32=1.5 2.5 3.5 4.5\n")
    # Benchmarked alone with --function, and without it as the only
    # export that takes nothing but its fences.
    args = [f"--module={async_module}", f"--device={device}",
            "--benchmark_min_time=4x", "--benchmark_format=json"]
    ours, theirs = both("benchmark-module", *args)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert report_shape(ours.stdout) == report_shape(theirs.stdout)
    assert [row[0] for row in report_shape(ours.stdout)] == [
        "BM_ones/process_time/real_time"]
    ours = run([*ember_tool("benchmark-module"), *args, "--function=add",
                "--input=4xf32=1", "--input=4xf32=2",
                "--enable_output_processing"])
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout.endswith("4xf32=3 3 3 3\n")


# ---------------------------------------------------------------------------
# ember-check-module
# ---------------------------------------------------------------------------

def test_check_module_takes_the_shared_flags(modules):
    tool = ember_tool("check-module")
    help_text = run([*tool, "--help"])
    assert help_text.returncode == 0
    assert "--expect_failure" in help_text.stdout
    assert "--task_topology_max_group_count" in help_text.stdout
    refused = run([*tool, f"--module={modules['one']}",
                   "--trace_execution=true"])
    assert refused.returncode == 2
    assert "--trace_execution" in refused.stderr
    unknown = run([*tool, f"--module={modules['one']}", "--gtest_repeat=2"])
    assert unknown.returncode == 2 and "gtest_repeat" in unknown.stderr
    # Internal exports are not tests; the one test passes.
    passed = run([*tool, f"--module={modules['internals']}",
                  "--task_topology_group_count=1", "--expect_failure=false"])
    assert passed.returncode == 0, passed.stderr
    assert "[       OK ] internals.get" in passed.stdout
    assert "1 passed, 0 failed" in passed.stdout


def test_check_module_filters_tests_as_googletest(modules):
    tool = [*ember_tool("check-module"), f"--module={modules['two']}"]
    listed = run([*tool, "--gtest_list_tests"])
    assert listed.returncode == 0
    assert listed.stdout == "two.\n  twice\n  seven\n"
    # `twice` takes an argument, so as a test it fails.
    everything = run(tool)
    assert everything.returncode == 1
    assert "1 passed, 1 failed" in everything.stdout
    for pattern, passed in [("*seven", True), ("two.s?ven:none", True),
                            ("-*seven", False), ("*-two.twice", True),
                            ("two.*-*n", False)]:
        result = run([*tool, f"--gtest_filter={pattern}"])
        assert (result.returncode == 0) == passed, (pattern, result.stdout)
        assert ("two.twice" in result.stdout) != passed, pattern
