"""ember-run-module's I/O flags, against iree-run-module's on the same module.

`--input=@a.npy` / `+a.npy` / `*a.npy` (NumPy arrays, one file holding
several), `--input=4xf32=@raw.bin`, f16 and bf16 text inputs,
`--output=@f.npy` / `+f.npy` / `-` / empty, and `--expected_output` with
IREE's tolerances. Written files must be byte-identical to the official
tool's and load in numpy with the right values; printed text must be
identical. Every corrupt .npy must fail with a message naming the file and
the problem (exit 1, never a crash).

The module is compiled here with the pinned iree-compile. The tool run is
$EMBER_RUN_MODULE when set (e.g. a build directory's ember-run-module),
else the installed one.
"""

from __future__ import annotations

import io
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import compile_mlir, ember_run_module_command

TIMEOUT = 120

IO_MLIR = """
func.func @double_f64(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = arith.addf %a, %a : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}
func.func @double_i64(%a: tensor<5xi64>) -> tensor<5xi64> {
  %0 = arith.addi %a, %a : tensor<5xi64>
  return %0 : tensor<5xi64>
}
func.func @double_i16(%a: tensor<2x2xi16>) -> tensor<2x2xi16> {
  %0 = arith.addi %a, %a : tensor<2x2xi16>
  return %0 : tensor<2x2xi16>
}
func.func @double_i8(%a: tensor<4xi8>) -> tensor<4xi8> {
  %0 = arith.addi %a, %a : tensor<4xi8>
  return %0 : tensor<4xi8>
}
func.func @double_i32(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = arith.addi %a, %a : tensor<3xi32>
  return %0 : tensor<3xi32>
}
func.func @double_f16(%a: tensor<6xf16>) -> tensor<6xf16> {
  %0 = arith.addf %a, %a : tensor<6xf16>
  return %0 : tensor<6xf16>
}
func.func @double_f32(%a: tensor<2x2x2xf32>) -> tensor<2x2x2xf32> {
  %0 = arith.addf %a, %a : tensor<2x2x2xf32>
  return %0 : tensor<2x2x2xf32>
}
func.func @not_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  %t = arith.constant dense<true> : tensor<4xi1>
  %0 = arith.xori %a, %t : tensor<4xi1>
  return %0 : tensor<4xi1>
}
func.func @id_f16(%a: tensor<6xf16>) -> tensor<6xf16> {
  return %a : tensor<6xf16>
}
func.func @id_bf16(%a: tensor<6xbf16>) -> tensor<6xbf16> {
  return %a : tensor<6xbf16>
}
func.func @add_sub(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = arith.addf %a, %b : tensor<4xf32>
  %1 = arith.subf %a, %b : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
func.func @scalars(%a: i32, %b: f32, %c: i64, %d: f64) -> (i32, f32, i64, f64) {
  return %a, %b, %c, %d : i32, f32, i64, f64
}
func.func @mixed(%a: tensor<3xf32>, %k: i32) -> (tensor<3xf32>, i32, tensor<f32>) {
  %0 = arith.addf %a, %a : tensor<3xf32>
  %s = tensor.extract_slice %a[1] [1] [1] : tensor<3xf32> to tensor<f32>
  return %0, %k, %s : tensor<3xf32>, i32, tensor<f32>
}
"""

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def run(argv, cwd):
    return subprocess.run([str(a) for a in argv], capture_output=True,
                          text=True, timeout=TIMEOUT, cwd=cwd)


@pytest.fixture(scope="module")
def io_module() -> Path:
    return compile_mlir("run_module_io", IO_MLIR)


@pytest.fixture(scope="module")
def oracle(iree_run_module) -> str:
    return iree_run_module


class Tools:
    """Runs both tools on the module in a working directory of their own
    (files named in flags are relative to it)."""

    def __init__(self, module: Path, oracle: str, workdir: Path):
        self.module = module
        self.oracle = oracle
        self.workdir = workdir

    def ember(self, function, *flags):
        return run([*ember_run_module_command(), f"--module={self.module}",
                    f"--function={function}", *flags], self.workdir)

    def iree(self, function, *flags):
        return run([self.oracle, f"--module={self.module}",
                    f"--function={function}", *flags], self.workdir)

    def path(self, name) -> Path:
        return self.workdir / name


@pytest.fixture
def tools(io_module, oracle, tmp_path) -> Tools:
    return Tools(io_module, oracle, tmp_path)


def npy_bytes(*arrays) -> bytes:
    stream = io.BytesIO()
    for array in arrays:
        np.save(stream, array)
    return stream.getvalue()


def load_all(path: Path) -> list[np.ndarray]:
    arrays = []
    with open(path, "rb") as f:
        while f.tell() < path.stat().st_size:
            arrays.append(np.load(f))
    return arrays


def header_npy(dict_text: str, data: bytes = b"", version=(1, 0)) -> bytes:
    """A .npy file with a hand-written header dict (padded as numpy does)."""
    body = dict_text.encode("latin1")
    length_size = 2 if version[0] == 1 else 4
    unpadded = 8 + length_size + len(body) + 1
    header = body + b" " * ((-unpadded) % 64) + b"\n"
    length = struct.pack("<H" if length_size == 2 else "<I", len(header))
    return b"\x93NUMPY" + bytes(version) + length + header + data


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return (a.dtype == b.dtype and a.shape == b.shape
            and a.tobytes() == b.tobytes())


# ---------------------------------------------------------------------------
# --input=@a.npy and --output=@f.npy, every numpy dtype the format maps
# ---------------------------------------------------------------------------

# (function, input array, expected result as numpy computes it)
NPY_CASES = [
    ("double_f64", np.arange(6, dtype=np.float64).reshape(2, 3) / 3,
     lambda a: a + a),
    ("double_i64", np.array([1, -2, 3, 2**40, -5], dtype=np.int64),
     lambda a: a + a),
    ("double_i16", np.array([[1, -2], [300, -32000]], dtype=np.int16),
     lambda a: (a + a)),
    ("double_i8", np.array([1, 2, -100, 127], dtype=np.int8),
     lambda a: (a + a)),
    # An unsigned array enters as ui8; the signless result leaves as int8.
    ("double_i8", np.array([1, 2, 200, 255], dtype=np.uint8),
     lambda a: (a + a).view(np.int8)),
    ("double_i32", np.array([7, -8, 2**30], dtype=np.int32),
     lambda a: a + a),
    ("double_f16", np.array([0.5, 1.25, -3, 65504, 0.125, np.inf],
                            dtype=np.float16), lambda a: a + a),
    ("double_f32", (np.arange(8, dtype=np.float32) * 0.1).reshape(2, 2, 2),
     lambda a: a + a),
    ("not_i1", np.array([True, False, False, True]), lambda a: ~a),
]


@pytest.mark.parametrize(
    "function,array,compute", NPY_CASES,
    ids=[f"{c[0]}-{c[1].dtype}" for c in NPY_CASES])
def test_npy_round_trip_matches_iree(tools, function, array, compute):
    tools.path("in.npy").write_bytes(npy_bytes(array))
    ours = tools.ember(function, "--input=@in.npy", "--output=@ours.npy")
    assert ours.returncode == 0, ours.stderr
    theirs = tools.iree(function, "--input=@in.npy", "--output=@theirs.npy")
    assert theirs.returncode == 0, theirs.stderr
    assert ours.stdout == theirs.stdout  # just the EXEC line
    ours_bytes = tools.path("ours.npy").read_bytes()
    assert ours_bytes == tools.path("theirs.npy").read_bytes()
    result = np.load(tools.path("ours.npy"))
    with np.errstate(over="ignore"):
        expected = compute(array)
    assert same_bits(result, expected), (result, expected)


@pytest.mark.parametrize("function,array,compute",
                         [c for c in NPY_CASES if c[0] != "not_i1"],
                         ids=[f"{c[0]}-{c[1].dtype}" for c in NPY_CASES
                              if c[0] != "not_i1"])
def test_npy_input_prints_as_iree(tools, function, array, compute):
    tools.path("in.npy").write_bytes(npy_bytes(array))
    ours = tools.ember(function, "--input=@in.npy")
    theirs = tools.iree(function, "--input=@in.npy")
    assert ours.returncode == 0 and theirs.returncode == 0, (ours.stderr,
                                                             theirs.stderr)
    assert ours.stdout == theirs.stdout


def test_written_npy_equals_numpy_save(tools):
    # Header layout included: what numpy.save itself writes.
    array = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 2, 2)
    tools.path("in.npy").write_bytes(npy_bytes(array))
    ours = tools.ember("double_f32", "--input=@in.npy", "--output=@out.npy")
    assert ours.returncode == 0, ours.stderr
    assert tools.path("out.npy").read_bytes() == npy_bytes(array + array)


def test_npy_versions_2_and_3_are_read(tools):
    array = np.array([1.5, -2, 3, 4], dtype=np.float32)
    for version in ((2, 0), (3, 0)):
        data = header_npy("{'descr': '<f4', 'fortran_order': False, "
                          "'shape': (4,), }", array.tobytes(), version)
        tools.path("in.npy").write_bytes(data)
        ours = tools.ember("add_sub", "--input=@in.npy", "--input=@in.npy")
        assert ours.returncode == 0, ours.stderr
        assert "4xf32=3 -4 6 8" in ours.stdout


# ---------------------------------------------------------------------------
# Several arrays in one file: @ starts over, + continues, * takes the rest
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("flags", [
    ["--input=@two.npy", "--input=+two.npy"],
    ["--input=*two.npy"],
    ["--input=@two.npy", "--input=@two.npy"],
    ["--input=+two.npy", "--input=*two.npy"],
])
def test_concatenated_arrays_match_iree(tools, flags):
    a = np.array([1, 2, 3, 4], dtype=np.float32)
    b = np.array([0.5, 0.25, -1, 8], dtype=np.float32)
    tools.path("two.npy").write_bytes(npy_bytes(a, b))
    ours = tools.ember("add_sub", *flags)
    theirs = tools.iree("add_sub", *flags)
    assert ours.returncode == 0, ours.stderr
    assert theirs.returncode == 0, theirs.stderr
    assert ours.stdout == theirs.stdout
    first, second = (a, a) if flags[1:] == ["--input=@two.npy"] else (a, b)
    assert f"4xf32={' '.join(f'{v:g}' for v in first + second)}" in ours.stdout


def test_reading_past_the_last_array_fails(tools):
    tools.path("one.npy").write_bytes(
        npy_bytes(np.ones(4, dtype=np.float32)))
    ours = tools.ember("add_sub", "--input=@one.npy", "--input=+one.npy")
    assert ours.returncode == 1
    assert "one.npy" in ours.stderr and "no array left" in ours.stderr
    assert "input 1" in ours.stderr
    # Too many arrays for the function's arguments.
    tools.path("three.npy").write_bytes(
        npy_bytes(*[np.ones(4, dtype=np.float32)] * 3))
    ours = tools.ember("add_sub", "--input=*three.npy")
    assert ours.returncode == 1
    assert "takes only 2 values" in ours.stderr


def test_npy_array_for_a_scalar_argument_is_refused(tools):
    tools.path("a.npy").write_bytes(npy_bytes(np.ones(3, dtype=np.float32)))
    ours = tools.ember("mixed", "--input=@a.npy", "--input=@a.npy")
    assert ours.returncode == 1
    assert "value 1 is an i32 in the signature" in ours.stderr
    tools.path("a.bin").write_bytes(b"\0" * 12)
    ours = tools.ember("mixed", "--input=@a.bin", "--input=1")
    assert ours.returncode == 1
    assert "only NumPy (.npy) files" in ours.stderr


def test_raw_binary_inputs_and_outputs_match_iree(tools):
    a = np.array([1, 2, 3, 4], dtype=np.float32)
    b = np.array([10, 20, 30, 40], dtype=np.float32)
    tools.path("raw.bin").write_bytes(a.tobytes() + b.tobytes())
    flags = ["--input=4xf32=@raw.bin", "--input=4xf32=+raw.bin"]
    ours = tools.ember("add_sub", *flags, "--output=@ours.bin",
                       "--output=+ours.bin")
    theirs = tools.iree("add_sub", *flags, "--output=@theirs.bin",
                        "--output=+theirs.bin")
    assert ours.returncode == 0, ours.stderr
    assert theirs.returncode == 0, theirs.stderr
    data = tools.path("ours.bin").read_bytes()
    assert data == tools.path("theirs.bin").read_bytes()
    assert data == (a + b).tobytes() + (a - b).tobytes()
    # Too few bytes left for the tensor.
    tools.path("short.bin").write_bytes(b"\0" * 15)
    ours = tools.ember("add_sub", "--input=4xf32=@short.bin",
                       "--input=4xf32=1")
    assert ours.returncode == 1
    assert "short.bin" in ours.stderr and "15 bytes left" in ours.stderr


# ---------------------------------------------------------------------------
# --output: one per result, @ writes, + appends, - prints, empty drops
# ---------------------------------------------------------------------------

def test_scalar_outputs_append_to_one_npy_file(tools):
    inputs = ["--input=7", "--input=1.5", "--input=-9", "--input=2.25"]
    ours = tools.ember("scalars", *inputs, "--output=@ours.npy",
                       *["--output=+ours.npy"] * 3)
    theirs = tools.iree("scalars", *inputs, "--output=@theirs.npy",
                        *["--output=+theirs.npy"] * 3)
    assert ours.returncode == 0, ours.stderr
    assert theirs.returncode == 0, theirs.stderr
    assert (tools.path("ours.npy").read_bytes() ==
            tools.path("theirs.npy").read_bytes())
    arrays = load_all(tools.path("ours.npy"))
    expected = [np.array(7, np.int32), np.array(1.5, np.float32),
                np.array(-9, np.int64), np.array(2.25, np.float64)]
    assert len(arrays) == 4
    for got, want in zip(arrays, expected):
        assert same_bits(got, want), (got, want)


def test_overwrite_then_append_across_runs(tools):
    # "@" truncates what an earlier run left; "+" keeps it.
    for _ in range(2):
        ours = tools.ember("add_sub", "--input=4xf32=1", "--input=4xf32=2",
                           "--output=@out.npy", "--output=+out.npy")
        assert ours.returncode == 0, ours.stderr
    arrays = load_all(tools.path("out.npy"))
    assert [a.tolist() for a in arrays] == [[3.0] * 4, [-1.0] * 4]


def test_print_and_drop_outputs_match_iree(tools):
    flags = ["--input=3xf32=1,2,3", "--input=4", "--output=-", "--output=",
             "--output=-"]
    ours = tools.ember("mixed", *flags)
    theirs = tools.iree("mixed", *flags)
    assert ours.returncode == 0, ours.stderr
    assert theirs.returncode == 0, theirs.stderr
    assert ours.stdout == theirs.stdout
    assert ours.stdout.splitlines()[1:] == [
        "hal.buffer_view", "3xf32=2 4 6", "hal.buffer_view", "f32=2"]


def test_long_tensors_are_elided_as_iree(tools):
    flags = ["--input=4xf32=1", "--input=4xf32=2"]
    for extra in (["--output_max_element_count=2"],
                  ["--output_max_element_count=2", "--output=-",
                   "--output=-"]):
        ours = tools.ember("add_sub", *flags, *extra)
        theirs = tools.iree("add_sub", *flags, *extra)
        assert ours.returncode == 0, ours.stderr
        assert ours.stdout == theirs.stdout
        assert "4xf32=3 3..." in ours.stdout


def test_mixed_results_to_npy_and_raw_files_match_iree(tools):
    flags = ["--input=3xf32=1,2,3", "--input=4"]
    for name in ("ours", "theirs"):
        tool = tools.ember if name == "ours" else tools.iree
        result = tool("mixed", *flags, f"--output=@{name}.npy",
                      f"--output=+{name}.npy", f"--output=@{name}.bin")
        assert result.returncode == 0, result.stderr
    assert (tools.path("ours.npy").read_bytes() ==
            tools.path("theirs.npy").read_bytes())
    assert (tools.path("ours.bin").read_bytes() ==
            tools.path("theirs.bin").read_bytes())
    arrays = load_all(tools.path("ours.npy"))
    assert same_bits(arrays[0], np.array([2, 4, 6], np.float32))
    assert same_bits(arrays[1], np.array(4, np.int32))
    assert tools.path("ours.bin").read_bytes() == np.float32(2).tobytes()


def test_output_flag_errors(tools):
    flags = ["--input=3xf32=1,2,3", "--input=4"]
    ours = tools.ember("mixed", *flags, "--output=-")
    assert ours.returncode == 1
    assert "1 outputs specified but the function returned 3" in ours.stderr
    ours = tools.ember("mixed", *flags, "--output=x.npy", "--output=",
                       "--output=")
    assert ours.returncode == 1
    assert "unsupported output mode specification 'x.npy'" in ours.stderr
    # bf16 has no numpy dtype: an error, and no file is left behind.
    ours = tools.ember("id_bf16", "--input=6xbf16=1", "--output=@b.npy")
    assert ours.returncode == 1
    assert "numpy has no dtype for element type bf16" in ours.stderr
    assert not tools.path("b.npy").exists()
    ours = tools.ember("id_f16", "--input=6xf16=1",
                       "--output=@missing_dir/b.npy")
    assert ours.returncode == 1
    assert "missing_dir/b.npy" in ours.stderr


# ---------------------------------------------------------------------------
# Text inputs of f16 and bf16: the oracle's bits
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("values", [
    "1.5,2,-3.25,65504,1e-5,nan",
    "1.0009765625,1.00048828125,1.00146484375,65519,65520,-0",
    "6.1e-5,5.96e-8,2.98e-8,2.99e-8,1e-30,-inf",
    "0x1p-24,3e-8,1e10,-1e10,0.1,0.2",
    "0x1.8p-24,0x1.8p-25,0x1p-25,1e-40,0x1.fp-15,0x1.ffcp-15",
    "[1 2][3 4][5 6]",
    "0.1",
])
@pytest.mark.parametrize("type_name", ["f16", "bf16"])
def test_narrow_float_text_inputs_have_iree_bits(tools, values, type_name):
    spec = f"--input=6x{type_name}={values}"
    ours = tools.ember(f"id_{type_name}", spec, "--output=@ours.bin")
    theirs = tools.iree(f"id_{type_name}", spec, "--output=@theirs.bin")
    assert ours.returncode == 0, ours.stderr
    assert theirs.returncode == 0, theirs.stderr
    ours_bits = tools.path("ours.bin").read_bytes()
    assert ours_bits == tools.path("theirs.bin").read_bytes()
    if type_name == "f16" and "e-" not in values and "p-" not in values:
        # Away from IREE's subnormal shortcut, f16 is numpy's rounding.
        text = values.replace("[", " ").replace("]", " ").replace(",", " ")
        numbers = [float.fromhex(v) if "0x" in v else float(v)
                   for v in text.split()]
        numbers = numbers * 6 if len(numbers) == 1 else numbers
        with np.errstate(over="ignore"):
            expected = np.array(numbers, np.float32).astype(np.float16)
        got = np.frombuffer(ours_bits, np.float16)
        nan = np.isnan(expected)
        assert np.array_equal(got[~nan], expected[~nan])
        assert np.isnan(got[nan]).all()


def test_values_are_trimmed_and_brackets_separate(tools):
    ours = tools.ember("add_sub", "--input= 4xf32=[1 2][3 4] ",
                       "--input=\t4xf32=1\n")
    theirs = tools.iree("add_sub", "--input= 4xf32=[1 2][3 4] ",
                        "--input=\t4xf32=1\n")
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout


def test_wide_integer_and_f64_text_inputs(tools):
    ours = tools.ember("double_i64",
                       "--input=5xi64=9223372036854775807,-1,0x10,2,-3",
                       "--output=@o.npy")
    assert ours.returncode == 0, ours.stderr
    assert np.load(tools.path("o.npy")).tolist() == [-2, -2, 32, 4, -6]
    ours = tools.ember("double_f64", "--input=2x3xf64=0.1,1e300,3,4,5,6",
                       "--output=@o.npy")
    assert ours.returncode == 0, ours.stderr
    assert np.load(tools.path("o.npy")).ravel().tolist() == [
        0.2, 2e300, 6, 8, 10, 12]
    ours = tools.ember("double_i8", "--input=4xi8=1,2,3,256")
    assert ours.returncode == 1
    assert "cannot parse '256' as i8" in ours.stderr


# ---------------------------------------------------------------------------
# --expected_output
# ---------------------------------------------------------------------------

def compare_with_iree(tools, function, *flags):
    ours = tools.ember(function, *flags)
    theirs = tools.iree(function, *flags)
    assert ours.stdout == theirs.stdout, (ours.stdout, theirs.stdout)
    assert ours.returncode == theirs.returncode, (ours.stderr, theirs.stderr)
    return ours


def test_matching_expected_outputs(tools):
    a = np.array([1, 2, 3, 4], dtype=np.float32)
    tools.path("sum.npy").write_bytes(npy_bytes(a + 2))
    ours = compare_with_iree(
        tools, "add_sub", "--input=4xf32=1,2,3,4", "--input=4xf32=2",
        "--expected_output=@sum.npy", "--expected_output=4xf32=-1,0,1,2")
    assert ours.returncode == 0
    assert ours.stdout.endswith(
        "[SUCCESS] all function outputs matched their expected values.\n")
    ours = compare_with_iree(
        tools, "add_sub", "--input=4xf32=1,2,3,4", "--input=4xf32=2",
        "--expected_output=(ignored)", "--expected_output=4xf32=-1,0,1,2")
    assert ours.returncode == 0


def test_mismatched_expected_outputs_fail_as_iree(tools):
    ours = compare_with_iree(
        tools, "add_sub", "--input=4xf32=1,2,3,4", "--input=4xf32=2",
        "--expected_output=4xf32=3,4,5,7", "--expected_output=3xf32=0")
    assert ours.returncode == 1
    lines = ours.stdout.splitlines()
    assert lines[1] == (
        "[FAILED] result[0]: element at index 3 (6) does not match the "
        "expected (7); expected that the view is equal to contents of a view "
        "of 4xf32")
    assert "[FAILED] result[1]: metadata is 4xf32" in ours.stdout
    assert "[SUCCESS]" not in ours.stdout
    # A type that differs is a mismatch too.
    ours = compare_with_iree(
        tools, "add_sub", "--input=4xf32=1", "--input=4xf32=2",
        "--expected_output=4xi32=3", "--expected_output=(ignored)")
    assert ours.returncode == 1
    assert "expected that the view matches 4xi32" in ours.stdout


def test_expected_output_count_mismatch(tools):
    ours = compare_with_iree(tools, "add_sub", "--input=4xf32=1",
                             "--input=4xf32=2", "--expected_output=4xf32=3")
    assert ours.returncode == 1
    assert "[FAILED] expected 1 list elements but 2 provided" in ours.stdout


@pytest.mark.parametrize("flags,matches", [
    ([], True),  # 1e-5 apart: under the default atol 1e-4
    # 3.13's approximate mode: |a - e| <= atol + rtol * |e|, so the default
    # rtol (1e-5) still covers 1e-5 at 4.0.
    (["--expected_f32_threshold=0.000001"], True),
    (["--expected_f32_threshold=0.000001", "--expected_rtol=0"], False),
    (["--equality_mode=exact"], False),
    (["--equality_mode=approximate", "--expected_rtol=0.000001",
      "--expected_f32_threshold=0.000001"], False),
])
def test_float_tolerances_match_iree(tools, flags, matches):
    ours = compare_with_iree(
        tools, "add_sub", "--input=4xf32=1,2,3,4", "--input=4xf32=0",
        "--expected_output=4xf32=1,2,3,4.00001",
        "--expected_output=4xf32=1,2,3,4", *flags)
    assert (ours.returncode == 0) == matches, ours.stdout


@pytest.mark.parametrize("flags,matches", [
    (["--equality_mode=relative"], True),
    (["--equality_mode=relative", "--expected_f32_threshold=0.000001"],
     False),
    (["--equality_mode=absolute"], True),
])
def test_311_equality_modes_keep_their_meaning(tools, flags, matches):
    """A deliberate difference: iree-run-module 3.11's `absolute` and
    `relative` modes keep their 3.11 meaning in Ember, so scripts written
    for 3.11 still compare as they did. (3.13 dropped them and compares
    exactly under any mode it does not know.)"""
    ours = tools.ember(
        "add_sub", "--input=4xf32=1,2,3,4", "--input=4xf32=0",
        "--expected_output=4xf32=1,2,3,4.00001",
        "--expected_output=4xf32=1,2,3,4", *flags)
    assert (ours.returncode == 0) == matches, ours.stdout


def test_f16_and_integer_comparisons_match_iree(tools):
    # f16 within its 1e-3 threshold (0.5005 is one f16 step above 0.5,
    # 0.502 four); integers always exactly.
    ours = compare_with_iree(tools, "double_f16", "--input=6xf16=0.25",
                             "--expected_output=6xf16=0.5005")
    assert ours.returncode == 0
    ours = compare_with_iree(tools, "double_f16", "--input=6xf16=0.25",
                             "--expected_output=6xf16=0.502")
    assert ours.returncode == 1
    ours = compare_with_iree(tools, "double_i32", "--input=3xi32=1,2,3",
                             "--expected_output=3xi32=2,4,7",
                             "--expected_f32_threshold=100")
    assert ours.returncode == 1
    assert "element at index 2 (6) does not match the expected (7)" in (
        ours.stdout)


def test_expected_scalars_compare_by_value(tools):
    # iree-run-module 3.11 reports every scalar as "variant types mismatch;
    # expected i32 but got i32"; ember-run-module compares the values.
    flags = ["--input=3xf32=1,2,3", "--input=4"]
    ours = tools.ember("mixed", *flags, "--expected_output=3xf32=2,4,6",
                       "--expected_output=4", "--expected_output=f32=2")
    assert ours.returncode == 0, ours.stdout + ours.stderr
    assert "[SUCCESS]" in ours.stdout
    ours = tools.ember("mixed", *flags, "--expected_output=(ignored)",
                       "--expected_output=i32=5",
                       "--expected_output=(ignored)")
    assert ours.returncode == 1
    assert ("[FAILED] result[1]: i32 values differ\n  expected: 5\n"
            "  actual: 4\n") in ours.stdout
    ours = tools.ember("mixed", *flags, "--expected_output=(ignored)",
                       "--expected_output=(ignored)",
                       "--expected_output=4")
    assert ours.returncode == 1
    assert "expected output 2 '4'" in ours.stderr


def test_expected_outputs_from_the_oracles_files(tools):
    # iree-run-module's own output file is an expected-output file.
    theirs = tools.iree("add_sub", "--input=4xf32=1,2,3,4",
                        "--input=4xf32=0.5", "--output=@r.npy",
                        "--output=+r.npy")
    assert theirs.returncode == 0, theirs.stderr
    ours = tools.ember("add_sub", "--input=4xf32=1,2,3,4",
                       "--input=4xf32=0.5", "--expected_output=*r.npy")
    assert ours.returncode == 0, ours.stdout + ours.stderr
    ours = tools.ember("add_sub", "--input=4xf32=1,2,3,4",
                       "--input=4xf32=0.75", "--expected_output=*r.npy")
    assert ours.returncode == 1
    assert "[FAILED] result[0]" in ours.stdout
    assert "[FAILED] result[1]" in ours.stdout


# ---------------------------------------------------------------------------
# Hostile .npy files
# ---------------------------------------------------------------------------

def corrupt_files() -> dict[str, tuple[bytes, str]]:
    """name -> (file contents, a phrase the error must contain)."""
    good = npy_bytes(np.arange(4, dtype=np.int8))
    header_length = struct.unpack("<H", good[8:10])[0]

    def dict_file(shape, descr="|i1", order="False", data=b"\0" * 4):
        return header_npy(f"{{'descr': '{descr}', 'fortran_order': {order},"
                          f" 'shape': {shape}, }}", data)

    return {
        "empty": (b"", "the file is empty"),
        "short": (good[:5], "truncated header"),
        "bad_magic": (b"\x93NUMPZ" + good[6:], "magic"),
        "version_9": (good[:6] + b"\x09\x00" + good[8:], "version 9.0"),
        "header_past_eof": (good[:8] + struct.pack("<H", 60000) + good[10:],
                            "its length says 60000 bytes"),
        "absurd_header_length": (
            good[:6] + b"\x02\x00" + struct.pack("<I", 0xFFFFFFF0) +
            good[10:], "over the limit"),
        "cut_length": (good[:6] + b"\x02\x00" + b"\x10\x00", "cut off"),
        "truncated_data": (good[:-2], "truncated data"),
        "product_overflow": (
            dict_file("(4294967296, 4294967296, 4294967296)"), "overflow"),
        "huge_shape": (dict_file("(1000000000000,)", descr="<f8"),
                       "truncated data"),
        "huge_dimension": (dict_file("(99999999999999999999999999,)"),
                           "too large"),
        "rank_100": (dict_file("(" + "1, " * 100 + ")"), "64 dimensions"),
        "negative_dimension": (dict_file("(-4,)"), "malformed header"),
        "no_shape": (header_npy("{'descr': '|i1', 'fortran_order': False, }"),
                     "lacks"),
        "duplicate_key": (header_npy(
            "{'descr': '|i1', 'descr': '|i1', 'fortran_order': False, "
            "'shape': (4,), }", b"\0" * 4), "appears twice"),
        "trailing_text": (header_npy(
            "{'descr': '|i1', 'fortran_order': False, 'shape': (4,), } x",
            b"\0" * 4), "malformed header"),
        "garbage_header": (good[:10] + b"\0" * header_length +
                           good[10 + header_length:], "malformed header"),
        "fortran": (npy_bytes(np.asfortranarray(
            np.arange(6, dtype=np.int8).reshape(2, 3))), "Fortran"),
        "big_endian": (npy_bytes(np.arange(4, dtype=">i2")), "big-endian"),
        "object": (dict_file("(4,)", descr="|O", data=b"\0" * 32),
                   "dtype '|O' is not supported"),
        "unicode": (npy_bytes(np.array(["ab", "cd"])), "is not supported"),
        "structured": (npy_bytes(np.zeros(
            2, dtype=[("a", "<i4"), ("b", "<f4")])), "structured"),
        "float128": (dict_file("(4,)", descr="<f16", data=b"\0" * 64),
                     "dtype '<f16' is not supported"),
    }


CORRUPT = corrupt_files()


@pytest.mark.parametrize("name", sorted(CORRUPT))
def test_corrupt_npy_fails_with_a_clear_error(tools, name):
    data, phrase = CORRUPT[name]
    path = tools.path(f"bad_{name}.npy")
    path.write_bytes(data)
    for flags in ([f"--input=@{path.name}"],
                  ["--input=4xi8=1", f"--expected_output=@{path.name}"]):
        ours = tools.ember("double_i8", *flags)
        assert ours.returncode == 1, (ours.returncode, ours.stdout,
                                      ours.stderr)
        assert path.name in ours.stderr, ours.stderr
        assert phrase in ours.stderr, ours.stderr
        assert "Sanitizer" not in ours.stderr


def test_missing_and_unreadable_files(tools):
    ours = tools.ember("double_i8", "--input=@nowhere.npy")
    assert ours.returncode == 1
    assert "cannot open 'nowhere.npy'" in ours.stderr
    tools.path("dir.npy").mkdir()
    ours = tools.ember("double_i8", "--input=@dir.npy")
    assert ours.returncode == 1
    assert "'dir.npy' is not a regular file" in ours.stderr


def test_mutated_npy_files_never_crash(tools):
    # Seeded random damage to valid files (bytes changed, cut, inserted):
    # each run ends with success or a clean error (exit 0 or 1, text that
    # decodes), never a signal. Point $EMBER_RUN_MODULE at an
    # EMBER_SANITIZE=ON build to check memory safety as well.
    rng = np.random.default_rng(20240611)
    seeds = [npy_bytes(np.arange(4, dtype=np.int8)),
             npy_bytes(np.arange(4, dtype=np.int8), np.ones(4, np.int8))]
    path = tools.path("mutated.npy")
    for case in range(40):
        data = bytearray(seeds[case % len(seeds)])
        for _ in range(int(rng.integers(1, 5))):
            where = int(rng.integers(0, len(data) + 1))
            kind = rng.random()
            if kind < 0.5 and where < len(data):
                data[where] = int(rng.integers(0, 256))
            elif kind < 0.7:
                del data[where:]
            else:
                data[where:where] = rng.integers(0, 256, 4,
                                                 dtype=np.uint8).tobytes()
        path.write_bytes(bytes(data))
        ours = tools.ember("double_i8", "--input=*mutated.npy")
        assert ours.returncode in (0, 1), (case, bytes(data), ours.stderr)
        assert "Sanitizer" not in ours.stderr and "runtime error" not in (
            ours.stderr)
