"""ember-run-module prints results exactly as iree-run-module 3.13 does.

Every element type IREE formats (integers of each width, signless, signed
and unsigned; i1; f16, bf16, f32, f64 including infinities, NaNs of either
sign, negative zero, subnormals and the doubles where IREE's bundled printf
departs from C's; the five f8 types; complex numbers and sub-byte integers,
which IREE prints as hex) and the elision of `--output_max_element_count`
on tensors of rank 0 to 3. The module returns constants, so only printing
is under test; stdout and the exit status must be identical.

The module is compiled here with the pinned iree-compile. The tool run is
$EMBER_RUN_MODULE when set (e.g. a build directory's ember-run-module),
else the installed one.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import compile_mlir, ember_run_module_command

TIMEOUT = 120


def constant(name: str, type_: str, values: str) -> str:
    # iree-compile 3.12+ accepts only signless integers in arith.constant;
    # flow.tensor.constant takes the signed and unsigned types as well.
    element = type_.rsplit("x", 1)[-1]
    op = ("flow.tensor.constant" if element[:2] in ("si", "ui")
          else "arith.constant")
    return (f"func.func @{name}() -> tensor<{type_}> {{\n"
            f"  %c = {op} dense<{values}> : tensor<{type_}>\n"
            f"  return %c : tensor<{type_}>\n}}\n")


# (function, result type, MLIR dense literal)
ELEMENT_CASES = [
    ("i8", "6xi8", "[-128, -1, 0, 1, 42, 127]"),
    ("i16", "4xi16", "[-32768, -1, 0, 32767]"),
    ("i32", "4xi32", "[-2147483648, -1, 0, 2147483647]"),
    ("i64", "4xi64",
     "[-9223372036854775808, -1, 0, 9223372036854775807]"),
    ("si8", "3xsi8", "[-128, 0, 127]"),
    ("si16", "3xsi16", "[-32768, 0, 32767]"),
    ("si32", "3xsi32", "[-2147483648, 0, 2147483647]"),
    ("si64", "3xsi64", "[-9223372036854775808, 0, 9223372036854775807]"),
    ("ui8", "4xui8", "[0, 1, 128, 255]"),
    ("ui16", "3xui16", "[0, 32768, 65535]"),
    ("ui32", "3xui32", "[0, 2147483648, 4294967295]"),
    ("ui64", "3xui64", "[0, 9223372036854775808, 18446744073709551615]"),
    ("i1", "5xi1", "[true, false, true, true, false]"),
    ("f16", "10xf16",
     "[65504.0, 0x0001, 0x03FF, -0.0, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0.1,"
     " 1000.5]"),
    ("bf16", "9xbf16",
     "[1.0e10, 0xFFC0, 0x0001, -3.0e38, 0.1, 0x7F80, 255.0, 257.0,"
     " 1.0e-5]"),
    ("f32", "20xf32",
     "[1.0e10, 1.0e-5, 0.1, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,"
     " -0.0, 123456.5, 999999.5, 1.0e6, 0x7F7FFFFF, 0x00000001, 0x00800000,"
     " 1.0e-4, 1.234e-5, 3.14159274, 9.9999949e5, 1234567.0, -7.0e-3]"),
    # 0x5C2B.., 0x223F.. and 0x116D.. are doubles that IREE's printf prints
    # as 1E+136, 1.00001E-143 and 9.99999E-225 (C's: 1.00001E+136, 1E-143,
    # 1E-224); then subnormals and the extremes.
    ("f64", "14xf64",
     "[0x5C2B843D272249FC, 0x223F37B75BF9D28C, 0x116D9CA6A522220F,"
     " 0x0000000000000001, 0x000FFFFFFFFFFFFF, 0x0010000000000000,"
     " 0x7FEFFFFFFFFFFFFF, 1.0e300, -2.5, 0.30000000000000004, 1.0e16,"
     " 0x7FF8000000000000, 0xFFF8000000000000, 0xFFF0000000000000]"),
    ("f8e4m3fn", "6xf8E4M3FN", "[1.0, -0.5, 448.0, 0x7F, 0x01, 0x80]"),
    ("f8e5m2", "6xf8E5M2", "[1.0, -0.5, 0x7C, 0x7F, 0x01, 0xFC]"),
    ("f8e5m2fnuz", "5xf8E5M2FNUZ", "[1.0, -0.5, 0x80, 0x7F, 0x01]"),
    ("f8e4m3fnuz", "5xf8E4M3FNUZ", "[1.0, -0.5, 0x80, 0x7F, 0x01]"),
    ("f8e8m0fnu", "5xf8E8M0FNU", "[0x00, 0x7F, 0x80, 0xFE, 0xFF]"),
]

# Tensors to elide: (function, result type, literal).
SHAPE_CASES = [
    ("rank0", "f32", "2.5"),
    ("rank1", "10xi32", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"),
    ("rank2", "3x4xi32",
     "[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]"),
    ("rank3", "2x3x4xi32",
     "[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]],"
     " [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]"),
    ("rank3_thin", "3x1x2xf32",
     "[[[0.5, 1.5]], [[2.5, 3.5]], [[4.5, 5.5]]]"),
]

MAX_COUNTS = [0, 1, 2, 3, 5, 7, 13, 100]

EXTRA_MLIR = """
func.func @special_scalars() -> (f32, f32, f32, f64, f64, f64) {
  %a = arith.constant 0x7FC00000 : f32
  %b = arith.constant 0xFF800000 : f32
  %c = arith.constant 1.0e10 : f32
  %d = arith.constant 1.0e136 : f64
  %e = arith.constant 0x0000000000000001 : f64
  %f = arith.constant -0.0 : f64
  return %a, %b, %c, %d, %e, %f : f32, f32, f32, f64, f64, f64
}
func.func @c64() -> tensor<2xcomplex<f32>> {
  %a = complex.constant [1.0 : f32, 2.0 : f32] : complex<f32>
  %t = tensor.from_elements %a, %a : tensor<2xcomplex<f32>>
  return %t : tensor<2xcomplex<f32>>
}
func.func @id_c128(%a: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  return %a : tensor<2xcomplex<f64>>
}
func.func @id_2x0x3(%a: tensor<2x0x3xi32>) -> tensor<2x0x3xi32> {
  return %a : tensor<2x0x3xi32>
}
func.func @id_0(%a: tensor<0xf32>) -> tensor<0xf32> {
  return %a : tensor<0xf32>
}
func.func @id_3x0(%a: tensor<3x0xi8>) -> tensor<3x0xi8> {
  return %a : tensor<3x0xi8>
}
func.func @i4() -> tensor<8xi4> {
  %c = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, -1]> : tensor<8xi4>
  return %c : tensor<8xi4>
}
func.func @i4_matrix() -> tensor<2x4xi4> {
  %c = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, -1]]> : tensor<2x4xi4>
  return %c : tensor<2x4xi4>
}
func.func @two_results() -> (tensor<2x2xf32>, tensor<3xi1>) {
  %a = arith.constant dense<[[1.0e7, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[true, false, true]> : tensor<3xi1>
  return %a, %b : tensor<2x2xf32>, tensor<3xi1>
}
"""

PRINT_MLIR = ("".join(constant(*case) for case in ELEMENT_CASES + SHAPE_CASES)
              + EXTRA_MLIR)

def run(argv, cwd):
    return subprocess.run([str(a) for a in argv], capture_output=True,
                          text=True, timeout=TIMEOUT, cwd=cwd)


@pytest.fixture(scope="module")
def print_module() -> Path:
    return compile_mlir("print_parity", PRINT_MLIR)


@pytest.fixture(scope="module")
def oracle(iree_run_module) -> str:
    return iree_run_module


def compare(module: Path, oracle: str, workdir: Path, function: str,
            *flags: str, expect_ok: bool = True) -> str:
    """Runs both tools; asserts the same stdout and exit status."""
    common = [f"--module={module}", f"--function={function}", *flags]
    iree = run([oracle, *common], workdir)
    ember = run([*ember_run_module_command(), *common], workdir)
    assert (iree.returncode == 0) == expect_ok, iree.stderr
    assert ember.returncode == iree.returncode, (
        f"ember exit {ember.returncode}, iree exit {iree.returncode}\n"
        f"ember stderr: {ember.stderr}\niree stderr: {iree.stderr}")
    assert ember.stdout == iree.stdout, (
        f"\nember: {ember.stdout!r}\niree:  {iree.stdout!r}")
    return iree.stdout


@pytest.mark.parametrize("function", [case[0] for case in ELEMENT_CASES])
def test_element_types(print_module, oracle, tmp_path, function):
    compare(print_module, oracle, tmp_path, function)


def test_scalar_floats(print_module, oracle, tmp_path):
    """Scalar results go through IREE's printf too (nan, -inf, 1e+10, its
    digits for large and subnormal doubles)."""
    out = compare(print_module, oracle, tmp_path, "special_scalars")
    assert "result[0]: f32=nan" in out


def test_complex_f32(print_module, oracle, tmp_path):
    out = compare(print_module, oracle, tmp_path, "c64")
    assert "2xcf64=0000803F00000040 0000803F00000040" in out


def test_complex_f64_from_npy(print_module, oracle, tmp_path):
    np.save(tmp_path / "c.npy", np.array([1 - 2j, 0.5 + 3j],
                                         dtype=np.complex128))
    out = compare(print_module, oracle, tmp_path, "id_c128",
                  "--input=@c.npy")
    assert "2xcf128=000000000000F03F00000000000000C0 " in out


def test_sub_byte_integers_fail_unless_elided(print_module, oracle, tmp_path):
    # IREE reads a byte per i4 element, so the packed data runs out: an
    # error, unless the element budget stops before the end of the data.
    compare(print_module, oracle, tmp_path, "i4", expect_ok=False)
    compare(print_module, oracle, tmp_path, "i4_matrix", expect_ok=False)
    compare(print_module, oracle, tmp_path, "i4_matrix",
            "--output_max_element_count=1", expect_ok=False)
    out = compare(print_module, oracle, tmp_path, "i4",
                  "--output_max_element_count=4")
    assert "8xi4=21 43 65 F7..." in out


@pytest.mark.parametrize("function", [case[0] for case in SHAPE_CASES])
@pytest.mark.parametrize("count", MAX_COUNTS)
def test_elision(print_module, oracle, tmp_path, function, count):
    compare(print_module, oracle, tmp_path, function,
            f"--output_max_element_count={count}")


@pytest.mark.parametrize("function,shape,dtype", [
    ("id_2x0x3", (2, 0, 3), np.int32),
    ("id_0", (0,), np.float32),
    ("id_3x0", (3, 0), np.int8),
])
@pytest.mark.parametrize("count", [None, 0, 1])
def test_empty_dimensions(print_module, oracle, tmp_path, function, shape,
                          dtype, count):
    # Outer brackets stay even around nothing: 2x0x3xsi32=[][].
    np.save(tmp_path / "e.npy", np.zeros(shape, dtype=dtype))
    flags = [] if count is None else [f"--output_max_element_count={count}"]
    compare(print_module, oracle, tmp_path, function, "--input=@e.npy",
            *flags)


@pytest.mark.parametrize("count", [None, 0, 2, 5])
def test_elision_per_result(print_module, oracle, tmp_path, count):
    # The budget is per tensor, not shared by the results.
    flags = [] if count is None else [f"--output_max_element_count={count}"]
    compare(print_module, oracle, tmp_path, "two_results", *flags)


def test_tensors_through_a_module_without_the_hal(oracle, tmp_path):
    """A pass-through compiles to a module that never imports `hal`; its
    tensor inputs still parse (into host memory) and print, as in IREE."""
    module = compile_mlir("pass_through", """
func.func @id(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
""")
    out = compare(module, oracle, tmp_path, "id", "--input=4xf32=1,2,3,4")
    assert out.splitlines()[-1] == "4xf32=1 2 3 4"


TRACE_MLIR = """
func.func @traced(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.absf %x : tensor<4xf32>
  %1 = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  flow.tensor.trace "abs_result" = [%0 : tensor<4xf32>, %1 : tensor<2x3xi32>]
  return %0 : tensor<4xf32>
}
"""


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_traces_go_to_stderr_as_iree_run_module(oracle, tmp_path, device):
    # flow.tensor.trace becomes hal.buffer_view.trace: both tools write it to
    # stderr with IREE's stdio sink format, the results to stdout.
    module = compile_mlir("print_trace", TRACE_MLIR)
    common = [f"--module={module}", "--function=traced",
              f"--device={device}", "--input=4xf32=-1,2,-3,4"]
    iree = run([oracle, *common], tmp_path)
    ember = run([*ember_run_module_command(), *common], tmp_path)
    assert iree.returncode == 0 and ember.returncode == 0, (
        iree.stderr, ember.stderr)
    assert ember.stdout == iree.stdout
    assert "=== abs_result ===" in iree.stderr
    assert ember.stderr == iree.stderr
