#!/usr/bin/env python3
"""Runs IREE's own Python runtime tests against Ember and against IREE.

    python3 tests/conformance/run_iree_python_tests.py <iree checkout>
        [--files a_test.py,b_test.py|all] [--timeout SECONDS]
    python3 tests/conformance/run_iree_python_tests.py --mirror GIT_DIR
        --revision REV [options as above]

The tests are read from the checkout (runtime/bindings/python/tests of
the release whose iree.runtime is installed: v3.11.0 for 3.11, the newest
source for 3.13), never copied into this repository; --mirror and
--revision export that folder of a git repository (a bare mirror will do)
at REV into build/python-tests-src/REV/. `--files all` runs every
*_test.py there. Each file runs twice under pytest, in its own
directory (the tests find their testdata relative to themselves):
  official   python -m pytest FILE                 (iree.runtime 3.11)
  ember      python -m ember.shim -m pytest FILE   (iree.runtime -> Ember)
and the script prints `N passed, M failed, K skipped` per file and runtime,
then the totals. The default files are the drop-in's, the parameter ones
(io_test.py, io_runtime_test.py), the device-loop and the Python-module
tests. Exit status 0 when every test
that passes on the official runtime also passes on Ember.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import iree_source  # noqa: E402

DEFAULT_FILES = [
    "array_interop_test.py", "benchmark_test.py", "flags_test.py",
    "function_test.py", "hal_test.py", "io_test.py", "io_runtime_test.py",
    "system_api_test.py",
    "system_setup_test.py", "vm_test.py", "vm_types_test.py",
    "hal_device_loop_test.py", "py_module_test.py",
]
OUTCOMES = ("passed", "failed", "skipped", "error", "xfailed", "xpassed")


def run(tests_dir: Path, test_file: str, shim: bool, timeout: int):
    """{test id: outcome} for one file under one runtime."""
    prefix = [sys.executable]
    if shim:
        prefix += ["-m", "ember.shim"]
    command = prefix + ["-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                        test_file]
    try:
        result = subprocess.run(command, cwd=tests_dir, capture_output=True,
                                text=True, timeout=timeout)
        output = result.stdout
    except subprocess.TimeoutExpired as timeout_error:
        output = (timeout_error.stdout or b"").decode(errors="replace")
        output += f"\nTIMEOUT {test_file}"
    outcomes = {}
    # -rA ends with one "OUTCOME test_id" line per test.
    for line in output.splitlines():
        match = re.match(r"^(PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS) (\S+)",
                         line)
        if match:
            word = {"XFAIL": "xfailed", "XPASS": "xpassed",
                    "ERROR": "error"}.get(match.group(1),
                                          match.group(1).lower())
            outcomes[match.group(2)] = word
    if not outcomes:
        outcomes[f"{test_file}::<collection>"] = "error"
    return outcomes


def summary(outcomes) -> str:
    counts = {word: 0 for word in OUTCOMES}
    for word in outcomes.values():
        counts[word] += 1
    return (f"{counts['passed']} passed, {counts['failed'] + counts['error']} "
            f"failed, {counts['skipped']} skipped")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("iree_checkout", type=Path, nargs="?")
    parser.add_argument("--mirror", type=Path,
                        help="a git repository of iree-org/iree")
    parser.add_argument("--revision", help="the revision to export from it")
    parser.add_argument("--files", default=",".join(DEFAULT_FILES))
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list the tests that pass officially but not on "
                             "Ember")
    args = parser.parse_args()
    if args.mirror or args.revision:
        if not (args.mirror and args.revision) or args.iree_checkout:
            sys.exit("give either IREE_CHECKOUT or both --mirror and "
                     "--revision")
        args.iree_checkout = iree_source.export_tree(
            args.mirror, args.revision, ["runtime/bindings/python/tests"],
            "python-tests")
    elif not args.iree_checkout:
        sys.exit("give IREE_CHECKOUT, or --mirror and --revision")
    tests_dir = args.iree_checkout / "runtime" / "bindings" / "python" / "tests"
    if not tests_dir.is_dir():
        sys.exit(f"{tests_dir} not found (an IREE checkout?)")
    if args.files == "all":
        args.files = ",".join(sorted(p.name for p in
                                     tests_dir.glob("*_test.py")))
    total = {"official": {}, "ember": {}}
    regressions = []
    for test_file in args.files.split(","):
        official = run(tests_dir, test_file, False, args.timeout)
        ember = run(tests_dir, test_file, True, args.timeout)
        total["official"].update(official)
        total["ember"].update(ember)
        print(f"{test_file}: official {summary(official)}; "
              f"ember {summary(ember)}")
        for test, outcome in official.items():
            if outcome == "passed" and ember.get(test) != "passed":
                regressions.append(f"{test} ({ember.get(test, 'not run')})")
    print(f"total: official {summary(total['official'])}; "
          f"ember {summary(total['ember'])}")
    print(f"{len(regressions)} tests pass on the official runtime but not on "
          "Ember")
    if args.verbose:
        for line in regressions:
            print(f"  {line}")
    return 0 if not regressions else 1


if __name__ == "__main__":
    sys.exit(main())
