#!/usr/bin/env python3
"""Runs IREE's e2e check programs on Ember (or on the official runtime).

    python3 tests/conformance/run_iree_e2e_tests.py IREE_CHECKOUT
        [--suites stablehlo_ops,tosa_ops,linalg,tensor_ops,math | all]
        [--backend llvm-cpu|vmvx|vulkan-spirv] [--devices D1,D2]
        [--runner ember|official|both] [--all-variants] [--jobs N]
        [--timeout SECONDS] [--checker PATH] [--compiler PATH]
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
CMakeLists.txt whose TARGET_BACKEND is --backend give the source files,
compiler flags and RUNNER_ARGS (by default only the first such block that is
not labelled "manual", the suite's main variant; --all-variants runs every
one, manual ones included). `--suites all` takes every suite of tests/e2e
that has such a block. A source that the build
generates (a "${PROJECT_BINARY_DIR}/..." path, as in the math suite) is
produced the way the build does it: the suite's `iree_genrule` whose OUTS
names it is run from the checkout (its generator script, under this Python)
into build/e2e/<suite>/generated/, afresh on every run. Each source is compiled
with the pinned iree-compile into build/e2e/ (cached by compiler version,
flags and source hash) and run on each device by `ember-check-module`
(--runner ember, the default) or, with --runner official (or --oracle), by
tests/conformance/iree_check_oracle.py under the official runtime's Python
(--oracle-python; default: the python beside --compiler), the wheels having
no iree-check-module. The same cached modules serve both runners, so one
command gives the official table and the other Ember's; --runner both runs
each file on both and lists the tests whose verdicts differ (with
--show-common-failures, also those that fail on both).
--backend vulkan-spirv compiles with --iree-hal-target-device=vulkan (the
check_*vulkan* rules) and runs on --devices vulkan by default. Each module
file runs in its own process, at most --timeout seconds (a file that runs
out counts as one failure), --jobs of them at a time.

Prints one line per suite, variant and device: "N passed, M failed" over
test functions, then each failed test with the first line of its first
failure, and the files that failed to generate, compile, load or finish.
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
    """The `backend` blocks of a CMakeLists.txt:
    [(name, srcs, flags, runner_args, labels)]."""
    return [(fields["NAME"][0], fields.get("SRCS", []),
             fields.get("COMPILER_FLAGS", []), fields.get("RUNNER_ARGS", []),
             fields.get("LABELS", []))
            for fields in parse_calls(cmake_text,
                                      "iree_check_single_backend_test_suite")
            if fields.get("TARGET_BACKEND") == [backend]]


def backend_flags(backend):
    """The base flags of IREE's check rules for `backend`, which pass
    --iree-hal-target-backends=BACKEND (iree_check_test.cmake), in their
    target-device spelling. --backend vmvx runs the check_vmvx_* blocks:
    VMVX executables on Ember's CPU devices (runtime/modules/vmvx);
    --backend vulkan-spirv the check_*vulkan* blocks: SPIR-V executables
    for the `vulkan` device."""
    if backend == "vulkan-spirv":
        return ["--iree-hal-target-device=vulkan"]
    return ["--iree-hal-target-device=local",
            f"--iree-hal-local-target-device-backends={backend}"]


DEFAULT_DEVICES = {"llvm-cpu": "local-task,local-sync",
                   "vmvx": "local-task,local-sync",
                   "vulkan-spirv": "vulkan"}


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
    # Written beside and renamed: an interrupted compile never leaves a
    # half-written module in the cache.
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    try:
        result = subprocess.run(
            [iree_compile, *BASE_FLAGS, *flags, str(source), "-o", str(tmp)],
            capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        tmp.unlink(missing_ok=True)
        return None, ["timed out after 600 s"]
    if result.returncode != 0:
        tmp.unlink(missing_ok=True)
        lines = result.stderr.strip().splitlines()
        errors = [line.strip() for line in lines if "error:" in line]
        return None, (errors or lines)[:1] or ["failed"]
    tmp.replace(out)
    return out, None


def first_failures(stdout):
    """{test name: first line of its first failure message} from a check
    tool's output ("Failure in NAME:" then the message)."""
    firsts = {}
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        match = re.match(r"Failure in (\S+):$", line)
        if match and match.group(1) not in firsts:
            rest = [text.strip() for text in lines[i + 1:i + 4]
                    if text.strip()]
            first = rest[0] if rest else ""
            firsts[match.group(1)] = (first if len(first) <= 300
                                      else first[:297] + "...")
    return firsts


def run_checks(command, module, device, runner_args, timeout):
    """Runs one module file. Returns (passed, failed, notes, verdicts):
    verdicts maps each test that ran to (passed?, first failure line), and
    "(file)" to (False, why) when the file itself failed (could not load,
    timed out, crashed) -- that counts as one failure."""
    try:
        result = subprocess.run([*command, f"--module={module}",
                                 f"--device={device}", *runner_args],
                                capture_output=True, text=True,
                                timeout=timeout)
        stdout, problem = result.stdout, None
        if result.returncode < 0:  # killed by a signal
            problem = f"crashed (signal {-result.returncode})"
    except subprocess.TimeoutExpired as expired:
        stdout = expired.stdout or b""
        if isinstance(stdout, bytes):
            stdout = stdout.decode(errors="replace")
        running = re.findall(r"^\[ RUN      \] (\S+)", stdout, re.M)
        problem = (f"timed out after {timeout} s (in "
                   f"{running[-1] if running else 'loading'})")
        result = None
    firsts = first_failures(stdout)
    verdicts = {}
    for mark, name in re.findall(r"^\[(       OK |  FAILED  )\] (\S+)",
                                 stdout, re.M):
        verdicts[name] = (mark.strip() == "OK", firsts.get(name, ""))
    if not verdicts and problem is None:
        lines = (result.stderr.strip().splitlines() or
                 stdout.strip().splitlines() or
                 [f"no tests ran (exit {result.returncode})"])
        problem = lines[-1]
    if problem is not None:
        verdicts["(file)"] = (False, problem)
    passed = sum(ok for ok, _ in verdicts.values())
    failed = len(verdicts) - passed
    notes = [f"FAILED {name}: {first}".rstrip(": ") if name != "(file)"
             else first for name, (ok, first) in verdicts.items() if not ok]
    return passed, failed, notes, verdicts


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


def oracle_command(args, iree_compile):
    """The official runner: iree_check_oracle.py under the Python of the
    venv whose iree-compile is in use (its iree.runtime is the official
    runtime of the same version), or --oracle-python."""
    python = args.oracle_python
    if not python:
        beside = Path(iree_compile).parent / "python"
        python = str(beside) if beside.exists() else sys.executable
    probe = subprocess.run([python, "-c", "import iree.runtime"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        sys.exit(f"{python} cannot import iree.runtime; pass --oracle-python")
    return [python, str(Path(__file__).resolve().parent /
                        "iree_check_oracle.py")]


def suites_with(checkout, backend):
    """Every suite of tests/e2e whose CMakeLists.txt has `backend` blocks."""
    found = []
    for cmake in sorted((checkout / "tests" / "e2e").glob("*/CMakeLists.txt")):
        if parse_suites(cmake.read_text(), backend):
            found.append(cmake.parent.name)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("iree_checkout", type=Path, nargs="?")
    parser.add_argument("--mirror", type=Path,
                        help="a git repository of iree-org/iree")
    parser.add_argument("--revision", help="the revision to export from it")
    parser.add_argument("--compiler", help="the iree-compile to use")
    parser.add_argument("--suites", default=",".join(DEFAULT_SUITES),
                        help="comma-separated, or `all`")
    parser.add_argument("--devices", "--device", dest="devices",
                        help="comma-separated (default: local-task,"
                        "local-sync; vulkan for --backend vulkan-spirv)")
    parser.add_argument("--all-variants", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=int, default=600,
                        help="seconds one module file may run")
    parser.add_argument("--checker")
    parser.add_argument("--runner", default="ember",
                        choices=["ember", "official", "both"],
                        help="both: the two side by side, listing the "
                        "tests whose verdicts differ")
    parser.add_argument("--show-common-failures", action="store_true",
                        help="with --runner both, also list the tests that "
                        "fail on both")
    parser.add_argument("--oracle", dest="runner", action="store_const",
                        const="official", help="same as --runner official")
    parser.add_argument("--oracle-python",
                        help="python with the official iree.runtime")
    parser.add_argument("--backend", default="llvm-cpu",
                        choices=["llvm-cpu", "vmvx", "vulkan-spirv"],
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
    commands = {}
    if args.runner in ("official", "both"):
        commands["official"] = oracle_command(args, iree_compile)
    if args.runner in ("ember", "both"):
        commands["ember"] = [find_checker(args.checker)]
    totals = {runner: [0, 0] for runner in commands}
    devices = (args.devices or DEFAULT_DEVICES[args.backend]).split(",")
    suites = (suites_with(args.iree_checkout, args.backend)
              if args.suites == "all" else args.suites.split(","))
    for runner, command in commands.items():
        print(f"{runner}: {' '.join(command)}", flush=True)
    if "official" in commands:
        # The oracle's check module is Python: prove on each device that its
        # checks can fail before its passes are believed.
        for device in devices:
            proof = subprocess.run(
                [*commands["official"], f"--self-test={iree_compile}",
                 f"--device={device}",
                 *[f"--compile-flag={flag}" for flag in BASE_FLAGS]],
                capture_output=True, text=True)
            if proof.returncode != 0:
                sys.exit(proof.stdout + proof.stderr)
            print(proof.stdout.strip(), flush=True)
    print(f"backend {args.backend}: {' '.join(BASE_FLAGS)}", flush=True)
    for suite in suites:
        suite_dir = args.iree_checkout / "tests" / "e2e" / suite
        cmake_text = (suite_dir / "CMakeLists.txt").read_text()
        blocks = parse_suites(cmake_text, args.backend)
        if not args.all_variants:
            blocks = [block for block in blocks
                      if "manual" not in block[4]][:1]
        if not blocks:
            print(f"{suite}: no {args.backend} blocks")
            continue
        for name, srcs, flags, runner_args, labels in blocks:
            out_dir = ROOT / "build" / "e2e" / suite / name
            out_dir.mkdir(parents=True, exist_ok=True)
            sources, generate_failures = resolve_sources(
                cmake_text, suite, suite_dir, srcs)
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                compiled = list(pool.map(
                    lambda s: compile_one(iree_compile, version, s, flags,
                                          out_dir), sources))
            compile_failures = generate_failures + [
                (s.name, f"did not compile: {e[0]}") for s, (m, e) in
                zip(sources, compiled) if m is None]
            runnable = [(source, module) for source, (module, _) in
                        zip(sources, compiled) if module is not None]
            tags = f" [{', '.join(labels)}]" if labels else ""
            # Files that did not compile are not counted as failures (they
            # fail alike on every runtime); they are named below.
            unbuilt = len(compile_failures) - len(generate_failures)
            unbuilt = f", {unbuilt} files did not compile" if unbuilt else ""
            for device in devices:
                # (runner, file, test) -> (passed?, first failure line)
                verdicts = {}
                counts = {}
                for runner, command in commands.items():
                    # A source that could not be generated counts as one
                    # failure: otherwise a suite that is all generated
                    # would look clean.
                    passed, failed = 0, len(generate_failures)
                    notes = []
                    with concurrent.futures.ThreadPoolExecutor(
                            args.jobs) as pool:
                        results = list(pool.map(
                            lambda item, c=command: run_checks(
                                c, item[1], device, runner_args,
                                args.timeout), runnable))
                    for (source, _), (p, f, file_notes, file_verdicts) in zip(
                            runnable, results):
                        passed += p
                        failed += f
                        notes += [f"{source.name}: {note}"
                                  for note in file_notes]
                        for test, verdict in file_verdicts.items():
                            verdicts[runner, source.name, test] = verdict
                    counts[runner] = (passed, failed, notes)
                    totals[runner][0] += passed
                    totals[runner][1] += failed
                if len(commands) == 1:
                    (passed, failed, notes), = counts.values()
                    print(f"{suite}/{name} on {device}: {passed} passed, "
                          f"{failed} failed{unbuilt}{tags}", flush=True)
                    for note in notes:
                        print(f"    {note}")
                    continue
                print(f"{suite}/{name} on {device}: " + " | ".join(
                    f"{runner} {p} passed, {f} failed"
                    for runner, (p, f, _) in counts.items()) +
                    f"{unbuilt}{tags}", flush=True)
                keys = sorted({key[1:] for key in verdicts})
                for source_name, test in keys:
                    # A test missing from a runner's output did not run
                    # (its file crashed, timed out or did not load); a
                    # file problem missing from it means there was none.
                    both = []
                    for runner in commands:
                        problem = verdicts.get((runner, source_name,
                                                "(file)"))
                        missing = ((True, "") if test == "(file)" else
                                   (False, "did not run" + (
                                       f": {problem[1]}" if problem else "")))
                        both.append(verdicts.get((runner, source_name, test),
                                                 missing))
                    if len({ok for ok, _ in both}) == 1 and (
                            both[0][0] or not args.show_common_failures):
                        continue
                    print(f"    {source_name}: {test}: " + " | ".join(
                        f"{runner} " + ("ok" if ok else f"FAILED {first}")
                        for runner, (ok, first) in zip(commands, both)))
            for source_name, error in compile_failures:
                print(f"    {source_name}: {error}")
    for runner, (passed, failed) in totals.items():
        print(f"{runner + ': ' if len(totals) > 1 else ''}{passed} passed, "
              f"{failed} failed")
    return 0 if all(failed == 0 for _, failed in totals.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
