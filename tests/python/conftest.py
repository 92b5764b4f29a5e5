"""Shared fixtures of Ember's Python tests.

The corpus of compiled modules comes from tools/ember_corpus.py (compiled
once, then cached). Parametrized tests only need the *names* of the corpus
programs at collection time, which the tool can list without compiling; the
session fixture ``corpus`` compiles (or finds in the cache) the real files
the first time a test asks for one.

Fixtures:
  corpus           the manifest dict returned by build_corpus()
  corpus_module    one manifest entry per corpus program (parametrized)
  vmfb_case        one VmfbCase per (program, .vmfb form) (parametrized)
  json_case        one VmfbCase per (program, form that the compiler's JSON
                   describes) with .json_path set (parametrized)
  compiler_json    path -> the compiler's JSON of a module, parsed
  sample_vmfb      the bundled python/ember/samples/simple_mul.vmfb
  ember_rt         the ember.runtime module
  iree_rt          the iree.runtime module (the oracle, 3.13); skips if
                   missing
  iree_run_module  the oracle's iree-run-module (fails if missing)

Helpers:
  compile_mlir(name, text, flags, compiler=None)  a test's own MLIR compiled
                   by the environment's iree-compile (3.13) or `compiler`,
                   cached under ~/.cache/ember/test-modules by compiler
                   version, flags and source (as the corpus is)
  iree311_tool(name)  a tool of the IREE 3.11 environment (skips without it)
  corpus311        the corpus compiled by iree-compile 3.11
  ember_run_module_command()       how to run ember-run-module
  CPU_COMPILE_FLAGS                llvm-cpu for a generic x86-64 host, f64
                   and i64 kept
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

# The oracle's tools (iree-compile, iree-run-module, ...) are installed beside
# the interpreter that runs the tests: a virtual environment's bin/, which is
# on PATH only when the environment is activated. Tests and the tools they
# start find them there without activation.
_INTERPRETER_BIN = os.path.dirname(sys.executable)
if _INTERPRETER_BIN not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = (_INTERPRETER_BIN + os.pathsep +
                          os.environ.get("PATH", ""))
# Tests that run an official runtime in a subprocess find 3.13's through
# EMBER_IREE313_PYTHON (scripts/run_tests.sh sets it): by default, this
# interpreter, whose environment has iree-base-runtime 3.13.
os.environ.setdefault("EMBER_IREE313_PYTHON", sys.executable)
if (Path(sys.executable).parent / "iree-compile").exists():
    os.environ.setdefault("EMBER_IREE313_COMPILE",
                          str(Path(sys.executable).parent / "iree-compile"))
CORPUS_TOOL = REPO_ROOT / "tools" / "ember_corpus.py"
CORPUS_OUT = REPO_ROOT / "build" / "corpus"
SAMPLE_VMFB = REPO_ROOT / "python" / "ember" / "samples" / "simple_mul.vmfb"

# The forms that are loadable module files (the "json" form is text).
VMFB_FORMS = ("embedded", "system", "flat")
# The forms compiled with exactly the flags of the "json" form, apart from the
# output format, so their module structure must equal the compiler's JSON.
# ("system" uses other executable flags and so has other rodata.)
JSON_TWIN_FORMS = ("embedded", "flat")


@dataclass(frozen=True)
class VmfbCase:
    name: str  # corpus program name, e.g. "matmul" or "vm_calls"
    form: str  # "embedded", "system" or "flat"
    kind: str  # "tensor" or "vm"
    path: Path
    json_path: Path


def _load_corpus_tool():
    module_name = "ember_corpus"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, CORPUS_TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def _planned_cases():
    """(name, kind, forms) of every corpus program, without compiling."""
    tool = _load_corpus_tool()
    return [(p.name, p.kind, tuple(p.forms())) for p in tool.discover_programs()]


def pytest_generate_tests(metafunc):
    if not {"vmfb_case_key", "json_case_key", "corpus_module_name"} & set(
            metafunc.fixturenames):
        return
    planned = _planned_cases()
    if "vmfb_case_key" in metafunc.fixturenames:
        keys = [(name, form) for name, _, forms in planned
                for form in forms if form in VMFB_FORMS]
        metafunc.parametrize("vmfb_case_key", keys,
                             ids=[f"{n}.{f}" for n, f in keys])
    if "json_case_key" in metafunc.fixturenames:
        keys = [(name, form) for name, _, forms in planned
                for form in forms if form in JSON_TWIN_FORMS]
        metafunc.parametrize("json_case_key", keys,
                             ids=[f"{n}.{f}" for n, f in keys])
    if "corpus_module_name" in metafunc.fixturenames:
        names = [name for name, _, _ in planned]
        metafunc.parametrize("corpus_module_name", names, ids=names)


@pytest.fixture(scope="session")
def corpus():
    """The corpus manifest: compiles what the cache lacks (slow only once)."""
    tool = _load_corpus_tool()
    lines = []
    try:
        manifest = tool.build_corpus(out_dir=CORPUS_OUT, log=lines.append)
    except tool.CorpusError as error:
        pytest.fail(f"the test corpus failed to compile:\n{error}",
                    pytrace=False)
    assert manifest["modules"], "the corpus manifest lists no modules"
    return manifest


@pytest.fixture(scope="session")
def corpus_by_name(corpus):
    return {entry["name"]: entry for entry in corpus["modules"]}


def _case(corpus_by_name, name, form) -> VmfbCase:
    entry = corpus_by_name[name]
    return VmfbCase(name=name, form=form, kind=entry["kind"],
                    path=Path(entry["forms"][form]),
                    json_path=Path(entry["forms"]["json"]))


@pytest.fixture
def vmfb_case(vmfb_case_key, corpus_by_name) -> VmfbCase:
    return _case(corpus_by_name, *vmfb_case_key)


@pytest.fixture
def json_case(json_case_key, corpus_by_name) -> VmfbCase:
    return _case(corpus_by_name, *json_case_key)


@pytest.fixture
def corpus_module(corpus_module_name, corpus_by_name) -> dict:
    return corpus_by_name[corpus_module_name]


@pytest.fixture(scope="session")
def compiler_json():
    """Returns a loader: path -> the compiler's flatbuffer-text JSON, parsed
    (each file read once per session)."""
    cache: dict = {}

    def load(path) -> dict:
        key = str(path)
        if key not in cache:
            cache[key] = json.loads(Path(path).read_text(encoding="utf-8"))
        return cache[key]

    return load


@pytest.fixture(scope="session")
def sample_vmfb() -> Path:
    assert SAMPLE_VMFB.is_file(), f"bundled sample missing: {SAMPLE_VMFB}"
    return SAMPLE_VMFB


@pytest.fixture(scope="session")
def ember_rt():
    import ember.runtime as rt
    return rt


# Devices the official runtime made during the session, never released.
# iree.runtime 3.13 crashes (SIGSEGV) when a buffer or buffer view outlives
# the device that allocated it -- a result released after its context and
# device, which Python's order of releasing a function's locals brings about
# in ordinary test code. Keeping every oracle device alive until the process
# ends avoids that upstream bug without changing what the tests compare.
_ORACLE_DEVICES: list = []


def _keep_oracle_devices_alive(rt) -> None:
    if getattr(rt, "_ember_tests_keep_devices", False):
        return
    rt._ember_tests_keep_devices = True

    def keeping(make):
        def make_and_keep(*args, **kwargs):
            device = make(*args, **kwargs)
            _ORACLE_DEVICES.append(device)
            return device
        return make_and_keep

    driver_type = rt.HalDriver
    for name in ("create_default_device", "create_device",
                 "create_device_by_uri"):
        if hasattr(driver_type, name):
            setattr(driver_type, name, keeping(getattr(driver_type, name)))


def import_oracle_runtime():
    """The official iree.runtime, as the tests use it (skips when absent)."""
    rt = pytest.importorskip("iree.runtime")
    _keep_oracle_devices_alive(rt)
    return rt


@pytest.fixture(scope="session")
def iree_rt():
    return import_oracle_runtime()


# ---- the 3.11 release: its compiler, its corpus and its runtime ------------
#
# One environment cannot hold two versions of the iree packages, so the
# oracle of modules built by iree-compile 3.11 lives in a second one
# (scripts/run_tests.sh makes it and sets these variables): its python runs
# iree.runtime 3.11 in a subprocess, its bin/ has iree-compile and
# iree-run-module 3.11.


def iree311_tool(name: str) -> str:
    """A tool of the 3.11 environment (skips, saying how to get one, when
    the environment is missing)."""
    python = os.environ.get("EMBER_IREE311_PYTHON") or str(
        REPO_ROOT / ".venv-iree-3.11" / "bin" / "python")
    tool = Path(python).parent / name
    if not tool.exists():
        pytest.skip(f"{name} of IREE 3.11 not found at {tool}: "
                    "scripts/run_tests.sh installs iree-base-compiler and "
                    "iree-base-runtime 3.11.0 in .venv-iree-3.11 (or set "
                    "EMBER_IREE311_PYTHON)")
    return str(tool)


@pytest.fixture(scope="session")
def corpus311():
    """The corpus compiled by iree-compile 3.11, as `corpus` is by 3.13."""
    tool = _load_corpus_tool()
    compiler = os.environ.get("EMBER_IREE311_COMPILE") or iree311_tool(
        "iree-compile")
    out = os.environ.get("EMBER_CORPUS_311_DIR") or str(
        REPO_ROOT / "build" / "corpus-3.11")
    lines = []
    try:
        manifest = tool.build_corpus(out_dir=out, log=lines.append,
                                     iree_compile=compiler)
    except tool.CorpusError as error:
        pytest.fail(f"the 3.11 corpus failed to compile:\n{error}",
                    pytrace=False)
    return manifest


# ---- test programs compiled on demand -----------------------------------------

CPU_COMPILE_FLAGS = [
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=generic",
    "--iree-input-demote-f64-to-f32=false",
]
# Beside the corpus cache, outside the checkout, so that a fresh clone (as
# CI makes one on every run) compiles only what no earlier run compiled;
# the key (compiler version, flags, source) makes sharing safe.
TEST_MODULE_CACHE = Path(os.environ.get(
    "EMBER_TEST_MODULE_CACHE",
    Path.home() / ".cache" / "ember" / "test-modules")).expanduser()
_compiler_versions: dict[str, str] = {}


def _iree_compile() -> str:
    compiler = os.environ.get("EMBER_IREE_COMPILE") or shutil.which(
        "iree-compile")
    if not compiler:
        pytest.fail("iree-compile (iree-base-compiler==3.13.0) is needed")
    return compiler


def compile_mlir(name: str, text: str, flags=CPU_COMPILE_FLAGS,
                 compiler=None) -> Path:
    """`text` compiled with `flags` by `compiler` (default: the test
    environment's iree-compile, 3.13); cached under
    ~/.cache/ember/test-modules/NAME.KEY.vmfb ($EMBER_TEST_MODULE_CACHE),
    KEY a hash of the compiler version,
    the flags and the source, so a rerun (or CI with a cached build/)
    compiles nothing."""
    compiler = compiler or _iree_compile()
    if compiler not in _compiler_versions:
        _compiler_versions[compiler] = subprocess.run(
            [compiler, "--version"], capture_output=True, text=True,
            timeout=120).stdout
    key = hashlib.sha256("\0".join(
        [_compiler_versions[compiler], *flags, text]).encode()).hexdigest()[:16]
    module = TEST_MODULE_CACHE / f"{name}.{key}.vmfb"
    if module.is_file():
        return module
    TEST_MODULE_CACHE.mkdir(parents=True, exist_ok=True)
    source = module.with_suffix(f".{os.getpid()}.mlir")
    source.write_text(text, encoding="utf-8")
    partial = module.with_suffix(f".{os.getpid()}.tmp")
    result = subprocess.run([compiler, str(source), *flags, "-o",
                             str(partial)], capture_output=True, text=True,
                            timeout=600)
    source.unlink()
    assert result.returncode == 0, result.stderr
    partial.replace(module)  # atomic: concurrent runs never see half a file
    return module


def ember_run_module_command() -> list[str]:
    """$EMBER_RUN_MODULE when set (a build directory's binary), else the
    installed package's ember-run-module."""
    explicit = os.environ.get("EMBER_RUN_MODULE")
    if explicit:
        return [explicit]
    return [sys.executable, "-c",
            "from ember._tools import run_module; run_module()"]


@pytest.fixture(scope="session")
def iree_run_module() -> str:
    found = shutil.which("iree-run-module")
    if not found:
        pytest.fail("iree-run-module (iree-base-runtime==3.13.0) is needed")
    return found
