"""Run existing ``iree.runtime`` code on Ember, unchanged.

    python -m ember.shim script.py ARGS...      like  python script.py ARGS...
    python -m ember.shim -m MODULE ARGS...      like  python -m MODULE ARGS...

Inside, ``import iree.runtime`` (and the submodules code imports by path:
``iree.runtime._binding``, ``.system_api``, ``.system_setup``,
``.function``, ``.array_interop``, ``.dtypes``, ...) resolves to Ember's
modules. Only ``iree.runtime`` is redirected: ``iree.compiler`` and anything
else under ``iree`` stay the real packages, so a test that compiles its
program with the official compiler still can. No ``iree`` package needs to
be installed: where there is none, the shim provides an empty ``iree``
namespace package holding only ``iree.runtime``. Nothing is redirected
unless this module runs (or ``install()`` is called): a user with both
packages keeps the official runtime by default. Importing ``iree.runtime``
through the shim also imports ``ml_dtypes`` where it is installed, as
``iree.runtime`` does (``np.dtype("bfloat16")`` then works);
``import ember.runtime`` alone does not. A submodule Ember does not
have fails to import with a ModuleNotFoundError that says so.

To redirect every Python process instead (subprocesses, notebooks, test
runners), set the environment variable ``EMBER_SHIM_IREE_RUNTIME=1``: the
``ember_shim_iree_runtime.pth`` file that ``pip install`` puts in
site-packages then calls ``install_from_environment()`` at interpreter
start. Unset, empty, ``0``, ``false``, ``no`` or ``off`` leaves
``iree.runtime`` alone.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import runpy
import sys

_PARENT = "iree"
_PREFIX = "iree.runtime"
# iree.runtime's submodule -> Ember's module providing its names.
_SUBMODULES = {
    "_binding": "ember.runtime._binding",
    "array_interop": "ember.runtime.array_interop",
    "benchmark": "ember.runtime.benchmark",
    "dtypes": "ember.runtime.dtypes",
    "flags": "ember.runtime.flags",
    "function": "ember.runtime.function",
    "io": "ember.runtime.io",
    "system_api": "ember.runtime.system_api",
    "system_setup": "ember.runtime.system_setup",
    "typing": "ember.runtime.typing",
    "version": "ember.runtime.version",
}


def _import_ml_dtypes() -> None:
    """Imports ml_dtypes where it is installed, as ``import iree.runtime``
    does (its dtypes module imports it), so that code relying on that side
    effect -- ``np.dtype("bfloat16")``, which works only once ml_dtypes has
    registered its types with numpy -- runs. ``import ember.runtime`` itself
    leaves ml_dtypes until it is needed (it takes most of a second), so this
    is done here, for ``iree.runtime`` only."""
    try:
        import ml_dtypes  # noqa: F401
    except ImportError:
        pass  # then iree.runtime would not import at all; Ember still does


class _Alias(importlib.abc.Loader):
    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec):
        if spec.name == _PREFIX:
            _import_ml_dtypes()
        return importlib.import_module(self.target)

    def exec_module(self, module):
        pass  # already executed by import_module


def _found_elsewhere(finder, fullname, path, target) -> bool:
    """Whether a finder of sys.meta_path other than `finder` finds
    `fullname` (one that raises counts as not finding it)."""
    for other in list(sys.meta_path):
        if other is finder or not hasattr(other, "find_spec"):
            continue
        try:
            if other.find_spec(fullname, path, target) is not None:
                return True
        except ImportError:
            return False  # a finder that vetoes the name: nothing is there
    return False


class _IreeRuntimeFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname == _PARENT:
            # The `iree` package itself: the installed one when there is one
            # (iree.compiler and the rest stay real), else an empty
            # namespace of Ember's, so that iree.runtime imports where no
            # iree package is installed at all.
            if _found_elsewhere(self, fullname, path, target):
                return None
            spec = importlib.machinery.ModuleSpec(fullname, None,
                                                  is_package=True)
            spec.submodule_search_locations = []
            return spec
        if fullname == _PREFIX:
            target_name = "ember.runtime"
        elif fullname.startswith(_PREFIX + "."):
            sub = fullname[len(_PREFIX) + 1:]
            target_name = _SUBMODULES.get(sub)
            if target_name is None:
                raise ModuleNotFoundError(
                    f"{fullname} has no Ember counterpart yet (ember.shim)",
                    name=fullname)
        else:
            return None
        spec = importlib.util.spec_from_loader(fullname, _Alias(target_name))
        if fullname == _PREFIX:
            # A package, so that submodule imports reach this finder.
            spec.submodule_search_locations = []
        return spec


_finder = _IreeRuntimeFinder()

# Read by install_from_environment() (and the .pth file's pre-check).
ENVIRONMENT_VARIABLE = "EMBER_SHIM_IREE_RUNTIME"
_OFF_VALUES = ("", "0", "false", "no", "off")


def install() -> None:
    """Redirects ``iree.runtime`` to Ember in this process (idempotent)."""
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    for name in [n for n in sys.modules
                 if n == _PREFIX or n.startswith(_PREFIX + ".")]:
        del sys.modules[name]  # imported before: import again through us


def install_from_environment(environ=None) -> bool:
    """Calls ``install()`` when ``$EMBER_SHIM_IREE_RUNTIME`` is set to
    anything but an off value ("", 0, false, no, off); returns whether it
    did. ``environ`` defaults to ``os.environ``."""
    if environ is None:
        environ = os.environ
    value = environ.get(ENVIRONMENT_VARIABLE, "")
    if value.strip().lower() in _OFF_VALUES:
        return False
    install()
    return True


def main(argv: list[str]) -> int:
    """Runs ``argv`` (``script.py ARGS`` or ``-m MODULE ARGS``) with
    ``iree.runtime`` redirected; returns the exit status (2 on bad usage)."""
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(__doc__)
        return 0 if argv else 2
    install()
    if argv[0] == "-m":
        if len(argv) < 2:
            sys.stderr.write("ember.shim: -m needs a module name\n")
            return 2
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        # As `python script.py`: the script's folder comes first on the path.
        sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
        runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
