"""Ember's parameter file readers and IRPA writer (runtime/io) against the
official runtime.

Files of each format are written here (tests/io/param_files.py, pure Python;
IRPA also by iree.runtime's create_archive_file), read by both
iree.runtime.ParameterIndex.load and Ember's test driver ember_param_tool
(tests/io/ember_param_tool.cc, built with the C++ tests), and every entry
(key, storage kind, file offset, length, metadata, splat pattern) must agree;
files both must refuse are refused by both. Archives Ember writes must be
byte-identical to create_archive_file's and read back by iree.runtime.

The driver is $EMBER_PARAM_TOOL, else the first build/*/ember_param_tool.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tests" / "io"))
import param_files as pf  # noqa: E402


def _find_tool():
    explicit = os.environ.get("EMBER_PARAM_TOOL")
    if explicit:
        return explicit
    for build in ("asan", "release", "debug", "py"):
        candidate = REPO_ROOT / "build" / build / "ember_param_tool"
        if candidate.exists():
            return str(candidate)
    found = sorted(REPO_ROOT.glob("build/*/ember_param_tool"))
    return str(found[0]) if found else None


TOOL = _find_tool()
pytestmark = pytest.mark.skipif(
    TOOL is None, reason="ember_param_tool not built (C++ test build)")


def ember(*args):
    """The tool's JSON: ('ok', entries) or ('error', message)."""
    out = subprocess.run([TOOL, *map(str, args)], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    result = json.loads(out.stdout)
    if "error" in result:
        assert out.returncode == 1
        return "error", result["error"]
    assert out.returncode == 0
    return "ok", [(bytes.fromhex(e["key"]), e["kind"],
                   e["offset"] if e["kind"] == "file" else None, e["length"],
                   bytes.fromhex(e["metadata"]),
                   bytes.fromhex(e["pattern"]) if e["kind"] == "splat" else None)
                  for e in result["entries"]]


def oracle_entries(index):
    entries = []
    for key, entry in index.items():
        if entry.is_splat:
            entries.append((key.encode(), "splat", None, entry.length,
                            entry.metadata, entry.splat_pattern))
        else:
            entries.append((key.encode(), "file", entry.file_storage[1],
                            entry.length, entry.metadata, None))
    return entries


def oracle_load(iree_rt, path):
    index = iree_rt.ParameterIndex()
    try:
        index.load(str(path))
    except Exception as error:  # noqa: BLE001 - any refusal counts
        return "error", str(error)
    return "ok", oracle_entries(index)


def assert_same_reading(iree_rt, path):
    expected = oracle_load(iree_rt, path)
    actual = ember("dump", path)
    assert actual[0] == expected[0], (path.name, expected[1], actual[1])
    if expected[0] == "ok":
        assert actual[1] == expected[1], path.name
    return actual


def readback(entries):
    """A written archive's target entries as a reader sees them: IREE's
    reader puts empty data entries at offset 0 while the writer's target
    index keeps their place in the storage segment."""
    return [(k, kind, 0 if kind == "file" and n == 0 else o, n, m, p)
            for k, kind, o, n, m, p in entries]


def make_oracle_archive(iree_rt, path, duplicates=True):
    """An archive by create_archive_file with every entry kind it writes."""
    index = iree_rt.ParameterIndex()
    for size in (0, 1, 63, 64, 65, 1000):
        index.add_buffer(f"data{size}", pf.pattern_bytes(size))
    index.add_buffer("weight", np.arange(10, dtype=np.float32).tobytes(),
                     metadata="meta data")
    for width in (1, 2, 4, 8, 16):
        index.add_splat(f"splat{width}", pf.pattern_bytes(width), 4096,
                        metadata="m" * width)
    index.add_buffer("ключ/ü", b"unicode")
    if duplicates:
        index.add_buffer("dup", b"first")
        index.add_buffer("dup", b"second!")
    index.create_archive_file(str(path))
    return index


def test_irpa_written_by_the_official_runtime(iree_rt, tmp_path):
    path = tmp_path / "oracle.irpa"
    make_oracle_archive(iree_rt, path)
    status, entries = assert_same_reading(iree_rt, path)
    assert status == "ok" and len(entries) == 15
    assert {e[1] for e in entries} == {"file", "splat"}
    loaded = iree_rt.ParameterIndex()
    loaded.load(str(path))
    out = subprocess.run([TOOL, "repr", path], capture_output=True, text=True)
    assert out.stdout == repr(loaded)  # IREE's dump text


def test_irpa_written_by_ember(iree_rt, tmp_path):
    source = tmp_path / "oracle.irpa"
    make_oracle_archive(iree_rt, source, duplicates=False)
    ours = tmp_path / "ember.irpa"
    status, target = ember("write", source, ours)
    assert status == "ok", target
    # Byte for byte what create_archive_file writes from the same index.
    again = iree_rt.ParameterIndex()
    again.load(str(source))
    theirs = tmp_path / "again.irpa"
    again.create_archive_file(str(theirs))
    assert ours.read_bytes() == theirs.read_bytes()
    # The official runtime reads our archive as the writer described it.
    assert oracle_load(iree_rt, ours) == ("ok", readback(target))
    # From other formats too, and at a file offset (the header starts there;
    # the bytes match create_archive_file's at the same offset).
    st = tmp_path / "model.safetensors"
    st.write_bytes(pf.safetensors(
        [("a", "F32", [3], pf.pattern_bytes(12)), ("b", "I8", [0], b""),
         ("c", "U8", [70], pf.pattern_bytes(70))], metadata={"k": "v"}))
    for offset in (0, 100, 4096):
        ours = tmp_path / f"st{offset}.irpa"
        status, target = ember("write", st, ours, offset)
        assert status == "ok", target
        index = iree_rt.ParameterIndex()
        index.load(str(st))
        theirs = tmp_path / f"st{offset}-oracle.irpa"
        index.create_archive_file(str(theirs), offset)
        data = ours.read_bytes()
        if offset % 16 == 0:
            assert data == theirs.read_bytes(), offset
        else:
            # iree.runtime aligns each entry of the table to 16 in the file
            # rather than in the archive, so at an offset that is not a
            # multiple of 16 its table disagrees with its own header. Ember
            # keeps the header's layout: the archive cut out at the offset
            # reads back as one written at 0.
            assert len(data) == len(theirs.read_bytes())
            cut = tmp_path / f"st{offset}-cut.irpa"
            cut.write_bytes(data[offset:])
            shifted = [(k, kind, o - offset, n, m, p)
                       for k, kind, o, n, m, p in target]
            assert oracle_load(iree_rt, cut) == ("ok", readback(shifted))
        for key, _, file_offset, length, _, _ in target:
            name = key.decode()
            source_entry = dict(index.items())[name]
            assert data[file_offset:file_offset + length] == bytes(
                source_entry.file_view), name
        if offset == 0:
            assert oracle_load(iree_rt, ours) == ("ok", readback(target))


def test_irpa_duplicate_keys_keep_their_bytes(iree_rt, tmp_path):
    # iree.runtime's builder copies each entry's data to the first target
    # entry of that key (a lookup by name), so with duplicate keys the first
    # slot gets the last duplicate's bytes and the others stay zero. Ember
    # writes each entry's own bytes at its own slot; the layout is the same.
    st = tmp_path / "dup.safetensors"
    st.write_bytes(pf.safetensors([], raw_header=(
        '{"d": {"data_offsets": [0, 5]}, "d": {"data_offsets": [5, 12]}}')) +
        b"firstsecond!")
    ours = tmp_path / "dup.irpa"
    status, target = ember("write", st, ours)
    assert status == "ok"
    loaded = iree_rt.ParameterIndex()
    loaded.load(str(ours))
    assert oracle_entries(loaded) == target
    data = ours.read_bytes()
    assert [data[o:o + n] for _, _, o, n, _, _ in target] == [b"first",
                                                             b"second!"]


def test_irpa_pure_python_layout_matches(iree_rt, tmp_path):
    # tests/io/param_files.irpa (the fuzz seeds' writer) is the builder's
    # layout, so the seeds are archives the official runtime writes.
    index = iree_rt.ParameterIndex()
    index.add_buffer("w", pf.pattern_bytes(40), metadata="meta")
    index.add_splat("s", b"\x07\0\0\0", 1024)
    index.add_buffer("b", pf.pattern_bytes(3))
    path = tmp_path / "a.irpa"
    index.create_archive_file(str(path))
    assert path.read_bytes() == pf.irpa([
        ("w", b"meta", ("data", pf.pattern_bytes(40))),
        ("s", b"", ("splat", b"\x07\0\0\0", 1024)),
        ("b", b"", ("data", pf.pattern_bytes(3)))])


def _irpa_variants():
    base = pf.irpa([("w", b"meta", ("data", pf.pattern_bytes(40))),
                    ("s", b"", ("splat", b"\x01\x02", 64)),
                    ("b", b"", ("data", pf.pattern_bytes(3)))])

    def patched(offset, fmt, value):
        data = bytearray(base)
        struct.pack_into(fmt, data, offset, value)
        return bytes(data)
    return {
        "good": base,
        "skip_entry": patched(96 + 8, "<I", 0),
        "external_entry": patched(96 + 8, "<I", 3),
        "unknown_entry": patched(96 + 8, "<I", 9),
        "bad_magic": patched(0, "<I", 0x41505248),
        "major_1": patched(4, "<H", 1),
        "minor_1": patched(6, "<H", 1),
        "header_size": patched(8, "<Q", 96),
        "entry_count_huge": patched(32, "<Q", 2**63),
        "entry_count_short": patched(32, "<Q", 2),
        "storage_past_end": patched(80, "<Q", 2**20),
        "metadata_past_end": patched(64, "<Q", 2**40),
        "name_out_of_segment": patched(96 + 28, "<Q", 2**20),
        "data_out_of_segment": patched(96 + 60, "<Q", 2**30),
        "pattern_17": patched(176 + 84, "<B", 17),
        "pattern_3": patched(176 + 84, "<B", 3),
        "entry_size_small": patched(96, "<Q", 59),
        "data_entry_short": patched(96, "<Q", 70),
        "truncated_header": base[:40],
        "empty": b"",
    }


@pytest.mark.parametrize("name", sorted(_irpa_variants()))
def test_irpa_variants_agree(iree_rt, tmp_path, name):
    path = tmp_path / f"{name}.irpa"
    path.write_bytes(_irpa_variants()[name])
    assert_same_reading(iree_rt, path)


def _safetensors_files():
    a = pf.pattern_bytes(12)
    files = {
        "basic": pf.safetensors([("a", "F32", [3], a), ("b", "I8", [2], b"xy")]),
        "metadata": pf.safetensors([("w", "F16", [2, 2], pf.pattern_bytes(8))],
                                   metadata={"format": "pt", "x": "y"}),
        "padded": pf.safetensors([("w", "U8", [5], b"12345")], header_pad=7),
        "empty_tensor": pf.safetensors([("e", "F32", [0], b""),
                                        ("f", "F32", [1], b"abcd")]),
        "no_tensors": pf.safetensors([], metadata={}),
        "unicode_keys": pf.safetensors([("ключ", "U8", [1], b"k"),
                                        ("emoji😀", "U8", [1], b"e")]),
    }
    raw = {
        "escaped_key": '{"a\\u00e9\\"q": {"data_offsets": [0, 4]}}',
        "duplicate_keys": '{"a": {"data_offsets": [0, 2]}, '
                          '"a": {"data_offsets": [2, 4]}}',
        "comments": '{/* c */ "a": // line\n {"data_offsets": [1, 3]}}',
        "trailing_comma": '{"a": {"data_offsets": [0, 4]},}',
        "string_offsets": '{"a": {"data_offsets": "[0x1, 3]"}}',
        "three_offsets": '{"a": {"data_offsets": [0, 1, 2]}}',
        "bom_value": '{"a": \ufeff{"data_offsets": [0, 4]}}',
        "trailing_text": '{"a": {"data_offsets": [0, 4]}} garbage',
        "past_end": '{"a": {"data_offsets": [0, 5]}}',
        "reversed": '{"a": {"data_offsets": [3, 1]}}',
        "no_offsets": '{"a": {"dtype": "F32"}}',
        "string_value": '{"a": "x"}',
        "leading_space": ' {"a": {"data_offsets": [0, 4]}}',
        "unterminated": '{"a": {"data_offsets": [0, 4]}',
        "bad_escape": '{"a\\q": {"data_offsets": [0, 4]}}',
        "deep": '{"a": {"data_offsets": [0, 4], "x": ' + "[" * 150 +
                "]" * 150 + "}}",
        "negative": '{"a": {"data_offsets": [-1, 4]}}',
        "float_offsets": '{"a": {"data_offsets": [0.5, 4]}}',
        "huge_offsets": '{"a": {"data_offsets": [0, 99999999999999999999]}}',
    }
    for name, text in raw.items():
        files[name] = pf.safetensors([], raw_header=text) + b"DATA"
    files["short"] = b"\x01\x02"
    files["header_too_long"] = struct.pack("<Q", 2**63) + b"{}"
    return files


@pytest.mark.parametrize("name", sorted(_safetensors_files()))
def test_safetensors_agree(iree_rt, tmp_path, name):
    path = tmp_path / f"{name}.safetensors"
    path.write_bytes(_safetensors_files()[name])
    assert_same_reading(iree_rt, path)


def _gguf_files():
    kv = [("general.name", 8, "tiny"), ("x.u8", 0, 7), ("x.f64", 12, 1.5),
          ("x.bool", 7, True), ("x.strs", 9, (8, ["a", "bc", ""])),
          ("x.i32s", 9, (5, [1, -2, 3]))]
    every_type = [(f"t{t}", t, [GGML[0] * 2]) for t, GGML in
                  sorted(pf.GGML_TYPES.items())]
    files = {
        "every_type": pf.gguf(every_type, kv)[0],
        "align16": pf.gguf([("a", 0, [3]), ("b", 1, [5, 3])], kv, 16)[0],
        "align64": pf.gguf([("a", 0, [3]), ("b", 8, [32])], [], 64)[0],
        "align48": pf.gguf([("a", 0, [3])], [], 48)[0],
        "v2": pf.gguf([("a", 0, [4])], kv, version=2)[0],
        "scalar_rank0": pf.gguf([("s", 0, [])], kv)[0],
        "no_tensors": pf.gguf([], kv)[0],
        "dup_names": pf.gguf([("a", 0, [2]), ("a", 0, [4])])[0],
    }
    good = pf.gguf([("a", 0, [4]), ("b", 16, [9])], kv)[0]

    def patched(data, offset, fmt, value):
        data = bytearray(data)
        struct.pack_into(fmt, data, offset, value)
        return bytes(data)
    files["version1"] = patched(good, 4, "<I", 1)
    files["version4"] = patched(good, 4, "<I", 4)
    files["bad_magic"] = patched(good, 0, "<I", 0x46554748)
    files["kv_count_huge"] = patched(good, 16, "<Q", 2**60)
    files["tensor_count_huge"] = patched(good, 8, "<Q", 2**60)
    files["truncated"] = good[:60]
    files["type_unknown"] = pf.gguf([("a", 19, [1])])[0]
    files["past_end"] = pf.gguf([("a", 0, [4])])[0][:-4]
    files["alignment_i32"] = pf.gguf([("a", 0, [4])],
                                     [("general.alignment", 5, 16)])[0]
    files["nested_array"] = pf.gguf([("a", 0, [4])],
                                    [("n", 9, (9, []))])[0]
    files["bad_value_type"] = pf.gguf([("a", 0, [4])], [("x", 13, b"")])[0]
    files["removed_type4"] = pf.gguf([("a", 4, [32])])[0]
    return files


# Files that crash iree.runtime 3.11 (ggml types 4 and 5 have no traits in
# its table: a division by zero). Ember must refuse them.
GGUF_ORACLE_CRASHES = {"removed_type4": "GGML tensor type 4 not supported"}


@pytest.mark.parametrize("name", sorted(_gguf_files()))
def test_gguf_agree(iree_rt, tmp_path, name):
    path = tmp_path / f"{name}.gguf"
    path.write_bytes(_gguf_files()[name])
    if name in GGUF_ORACLE_CRASHES:
        status, message = ember("dump", path)
        assert status == "error" and GGUF_ORACLE_CRASHES[name] in message
        return
    assert_same_reading(iree_rt, path)


def test_gguf_offsets_are_the_writers(tmp_path):
    data, placed = pf.gguf([("a", 0, [3]), ("b", 12, [256, 2]),
                            ("c", 8, [64])], [], 64)
    path = tmp_path / "m.gguf"
    path.write_bytes(data)
    status, entries = ember("dump", path)
    assert status == "ok"
    assert [(k.decode(), o, n) for k, _, o, n, _, _ in entries] == placed


def test_unknown_format_is_refused(tmp_path):
    path = tmp_path / "weights.bin"
    path.write_bytes(b"\0" * 64)
    status, message = ember("dump", path)
    assert status == "error" and "UNIMPLEMENTED" in message and "bin" in message
