"""How VmModule loads: the loaders, buffer ownership, bad input, threads.

Where iree.runtime defines the behaviour (callbacks, warnings, alignment
errors) the same check runs against it too, so a difference shows up as a
failure of the Ember case only.
"""

from __future__ import annotations

import gc
import json
import mmap
import os
import struct
import subprocess
import sys
import textwrap
import threading
import warnings
import weakref
from pathlib import Path

import numpy as np
import pytest

from conftest import import_oracle_runtime

ALIGNMENT = 64
LOAD_ERRORS = (ValueError, RuntimeError, OSError)


@pytest.fixture(scope="module")
def sample_bytes(sample_vmfb) -> bytes:
    return sample_vmfb.read_bytes()


@pytest.fixture(params=["ember", "iree"])
def rt(request, ember_rt):
    if request.param == "ember":
        return ember_rt
    return import_oracle_runtime()


def aligned_array(data: bytes, misalign: int = 0) -> np.ndarray:
    """A uint8 view of `data` whose first byte is at 64*k + misalign."""
    raw = np.empty(len(data) + 2 * ALIGNMENT, dtype=np.uint8)
    start = (-raw.ctypes.data) % ALIGNMENT + misalign
    view = raw[start:start + len(data)]
    view[:] = np.frombuffer(data, dtype=np.uint8)
    assert view.ctypes.data % ALIGNMENT == misalign % ALIGNMENT
    return view


def summary(module) -> tuple:
    """What a loaded module must report, for comparing loads."""
    return (module.name, module.version, tuple(module.function_names),
            repr(module),
            tuple(repr(module.lookup_function(n)) for n in module.function_names))


@pytest.fixture(scope="module")
def expected_summary(sample_vmfb, ember_rt):
    return summary(ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(sample_vmfb)))


def test_expected_summary_is_the_sample(expected_summary):
    assert expected_summary[0] == "module"
    assert expected_summary[2] == ("simple_mul", "add_one", "__init")


# ---------------------------------------------------------------------------
# copy_buffer
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["bytes", "bytearray", "memoryview", "numpy",
                                  "numpy_unaligned"])
def test_copy_buffer_sources(kind, sample_bytes, ember_rt, expected_summary):
    if kind == "bytes":
        source = bytes(sample_bytes)
    elif kind == "bytearray":
        source = bytearray(sample_bytes)
    elif kind == "memoryview":
        source = memoryview(bytearray(b"xyz" + sample_bytes))[3:]
    elif kind == "numpy":
        source = np.frombuffer(sample_bytes, dtype=np.uint8).copy()
    else:
        source = aligned_array(sample_bytes, misalign=3)
    module = ember_rt.VmModule.copy_buffer(ember_rt.VmInstance(), source)
    assert summary(module) == expected_summary
    # A copy: overwriting (and dropping) the source changes nothing.
    if not isinstance(source, bytes):
        np.asarray(source, dtype=np.uint8).reshape(-1)[:] = 0
    del source
    gc.collect()
    assert summary(module) == expected_summary
    blob = module.stashed_flatbuffer_blob
    assert bytes(blob) == sample_bytes


def test_copy_buffer_rejects_non_buffers(ember_rt):
    with pytest.raises(TypeError):
        ember_rt.VmModule.copy_buffer(ember_rt.VmInstance(), "not bytes")
    with pytest.raises(TypeError):
        ember_rt.VmModule.copy_buffer(ember_rt.VmInstance(), 1234)


# ---------------------------------------------------------------------------
# wrap_buffer
# ---------------------------------------------------------------------------


def test_wrap_buffer_keeps_owner_alive_and_calls_back_once(rt, sample_bytes):
    calls = []
    array = aligned_array(sample_bytes)
    owner = weakref.ref(array.base)
    module = rt.VmModule.wrap_buffer(rt.VmInstance(), array,
                                     destroy_callback=lambda: calls.append(1))
    assert module.stashed_flatbuffer_blob is array
    del array
    gc.collect()
    assert owner() is not None, "the wrapped memory was freed under the module"
    assert calls == []
    for _ in range(3):
        gc.collect()
        assert [f.name for f in map(module.lookup_function,
                                    module.function_names)] == \
            ["simple_mul", "add_one", "__init"]
        assert bytes(module.stashed_flatbuffer_blob) == sample_bytes
        assert calls == []
    del module
    gc.collect()
    assert calls == [1]
    assert owner() is None, "the wrapped buffer leaked after the module died"
    gc.collect()
    assert calls == [1]


def test_wrap_buffer_callback_waits_for_functions(ember_rt, sample_bytes):
    # A VmFunction keeps its module's memory alive.
    calls = []
    array = aligned_array(sample_bytes)
    module = ember_rt.VmModule.wrap_buffer(
        ember_rt.VmInstance(), array, destroy_callback=lambda: calls.append(1))
    function = module.lookup_function("simple_mul")
    del array, module
    gc.collect()
    assert calls == []
    assert function.name == "simple_mul"
    assert "iree.abi.declaration" in function.reflection
    del function
    gc.collect()
    assert calls == [1]


def test_wrap_buffer_release_from_another_thread(ember_rt, sample_bytes):
    calls = []
    module = ember_rt.VmModule.wrap_buffer(
        ember_rt.VmInstance(), aligned_array(sample_bytes),
        destroy_callback=lambda: calls.append(threading.get_ident()))
    box = [module]
    del module

    def drop():
        box.clear()
        gc.collect()

    worker = threading.Thread(target=drop)
    worker.start()
    worker.join()
    assert len(calls) == 1


@pytest.mark.parametrize("close_buffer", [True, False])
def test_wrap_buffer_close_buffer(rt, sample_bytes, close_buffer):
    mapping = mmap.mmap(-1, len(sample_bytes))
    mapping.write(sample_bytes)
    seen = []
    module = rt.VmModule.wrap_buffer(
        rt.VmInstance(), mapping, close_buffer=close_buffer,
        destroy_callback=lambda: seen.append(mapping.closed))
    assert not mapping.closed
    assert module.lookup_function("add_one") is not None
    del module
    gc.collect()
    assert mapping.closed == close_buffer
    # The buffer is closed (when asked) before the callback runs.
    assert seen == [close_buffer]
    if not close_buffer:
        mapping.close()  # possible only once the module let go of it


def test_wrap_buffer_unaligned_is_refused(rt, sample_bytes):
    calls = []
    unaligned = aligned_array(sample_bytes, misalign=8)
    with pytest.raises(ValueError, match="align"):
        rt.VmModule.wrap_buffer(rt.VmInstance(), unaligned,
                                destroy_callback=lambda: calls.append(1))
    gc.collect()
    assert calls == []


def test_wrap_buffer_unaligned_releases_the_buffer(ember_rt, sample_bytes):
    # Nothing was wrapped, so the buffer export is given back at once and
    # the owner can be resized. (iree.runtime keeps the export: it leaks.)
    backing = bytearray(sample_bytes) + bytearray(ALIGNMENT)
    view = memoryview(backing)
    address = np.frombuffer(view, dtype=np.uint8).ctypes.data
    skew = 1 if address % ALIGNMENT == 0 else 0
    with pytest.raises(ValueError, match="align"):
        ember_rt.VmModule.wrap_buffer(ember_rt.VmInstance(),
                                      view[skew:skew + 100])
    view.release()
    backing.extend(b"\0" * 4096)  # raises BufferError if still exported


@pytest.mark.parametrize("loader", ["wrap_buffer", "mmap"])
def test_invalid_module_calls_nothing(rt, loader, sample_bytes, tmp_path):
    # When the module cannot be created there is no module to destroy: IREE
    # drops its state without running destroy_callback.
    calls = []
    bad = sample_bytes[:200]
    with pytest.raises(ValueError):
        if loader == "wrap_buffer":
            rt.VmModule.wrap_buffer(rt.VmInstance(), aligned_array(bad),
                                    destroy_callback=lambda: calls.append(1))
        else:
            path = tmp_path / "bad.vmfb"
            path.write_bytes(bad)
            rt.VmModule.mmap(rt.VmInstance(), str(path),
                             destroy_callback=lambda: calls.append(1))
    gc.collect()
    assert calls == []


# ---------------------------------------------------------------------------
# from_buffer / from_flatbuffer
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["from_buffer", "from_flatbuffer"])
def test_from_buffer_unaligned_warns_and_copies(rt, method, sample_bytes):
    load = getattr(rt.VmModule, method)
    source = aligned_array(sample_bytes, misalign=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = load(rt.VmInstance(), source)
    assert [w.category for w in caught] == [UserWarning]
    assert "copy" in str(caught[0].message)
    assert "warn_if_copy" in str(caught[0].message)
    source[:] = 0  # a copy was made: the module does not see this
    assert module.lookup_function("simple_mul").name == "simple_mul"
    assert module.stashed_flatbuffer_blob is not source
    assert bytes(module.stashed_flatbuffer_blob) == sample_bytes

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        quiet = load(rt.VmInstance(), aligned_array(sample_bytes, misalign=1),
                     warn_if_copy=False)
    assert caught == []
    assert list(quiet.function_names) == ["simple_mul", "add_one", "__init"]


@pytest.mark.parametrize("method", ["from_buffer", "from_flatbuffer"])
def test_from_buffer_aligned_wraps_without_warning(rt, method, sample_bytes):
    source = aligned_array(sample_bytes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = getattr(rt.VmModule, method)(rt.VmInstance(), source)
    assert caught == []
    assert module.stashed_flatbuffer_blob is source  # wrapped, not copied
    assert module.lookup_function("add_one") is not None


def test_from_buffer_warning_can_be_an_error(ember_rt, sample_bytes):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning):
            ember_rt.VmModule.from_buffer(ember_rt.VmInstance(),
                                          aligned_array(sample_bytes, 1))


# ---------------------------------------------------------------------------
# mmap
# ---------------------------------------------------------------------------


def test_mmap_missing_file(ember_rt, iree_rt, tmp_path):
    path = tmp_path / "no_such_dir" / "missing.vmfb"
    # Both runtimes raise FileNotFoundError, so `except OSError` code written
    # for iree.runtime keeps working.
    with pytest.raises(FileNotFoundError):
        iree_rt.VmModule.mmap(iree_rt.VmInstance(), str(path))
    with pytest.raises(FileNotFoundError) as info:
        ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(path))
    assert str(path) in str(info.value)


def test_mmap_bad_files(ember_rt, tmp_path):
    empty = tmp_path / "empty.vmfb"
    empty.write_bytes(b"")
    with pytest.raises(LOAD_ERRORS):
        ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(empty))
    with pytest.raises(LOAD_ERRORS):
        ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(tmp_path))
    junk = tmp_path / "junk.vmfb"
    junk.write_bytes(os.urandom(3000))
    with pytest.raises(ValueError):
        ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(junk))


def test_mmap_destroy_callback(rt, sample_vmfb, tmp_path):
    path = tmp_path / "copy.vmfb"
    path.write_bytes(sample_vmfb.read_bytes())
    calls = []
    module = rt.VmModule.mmap(rt.VmInstance(), str(path),
                              destroy_callback=lambda: calls.append(1))
    assert module.lookup_function("simple_mul").name == "simple_mul"
    gc.collect()
    assert calls == []
    del module
    gc.collect()
    assert calls == [1]


def test_mmap_function_outlives_module(ember_rt, sample_vmfb, tmp_path):
    # In Ember a VmFunction keeps the mapping alive. (iree.runtime's does
    # not: touching it after the module died reads freed memory.)
    path = tmp_path / "copy.vmfb"
    path.write_bytes(sample_vmfb.read_bytes())
    calls = []
    module = ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(path),
                                    destroy_callback=lambda: calls.append(1))
    function = module.lookup_function("simple_mul")
    del module
    gc.collect()
    assert calls == []
    assert function.name == "simple_mul"
    assert "tensor<4xf32>" in function.reflection["iree.abi.declaration"]
    del function
    gc.collect()
    assert calls == [1]


def test_mmap_accepts_pathlike_string(ember_rt, sample_vmfb, expected_summary):
    module = ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(sample_vmfb))
    assert summary(module) == expected_summary
    assert bytes(module.stashed_flatbuffer_blob) == sample_vmfb.read_bytes()


# ---------------------------------------------------------------------------
# Corrupt input
# ---------------------------------------------------------------------------


def flatbuffer_start(data: bytes) -> int:
    """Where the size-prefixed FlatBuffer begins (after a ZIP header)."""
    if data[:4] == b"PK\x03\x04":
        name_length, extra_length = struct.unpack_from("<HH", data, 26)
        return 30 + name_length + extra_length
    return 0


def corrupt_cases(data: bytes) -> dict:
    """name -> (bytes, words one of which the error message must contain)."""
    fb = flatbuffer_start(data)
    fb_size = struct.unpack_from("<I", data, fb)[0]
    ident = fb + 8
    assert data[ident:ident + 4] == b"IREE"
    cases = {
        "empty": (b"", ("FlatBuffer", "truncated")),
        "ten_bytes": (data[:10], ("FlatBuffer", "truncated")),
        "zip_header_only": (data[:fb], ("FlatBuffer", "truncated", "ZIP")),
        "header_cut": (data[:fb + 20], ("size prefix",)),
        "flatbuffer_half": (data[:fb + fb_size // 2], ("size prefix",)),
        "flatbuffer_minus_one": (data[:fb + 4 + fb_size - 1], ("size prefix",)),
        "rodata_cut": (data[:fb + 4 + fb_size + 100], ("rodata", "external")),
        "bad_identifier": (data[:ident] + b"EERI" + data[ident + 4:],
                           ("identifier",)),
        "huge_size_prefix": (data[:fb] + b"\xff\xff\xff\x7f" + data[fb + 4:],
                             ("size prefix",)),
        "zero_root_offset": (data[:fb + 4] + b"\0\0\0\0" + data[fb + 8:],
                             ("FlatBuffer",)),
        "random_bytes": (bytes(np.random.default_rng(7).integers(
            0, 256, len(data), dtype=np.uint8)), ("FlatBuffer",)),
        "zeros": (bytes(len(data)), ("FlatBuffer",)),
    }
    if fb:
        cases["zip_short"] = (data[:20], ("FlatBuffer", "truncated", "ZIP"))
    return cases


def _check_corrupt(data: bytes, ember_rt, iree_rt):
    for name, (bad, words) in corrupt_cases(data).items():
        with pytest.raises(ValueError) as info:
            ember_rt.VmModule.copy_buffer(ember_rt.VmInstance(), bad)
        message = str(info.value)
        assert any(w in message for w in words), (name, message)
        # The oracle refuses them as well (in its own words).
        with pytest.raises(Exception):
            iree_rt.VmModule.copy_buffer(iree_rt.VmInstance(), bad)


def test_corrupt_zip_module(sample_bytes, ember_rt, iree_rt):
    assert flatbuffer_start(sample_bytes) > 0
    _check_corrupt(sample_bytes, ember_rt, iree_rt)


def test_corrupt_flat_module(corpus_by_name, ember_rt, iree_rt):
    data = Path(corpus_by_name["vm_buffers"]["forms"]["flat"]).read_bytes()
    assert flatbuffer_start(data) == 0
    _check_corrupt(data, ember_rt, iree_rt)


@pytest.mark.parametrize("name", ["vm_buffers", "elementwise"])
@pytest.mark.parametrize("form", ["embedded", "flat"])
def test_truncation_agrees_with_iree(name, form, corpus_by_name, ember_rt,
                                     iree_rt):
    data = Path(corpus_by_name[name]["forms"][form]).read_bytes()
    fb = flatbuffer_start(data)
    fb_end = fb + 4 + struct.unpack_from("<I", data, fb)[0]
    points = sorted({1, 15, 16, 17, fb, fb + 4, fb + 15, fb + 16, fb + 64,
                     (fb + fb_end) // 2, fb_end - 1, fb_end, fb_end + 1,
                     (fb_end + len(data)) // 2, len(data) - 22,
                     len(data) - 1} - {0})
    for n in points:
        if n >= len(data):
            continue
        cut = data[:n]
        try:
            iree_rt.VmModule.copy_buffer(iree_rt.VmInstance(), cut)
            iree_ok = True
        except Exception:
            iree_ok = False
        try:
            ember_rt.VmModule.copy_buffer(ember_rt.VmInstance(), cut)
            ember_ok = True
        except ValueError:
            ember_ok = False
        assert ember_ok == iree_ok, f"{len(data)}-byte file cut to {n} bytes"


# Runs in a child process so that a crash fails this test instead of ending
# the whole session. Every byte of the FlatBuffer (size prefix included) is
# corrupted in turn; each result must be a usable module or a Python error.
_FLIP_SCRIPT = textwrap.dedent("""
    import json, struct, sys
    import ember.runtime as rt
    allowed = (ValueError, IndexError, NotImplementedError)
    counts = {"loaded": 0, "rejected": 0}
    failures = []

    def inspect(module):
        # Whatever loads must be safe to inspect: nothing here may raise.
        steps = [
            ("dump(json=True)", lambda: json.loads(module.dump(json=True))),
            ("dump()", lambda: module.dump()),
            ("dump(verbose=True)", lambda: module.dump(verbose=True)),
            ("repr(module)", lambda: repr(module)),
            ("name", lambda: (module.name, module.version)),
        ]
        for name in module.function_names:
            steps.append((f"lookup_function({name!r})",
                          lambda name=name: [
                              (repr(f), f.reflection, f.module_name)
                              for f in [module.lookup_function(name)] if f]))
        for label, step in steps:
            try:
                step()
            except Exception as error:
                yield label, error

    for path in sys.argv[1:]:
        data = open(path, "rb").read()
        fb = 0
        if data[:4] == b"PK\x03\x04":
            n, e = struct.unpack_from("<HH", data, 26)
            fb = 30 + n + e
        end = fb + 4 + struct.unpack_from("<I", data, fb)[0]
        instance = rt.VmInstance()
        for pos in range(fb, end):
            for mask in (0xFF, 0x01):
                bad = bytearray(data)
                bad[pos] ^= mask
                where = f"{path.rsplit('/', 1)[-1]} byte {pos} ^ {mask:#x}"
                try:
                    module = rt.VmModule.copy_buffer(instance, bytes(bad))
                except allowed as error:
                    counts["rejected"] += 1
                    if not str(error):
                        failures.append(f"{where}: empty error message")
                    continue
                except Exception as error:
                    failures.append(
                        f"{where}: load raised {repr(error)[:300]}")
                    continue
                counts["loaded"] += 1
                for label, error in inspect(module):
                    failures.append(
                        f"{where}: {label} raised {repr(error)[:300]}")
    print(json.dumps({"counts": counts, "failures": failures}))
""")


def test_flipped_bytes_never_crash(sample_vmfb, corpus_by_name):
    paths = [str(sample_vmfb),
             corpus_by_name["vm_buffers"]["forms"]["flat"],
             corpus_by_name["vm_calls"]["forms"]["embedded"]]
    proc = subprocess.run([sys.executable, "-c", _FLIP_SCRIPT, *paths],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (
        f"exit {proc.returncode}\nstdout: {proc.stdout[-2000:]}\n"
        f"stderr: {proc.stderr[-4000:]}")
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["failures"] == [], (
        f"{len(report['failures'])} problems, e.g.:\n" +
        "\n".join(report["failures"][:10]))
    counts = report["counts"]
    # Most single-byte corruptions are caught; some (inside bytecode or
    # string bytes) leave a loadable module.
    assert counts["rejected"] > counts["loaded"] // 4 > 0, counts


# A minimal FlatBuffer navigator, enough to corrupt one chosen field.
def _u32(b, o):
    return struct.unpack_from("<I", b, o)[0]


def _field(b, table, field_id):
    """(absolute position of the field or None, position of vtable entry)."""
    vtable = table - struct.unpack_from("<i", b, table)[0]
    entry = vtable + 4 + 2 * field_id
    if entry + 2 > vtable + struct.unpack_from("<H", b, vtable)[0]:
        return None, entry
    offset = struct.unpack_from("<H", b, entry)[0]
    return (table + offset if offset else None), entry


def _deref(b, position):
    return position + _u32(b, position)


def _root(b):
    start = flatbuffer_start(b) + 4
    return start + _u32(b, start)


# BytecodeModuleDef field ids (bytecode_module_def.fbs).
_RODATA_SEGMENTS, _DEBUG_DATABASE = 9, 15


def test_union_element_with_type_none_is_rejected(sample_bytes, ember_rt,
                                                  iree_rt):
    # debug_database.location_table is a union vector: element k has a type
    # byte and an offset. A NONE type beside a present element is malformed
    # (flatcc: "union element present with type NONE").
    b = bytearray(sample_bytes)
    database = _deref(b, _field(b, _root(b), _DEBUG_DATABASE)[0])
    types = _deref(b, _field(b, database, 0)[0])
    values = _deref(b, _field(b, database, 1)[0])
    count = _u32(b, types)
    assert count == _u32(b, values) > 1
    k = next(i for i in range(count)
             if b[types + 4 + i] != 0 and _u32(b, values + 4 + 4 * i) != 0)
    b[types + 4 + k] = 0
    bad = bytes(b)
    with pytest.raises(Exception):
        iree_rt.VmModule.copy_buffer(iree_rt.VmInstance(), bad)
    with pytest.raises(ValueError, match="union|location"):
        ember_rt.VmModule.copy_buffer(ember_rt.VmInstance(), bad)


def test_union_value_without_type_is_rejected(sample_bytes, ember_rt,
                                              iree_rt):
    # RodataSegmentDef.compression_type is a union field (type: field 0,
    # value: field 1). Give segment 0 a value but no type.
    b = bytearray(sample_bytes)
    segments = _deref(b, _field(b, _root(b), _RODATA_SEGMENTS)[0])
    segment = _deref(b, segments + 4)
    type_at, _ = _field(b, segment, 0)
    value_at, value_entry = _field(b, segment, 1)
    data_at, data_entry = _field(b, segment, 2)
    assert type_at is None and value_at is None and data_at is not None
    b[value_entry:value_entry + 2] = b[data_entry:data_entry + 2]
    bad = bytes(b)
    with pytest.raises(Exception):
        iree_rt.VmModule.copy_buffer(iree_rt.VmInstance(), bad)
    with pytest.raises(ValueError, match="union|compression"):
        ember_rt.VmModule.copy_buffer(ember_rt.VmInstance(), bad)


# ---------------------------------------------------------------------------
# Threads
# ---------------------------------------------------------------------------


def test_shared_module_across_threads(sample_vmfb, ember_rt):
    module = ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(sample_vmfb))
    names = list(module.function_names) + ["missing"]

    def snapshot():
        out = []
        for name in names:
            f = module.lookup_function(name)
            out.append(None if f is None else
                       (f.name, f.ordinal, f.linkage, f.module_name,
                        tuple(sorted(f.reflection.items())), repr(f)))
        out.append(repr(module))
        return out

    expected = snapshot()
    barrier = threading.Barrier(8)
    failures = []

    def worker():
        barrier.wait()
        for _ in range(200):
            got = snapshot()
            if got != expected:
                failures.append(got)
                return

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_loading_in_threads(sample_bytes, ember_rt, expected_summary):
    barrier = threading.Barrier(4)
    results = []
    errors = []

    def worker():
        barrier.wait()
        try:
            for _ in range(25):
                m = ember_rt.VmModule.copy_buffer(ember_rt.VmInstance(),
                                                  sample_bytes)
                results.append(summary(m))
                with pytest.raises(ValueError):
                    ember_rt.VmModule.copy_buffer(ember_rt.VmInstance(),
                                                  sample_bytes[:100])
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert results == [expected_summary] * 100
