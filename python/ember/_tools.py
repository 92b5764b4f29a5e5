"""Console-script launchers for the native command-line tools."""

import os
import sys
from pathlib import Path


def _tool_path(name: str) -> Path:
    # Native tools are installed next to the extension module. In an
    # editable install that is site-packages, not this source directory.
    from ember import _ember

    for base in (Path(_ember.__file__).resolve().parent, Path(__file__).resolve().parent):
        candidate = base / "_bin" / name
        if candidate.exists():
            return candidate
    return Path(_ember.__file__).resolve().parent / "_bin" / name


def _exec(name: str) -> None:
    path = _tool_path(name)
    if not path.exists():
        sys.stderr.write(f"ember: the native tool {name} is not installed at {path}\n")
        raise SystemExit(2)
    os.execv(str(path), [name, *sys.argv[1:]])


def dump_module() -> None:
    _exec("ember-dump-module")


def run_module() -> None:
    _exec("ember-run-module")


def check_module() -> None:
    _exec("ember-check-module")


def benchmark_module() -> None:
    _exec("ember-benchmark-module")
