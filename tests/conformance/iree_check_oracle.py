#!/usr/bin/env python3
"""Runs an IREE e2e check module on the official runtime, like a check tool.

    PYTHON_WITH_IREE_RUNTIME tests/conformance/iree_check_oracle.py
        --module=FILE.vmfb [--device=vulkan] [--list] [RUNTIME FLAGS...]

The official wheels (iree-base-runtime) ship no iree-check-module, so this
script stands in for it: it registers a `check` module written in Python
(iree.runtime.PyModuleInterface) that implements the five imports of IREE's
check programs as docs/hal-module.md ("The `check` module") describes them,
then runs every exported function of the program (skipping "__" names and
names with '$', which are internal) in a fresh VM context each, as the tool
does, and prints one gtest-style line per function:

    [ RUN      ] module.function
    Failure in module.function:          (each failed expectation, or
    <message>                             the error the call raised)
    [       OK ] module.function (N ms)   or   [  FAILED  ] ... (N ms)

and then "N passed, M failed", as ember-check-module does, so that
run_iree_e2e_tests.py --runner official reads it exactly as it reads
ember-check-module. Unknown "--flag=value" arguments are handed to the
runtime's flag parser (e.g. --vulkan_dispatch_abi=bda, a RUNNER_ARGS of
IREE's rules). Exit status: 0 when every function passed, 1 otherwise, 2 on
a usage or load error.

    ... iree_check_oracle.py --self-test=IREE_COMPILE --device=vulkan
        --compile-flag=--iree-hal-target-device=vulkan

compiles a built-in program whose `good_*` checks pass and `bad_*` checks
fail (each of the five imports), runs it, and fails unless every verdict
is right: run_iree_e2e_tests.py runs it before trusting this runner.

One device is created per process and shared by the tests (the C++ tool
makes one per test); a failed test cannot leave state behind in it other
than allocations that the context frees.
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

try:
    import iree.runtime as rt
except ImportError:  # pragma: no cover - depends on the interpreter
    sys.exit("iree.runtime not importable: run this with the venv's python "
             "(e.g. /work/venv313/bin/python)")

# How many elements of an operand a failure message prints.
PRINT_LIMIT = 16


def _float_decoder(exponent_bits: int, mantissa_bits: int, bias: int,
                   fnuz: bool, fn: bool):
    """Returns decode(code) for a small float format: `fnuz` formats have no
    negative zero and their only NaN is 0x80; `fn` formats have no infinity
    and NaN only where exponent and mantissa are all ones; the rest are IEEE
    (all-ones exponent: infinity or NaN)."""
    top = (1 << exponent_bits) - 1
    sign_bit = 1 << (exponent_bits + mantissa_bits)

    def decode(code: int) -> float:
        sign = -1.0 if code & sign_bit else 1.0
        exponent = (code >> mantissa_bits) & top
        mantissa = code & ((1 << mantissa_bits) - 1)
        if fnuz and code == sign_bit:
            return math.nan
        if fn and exponent == top and mantissa == (1 << mantissa_bits) - 1:
            return math.nan
        if not fn and not fnuz and exponent == top:
            return sign * math.inf if mantissa == 0 else math.nan
        if exponent == 0:
            return sign * mantissa * 2.0 ** (1 - bias - mantissa_bits)
        return sign * (1 + mantissa / (1 << mantissa_bits)) * 2.0 ** (
            exponent - bias)

    return decode


def _e8m0(code: int) -> float:
    return math.nan if code == 0xFF else 2.0 ** (code - 127)


ET = rt.HalElementType
# element type -> (numpy dtype of the storage, function of that array giving
# float64 values). f64 compares in double, every narrower float in float.
_FLOATS = {
    int(ET.FLOAT_64): (np.float64, lambda a: a),
    int(ET.FLOAT_32): (np.float32, lambda a: a.astype(np.float64)),
    int(ET.FLOAT_16): (np.float16, lambda a: a.astype(np.float64)),
    int(ET.BFLOAT_16): (np.uint16, lambda a: (a.astype(np.uint32) << 16)
                        .view(np.float32).astype(np.float64)),
}
for _name, _decode in [
        ("FLOAT_8_E5M2", _float_decoder(5, 2, 15, False, False)),
        ("FLOAT_8_E4M3_FN", _float_decoder(4, 3, 7, False, True)),
        ("FLOAT_8_E5M2_FNUZ", _float_decoder(5, 2, 16, True, False)),
        ("FLOAT_8_E4M3_FNUZ", _float_decoder(4, 3, 8, True, False)),
        ("FLOAT_8_E8M0_FNU", _e8m0)]:
    if hasattr(ET, _name):
        _table = np.array([_decode(c) for c in range(256)], dtype=np.float64)
        _FLOATS[int(getattr(ET, _name))] = (
            np.uint8, lambda a, t=_table: t[a.astype(np.intp)])


def _view(ref) -> "rt.HalBufferView":
    view = ref.deref(rt.HalBufferView)
    if view is None:
        raise ValueError("operand is not a buffer view")
    return view


# The device the tests run on (one per process); _bytes reads through it.
DEVICE = None
# Each read-back waits at most this long for the copy (ns).
COPY_TIMEOUT_NS = 60 * 10**9


def _bytes(view) -> np.ndarray:
    """The view's contents as bytes. A buffer the program allocated for
    dispatches only is not mappable, so it is copied on the device's queue
    into a host-visible staging buffer first (as IREE's check module reads
    operands through a transfer); a buffer that cannot be read is an error
    of the test, never a silent pass."""
    length = view.byte_length
    try:
        return np.array(view.map().asarray([length], np.dtype(np.uint8)))
    except RuntimeError:
        pass
    source = view.get_buffer()
    staging = DEVICE.allocator.allocate_buffer(
        memory_type=rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE,
        allowed_usage=rt.BufferUsage.TRANSFER | rt.BufferUsage.MAPPING,
        allocation_size=source.byte_length())
    done = rt.HalFence.create_at(DEVICE.create_semaphore(0), 1)
    DEVICE.queue_copy(source, staging, rt.HalFence(0), done)
    done.wait(timeout=COPY_TIMEOUT_NS)
    mapped = staging.map().asarray([source.byte_length()],
                                       np.dtype(np.uint8))
    return np.array(mapped[:length])


def _bits(element_type: int) -> int:
    return element_type & 0xFF


def _describe(view) -> str:
    shape = "x".join(str(d) for d in view.shape) or "scalar"
    et = int(view.element_type)
    raw = _bytes(view)
    if et in _FLOATS:
        dtype, widen = _FLOATS[et]
        values = widen(raw.view(dtype))[:PRINT_LIMIT].tolist()
    elif _bits(et) in (8, 16, 32, 64):
        values = raw.view(f"<u{_bits(et) // 8}")[:PRINT_LIMIT].tolist()
    else:
        values = raw[:PRINT_LIMIT].tolist()
    return f"{shape} type 0x{et:08x}: {values}"


class CheckModule:
    """The `check` imports; failures go to the class-level list that the
    runner drains after each test (one context per test)."""

    failures: list[str] = []

    def __init__(self, iface):
        del iface

    def expect_true(self, operand):
        if not operand:
            CheckModule.failures.append(f"Expected {operand} to be nonzero.")

    def expect_false(self, operand):
        if operand:
            CheckModule.failures.append(f"Expected {operand} to be zero.")

    def expect_all_true(self, device, operand):
        del device
        view = _view(operand)
        et = int(view.element_type)
        raw = _bytes(view)
        if et == int(ET.FLOAT_32) or et == int(ET.FLOAT_64):
            values = raw.view(np.float32 if et == int(ET.FLOAT_32)
                              else np.float64)
        elif et in _FLOATS or et == int(ET.BOOL_8) or _bits(et) not in (
                8, 16, 32, 64):
            raise ValueError(f"unsupported element type 0x{et:08x}")
        else:
            values = raw.view(f"<u{_bits(et) // 8}")
        zeros = np.flatnonzero(values == 0)
        if zeros.size:
            CheckModule.failures.append(
                f"Expected every element to be nonzero; element "
                f"{int(zeros[0])} is zero.\n  operand: {_describe(view)}")

    def expect_eq(self, device, lhs, rhs):
        del device
        a, b = _view(lhs), _view(rhs)
        problems = []
        if int(a.element_type) != int(b.element_type):
            problems.append("Element types do not match.")
        if list(a.shape) != list(b.shape):
            problems.append("Shapes do not match.")
        if not np.array_equal(_bytes(a), _bytes(b)):
            problems.append("Contents does not match.")
        if problems:
            CheckModule.failures.append(
                "Expected equality of these values. " + " ".join(problems) +
                f"\n  lhs: {_describe(a)}\n  rhs: {_describe(b)}")

    def expect_almost_eq(self, device, lhs, rhs, atol, rtol):
        del device
        a, b = _view(lhs), _view(rhs)
        et = int(a.element_type)
        problems = []
        if et != int(b.element_type):
            problems.append("Element types do not match.")
        if list(a.shape) != list(b.shape):
            problems.append("Shapes do not match.")
        if not problems:
            if et not in _FLOATS:
                raise ValueError(f"unsupported element type 0x{et:08x}")
            dtype, widen = _FLOATS[et]
            x = widen(_bytes(a).view(dtype))
            y = widen(_bytes(b).view(dtype))
            if et != int(ET.FLOAT_64):  # narrower floats compare in float
                x, y = x.astype(np.float32), y.astype(np.float32)
                atol, rtol = np.float32(atol), np.float32(rtol)
            with np.errstate(invalid="ignore", over="ignore"):
                close = ((x == y) |
                         (np.isfinite(y) &
                          (np.abs(x - y) <= atol + rtol * np.abs(y))) |
                         (np.isnan(x) & np.isnan(y)))
            bad = np.flatnonzero(~close)
            if bad.size:
                i = int(bad[0])
                problems.append(
                    f"Contents does not match to tolerance parameters "
                    f"atol={float(atol):g}, rtol={float(rtol):g}. The first "
                    f"failure occurs at index {i} as the lhs value "
                    f"{float(x[i]):g} differs from the rhs value "
                    f"{float(y[i]):g}.")
        if problems:
            CheckModule.failures.append(
                "Expected near equality of these values. " +
                " ".join(problems) +
                f"\n  lhs: {_describe(a)}\n  rhs: {_describe(b)}")


def check_module_interface():
    iface = rt.PyModuleInterface("check", CheckModule)
    iface.export("expect_true", "0i_v", CheckModule.expect_true)
    iface.export("expect_false", "0i_v", CheckModule.expect_false)
    iface.export("expect_all_true", "0rr_v", CheckModule.expect_all_true)
    iface.export("expect_eq", "0rrr_v", CheckModule.expect_eq)
    iface.export("expect_almost_eq", "0rrrff_v",
                 CheckModule.expect_almost_eq)
    return iface


# The self-test's program: each `good_*` function must pass and each `bad_*`
# one fail, so that a check import that silently does nothing (a misspelt
# export: every import is optional) or a read-back that compares the wrong
# bytes shows up before a suite is believed.
SELF_TEST_MLIR = """
func.func @good_eq() {
  %a = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = arith.addi %a, %a : tensor<3xi32>
  check.expect_eq_const(%b, dense<[2, 4, 6]> : tensor<3xi32>) : tensor<3xi32>
  return
}
func.func @bad_eq() {
  %a = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = arith.addi %a, %a : tensor<3xi32>
  check.expect_eq_const(%b, dense<[2, 4, 7]> : tensor<3xi32>) : tensor<3xi32>
  return
}
func.func @good_almost_eq() {
  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.addf %a, %a : tensor<2xf32>
  check.expect_almost_eq_const(%b, dense<[2.00001, 4.0]> : tensor<2xf32>)
      : tensor<2xf32>
  return
}
func.func @bad_almost_eq() {
  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.addf %a, %a : tensor<2xf32>
  check.expect_almost_eq_const(%b, dense<[2.0, 4.01]> : tensor<2xf32>)
      : tensor<2xf32>
  return
}
func.func @good_true() {
  %a = util.unfoldable_constant 7 : i32
  check.expect_true(%a) : i32
  return
}
func.func @bad_true() {
  %a = util.unfoldable_constant 0 : i32
  check.expect_true(%a) : i32
  return
}
func.func @good_false() {
  %a = util.unfoldable_constant 0 : i32
  check.expect_false(%a) : i32
  return
}
func.func @bad_false() {
  %a = util.unfoldable_constant 1 : i32
  check.expect_false(%a) : i32
  return
}
func.func @good_all_true() {
  %a = util.unfoldable_constant dense<[1, 5]> : tensor<2xi32>
  check.expect_all_true(%a) : tensor<2xi32>
  return
}
func.func @bad_all_true() {
  %a = util.unfoldable_constant dense<[1, 0]> : tensor<2xi32>
  check.expect_all_true(%a) : tensor<2xi32>
  return
}
"""


def self_test(compiler: str, compile_flags: list[str], device: str) -> int:
    """Compiles SELF_TEST_MLIR with `compiler` and `compile_flags`, runs it
    on `device` in a child process, and checks every verdict."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "self_test.mlir"
        module = Path(tmp) / "self_test.vmfb"
        source.write_text(SELF_TEST_MLIR)
        built = subprocess.run([compiler, *compile_flags, str(source), "-o",
                                str(module)], capture_output=True, text=True,
                               timeout=300)
        if built.returncode != 0:
            print(f"self-test: did not compile: {built.stderr.strip()}",
                  file=sys.stderr)
            return 1
        ran = subprocess.run([sys.executable, __file__, f"--module={module}",
                              f"--device={device}"], capture_output=True,
                             text=True, timeout=300)
    verdicts = dict((name, mark.strip() == "OK") for mark, name in
                    re.findall(r"^\[(       OK |  FAILED  )\] module\.(\S+)",
                               ran.stdout, re.M))
    expected = dict((name, name.startswith("good_")) for name in re.findall(
        r"func\.func @(\w+)", SELF_TEST_MLIR))
    if verdicts != expected:
        wrong = sorted(name for name in expected
                       if verdicts.get(name) != expected[name])
        print(f"self-test on {device} FAILED: wrong verdicts for "
              f"{', '.join(wrong)}\n{ran.stdout}{ran.stderr}",
              file=sys.stderr)
        return 1
    print(f"self-test on {device}: {len(expected)} verdicts as expected")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module")
    parser.add_argument("--device", default="vulkan")
    parser.add_argument("--list", action="store_true",
                        help="print the test functions and exit")
    parser.add_argument("--self-test", metavar="IREE_COMPILE",
                        help="prove this runner's checks can fail: compile "
                        "a program of passing and failing checks with "
                        "IREE_COMPILE and --compile-flag, run it on --device")
    parser.add_argument("--compile-flag", action="append", default=[],
                        help="(with --self-test) a flag for iree-compile")
    args, runtime_flags = parser.parse_known_args()
    if args.self_test:
        return self_test(args.self_test, args.compile_flag, args.device)
    if not args.module:
        parser.error("--module is required")
    for flag in runtime_flags:
        if not flag.startswith("--"):
            parser.error(f"unexpected argument {flag}")
    if runtime_flags:
        rt.flags.parse_flags(*runtime_flags)

    instance = rt.VmInstance()
    try:
        # A private writable copy, not a mapping of the file: compiled
        # programs may import their constants as buffers and then write into
        # them in place (tensor_ops/tensor_insert_slice does), which crashes
        # on a read-only file mapping.
        with open(args.module, "rb") as file:
            program = rt.VmModule.copy_buffer(instance, file.read())
    except (RuntimeError, ValueError, OSError) as error:
        print(f"cannot load {args.module}: {error}", file=sys.stderr)
        return 2
    tests = [name for name in program.function_names
             if not name.startswith("__") and "$" not in name]
    if args.list:
        print("\n".join(tests))
        return 0
    global DEVICE
    try:
        device = DEVICE = rt.get_device(args.device)
    except (RuntimeError, ValueError) as error:
        print(f"cannot create device {args.device}: {error}", file=sys.stderr)
        return 2
    iface = check_module_interface()
    check = iface.create()
    passed = failed = 0
    for name in tests:
        full = f"{program.name}.{name}"
        print(f"[ RUN      ] {full}", flush=True)
        CheckModule.failures = []
        start = time.monotonic()
        error = None
        try:
            hal = rt.create_hal_module(instance, device)
            context = rt.VmContext(instance, modules=(hal, check, program))
            function = program.lookup_function(name)
            context.invoke(function, rt.VmVariantList(0),
                           rt.VmVariantList(0))
            del context
        except (RuntimeError, ValueError) as raised:
            error = str(raised).strip()
        elapsed = int((time.monotonic() - start) * 1000)
        messages = list(CheckModule.failures)
        if error is not None:
            messages.append(error)
        for message in messages:
            print(f"Failure in {full}:\n{message}")
        if messages:
            failed += 1
            print(f"[  FAILED  ] {full} ({elapsed} ms)", flush=True)
        else:
            passed += 1
            print(f"[       OK ] {full} ({elapsed} ms)", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
