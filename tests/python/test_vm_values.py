"""VmVariantList, VmRef and VmBuffer against the official runtime.

Every scenario that both runtimes can run is run on both, and the results
(reprs with addresses masked, element values, exception types) must agree.
The rest checks what only Ember promises explicitly: the buffer protocol
writes through to the vm.buffer, Python objects are not retained by lists,
native objects are freed with their last owner, hostile sizes fail cleanly,
and separate lists can be used from many threads at once.
"""

from __future__ import annotations

import ctypes
import gc
import math
import re
import sys
import threading
import weakref

import numpy as np
import pytest

from conftest import import_oracle_runtime

import ember._ember as ember_native


class _EmberValues:
    """The value classes, from ember.runtime once it exports them."""

    def __getattr__(self, name):
        import ember.runtime as rt
        return getattr(rt, name, None) or getattr(ember_native, name)


@pytest.fixture(scope="module")
def ev():
    return _EmberValues()


_iree_instances = []


@pytest.fixture(scope="module")
def irt():
    rt = import_oracle_runtime()
    # IREE registers vm.buffer / vm.list (and so gives them a type id) only
    # when an instance exists; keep one alive for the module's tests.
    _iree_instances.append(rt.VmInstance())
    return rt


@pytest.fixture(scope="module", params=["ember", "iree"])
def any_rt(request, ev):
    if request.param == "ember":
        return ev
    return request.getfixturevalue("irt")


def masked(rt, text: str) -> str:
    """A repr with its addresses and type ids made runtime-independent."""
    text = re.sub(r"0x[0-9a-f]+", "0xADDR", text)
    buffer_type = rt.VmBuffer.__iree_vm_type__()
    return text.replace(f"Unknown({buffer_type})", "Unknown(vm.buffer)")


# ---------------------------------------------------------------------------
# Scenarios run on both runtimes.
# ---------------------------------------------------------------------------


def scenario_empty(rt):
    return rt.VmVariantList(0)


def scenario_scalars(rt):
    values = rt.VmVariantList(4)
    values.push_int(1)
    values.push_float(2.0)
    values.push_int(-(2**63))
    values.push_int(2**63 - 1)
    values.push_int(True)
    values.push_float(3)  # an int is accepted as a float
    for f in (1e20, 0.1, 1e-7, -0.0, float("inf"), float("-inf"),
              float("nan"), 123456789.125):
        values.push_float(f)
    return values


def scenario_nested(rt):
    inner = rt.VmVariantList(2)
    inner.push_int(7)
    inner.push_float(0.5)
    middle = rt.VmVariantList(1)
    middle.push_list(inner)
    middle.push_int(-3)
    outer = rt.VmVariantList(0)
    outer.push_list(middle)
    outer.push_list(rt.VmVariantList(0))
    outer.push_int(9)
    return outer


def scenario_shared_sublist(rt):
    # IREE's printer never forgets a visited list, so a list that is merely
    # shared prints as circular the second time.
    shared = rt.VmVariantList(1)
    shared.push_int(1)
    outer = rt.VmVariantList(2)
    outer.push_list(shared)
    outer.push_list(shared)
    return outer


def scenario_self_containing(rt):
    cycle = rt.VmVariantList(1)
    cycle.push_int(5)
    cycle.push_list(cycle)
    return cycle


def scenario_buffers(rt):
    refs = rt.VmVariantList(3)
    refs.push_ref(rt.VmBuffer(16))
    refs.push_ref(rt.VmBuffer(0, alignment=64, mutable=False).ref)
    refs.push_int(4)
    return refs


SCENARIOS = [
    scenario_empty, scenario_scalars, scenario_nested, scenario_shared_sublist,
    scenario_self_containing, scenario_buffers,
]


def describe_variant(rt, value):
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    if isinstance(value, (int, float)) or value is None:
        return (type(value).__name__, repr(value))
    return (type(value).__name__, masked(rt, repr(value)))


def describe(rt, values) -> dict:
    return {
        "repr": masked(rt, repr(values)),
        "size": values.size,
        "len": len(values),
        "variants": [describe_variant(rt, values.get_variant(i))
                     for i in range(len(values))],
    }


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__)
def test_scenario_matches_iree(scenario, ev, irt):
    assert describe(ev, scenario(ev)) == describe(irt, scenario(irt))


def test_repr_verbatim(ev):
    values = ev.VmVariantList(2)
    values.push_int(1)
    values.push_float(2.0)
    assert repr(values) == "<VmVariantList(2): [1, 2.000000]>"
    outer = ev.VmVariantList(0)
    outer.push_list(values)
    assert repr(outer) == "<VmVariantList(1): [List[1, 2.000000]]>"


def test_unknown_ref_prints_type_id(ev):
    values = ev.VmVariantList(1)
    values.push_ref(ev.VmBuffer(1))
    assert repr(values) == (
        f"<VmVariantList(1): [Unknown({ev.VmBuffer.__iree_vm_type__()})]>")


def test_deep_nesting_repr_is_bounded(ev):
    inner = ev.VmVariantList(1)
    inner.push_int(1)
    for _ in range(2000):
        outer = ev.VmVariantList(1)
        outer.push_list(inner)
        inner = outer
    text = repr(inner)
    assert text.startswith("<VmVariantList(1): [List[List[")
    assert "List[...]" in text
    assert len(text) < 10_000


def test_get_variant_types(ev):
    values = scenario_buffers(ev)
    first = values.get_variant(0)
    assert type(first).__name__ == "VmRef"
    assert first.isinstance(ev.VmBuffer)
    assert values.get_variant(2) == 4
    scalars = scenario_scalars(ev)
    assert scalars.get_variant(0) == 1 and type(scalars.get_variant(0)) is int
    assert scalars.get_variant(1) == 2.0
    assert type(scalars.get_variant(1)) is float
    assert scalars.get_variant(2) == -(2**63)
    assert math.copysign(1.0, scalars.get_variant(9)) == -1.0


def test_serialized_trace_value_matches_iree(ev, irt):
    for rt_pair in [(ev, irt)]:
        results = []
        for rt in rt_pair:
            values = scenario_nested(rt)
            values.push_float(1.5)
            results.append([values.get_serialized_trace_value(i)
                            for i in range(len(values))])
        assert results[0] == results[1]
    for rt in (ev, irt):
        with pytest.raises(ValueError):
            scenario_buffers(rt).get_serialized_trace_value(0)


# ---------------------------------------------------------------------------
# Element access and its errors.
# ---------------------------------------------------------------------------


def test_get_as_list_and_object(any_rt):
    rt = any_rt
    inner = rt.VmVariantList(1)
    inner.push_int(42)
    buffer = rt.VmBuffer(8)
    values = rt.VmVariantList(2)
    values.push_list(inner)
    values.push_ref(buffer)
    got = values.get_as_list(0)
    assert got == inner and got is not inner
    assert got.get_variant(0) == 42
    assert values.get_as_object(0, rt.VmVariantList) == inner
    assert values.get_as_object(0, rt.VmBuffer) is None
    cast = values.get_as_object(1, rt.VmBuffer)
    assert cast == buffer and cast is not buffer
    assert values.get_as_object(1, rt.VmVariantList) is None
    assert values.get_as_ref(1) == buffer.ref
    # A list reached through the parent is the same list: writes show.
    got.push_int(43)
    assert len(inner) == 2


ERROR_CASES = {
    "get_variant_out_of_range": (lambda rt, l: l.get_variant(3), IndexError),
    "get_variant_negative": (lambda rt, l: l.get_variant(-1), IndexError),
    "get_as_ref_out_of_range": (lambda rt, l: l.get_as_ref(3), IndexError),
    "get_as_list_out_of_range": (lambda rt, l: l.get_as_list(3), IndexError),
    "get_as_object_out_of_range":
        (lambda rt, l: l.get_as_object(3, rt.VmBuffer), IndexError),
    "get_as_ref_of_int": (lambda rt, l: l.get_as_ref(0), ValueError),
    "get_as_object_of_int":
        (lambda rt, l: l.get_as_object(0, rt.VmBuffer), ValueError),
    "get_as_list_of_int": (lambda rt, l: l.get_as_list(0), RuntimeError),
    "get_as_list_of_buffer": (lambda rt, l: l.get_as_list(2), ValueError),
    "get_as_object_needs_clazz": (lambda rt, l: l.get_as_object(0), TypeError),
    "get_as_object_positional_only":
        (lambda rt, l: l.get_as_object(0, clazz=rt.VmBuffer), TypeError),
    "push_int_positional_only": (lambda rt, l: l.push_int(value=1), TypeError),
    "get_variant_positional_only":
        (lambda rt, l: l.get_variant(index=0), TypeError),
    "push_int_too_big": (lambda rt, l: l.push_int(2**63), TypeError),
    "push_float_str": (lambda rt, l: l.push_float("x"), TypeError),
    "push_list_of_buffer":
        (lambda rt, l: l.push_list(rt.VmBuffer(1)), TypeError),
    "push_ref_without_protocol": (lambda rt, l: l.push_ref(5), AttributeError),
    "push_ref_bad_protocol":
        (lambda rt, l: l.push_ref(type("Bad", (), {"__iree_vm_ref__": 5})()),
         RuntimeError),
    "deref_wrong_type":
        (lambda rt, l: l.get_as_ref(2).deref(rt.VmVariantList), TypeError),
    "deref_non_wrapper": (lambda rt, l: l.get_as_ref(2).deref(5),
                          AttributeError),
    "isinstance_non_wrapper":
        (lambda rt, l: l.get_as_ref(2).isinstance(5), AttributeError),
    "vmref_constructor": (lambda rt, l: rt.VmRef(), TypeError),
    "list_negative_capacity": (lambda rt, l: rt.VmVariantList(-1), TypeError),
    "list_huge_capacity":
        (lambda rt, l: rt.VmVariantList(1 << 40), RuntimeError),
    "list_capacity_overflow":
        (lambda rt, l: rt.VmVariantList(1 << 64), TypeError),
    "buffer_negative_length": (lambda rt, l: rt.VmBuffer(-1), TypeError),
    "buffer_huge_length": (lambda rt, l: rt.VmBuffer(1 << 40), RuntimeError),
    "buffer_length_overflow": (lambda rt, l: rt.VmBuffer(1 << 64), TypeError),
    "buffer_bad_alignment":
        (lambda rt, l: rt.VmBuffer(8, alignment=3), ValueError),
    "buffer_negative_alignment":
        (lambda rt, l: rt.VmBuffer(8, alignment=-1), TypeError),
    "buffer_huge_alignment":
        (lambda rt, l: rt.VmBuffer(0, alignment=1 << 40), RuntimeError),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_error_types(case, any_rt):
    rt = any_rt
    action, error = ERROR_CASES[case]
    values = rt.VmVariantList(3)
    values.push_int(1)
    values.push_float(2.0)
    values.push_ref(rt.VmBuffer(4))
    with pytest.raises(error):
        action(rt, values)
    # The failed call left the list as it was.
    assert len(values) == 3
    assert values.get_variant(0) == 1


def test_push_int_rejects_numeric_strings(ev):
    # A deliberate difference: the nanobind in IREE's wheel parses "12" as an
    # int here; a string is never a VM integer in Ember.
    with pytest.raises(TypeError):
        ev.VmVariantList(0).push_int("12")


def test_index_error_goes_through_status_mapping(ev):
    values = ev.VmVariantList(0)
    with pytest.raises(IndexError, match="Could not access list element: "
                       "OUT_OF_RANGE"):
        values.get_variant(0)


def test_method_signatures_match_iree(ev, irt):
    """Names, defaults and positional-only markers, as nanobind prints them."""
    def signature(rt, cls_name, method):
        doc = getattr(getattr(rt, cls_name), method).__doc__ or ""
        # nanobind prints the signatures, then a blank line and the
        # docstring, which is Ember's own wording.
        doc = doc.split("\n\n", 1)[0]
        doc = doc.replace("iree._runtime_libs._runtime.", "")
        return doc.replace("ember._ember.", "")

    methods = {
        "VmVariantList": ["__init__", "push_int", "push_float", "push_list",
                          "push_ref", "get_as_object", "get_as_ref",
                          "get_as_list", "get_variant", "__len__",
                          "get_serialized_trace_value", "__eq__",
                          "__iree_vm_cast__", "__iree_vm_type__"],
        "VmBuffer": ["__init__", "__eq__", "__iree_vm_cast__",
                     "__iree_vm_type__"],
        "VmRef": ["deref", "isinstance", "__eq__"],
    }
    for cls_name, names in methods.items():
        for name in names:
            assert signature(ev, cls_name, name) == signature(
                irt, cls_name, name), f"{cls_name}.{name}"


# ---------------------------------------------------------------------------
# The ref protocol and VmRef.
# ---------------------------------------------------------------------------


def test_ref_protocol(any_rt):
    rt = any_rt
    for obj, cls, other_cls in [
        (rt.VmBuffer(4), rt.VmBuffer, rt.VmVariantList),
        (rt.VmVariantList(1), rt.VmVariantList, rt.VmBuffer),
    ]:
        ref = obj.ref
        assert type(ref) is rt.VmRef
        assert ref == obj.__iree_vm_ref__
        assert ref.__iree_vm_ref__ is ref
        assert ref.isinstance(cls) and not ref.isinstance(other_cls)
        assert isinstance(cls.__iree_vm_type__(), int)
        assert cls.__iree_vm_type__() != other_cls.__iree_vm_type__()
        back = cls.__iree_vm_cast__(ref)
        assert back == obj and back is not obj
        assert other_cls.__iree_vm_cast__(ref) is None
        assert ref.deref(cls) == obj
        assert ref.deref(other_cls, optional=True) is None
        assert ref.deref(value=cls, optional=False) == obj
        # Equality is identity of the native object, never of the value.
        assert obj == obj
        assert obj != cls.__iree_vm_cast__(type(obj)(4).ref)
        assert not (obj == ref) and not (ref == obj)
        assert not (obj == 4) and not (ref == "x")
        hash(obj), hash(ref)


def test_reprs(any_rt):
    rt = any_rt
    buffer = rt.VmBuffer(10, alignment=64)
    assert re.fullmatch(r"<VmBuffer size 10 at 0x[0-9a-f]+>", repr(buffer))
    address = int(repr(buffer).split(" at ")[1][:-1], 16)
    assert address == np.frombuffer(buffer, np.uint8).ctypes.data
    assert re.fullmatch(r"<VmRef vm\.buffer at 0x[0-9a-f]+>", repr(buffer.ref))
    assert re.fullmatch(r"<VmRef vm\.list at 0x[0-9a-f]+>",
                        repr(rt.VmVariantList(0).ref))
    assert repr(rt.VmBuffer(0)).startswith("<VmBuffer size 0 at 0x")


# ---------------------------------------------------------------------------
# The buffer protocol.
# ---------------------------------------------------------------------------


def test_buffer_protocol_layout(any_rt):
    rt = any_rt
    view = memoryview(rt.VmBuffer(12))
    assert (view.readonly, view.format, view.itemsize, view.ndim, view.shape,
            view.strides, view.contiguous, view.nbytes) == (
                False, "B", 1, 1, (12,), (1,), True, 12)
    assert bytes(view) == bytes(12)  # allocated zeroed
    assert memoryview(rt.VmBuffer(3, mutable=False)).readonly


def test_numpy_sees_writes_both_ways(ev):
    buffer = ev.VmBuffer(16, alignment=16)
    array = np.frombuffer(buffer, dtype=np.uint32)
    assert array.flags.writeable and array.shape == (4,)
    memoryview(buffer).cast("I")[2] = 0xDEADBEEF
    assert array[2] == 0xDEADBEEF
    array[:] = [1, 2, 3, 4]
    assert bytes(buffer) == np.array([1, 2, 3, 4], np.uint32).tobytes()
    # A wrapper read back from a list is the same vm.buffer.
    values = ev.VmVariantList(1)
    values.push_ref(buffer)
    again = values.get_as_object(0, ev.VmBuffer)
    np.frombuffer(again, dtype=np.uint32)[0] = 99
    assert array[0] == 99


def test_read_only_buffer_rejects_writes(ev):
    buffer = ev.VmBuffer(8, mutable=False)
    view = memoryview(buffer)
    assert view.readonly
    with pytest.raises(TypeError):
        view[0] = 1
    array = np.frombuffer(buffer, dtype=np.uint8)
    assert not array.flags.writeable
    with pytest.raises(ValueError):
        array[0] = 1
    with pytest.raises(ValueError):
        array.flags.writeable = True
    # A writable export is refused outright.
    with pytest.raises((TypeError, BufferError)):
        ctypes.c_char.from_buffer(buffer)
    assert bytes(buffer) == bytes(8)


def test_alignment_is_honoured(ev):
    for alignment in (0, 1, 16, 64, 4096, 1 << 20):
        buffer = ev.VmBuffer(3, alignment=alignment)
        address = np.frombuffer(buffer, np.uint8).ctypes.data
        assert address % max(alignment, 1) == 0


def test_export_keeps_buffer_alive(ev):
    buffer = ev.VmBuffer(8)
    before = sys.getrefcount(buffer)
    view = memoryview(buffer)
    assert sys.getrefcount(buffer) == before + 1
    del buffer
    gc.collect()
    view[0] = 5
    assert view[0] == 5
    owner = view.obj
    view.release()
    assert sys.getrefcount(owner) == before


def test_zero_length_buffer(any_rt):
    buffer = any_rt.VmBuffer(0)
    assert bytes(buffer) == b""
    assert np.frombuffer(buffer, np.uint8).size == 0


def test_uninitialized_buffer_export_is_an_error(ev):
    bare = ev.VmBuffer.__new__(ev.VmBuffer)
    with pytest.raises(BufferError):
        memoryview(bare)


# ---------------------------------------------------------------------------
# Ownership: what lists keep alive, and what they free.
# ---------------------------------------------------------------------------


def test_refcounts_balance_over_many_cycles(ev):
    buffer = ev.VmBuffer(8)
    sub_list = ev.VmVariantList(1)
    ref = buffer.ref
    counts = [sys.getrefcount(o) for o in (buffer, sub_list, ref,
                                           ev.VmBuffer, ev.VmVariantList)]
    for _ in range(2000):
        values = ev.VmVariantList(0)
        values.push_ref(buffer)
        values.push_ref(ref)
        values.push_list(sub_list)
        values.push_int(1)
        values.push_float(1.0)
        values.get_as_object(0, ev.VmBuffer)
        values.get_as_object(1, ev.VmVariantList)
        values.get_as_ref(1).deref(ev.VmBuffer)
        values.get_as_list(2)
        values.get_variant(3)
        values.get_variant(4)
        repr(values)
        del values
    after = [sys.getrefcount(o) for o in (buffer, sub_list, ref,
                                          ev.VmBuffer, ev.VmVariantList)]
    assert after == counts


def test_lists_do_not_retain_python_objects(ev):
    class Holder:
        """A pure-Python object with the ref protocol."""

        def __init__(self, buffer):
            self.buffer = buffer

        @property
        def __iree_vm_ref__(self):
            return self.buffer.ref

    holder = Holder(ev.VmBuffer(4))
    np.frombuffer(holder.buffer, np.uint8)[:] = 7
    watcher = weakref.ref(holder)
    values = ev.VmVariantList(1)
    values.push_ref(holder)
    del holder
    gc.collect()
    assert watcher() is None
    # The native buffer lives on in the list.
    assert bytes(values.get_as_object(0, ev.VmBuffer)) == b"\x07" * 4


def _rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")
def test_native_objects_freed_with_their_list(ev):
    size = 32 << 20
    gc.collect()
    start = _rss_bytes()
    for _ in range(40):  # 1.25 GiB in all if nothing were freed
        outer = ev.VmVariantList(1)
        inner = ev.VmVariantList(1)
        buffer = ev.VmBuffer(size)
        np.frombuffer(buffer, np.uint8)[::4096] = 1  # touch every page
        inner.push_ref(buffer)
        outer.push_list(inner)
        outer.push_ref(inner.get_as_ref(0))
        del buffer, inner, outer
    gc.collect()
    assert _rss_bytes() - start < 8 * size


# ---------------------------------------------------------------------------
# Threads.
# ---------------------------------------------------------------------------


def test_threads_hammering_separate_lists(ev):
    errors = []
    barrier = threading.Barrier(8)

    def work(seed):
        try:
            barrier.wait()
            for round_ in range(200):
                values = ev.VmVariantList(4)
                buffer = ev.VmBuffer(8)
                np.frombuffer(buffer, np.int64)[0] = seed * 1000 + round_
                inner = ev.VmVariantList(0)
                inner.push_int(seed)
                values.push_int(round_)
                values.push_float(seed + 0.5)
                values.push_ref(buffer)
                values.push_list(inner)
                assert values.get_variant(0) == round_
                assert values.get_variant(1) == seed + 0.5
                got = values.get_as_object(2, ev.VmBuffer)
                assert np.frombuffer(got, np.int64)[0] == seed * 1000 + round_
                assert values.get_as_list(3).get_variant(0) == seed
                assert masked(ev, repr(values)) == (
                    f"<VmVariantList(4): [{round_}, {seed + 0.5:f}, "
                    f"Unknown(vm.buffer), List[{seed}]]>")
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


def test_threads_sharing_read_only_refs(ev):
    """Refs of one buffer pushed and dropped on many threads at once."""
    buffer = ev.VmBuffer(64)
    np.frombuffer(buffer, np.uint8)[:] = 3
    before = sys.getrefcount(buffer)
    errors = []

    def work():
        try:
            for _ in range(500):
                values = ev.VmVariantList(2)
                values.push_ref(buffer)
                values.push_ref(buffer.ref)
                assert values.get_as_ref(0) == values.get_as_ref(1)
                assert bytes(values.get_as_object(1, ev.VmBuffer))[:1] == b"\3"
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert sys.getrefcount(buffer) == before
