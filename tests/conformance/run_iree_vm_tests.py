#!/usr/bin/env python3
"""Runs IREE's own VM op test modules on Ember.

    python3 tests/conformance/run_iree_vm_tests.py IREE_CHECKOUT [--runner PATH]

IREE_CHECKOUT is a checkout (or an exported tree) of iree-org/iree at v3.11.0.
Its `runtime/src/iree/vm/test/*.mlir` are compiled with the pinned
iree-compile (`--compile-mode=vm`) into build/conformance/ (cached by
compiler version + source hash) and every export is called by Ember's
vm_test_runner: each `test_*` must succeed and each `fail_*` must fail.
Nothing from the checkout is copied into this repository.

Prints the runner's report, ending with "N passed, M failed".
"""

import argparse
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def compiler() -> str:
    path = shutil.which("iree-compile")
    if not path:
        sys.exit("iree-compile not found: pip install iree-base-compiler==3.11.0")
    return path


def compile_all(sources, out_dir: Path) -> list:
    iree_compile = compiler()
    version = subprocess.run([iree_compile, "--version"], capture_output=True,
                             text=True, check=True).stdout
    out_dir.mkdir(parents=True, exist_ok=True)
    outputs = []
    for source in sources:
        text = source.read_bytes()
        key = hashlib.sha256(version.encode() + text).hexdigest()[:16]
        target = out_dir / f"{source.stem}.{key}.vmfb"
        if not target.exists():
            result = subprocess.run(
                [iree_compile, "--compile-mode=vm", str(source), "-o",
                 str(target) + ".tmp"], capture_output=True, text=True)
            if result.returncode != 0:
                print(f"FAILED  {source.name}: does not compile:\n{result.stderr}")
                continue
            Path(str(target) + ".tmp").rename(target)
        outputs.append(target)
    return outputs


def find_runner(explicit):
    candidates = [Path(explicit)] if explicit else [
        ROOT / "build" / "asan" / "vm_test_runner",
        ROOT / "build" / "dev" / "vm_test_runner",
    ]
    for candidate in candidates:
        if candidate.exists():
            return candidate
    sys.exit("vm_test_runner not found; build it (cmake --build build/dev "
             "--target vm_test_runner) or pass --runner")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("iree_checkout", type=Path)
    parser.add_argument("--runner", help="path to the vm_test_runner binary")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--no-rewrite", action="store_true",
                        help="run the bytecode as encoded, without Ember's "
                             "executable-copy rewrites")
    args = parser.parse_args()
    test_dir = args.iree_checkout / "runtime" / "src" / "iree" / "vm" / "test"
    sources = sorted(test_dir.glob("*.mlir"))
    if not sources:
        sys.exit(f"no VM test modules under {test_dir}")
    modules = compile_all(sources, ROOT / "build" / "conformance")
    command = [str(find_runner(args.runner))]
    if args.verbose:
        command.append("--verbose")
    if args.no_rewrite:
        command.append("--no-rewrite")
    return subprocess.run(command + [str(m) for m in modules]).returncode


if __name__ == "__main__":
    sys.exit(main())
