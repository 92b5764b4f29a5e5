#!/usr/bin/env python3
"""Runs IREE's e2e check programs for llvm-cpu on Ember.

    python3 tests/conformance/run_iree_e2e_tests.py IREE_CHECKOUT
        [--suites stablehlo_ops,tosa_ops,linalg,tensor_ops]
        [--devices local-task,local-sync] [--all-variants] [--jobs N]
        [--checker PATH]

IREE_CHECKOUT is a checkout (or exported tree) of iree-org/iree at v3.11.0.
For each suite, the `iree_check_single_backend_test_suite` blocks of its
CMakeLists.txt whose TARGET_BACKEND is llvm-cpu give the source files and
compiler flags (by default only the first such block, the suite's main
llvm-cpu variant; --all-variants runs every one). Each source is compiled
with the pinned iree-compile into build/e2e/ (cached by compiler version,
flags and source hash) and run by `ember-check-module` on each device;
nothing from the checkout is copied into this repository.

Prints one line per suite, variant and device: "N passed, M failed" over
test functions, plus the files that failed to compile or to load.
"""

import argparse
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SUITES = ["stablehlo_ops", "tosa_ops", "linalg", "tensor_ops"]
BASE_FLAGS = ["--iree-hal-target-device=local",
              "--iree-hal-local-target-device-backends=llvm-cpu"]


def parse_suites(cmake_text):
    """The llvm-cpu blocks of a CMakeLists.txt: [(name, srcs, flags)]."""
    blocks = []
    for match in re.finditer(r"iree_check_single_backend_test_suite\((.*?)\n\)",
                             cmake_text, re.S):
        section, fields = None, {}
        for raw in match.group(1).split("\n"):
            token = raw.strip()
            if not token:
                continue
            if re.fullmatch(r"[A-Z_]+", token):
                section = token
                fields.setdefault(section, [])
                continue
            if section:
                fields[section].append(token.strip('"').replace("\\(", "(")
                                       .replace("\\)", ")"))
        if fields.get("TARGET_BACKEND") == ["llvm-cpu"]:
            blocks.append((fields["NAME"][0], fields.get("SRCS", []),
                           fields.get("COMPILER_FLAGS", [])))
    return blocks


def compile_one(iree_compile, version, source, flags, out_dir):
    key = hashlib.sha256("\0".join(
        [version, *flags, source.read_text()]).encode()).hexdigest()[:16]
    out = out_dir / f"{source.stem}.{key}.vmfb"
    if out.exists():
        return out, None
    result = subprocess.run(
        [iree_compile, *BASE_FLAGS, *flags, str(source), "-o", str(out)],
        capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        return None, result.stderr.strip().splitlines()[-1:] or ["failed"]
    return out, None


def run_checks(checker, module, device):
    result = subprocess.run([checker, f"--module={module}",
                             f"--device={device}"],
                            capture_output=True, text=True, timeout=600)
    passed = len(re.findall(r"^\[       OK \]", result.stdout, re.M))
    failed = len(re.findall(r"^\[  FAILED  \]", result.stdout, re.M))
    note = None
    if passed + failed == 0:
        note = (result.stderr.strip().splitlines() or ["no tests ran"])[-1]
    elif failed:
        names = re.findall(r"^\[  FAILED  \] (\S+)", result.stdout, re.M)
        note = "failed: " + ", ".join(names)
    return passed, failed, note


def find_checker(explicit):
    candidates = [Path(explicit)] if explicit else [
        ROOT / "build" / "dev" / "ember-check-module",
        ROOT / "build" / "release" / "ember-check-module",
        ROOT / "build" / "asan" / "ember-check-module",
    ]
    for candidate in candidates:
        if candidate.exists():
            return str(candidate)
    found = shutil.which("ember-check-module")
    if found:
        return found
    sys.exit("ember-check-module not found; build it or pass --checker")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("iree_checkout", type=Path)
    parser.add_argument("--suites", default=",".join(DEFAULT_SUITES))
    parser.add_argument("--devices", default="local-task,local-sync")
    parser.add_argument("--all-variants", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--checker")
    args = parser.parse_args()

    iree_compile = shutil.which("iree-compile")
    if not iree_compile:
        sys.exit("iree-compile not found: pip install iree-base-compiler==3.11.0")
    version = subprocess.run([iree_compile, "--version"], capture_output=True,
                             text=True, check=True).stdout
    checker = find_checker(args.checker)
    devices = args.devices.split(",")
    total_passed = total_failed = 0
    for suite in args.suites.split(","):
        suite_dir = args.iree_checkout / "tests" / "e2e" / suite
        blocks = parse_suites((suite_dir / "CMakeLists.txt").read_text())
        if not args.all_variants:
            blocks = blocks[:1]
        for name, srcs, flags in blocks:
            out_dir = ROOT / "build" / "e2e" / suite / name
            out_dir.mkdir(parents=True, exist_ok=True)
            sources = [suite_dir / src for src in srcs]
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                compiled = list(pool.map(
                    lambda s: compile_one(iree_compile, version, s, flags,
                                          out_dir), sources))
            compile_failures = [(s.name, e) for s, (m, e) in
                                zip(sources, compiled) if m is None]
            for device in devices:
                passed = failed = 0
                notes = []
                for source, (module, _) in zip(sources, compiled):
                    if module is None:
                        continue
                    p, f, note = run_checks(checker, module, device)
                    passed += p
                    failed += f
                    if note:
                        notes.append(f"{source.name}: {note}")
                        if p + f == 0:
                            failed += 1  # a file whose tests could not run
                print(f"{suite}/{name} on {device}: {passed} passed, "
                      f"{failed} failed")
                for note in notes:
                    print(f"    {note}")
                total_passed += passed
                total_failed += failed
            for source_name, error in compile_failures:
                print(f"    {source_name}: did not compile: {error}")
    print(f"{total_passed} passed, {total_failed} failed")
    return 0 if total_failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
