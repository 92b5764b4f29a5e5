#!/usr/bin/env python3
"""Writes small tiktoken rank files as seeds for tokenizer_tiktoken_fuzzer.

    python3 fuzz/tiktoken_seeds.py OUT_DIR

A rank file is one "<base64 of the token's bytes> <rank>" line per token
(docs/tokenizer.md "tiktoken"). Each seed here is written from scratch: the
256 single bytes at ranks 0..255 (what every real file starts with), then a
few multi-byte tokens whose halves are tokens, in the order a trainer would
have found them, prefixed by the one byte the fuzz target reads to pick the
encoding's name. Plus a few the loader must refuse (bad base64, a repeated
rank, a token no two tokens make is accepted, a missing rank).
"""

import base64
import sys
from pathlib import Path

MERGED = [b"th", b"he", b"the", b" t", b" the", b"in", b"ing", b"er",
          b"  ", b"    ", b"\n\n", b"12", b"123", b"\xc3\xa9", b"<|"]


def line(token: bytes, rank: int) -> str:
    return f"{base64.b64encode(token).decode()} {rank}"


def rank_file(extra=(), singles=range(256)) -> str:
    lines = [line(bytes([b]), r) for r, b in enumerate(singles)]
    rank = len(lines)
    for token in list(MERGED) + list(extra):
        lines.append(line(token, rank))
        rank += 1
    return "\n".join(lines) + "\n"


def seeds():
    for selector, name in enumerate(["cl100k_base", "o200k_base",
                                     "o200k_harmony", "r50k_base", "gpt2",
                                     "p50k_base", "p50k_edit", "unknown"]):
        yield f"ranks_{name}", bytes([selector]) + rank_file().encode()
    yield "ranks_gap", b"\x00" + "\n".join(
        line(bytes([b]), b * 2) for b in range(256)).encode()
    yield "refused_bad_base64", b"\x00" + (rank_file() + "!!!! 999\n").encode()
    yield "refused_repeated_rank", b"\x00" + (
        rank_file() + line(b"zz", 256) + "\n").encode()
    yield "refused_no_rank", b"\x00" + (rank_file() + "YWJj\n").encode()


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, data in seeds():
        (out / f"{name}.bin").write_bytes(data)


if __name__ == "__main__":
    main()
