"""What the benchmark scripts share: running tools, the compiler's
version, the run's facts and BENCHMARKS.md.

Each script owns one "## ..." section of BENCHMARKS.md and rewrites it after
a run; hand-written notes under it ("### ..." subsections) stay.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    """Runs `cmd`, capturing its output; exits with its output on failure."""
    result = subprocess.run(cmd, text=True, capture_output=True, **kwargs)
    if result.returncode != 0:
        raise SystemExit(f"failed ({result.returncode}): {' '.join(cmd)}\n"
                         f"{result.stdout[-2000:]}{result.stderr[-4000:]}")
    return result


def compiler_version() -> str:
    """The version iree-compile reports (part of every compile cache key)."""
    out = run(["iree-compile", "--version"]).stdout
    match = re.search(r"IREE.*?version\s+(\S+)", out, re.S)
    return match.group(1) if match else out.strip().splitlines()[0]


def compile_mlir_cached(cache_dir: Path, name: str, text: str,
                        flags: list[str], version: str,
                        write_source=None) -> Path:
    """`text` compiled with `flags`, cached in `cache_dir` under a key of
    the source, the flags and the compiler's version. A source too large
    to hold as text is written by `write_source(path)` instead; `text` is
    then what identifies it (say, the code that writes it)."""
    key = hashlib.sha256("\0".join([text, *flags, version]).encode()
                         ).hexdigest()[:16]
    out = cache_dir / f"{name}.{key}.vmfb"
    if out.exists():
        return out
    cache_dir.mkdir(parents=True, exist_ok=True)
    src = out.with_suffix(f".{os.getpid()}.mlir")
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    try:
        if write_source is None:
            src.write_text(text)
        else:
            print(f"compiling {name} ...", file=sys.stderr)
            write_source(src)
        run(["iree-compile", *flags, str(src), "-o", str(tmp)])
        tmp.replace(out)  # atomic: a concurrent run never sees half a file
    finally:
        src.unlink(missing_ok=True)
        tmp.unlink(missing_ok=True)
    return out


def run_facts(command: str, version: str) -> str:
    """The command, date, machine and compiler lines of a section."""
    return (f"- command: `{command.strip()}`\n"
            f"- date: {datetime.datetime.now():%Y-%m-%d %H:%M}\n"
            f"- machine: {os.cpu_count()} cores, {platform.platform()}\n"
            f"- compiler: IREE {version}\n")


def write_section(section: str, text: str) -> Path:
    """Replaces `section` (its heading line, e.g. "## Python API") of
    BENCHMARKS.md with `text` (which starts with that heading), keeping the
    "### ..." notes that follow it; appends the section if it is new."""
    target = REPO / "BENCHMARKS.md"
    old = target.read_text()
    start = old.find(f"\n{section}")
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + text
    else:
        end = old.find("\n## ", start + 1)
        rest = old[end:] if end >= 0 else "\n"
        notes = old.find("\n### ", start + 1)
        if notes >= 0 and (end < 0 or notes < end):
            rest = old[notes:]
        new = old[:start] + "\n" + text + rest
    target.write_text(new)
    return target
