#!/usr/bin/env python3
"""Builds Ember's test corpus of compiled IREE modules (stdlib only).

Every MLIR program under tests/corpus/ (tensor programs) and
tests/corpus/vm/ (raw VM-dialect programs) is compiled with an iree-compile
(the test environment's, iree-base-compiler 3.13.0, by default; the tests
also build a second corpus with 3.11.0's, --compiler) into several "forms":

  tensor programs             vm programs (--compile-mode=vm)
  ---------------             --------------------------------
  embedded  ZIP polyglot .vmfb, embedded-ELF executables / default output
  system    like embedded, system-library (.so) executables  (tensor only)
  flat      non-ZIP FlatBuffer container with trailing external rodata
  json      the module FlatBuffer as JSON (flatbuffer-text)

Results are cached under $EMBER_CORPUS_CACHE (default ~/.cache/ember/corpus)
in <cache>/<sanitized compiler version>/<key>/<name>.<form>.vmfb (just
<name>.json for the json form). The key hashes the source text together
with every flag of every form, so editing a program or a flag recompiles
just that program.

A program may ask for extra flags (appended to every form) with a line in its
leading comment block:

  // ember-corpus-flags: --iree-input-demote-f64-to-f32=false

Command line:
  python3 tools/ember_corpus.py build [--out DIR] [--jobs N]
      compiles what is missing, writes DIR/manifest.json (DIR defaults to
      <repo>/build/corpus) and DIR/<name>.<form>.vmfb (DIR/<name>.json)
      links to the cache.
  python3 tools/ember_corpus.py list
      prints the program names.

Python:
  import ember_corpus; manifest = ember_corpus.build_corpus(out_dir=None)

Environment:
  EMBER_CORPUS_CACHE    cache root
  EMBER_IREE_COMPILE    explicit path of the iree-compile binary
  EMBER_CORPUS_TIMEOUT  seconds before one compile is abandoned (default 900)
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIR = REPO_ROOT / "tests" / "corpus"
VM_CORPUS_DIR = CORPUS_DIR / "vm"
DEFAULT_OUT_DIR = REPO_ROOT / "build" / "corpus"

# Bump when the meaning of a cache entry changes without any flag changing.
CACHE_SCHEMA = "ember-corpus-1"

# Never run more than this many compiler processes at once.
MAX_JOBS = 2

TENSOR_BASE_FLAGS = (
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=generic",
)
VM_BASE_FLAGS = ("--compile-mode=vm",)

FLAT_FLAG = "--iree-vm-emit-polyglot-zip=false"
JSON_FLAG = "--iree-vm-bytecode-module-output-format=flatbuffer-text"

# form name -> flags added to the base flags, in output order.
TENSOR_FORMS = {
    "embedded": (),
    "system": ("--iree-llvmcpu-link-embedded=false",),
    "flat": (FLAT_FLAG,),
    "json": (JSON_FLAG,),
}
VM_FORMS = {
    "embedded": (),
    "flat": (FLAT_FLAG,),
    "json": (JSON_FLAG,),
}

EXTRA_FLAGS_RE = re.compile(r"^\s*//\s*ember-corpus-flags:(.*)$")

DEFAULT_TIMEOUT_S = 900


class CorpusError(RuntimeError):
    """A corpus program failed to compile (or the compiler is unusable)."""


class Program:
    """One corpus source file and how to compile it."""

    def __init__(self, name: str, kind: str, path: Path):
        self.name = name
        self.kind = kind  # "tensor" or "vm"
        self.path = path
        self.text = path.read_text(encoding="utf-8")
        self.extra_flags = tuple(_parse_extra_flags(self.text))

    @property
    def source(self) -> str:
        return self.path.relative_to(REPO_ROOT).as_posix()

    def forms(self) -> dict:
        """Returns form name -> full flag list (without input/output)."""
        base = TENSOR_BASE_FLAGS if self.kind == "tensor" else VM_BASE_FLAGS
        table = TENSOR_FORMS if self.kind == "tensor" else VM_FORMS
        return {form: list(base) + list(extra) + list(self.extra_flags)
                for form, extra in table.items()}

    def cache_key(self, compiler_version: str) -> str:
        h = hashlib.sha256()
        h.update(CACHE_SCHEMA.encode())
        h.update(b"\0")
        h.update(compiler_version.encode())
        h.update(b"\0")
        h.update(json.dumps(self.forms(), sort_keys=True).encode())
        h.update(b"\0")
        h.update(self.text.encode("utf-8"))
        return h.hexdigest()[:16]


def _parse_extra_flags(text: str) -> list:
    flags = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if not line.lstrip().startswith("//"):
            break  # only the leading comment block is scanned
        m = EXTRA_FLAGS_RE.match(line)
        if m:
            flags.extend(shlex.split(m.group(1)))
    return flags


def output_name(program_name: str, form: str) -> str:
    """<name>.<form>.vmfb, except the json form which is <name>.json."""
    if form == "json":
        return program_name + ".json"
    return program_name + "." + form + ".vmfb"


def discover_programs() -> list:
    """Returns every corpus program, tensor programs first, sorted by name.

    VM programs are named vm_<stem> so they never collide with tensor ones.
    """
    programs = []
    for path in sorted(CORPUS_DIR.glob("*.mlir")):
        programs.append(Program(path.stem, "tensor", path))
    for path in sorted(VM_CORPUS_DIR.glob("*.mlir")):
        programs.append(Program("vm_" + path.stem, "vm", path))
    seen = set()
    for p in programs:
        if p.name in seen:
            raise CorpusError(f"duplicate corpus program name {p.name!r}")
        seen.add(p.name)
    return programs


def find_iree_compile() -> str:
    explicit = os.environ.get("EMBER_IREE_COMPILE")
    if explicit:
        return explicit
    found = shutil.which("iree-compile")
    if found:
        return found
    try:
        from iree.compiler.tools import binaries  # type: ignore
        return binaries.find_tool("iree-compile")
    except Exception as e:  # ImportError or the package's own lookup error
        raise CorpusError(
            "iree-compile not found on PATH and the iree.compiler python "
            f"package could not provide it ({e}); install "
            "iree-base-compiler==3.13.0 or set EMBER_IREE_COMPILE") from e


_version_cache: dict = {}


def compiler_version(iree_compile: str) -> str:
    """Returns e.g. '3.11.0rc20260316 @ e4a3b0405d7d...' from --version."""
    if iree_compile in _version_cache:
        return _version_cache[iree_compile]
    try:
        proc = subprocess.run([iree_compile, "--version"], capture_output=True,
                              text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CorpusError(f"cannot run {iree_compile} --version: {e}") from e
    text = proc.stdout + proc.stderr
    version = None
    for line in text.splitlines():
        m = re.search(r"IREE compiler version\s+(.+)$", line)
        if m:
            version = m.group(1).strip()
            break
    if proc.returncode != 0 or not version:
        raise CorpusError(f"unexpected output from {iree_compile} --version "
                          f"(exit {proc.returncode}):\n{text}")
    _version_cache[iree_compile] = version
    return version


def sanitize(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")
    return s or "unknown"


def cache_root() -> Path:
    env = os.environ.get("EMBER_CORPUS_CACHE")
    if env:
        return Path(env).expanduser().resolve()
    return Path.home() / ".cache" / "ember" / "corpus"


def _compile_one(iree_compile: str, program: Program, form: str, flags: list,
                 dest: Path, timeout_s: float) -> tuple:
    """Compiles one form into dest atomically. Returns (ok, seconds, log)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp",
                               dir=dest.parent)
    os.close(fd)
    cmd = [iree_compile] + flags + [str(program.path), "-o", tmp]
    start = time.monotonic()
    try:
        try:
            # A session of its own so that a timeout can also stop the real
            # compiler when iree-compile is a wrapper script (pip/pyenv).
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True,
                                    start_new_session=True)
        except OSError as e:
            return False, time.monotonic() - start, f"cannot run: {e}"
        try:
            stdout, stderr = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            stdout, stderr = proc.communicate()
            return (False, time.monotonic() - start,
                    f"timed out after {timeout_s:.0f}s\n$ {shlex.join(cmd)}"
                    f"\n{stderr}")
        except BaseException:
            _kill_group(proc)
            proc.communicate()
            raise
        elapsed = time.monotonic() - start
        if proc.returncode != 0 or os.path.getsize(tmp) == 0:
            log = stderr or stdout or "(no output)"
            return (False, elapsed,
                    f"exit code {proc.returncode}\n$ {shlex.join(cmd)}\n{log}")
        os.replace(tmp, dest)
        tmp = None
        return True, elapsed, stderr
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    except AttributeError:  # no process groups on this platform
        proc.kill()


def _link_or_copy(target: Path, link: Path) -> None:
    """Points link at target (symlink, else copy), replacing atomically."""
    link.parent.mkdir(parents=True, exist_ok=True)
    tmp = link.with_name(f".{link.name}.{os.getpid()}.tmp")
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    try:
        os.symlink(target, tmp)
    except OSError:
        shutil.copyfile(target, tmp)
    os.replace(tmp, link)


def _remove_stale_links(out: Path, keep: set) -> None:
    """Drops symlinks in out that earlier builds made and this one did not
    (renamed or deleted programs). Regular files are never touched."""
    if not out.is_dir():
        return
    for entry in out.iterdir():
        if (entry.is_symlink() and entry.name not in keep and
                entry.name.endswith((".vmfb", ".json"))):
            try:
                entry.unlink()
            except OSError:
                pass


def _write_json_atomic(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                               dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def build_corpus(out_dir=None, jobs: int = MAX_JOBS, verbose: bool = False,
                 log=None, iree_compile=None) -> dict:
    """Compiles what is missing from the cache and returns the manifest.

    out_dir: where manifest.json and the per-form links go (default
    <repo>/build/corpus); relative paths are taken relative to the cwd.
    log: callable taking one line of progress text (default: print).
    iree_compile: the compiler to use (default: find_iree_compile()); each
    compiler version has its own cache directory, so corpora of several
    releases live side by side (one out_dir each).
    Raises CorpusError if any program fails to compile.
    """
    if log is None:
        def log(line):
            print(line, flush=True)
    out = Path(out_dir).resolve() if out_dir else DEFAULT_OUT_DIR
    jobs = max(1, min(MAX_JOBS, int(jobs)))
    timeout_s = float(os.environ.get("EMBER_CORPUS_TIMEOUT",
                                     DEFAULT_TIMEOUT_S))

    iree_compile = iree_compile or find_iree_compile()
    version = compiler_version(iree_compile)
    version_dir = cache_root() / sanitize(version)
    programs = discover_programs()

    # Plan: which (program, form) outputs are missing from the cache.
    plan = []  # (program, key_dir, forms, missing forms)
    for program in programs:
        key_dir = version_dir / program.cache_key(version)
        forms = program.forms()
        missing = [f for f in forms
                   if not (key_dir / output_name(program.name, f)).is_file()]
        plan.append((program, key_dir, forms, missing))

    # Compile everything missing, at most `jobs` compiler processes at once.
    lock = threading.Lock()
    remaining = {p.name: len(m) for p, _, _, m in plan}
    seconds = {p.name: 0.0 for p, _, _, _ in plan}
    failures = []
    for program, key_dir, forms, missing in plan:
        if not missing:
            log(f"cached    {program.name}")

    def finish(program, form, ok, elapsed, text):
        with lock:
            seconds[program.name] += elapsed
            remaining[program.name] -= 1
            if not ok:
                failures.append((program, form, text))
                log(f"FAILED    {program.name} [{form}] ({elapsed:.1f}s)")
            elif verbose:
                log(f"  {program.name} [{form}] {elapsed:.1f}s")
            if ok and remaining[program.name] == 0 and not any(
                    f[0] is program for f in failures):
                log(f"compiled  {program.name} "
                    f"({seconds[program.name]:.1f}s compile time)")

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {}
        for program, key_dir, forms, missing in plan:
            for form in missing:
                dest = key_dir / output_name(program.name, form)
                fut = pool.submit(_compile_one, iree_compile, program, form,
                                  forms[form], dest, timeout_s)
                futures[fut] = (program, form)
        for fut in concurrent.futures.as_completed(futures):
            program, form = futures[fut]
            try:
                ok, elapsed, text = fut.result()
            except Exception as e:  # unexpected; report like a failure
                ok, elapsed, text = False, 0.0, repr(e)
            finish(program, form, ok, elapsed, text)

    if failures:
        parts = []
        for program, form, text in failures:
            parts.append(f"=== {program.source} [{form}] failed:\n"
                         f"{text.rstrip()}")
        raise CorpusError("\n".join(parts))

    # Manifest + convenience links.
    modules = []
    for program, key_dir, forms, _ in plan:
        paths = {}
        for form in forms:
            cached = key_dir / output_name(program.name, form)
            paths[form] = str(cached)
            _link_or_copy(cached, out / output_name(program.name, form))
        modules.append({
            "name": program.name,
            "kind": program.kind,
            "source": program.source,
            "forms": paths,
            "flags": forms,
            "cache_key": key_dir.name,
        })
    _remove_stale_links(out, {output_name(p.name, f)
                              for p, _, forms, _ in plan for f in forms})
    manifest = {
        "compiler_version": version,
        "compiler": iree_compile,
        "cache_dir": str(version_dir),
        "modules": modules,
    }
    _write_json_atomic(out / "manifest.json", manifest)
    return manifest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Compile Ember's MLIR test corpus with an iree-compile, "
                    "with a content-addressed cache.")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compile the corpus, write a manifest")
    b.add_argument("--out", default=None,
                   help=f"output directory (default {DEFAULT_OUT_DIR})")
    b.add_argument("--jobs", type=int, default=MAX_JOBS,
                   help=f"parallel compiles, at most {MAX_JOBS}")
    b.add_argument("-v", "--verbose", action="store_true",
                   help="print one line per compiled form")
    b.add_argument("--compiler", default=None,
                   help="the iree-compile to use (default: $EMBER_IREE_COMPILE"
                        ", else the one on PATH)")
    sub.add_parser("list", help="print the program names")
    args = parser.parse_args(argv)

    try:
        if args.command == "list":
            for program in discover_programs():
                print(program.name)
            return 0
        start = time.monotonic()
        manifest = build_corpus(args.out, jobs=args.jobs,
                                verbose=args.verbose,
                                iree_compile=args.compiler)
        out = Path(args.out).resolve() if args.out else DEFAULT_OUT_DIR
        print(f"{len(manifest['modules'])} modules, "
              f"{time.monotonic() - start:.1f}s; manifest: "
              f"{out / 'manifest.json'}", flush=True)
        return 0
    except CorpusError as e:
        print(str(e), file=sys.stderr, flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
