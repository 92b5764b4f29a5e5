#!/usr/bin/env python3
"""Runs IREE's own VM op test modules on Ember (and, optionally, on IREE).

    python3 tests/conformance/run_iree_vm_tests.py IREE_CHECKOUT
        [--revision REV] [--compiler IREE_COMPILE] [--assembler IREE_AS_MODULE]
        [--runner PATH] [--oracle PYTHON] [--verbose] [--no-rewrite]

IREE_CHECKOUT is a checkout (or an exported tree) of iree-org/iree holding
`runtime/src/iree/vm/test/`, for example

    git -C IREE_GIT archive main runtime/src/iree/vm/test | tar -x -C /tmp/m

Nothing from it is copied into this repository. Two forms of the tests exist:

  * up to v3.11.0: `*.mlir`, compiled with iree-compile --compile-mode=vm
    (`--compiler`, default the iree-compile on PATH);
  * after it (IREE main, 3.12+): `*.vmasm`, IREE's VM assembly, assembled
    with iree-as-module, which ships in the 3.12+ compiler wheel
    (`--assembler`, default the iree-as-module beside --compiler, else on
    PATH).

A checkout holding .vmasm files uses them. The modules land in
build/conformance/REV/ (REV from --revision, default "checkout"), cached by
tool version + source hash. Every export is called by Ember's vm_test_runner:
each `test_*` must succeed and each `fail_*` must fail.

--oracle PYTHON also runs the same module files on the official runtime
(tests/conformance/iree_vm_oracle.py under PYTHON, an interpreter with
iree.runtime, e.g. /work/venv313/bin/python) and compares: a test that passes
officially must pass on Ember. Tests the official Python API cannot run (the
async_ops module needs IREE's native yieldable_test module) are listed.

Prints the runner's report, ending with "N passed, M failed" (and with
--oracle the comparison). Exit status 0 when nothing failed.
"""

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ORACLE_SCRIPT = Path(__file__).resolve().parent / "iree_vm_oracle.py"


def find_tool(explicit, name, beside=None) -> str:
    if explicit:
        if not Path(explicit).exists():
            sys.exit(f"{name} not found at {explicit}")
        return str(explicit)
    if beside:
        candidate = Path(beside).parent / name
        if candidate.exists():
            return str(candidate)
    path = shutil.which(name)
    if not path:
        sys.exit(f"{name} not found: pass its path, or install "
                 "iree-base-compiler (iree-as-module ships from 3.12)")
    return path


def tool_version(tool: str) -> str:
    result = subprocess.run([tool, "--version"], capture_output=True,
                            text=True)
    # iree-as-module has no --version; its bytes identify it.
    if result.returncode != 0 or not result.stdout.strip():
        return hashlib.sha256(Path(tool).read_bytes()).hexdigest()
    return result.stdout


def build_all(sources, out_dir: Path, tool: str, assemble: bool) -> list:
    version = tool_version(tool)
    out_dir.mkdir(parents=True, exist_ok=True)
    outputs = []
    for source in sources:
        text = source.read_bytes()
        key = hashlib.sha256(version.encode() + text).hexdigest()[:16]
        target = out_dir / f"{source.stem}.{key}.vmfb"
        if not target.exists():
            temporary = str(target) + ".tmp"
            if assemble:
                command = [tool, f"--output={temporary}", str(source)]
            else:
                command = [tool, "--compile-mode=vm", str(source), "-o",
                           temporary]
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                verb = "assemble" if assemble else "compile"
                print(f"FAILED  {source.name}: does not {verb}:\n"
                      f"{result.stderr}{result.stdout}")
                continue
            Path(temporary).rename(target)
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


# vm_test_runner --verbose: "ok      LABEL:NAME" / "FAILED  LABEL:NAME: ..."
RUNNER_LINE = re.compile(r"^(ok|FAILED)\s+(\S+?:[A-Za-z0-9_]+)(?::|$)")


def compare_with_oracle(python: str, modules, ember_lines) -> int:
    """Prints the comparison; returns the number of tests that pass
    officially but not on Ember."""
    ember = {}
    for line in ember_lines:
        match = RUNNER_LINE.match(line)
        if match:
            ember[match.group(2)] = match.group(1) == "ok"
    result = subprocess.run([python, str(ORACLE_SCRIPT)] +
                            [str(m) for m in modules],
                            capture_output=True, text=True)
    if result.returncode != 0:
        print(f"oracle failed (exit {result.returncode}):\n{result.stderr}")
        return 1
    official = [json.loads(line) for line in result.stdout.splitlines()
                if line.startswith("{")]
    counts = {"pass": 0, "fail": 0, "unrunnable": 0}
    regressions, unrunnable, official_failures = [], [], []
    for record in official:
        counts[record["outcome"]] += 1
        test = record["test"]
        if record["outcome"] == "pass" and not ember.get(test, False):
            regressions.append(test)
        elif record["outcome"] == "unrunnable":
            unrunnable.append((test, record["detail"]))
        elif record["outcome"] == "fail":
            official_failures.append(f"{test}: {record['detail']}")
    for line in official_failures:
        print(f"official runtime FAILED  {line}")
    if unrunnable:
        modules_named = sorted({test.split(":")[0] for test, _ in unrunnable})
        print(f"not runnable on the official Python API ({len(unrunnable)} "
              f"tests of {', '.join(modules_named)}): "
              f"{unrunnable[0][1][:200]}")
    for test in regressions:
        print(f"REGRESSION  {test}: passes on the official runtime, not on "
              "Ember")
    print(f"official runtime: {counts['pass']} passed, {counts['fail']} "
          f"failed, {counts['unrunnable']} not runnable; passing officially "
          f"but not on Ember: {len(regressions)}")
    return len(regressions)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("iree_checkout", type=Path)
    parser.add_argument("--revision", default="checkout",
                        help="the checkout's IREE revision (names the cache "
                             "folder under build/conformance/)")
    parser.add_argument("--compiler", help="iree-compile (for .mlir tests)")
    parser.add_argument("--assembler",
                        help="iree-as-module (for .vmasm tests)")
    parser.add_argument("--runner", help="path to the vm_test_runner binary")
    parser.add_argument("--oracle", metavar="PYTHON",
                        help="also run the modules on the official runtime "
                             "of this interpreter and compare")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--no-rewrite", action="store_true",
                        help="run the bytecode as encoded, without Ember's "
                             "executable-copy rewrites")
    args = parser.parse_args()
    if not re.fullmatch(r"[A-Za-z0-9._-]+", args.revision):
        sys.exit(f"--revision must be a plain name, not {args.revision!r}")
    test_dir = args.iree_checkout / "runtime" / "src" / "iree" / "vm" / "test"
    assembled = sorted(test_dir.glob("*.vmasm"))
    if assembled:
        tool = find_tool(args.assembler, "iree-as-module", args.compiler)
        sources, assemble = assembled, True
    else:
        sources, assemble = sorted(test_dir.glob("*.mlir")), False
        tool = find_tool(args.compiler, "iree-compile")
    if not sources:
        sys.exit(f"no VM test modules (.vmasm or .mlir) under {test_dir}")
    modules = build_all(sources, ROOT / "build" / "conformance" /
                        args.revision, tool, assemble)
    command = [str(find_runner(args.runner))]
    if args.verbose or args.oracle:
        command.append("--verbose")
    if args.no_rewrite:
        command.append("--no-rewrite")
    run = subprocess.run(command + [str(m) for m in modules],
                         capture_output=True, text=True)
    for line in run.stdout.splitlines():
        if args.verbose or not line.startswith("ok "):
            print(line)
    sys.stderr.write(run.stderr)
    status = run.returncode
    if len(modules) != len(sources):
        status = status or 1
    if args.oracle:
        if compare_with_oracle(args.oracle, modules, run.stdout.splitlines()):
            status = status or 1
    return status


if __name__ == "__main__":
    sys.exit(main())
