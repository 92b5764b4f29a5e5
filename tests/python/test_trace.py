"""Built-in timelines (ember.runtime.trace, EMBER_TRACE): a real program
traced on local-sync and local-task, the JSON checked against the Chrome
trace event schema, every dispatch counted.

The dispatch count is checked against an independent count from the same
run: the `hal.command_buffer.dispatch` calls the program made (VM layer),
against the dispatch slices the CPU device wrote (HAL layer); and a run of
N calls has N times the dispatches of one.

Perfetto's trace_processor (``pip install perfetto``) downloads its shell
binary from Google's storage on first use; where that binary is missing
(offline machines) the Perfetto check is skipped and the strict schema
checks below stand in for it. EMBER_TRACE_PROCESSOR_SHELL names a local
trace_processor_shell to use instead of the download.
"""

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from conftest import compile_mlir, ember_run_module_command

import ember.runtime as rt

# Two matmuls and an elementwise tail: several dispatches per call.
PROGRAM_MLIR = """
func.func @main(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>,
                %bias: tensor<64x48xf32>, %c: tensor<48x16xf32>)
    -> tensor<64x16xf32> {
  %z0 = tensor.empty() : tensor<64x48xf32>
  %zero = arith.constant 0.0 : f32
  %f0 = linalg.fill ins(%zero : f32) outs(%z0 : tensor<64x48xf32>)
      -> tensor<64x48xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
                     outs(%f0 : tensor<64x48xf32>) -> tensor<64x48xf32>
  %s = arith.addf %m, %bias : tensor<64x48xf32>
  %r = arith.maximumf %s, %f0 : tensor<64x48xf32>
  %z1 = tensor.empty() : tensor<64x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%z1 : tensor<64x16xf32>)
      -> tensor<64x16xf32>
  %o = linalg.matmul ins(%r, %c : tensor<64x48xf32>, tensor<48x16xf32>)
                     outs(%f1 : tensor<64x16xf32>) -> tensor<64x16xf32>
  %t = math.tanh %o : tensor<64x16xf32>
  return %t : tensor<64x16xf32>
}
"""


@pytest.fixture(scope="module")
def program():
    return compile_mlir("trace_program", PROGRAM_MLIR)


def inputs():
    rng = np.random.default_rng(7)
    return [
        rng.standard_normal((64, 32)).astype(np.float32),
        rng.standard_normal((32, 48)).astype(np.float32),
        rng.standard_normal((64, 48)).astype(np.float32),
        rng.standard_normal((48, 16)).astype(np.float32),
    ]


def expected(a, b, bias, c):
    return np.tanh(np.maximum(a @ b + bias, 0) @ c)


def check_schema(trace):
    """The Chrome trace event format, strictly: what Perfetto's JSON
    importer and chrome://tracing read."""
    assert isinstance(trace, dict)
    events = trace["traceEvents"]
    assert isinstance(events, list) and events
    names = {}
    for event in events:
        assert event["ph"] in ("X", "M"), event
        assert isinstance(event["pid"], int)
        assert isinstance(event["tid"], int)
        assert isinstance(event["name"], str) and event["name"]
        if event["ph"] == "M":
            assert event["name"] in ("process_name", "thread_name")
            assert isinstance(event["args"]["name"], str)
            if event["name"] == "thread_name":
                names[event["tid"]] = event["args"]["name"]
            continue
        assert isinstance(event["cat"], str)
        for key in ("ts", "dur"):
            assert isinstance(event[key], (int, float)), event
            assert event[key] >= 0, event
        if "args" in event:
            assert isinstance(event["args"], dict)
    assert trace["otherData"]["dropped_events"] == 0
    return names


def check_nesting(events):
    """Slices on one thread never overlap partially: each is inside or
    after the ones before it (what the viewers' stacks need)."""
    by_thread = defaultdict(list)
    for event in events:
        if event["ph"] == "X":
            by_thread[event["tid"]].append(event)
    for slices in by_thread.values():
        # Starts ascending; an enclosing slice first when starts tie.
        slices.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for event in slices:
            begin, end = event["ts"], event["ts"] + event["dur"]
            while stack and stack[-1] <= begin:
                stack.pop()
            if stack:
                # 1 ns slack: JSON times are rounded to whole nanoseconds.
                assert end <= stack[-1] + 0.001, (event, stack)
            stack.append(end)


def slices(trace, category):
    return [e for e in trace["traceEvents"]
            if e["ph"] == "X" and e["cat"] == category]


def native_dispatch_calls(trace):
    return [e for e in slices(trace, "native")
            if e["name"] == "hal.command_buffer.dispatch"]


def run_traced(program, driver, calls):
    with rt.trace() as session:
        config = rt.Config(driver)
        context = rt.SystemContext(config=config)
        context.add_vm_module(
            rt.VmModule.mmap(config.vm_instance, str(program)))
        for _ in range(calls):
            result = context.modules.module.main(*inputs())
            np.testing.assert_allclose(np.asarray(result),
                                       expected(*inputs()), rtol=1e-4,
                                       atol=1e-4)
        del context
    return json.loads(session.json())


@pytest.mark.parametrize("driver", ["local-sync", "local-task"])
def test_context_manager_traces_every_dispatch(program, driver):
    trace = run_traced(program, driver, calls=1)
    names = check_schema(trace)
    check_nesting(trace["traceEvents"])
    dispatches = slices(trace, "dispatch")
    recorded = native_dispatch_calls(trace)
    assert len(dispatches) >= 2
    # Every dispatch the program recorded ran once (one call).
    assert len(dispatches) == len(recorded)
    for event in dispatches:
        args = event["args"]
        assert args["export"] and args["export"] in event["name"]
        assert "dispatch" in args["export"]
        assert isinstance(args["executable"], str)
        assert all(args[f"workgroups_{axis}"] >= 1 for axis in "xyz")
    # The dispatches ran under an invocation and a queue execute (the
    # module's initializer is an invocation too, at load).
    invokes = slices(trace, "invoke")
    assert sorted(e["name"] for e in invokes) == ["module.__init",
                                                  "module.main"]
    invokes = [e for e in invokes if e["name"] == "module.main"]
    assert any(e["name"] == "execute" for e in slices(trace, "queue"))
    assert any(e["name"] == "module.main" for e in slices(trace, "frame"))
    caller = invokes[0]["tid"]
    assert names[caller] == "caller"
    main_begin = invokes[0]["ts"]
    main_end = main_begin + invokes[0]["dur"]
    for event in dispatches:
        # Inside the call, on the caller's thread (nested, not just later).
        assert event["tid"] == caller
        assert main_begin <= event["ts"] <= main_end
        assert event["ts"] + event["dur"] <= main_end + 0.001
    # Each dispatch's workgroups ran in one or more worker shares that
    # cover exactly its workgroup count.
    shares = slices(trace, "workgroups")
    for event in dispatches:
        args = event["args"]
        total = (args["workgroups_x"] * args["workgroups_y"]
                 * args["workgroups_z"])
        inside = [s for s in shares if s["name"] == event["name"]
                  and s["ts"] >= event["ts"] - 0.001
                  and s["ts"] + s["dur"] <= event["ts"] + event["dur"] + 0.001]
        assert sum(s["args"]["workgroup_count"] for s in inside) == total
    if driver == "local-sync":
        assert {s["tid"] for s in shares} == {caller}
    else:
        workers = {s["tid"] for s in shares} - {caller}
        assert all(names[tid].startswith("worker ") for tid in workers)


def test_dispatch_count_scales_with_calls(program):
    one = run_traced(program, "local-sync", calls=1)
    three = run_traced(program, "local-sync", calls=3)
    per_call = len(slices(one, "dispatch"))
    assert len(slices(three, "dispatch")) == 3 * per_call
    assert [e["name"] for e in slices(three, "invoke")
            ].count("module.main") == 3


def test_off_by_default_and_sessions_are_separate(program):
    assert not rt.tracing._ember.trace_enabled()
    run_traced(program, "local-sync", calls=1)
    assert not rt.tracing._ember.trace_enabled()
    # Nothing recorded outside a session: the last session is unchanged.
    before = rt.trace_json()
    config = rt.Config("local-sync")
    context = rt.SystemContext(config=config)
    context.add_vm_module(rt.VmModule.mmap(config.vm_instance, str(program)))
    context.modules.module.main(*inputs())
    assert rt.trace_json() == before
    with pytest.raises(RuntimeError, match="already recording"):
        with rt.trace():
            with rt.trace():
                pass


def test_context_manager_writes_file(program, tmp_path):
    path = tmp_path / "out.json"
    with rt.trace(path):
        config = rt.Config("local-task")
        context = rt.SystemContext(config=config)
        context.add_vm_module(
            rt.VmModule.mmap(config.vm_instance, str(program)))
        context.modules.module.main(*inputs())
    trace = json.loads(path.read_text())
    check_schema(trace)
    assert len(slices(trace, "dispatch")) == len(native_dispatch_calls(trace))


def test_environment_variable_run_module(program, tmp_path):
    path = tmp_path / "env.json"
    a, b, bias, c = inputs()
    arrays = []
    for i, array in enumerate((a, b, bias, c)):
        file = tmp_path / f"in{i}.npy"
        np.save(file, array)
        arrays.append(f"--input=@{file}")
    env = dict(os.environ, EMBER_TRACE=str(path))
    result = subprocess.run(
        ember_run_module_command() + [
            f"--module={program}", "--device=local-task",
            "--function=main", *arrays],
        capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    trace = json.loads(path.read_text())
    check_schema(trace)
    check_nesting(trace["traceEvents"])
    dispatches = slices(trace, "dispatch")
    assert len(dispatches) >= 2
    assert len(dispatches) == len(native_dispatch_calls(trace))


def test_environment_variable_python(program, tmp_path):
    path = tmp_path / "py.json"
    script = (
        "import numpy as np, ember.runtime as rt\n"
        "config = rt.Config('local-sync')\n"
        "ctx = rt.SystemContext(config=config)\n"
        f"ctx.add_vm_module(rt.VmModule.mmap(config.vm_instance, {str(program)!r}))\n"
        "ctx.modules.module.main(np.ones((64, 32), np.float32),"
        " np.ones((32, 48), np.float32), np.ones((64, 48), np.float32),"
        " np.ones((48, 16), np.float32))\n")
    env = dict(os.environ, EMBER_TRACE=str(path))
    result = subprocess.run([sys.executable, "-c", script],
                            capture_output=True, text=True, timeout=300,
                            env=env)
    assert result.returncode == 0, result.stderr
    trace = json.loads(path.read_text())
    check_schema(trace)
    assert len(slices(trace, "dispatch")) == len(native_dispatch_calls(trace))


def test_perfetto_trace_processor_counts_dispatches(program, tmp_path):
    tp_module = pytest.importorskip("perfetto.trace_processor")
    shell = os.environ.get("EMBER_TRACE_PROCESSOR_SHELL")
    path = tmp_path / "perfetto.json"
    trace = run_traced(program, "local-task", calls=2)
    path.write_text(json.dumps(trace))
    config = tp_module.TraceProcessorConfig(bin_path=shell)
    try:
        processor = tp_module.TraceProcessor(trace=str(path), config=config)
    except Exception as error:  # the shell download is unreachable offline
        pytest.skip(f"trace_processor_shell unavailable: {error}")
    try:
        rows = processor.query(
            "select count(*) as n from slice where category = 'dispatch'")
        count = next(iter(rows)).n
    finally:
        processor.close()
    assert count == len(slices(trace, "dispatch")) > 0


def test_transformer_benchmark_trace_shows_every_dispatch(tmp_path):
    """The transformer block of bench/ (compiled as bench/run_model_bench.py
    compiles it): a trace from loading through one call holds one dispatch
    slice per recorded dispatch, on both devices."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        import models
        import run_model_bench
    finally:
        sys.path.pop(0)
    module = compile_mlir("trace_transformer", models.transformer(),
                          flags=run_model_bench.COMPILE_FLAGS)
    x = np.full((128, 256), 0.25, np.float32)
    counts = {}
    for driver in ("local-sync", "local-task"):
        path = tmp_path / f"{driver}.json"
        with rt.trace(path):
            config = rt.Config(driver)
            context = rt.SystemContext(config=config)
            context.add_vm_module(
                rt.VmModule.mmap(config.vm_instance, str(module)))
            context.modules.module.main(x)
        trace = json.loads(path.read_text())
        check_schema(trace)
        check_nesting(trace["traceEvents"])
        dispatches = slices(trace, "dispatch")
        assert len(dispatches) == len(native_dispatch_calls(trace))
        counts[driver] = len(dispatches)
    assert counts["local-sync"] == counts["local-task"] > 10


def test_environment_variable_expands_the_process_id(tmp_path):
    # A parent and a child sharing EMBER_TRACE=...%p... write one file each.
    pattern = str(tmp_path / "out.%p.json")
    script = ("import os, subprocess, sys\n"
              "import ember.runtime\n"
              "print(os.getpid())\n"
              "child = subprocess.run([sys.executable, '-c', "
              "'import os, ember.runtime; print(os.getpid())'], "
              "capture_output=True, text=True, check=True)\n"
              "print(child.stdout.strip())\n")
    import ember
    env = dict(os.environ, EMBER_TRACE=pattern)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(ember.__file__).resolve().parents[1]),
         *filter(None, [env.get("PYTHONPATH")])])
    result = subprocess.run([sys.executable, "-c", script],
                            capture_output=True, text=True, timeout=300,
                            env=env)
    assert result.returncode == 0, result.stderr
    pids = result.stdout.split()
    assert len(pids) == 2 and pids[0] != pids[1]
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(f"out.{pid}.json" for pid in pids)
    for pid in pids:
        check_schema(json.loads((tmp_path / f"out.{pid}.json").read_text()))
