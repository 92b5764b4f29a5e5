"""Mistakes in a call raise what iree.runtime 3.11 raises, with messages
that say where the mistake is; unusual but valid arrays work.

For each mistake the same call is made on the oracle (iree.runtime 3.11),
which must raise the class listed here (so the table stays true to
upstream), and on Ember, which must raise an instance of the oracle's
class (a subclass is allowed: code that catches upstream's class still
works).

Ember's messages are then held to more than upstream's: each should name
the function, the argument index, and expected against actual where the
runtime knows both. Each of those is a separate test id
(test_error_message[CASE-ASPECT]). An aspect a message cannot give yet
goes in the case's ``missing`` with the reason, which marks it
xfail(strict=True): a fix flips it to XPASS (a failure under strict) and
the entry is removed. None is missing today.
"""

from __future__ import annotations

import gc
import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pytest

import ember.runtime as rt
from conftest import compile_mlir

ABS_MLIR = """
func.func @abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.absf %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

X = np.array([-1.5, 2.0, -3.25, 4.0], np.float32)

# The function's name as a message might give it ('abs', module.abs, @abs).
FUNCTION = r"\babs\b"
# Argument 0 by index, or by the name the compiler gave it (%input0).
INDEX0 = r"argument 0\b|\binput0\b|arg(ument)? ?#?0\b"

@dataclass
class Case:
    call: Callable  # (bound module) -> result
    error: type  # what iree.runtime 3.11 raises
    # aspect -> the regexes that must all match Ember's message
    aspects: dict = field(default_factory=dict)
    # aspect -> reason Ember's message lacks it today (strict xfail)
    missing: dict = field(default_factory=dict)


CASES = {
    "no_arguments": Case(
        lambda m: m.abs(), ValueError,
        {"function": [FUNCTION], "count": [r"\b1\b", r"\b0\b"]}),
    "two_arguments": Case(
        lambda m: m.abs(X, X), ValueError,
        {"function": [FUNCTION], "count": [r"\b1\b", r"\b2\b"]}),
    "dtype_int32": Case(
        lambda m: m.abs(X.astype(np.int32)), ValueError,
        {"function": [FUNCTION], "index": [INDEX0],
         "expected_actual": [r"\bf32\b|float32", r"\bsi32\b|\bint32\b"]}),
    "dtype_float64": Case(
        lambda m: m.abs(X.astype(np.float64)), ValueError,
        {"function": [FUNCTION], "index": [INDEX0],
         "expected_actual": [r"\bf32\b|float32", r"\bf64\b|float64"]}),
    "dtype_big_endian": Case(
        lambda m: m.abs(X.astype(">f4")), ValueError,
        {"function": [FUNCTION], "index": [INDEX0],
         "expected_actual": [r">f4"]}),
    "shape_5": Case(
        lambda m: m.abs(np.zeros(5, np.float32)), ValueError,
        {"function": [FUNCTION], "index": [INDEX0],
         "expected_actual": [r"\b4\b", r"\b5\b"]}),
    "rank_2": Case(
        lambda m: m.abs(np.zeros((2, 2), np.float32)), ValueError,
        {"function": [FUNCTION], "index": [INDEX0],
         # The shapes, not only the ranks: upstream says "expected shape
         # `4`, actual shape `2x2`".
         "expected_actual": [r"2x2|\(2, ?2\)|\[2, ?2\]"]}),
    "object": Case(
        lambda m: m.abs(object()), ValueError,
        {"function": [FUNCTION], "index": [INDEX0],
         "actual": [r"\bobject\b"],
         "expected": [r"tensor|buffer.?view|array"]}),
    "none": Case(
        lambda m: m.abs(None), ValueError,
        {"function": [FUNCTION], "index": [INDEX0],
         "actual": [r"\bNone\b"]}),
    "python_list": Case(
        lambda m: m.abs([-1.0, 2.0, -3.0, 4.0]), ValueError,
        {"function": [FUNCTION], "index": [INDEX0],
         "actual": [r"\blist\b"]}),
    "python_int": Case(
        lambda m: m.abs(3), RuntimeError,
        {"function": [FUNCTION], "index": [INDEX0],
         "expected_actual": [r"tensor|buffer.?view|\bref\b",
                             r"\bint\b|\bvalue\b"]}),
}

ASPECT_PARAMS = [
    pytest.param(name, aspect, id=f"{name}-{aspect}",
                 marks=([pytest.mark.xfail(strict=True,
                                           reason=case.missing[aspect])]
                        if aspect in case.missing else []))
    for name, case in CASES.items() for aspect in case.aspects
]


@pytest.fixture(scope="module")
def abs_vmfb():
    return compile_mlir("leak_abs", ABS_MLIR)


@pytest.fixture(scope="module")
def ember_module(abs_vmfb):
    return rt.load_vm_flatbuffer_file(str(abs_vmfb), driver="local-sync")


@pytest.fixture(scope="module")
def oracle_module(abs_vmfb, iree_rt):
    return iree_rt.load_vm_flatbuffer_file(str(abs_vmfb), driver="local-sync")


def _raised(call: Callable, module) -> BaseException:
    try:
        call(module)
    except Exception as error:  # pylint: disable=broad-except
        return error
    pytest.fail("no exception raised")


@pytest.mark.parametrize("name", list(CASES))
def test_error_class_matches_oracle(name, ember_module, oracle_module):
    case = CASES[name]
    upstream = _raised(case.call, oracle_module)
    assert type(upstream) is case.error, (
        f"iree.runtime raised {type(upstream).__name__}: {upstream}")
    ours = _raised(case.call, ember_module)
    assert isinstance(ours, type(upstream)), (
        f"Ember raised {type(ours).__name__}, iree.runtime "
        f"{type(upstream).__name__}: {ours}")


@pytest.mark.parametrize("name,aspect", ASPECT_PARAMS)
def test_error_message(name, aspect, ember_module):
    case = CASES[name]
    message = str(_raised(case.call, ember_module))
    for pattern in case.aspects[aspect]:
        assert re.search(pattern, message), (
            f"{name}: the message should give the {aspect} "
            f"(/{pattern}/): {message!r}")


def test_error_leaves_the_module_usable(ember_module):
    for case in CASES.values():
        _raised(case.call, ember_module)
    np.testing.assert_array_equal(np.asarray(ember_module.abs(X)), np.abs(X))


# -- a context without the hal module -----------------------------------------


def _context_without_hal(runtime, path):
    instance = runtime.VmInstance()
    module = runtime.VmModule.mmap(instance, str(path))
    return runtime.VmContext(instance, modules=[module])


def _register_without_hal(runtime, path):
    instance = runtime.VmInstance()
    module = runtime.VmModule.mmap(instance, str(path))
    context = runtime.VmContext(instance)
    context.register_modules([module])


@pytest.mark.parametrize("make", [_context_without_hal,
                                  _register_without_hal],
                         ids=["VmContext", "register_modules"])
def test_missing_hal_module(make, abs_vmfb, iree_rt):
    upstream = _raised(lambda path: make(iree_rt, path), abs_vmfb)
    assert type(upstream) is ValueError, upstream
    ours = _raised(lambda path: make(rt, path), abs_vmfb)
    assert isinstance(ours, type(upstream)), f"{type(ours).__name__}: {ours}"
    message = str(ours)
    # Names the missing module and the module that needs it ("module", the
    # compiler's default name for a module without a name).
    assert re.search(r"'hal'", message), message
    assert re.search(r"'module'", message), message


# -- arrays that are valid but not C-contiguous and aligned -------------------


def _strided():
    return np.arange(-8, 8, dtype=np.float32)[::4]


def _reversed():
    return X[::-1]


def _fortran_column():
    return np.asfortranarray(np.stack([X, -X, X]).T)[:, 1]


def _transposed_row():
    return np.ascontiguousarray(np.stack([X, -X])).T[:, 1]


def _read_only():
    array = X.copy()
    array.flags.writeable = False
    return array


def _unaligned():
    storage = np.zeros(X.nbytes + 1, np.uint8)
    array = storage[1:].view(np.float32)
    array[:] = X
    assert array.ctypes.data % 4 != 0
    return array


def _zero_stride():
    return np.broadcast_to(np.float32(-2.5), (4,))


def _float32_subclass():
    return np.ma.masked_array(X, mask=False).filled()


ODD_ARRAYS = [_strided, _reversed, _fortran_column, _transposed_row,
              _read_only, _unaligned, _zero_stride, _float32_subclass]


@pytest.mark.parametrize("make", ODD_ARRAYS,
                         ids=[make.__name__.lstrip("_") for make in ODD_ARRAYS])
@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_odd_arrays_work(make, device, abs_vmfb):
    module = rt.load_vm_flatbuffer_file(str(abs_vmfb), driver=device)
    x = make()
    before = np.array(x, copy=True)
    result = np.asarray(module.abs(x))
    np.testing.assert_array_equal(result, np.abs(before))
    np.testing.assert_array_equal(x, before)  # the input is left alone


def test_result_outlives_its_input(ember_module):
    x = X.copy()
    result = ember_module.abs(x)
    x[:] = 100.0  # a later change to the input is not seen
    del x
    gc.collect()
    np.testing.assert_array_equal(np.asarray(result), np.abs(X))


def test_input_outlives_the_call(ember_module):
    # The call may keep (zero-copy) or copy its input; either way dropping
    # every reference afterwards must be safe, and the array stays correct.
    x = X.copy()
    results = [ember_module.abs(x) for _ in range(3)]
    np.testing.assert_array_equal(x, X)
    del results
    gc.collect()
    np.testing.assert_array_equal(np.asarray(ember_module.abs(x)), np.abs(X))


def test_declaration_parsing_is_bounded_and_total():
    # The declaration comes from the module file: odd or hostile text gives
    # fewer checks, never an exception or a slow parse.
    from ember.runtime.function import _declared_arguments
    huge_dim = "9" * 5000
    declared = _declared_arguments({
        "iree.abi.declaration":
            f"sync func @f(%a: tensor<{huge_dim}x4xf32>, %b: tensor<?x3xi8>,"
            " %c: i32, %d: tensor<f32>) -> (%r: tensor<4xf32>)"})
    assert [dims for _, dims, _ in declared] == [None, [-1, 3], None, []]
    # The element types checked before the call: whole-byte floats and
    # integers only (the unreadable first one is not a tensor here).
    assert [element for _, _, element in declared] == [None, "i8", None,
                                                       "f32"]
    odd = _declared_arguments({
        "iree.abi.declaration":
            "sync func @f(%a: tensor<4xi1>, %b: tensor<2xcomplex<f32>>, "
            "%c: tensor<3xf8E4M3FN>, %d: tensor<2xbf16>, %e: tensor<ui16>)"})
    assert [element for _, _, element in odd] == [None, None, None, "bf16",
                                                  "ui16"]
    assert _declared_arguments({}) == []
    assert _declared_arguments({"iree.abi.declaration": 7}) == []
    assert _declared_arguments(
        {"iree.abi.declaration": "x" * 100000}) == []
    nested = "sync func @f(" + "%a: tensor<" * 5000 + ")"
    assert len(_declared_arguments({"iree.abi.declaration": nested})) <= 5000
