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
  iree_rt          the iree.runtime module (the oracle); skips if missing
"""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
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


@pytest.fixture(scope="session")
def iree_rt():
    return pytest.importorskip("iree.runtime")
