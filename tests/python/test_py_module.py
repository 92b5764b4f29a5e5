"""PyModuleInterface: VM modules whose exports are Python callables.

Each scenario runs on Ember and on iree.runtime 3.11 (the `runtime` fixture)
and asserts the same results and exception types; where Ember deliberately
differs (it checks result counts, names module.function in its errors and
accepts any ref-protocol object as a ref result) the test says so and runs on
Ember alone.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest

from conftest import compile_mlir

import ember.runtime as ember_rt


@pytest.fixture(params=["ember", "iree"])
def runtime(request, iree_rt):
    return ember_rt if request.param == "ember" else iree_rt


def _identity_ctor(iface):
    return None


def _context(rt, *modules):
    return rt.VmContext(rt.VmInstance(), modules=modules)


def _invoke(rt, context, module, name, values=(), result_count=0):
    args = rt.VmVariantList(len(values))
    for value in values:
        if isinstance(value, float):
            args.push_float(value)
        elif isinstance(value, int):
            args.push_int(value)
        else:
            args.push_ref(value)
    results = rt.VmVariantList(result_count)
    context.invoke(module.lookup_function(name), args, results)
    return results


def test_lifecycle_and_str(runtime):
    iface = runtime.PyModuleInterface("life", _identity_ctor)
    assert str(iface) == "<iree.runtime.PyModuleInterface 'life'>"
    assert not iface.initialized and not iface.destroyed
    module = iface.create()
    assert iface.initialized and not iface.destroyed
    assert str(iface) == "<iree.runtime.PyModuleInterface 'life' initialized>"
    assert module.name == "life"
    with pytest.raises(RuntimeError, match="frozen"):
        iface.create()
    module = None
    gc.collect()
    assert iface.destroyed
    assert str(iface) == "<iree.runtime.PyModuleInterface 'life' destroyed>"


def test_ctor_runs_once_per_context_with_its_own_state(runtime):
    made = []

    class State:
        def __init__(self, iface):
            made.append(iface)
            self.count = 0

        def bump(self):
            self.count += 1
            return self.count

    iface = runtime.PyModuleInterface("counter", State)
    iface.export("bump", "0v_i", State.bump)
    module = iface.create()
    assert made == []
    c1 = _context(runtime, module)
    c2 = _context(runtime, module)
    assert len(made) == 2 and all(m is iface for m in made)
    assert [_invoke(runtime, c1, module, "bump", (), 1).get_variant(0)
            for _ in range(3)] == [1, 2, 3]
    assert _invoke(runtime, c2, module, "bump", (), 1).get_variant(0) == 1


def test_argument_and_result_types(runtime):
    seen = []

    def echo(state, *values):
        seen.append(values)
        return values if len(values) > 1 else values[0]

    iface = runtime.PyModuleInterface("types", _identity_ctor)
    iface.export("i32", "0ii_ii", echo)
    iface.export("i64", "0I_I", echo)
    iface.export("f64", "0FF_F", lambda state, a, b: echo(state, a, b)[0] * b)
    iface.export("unary", "0i_i", echo)
    module = iface.create()
    context = _context(runtime, module)
    out = _invoke(runtime, context, module, "i32", (-7, 2**31 - 1), 2)
    assert repr(out) == "<VmVariantList(2): [-7, 2147483647]>"
    out = _invoke(runtime, context, module, "i64", (-(2**62),), 1)
    assert out.get_variant(0) == -(2**62)
    out = _invoke(runtime, context, module, "f64", (0.1, -2.5), 1)
    assert out.get_variant(0) == 0.1 * -2.5
    assert _invoke(runtime, context, module, "unary", (5,), 1).get_variant(0) == 5
    assert seen == [(-7, 2**31 - 1), (-(2**62),), (0.1, -2.5), (5,)]
    assert all(type(v) in (int, float) for values in seen for v in values)


def test_several_f64_results_on_ember():
    # iree.runtime 3.11 writes every f64 result of a function with several
    # into the first slot (its packer does not advance after an f64), so
    # (0.1, -2.5) comes back as [-2.5, 0.0] there; Ember gets it right.
    iface = ember_rt.PyModuleInterface("f64s", _identity_ctor)
    iface.export("f", "0v_FF", lambda state: (0.1, -2.5))
    module = iface.create()
    out = _invoke(ember_rt, _context(ember_rt, module), module, "f", (), 2)
    assert [out.get_variant(0), out.get_variant(1)] == [0.1, -2.5]


def test_f32_results_round(runtime):
    iface = runtime.PyModuleInterface("f32", _identity_ctor)
    iface.export("third", "0v_f", lambda state: 1 / 3)
    module = iface.create()
    out = _invoke(runtime, _context(runtime, module), module, "third", (), 1)
    assert out.get_variant(0) == float(np.float32(1 / 3))


def test_ref_arguments_and_results_round_trip(runtime):
    def swap(state, a, b):
        assert isinstance(a, runtime.VmRef)
        return b, a

    iface = runtime.PyModuleInterface("refs", _identity_ctor)
    iface.export("swap", "0rr_rr", swap)
    module = iface.create()
    first = runtime.VmVariantList(1)
    first.push_int(1)
    second = runtime.VmVariantList(1)
    second.push_int(2)
    out = _invoke(runtime, _context(runtime, module), module, "swap",
                  (first, second), 2)
    assert repr(out) == "<VmVariantList(2): [List[2], List[1]]>"
    assert out.get_as_list(0).get_variant(0) == 2


def test_buffer_view_round_trip(runtime):
    device = runtime.get_device("local-sync")
    array = np.arange(6, dtype=np.float32).reshape(2, 3)
    view = device.allocator.allocate_buffer_copy(
        memory_type=runtime.MemoryType.DEVICE_LOCAL,
        allowed_usage=runtime.BufferUsage.DEFAULT, device=device, buffer=array,
        element_type=runtime.HalElementType.FLOAT_32)
    shapes = []

    def passthrough(state, ref):
        bv = ref.deref(runtime.HalBufferView)
        shapes.append(list(bv.shape))
        return ref

    iface = runtime.PyModuleInterface("bv", _identity_ctor)
    iface.export("pass", "0r_r", passthrough)
    module = iface.create()
    out = _invoke(runtime, _context(runtime, module), module, "pass", (view,),
                  1)
    assert shapes == [[2, 3]]
    back = out.get_as_object(0, runtime.HalBufferView)
    assert back == view


def test_python_exception_carries_type_message_and_traceback(runtime):
    def fail(state):
        raise ValueError("this came from Python")

    iface = runtime.PyModuleInterface("raiser", _identity_ctor)
    iface.export("fail", "0v_v", fail)
    module = iface.create()
    context = _context(runtime, module)
    with pytest.raises(RuntimeError,
                       match="ValueError: this came from Python") as info:
        _invoke(runtime, context, module, "fail")
    if runtime is ember_rt:
        text = str(info.value)
        assert "raiser.fail" in text
        assert "Traceback (most recent call last)" in text
        assert "in fail" in text


def test_ctor_exception(runtime):
    def ctor(iface):
        raise KeyError("no state")

    iface = runtime.PyModuleInterface("badctor", ctor)
    module = iface.create()
    with pytest.raises(RuntimeError, match="KeyError"):
        _context(runtime, module)


@pytest.mark.parametrize("cconv,value", [
    ("0v_i", "text"), ("0v_i", 1.5), ("0v_i", 2**40), ("0v_f", "x"),
    ("0v_r", None), ("0v_r", 3), ("0v_ii", (1, "two")), ("0v_ii", 7)
])
def test_wrong_result_types(runtime, cconv, value):
    iface = runtime.PyModuleInterface("wrong", _identity_ctor)
    iface.export("f", cconv, lambda state: value)
    module = iface.create()
    with pytest.raises(RuntimeError) as info:
        _invoke(runtime, _context(runtime, module), module, "f", (),
                len(cconv) - 3)
    if runtime is ember_rt:
        assert "wrong.f" in str(info.value)


def test_wrong_result_count_is_refused_by_ember():
    # iree.runtime reads only as many items as the cconv declares and
    # ignores the rest; Ember refuses the mismatch.
    iface = ember_rt.PyModuleInterface("count", _identity_ctor)
    iface.export("f", "0v_ii", lambda state: (1, 2, 3))
    module = iface.create()
    with pytest.raises(RuntimeError, match=r"count\.f returned 3 results"):
        _invoke(ember_rt, _context(ember_rt, module), module, "f", (), 2)


def test_wrong_result_names_the_index_on_ember():
    iface = ember_rt.PyModuleInterface("idx", _identity_ctor)
    iface.export("f", "0v_ii", lambda state: (1, "two"))
    module = iface.create()
    with pytest.raises(RuntimeError, match=r"idx\.f returned a str as result "
                       r"1, which must be an int in the i32 range"):
        _invoke(ember_rt, _context(ember_rt, module), module, "f", (), 2)


def test_ref_protocol_results_on_ember():
    # An Ember extension: any object with __iree_vm_ref__ is a ref result.
    iface = ember_rt.PyModuleInterface("proto", _identity_ctor)
    lst = ember_rt.VmVariantList(1)
    lst.push_int(9)
    iface.export("f", "0v_r", lambda state: lst)
    module = iface.create()
    out = _invoke(ember_rt, _context(ember_rt, module), module, "f", (), 1)
    assert out.get_as_list(0).get_variant(0) == 9


@pytest.mark.parametrize("cconv", ["0CiD_v", "0v_CiD"])
def test_variadic_cconv_is_refused(runtime, cconv):
    iface = runtime.PyModuleInterface("var", _identity_ctor)
    with pytest.raises(ValueError):
        iface.export("f", cconv, lambda state: None)


def test_other_cconv_version_is_unimplemented(runtime):
    iface = runtime.PyModuleInterface("ver", _identity_ctor)
    with pytest.raises(NotImplementedError):
        iface.export("f", "1i_i", lambda state, a: a)


@pytest.mark.parametrize("cconv", ["", "0x", "0i_q"])
def test_malformed_cconv_is_refused_at_export_by_ember(cconv):
    # iree.runtime 3.11 accepts these at export() and fails later, if ever.
    iface = ember_rt.PyModuleInterface("bad", _identity_ctor)
    with pytest.raises(ValueError, match="Unparsable calling convention"):
        iface.export("f", cconv, lambda state: None)


@pytest.mark.parametrize("cconv,canonical", [("0v", "0v_v"), ("0i", "0i_v"),
                                             ("0i_", "0i_v"), ("0_i", "0v_i"),
                                             ("0", "0v_v")])
def test_short_cconvs_work_and_are_spelled_out(runtime, cconv, canonical):
    iface = runtime.PyModuleInterface("short", _identity_ctor)
    iface.export("f", cconv, lambda state, *args: 7 if "_i" in canonical
                 else None)
    module = iface.create()
    args = [1] if canonical.startswith("0i") else []
    out = _invoke(runtime, _context(runtime, module), module, "f", args,
                  1 if canonical.endswith("_i") else 0)
    if canonical.endswith("_i"):
        assert out.get_variant(0) == 7
    # Ember declares the full spelling, the one compiled programs import
    # with; iree.runtime keeps the string as given.
    spelled = canonical if runtime is ember_rt else cconv
    assert repr(module.lookup_function("f")).startswith(
        f"<VmFunction f({spelled}),")


def test_duplicate_export_is_refused(runtime):
    iface = runtime.PyModuleInterface("dup", _identity_ctor)
    iface.export("f", "0v_v", lambda state: None)
    with pytest.raises(ValueError, match="already defined"):
        iface.export("f", "0v_v", lambda state: None)


def test_export_after_create_is_refused_by_ember():
    # Upstream appends to its frozen tables (undefined behaviour).
    iface = ember_rt.PyModuleInterface("late", _identity_ctor)
    module = iface.create()
    with pytest.raises(RuntimeError, match="frozen"):
        iface.export("f", "0v_v", lambda state: None)
    assert module.function_names == []


IMPORT_MLIR = """
module @prog {
  func.func private @pymod.add(i32, i32) -> i32
  func.func private @pymod.scale(f32) -> f32
  func.func @run(%a: i32, %b: i32, %x: f32) -> (i32, f32) {
    %0 = call @pymod.add(%a, %b) : (i32, i32) -> i32
    %1 = call @pymod.add(%0, %b) : (i32, i32) -> i32
    %2 = call @pymod.scale(%x) : (f32) -> f32
    return %1, %2 : i32, f32
  }
}
"""


@pytest.fixture(scope="module")
def import_vmfb() -> Path:
    return compile_mlir("py_module_import", IMPORT_MLIR)


def _import_module(rt):
    class State:
        def __init__(self, iface):
            self.calls = []

        def add(self, a, b):
            self.calls.append((a, b))
            return a + b

        def scale(self, x):
            return x * 2.5

    iface = rt.PyModuleInterface("pymod", State)
    iface.export("add", "0ii_i", State.add)
    iface.export("scale", "0f_f", State.scale)
    return iface, iface.create()


def test_compiled_program_calls_python_import(runtime, import_vmfb):
    iface, pymod = _import_module(runtime)
    config = runtime.Config("local-sync")
    program = runtime.VmModule.mmap(config.vm_instance, str(import_vmfb))
    context = runtime.SystemContext(vm_modules=[pymod, program], config=config)
    assert context.modules.prog.run(3, 4, 1.5) == (11, 3.75)
    # And straight through FunctionInvoker's sibling, VmContext.invoke.
    out = _invoke(runtime, context.vm_context, pymod, "add", (20, 22), 1)
    assert out.get_variant(0) == 42


def test_function_invoker_calls_python_exports(runtime):
    # A SystemContext binds the module's exports through FunctionInvoker.
    iface = runtime.PyModuleInterface("direct", _identity_ctor)
    iface.export("add", "0ii_i", lambda state, a, b: a + b)
    iface.export("halve", "0F_F", lambda state, x: x / 2)
    iface.export("same", "0r_r", lambda state, ref: ref)
    context = runtime.SystemContext(vm_modules=[iface.create()],
                                    config=runtime.Config("local-sync"))
    assert context.modules.direct.add(2, 3) == 5
    assert context.modules.direct.halve(3.0) == 1.5
    assert repr(context.modules.direct.same([4, 5])).startswith(
        "<VmRef vm.list")


def test_program_errors_from_python_import(runtime, import_vmfb):
    def ctor(iface):
        return None

    def add(state, a, b):
        raise ZeroDivisionError("nope")

    iface = runtime.PyModuleInterface("pymod", ctor)
    iface.export("add", "0ii_i", add)
    iface.export("scale", "0f_f", lambda state, x: x)
    config = runtime.Config("local-sync")
    program = runtime.VmModule.mmap(config.vm_instance, str(import_vmfb))
    context = runtime.SystemContext(vm_modules=[iface.create(), program],
                                    config=config)
    with pytest.raises(RuntimeError, match="ZeroDivisionError: nope"):
        context.modules.prog.run(1, 2, 1.0)


def test_four_threads_with_separate_contexts(import_vmfb):
    iface, pymod = _import_module(ember_rt)
    config = ember_rt.Config("local-sync")
    program = ember_rt.VmModule.mmap(config.vm_instance, str(import_vmfb))
    failures = []

    def worker(seed):
        try:
            context = ember_rt.SystemContext(vm_modules=[pymod, program],
                                             config=config)
            for i in range(200):
                got = context.modules.prog.run(seed, i, float(i))
                assert got == (seed + 2 * i, i * 2.5), got
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert failures == []


def test_refcounts_balanced():
    state = object()
    payload = object()
    calls = []

    def ctor(iface):
        return state

    def f(s, ref):
        calls.append(s is state)
        return ref

    iface = ember_rt.PyModuleInterface("rc", ctor)
    iface.export("f", "0r_r", f)
    lst = ember_rt.VmVariantList(1)
    gc.collect()
    before = (sys.getrefcount(state), sys.getrefcount(f),
              sys.getrefcount(ctor), sys.getrefcount(iface),
              sys.getrefcount(payload))
    module = iface.create()
    context = _context(ember_rt, module)
    for _ in range(50):
        _invoke(ember_rt, context, module, "f", (lst,), 1)
    assert calls == [True] * 50
    context = None
    module = None
    gc.collect()
    assert iface.destroyed
    after = (sys.getrefcount(state), sys.getrefcount(f),
             sys.getrefcount(ctor), sys.getrefcount(iface),
             sys.getrefcount(payload))
    assert after == before


def test_cycle_through_callable_is_collected():
    import weakref

    def make():
        iface = ember_rt.PyModuleInterface("cyc", _identity_ctor)
        # The callable refers back to the interface: a cycle.
        iface.export("f", "0v_v", lambda state: iface)
        return weakref.ref(iface)

    ref = make()
    gc.collect()
    assert ref() is None


EXIT_SCRIPT = textwrap.dedent("""
    import ember.runtime as rt

    def main():
        class State:
            def __init__(self, iface):
                self.iface = iface
            def f(self, a):
                return a + 1
        iface = rt.PyModuleInterface("m", State)
        iface.export("f", "0i_i", State.f)
        module = iface.create()
        context = rt.VmContext(rt.VmInstance(), modules=[module])
        args = rt.VmVariantList(1)
        args.push_int(1)
        out = rt.VmVariantList(1)
        context.invoke(module.lookup_function("f"), args, out)
        assert out.get_variant(0) == 2
        # A SystemContext is freed by the collector during interpreter
        # finalization (no gc.collect() here): the module must still give
        # its Python objects back then.
        system = rt.SystemContext(vm_modules=[module],
                                  config=rt.Config("local-sync"))
        assert system.modules.m.f(41) == 42
        print("ok")

    main()
""")


def test_no_leaked_instances_at_exit():
    package_root = str(Path(ember_rt.__file__).resolve().parents[2])
    result = subprocess.run([sys.executable, "-c", EXIT_SCRIPT],
                            capture_output=True, text=True, timeout=120,
                            env={"PYTHONPATH": package_root})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
    assert "leaked" not in result.stderr, result.stderr


def test_kept_function_does_not_keep_module_alive(runtime):
    # As in iree.runtime, a VmFunction does not keep the module's Python
    # side alive: dropping the module and its contexts destroys it.
    iface = runtime.PyModuleInterface("kept", _identity_ctor)
    iface.export("f", "0i_i", lambda state, a: a * 3)
    module = iface.create()
    context = _context(runtime, module)
    function = module.lookup_function("f")
    assert _invoke(runtime, context, module, "f", (5,), 1).get_variant(0) == 15
    context = None
    module = None
    gc.collect()
    assert iface.destroyed
    if runtime is ember_rt:
        # Ember's function still reads its metadata and refuses calls
        # cleanly (upstream's points at freed memory).
        assert function.name == "f"
        args = ember_rt.VmVariantList(1)
        args.push_int(5)
        with pytest.raises(ValueError, match="not registered"):
            ember_rt.VmContext(ember_rt.VmInstance()).invoke(
                function, args, ember_rt.VmVariantList(1))


def test_ref_result_whose_protocol_raises_on_ember():
    class Broken:
        @property
        def __iree_vm_ref__(self):
            raise OSError("broken ref")

    iface = ember_rt.PyModuleInterface("broken", _identity_ctor)
    iface.export("f", "0v_r", lambda state: Broken())
    module = iface.create()
    with pytest.raises(RuntimeError,
                       match=r"broken\.f returned a Broken as result 0.*"
                       r"broken ref"):
        _invoke(ember_rt, _context(ember_rt, module), module, "f", (), 1)


def test_threads_sharing_one_context_do_not_deadlock():
    # Calls on one context are serialised by its mutex, and each callback
    # takes the GIL while the mutex is held; no thread waits for the mutex
    # while holding the GIL, so this must finish.
    class State:
        def __init__(self, iface):
            self.total = 0

        def add(self, value):
            self.total += value
            return self.total

    iface = ember_rt.PyModuleInterface("shared", State)
    iface.export("add", "0i_i", State.add)
    module = iface.create()
    context = _context(ember_rt, module)
    failures = []

    def worker():
        try:
            for _ in range(300):
                _invoke(ember_rt, context, module, "add", (1,), 1)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert failures == []
    assert _invoke(ember_rt, context, module, "add", (0,), 1).get_variant(
        0) == 1200
