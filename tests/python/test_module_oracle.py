"""Ember's view of every corpus module equals the official runtime's.

Two oracles, both from IREE 3.11:
  * ``iree.runtime``: VmModule / VmFunction properties and reprs, loaded the
    same way (mmap, copy_buffer) in both runtimes;
  * ``iree-dump-module --output=metadata``: the module's structure, which is
    parsed here and compared with Ember's ``VmModule.dump(json=True)``.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

LOADERS = ("mmap", "copy_buffer")


def load(rt, loader: str, path: Path):
    instance = rt.VmInstance()
    if loader == "mmap":
        return rt.VmModule.mmap(instance, str(path))
    return rt.VmModule.copy_buffer(instance, Path(path).read_bytes())


@functools.lru_cache(maxsize=None)
def ember_json(path: str) -> dict:
    import ember.runtime as rt
    return json.loads(load(rt, "mmap", Path(path)).dump(json=True))


# ---------------------------------------------------------------------------
# How iree-dump-module renders things (tools/iree-dump-module-main.c, 3.11)
# ---------------------------------------------------------------------------

_CCONV_TYPES = {"i": "i32", "I": "i64", "f": "f32", "F": "f64",
                "r": "!vm.ref<?>", "v": ""}


def render_cconv_fragment(fragment: str) -> str:
    """'riCiD' -> '!vm.ref<?>, i32, tuple<i32>...' (void renders empty)."""
    parts = []
    i = 0
    while i < len(fragment):
        c = fragment[i]
        if c == "C":
            end = fragment.index("D", i + 1)
            parts.append("tuple<" + render_cconv_fragment(fragment[i + 1:end])
                         + ">...")
            i = end + 1
        else:
            parts.append(_CCONV_TYPES[c])
            i += 1
    return ", ".join(parts)


def render_signature(cconv: str) -> str:
    """'0ri_v' -> '(!vm.ref<?>, i32) -> ()'; no cconv -> nothing printed."""
    if not cconv:
        return ""
    assert cconv[0] == "0", f"unexpected cconv version in {cconv!r}"
    body = cconv[1:]
    arguments, sep, results = body.partition("_")
    if arguments == "v":
        arguments = ""
    if results == "v":
        results = ""
    return (f"({render_cconv_fragment(arguments)}) -> "
            f"({render_cconv_fragment(results)})")


def render_feature_bits(bits: int) -> str:
    parts = []
    if bits & 1:
        parts.append("EXT_F32")
        bits &= ~1
    if bits & 2:
        parts.append("EXT_F64")
        bits &= ~2
    if bits:
        parts.append(f"{bits:08X}")
    return " | ".join(parts)


def test_render_helpers():
    # The renderers are the expectations of the comparisons below; pin them
    # to lines copied from real iree-dump-module output.
    assert (render_signature("0rIIiiCID_r") ==
            "(!vm.ref<?>, i64, i64, i32, i32, tuple<i64>...) -> (!vm.ref<?>)")
    assert (render_signature("0rriiiiICiDCiirIID_v") ==
            "(!vm.ref<?>, !vm.ref<?>, i32, i32, i32, i32, i64, tuple<i32>..., "
            "tuple<i32, i32, !vm.ref<?>, i64, i64>...) -> ()")
    assert render_signature("0v_v") == "() -> ()"
    assert render_signature("0v_i") == "() -> (i32)"
    assert render_signature("0fF_iI") == "(f32, f64) -> (i32, i64)"
    assert render_signature("") == ""
    assert render_feature_bits(0) == ""
    assert render_feature_bits(0xC) == "0000000C"
    assert render_feature_bits(0xD) == "EXT_F32 | 0000000C"
    assert render_feature_bits(3) == "EXT_F32 | EXT_F64"


# ---------------------------------------------------------------------------
# A parser for `iree-dump-module --output=metadata`
# ---------------------------------------------------------------------------


@dataclass
class DumpedFunction:
    index: int
    line: str  # "?name(args) -> (results)" as printed
    attr_text: str  # the attribute lines that follow, verbatim


@dataclass
class IreeDump:
    name: str = ""
    version: int = -1
    requirements: str | None = None
    attributes: list = field(default_factory=list)
    types: list = field(default_factory=list)
    dependencies: list = field(default_factory=list)
    imports: list = field(default_factory=list)
    exports: list = field(default_factory=list)
    module_state: tuple | None = None  # (bytes, refs, total)
    flatbuffer_size: int | None = None
    bytecode_size: int | None = None
    rodata: list = field(default_factory=list)
    rwdata: list = field(default_factory=list)
    external_rodata: int | None = None
    functions: list = field(default_factory=list)
    locations: int | None = None
    sections: list = field(default_factory=list)


_ENTRY = re.compile(r"^  \[\s*(\d+)\] (.*)$")
_RODATA = re.compile(r"^  \.rodata\[\s*(\d+)\] (?:uncompressed )?"
                     r"(embedded|external)\s+(\d+) bytes(.*)$")
_FUNCTION_ROW = re.compile(
    r"^\s*(\d+) \| ([0-9A-F]{8}) \|\s+(-?\d+) \|\s+(-?\d+) \|\s+(-?\d+) \|"
    r"\s+(-?\d+) \| (.*) \| ?([^|]*)$")


def _block(lines: list, start: int) -> tuple:
    """Lines after the label at `start` up to the next blank line."""
    body = []
    i = start + 1
    while i < len(lines) and lines[i].strip():
        body.append(lines[i])
        i += 1
    return body, i


def _function_entries(body: list) -> list:
    entries = []
    for line in body:
        m = _ENTRY.match(line)
        if m:
            entries.append(DumpedFunction(int(m.group(1)), m.group(2), ""))
        else:
            assert entries, f"attribute line before any function: {line!r}"
            entries[-1].attr_text += line + "\n"
    return entries


def parse_iree_dump(text: str) -> IreeDump:
    dump = IreeDump()
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if m := re.match(r"^// @(.*) : version (\d+)$", line):
            if not dump.name:
                dump.name, dump.version = m.group(1), int(m.group(2))
        elif line.startswith("Requirements: "):
            dump.requirements = line[len("Requirements: "):]
        elif line in ("Attributes:", "Required Types:", "Module Dependencies:",
                      "Imported Functions:", "Exported Functions:",
                      "Module State:"):
            dump.sections.append(line[:-1])
            body, i = _block(lines, i)
            if line == "Attributes:":
                dump.attributes = [b[2:] for b in body]
            elif line == "Required Types:":
                for b in body:
                    m = _ENTRY.match(b)
                    assert m, f"unparsed type line {b!r}"
                    dump.types.append(m.group(2))
            elif line == "Module Dependencies:":
                for b in body:
                    m = re.match(r"^  (.*), version >= (-?\d+), "
                                 r"(required|optional)$", b)
                    assert m, f"unparsed dependency line {b!r}"
                    dump.dependencies.append(
                        (m.group(1), int(m.group(2)), m.group(3)))
            elif line == "Imported Functions:":
                dump.imports = _function_entries(body)
            elif line == "Exported Functions:":
                dump.exports = _function_entries(body)
            else:
                m = re.match(r"^  (\d+) bytes, (\d+) refs, ~(\d+) bytes total$",
                             body[0])
                assert m, f"unparsed module state {body!r}"
                dump.module_state = tuple(int(g) for g in m.groups())
            continue
        elif m := re.match(r"^FlatBuffer: (\d+) bytes$", line):
            dump.flatbuffer_size = int(m.group(1))
            body, i = _block(lines, i)
            for b in body:
                if m := re.match(r"^  Bytecode: (\d+) bytes$", b):
                    dump.bytecode_size = int(m.group(1))
                elif m := _RODATA.match(b):
                    dump.rodata.append((int(m.group(1)), m.group(2),
                                        int(m.group(3)), m.group(4)))
                elif m := re.match(r"^  \.rwdata\[\s*(\d+)\] (\d+) bytes$", b):
                    dump.rwdata.append(int(m.group(2)))
                else:
                    raise AssertionError(f"unparsed section line {b!r}")
            continue
        elif m := re.match(r"^External \.rodata: ~(\d+) bytes$", line):
            dump.external_rodata = int(m.group(1))
        elif line.startswith("  # | Offset"):
            i += 2  # the header and its ruler
            while i < len(lines) and lines[i].strip():
                m = _FUNCTION_ROW.match(lines[i])
                assert m, f"unparsed function row {lines[i]!r}"
                aliases = m.group(8).strip()
                dump.functions.append({
                    "index": int(m.group(1)),
                    "bytecode_offset": int(m.group(2), 16),
                    "bytecode_length": int(m.group(3)),
                    "block_count": int(m.group(4)),
                    "i32_register_count": int(m.group(5)),
                    "ref_register_count": int(m.group(6)),
                    "requirements": m.group(7).strip(),
                    "aliases": aliases.split(", ") if aliases else [],
                })
                i += 1
            continue
        elif m := re.match(r"^Locations: (\d+)$", line):
            dump.locations = int(m.group(1))
        i += 1
    return dump


def test_parser_on_a_known_dump():
    # A hand-written excerpt in iree-dump-module's format (not from a file),
    # so that the parser itself is checked, including the awkward cases: an
    # optional import, a multi-attribute export and a requirements cell that
    # contains a '|'.
    text = "\n".join([
        "// @demo : version 7",
        "",
        "Requirements: EXT_F32 | 0000000C",
        "",
        "Required Types:",
        "  [  0] i32",
        "  [  1] !hal.buffer",
        "",
        "Module Dependencies:",
        "  hal, version >= 6, required",
        "  extra, version >= 0, optional",
        "",
        "Imported Functions:",
        "  [  0] ?hal.x(i32) -> ()",
        "",
        "Exported Functions:",
        "  [  0] f(i32) -> (i32)",
        "        a: b",
        "        c: d: e",
        "  [  1] g() -> ()",
        "",
        "Module State:",
        "  8 bytes, 2 refs, ~40 bytes total",
        "",
        "FlatBuffer: 100 bytes",
        "  Bytecode: 10 bytes",
        "  .rodata[  0] embedded        6 bytes `input0`",
        "  .rodata[  1] external     4320 bytes (offset 96 / 60h to 1140h)",
        "",
        "External .rodata: ~4320 bytes",
        "",
        "  # | Offset   |   Length | Blocks | i32 # | ref # | Requirements | "
        "Aliases",
        "----+----------+----------+--------+-------+-------+--------------+-",
        "  0 | 000000E0 |      408 |      1 |    14 |     9 | EXT_F32 | "
        "00000008 | f",
        "  1 | 00000278 |        4 |      1 |     0 |     0 |              | ",
        "",
        "Locations: 12",
    ])
    d = parse_iree_dump(text)
    assert (d.name, d.version) == ("demo", 7)
    assert d.requirements == "EXT_F32 | 0000000C"
    assert d.types == ["i32", "!hal.buffer"]
    assert d.dependencies == [("hal", 6, "required"), ("extra", 0, "optional")]
    assert [(f.index, f.line) for f in d.imports] == [(0, "?hal.x(i32) -> ()")]
    assert [(f.line, f.attr_text) for f in d.exports] == [
        ("f(i32) -> (i32)", "        a: b\n        c: d: e\n"),
        ("g() -> ()", "")]
    assert d.module_state == (8, 2, 40)
    assert (d.flatbuffer_size, d.bytecode_size) == (100, 10)
    assert d.rodata == [(0, "embedded", 6, " `input0`"),
                        (1, "external", 4320, " (offset 96 / 60h to 1140h)")]
    assert d.external_rodata == 4320
    assert d.functions[0]["requirements"] == "EXT_F32 | 00000008"
    assert d.functions[0]["aliases"] == ["f"]
    assert d.functions[0]["bytecode_offset"] == 0xE0
    assert d.functions[1]["requirements"] == ""
    assert d.functions[1]["aliases"] == []
    assert d.locations == 12


def find_iree_dump_module() -> str | None:
    """The native iree-dump-module (the PATH entry is a slower Python shim)."""
    try:
        import iree._runtime_libs as libs
        native = Path(libs.__file__).parent / "iree-dump-module"
        if native.is_file():
            return str(native)
    except ImportError:
        pass
    return shutil.which("iree-dump-module")


@functools.lru_cache(maxsize=None)
def iree_dump(path: str) -> IreeDump:
    tool = find_iree_dump_module()
    if tool is None:
        pytest.skip("iree-dump-module is not installed")
    proc = subprocess.run([tool, "--output=metadata", path],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return parse_iree_dump(proc.stdout)


# ---------------------------------------------------------------------------
# iree.runtime vs ember.runtime
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("loader", LOADERS)
def test_module_properties(vmfb_case, loader, ember_rt, iree_rt):
    ours = load(ember_rt, loader, vmfb_case.path)
    theirs = load(iree_rt, loader, vmfb_case.path)
    assert ours.name == theirs.name
    assert ours.version == theirs.version
    assert list(ours.function_names) == list(theirs.function_names)
    assert repr(ours) == repr(theirs)


def _function_view(function):
    return {
        "name": function.name,
        "ordinal": function.ordinal,
        "linkage": int(function.linkage),
        "module_name": function.module_name,
        "reflection": dict(function.reflection),
        "repr": repr(function),
    }


@pytest.mark.parametrize("loader", LOADERS)
def test_exports(vmfb_case, loader, ember_rt, iree_rt):
    ours = load(ember_rt, loader, vmfb_case.path)
    theirs = load(iree_rt, loader, vmfb_case.path)
    names = list(theirs.function_names)
    assert names, "every corpus module exports something"
    for name in names:
        for linkage in ("EXPORT", "EXPORT_OPTIONAL"):
            mine = ours.lookup_function(name, getattr(ember_rt.Linkage, linkage))
            ref = theirs.lookup_function(name, getattr(iree_rt.Linkage, linkage))
            assert ref is not None
            assert mine is not None, f"{name} ({linkage}) not found by Ember"
            assert _function_view(mine) == _function_view(ref), name
    # The default linkage is EXPORT.
    first = ours.lookup_function(names[0])
    assert first.linkage == ember_rt.Linkage.EXPORT.value
    assert first.ordinal == 0


@pytest.mark.parametrize("loader", LOADERS)
def test_imports_and_missing_names(vmfb_case, loader, ember_rt, iree_rt):
    ours = load(ember_rt, loader, vmfb_case.path)
    theirs = load(iree_rt, loader, vmfb_case.path)
    imports = [i["full_name"] for i in ember_json(str(vmfb_case.path))["imports"]]
    assert [f.line.lstrip("?").split("(")[0]
            for f in iree_dump(str(vmfb_case.path)).imports] == imports
    # Imports: IREE cannot give reflection of an import, so compare the rest.
    for name in imports:
        for linkage in ("IMPORT", "IMPORT_OPTIONAL"):
            mine = ours.lookup_function(name, getattr(ember_rt.Linkage, linkage))
            ref = theirs.lookup_function(name, getattr(iree_rt.Linkage, linkage))
            assert ref is not None and mine is not None, name
            assert ((mine.name, mine.ordinal, int(mine.linkage),
                     mine.module_name) ==
                    (ref.name, ref.ordinal, int(ref.linkage), ref.module_name))
    exports = list(theirs.function_names)
    queries = [("no_such_function", "EXPORT"), ("__no", "IMPORT"),
               (exports[0] + "x", "EXPORT"), (exports[0][:-1], "EXPORT"),
               (exports[0].upper() + "_", "EXPORT"),
               (exports[0], "IMPORT"), (exports[0], "IMPORT_OPTIONAL"),
               (exports[0], "INTERNAL"), ("no_such_function", "EXPORT_OPTIONAL")]
    if imports:
        queries += [(imports[0], "EXPORT"), (imports[0], "INTERNAL"),
                    (imports[0], "EXPORT_OPTIONAL")]
    for name, linkage in queries:
        ref = theirs.lookup_function(name, getattr(iree_rt.Linkage, linkage))
        mine = ours.lookup_function(name, getattr(ember_rt.Linkage, linkage))
        assert ref is None, (name, linkage)
        assert mine is None, (name, linkage)


def test_empty_function_name_is_rejected_like_iree(sample_vmfb, ember_rt,
                                                   iree_rt):
    # IREE refuses an empty name ("function name required for query") with a
    # ValueError rather than answering None.
    theirs = load(iree_rt, "mmap", sample_vmfb)
    with pytest.raises(ValueError):
        theirs.lookup_function("")
    ours = load(ember_rt, "mmap", sample_vmfb)
    with pytest.raises(ValueError):
        ours.lookup_function("")


def test_sample_module_matches(sample_vmfb, ember_rt, iree_rt):
    for loader in LOADERS:
        ours = load(ember_rt, loader, sample_vmfb)
        theirs = load(iree_rt, loader, sample_vmfb)
        assert repr(ours) == repr(theirs)
        assert repr(ours) == "<VmModule module : [simple_mul, add_one, __init]>"
        for name in theirs.function_names:
            assert (_function_view(ours.lookup_function(name)) ==
                    _function_view(theirs.lookup_function(name)))


# ---------------------------------------------------------------------------
# iree-dump-module vs VmModule.dump(json=True)
# ---------------------------------------------------------------------------


def _attr_text(attrs: dict, indent: int) -> str:
    return "".join(f"{' ' * indent}{k}: {v}\n" for k, v in attrs.items())


def test_dump_header_types_and_dependencies(vmfb_case):
    ref = iree_dump(str(vmfb_case.path))
    ours = ember_json(str(vmfb_case.path))
    assert (ours["name"], ours["version"]) == (ref.name, ref.version)
    if ref.requirements is None:
        assert ours["requirements"] == 0
    else:
        assert render_feature_bits(ours["requirements"]) == ref.requirements
    assert [f"{k}: {v}" for k, v in ours["attrs"].items()] == ref.attributes
    assert ours["types"] == ref.types
    assert [(d["name"], d["minimum_version"],
             "optional" if d["flags"] & 2 else "required")
            for d in ours["dependencies"]] == ref.dependencies


def test_dump_imports(vmfb_case):
    ref = iree_dump(str(vmfb_case.path))
    ours = ember_json(str(vmfb_case.path))
    assert len(ours["imports"]) == len(ref.imports)
    for i, (mine, theirs) in enumerate(zip(ours["imports"], ref.imports)):
        assert theirs.index == i
        expected = (("?" if mine["flags"] & 2 else "") + mine["full_name"] +
                    render_signature(mine["cconv"]))
        assert expected == theirs.line
        # Import attributes are not in Ember's JSON; the corpus has none.
        assert theirs.attr_text == ""
    if vmfb_case.kind == "tensor":
        assert ours["imports"], "tensor programs import the HAL"


def test_dump_exports(vmfb_case):
    ref = iree_dump(str(vmfb_case.path))
    ours = ember_json(str(vmfb_case.path))
    assert len(ours["exports"]) == len(ref.exports) > 0
    for i, (mine, theirs) in enumerate(zip(ours["exports"], ref.exports)):
        assert theirs.index == i
        assert mine["name"] + render_signature(mine["cconv"]) == theirs.line
        assert _attr_text(mine["reflection"], 8) == theirs.attr_text


def test_dump_functions_table(vmfb_case):
    ref = iree_dump(str(vmfb_case.path))
    ours = ember_json(str(vmfb_case.path))
    assert len(ours["functions"]) == len(ref.functions)
    for i, (mine, theirs) in enumerate(zip(ours["functions"], ref.functions)):
        assert theirs["index"] == i
        for key in ("bytecode_offset", "bytecode_length", "block_count",
                    "i32_register_count", "ref_register_count"):
            assert mine[key] == theirs[key], (i, key)
        assert render_feature_bits(mine["requirements"]) == \
            theirs["requirements"], i
        aliases = [e["name"] for e in ours["exports"]
                   if e["internal_ordinal"] == i]
        assert aliases == theirs["aliases"], i


def test_dump_sections(vmfb_case):
    path = str(vmfb_case.path)
    ref = iree_dump(path)
    ours = ember_json(path)
    state = ours["module_state"]
    if ref.module_state is None:
        assert state == {"global_bytes_capacity": 0, "global_ref_count": 0}
    else:
        assert (state["global_bytes_capacity"], state["global_ref_count"]) == \
            ref.module_state[:2]
    assert ours["flatbuffer_size"] == ref.flatbuffer_size
    assert ours["bytecode_size"] == ref.bytecode_size
    assert ref.rwdata == []  # the format has them; no corpus module uses them
    if ref.locations is None:
        assert ours["debug_database"] is None
    else:
        assert ours["debug_database"]["location_count"] == ref.locations


def test_dump_rodata(vmfb_case):
    path = str(vmfb_case.path)
    ref = iree_dump(path)
    ours = ember_json(path)
    data = Path(path).read_bytes()
    assert len(ours["rodata"]) == len(ref.rodata)
    rodata_bases = set()
    external_total = 0
    for i, (mine, (index, where, size, rest)) in enumerate(
            zip(ours["rodata"], ref.rodata)):
        assert index == i
        assert mine["embedded"] == (where == "embedded"), i
        assert mine["size"] == size, i
        offset = mine["archive_offset"]
        assert 0 <= offset and offset + size <= len(data), i
        if where == "embedded":
            # The dump previews printable contents: `text` (cut at 32).
            if m := re.match(r"^ `(.*)`(\.\.\.)?$", rest, re.S):
                preview = m.group(1).encode("latin-1")
                assert data[offset:offset + len(preview)] == preview, i
            else:
                assert rest == "", rest
        else:
            external_total += size
            m = re.match(r"^ \(offset (\d+) / ([0-9A-F]+)h to ([0-9A-F]+)h\)$",
                         rest)
            assert m, rest
            external_offset = int(m.group(1))
            assert int(m.group(3), 16) - int(m.group(2), 16) == size
            rodata_bases.add(offset - external_offset)
    # External offsets are relative to one rodata base in the archive.
    assert len(rodata_bases) <= 1
    for base in rodata_bases:
        assert base > 0 and base % 16 == 0
    if external_total:
        assert ref.external_rodata == external_total
    else:
        assert ref.external_rodata is None


def test_linkage_enum_matches(ember_rt, iree_rt):
    ours = {m.name: m.value for m in ember_rt.Linkage}
    theirs = {m.name: m.value for m in iree_rt.Linkage}
    assert ours == theirs
    assert repr(ember_rt.Linkage.EXPORT) == repr(iree_rt.Linkage.EXPORT)


# ---------------------------------------------------------------------------
# Strings that are not ASCII
# ---------------------------------------------------------------------------


def _patched(data: bytes, old: bytes, new: bytes) -> bytes:
    """`data` with every occurrence of `old` replaced (same length)."""
    assert len(old) == len(new)
    assert old in data, old
    return data.replace(old, new)


def test_utf8_reflection_value(corpus_by_name, ember_rt, iree_rt, tmp_path):
    # "ember.units: meters" in the reflection program, rewritten in place to
    # a same-length UTF-8 value.
    path = tmp_path / "utf8.vmfb"
    path.write_bytes(_patched(
        Path(corpus_by_name["reflection"]["forms"]["flat"]).read_bytes(),
        b"meters", "mètre".encode()))
    ours = load(ember_rt, "mmap", path)
    theirs = load(iree_rt, "mmap", path)
    assert theirs.lookup_function("describe").reflection["ember.units"] == \
        "mètre"
    assert (_function_view(ours.lookup_function("describe")) ==
            _function_view(theirs.lookup_function("describe")))
    # The JSON dump carries the same text (not its bytes read as Latin-1).
    exports = json.loads(ours.dump(json=True))["exports"]
    assert exports[0]["reflection"]["ember.units"] == "mètre"
    # And iree-dump-module prints it (as raw UTF-8).
    dumped = iree_dump(str(path)).exports[0].attr_text
    assert "        ember.units: mètre\n" in dumped


@pytest.mark.parametrize("new_name", ["simple_mü.mlir".encode(),
                                      b"simple_m\xffl.mlir"],
                         ids=["utf8", "invalid_utf8"])
def test_non_ascii_debug_filename(sample_vmfb, ember_rt, new_name):
    # The sample's debug database names "simple_mul.mlir"; give it a byte
    # that is not ASCII. Every dump must still work.
    data = _patched(sample_vmfb.read_bytes(), b"simple_mul.mlir", new_name)
    module = ember_rt.VmModule.copy_buffer(ember_rt.VmInstance(), data)
    assert "Debug database" in module.dump()
    verbose = module.dump(verbose=True)
    assert ".mlir:5:8" in verbose
    database = json.loads(module.dump(json=True))["debug_database"]
    texts = {l["location"] for f in database["functions"]
             for l in f["locations"]}
    if new_name == "simple_mü.mlir".encode():
        assert "simple_mü.mlir:5:8" in texts
