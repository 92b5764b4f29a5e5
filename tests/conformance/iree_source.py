"""Exports folders of an IREE git repository at one revision, once.

The conformance runners read IREE's tests from a tree on disk and never
copy them into this repository. Given a git repository of iree-org/iree (a
bare mirror will do) and a revision, export_tree() writes the named
folders of that revision under build/<kind>-src/<revision>/ and returns
that directory; a complete export is reused, and a half-written one is
never taken for complete (it is written beside and renamed at the end).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def export_tree(mirror: Path, revision: str, paths: list[str],
                kind: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", revision)
    tree = ROOT / "build" / f"{kind}-src" / safe
    if (tree / ".complete").exists():
        return tree
    partial = tree.with_name(safe + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(mirror), "archive", "--format=tar", revision,
         *paths], capture_output=True, check=False)
    if archive.returncode != 0:
        sys.exit(f"git archive of {revision} failed: "
                 f"{archive.stderr.decode(errors='replace').strip()}")
    subprocess.run(["tar", "-x", "-C", str(partial)], input=archive.stdout,
                   check=True)
    (partial / ".complete").write_text(revision + "\n")
    shutil.rmtree(tree, ignore_errors=True)
    partial.rename(tree)
    return tree
