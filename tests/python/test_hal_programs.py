"""Tensor programs run on Ember's CPU devices with the official runtime's bits.

Each case runs one corpus function through `ember-run-module` on
`local-sync` and on `local-task`, with embedded-ELF and with system-ELF
executables, and through the official
`iree-run-module` (local-task) on the same file with the same inputs; the
printed results must be identical, character for character (both print the
same shortest round-trip text of the same bits). The corpus programs are
compiled by tools/ember_corpus.py with the pinned compiler.
"""

import subprocess
import sys

import pytest

# (program, function, inputs)
CASES = [
    ("elementwise", "add", ["4x8xf32=1.5", "4x8xf32=0.25"]),
    ("elementwise", "fused", ["4x8xf32=3", "4x8xf32=-2"]),
    ("elementwise", "div", ["4x8xf32=1", "4x8xf32=3"]),
    ("matmul", "matmul", ["4x8xf32=0.5", "8x16xf32=0.125"]),
    ("matmul", "matvec", ["8x8xf32=0.5", "8xf32=1,2,3,4,5,6,7,8"]),
    ("matmul", "batch_matmul", ["2x3x4xf32=1", "2x4x5xf32=2"]),
    ("conv2d", "conv2d", ["1x8x8x3xf32=0.5", "3x3x3x4xf32=0.25"]),
    ("conv2d", "maxpool", ["1x4x4x2xf32=3"]),
    ("conv2d", "depthwise", ["1x6x6x2xf32=1", "3x3x2xf32=0.5"]),
    ("dynamic_shapes", "dyn_add", ["5xf32=1,2,3,4,5", "5xf32=1"]),
    ("dynamic_shapes", "dyn_matmul", ["3x5xf32=1", "5x2xf32=2"]),
    ("dynamic_shapes", "dyn_row_sum", ["3x4xf32=1,2,3,4,5,6,7,8,9,10,11,12"]),
    # Kernels write into imported constants: no crash on the read-only
    # module mapping, and the module's bytes stay as they were.
    ("constant_updates", "insert_into_constant", ["2xf32=7,8"]),
    ("constant_updates", "insert_rows", ["1x3xi32=0"]),
]


def run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def ember(module, function, inputs, device):
    return run([sys.executable, "-c",
                "from ember._tools import run_module; run_module()",
                f"--module={module}", f"--function={function}",
                f"--device={device}", *[f"--input={i}" for i in inputs]])


def results(stdout):
    return [line for line in stdout.splitlines() if not line.startswith("EXEC")]


@pytest.mark.parametrize(
    "program,function,inputs",
    [c for c in CASES if c[1] is not None],
    ids=[f"{c[0]}.{c[1]}" for c in CASES if c[1] is not None])
@pytest.mark.parametrize("device", ["local-sync", "local-task"])
@pytest.mark.parametrize("form", ["embedded", "system"])
def test_same_results_as_iree(corpus_by_name, program, function, inputs,
                              device, form):
    # "embedded": Ember's ELF loader; "system": shared objects through dlopen.
    module = corpus_by_name[program]["forms"][form]
    ours = ember(module, function, inputs, device)
    assert ours.returncode == 0, ours.stderr
    theirs = run(["iree-run-module", "--device=local-task", f"--module={module}",
                  f"--function={function}", *[f"--input={i}" for i in inputs]])
    assert theirs.returncode == 0, theirs.stderr
    assert results(ours.stdout), ours.stdout
    assert results(ours.stdout) == results(theirs.stdout)


def test_local_task_worker_count_is_validated(sample_vmfb):
    ours = ember(sample_vmfb, "simple_mul", ["4xf32=1", "4xf32=2"],
                 "local-task?worker_count=0")
    assert ours.returncode == 1
    assert "worker_count" in ours.stderr
    ours = ember(sample_vmfb, "simple_mul", ["4xf32=1,2,3,4", "4xf32=2"],
                 "local-task?worker_count=2")
    assert ours.returncode == 0, ours.stderr
    assert results(ours.stdout)[-1] == "4xf32=2 4 6 8"


def test_unknown_driver_names_the_available_ones(sample_vmfb):
    ours = ember(sample_vmfb, "simple_mul", ["4xf32=1", "4xf32=2"], "cuda")
    assert ours.returncode == 1
    assert "local-sync" in ours.stderr and "local-task" in ours.stderr


def check(module, *flags):
    return run([sys.executable, "-c",
                "from ember._tools import check_module; check_module()",
                f"--module={module}", *flags])


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_check_module_runs_every_test_in_a_fresh_context(corpus_by_name,
                                                         device):
    module = corpus_by_name["check_expectations"]["forms"]["embedded"]
    result = check(module, f"--device={device}")
    # The deliberately wrong expectation fails: the check module is really
    # registered (its imports are optional, so without it all would pass).
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert "[       OK ] module.add_passes" in "\n".join(lines)
    assert "[       OK ] module.int_eq_passes" in "\n".join(lines)
    assert "[  FAILED  ] module.wrong_fails" in "\n".join(lines)
    assert "the lhs value 4 differs from the rhs value 5" in result.stdout
    assert "2xf32=1 4" in result.stdout and "2xf32=1 5" in result.stdout
    assert lines[-1] == "2 passed, 1 failed"
    expected = check(module, f"--device={device}", "--expect_failure")
    assert expected.returncode == 0, expected.stdout


def test_constants_a_kernel_updates_stay_unchanged(corpus_by_name):
    module = corpus_by_name["constant_updates"]["forms"]["embedded"]
    before = open(module, "rb").read()
    ours = ember(module, "insert_into_constant", ["2xf32=7,8"], "local-sync")
    assert ours.returncode == 0, ours.stderr
    assert results(ours.stdout)[-1] == "4xf32=1 7 8 4"
    assert open(module, "rb").read() == before
