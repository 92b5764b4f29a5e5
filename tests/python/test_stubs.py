"""The committed type stubs (python/ember/_ember.pyi) agree with the
extension the tests import, and are installed with the package.

When this fails after a change to python/bindings/*.cc, rebuild the
extension and regenerate the stubs with one command:

    python3 scripts/gen_stubs.py [--build-dir build/py]
"""

from __future__ import annotations

import ast
import enum
import importlib
import importlib.util
import sys
import types
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
COMMITTED_STUB = REPO / "python" / "ember" / "_ember.pyi"
COMMITTED_MARKER = REPO / "python" / "ember" / "py.typed"


def _gen_stubs():
    spec = importlib.util.spec_from_file_location(
        "ember_gen_stubs", REPO / "scripts" / "gen_stubs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def extension():
    return importlib.import_module("ember._ember")


def _package_dir(extension) -> Path:
    return Path(extension.__file__).resolve().parent


def test_stub_matches_the_built_extension(extension, tmp_path):
    try:
        import nanobind.stubgen  # noqa: F401
    except ImportError:
        pytest.fail("nanobind is needed to regenerate the stubs: "
                    "pip install '.[test]' (it pins nanobind)")
    gen = _gen_stubs()
    generated = gen.generate(tmp_path,
                             import_dir=_package_dir(extension).parent)
    changes = gen.diff(COMMITTED_STUB, generated)
    if changes:
        committed_version = gen.header_version(
            COMMITTED_STUB.read_text(encoding="utf-8")) \
            if COMMITTED_STUB.exists() else None
        note = ""
        if committed_version != gen.nanobind_version():
            note = (f"\n(the committed stub was written by nanobind "
                    f"{committed_version}, this environment has "
                    f"{gen.nanobind_version()}: the formatting may differ)")
        pytest.fail(
            f"python/ember/_ember.pyi disagrees with {extension.__file__}; "
            f"rebuild and run `python3 scripts/gen_stubs.py`{note}\n{changes}",
            pytrace=False)


def _stub_tree() -> ast.Module:
    return ast.parse(COMMITTED_STUB.read_text(encoding="utf-8"),
                     filename=str(COMMITTED_STUB))


def _public(names) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def test_stub_names_every_public_name_of_the_extension(extension):
    # Independent of the nanobind version: the names the stub declares are
    # those the extension exports, class by class.
    stubbed: dict[str, set[str]] = {}
    for node in _stub_tree().body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef,
                                     ast.ClassDef)):
                    members.add(item.name)
                elif isinstance(item, ast.Assign):
                    members.update(t.id for t in item.targets
                                   if isinstance(t, ast.Name))
                elif isinstance(item, ast.AnnAssign) and isinstance(
                        item.target, ast.Name):
                    members.add(item.target.id)
            stubbed[node.name] = _public(members)
        elif isinstance(node, ast.FunctionDef):
            stubbed.setdefault(node.name, set())
    exported = _public(vars(extension))
    assert _public(stubbed) == exported, (
        "rerun python3 scripts/gen_stubs.py: stub-only "
        f"{sorted(_public(stubbed) - exported)}, extension-only "
        f"{sorted(exported - _public(stubbed))}")
    for name in sorted(exported):
        obj = getattr(extension, name)
        if not isinstance(obj, type):
            continue
        if issubclass(obj, enum.Enum):
            own = set(obj.__members__)
            own.update(n for n, v in vars(obj).items()
                       if getattr(v, "__module__", None) == extension.__name__
                       or hasattr(v, "__nb_signature__")
                       or (isinstance(v, property) and hasattr(
                           v.fget, "__nb_signature__")))
        else:
            # Python functions set on a native class by ember.runtime
            # (DeviceArray's numpy mixin and helpers) are not the
            # extension's own.
            own = {n for n, v in vars(obj).items()
                   if not isinstance(v, types.FunctionType)}
        assert _public(own) == stubbed[name], (
            f"{name}: rerun python3 scripts/gen_stubs.py")


def test_marker_is_committed():
    assert COMMITTED_MARKER.exists(), "python/ember/py.typed is missing"


def test_installed_package_ships_the_stubs(extension):
    package = _package_dir(extension)
    if package == COMMITTED_STUB.parent.resolve():
        pytest.skip("ember is imported from the source tree, not installed")
    installed = package / "_ember.pyi"
    assert installed.exists(), f"{installed} was not installed"
    assert (package / "py.typed").exists(), f"{package}/py.typed missing"
    assert installed.read_text(encoding="utf-8") == \
        COMMITTED_STUB.read_text(encoding="utf-8"), (
        f"{installed} is not the committed stub: reinstall the package")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
