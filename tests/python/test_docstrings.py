"""Every public name of Ember's Python API has a docstring.

The walk covers ``ember.runtime``'s public names (those in ``__all__`` and
those not starting with ``_``), the public names of the Python modules
listed in ``CHECKED_MODULES``, and every class, function and method of the
``ember._ember`` extension. Inside a class, its own public methods,
properties, static and class methods are walked (dunder methods are
documented by their class). Constants cannot carry a docstring of their
own and are left to the module docstring.

The Python modules in ``CHECKED_MODULES``, the other modules reached from
``ember.runtime`` and the extension (whose docstrings live in
python/bindings/*.cc) are all asserted. Run this file as a script to print
every name that lacks a docstring:

    PYTHONPATH=python python3 tests/python/test_docstrings.py
"""

from __future__ import annotations

import enum
import importlib
import inspect
import sys
import types

import pytest

# Python modules whose public names must all be documented.
CHECKED_MODULES = (
    "ember.runtime",
    "ember.runtime.flags",
    "ember.runtime.system_api",
    "ember.runtime.system_setup",
    "ember.shim",
)
EXTENSION = "ember._ember"
# Names of the extension left out of the assertion (none: every public name
# has a docstring).
EXTENSION_EXEMPT: frozenset = frozenset()


def _public_names(namespace) -> list[str]:
    names = set(getattr(namespace, "__all__", ()))
    names.update(n for n in vars(namespace) if not n.startswith("_"))
    return sorted(names)


def _doc(obj) -> str:
    """The docstring of ``obj``, "" when it has none.

    A nanobind function always has a ``__doc__`` (its signature), so its
    per-overload docstrings are read from ``__nb_signature__`` instead."""
    if isinstance(obj, property):
        # A property documented on its getter (Python, nanobind) or itself.
        return _doc(obj.fget) if obj.fget is not None else (obj.__doc__ or "")
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    overloads = getattr(obj, "__nb_signature__", None)
    if overloads is not None:
        return "\n".join(doc for _, doc, *_ in overloads if doc)
    doc = obj.__dict__.get("__doc__") if isinstance(obj, type) else obj.__doc__
    return (doc or "").strip()


def _is_documentable(obj) -> bool:
    if isinstance(obj, (types.ModuleType, enum.Enum)):
        return False
    return (isinstance(obj, (type, property, staticmethod, classmethod))
            or callable(obj))


def _origin(obj) -> str:
    if isinstance(obj, property):
        obj = obj.fget
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    return getattr(obj, "__module__", None) or ""


def _members(cls) -> list:
    """(name, attribute) of the public members ``cls`` defines itself."""
    if issubclass(cls, enum.Enum):
        # An enum's own dict also holds the machinery of the enum module.
        own = {n: v for n, v in vars(cls).items()
               if _origin(v) == cls.__module__}
    else:
        own = vars(cls)
    return [(n, v) for n, v in sorted(own.items())
            if not n.startswith("_") and _is_documentable(v)]


def walk() -> dict[str, tuple[str, bool]]:
    """qualified name -> (the module defining it, whether it is documented)
    for every documentable public name of the surface."""
    found: dict[str, tuple[str, bool]] = {}

    def visit(qualname: str, obj, origin: str):
        if qualname in found:
            return
        found[qualname] = (origin, bool(_doc(obj)))
        if isinstance(obj, type):
            for name, member in _members(obj):
                visit(f"{qualname}.{name}", member, origin)

    roots = [importlib.import_module(m) for m in CHECKED_MODULES]
    roots.append(importlib.import_module(EXTENSION))
    for module in roots:
        for name in _public_names(module):
            obj = getattr(module, name, None)
            if not _is_documentable(obj):
                continue
            origin = _origin(obj)
            if not origin.startswith("ember"):
                continue  # imported from outside Ember (typing, numpy, ...)
            # Named where it is defined, so a re-export is walked once.
            home = obj.__qualname__ if isinstance(obj, type) else (
                getattr(obj, "__qualname__", None) or name)
            visit(f"{origin}.{home}", obj, origin)
        if module.__name__ != EXTENSION:
            found.setdefault(module.__name__, (module.__name__,
                                               bool(_doc(module))))
    return found


def missing(predicate) -> list[str]:
    return sorted(name for name, (origin, documented) in walk().items()
                  if not documented and predicate(origin))


def _in_checked_module(origin: str) -> bool:
    return origin in CHECKED_MODULES


def _native(origin: str) -> bool:
    return origin == EXTENSION


def _elsewhere(origin: str) -> bool:
    return not _in_checked_module(origin) and not _native(origin)


def test_walk_sees_the_surface():
    names = walk()
    # Spot checks that each kind of name is reached.
    for expected in ("ember.runtime.system_api.SystemContext.add_vm_module",
                     "ember.runtime.system_api.SystemContext.modules",
                     "ember.runtime.flags.parse_flags",
                     "ember.shim.install",
                     "ember._ember.VmModule.mmap",
                     "ember._ember.VmModule.name",
                     "ember._ember.HalDevice",
                     "ember._ember.get_driver"):
        assert expected in names, sorted(names)


def test_python_modules_have_docstrings():
    undocumented = missing(_in_checked_module)
    assert not undocumented, (
        "public names of Ember's Python modules without a docstring:\n  "
        + "\n  ".join(undocumented))


def test_other_python_modules_have_docstrings():
    undocumented = missing(_elsewhere)
    assert not undocumented, (
        "public names reached from ember.runtime without a docstring:\n  "
        + "\n  ".join(undocumented))


def test_extension_has_docstrings():
    undocumented = [name for name in missing(_native)
                    if name not in EXTENSION_EXEMPT]
    assert not undocumented, (
        "names of ember._ember without a docstring:\n  "
        + "\n  ".join(undocumented))


def test_doc_reads_nanobind_overloads():
    extension = importlib.import_module(EXTENSION)
    # A nanobind function's __doc__ holds at least its signature, which is
    # not a docstring.
    for name, obj in vars(extension).items():
        if hasattr(obj, "__nb_signature__") and not _doc(obj):
            assert obj.__doc__ and name in obj.__doc__
            break
    # With every function documented the loop above may find nothing, so
    # check a documented one too: its docstring, without the signature.
    documented = extension.get_driver
    assert documented.__doc__.startswith("get_driver(")
    assert _doc(documented) and not _doc(documented).startswith("get_driver(")
    assert _doc(documented) in documented.__doc__
    assert _doc(inspect) and not _doc(type("Bare", (), {}))


if __name__ == "__main__":
    for title, predicate in (("checked Python modules", _in_checked_module),
                             ("other Python modules", _elsewhere),
                             (EXTENSION, _native)):
        names = missing(predicate)
        print(f"{title}: {len(names)} without a docstring")
        for name in names:
            print(f"  {name}")
    sys.exit(0)
