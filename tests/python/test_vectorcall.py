"""Bound functions are called through vectorcall (PEP 590): `f(x)` reaches
the native call path with the caller's argument array, no tuple built.

The type flag is checked directly, results and errors are compared with the
tp_call route (`type(f).__call__(f, x)`), and the fallbacks hold: a subclass
that defines `__call__` keeps it, an instance whose `__init__` never ran
raises TypeError, and functions served by the Python implementation still
take keyword arguments.
"""

from __future__ import annotations

import numpy as np
import pytest

import ember.runtime as rt
from conftest import compile_mlir
from ember.runtime.function import FunctionInvoker

# CPython's Py_TPFLAGS_HAVE_VECTORCALL.
HAVE_VECTORCALL = 1 << 11

ABS_MLIR = """
func.func @abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.absf %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

X = np.array([-1.5, 2.0, -3.25, 4.0], np.float32)


@pytest.fixture(scope="module")
def context():
    config = rt.Config("local-sync")
    ctx = rt.SystemContext(config=config)
    vm_module = rt.VmModule.mmap(ctx.instance,
                                 str(compile_mlir("leak_abs", ABS_MLIR)))
    ctx.add_vm_module(vm_module)
    return ctx, config, vm_module


def test_bound_functions_have_vectorcall(context):
    ctx, _, _ = context
    function = ctx.modules.module.abs
    assert isinstance(function, FunctionInvoker)
    assert type(function).__flags__ & HAVE_VECTORCALL


def test_vectorcall_and_tp_call_agree(context):
    ctx, _, _ = context
    function = ctx.modules.module.abs
    through_vectorcall = np.asarray(function(X))
    through_tp_call = np.asarray(type(function).__call__(function, X))
    np.testing.assert_array_equal(through_vectorcall, np.abs(X))
    np.testing.assert_array_equal(through_tp_call, np.abs(X))
    # Starred and argument-array calls take the same entry.
    np.testing.assert_array_equal(np.asarray(function(*[X])), np.abs(X))


@pytest.mark.parametrize("route", ["vectorcall", "tp_call"])
def test_errors_are_the_same_on_both_routes(context, route):
    ctx, _, _ = context
    function = ctx.modules.module.abs

    def call(*args, **kwargs):
        if route == "vectorcall":
            return function(*args, **kwargs)
        return type(function).__call__(function, *args, **kwargs)

    with pytest.raises(ValueError, match="expected 1 arguments but passed 2"):
        call(X, X)
    with pytest.raises(ValueError, match="kwargs not supported"):
        call(x=X)
    with pytest.raises(ValueError, match="expected shape 4, actual shape 5"):
        call(np.zeros(5, np.float32))
    # The function is still usable.
    np.testing.assert_array_equal(np.asarray(call(X)), np.abs(X))


def test_subclass_with_its_own_call_keeps_it(context):
    ctx, config, vm_module = context

    class Traced(FunctionInvoker):
        __slots__ = ()

        def __call__(self, *args):
            return ("traced", super().__call__(*args))

    traced = Traced(ctx.vm_context, config.device,
                    vm_module.lookup_function("abs"))
    assert not Traced.__flags__ & HAVE_VECTORCALL
    tag, result = traced(X)
    assert tag == "traced"
    np.testing.assert_array_equal(np.asarray(result), np.abs(X))


def test_uninitialized_invoker_raises_type_error():
    invoker = FunctionInvoker.__new__(FunctionInvoker)
    with pytest.raises(TypeError, match="not initialized"):
        invoker(X)
