"""Seeds for vulkan_executable_fuzzer: small Vulkan executables written here.

    python3 fuzz/vulkan_executable_seeds.py OUT_DIR

The layout is docs/vulkan-executable.md's: the 64-byte header ("VKE1",
version 0, content size) and a "VKE1" FlatBuffer. The writer below lays the
buffer out front to back (a parent first, its offsets linked once the child
is placed), like runtime/testing/flat_writer.h, with every table field 4
bytes wide. The seeds cover every table and field the parser reads, the
shapes iree-compile 3.13 emits (one set of storage buffers, push constants,
debug info) and one file per rule it refuses, so the fuzzer starts on both
sides of each check. No compiler output is used.
"""

import os
import struct
import sys


class Writer:
    def __init__(self):
        self.b = bytearray(b"\0\0\0\0VKE1")

    def align(self, n):
        while len(self.b) % n:
            self.b.append(0)

    def u32(self, value):
        self.align(4)
        at = len(self.b)
        self.b += struct.pack("<I", value & 0xFFFFFFFF)
        return at

    def put(self, at, value):
        struct.pack_into("<I", self.b, at, value & 0xFFFFFFFF)

    def link(self, at, target):
        self.put(at, target - at)

    def table(self, slots, present=None):
        """A table with a 4-byte word per slot; returns its position."""
        present = range(slots) if present is None else present
        self.align(2)
        vtable = len(self.b)
        self.b += struct.pack("<HH", 4 + 2 * slots, 4 + 4 * slots)
        for slot in range(slots):
            self.b += struct.pack("<H", 4 + 4 * slot if slot in present else 0)
        at = self.u32(0)
        self.put(at, at - vtable)
        for _ in range(slots):
            self.u32(0)
        return at

    @staticmethod
    def field(table, slot):
        return table + 4 + 4 * slot

    def string(self, text):
        data = text.encode() if isinstance(text, str) else text
        at = self.u32(len(data))
        self.b += data + b"\0"
        return at

    def offsets(self, count):
        at = self.u32(count)
        for _ in range(count):
            self.u32(0)
        return at

    def words(self, values):
        at = self.u32(len(values))
        for value in values:
            self.u32(value)
        return at


def minimal_spirv(name):
    """A valid SPIR-V 1.0 compute shader with one empty entry point."""
    op = lambda code, n: (n << 16) | code
    raw = name.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 4)
    name_words = list(struct.unpack(f"<{len(raw) // 4}I", raw))
    return ([0x07230203, 0x00010000, 0, 5, 0, op(17, 2), 1, op(14, 3), 0, 1,
             op(15, 3 + len(name_words)), 5, 3] + name_words +
            [op(16, 6), 3, 17, 1, 1, 1, op(19, 2), 1, op(33, 3), 2, 1,
             op(54, 5), 1, 3, 0, 2, op(248, 2), 4, op(253, 1), op(56, 1)])


def executable(pipelines, sets, layouts, modules, sources=(), version=0):
    """pipelines: dicts (module, entry, layout, subgroup, abi, name, file,
    line, bda); sets: lists of (binding, type, count, stages); layouts:
    (set ordinals, [(stages, offset, size)]); modules: word lists."""
    w = Writer()
    root = w.table(5)
    w.link(0, root)
    vec = w.offsets(len(pipelines))
    w.link(w.field(root, 0), vec)
    for i, p in enumerate(pipelines):
        debug = "name" in p or "file" in p
        slots = [0, 1, 2, 3, 5] + ([4] if debug else []) + (
            [6] if p.get("bda") else [])
        t = w.table(7, slots)
        w.link(vec + 4 + 4 * i, t)
        w.put(w.field(t, 0), p.get("module", 0))
        w.put(w.field(t, 2), p.get("layout", 0))
        w.put(w.field(t, 3), p.get("subgroup", 0))
        w.put(w.field(t, 5), p.get("abi", 0))
        w.link(w.field(t, 1), w.string(p.get("entry", "main")))
        if debug:
            d = w.table(2)
            w.link(w.field(t, 4), d)
            w.link(w.field(d, 0), w.string(p.get("name", "")))
            loc = w.table(2)
            w.link(w.field(d, 1), loc)
            w.put(w.field(loc, 1), p.get("line", 0))
            w.link(w.field(loc, 0), w.string(p.get("file", "")))
        if p.get("bda"):
            w.link(w.field(t, 6), w.table(0))
    vec = w.offsets(len(sets))
    w.link(w.field(root, 1), vec)
    for i, bindings in enumerate(sets):
        t = w.table(1)
        w.link(vec + 4 + 4 * i, t)
        bvec = w.offsets(len(bindings))
        w.link(w.field(t, 0), bvec)
        for j, values in enumerate(bindings):
            b = w.table(4)
            w.link(bvec + 4 + 4 * j, b)
            for slot, value in enumerate(values):
                w.put(w.field(b, slot), value)
    vec = w.offsets(len(layouts))
    w.link(w.field(root, 2), vec)
    for i, (ordinals, ranges) in enumerate(layouts):
        t = w.table(2)
        w.link(vec + 4 + 4 * i, t)
        w.link(w.field(t, 0), w.words(ordinals))
        ranges_at = w.words([v for r in ranges for v in r])
        w.put(ranges_at, len(ranges))  # the count is of structs, not words
        w.link(w.field(t, 1), ranges_at)
    vec = w.offsets(len(modules))
    w.link(w.field(root, 3), vec)
    tables = []
    for i in range(len(modules)):
        tables.append(w.table(1))
        w.link(vec + 4 + 4 * i, tables[-1])
    for t, words in zip(tables, modules):
        w.link(w.field(t, 0), w.words(words))
    if sources:
        # Only written when asked: source_files is the last root slot.
        vec = w.offsets(len(sources))
        w.link(w.field(root, 4), vec)
        for i, (path, content) in enumerate(sources):
            t = w.table(2)
            w.link(vec + 4 + 4 * i, t)
            w.link(w.field(t, 0), w.string(path))
            at = w.u32(len(content))
            w.b += content
            w.link(w.field(t, 1), at)
    else:
        # An absent field: zero the vtable entry of slot 4.
        vtable = root - struct.unpack_from("<i", w.b, root)[0]
        struct.pack_into("<H", w.b, vtable + 4 + 2 * 4, 0)
    w.align(4)
    header = b"VKE1" + struct.pack("<IQ", version, len(w.b)) + b"\0" * 48
    return header + bytes(w.b)


SB, UB, CS = 7, 6, 0x20


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    three = [(0, SB, 1, CS), (1, SB, 1, CS), (2, SB, 1, CS)]
    good = dict(sets=[three], layouts=[([0], [])],
                modules=[minimal_spirv("main")])
    seeds = {
        # What 3.13 emits for an elementwise dispatch (debug name, location).
        "elementwise": executable([dict(entry="main", name="main",
                                        file="x.mlir", line=1)], **good),
        # Push constants (a dynamic-shape matmul has 8).
        "push_constants": executable(
            [dict(entry="main", name="main")], [three],
            [([0], [(CS, 0, 32)])], [minimal_spirv("main")]),
        # Several exports, modules, sets, ranges; arrays; sources.
        "many": executable(
            [dict(entry="a"), dict(module=1, entry="b", layout=1, subgroup=32,
                                   name="b_export", file="y.mlir", line=9)],
            [three, [(3, SB, 1, CS), (0, UB, 2, CS | 1)]],
            [([0], [(CS, 0, 12)]),
             ([1, 0], [(CS, 0, 8), (CS, 16, 16)])],
            [minimal_spirv("a"), minimal_spirv("b")],
            sources=[("x.mlir", b"func.func @a() {}\n")]),
        "no_bindings": executable([dict()], [[]], [([], [])],
                                  [minimal_spirv("main")]),
        # Refused: one rule each.
        "bda_v1": executable([dict(abi=1, bda=True)], **good),
        "sampler": executable([dict()], [[(0, 0, 1, CS)]], [([0], [])],
                              [minimal_spirv("main")]),
        "duplicate_binding": executable(
            [dict()], [[(1, SB, 1, CS), (1, SB, 1, CS)]], [([0], [])],
            [minimal_spirv("main")]),
        "bad_ordinal": executable([dict(layout=3)], **good),
        "bad_set_ordinal": executable([dict()], [three], [([1], [])],
                                      [minimal_spirv("main")]),
        "bad_spirv": executable([dict()], [three], [([0], [])],
                                [[0x03022307, 0, 0, 0, 0]]),
        "push_constants_too_far": executable(
            [dict()], [three], [([0], [(CS, 4092, 8)])],
            [minimal_spirv("main")]),
        "bad_version": executable([dict()], version=1, **good),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, f"{name}.vke"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
