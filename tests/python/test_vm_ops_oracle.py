"""Runs Ember's VM op-family programs (tests/corpus/vm/ops_*.mlir) on the
official IREE runtime, the oracle: every `test_*` export must succeed and
every `fail_*` export must fail, each in a fresh context. This proves the
expectations written into the programs; runtime/vm/bytecode/op_conformance_test.cc
runs the same exports on Ember.

Exports named `test_ember_only_*` / `fail_ember_only_*` are skipped here
because IREE 3.11's interpreter is wrong for them (each carries a comment in
its program):
  * i64/f64 values passed to or returned from internal vm.call are truncated:
    its call/return copy one 32-bit register slot per operand;
  * vm.switch.i64 reads the selected case from the 32-bit register bank;
  * buffer element index -1 passes its unsigned bounds check
    ((offset + count) * size wraps to 0), so the store lands before the
    buffer instead of failing;
  * vm.fma.f32 is rounded twice (the PyPI build's vm_fma_f32 fuses only
    where the C library defines FP_FAST_FMAF); the op is defined as fused.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
VM_CORPUS = REPO_ROOT / "tests" / "corpus" / "vm"
OPS_SOURCES = sorted(VM_CORPUS.glob("ops_*.mlir"))
EMBER_ONLY_MARK = "_ember_only_"
EXPORT_RE = re.compile(r"^\s*vm\.export\s+@([A-Za-z0-9_]+)", re.MULTILINE)


def _exports(source: Path) -> list[str]:
    return [name for name in EXPORT_RE.findall(source.read_text())
            if name.startswith(("test_", "fail_"))]


def _cases():
    cases = []
    for source in OPS_SOURCES:
        for name in _exports(source):
            cases.append(pytest.param(source.stem, name,
                                      id=f"{source.stem}.{name}"))
    return cases


def test_ops_programs_exist():
    assert OPS_SOURCES, f"no ops_*.mlir programs under {VM_CORPUS}"
    for source in OPS_SOURCES:
        assert _exports(source), f"{source.name} has no test_/fail_ exports"


@pytest.fixture(scope="session")
def oracle_modules(corpus_by_name, iree_rt):
    """Corpus program name -> (instance, module) on the official runtime."""
    instance = iree_rt.VmInstance()
    cache = {}

    def load(stem: str):
        name = f"vm_{stem}"
        if name not in cache:
            assert name in corpus_by_name, f"{name} missing from the corpus"
            path = corpus_by_name[name]["forms"]["embedded"]
            cache[name] = iree_rt.VmModule.mmap(instance, str(path))
        return instance, cache[name]

    return load


@pytest.mark.parametrize("stem,function", _cases())
def test_oracle(stem, function, oracle_modules, iree_rt):
    if function.startswith(("test" + EMBER_ONLY_MARK, "fail" + EMBER_ONLY_MARK)):
        pytest.skip("IREE 3.11 gets this wrong (see the comment on the "
                    "function and this file's docstring); checked on Ember only")
    instance, module = oracle_modules(stem)
    context = iree_rt.VmContext(instance, modules=[module])
    handle = module.lookup_function(function)
    assert handle is not None, f"{stem} does not export {function}"
    error = None
    try:
        context.invoke(handle, iree_rt.VmVariantList(0),
                       iree_rt.VmVariantList(0))
    except Exception as exc:  # the runtime raises RuntimeError subclasses
        error = exc
    if function.startswith("fail_"):
        assert error is not None, f"{stem}.{function} succeeded on the oracle"
    else:
        assert error is None, f"{stem}.{function} failed on the oracle: {error}"
