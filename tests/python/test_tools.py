"""The command-line tools: ``python -m ember`` and ``ember-dump-module``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TIMEOUT = 60


def run(argv, **kwargs):
    return subprocess.run([str(a) for a in argv], capture_output=True,
                          text=True, timeout=TIMEOUT, **kwargs)


def native_dump_tool() -> Path | None:
    """The installed native ember-dump-module binary, found through the
    installed distribution's file list (an editable install keeps it in
    site-packages beside the extension), else next to the extension."""
    import importlib.metadata

    import ember._ember as extension
    candidates = []
    try:
        for file in importlib.metadata.distribution("ember-runtime").files:
            if file.name == "ember-dump-module" and file.parts[0] == "ember":
                candidates.append(Path(file.locate()))
    except importlib.metadata.PackageNotFoundError:
        pass
    for sub in ("_bin", "_tools"):
        candidates.append(Path(extension.__file__).parent / sub /
                          "ember-dump-module")
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="module")
def dump_tool() -> Path:
    tool = native_dump_tool()
    if tool is None:
        found = shutil.which("ember-dump-module")
        if found is None:
            pytest.fail("ember-dump-module is not installed")
        tool = Path(found)
    return tool


@pytest.fixture(scope="module")
def module_json(ember_rt):
    def get(path) -> dict:
        module = ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(path))
        return json.loads(module.dump(json=True))
    return get


@pytest.fixture(scope="module")
def tensor_vmfb(corpus_by_name) -> Path:
    """A corpus module with imports, reflection and external rodata."""
    return Path(corpus_by_name["reflection"]["forms"]["embedded"])


@pytest.fixture
def corrupt_vmfb(tmp_path, sample_vmfb) -> Path:
    path = tmp_path / "corrupt.vmfb"
    path.write_bytes(sample_vmfb.read_bytes()[:200])
    return path


# ---------------------------------------------------------------------------
# python -m ember
# ---------------------------------------------------------------------------


def test_python_m_ember_default_sample(module_json, sample_vmfb):
    proc = run([sys.executable, "-m", "ember"])
    assert proc.returncode == 0, proc.stderr
    expected = module_json(sample_vmfb)
    assert "Module: module" in proc.stdout
    for export in expected["exports"]:
        assert export["name"] in proc.stdout
    for entry in expected["imports"]:
        assert entry["full_name"] in proc.stdout
    assert "<VmModule module : [simple_mul, add_one, __init]>" in proc.stdout
    # ... and runs the sample on the CPU, with the tool and through
    # load_vm_flatbuffer_file.
    lines = proc.stdout.splitlines()
    assert "4xf32=10 40 90 160" in lines
    assert lines[-1] == "array([ 10.,  40.,  90., 160.], dtype=float32)"


def test_python_m_ember_file(tensor_vmfb, module_json):
    proc = run([sys.executable, "-m", "ember", tensor_vmfb])
    assert proc.returncode == 0, proc.stderr
    assert "Module: reflection" in proc.stdout
    for export in module_json(tensor_vmfb)["exports"]:
        assert export["name"] in proc.stdout
    assert str(tensor_vmfb) in proc.stdout


@pytest.mark.parametrize("which", ["sample", "corpus"])
def test_python_m_ember_json(which, sample_vmfb, tensor_vmfb, module_json):
    path = sample_vmfb if which == "sample" else tensor_vmfb
    argv = [sys.executable, "-m", "ember", "--json"]
    if which == "corpus":
        argv.insert(3, path)
    proc = run(argv)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == module_json(path)


def test_python_m_ember_verbose(sample_vmfb):
    proc = run([sys.executable, "-m", "ember", "--verbose", sample_vmfb])
    assert proc.returncode == 0, proc.stderr
    assert "location table:" in proc.stdout
    assert "pc " in proc.stdout


def test_python_m_ember_errors(corrupt_vmfb, tmp_path):
    proc = run([sys.executable, "-m", "ember", corrupt_vmfb])
    assert proc.returncode == 1
    assert str(corrupt_vmfb) in proc.stderr
    assert "size prefix" in proc.stderr
    assert proc.stdout == ""
    missing = tmp_path / "missing.vmfb"
    proc = run([sys.executable, "-m", "ember", missing])
    assert proc.returncode == 1
    assert str(missing) in proc.stderr
    proc = run([sys.executable, "-m", "ember", "--bogus-flag"])
    assert proc.returncode == 2


# ---------------------------------------------------------------------------
# ember-dump-module
# ---------------------------------------------------------------------------


def test_dump_tool_text(dump_tool, tensor_vmfb, module_json):
    proc = run([dump_tool, tensor_vmfb])
    assert proc.returncode == 0, proc.stderr
    expected = module_json(tensor_vmfb)
    text = proc.stdout
    assert text.startswith("Module: reflection (version 0)")
    assert expected["exports"] and expected["imports"]
    for export in expected["exports"]:
        assert f"] {export['name']}  -> function " in text
    for entry in expected["imports"]:
        assert f"] {entry['full_name']}  cconv {entry['cconv']}" in text
    for name in expected["types"]:
        assert name in text
    assert "ember.units: meters" in text
    assert f"Imports ({len(expected['imports'])}):" in text
    assert f"Exports ({len(expected['exports'])}):" in text
    assert "location table:" not in text


def test_dump_tool_text_equals_binding(dump_tool, tensor_vmfb, ember_rt):
    module = ember_rt.VmModule.mmap(ember_rt.VmInstance(), str(tensor_vmfb))
    assert run([dump_tool, tensor_vmfb]).stdout == module.dump()
    verbose = run([dump_tool, "--verbose", tensor_vmfb]).stdout
    assert verbose == module.dump(verbose=True)
    assert "location table:" in verbose


def test_dump_tool_json_every_form(dump_tool, corpus, module_json):
    for entry in corpus["modules"]:
        for form, path in entry["forms"].items():
            if form == "json":
                continue
            proc = run([dump_tool, "--json", path])
            assert proc.returncode == 0, (entry["name"], form, proc.stderr)
            assert json.loads(proc.stdout) == module_json(path), \
                (entry["name"], form)


def test_dump_tool_errors(dump_tool, corrupt_vmfb, tmp_path, sample_vmfb):
    proc = run([dump_tool, corrupt_vmfb])
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert str(corrupt_vmfb) in proc.stderr
    assert "size prefix" in proc.stderr

    proc = run([dump_tool, "--json", tmp_path / "missing.vmfb"])
    assert proc.returncode == 1
    assert "missing.vmfb" in proc.stderr

    empty = tmp_path / "empty.vmfb"
    empty.write_bytes(b"")
    proc = run([dump_tool, empty])
    assert proc.returncode == 1
    assert proc.stderr.strip()

    proc = run([dump_tool])  # no file
    assert proc.returncode == 2
    assert "usage" in proc.stderr

    proc = run([dump_tool, "--frobnicate", sample_vmfb])
    assert proc.returncode == 2
    proc = run([dump_tool, sample_vmfb, sample_vmfb])
    assert proc.returncode == 2

    proc = run([dump_tool, "--help"])
    assert proc.returncode == 0
    assert "--json" in proc.stdout


def test_console_script_runs(sample_vmfb, module_json):
    # The `ember-dump-module` entry point that pip installs must reach the
    # native tool.
    script = shutil.which("ember-dump-module")
    if script is None:
        pytest.skip("the ember-dump-module console script is not on PATH")
    proc = run([script, "--json", sample_vmfb])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == module_json(sample_vmfb)


# ---------------------------------------------------------------------------
# ember-run-module (VM-only modules), compared with iree-run-module
# ---------------------------------------------------------------------------

def parse_results(stdout: str) -> list[str]:
    """The `result[i]: type=value` lines both tools print, normalised."""
    results = []
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("result[") and ":" in line:
            results.append(line.split(":", 1)[1].strip())
    return results


@pytest.mark.parametrize("function,inputs", [
    ("sum_to", ["100"]),
    ("gcd", ["1071", "462"]),
    ("factorial_i64", ["20"]),
    ("mix_i64", ["-123456789012", "77"]),
])
def test_run_module_matches_iree(corpus_by_name, function, inputs):
    module = corpus_by_name["vm_int_loop"]["forms"]["embedded"]
    ours = run([sys.executable, "-c",
                "from ember._tools import run_module; run_module()",
                f"--module={module}", f"--function={function}",
                *[f"--input={i}" for i in inputs]])
    assert ours.returncode == 0, ours.stderr
    theirs = run(["iree-run-module", f"--module={module}",
                  f"--function={function}", *[f"--input={i}" for i in inputs]])
    assert theirs.returncode == 0, theirs.stderr
    ember_results = parse_results(ours.stdout)
    assert ember_results, ours.stdout
    # Both print `result[0]: i32=5050`.
    assert ember_results == parse_results(theirs.stdout), (ours.stdout,
                                                           theirs.stdout)


def test_run_module_runs_the_bundled_tensor_sample(sample_vmfb):
    result = run([sys.executable, "-c",
                  "from ember._tools import run_module; run_module()",
                  f"--module={sample_vmfb}", "--function=simple_mul",
                  "--device=local-sync", "--input=4xf32=1,2,3,4",
                  "--input=4xf32=10,20,30,40"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "4xf32=10 40 90 160"


def test_run_module_names_a_missing_function_before_reading_inputs(
        sample_vmfb):
    result = run([sys.executable, "-c",
                  "from ember._tools import run_module; run_module()",
                  f"--module={sample_vmfb}", "--function=simple_mull",
                  "--input=not-even-a-tensor"])
    assert result.returncode == 1
    assert "exports no function 'simple_mull'" in result.stderr
    assert "simple_mul" in result.stderr


def test_run_module_rejects_wrong_argument_counts(sample_vmfb):
    result = run([sys.executable, "-c",
                  "from ember._tools import run_module; run_module()",
                  f"--module={sample_vmfb}", "--function=simple_mul",
                  "--input=4xf32=1"])
    assert result.returncode == 1
    assert "expects 2 arguments" in result.stderr


def test_benchmark_module_reports_as_iree_does(sample_vmfb, tmp_path):
    """Google Benchmark's JSON from both tools: the same rows (repetitions,
    then mean/median/stddev/cv aggregates) and fields, so one parser reads
    either; --benchmark_out writes the report to a file too."""
    args = [f"--module={sample_vmfb}", "--function=simple_mul",
            "--device=local-sync", "--input=4xf32=1,2,3,4",
            "--input=4xf32=10,20,30,40", "--benchmark_repetitions=3",
            "--benchmark_min_time=20x", "--benchmark_format=json"]
    out = tmp_path / "report.json"
    ours = run([sys.executable, "-c",
                "from ember._tools import benchmark_module; "
                "benchmark_module()", *args, f"--benchmark_out={out}"])
    assert ours.returncode == 0, ours.stderr
    theirs = run(["iree-benchmark-module", *args])
    assert theirs.returncode == 0, theirs.stderr

    def shape(report):
        return [(row["name"], row["run_type"], row.get("aggregate_name"),
                 row["iterations"], row.get("time_unit"))
                for row in report["benchmarks"]]

    ember_report = json.loads(ours.stdout)
    assert shape(ember_report) == shape(json.loads(theirs.stdout))
    assert json.loads(out.read_text())["benchmarks"] == \
        ember_report["benchmarks"]
    for row in ember_report["benchmarks"]:
        if row["run_type"] == "iteration":
            assert row["real_time"] > 0 and row["cpu_time"] > 0
    bad = run([sys.executable, "-c",
               "from ember._tools import benchmark_module; benchmark_module()",
               *args[:5], "--benchmark_format=yaml"])
    assert bad.returncode == 2 and "console or json" in bad.stderr
