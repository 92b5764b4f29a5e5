"""Process-wide runtime flags, as ``iree.runtime.flags``.

``parse_flags("--name=value", ...)`` sets flags in the spelling
``iree-run-module`` uses; ``IREE_PY_RUNTIME_FLAGS`` (shell-quoted) is parsed
when the package is imported. Ember knows the flags below; any other name is
a ValueError ("flag 'x' not recognized"), never silently ignored.

  --help                                 print the known flags
  --task_topology_max_group_count=N      workers of `local-task` devices made
                                         afterwards from a URI that does not
                                         set worker_count itself
"""

from __future__ import annotations

import os
import shlex
import sys

__all__ = ["FUNCTION_INPUT_VALIDATION", "parse_flags", "get_flag"]

FUNCTION_INPUT_VALIDATION = True

_KNOWN = {
    "help": "print the known flags",
    "task_topology_max_group_count":
        "workers of local-task devices made afterwards (an integer >= 1)",
}
_values: dict = {}


def parse_flags(*flags: str) -> None:
    """Parses flags like ``--task_topology_max_group_count=2``."""
    parsed = {}
    for flag in flags:
        if not isinstance(flag, str) or not flag.startswith("--"):
            raise ValueError(f"flag {flag!r} does not start with --")
        name, _, value = flag[2:].partition("=")
        if name not in _KNOWN:
            raise ValueError(f"flag '{name}' not recognized")
        if name == "task_topology_max_group_count":
            if not value.isdigit() or int(value) < 1:
                raise ValueError(
                    f"flag '{name}' needs an integer >= 1, got {value!r}")
            parsed[name] = int(value)
        elif name == "help":
            for known, text in _KNOWN.items():
                sys.stdout.write(f"--{known}: {text}\n")
    _values.update(parsed)


def get_flag(name: str):
    """The value a flag was given, or None."""
    return _values.get(name)


def _load_default_flags_from_env() -> None:
    text = os.getenv("IREE_PY_RUNTIME_FLAGS")
    if not text:
        return
    try:
        parse_flags(*shlex.split(text))
    except ValueError as error:
        raise RuntimeError(
            f"Bad flag value in environment variable IREE_PY_RUNTIME_FLAGS="
            f"{text}: {error}") from error


_load_default_flags_from_env()
