"""Ember's ``VmModule.dump(json=True)`` against the compiler's own JSON.

For every corpus program the corpus holds the compiler's
``--iree-vm-bytecode-module-output-format=flatbuffer-text`` output: the whole
module FlatBuffer as JSON, compiled with exactly the flags of the "embedded"
and "flat" .vmfb forms apart from the output format, so each field of those
modules must be what the compiler wrote. The compiler's JSON printer omits
fields that hold their default value, prints bit-flag enums as space-separated
names ("EXT_F32 YIELD") and unions as a ``<name>_type`` list beside the value
list.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

FEATURE_BITS = {"EXT_F32": 1, "EXT_F64": 2, "YIELD": 4, "UNWIND": 8}
LINK_FLAG_BITS = {"REQUIRED": 1, "OPTIONAL": 2}
# A rodata segment of at least this many bytes is always written outside the
# FlatBuffer by iree-compile 3.11 (kMaxEmbeddedDataSize); smaller ones may be
# external too when they carry a MIME type (executables).
ALWAYS_EXTERNAL_SIZE = 4 * 1024


def flag_bits(value, names: dict, default: int) -> int:
    """A flatcc bit-flag field: absent, an int, or names like "YIELD UNWIND"."""
    if value is None:
        return default
    if isinstance(value, int):
        return value
    bits = 0
    for word in value.split():
        assert word in names, f"unknown flag name {word!r} in {value!r}"
        bits |= names[word]
    return bits


def test_flag_bits():
    assert flag_bits(None, FEATURE_BITS, 0) == 0
    assert flag_bits("YIELD UNWIND", FEATURE_BITS, 0) == 12
    assert flag_bits("EXT_F32", FEATURE_BITS, 0) == 1
    assert flag_bits(0, FEATURE_BITS, 0) == 0
    assert flag_bits(None, LINK_FLAG_BITS, 1) == 1
    assert flag_bits("OPTIONAL", LINK_FLAG_BITS, 1) == 2
    with pytest.raises(AssertionError):
        flag_bits("BOGUS", FEATURE_BITS, 0)


@functools.lru_cache(maxsize=None)
def ember_dump(path: str) -> dict:
    import ember.runtime as rt
    module = rt.VmModule.mmap(rt.VmInstance(), path)
    text = module.dump(json=True)
    return json.loads(text)


@pytest.fixture
def pair(json_case, compiler_json):
    """(Ember's JSON of the .vmfb, the compiler's JSON of the same module)."""
    return ember_dump(str(json_case.path)), compiler_json(json_case.json_path)


def test_module_header(pair):
    ours, theirs = pair
    assert ours["name"] == theirs["name"]
    assert ours["version"] == theirs.get("version", 0)
    assert ours["requirements"] == flag_bits(theirs.get("requirements"),
                                             FEATURE_BITS, 0)
    version = theirs.get("bytecode_version", 0)
    assert ours["bytecode_version"] == [version >> 16, version & 0xFFFF]
    assert ours["attrs"] == {a["key"]: a["value"]
                             for a in theirs.get("attrs", [])}
    assert len(ours["attrs"]) == len(theirs.get("attrs", []))


def test_types(pair):
    ours, theirs = pair
    assert ours["types"] == [t["full_name"] for t in theirs.get("types", [])]


def test_dependencies(pair):
    ours, theirs = pair
    expected = [{"name": d["name"],
                 "minimum_version": d.get("minimum_version", 0),
                 "flags": flag_bits(d.get("flags"), LINK_FLAG_BITS, 1)}
                for d in theirs.get("dependencies", [])]
    assert ours["dependencies"] == expected


def test_imports(pair, json_case):
    ours, theirs = pair
    expected = [{"full_name": i["full_name"],
                 "cconv": i.get("signature", {}).get("calling_convention", ""),
                 "flags": flag_bits(i.get("flags"), LINK_FLAG_BITS, 1)}
                for i in theirs.get("imported_functions", [])]
    assert ours["imports"] == expected
    if json_case.kind == "tensor":
        assert expected, "a tensor program imports the HAL"


def test_exports(pair):
    ours, theirs = pair
    signatures = theirs.get("function_signatures", [])
    expected = []
    for e in theirs.get("exported_functions", []):
        ordinal = e.get("internal_ordinal", 0)
        signature = signatures[ordinal]
        expected.append({
            "name": e["local_name"],
            "internal_ordinal": ordinal,
            "cconv": signature.get("calling_convention", ""),
            "reflection": {a["key"]: a["value"]
                           for a in signature.get("attrs", [])},
        })
    assert expected
    assert ours["exports"] == expected


def test_function_signatures_and_descriptors(pair):
    ours, theirs = pair
    signatures = theirs.get("function_signatures", [])
    descriptors = theirs.get("function_descriptors", [])
    assert len(signatures) == len(descriptors) == len(ours["functions"])
    for i, (mine, signature, descriptor) in enumerate(
            zip(ours["functions"], signatures, descriptors)):
        assert mine["cconv"] == signature.get("calling_convention", ""), i
        attrs = [(a["key"], a["value"]) for a in signature.get("attrs", [])]
        assert list(mine["attrs"].items()) == attrs, i
        assert descriptor.get("reserved", 0) == 0
        for key in ("bytecode_offset", "bytecode_length", "block_count",
                    "i32_register_count", "ref_register_count"):
            assert mine[key] == descriptor.get(key, 0), (i, key)
        assert mine["requirements"] == flag_bits(
            descriptor.get("requirements"), FEATURE_BITS, 0), i
        # Every function's bytecode lies inside the bytecode blob.
        assert (mine["bytecode_offset"] + mine["bytecode_length"] <=
                ours["bytecode_size"])


def test_rodata(pair, json_case):
    ours, theirs = pair
    segments = theirs.get("rodata_segments", [])
    assert len(ours["rodata"]) == len(segments)
    data = Path(json_case.path).read_bytes()
    for i, (mine, segment) in enumerate(zip(ours["rodata"], segments)):
        # The JSON writer cannot hold side files, so it embeds every segment.
        contents = bytes(segment.get("embedded_data", []))
        assert mine["size"] == len(contents), i
        offset = mine["archive_offset"]
        assert data[offset:offset + mine["size"]] == contents, (
            f"rodata[{i}] ({'embedded' if mine['embedded'] else 'external'}) "
            f"at archive offset {offset} does not hold the compiler's bytes")
        if len(contents) >= ALWAYS_EXTERNAL_SIZE:
            assert not mine["embedded"], i


def test_module_state_and_bytecode(pair):
    ours, theirs = pair
    state = theirs.get("module_state", {})
    assert ours["module_state"] == {
        "global_bytes_capacity": state.get("global_bytes_capacity", 0),
        "global_ref_count": state.get("global_ref_count", 0)}
    assert ours["bytecode_size"] == len(theirs.get("bytecode_data", []))


def test_debug_database(pair):
    ours, theirs = pair
    database = theirs.get("debug_database")
    if database is None:
        assert ours["debug_database"] is None
        return
    mine = ours["debug_database"]
    table = database.get("location_table", [])
    kinds = database.get("location_table_type", [])
    assert mine["location_count"] == len(table)
    functions = database.get("functions", [])
    assert [f["name"] for f in mine["functions"]] == \
        [f.get("local_name", "") for f in functions]
    for ours_map, map_def in zip(mine["functions"], functions):
        locations = map_def.get("locations", [])
        assert len(ours_map["locations"]) == len(locations)
        assert [l["pc"] for l in ours_map["locations"]] == \
            [l.get("bytecode_offset", 0) for l in locations]
        # Where the location is a plain file:line:col, Ember names exactly
        # that entry of the table; an empty (NONE) entry names nothing.
        for ours_loc, loc in zip(ours_map["locations"], locations):
            index = loc.get("location", 0)
            if kinds[index] == "FileLineColLocDef":
                entry = table[index]
                assert ours_loc["location"] == (
                    f"{entry['filename']}:{entry.get('line', 0)}:"
                    f"{entry.get('column', 0)}")
            elif kinds[index] == "NONE":
                assert ours_loc["location"] == ""


def test_every_program_has_its_json(corpus_module, compiler_json):
    # The compiler's JSON exists and names the same module as each .vmfb.
    theirs = compiler_json(corpus_module["forms"]["json"])
    for form, path in corpus_module["forms"].items():
        if form == "json":
            continue
        assert ember_dump(path)["name"] == theirs["name"], form
