"""The high-level API (Config, SystemContext, load_vm_*, FunctionInvoker,
DeviceArray, asdevicearray) against iree.runtime 3.13: each scenario runs
with both packages and the outcomes (values, dtypes, shapes, reprs,
exception types) must agree. (A reflected result's dtype is a numpy dtype
in 3.13, so its repr says ``dtype=float32``; 3.11 gave the scalar type,
``dtype=<class 'numpy.float32'>``.)"""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import CPU_COMPILE_FLAGS, compile_mlir

DRIVER = "local-task"

PROGRAM = r"""
func.func @add_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @mul_i32(%a: tensor<2x3xi32>, %b: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = arith.muli %a, %b : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @neg_i64(%a: tensor<3xi64>) -> tensor<3xi64> {
  %z = arith.constant dense<0> : tensor<3xi64>
  %0 = arith.subi %z, %a : tensor<3xi64>
  return %0 : tensor<3xi64>
}
func.func @half_f64(%a: tensor<3xf64>) -> tensor<3xf64> {
  %h = arith.constant dense<0.5> : tensor<3xf64>
  %0 = arith.mulf %a, %h : tensor<3xf64>
  return %0 : tensor<3xf64>
}
func.func @not_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  %t = arith.constant dense<true> : tensor<4xi1>
  %0 = arith.xori %a, %t : tensor<4xi1>
  return %0 : tensor<4xi1>
}
func.func @sum_diff(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, i64) {
  %s = arith.addf %a, %b : tensor<4xf32>
  %d = arith.subf %a, %b : tensor<4xf32>
  %n = arith.constant 4 : i64
  return %s, %d, %n : tensor<4xf32>, tensor<4xf32>, i64
}
func.func @scalars(%a: i32, %b: i64, %c: f32, %d: f64) -> (i32, i64, f32, f64) {
  %a2 = arith.addi %a, %a : i32
  %b2 = arith.addi %b, %b : i64
  %c2 = arith.addf %c, %c : f32
  %d2 = arith.addf %d, %d : f64
  return %a2, %b2, %c2, %d2 : i32, i64, f32, f64
}
func.func @list_size(%l: !util.list<?>) -> index {
  %n = util.list.size %l : !util.list<?>
  return %n : index
}
func.func @sum_pair(%l: !util.list<?>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %va = util.list.get %l[%c0] : !util.list<?> -> !hal.buffer_view
  %vb = util.list.get %l[%c1] : !util.list<?> -> !hal.buffer_view
  %a = hal.tensor.import %va "l0" : !hal.buffer_view -> tensor<4xf32>
  %b = hal.tensor.import %vb "l1" : !hal.buffer_view -> tensor<4xf32>
  %s = arith.addf %a, %b : tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @make_list(%a: i64, %b: i64) -> !util.list<i64> {
  %l = util.list.construct [%a : i64, %b : i64] : !util.list<i64>
  return %l : !util.list<i64>
}
func.func @nothing() {
  return
}
func.func @refl(%a: tensor<4xf32>, %k: i32) -> (tensor<4xf32>, i32) attributes {
  iree.reflection = {iree.abi = "{\"a\": [[\"ndarray\", \"f32\", 1, 4], \"i32\"], \"r\": [[\"ndarray\", \"f32\", 1, 4], \"i32\"]}"}
} {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0, %k : tensor<4xf32>, i32
}
func.func @refl_named(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {
  iree.reflection = {iree.abi = "{\"a\": [[\"named\", \"x\", [\"ndarray\", \"f32\", 1, 4]], [\"named\", \"y\", [\"ndarray\", \"f32\", 1, 4]]], \"r\": [[\"stuple\", [\"ndarray\", \"f32\", 1, 4], [\"ndarray\", \"f32\", 1, 4]]]}"}
} {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0, %b : tensor<4xf32>, tensor<4xf32>
}
util.func public @add_async(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {
  iree.abi.model = "coarse-fences"
} {
  %0 = arith.addf %a, %b : tensor<4xf32>
  util.return %0 : tensor<4xf32>
}
"""


@pytest.fixture(scope="session")
def vmfb():
    return compile_mlir("system_api", PROGRAM, [
        *CPU_COMPILE_FLAGS, "--iree-input-demote-i64-to-i32=false"])


@pytest.fixture(scope="session")
def runtimes(ember_rt, iree_rt):
    return {"ember": ember_rt, "iree": iree_rt}


@pytest.fixture(scope="session")
def modules(runtimes, vmfb):
    return {name: rt.load_vm_flatbuffer_file(vmfb, driver=DRIVER)
            for name, rt in runtimes.items()}


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def describe(value):
    """A comparable description of a result (no addresses, no identity)."""
    if isinstance(value, tuple):
        return ("tuple", [describe(v) for v in value])
    if isinstance(value, list):
        return ("list", [describe(v) for v in value])
    kind = type(value).__name__
    if kind == "DeviceArray":
        host = value.to_host()
        return ("DeviceArray", repr(value), str(value.dtype),
                list(value.shape), str(host.dtype), host.tolist())
    if isinstance(value, np.ndarray):
        return ("ndarray", str(value.dtype), value.shape, value.tolist())
    if kind == "VmRef":
        return ("VmRef", _ADDRESS.sub("", repr(value)))
    if isinstance(value, (bool, int, float, str, type(None), np.generic)):
        return (kind, value)
    return (kind, "?")


def outcome(action):
    try:
        return ("ok", describe(action()))
    except Exception as error:  # pylint: disable=broad-except
        return ("raise", type(error).__name__)


def both(modules, runtimes, action):
    """Runs action(module, rt) with each runtime; returns (ember, iree)."""
    return tuple(outcome(lambda n=name: action(modules[n], runtimes[n]))
                 for name in ("ember", "iree"))


F4 = np.array([1.5, -2.0, 3.25, 4.0], np.float32)
G4 = np.array([0.5, 1.0, -1.0, 2.0], np.float32)

SCENARIOS = {
    "add_f32": lambda m, rt: m.add_f32(F4, G4),
    "add_f32_item_access": lambda m, rt: m["add_f32"](F4, G4),
    "mul_i32": lambda m, rt: m.mul_i32(np.arange(6, dtype=np.int32).reshape(2, 3),
                                       np.full((2, 3), 3, np.int32)),
    "neg_i64": lambda m, rt: m.neg_i64(np.array([1, -2, 2**40], np.int64)),
    "half_f64": lambda m, rt: m.half_f64(np.array([1.0, 3.0, -0.5])),
    "not_i1": lambda m, rt: m.not_i1(np.array([True, False, False, True])),
    "multiple_results": lambda m, rt: m.sum_diff(F4, G4),
    "scalars": lambda m, rt: m.scalars(3, 2**40, 1.25, 0.1),
    "scalars_int_truncation": lambda m, rt: m.scalars(2**33 + 5, -7, 2.0, 3.0),
    "scalars_float_for_int": lambda m, rt: m.scalars(3.9, 2, 1.0, 1.0),
    "list_arg": lambda m, rt: m.list_size([F4, 1, 2.5]),
    "tuple_arg": lambda m, rt: m.list_size((F4, G4)),
    "dict_arg": lambda m, rt: m.list_size({"b": 1, "a": F4}),
    "list_of_arrays": lambda m, rt: m.sum_pair([F4, G4]),
    "list_result": lambda m, rt: m.make_list(4, 5),
    "no_results": lambda m, rt: m.nothing(),
    "python_list_becomes_vm_list": lambda m, rt: m.add_f32(F4, F4.tolist()),
    "device_array_arg": lambda m, rt: m.add_f32(m.add_f32(F4, G4), G4),
    "asdevicearray_arg": lambda m, rt: m.add_f32(
        rt.asdevicearray(m._context.config.device, F4), G4),
    "buffer_view_arg": lambda m, rt: m.add_f32(
        rt.asdevicearray(m._context.config.device, F4)._buffer_view, G4),
    "numpy_scalar_arg": lambda m, rt: m.scalars(np.int32(1), 2, 3.0, 4.0),
    # Errors.
    "missing_function_attr": lambda m, rt: m.does_not_exist,
    "missing_function_item": lambda m, rt: m["does_not_exist"],
    "too_few_args": lambda m, rt: m.add_f32(F4),
    "too_many_args": lambda m, rt: m.add_f32(F4, G4, G4),
    "no_args": lambda m, rt: m.scalars(),
    "kwargs_dynamic": lambda m, rt: m.add_f32(F4, b=G4),
    "bool_scalar_arg": lambda m, rt: m.scalars(True, 2, 3.0, 4.0),
    "none_arg": lambda m, rt: m.add_f32(None, G4),
    "str_arg": lambda m, rt: m.add_f32("x", G4),
    "fence_arg": lambda m, rt: m.add_f32(F4, rt.HalFence(0)),
    "wrong_dtype": lambda m, rt: m.add_f32(F4.astype(np.int32), G4),
    # Reflection ("iree.abi") mode.
    "refl": lambda m, rt: m.refl(F4, 3),
    "refl_converts_dtype": lambda m, rt: m.refl(np.arange(4.0), 3),
    "refl_list_input": lambda m, rt: m.refl([1, 2, 3, 4], 3),
    "refl_named": lambda m, rt: m.refl_named(x=F4, y=G4),
    "refl_too_few": lambda m, rt: m.refl(F4),
    "refl_too_many": lambda m, rt: m.refl(F4, 1, 2),
    "refl_unknown_kwarg": lambda m, rt: m.refl(F4, k=1),
    "refl_float_for_int": lambda m, rt: m.refl(F4, 1.5),
    "refl_named_positional": lambda m, rt: m.refl_named(F4, G4),
}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_same_outcome_as_iree(scenario, modules, runtimes):
    ember, iree = both(modules, runtimes, SCENARIOS[scenario])
    assert ember == iree


def test_scenarios_really_ran(modules, runtimes):
    """Guards the comparison: the main scenarios succeed (not two equal
    failures) and give the expected numbers."""
    m = modules["ember"]
    np.testing.assert_allclose(m.add_f32(F4, G4).to_host(), F4 + G4)
    s, d, n = m.sum_diff(F4, G4)
    np.testing.assert_allclose(np.asarray(s), F4 + G4)
    np.testing.assert_allclose(np.asarray(d), F4 - G4)
    assert n == 4 and type(n) is int
    assert m.scalars(3, 2**40, 1.25, 0.1) == (6, 2**41, 2.5, 0.2)
    assert m.not_i1(np.array([True, False, False, True])).to_host().tolist() \
        == [False, True, True, False]
    assert m.list_size([F4, 1, 2.5]) == 3
    assert m.nothing() is None


def test_error_messages_name_function_and_argument(modules):
    m = modules["ember"]
    with pytest.raises(ValueError, match=r"argument 1 of 'add_f32'"):
        m.add_f32(F4, None)
    with pytest.raises(ValueError, match=r"argument 0\[1\] of 'list_size'"):
        m.list_size([F4, object()])
    with pytest.raises(ValueError, match="expected 2 arguments but passed 1"):
        m.add_f32(F4)
    with pytest.raises(AttributeError, match="does_not_exist"):
        m.does_not_exist  # pylint: disable=pointless-statement


def test_async_function(modules, runtimes):
    """coarse-fences functions: iree.runtime (3.11 and 3.13) cannot call
    them through FunctionInvoker (the VM sees two missing fence arguments,
    ValueError); Ember appends the fences and waits."""
    with pytest.raises(ValueError):
        modules["iree"].add_async(F4, G4)
    result = modules["ember"].add_async(F4, G4)
    expected = modules["iree"].add_f32(F4, G4)
    assert repr(result) == repr(expected)
    np.testing.assert_array_equal(result.to_host(), expected.to_host())
    with pytest.raises(ValueError):
        modules["ember"].add_async(F4)


def test_device_array(modules, runtimes):
    outcomes = {}
    for name, rt in runtimes.items():
        r = modules[name].mul_i32(np.arange(6, dtype=np.int32).reshape(2, 3),
                                  np.full((2, 3), 2, np.int32))
        assert isinstance(r, rt.DeviceArray)
        outcomes[name] = [
            outcome(lambda: r.shape), outcome(lambda: r.dtype),
            outcome(lambda: repr(r)), outcome(lambda: str(r)),
            outcome(lambda: np.asarray(r)), outcome(lambda: r.astype(np.float64)),
            outcome(lambda: r.astype(np.int32, copy=False) is r),
            outcome(lambda: r.reshape(3, 2)), outcome(lambda: np.reshape(r, (6,))),
            outcome(lambda: np.shape(r)), outcome(lambda: r[1]),
            outcome(lambda: r[1, 2]), outcome(lambda: list(r)),
            outcome(lambda: r + 1), outcome(lambda: r * r),
            outcome(lambda: np.sum(r)), outcome(lambda: len(r)),
            outcome(lambda: __import__("copy").deepcopy(r)),
            outcome(lambda: __import__("pickle").loads(
                __import__("pickle").dumps(r))),
        ]
    assert outcomes["ember"] == outcomes["iree"]
    # Beyond iree.runtime 3.11 and 3.13 (whose DeviceArray has neither):
    # numpy's size and ndim, read from the buffer view.
    r = modules["ember"].mul_i32(np.zeros((2, 3), np.int32),
                                 np.zeros((2, 3), np.int32))
    assert (r.size, r.ndim) == (6, 2)


def test_asdevicearray(runtimes):
    outcomes = {}
    for name, rt in runtimes.items():
        device = rt.get_device(DRIVER)
        a = rt.asdevicearray(device, [[1, 2], [3, 4]], dtype=np.int16)
        b = rt.asdevicearray(device, np.array([True, False]),
                             implicit_host_transfer=True)
        outcomes[name] = [
            outcome(lambda: repr(a)), outcome(lambda: a.to_host()),
            outcome(lambda: np.asarray(a)),  # no implicit transfer: ValueError
            outcome(lambda: rt.asdevicearray(device, a) is a),
            outcome(lambda: rt.asdevicearray(device, a, np.float32).to_host()),
            outcome(lambda: np.asarray(b)), outcome(lambda: b.dtype),
            outcome(lambda: rt.asdevicearray(device, np.array(["x"]))),
        ]
    assert outcomes["ember"] == outcomes["iree"]


def test_results_are_mapped_like_iree(modules):
    """Result buffers are host visible on CPU devices (the heap allocator
    widens parameters as IREE's does), so to_host maps instead of copying."""
    for name in ("ember", "iree"):
        r = modules[name].add_f32(F4, G4)
        r.to_host()
        assert r.is_host_accessible, name


def test_load_vm_flatbuffer_vs_file(vmfb, runtimes):
    data = vmfb.read_bytes()
    outcomes = {}
    for name, rt in runtimes.items():
        from_bytes = rt.load_vm_flatbuffer(data, driver=DRIVER)
        from_file = rt.load_vm_flatbuffer_file(vmfb, driver=DRIVER)
        by_backend = rt.load_vm_flatbuffer(data, backend="llvm-cpu")
        outcomes[name] = [
            repr(from_bytes), repr(from_file), from_bytes.name,
            from_file.vm_module.function_names,
            describe(from_bytes.add_f32(F4, G4)),
            describe(from_file.add_f32(F4, G4)),
            describe(by_backend.add_f32(F4, G4)),
            outcome(lambda: rt.load_vm_flatbuffer(data)),
            outcome(lambda: rt.load_vm_flatbuffer(data, driver=DRIVER,
                                                  backend="llvm-cpu")),
            outcome(lambda: rt.load_vm_flatbuffer(data, backend="nope")),
        ]
    assert outcomes["ember"] == outcomes["iree"]
    assert outcomes["ember"][4] == outcomes["ember"][5]


def test_system_context(vmfb, runtimes):
    outcomes = {}
    for name, rt in runtimes.items():
        config = rt.Config(DRIVER)
        assert isinstance(config.device, rt.HalDevice)
        assert isinstance(config.vm_instance, rt.VmInstance)
        ctx = rt.SystemContext(config=config)
        module = rt.VmModule.mmap(config.vm_instance, str(vmfb))
        before = sorted(ctx.modules)
        ctx.add_vm_module(module)
        static = rt.SystemContext(vm_modules=[module], config=config)
        outcomes[name] = [
            [m.name for m in config.default_vm_modules],
            before, sorted(ctx.modules), ctx.is_dynamic, static.is_dynamic,
            ctx.config is config, ctx.instance is config.vm_instance,
            type(ctx.vm_context).__name__, sorted(static.modules),
            repr(ctx.modules.module), repr(ctx.modules["module"]),
            repr(ctx.modules.module.add_f32),
            type(ctx.modules.module.add_f32).__name__,
            describe(ctx.modules.module.add_f32(F4, G4)),
            describe(static.modules.module["sum_diff"](F4, G4)),
            outcome(lambda: ctx.add_vm_module(module)),  # duplicate
            outcome(lambda: static.add_vm_module(module)),  # static
            outcome(lambda: ctx.modules.nope),
            outcome(lambda: rt.Config(DRIVER, device=config.device)),
            outcome(lambda: rt.Config("no-such-driver")),
            type(rt.load_vm_module(module, config)).__name__,
            [m.name for m in rt.load_vm_modules(module, config=config)],
        ]
    assert outcomes["ember"] == outcomes["iree"]


def test_devices_and_constants(runtimes, monkeypatch):
    ember, iree = runtimes["ember"], runtimes["iree"]
    assert ember.TARGET_BACKEND_TO_DRIVER == iree.TARGET_BACKEND_TO_DRIVER
    assert ember.system_setup.DEFAULT_DRIVER_NAMES == \
        iree.system_setup.DEFAULT_DRIVER_NAMES
    assert ember.get_device(DRIVER) is ember.get_device(DRIVER)
    assert ember.get_device(DRIVER, cache=False) is not ember.get_device(DRIVER)
    assert ember.get_first_device(["no-such", DRIVER]) is ember.get_device(DRIVER)
    monkeypatch.setenv("IREE_DEFAULT_DEVICE", f"no-such, {DRIVER}")
    assert ember.get_first_device() is ember.get_device(DRIVER)
    assert ember.Config().device is ember.get_device(DRIVER)
    for rt in (ember, iree):
        with pytest.raises(ValueError):
            rt.get_first_device(["no-such"])
    for name in ("normalize_value",):
        for value in (3, 2.5, True, [1], None, np.arange(2)):
            assert describe(getattr(ember, name)(value)) == \
                describe(getattr(iree, name)(value))


def test_public_names(ember_rt):
    for name in ("Config", "SystemContext", "load_vm_module", "load_vm_modules",
                 "load_vm_flatbuffer", "load_vm_flatbuffer_file",
                 "FunctionInvoker", "DeviceArray", "asdevicearray",
                 "get_device", "get_first_device", "TARGET_BACKEND_TO_DRIVER",
                 "normalize_value"):
        assert name in ember_rt.__all__
        assert hasattr(ember_rt, name)
    assert ember_rt.system_api.BoundModules.__mro__[1] is dict
