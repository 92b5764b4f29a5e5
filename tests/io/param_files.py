"""Pure-Python writers of the parameter file formats Ember reads.

Used by tests/python/test_parameter_formats.py (compared with what the
official runtime reads from the same files) and by fuzz/make_seed_corpus.sh
(the parameter parsers' seeds). No numpy needed.

    safetensors(tensors, metadata=None, header_pad=0)  -> bytes
    gguf(tensors, kv=(), alignment=None, version=3)     -> bytes
    irpa(entries)                                        -> bytes
"""
import json
import struct


def pattern_bytes(count):
    return bytes((i * 37 + 11) & 0xFF for i in range(count))


def safetensors(tensors, metadata=None, header_pad=0, raw_header=None):
    """tensors: [(name, dtype, shape, data bytes)], laid out in order."""
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    data = b""
    for name, dtype, shape, payload in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape),
                        "data_offsets": [len(data), len(data) + len(payload)]}
        data += payload
    text = raw_header if raw_header is not None else json.dumps(header)
    text = text.encode("utf-8") + b" " * header_pad
    return struct.pack("<Q", len(text)) + text + data


# ggml types: (elements per block, bytes per block)
GGML_TYPES = {0: (1, 4), 1: (1, 2), 2: (32, 18), 3: (32, 20), 6: (32, 22),
              7: (32, 24), 8: (32, 34), 9: (32, 40), 10: (256, 84),
              11: (256, 110), 12: (256, 144), 13: (256, 176), 14: (256, 210),
              15: (256, 292), 16: (1, 1), 17: (1, 2), 18: (1, 4)}


def _gguf_string(text):
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return struct.pack("<Q", len(raw)) + raw


def _gguf_value(kind, value):
    scalar = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f",
              7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
    if kind in scalar:
        return struct.pack(scalar[kind], value)
    if kind == 8:
        return _gguf_string(value)
    if kind == 9:
        element_kind, items = value
        return (struct.pack("<IQ", element_kind, len(items)) +
                b"".join(_gguf_value(element_kind, v) for v in items))
    if isinstance(value, bytes):
        return value  # raw bytes after an unknown type (refusal tests)
    raise ValueError(kind)


def gguf_tensor_bytes(ggml_type, dims):
    if ggml_type not in GGML_TYPES:
        return 0  # unknown types: no data (for files readers must refuse)
    block, size = GGML_TYPES[ggml_type]
    count = 1
    for d in dims:
        count *= d
    return count * size // block


def gguf(tensors, kv=(), alignment=None, version=3):
    """tensors: [(name, ggml_type, dims)], data laid out aligned in order.
    kv: [(key, value_type, value)]. Returns (file bytes, [(name, offset in
    the file, length)])."""
    kv = list(kv)
    if alignment is not None:
        kv.append(("general.alignment", 4, alignment))
    align = alignment or 32
    out = struct.pack("<IIQQ", 0x46554747, version, len(tensors), len(kv))
    for key, kind, value in kv:
        out += _gguf_string(key) + struct.pack("<I", kind) + _gguf_value(kind, value)
    offset = 0
    placed = []
    for name, ggml_type, dims in tensors:
        out += _gguf_string(name) + struct.pack("<I", len(dims))
        out += b"".join(struct.pack("<Q", d) for d in dims)
        out += struct.pack("<IQ", ggml_type, offset)
        length = gguf_tensor_bytes(ggml_type, dims)
        placed.append((name, offset, length))
        offset += length
        offset += -offset % align
    out += b"\0" * (-len(out) % align)
    base = len(out)
    out += pattern_bytes(offset)
    return out, [(n, base + o, l) for n, o, l in placed]


def irpa(entries):
    """An IRPA v0 archive laid out as IREE's archive builder lays it out.
    entries: [(name, metadata bytes, ("data", payload) | ("splat", pattern,
    length))]."""
    table, names, storage = b"", b"", b""
    has_data = False
    for name, metadata, body in entries:
        table += b"\0" * (-len(table) % 16)
        key = name.encode("utf-8")
        name_ref = (len(names), len(key))
        meta_ref = (len(names) + len(key) if metadata else 0, len(metadata))
        names += key + metadata
        if body[0] == "splat":
            pattern, length = body[1], body[2]
            table += struct.pack("<QIQQQQQQ", 85, 1, 0, *name_ref, *meta_ref, 0)
            table += struct.pack("<Q", length) + pattern.ljust(16, b"\0")
            table += bytes([len(pattern)])
        else:
            has_data = True
            storage += b"\0" * (-len(storage) % 64)
            table += struct.pack("<QIQQQQQQ", 76, 2, 0, *name_ref, *meta_ref, 64)
            table += struct.pack("<QQ", len(storage), len(body[1]))
            storage += body[1]
    entry_offset = 96
    metadata_offset = entry_offset + len(table)
    storage_offset = metadata_offset + len(names)
    if has_data:
        storage_offset += -storage_offset % 64
    header = struct.pack("<IHHQQQQ", 0x41505249, 0, 0, 88, 0, 0, len(entries))
    header += struct.pack("<QQQQQQ", entry_offset, len(table), metadata_offset,
                          len(names), storage_offset, len(storage))
    out = header.ljust(96, b"\0") + table + names
    out = out.ljust(storage_offset, b"\0") + storage
    return out + b"\0" * (-len(out) % 4096)
