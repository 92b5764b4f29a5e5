"""Random straight-line i32/f32 programs on Ember and on iree.runtime.

Ember's quickened copy rewrites arithmetic in ways that depend on which
instruction comes before which: constant operands become immediates, and an
operand that is the previous instruction's result is forwarded in a machine
register instead of reloaded (runtime/vm/bytecode/quickened_code.h). The op programs
in tests/corpus/vm/ cover each form; these generated programs cover the
combinations -- chains of dependent ops of every kind, constants on either
side, results reused several instructions later -- with edge-case inputs
(0, -1, INT32_MIN, NaNs with two payloads, infinities, -0.0, subnormals).

Every result is compared bit for bit with the oracle. f32 values travel as
their i32 bit patterns (vm.bitcast), so NaN payloads count too. vm.fma.f32
is left out: the iree-base-runtime 3.11 wheel rounds it twice (see
test_vm_ops_oracle.py). The programs come from a fixed seed, so a failure
reproduces; the module is compiled with the pinned iree-compile.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))

SEED = 20261202
FUNCTIONS = 24
OPS_PER_FUNCTION = 48

I32_BINARY = ["vm.add.i32", "vm.sub.i32", "vm.mul.i32", "vm.and.i32",
              "vm.or.i32", "vm.xor.i32", "vm.shl.i32", "vm.shr.i32.s",
              "vm.shr.i32.u"]
F32_BINARY = ["vm.add.f32", "vm.sub.f32", "vm.mul.f32", "vm.div.f32"]
# Small constants become immediates; 100000 and 1103515245 do not fit.
I32_CONSTANTS = [0, 1, 3, 7, 31, 255, -1, -16, 32767, -32768, 100000,
                 1103515245]
# bfloat16-exact (0.5, -2, 1.25, inf, NaN) and not (0.1, 1e10, 3 + 2^-22).
F32_CONSTANTS = ["0.5", "-2.0", "1.25", "0.0", "0x7F800000", "0x7FC00000",
                 "0.1", "1.0e10", "3.0000002384185791015625"]
INPUTS = [
    # a, b (i32); x, y (f32 bit patterns)
    [5, -7, 0x40400000, 0xBF400000],                  # 3.0, -0.75
    [0, -1, 0x00000000, 0x80000000],                  # +0.0, -0.0
    [-2**31, 2**31 - 1, 0x7F800000, 0xFF800000],      # inf, -inf
    [123456789, 31, 0x7FC00000, 0x7FC12345],         # NaNs, two payloads
    [1, 33, 0x00000001, 0x3F800001],                  # subnormal, 1 + ulp
    [-1000, 3, 0x4B7FFFFF, 0xC1200000],               # 16777215.0, -10.0
]


def _generate(rng: random.Random, name: str) -> str:
    lines = [f"  vm.export @{name}",
             f"  vm.func @{name}(%a: i32, %b: i32, %xb: i32, %yb: i32)"
             " -> (i32, i32, i32, i32) {"]
    counter = 0

    def fresh(prefix: str) -> str:
        nonlocal counter
        counter += 1
        return f"%{prefix}{counter}"

    i32 = ["%a", "%b"]
    f32 = []
    x = fresh("f")
    lines.append(f"    {x} = vm.bitcast.i32.f32 %xb : i32 -> f32")
    y = fresh("f")
    lines.append(f"    {y} = vm.bitcast.i32.f32 %yb : i32 -> f32")
    f32 += [x, y]
    i32_constants = []
    for value in rng.sample(I32_CONSTANTS, 6):
        c = fresh("k")
        lines.append(f"    {c} = vm.const.i32 {value}")
        i32_constants.append(c)
    f32_constants = []
    for value in rng.sample(F32_CONSTANTS, 5):
        c = fresh("g")
        lines.append(f"    {c} = vm.const.f32 {value}")
        f32_constants.append(c)

    # The body runs inside a two-iteration loop: constants stay live (and
    # in their own registers) throughout, which the copy needs to treat
    # them as immediates; the loop carries the four results.
    lines.append("    %zero = vm.const.i32 0")
    lines.append("    %one = vm.const.i32 1")
    lines.append("    %two = vm.const.i32 2")
    lines.append("    vm.br ^head(%zero, %zero, %zero, %zero, %zero : "
                 "i32, i32, i32, i32, i32)")
    lines.append("  ^head(%it: i32, %r0: i32, %r1: i32, %r2: i32, %r3: i32):")
    lines.append("    %more = vm.cmp.lt.i32.s %it, %two : i32")
    lines.append("    vm.cond_br %more, ^body, ^exit(%r0, %r1, %r2, %r3 : "
                 "i32, i32, i32, i32)")
    lines.append("  ^body:")
    i32.append("%r0")

    def pick(values, constants):
        roll = rng.random()
        if roll < 0.55:
            return values[-1]           # the previous result: forwarding
        if roll < 0.75 and constants:
            return rng.choice(constants)
        return rng.choice(values[-6:])

    for _ in range(OPS_PER_FUNCTION):
        kind = rng.random()
        if kind < 0.45:
            op = rng.choice(I32_BINARY)
            lhs, rhs = pick(i32, i32_constants), pick(i32, i32_constants)
            if rng.random() < 0.5:
                lhs, rhs = rhs, lhs
            r = fresh("i")
            lines.append(f"    {r} = {op} {lhs}, {rhs} : i32")
            i32.append(r)
        elif kind < 0.55:
            a, b, c = (pick(i32, i32_constants) for _ in range(3))
            r = fresh("i")
            lines.append(f"    {r} = vm.fma.i32 {a}, {b}, {c} : i32")
            i32.append(r)
        elif kind < 0.85:
            op = rng.choice(F32_BINARY)
            lhs, rhs = pick(f32, f32_constants), pick(f32, f32_constants)
            if rng.random() < 0.5:
                lhs, rhs = rhs, lhs
            r = fresh("f")
            lines.append(f"    {r} = {op} {lhs}, {rhs} : f32")
            f32.append(r)
        elif kind < 0.95:
            op = rng.choice(["vm.cast.si32.f32", "vm.cast.ui32.f32"])
            r = fresh("f")
            lines.append(f"    {r} = {op} {pick(i32, [])} : i32 -> f32")
            f32.append(r)
        else:
            r = fresh("i")
            lines.append(f"    {r} = vm.bitcast.f32.i32 {pick(f32, [])} : f32 -> i32")
            i32.append(r)
    # Fold every value into the results, so the compiler keeps all of them.
    fold_i = i32[0]
    for value in i32[1:]:
        r = fresh("i")
        lines.append(f"    {r} = vm.xor.i32 {fold_i}, {value} : i32")
        fold_i = r
    fold_f = None
    for value in f32:
        bits = fresh("i")
        lines.append(f"    {bits} = vm.bitcast.f32.i32 {value} : f32 -> i32")
        if fold_f is None:
            fold_f = bits
        else:
            r = fresh("i")
            lines.append(f"    {r} = vm.add.i32 {fold_f}, {bits} : i32")
            fold_f = r
    last_f = fresh("i")
    lines.append(f"    {last_f} = vm.bitcast.f32.i32 {f32[-1]} : f32 -> i32")
    lines.append("    %it1 = vm.add.i32 %it, %one : i32")
    lines.append(f"    vm.br ^head(%it1, {fold_i}, {fold_f}, {i32[-1]}, {last_f} : "
                 "i32, i32, i32, i32, i32)")
    lines.append("  ^exit(%o0: i32, %o1: i32, %o2: i32, %o3: i32):")
    lines.append("    vm.return %o0, %o1, %o2, %o3 : i32, i32, i32, i32")
    lines.append("  }")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def random_module(tmp_path_factory) -> tuple[Path, list[str]]:
    import ember_corpus
    rng = random.Random(SEED)
    names = [f"random_{i:02d}" for i in range(FUNCTIONS)]
    source = "vm.module @random_arithmetic {\n" + "\n".join(
        _generate(rng, name) for name in names) + "\n}\n"
    directory = tmp_path_factory.mktemp("random_arithmetic")
    mlir = directory / "random_arithmetic.mlir"
    mlir.write_text(source)
    vmfb = directory / "random_arithmetic.vmfb"
    compiler = ember_corpus.find_iree_compile()
    subprocess.run([compiler, "--compile-mode=vm", str(mlir), "-o", str(vmfb)],
                   check=True, capture_output=True, text=True)
    return vmfb, names


def _run(rt, vmfb: Path, names: list[str]) -> dict:
    instance = rt.VmInstance()
    module = rt.VmModule.copy_buffer(instance, vmfb.read_bytes())
    context = rt.VmContext(instance, [module])
    out = {}
    for name in names:
        function = module.lookup_function(name)
        assert function is not None, name
        for k, values in enumerate(INPUTS):
            args = rt.VmVariantList(4)
            for v in values:
                args.push_int(v - 2**32 if v >= 2**31 else v)  # as i32
            results = rt.VmVariantList(4)
            context.invoke(function, args, results)
            out[(name, k)] = [results.get_variant(i) & 0xFFFFFFFF
                              for i in range(len(results))]
    return out


def test_random_arithmetic_matches_iree(random_module, ember_rt, iree_rt):
    vmfb, names = random_module
    ember = _run(ember_rt, vmfb, names)
    oracle = _run(iree_rt, vmfb, names)
    assert len(ember) == FUNCTIONS * len(INPUTS)
    mismatches = [(key, ember[key], oracle[key]) for key in ember
                  if ember[key] != oracle[key]]
    assert not mismatches, mismatches[:5]


def test_random_programs_exercise_forwarding(random_module):
    """The compiled programs keep many adjacent dependent pairs -- the shape
    forwarding rewrites -- rather than the compiler folding them away, so
    the comparison above exercises it. (executable_code_test checks that
    such pairs are rewritten.)"""
    vmfb, _ = random_module
    tool = shutil.which("ember-dump-module")
    if tool is None:
        pytest.skip("the ember-dump-module console script is not on PATH")
    text = subprocess.run([tool, "--disassemble", str(vmfb)],
                          capture_output=True, text=True, check=True)
    previous_result = None
    adjacent = 0
    for line in text.stdout.splitlines():
        line = line.strip()
        if "] %" in line and " = vm." in line:
            body = line.split("] ", 1)[1]
            result, rest = body.split(" = ", 1)
            if previous_result and previous_result in rest.split(" ", 1)[-1].replace(",", " ").split():
                adjacent += 1
            previous_result = result
        else:
            previous_result = None
    assert adjacent > FUNCTIONS * 10
