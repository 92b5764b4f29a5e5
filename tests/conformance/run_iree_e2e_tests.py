#!/usr/bin/env python3
"""Runs IREE's e2e check programs for llvm-cpu on Ember.

    python3 tests/conformance/run_iree_e2e_tests.py IREE_CHECKOUT
        [--suites stablehlo_ops,tosa_ops,linalg,tensor_ops,math]
        [--devices local-task,local-sync] [--all-variants] [--jobs N]
        [--checker PATH] [--compiler PATH] [--backend llvm-cpu|vmvx]
    python3 tests/conformance/run_iree_e2e_tests.py --mirror GIT_DIR
        --revision REV [options as above]

IREE_CHECKOUT is a checkout (or exported tree) of iree-org/iree whose tests
match the compiler: v3.11.0 for iree-compile 3.11, the newest source for
3.13. With --mirror and --revision the tree is exported from a git
repository (a bare mirror will do) at REV into build/e2e-src/REV/, once.
--compiler names the iree-compile to use (default: the one on PATH); the
compiled modules are cached per compiler version, so runs with several
compilers share build/e2e/.
For each suite, the `iree_check_single_backend_test_suite` blocks of its
CMakeLists.txt whose TARGET_BACKEND is llvm-cpu give the source files and
compiler flags (by default only the first such block, the suite's main
llvm-cpu variant; --all-variants runs every one). A source that the build
generates (a "${PROJECT_BINARY_DIR}/..." path, as in the math suite) is
produced the way the build does it: the suite's `iree_genrule` whose OUTS
names it is run from the checkout (its generator script, under this Python)
into build/e2e/<suite>/generated/, afresh on every run. Each source is compiled
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
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import iree_source  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SUITES = ["stablehlo_ops", "tosa_ops", "linalg", "tensor_ops", "math"]
BASE_FLAGS = ["--iree-hal-target-device=local",
              "--iree-hal-local-target-device-backends=llvm-cpu"]


def parse_calls(cmake_text, function):
    """The keyword fields of each `function(...)` call: [{KEYWORD: [str]}]."""
    calls = []
    for match in re.finditer(function + r"\((.*?)\n\)", cmake_text, re.S):
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
        calls.append(fields)
    return calls


def parse_suites(cmake_text, backend="llvm-cpu"):
    """The `backend` blocks of a CMakeLists.txt: [(name, srcs, flags)]."""
    return [(fields["NAME"][0], fields.get("SRCS", []),
             fields.get("COMPILER_FLAGS", []))
            for fields in parse_calls(cmake_text,
                                      "iree_check_single_backend_test_suite")
            if fields.get("TARGET_BACKEND") == [backend]]


def backend_flags(backend):
    """The base flags of IREE's check rules for `backend`, which pass
    --iree-hal-target-backends=BACKEND (iree_check_test.cmake), in their
    target-device spelling. --backend vmvx runs the check_vmvx_* blocks:
    VMVX executables on Ember's CPU devices (runtime/modules/vmvx)."""
    return ["--iree-hal-target-device=local",
            f"--iree-hal-local-target-device-backends={backend}"]


def run_genrule(cmake_text, suite_dir, output_name, gen_dir):
    """Runs the iree_genrule of cmake_text that makes output_name, as the
    build would, writing into gen_dir. Only the form IREE uses for generated
    tests is accepted: `python3 $(rootpath SCRIPT) ARGS... > $(execpath OUT)`,
    where ARGS may name further inputs with $(rootpath ...)."""
    rules = [fields for fields in parse_calls(cmake_text, "iree_genrule")
             if fields.get("OUTS") == [output_name]]
    if len(rules) != 1 or len(rules[0].get("CMD", [])) != 1:
        raise RuntimeError(f"no single iree_genrule makes {output_name}")
    command = rules[0]["CMD"][0]
    form = re.fullmatch(r"python3 (.+) > \$\(execpath ([^)]+)\)", command)
    if not form or form.group(2) != output_name:
        raise RuntimeError(f"unsupported genrule: {command}")
    inputs = set(rules[0].get("SRCS", []))

    def rootpath(match):
        if match.group(1) not in inputs:
            raise RuntimeError(f"genrule reads undeclared {match.group(1)}")
        return shlex.quote(str(suite_dir / match.group(1)))

    argv = [sys.executable] + shlex.split(
        re.sub(r"\$\(rootpath ([^)]+)\)", rootpath, form.group(1)))
    if any("$(" in arg for arg in argv):
        raise RuntimeError(f"unsupported genrule: {command}")
    result = subprocess.run(argv, cwd=suite_dir, capture_output=True,
                            text=True, timeout=600)
    if result.returncode != 0:
        raise RuntimeError((result.stderr.strip().splitlines()
                            or ["generator failed"])[-1])
    gen_dir.mkdir(parents=True, exist_ok=True)
    out = gen_dir / output_name
    out.write_text(result.stdout)
    return out


def resolve_sources(cmake_text, suite, suite_dir, srcs):
    """The paths of a block's SRCS, generating those the build generates.
    Returns ([Path], [(name, error)])."""
    sources, failures = [], []
    binary_prefix = f"${{PROJECT_BINARY_DIR}}/tests/e2e/{suite}/"
    for src in srcs:
        if not src.startswith("${"):
            sources.append(suite_dir / src)
            continue
        name = (src[len(binary_prefix):] if src.startswith(binary_prefix)
                else src)
        try:
            if "/" in name:
                raise RuntimeError("not in the suite's own binary dir")
            sources.append(run_genrule(cmake_text, suite_dir, name,
                                       ROOT / "build" / "e2e" / suite /
                                       "generated"))
        except (RuntimeError, OSError, subprocess.SubprocessError) as error:
            failures.append((name, f"did not generate: {error}"))
    return sources, failures


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
        lines = result.stderr.strip().splitlines()
        errors = [line.strip() for line in lines if "error:" in line]
        return None, (errors or lines)[:1] or ["failed"]
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
    parser.add_argument("iree_checkout", type=Path, nargs="?")
    parser.add_argument("--mirror", type=Path,
                        help="a git repository of iree-org/iree")
    parser.add_argument("--revision", help="the revision to export from it")
    parser.add_argument("--compiler", help="the iree-compile to use")
    parser.add_argument("--suites", default=",".join(DEFAULT_SUITES))
    parser.add_argument("--devices", default="local-task,local-sync")
    parser.add_argument("--all-variants", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--checker")
    parser.add_argument("--backend", default="llvm-cpu",
                        choices=["llvm-cpu", "vmvx"],
                        help="whose TARGET_BACKEND blocks to run")
    args = parser.parse_args()
    BASE_FLAGS[:] = backend_flags(args.backend)

    if args.mirror or args.revision:
        if not (args.mirror and args.revision) or args.iree_checkout:
            sys.exit("give either IREE_CHECKOUT or both --mirror and "
                     "--revision")
        args.iree_checkout = iree_source.export_tree(
            args.mirror, args.revision, ["tests/e2e", "build_tools"], "e2e")
    elif not args.iree_checkout:
        sys.exit("give IREE_CHECKOUT, or --mirror and --revision")
    iree_compile = args.compiler or shutil.which("iree-compile")
    if not iree_compile:
        sys.exit("iree-compile not found: pip install iree-base-compiler "
                 "(or pass --compiler)")
    version = subprocess.run([iree_compile, "--version"], capture_output=True,
                             text=True, check=True).stdout
    checker = find_checker(args.checker)
    devices = args.devices.split(",")
    total_passed = total_failed = 0
    for suite in args.suites.split(","):
        suite_dir = args.iree_checkout / "tests" / "e2e" / suite
        cmake_text = (suite_dir / "CMakeLists.txt").read_text()
        blocks = parse_suites(cmake_text, args.backend)
        if not args.all_variants:
            blocks = blocks[:1]
        for name, srcs, flags in blocks:
            out_dir = ROOT / "build" / "e2e" / suite / name
            out_dir.mkdir(parents=True, exist_ok=True)
            sources, generate_failures = resolve_sources(
                cmake_text, suite, suite_dir, srcs)
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                compiled = list(pool.map(
                    lambda s: compile_one(iree_compile, version, s, flags,
                                          out_dir), sources))
            compile_failures = generate_failures + [
                (s.name, f"did not compile: {e}") for s, (m, e) in
                zip(sources, compiled) if m is None]
            for device in devices:
                # A source that could not be generated counts as one failure:
                # otherwise a suite that is all generated would look clean.
                passed, failed = 0, len(generate_failures)
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
                print(f"    {source_name}: {error}")
    print(f"{total_passed} passed, {total_failed} failed")
    return 0 if total_failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
