"""vm.fpowi.f32 / vm.fpowi.f64 (iree-compile 3.12+) on Ember, bit for bit
against the official IREE 3.13 runtime.

The op exists only from 3.12, so neither the pinned compiler of the corpus
nor an in-process 3.11 iree.runtime can make or run it. This test takes both
from a 3.13 installation named by environment variables:

  EMBER_IREE313_COMPILE  an iree-compile of 3.12+ (e.g. /work/venv313/bin/
                         iree-compile); compiles the VM-only module below
  EMBER_IREE313_PYTHON   a Python interpreter with iree.runtime 3.13 (e.g.
                         /work/venv313/bin/python); runs the same module in a
                         subprocess as the oracle

and skips, saying which is missing, when either is unset or absent.

The module's functions take the base's bits and the exponent and return the
result's bits (vm.bitcast around vm.fpowi), so that inputs and outputs cross
the Python boundary exactly, NaN payloads and signed zeros included. The
grid covers the cases where a repeated-squaring implementation differs from
pow(): exponents truncated to 32 bits (2^31 + 1, 2^32 + 3, INT64_MIN,
INT64_MAX), large exponents whose rounding accumulates, overflow through an
infinite intermediate, subnormal bases and results, +-0, +-inf, quiet and
signalling NaNs, plus seeded random bits and exponents.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

MODULE_SOURCE = """
vm.module @fpowi {
  vm.func @powi_f32(%a : i32, %n : i64) -> i32 {
    %x = vm.bitcast.i32.f32 %a : i32 -> f32
    %r = vm.fpowi.f32 %x, %n : f32
    %o = vm.bitcast.f32.i32 %r : f32 -> i32
    vm.return %o : i32
  }
  vm.export @powi_f32
  vm.func @powi_f64(%a : i64, %n : i64) -> i64 {
    %x = vm.bitcast.i64.f64 %a : i64 -> f64
    %r = vm.fpowi.f64 %x, %n : f64
    %o = vm.bitcast.f64.i64 %r : f64 -> i64
    vm.return %o : i64
  }
  vm.export @powi_f64
}
"""

# Runs in the oracle's interpreter: reads {"module": path, "cases": [[fn,
# base bits (signed), exponent], ...]} from stdin, prints the result bits.
ORACLE_SCRIPT = """
import json, sys
import iree.runtime as rt
request = json.load(sys.stdin)
instance = rt.VmInstance()
module = rt.VmModule.mmap(instance, request["module"])
context = rt.VmContext(instance, [module])
functions = {name: module.lookup_function(name)
             for name in ("powi_f32", "powi_f64")}
out = []
for name, base, exponent in request["cases"]:
    args = rt.VmVariantList(2)
    args.push_int(base)
    args.push_int(exponent)
    results = rt.VmVariantList(1)
    context.invoke(functions[name], args, results)
    out.append(results.get_variant(0))
json.dump({"results": out}, sys.stdout)
"""

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1

EXPONENTS = [
    0, 1, -1, 2, -2, 3, -3, 7, -7, 10, 37, 100, -100, 127, -127, 128, -126,
    -149, -150, 149, 150, 1023, 1024, -1022, -1074, -1075, 1074, 1075, 12345,
    -12345, (1 << 31) - 1, -(1 << 31), 1 << 31, (1 << 31) + 1, 1 << 32,
    (1 << 32) + 3, -(1 << 32) - 3, (1 << 40) + 5, -((1 << 40) + 5), INT64_MAX,
    INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
]

F32_BASES = [
    0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x40000000, 0xC0000000,
    0x3F000000, 0x3F800001, 0x3F7FFFFF, 0x3F8CCCCD, 0xBF8CCCCD, 0x3DCCCCCD,
    0xC0400000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF,
    0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7FC00001,
    0xFFC00001, 0x7FA00000, 0xFF800001, 0x1F800000, 0x5F800000,
]

F64_BASES = [
    0x0000000000000000, 0x8000000000000000, 0x3FF0000000000000,
    0xBFF0000000000000, 0x4000000000000000, 0xC000000000000000,
    0x3FE0000000000000, 0x3FF0000000000001, 0x3FEFFFFFFFFFFFFF,
    0x3FF199999999999A, 0xBFF199999999999A, 0x3FB999999999999A,
    0xC008000000000000, 0x0000000000000001, 0x8000000000000001,
    0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF,
    0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
    0xFFF8000000000000, 0x7FF8000000000001, 0x7FF4000000000000,
    0xFFF0000000000001, 0x1FF0000000000000,
]


def _signed(bits: int, width: int) -> int:
    return bits - (1 << width) if bits >= 1 << (width - 1) else bits


def _cases() -> list:
    rng = random.Random(20261205)
    exponents = EXPONENTS + [rng.randint(-300, 300) for _ in range(12)] + [
        rng.randint(INT64_MIN, INT64_MAX) for _ in range(8)]
    f32 = F32_BASES + [rng.getrandbits(32) for _ in range(40)]
    f64 = F64_BASES + [rng.getrandbits(64) for _ in range(40)]
    # Random bases near 1, where large exponents neither overflow nor
    # underflow and the rounding of each squaring shows.
    f32 += [0x3F800000 + rng.randint(-4000, 4000) for _ in range(10)]
    f64 += [0x3FF0000000000000 + rng.randint(-(1 << 30), 1 << 30)
            for _ in range(10)]
    cases = [("powi_f32", _signed(b, 32), n) for b in f32 for n in exponents]
    cases += [("powi_f64", _signed(b, 64), n) for b in f64 for n in exponents]
    return cases


def _tool_from_env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"{name} is not set: it names the IREE 3.12+ tool this "
                    "test needs (vm.fpowi does not exist before 3.12)")
    if not Path(value).exists():
        pytest.skip(f"{name}={value} does not exist")
    return value


@pytest.fixture(scope="module")
def fpowi_module(tmp_path_factory) -> Path:
    compiler = _tool_from_env("EMBER_IREE313_COMPILE")
    _tool_from_env("EMBER_IREE313_PYTHON")
    directory = tmp_path_factory.mktemp("fpowi")
    source = directory / "fpowi.mlir"
    source.write_text(MODULE_SOURCE)
    output = directory / "fpowi.vmfb"
    result = subprocess.run(
        [compiler, "--compile-mode=vm", str(source), "-o", str(output)],
        capture_output=True, text=True)
    assert result.returncode == 0, f"iree-compile failed:\n{result.stderr}"
    # The op is there, encoded as 3.13 encodes it: the ExtF32 prefix 0xE0
    # with opcode 0x3E, the ExtF64 prefix 0xE1 with 0x40.
    listing = subprocess.run(
        [compiler, "--compile-mode=vm", "--output-format=vm-asm",
         str(source)], capture_output=True, text=True, check=True).stdout
    assert "vm.fpowi.f32" in listing and "vm.fpowi.f64" in listing
    return output


def _oracle(module: Path, cases: list) -> list:
    python = _tool_from_env("EMBER_IREE313_PYTHON")
    request = json.dumps({"module": str(module), "cases": cases})
    result = subprocess.run([python, "-c", ORACLE_SCRIPT], input=request,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"the oracle failed:\n{result.stderr}"
    return json.loads(result.stdout)["results"]


def _ember(rt, module: Path, cases: list) -> list:
    instance = rt.VmInstance()
    vm_module = rt.VmModule.mmap(instance, str(module))
    context = rt.VmContext(instance, [vm_module])
    functions = {name: vm_module.lookup_function(name)
                 for name in ("powi_f32", "powi_f64")}
    out = []
    for name, base, exponent in cases:
        args = rt.VmVariantList(2)
        args.push_int(base)
        args.push_int(exponent)
        results = rt.VmVariantList(1)
        context.invoke(functions[name], args, results)
        out.append(results.get_variant(0))
    return out


def test_the_module_holds_the_3_13_encoding(fpowi_module):
    data = fpowi_module.read_bytes()
    assert b"\xe0\x3e" in data, "no ExtF32 0x3E instruction in the module"
    assert b"\xe1\x40" in data, "no ExtF64 0x40 instruction in the module"


def test_fpowi_matches_the_official_runtime_bit_for_bit(ember_rt,
                                                        fpowi_module):
    cases = _cases()
    expected = _oracle(fpowi_module, cases)
    actual = _ember(ember_rt, fpowi_module, cases)
    assert len(expected) == len(actual) == len(cases)
    mismatches = []
    for (name, base, exponent), want, got in zip(cases, expected, actual):
        width = 32 if name.endswith("f32") else 64
        mask = (1 << width) - 1
        if (want & mask) != (got & mask):
            mismatches.append(
                f"{name}(0x{base & mask:0{width // 4}x}, {exponent}): "
                f"IREE 0x{want & mask:0{width // 4}x}, "
                f"Ember 0x{got & mask:0{width // 4}x}")
    assert not mismatches, (f"{len(mismatches)} of {len(cases)} differ:\n" +
                            "\n".join(mismatches[:20]))
    # The grid reaches the cases that set the op apart from pow(): some
    # results are NaN, infinite, zero and subnormal, and the exponent is
    # truncated to 32 bits (x^(2^32 + 3) is x^3, x^INT64_MIN is 1).
    f32 = [r & 0xFFFFFFFF for (n, _, _), r in zip(cases, expected)
           if n == "powi_f32"]
    assert any((r & 0x7F800000) == 0x7F800000 and r & 0x7FFFFF for r in f32)
    assert 0x7F800000 in f32 and 0 in f32
    assert any(0 < (r & 0x7FFFFFFF) < 0x00800000 for r in f32)
    by_case = {case: r for case, r in zip(cases, actual)}
    for name, base, exponent in cases:
        if exponent == (1 << 32) + 3:
            assert by_case[(name, base, exponent)] == by_case[(name, base, 3)]
        if exponent == INT64_MIN:
            one = 0x3F800000 if name == "powi_f32" else 0x3FF0000000000000
            assert by_case[(name, base, exponent)] == one
