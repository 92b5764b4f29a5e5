#!/usr/bin/env bash
# Builds a fuzz target's seed corpus.
#   fuzz/make_seed_corpus.sh [OUT_DIR] [TARGET]
#     (defaults: build/fuzz-seeds, module_loader_fuzzer)
# The module loader, bytecode verifier and ELF fuzzers start from the
# compiled test corpora (.vmfb files of iree-compile 3.13 and, when built,
# 3.11). npy_reader_fuzzer starts from small
# .npy files written here (no numpy needed): every dtype the reader maps at
# ranks 0 to 3, format versions 1.0 to 3.0, several arrays in one file, and
# the forms it must refuse (Fortran order, big-endian, structured dtypes,
# truncated data, a wrong magic or version, an oversized header).
# irpa_parser_fuzzer, gguf_parser_fuzzer and safetensors_parser_fuzzer start
# from small files of their format written by tests/io/param_files.py (the
# writers the parity tests check against iree.runtime): every entry kind,
# ggml type and JSON form the readers accept, and a few they refuse.
# vulkan_executable_fuzzer starts from small Vulkan executables written by
# fuzz/vulkan_executable_seeds.py (no compiler output); the tokenizer
# targets from small tokenizer.json files written by fuzz/tokenizer_seeds.py
# and tiktoken rank files written by fuzz/tiktoken_seeds.py.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/build/fuzz-seeds}"
target="${2:-module_loader_fuzzer}"
mkdir -p "$out"
case "$target" in
  npy_reader_fuzzer)
    python3 - "$out" <<'PY'
import os
import struct
import sys

out = sys.argv[1]


def npy(descr, shape, data=None, version=(1, 0), fortran=False, quote="'"):
    """One array as numpy.save writes it (data: a byte pattern by default)."""
    if data is None:
        count = 1
        for dim in shape:
            count *= dim
        width = int(descr.lstrip("<>|=").lstrip("biufc"))
        data = bytes((i * 37 + 11) & 0xFF for i in range(count * width))
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    q = quote
    text = (f"{{{q}descr{q}: {descr if descr.startswith('[') else q + descr + q}"
            f", {q}fortran_order{q}: {fortran}, {q}shape{q}: ({dims}), }}")
    length_size = 2 if version[0] == 1 else 4
    unpadded = 8 + length_size + len(text) + 1
    header = text.encode("latin1") + b" " * (-unpadded % 64) + b"\n"
    length = struct.pack("<H" if length_size == 2 else "<I", len(header))
    return b"\x93NUMPY" + bytes(version) + length + header + data


seeds = []
for descr in ("|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8",
              "<f2", "<f4", "<f8", "<c8", "<c16"):
    for shape in ((), (3,), (2, 3), (2, 1, 2)):
        seeds.append(npy(descr, shape))
seeds += [
    npy("<f4", (2, 2), version=(2, 0)),
    npy("<f4", (2, 2), version=(3, 0)),
    npy("<i4", (2,), quote='"'),
    npy("=f8", (2,)),
    npy(">i1", (4,)),
    npy("<f4", (0,)),
    npy("<i2", (2, 0, 3)),
    npy("<f4", (3,)) + npy("|u1", (2, 2)) + npy("<c8", ()),
    # Refused forms.
    npy(">i4", (2,)),
    npy("<f4", (2, 2), fortran=True),
    npy("[('a', '<i4')]", (2,), data=b"\0" * 8),
    npy("<f8", (4,), data=b"\0" * 12),
    npy("<f4", (2,))[:20],
    b"\x93NUMPZ" + npy("<f4", (1,))[6:],
    b"\x93NUMPY\x04\x00" + npy("<f4", (1,))[8:],
    b"\x93NUMPY\x02\x00\xff\xff\xff\xff" + b" " * 16,
]
for index, seed in enumerate(seeds):
    with open(os.path.join(out, f"seed_{index:03d}.npy"), "wb") as f:
        f.write(seed)
PY
    ;;
  irpa_parser_fuzzer|gguf_parser_fuzzer|safetensors_parser_fuzzer)
    python3 - "$out" "${target%_parser_fuzzer}" "$root/tests/io" <<'PY'
import os
import struct
import sys

out, kind = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
import param_files as pf  # noqa: E402

p = pf.pattern_bytes
seeds = []
if kind == "irpa":
    seeds += [
        pf.irpa([]),
        pf.irpa([("w", b"meta", ("data", p(40))),
                 ("s", b"", ("splat", b"\x07\0\0\0", 1024)),
                 ("b", b"", ("data", p(3)))]),
        pf.irpa([("e", b"", ("data", b"")), ("x" * 40, b"m" * 30,
                 ("data", p(130)))]),
        pf.irpa([(f"s{w}", b"", ("splat", p(w), 4096)) for w in (1, 2, 4, 8, 16)]),
        pf.irpa([("d", b"", ("data", p(5))), ("d", b"", ("data", p(7)))]),
    ]
    skip = bytearray(seeds[1])
    struct.pack_into("<I", skip, 96 + 8, 0)
    seeds.append(bytes(skip))
elif kind == "gguf":
    kv = [("general.name", 8, "tiny"), ("x.u8", 0, 7), ("x.f64", 12, 1.5),
          ("x.strs", 9, (8, ["a", "bc"])), ("x.i32s", 9, (5, [1, -2]))]
    every = [(f"t{t}", t, [blk * 2]) for t, (blk, _) in sorted(pf.GGML_TYPES.items())]
    seeds += [
        pf.gguf(every, kv)[0],
        pf.gguf([("a", 0, [3]), ("b", 1, [5, 3])], kv, 16)[0],
        pf.gguf([("a", 0, [3]), ("b", 8, [32])], [], 64)[0],
        pf.gguf([("a", 0, [4])], kv, version=2)[0],
        pf.gguf([("s", 0, [])])[0],
        pf.gguf([], kv)[0],
        pf.gguf([("a", 4, [32])])[0],
    ]
else:
    seeds += [
        pf.safetensors([("a", "F32", [3], p(12)), ("b", "I8", [2], b"xy")]),
        pf.safetensors([("w", "F16", [2, 2], p(8))], metadata={"format": "pt"},
                       header_pad=7),
        pf.safetensors([("e", "F32", [0], b"")]),
    ]
    for text in ('{"a\\u00e9": {"data_offsets": [0, 4]}, "a": '
                 '{"data_offsets": [0, 2]},}',
                 '{/* c */ "a": // x\n {"data_offsets": "[0x1, 3]"}}',
                 '{"a": {"data_offsets": [0, 4], "n": [1.5e3, -0, true, '
                 'false, null, {"k": []}]}}'):
        seeds.append(pf.safetensors([], raw_header=text) + b"DATA")
for index, seed in enumerate(seeds):
    with open(os.path.join(out, f"seed_{index:03d}.{kind}"), "wb") as f:
        f.write(seed)
PY
    ;;
  vulkan_executable_fuzzer)
    python3 "$root/fuzz/vulkan_executable_seeds.py" "$out"
    ;;
  tokenizer_loader_fuzzer | tokenizer_encode_fuzzer)
    python3 "$root/fuzz/tokenizer_seeds.py" "$out"
    ;;
  tokenizer_tiktoken_fuzzer)
    python3 "$root/fuzz/tiktoken_seeds.py" "$out"
    ;;
  *)
    # The corpora scripts/run_tests.sh compiles (3.13 and 3.11); the 3.13 one
    # is compiled here when missing (iree-compile from PATH, .venv or
    # $EMBER_IREE_COMPILE). 3.11 files get a prefix: the names are the same.
    corpus="${EMBER_CORPUS_DIR:-$root/build/corpus}"
    corpus311="${EMBER_CORPUS_311_DIR:-$root/build/corpus-3.11}"
    if ! compgen -G "$corpus/*.vmfb" >/dev/null; then
      if [ -z "${EMBER_IREE_COMPILE:-}" ] && ! command -v iree-compile >/dev/null &&
        [ -x "$root/.venv/bin/iree-compile" ]; then
        export EMBER_IREE_COMPILE="$root/.venv/bin/iree-compile"
      fi
      python3 "$root/tools/ember_corpus.py" build --out "$corpus" >/dev/null
    fi
    cp -L "$corpus"/*.vmfb "$out"/
    if compgen -G "$corpus311/*.vmfb" >/dev/null; then
      for file in "$corpus311"/*.vmfb; do
        cp -L "$file" "$out/iree311-$(basename "$file")"
      done
    fi
    ;;
esac
echo "$(ls "$out" | wc -l) seeds in $out"
