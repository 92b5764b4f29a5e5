"""ember.runtime.benchmark: iree.runtime.benchmark's API, measured in
process by _ember.benchmark_function.

Checked here: the rows have iree.runtime 3.13's names, fields, string
formats and JSON report rows (both runtimes run the same module with the
same flags; 3.11's rows had a console `user_counters` string where 3.13's
have the JSON row as `report`); the native loop
makes exactly the calls it reports, with the arguments given; the GIL is
released while it runs; a timeout returns at once while the call in
progress finishes on its own; inputs in iree-benchmark-module's syntax
become the right tensors and scalars; and errors are the exception types
iree.runtime raises.
"""

from __future__ import annotations

import re
import threading
import time

import numpy as np
import pytest
from conftest import compile_mlir

MUL_MLIR = """
func.func @simple_mul(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.mulf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

TWO_ENTRIES_MLIR = """
func.func @entry_1(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.absf %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @entry_2(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = math.absf %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
"""

# VM-only: a counter that every call advances, and a loop whose length is
# an argument (for a call that takes a chosen time).
COUNTER_MLIR = """
util.global private mutable @counter = 0 : i32
util.global private mutable @fsum_value = 0.0 : f32
func.func @bump(%x: i32) -> i32 {
  %c = util.global.load @counter : i32
  %n = arith.addi %c, %x : i32
  util.global.store %n, @counter : i32
  return %n : i32
}
func.func @bumpf(%x: f32) -> f32 {
  %c = util.global.load @fsum_value : f32
  %n = arith.addf %c, %x : f32
  util.global.store %n, @fsum_value : f32
  return %n : f32
}
func.func @count() -> i32 {
  %c = util.global.load @counter : i32
  return %c : i32
}
func.func @fsum() -> f32 {
  %c = util.global.load @fsum_value : f32
  return %c : f32
}
func.func @spin(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %m = arith.muli %acc, %c1 : i32
    %s = arith.addi %m, %i : i32
    scf.yield %s : i32
  }
  return %r : i32
}
"""

# Python's repr of a non-negative float (an exponent for tiny ones), then
# the unit.
_FLOAT = r"\d+(\.\d+)?(e[-+]\d+)?"
TIME = re.compile(rf"^{_FLOAT} ms$")
PERCENT = re.compile(rf"^{_FLOAT} %$")
SUFFIXES = ("_mean", "_median", "_stddev", "_cv")
# The keys of Google Benchmark's JSON rows, as iree-benchmark-module 3.13
# writes them.
ITERATION_KEYS = {
    "name", "family_index", "per_family_instance_index", "run_name",
    "run_type", "repetitions", "repetition_index", "threads", "iterations",
    "real_time", "cpu_time", "time_unit", "items_per_second"}
AGGREGATE_KEYS = (ITERATION_KEYS - {"repetition_index"}) | {
    "aggregate_name", "aggregate_unit"}


@pytest.fixture(scope="module")
def mul_vmfb():
    return compile_mlir("bench_mul", MUL_MLIR)


@pytest.fixture(scope="module")
def two_entries_vmfb():
    return compile_mlir("bench_two_entries", TWO_ENTRIES_MLIR)


@pytest.fixture(scope="module")
def counter_vmfb():
    return compile_mlir("bench_counter", COUNTER_MLIR)


def _load(rt, path):
    return rt.VmModule.copy_buffer(rt.VmInstance(), path.read_bytes())


def _check_row(row, name, iterations, repetitions, index):
    """One BenchmarkResult: its strings, and that they are its report's
    values as iree.runtime 3.13 writes them."""
    report = row.report
    assert row.benchmark_name == name == report["name"]
    assert row.iterations == str(iterations)
    assert report["iterations"] == iterations
    assert report["run_name"] == name.split("real_time")[0] + "real_time"
    assert report["repetitions"] == repetitions
    assert report["threads"] == 1 and report["time_unit"] == "ms"
    assert report["items_per_second"] >= 0
    if index is None:
        assert report.keys() == AGGREGATE_KEYS, report
        assert report["run_type"] == "aggregate"
        assert "_" + report["aggregate_name"] == name[len(
            report["run_name"]):]
    else:
        assert report.keys() == ITERATION_KEYS, report
        assert report["run_type"] == "iteration"
        assert report["repetition_index"] == index
        assert report["real_time"] > 0
        # items_per_second is calls over the wall time.
        assert report["items_per_second"] == pytest.approx(
            1e3 / report["real_time"], rel=1e-6)
    if name.endswith("_cv"):
        assert report["aggregate_unit"] == "percentage"
        assert PERCENT.match(row.time), row
        assert PERCENT.match(row.cpu_time), row
        # A fraction in the report, a percentage in the strings.
        assert row.time == f"{report['real_time'] * 100} %"
        assert row.cpu_time == f"{report['cpu_time'] * 100} %"
    else:
        assert TIME.match(row.time), row
        assert TIME.match(row.cpu_time), row
        assert row.time == f"{report['real_time']} ms"
        assert row.cpu_time == f"{report['cpu_time']} ms"


def _check_report(results, function, repetitions, calls):
    name = f"BM_{function}/process_time/real_time"
    rows = list(results)
    for index in range(repetitions):
        _check_row(rows.pop(0), name, calls, repetitions, index)
    if repetitions > 1:
        for suffix in SUFFIXES:
            _check_row(rows.pop(0), name + suffix, repetitions, repetitions,
                       None)
    assert not rows


@pytest.mark.parametrize("which", ["ember", "iree"])
@pytest.mark.parametrize("repetitions", [1, 3])
def test_report_matches_iree_runtime(ember_rt, iree_rt, mul_vmfb, which,
                                     repetitions):
    rt = ember_rt if which == "ember" else iree_rt
    module = _load(rt, mul_vmfb)
    a = np.array([1, 2, 3, 4], np.float32)
    results = rt.benchmark.benchmark_module(
        module, inputs=[a, "4xf32=5,6,7,8"], device="local-task",
        benchmark_min_time="20x", benchmark_repetitions=repetitions)
    assert type(results[0]).__name__ == "BenchmarkResult"
    # 3.13's fields (3.11's last one was `user_counters`).
    assert results[0]._fields == ("benchmark_name", "time", "cpu_time",
                                  "iterations", "report")
    _check_report(results, "simple_mul", repetitions, 20)
    assert float(results[0].time.split(" ")[0]) >= 0
    if repetitions > 1:
        # The aggregates are Google Benchmark's, of the rows above.
        times = np.array([r.report["real_time"] for r in results[:3]])
        rates = np.array([r.report["items_per_second"] for r in results[:3]])
        mean, median, stddev, cv = (r.report for r in results[3:])
        assert mean["real_time"] == pytest.approx(times.mean())
        assert median["real_time"] == pytest.approx(np.median(times))
        assert stddev["real_time"] == pytest.approx(times.std(ddof=1))
        assert cv["real_time"] == pytest.approx(
            times.std(ddof=1) / times.mean())
        assert mean["items_per_second"] == pytest.approx(rates.mean())
        assert cv["items_per_second"] == pytest.approx(
            rates.std(ddof=1) / rates.mean())


@pytest.mark.parametrize("which", ["ember", "iree"])
def test_aggregates_only(ember_rt, iree_rt, mul_vmfb, which):
    rt = ember_rt if which == "ember" else iree_rt
    a = np.ones(4, np.float32)
    results = rt.benchmark.benchmark_module(
        _load(rt, mul_vmfb), inputs=[a, a], benchmark_min_time="5x",
        benchmark_repetitions=2, benchmark_report_aggregates_only="true")
    assert [r.benchmark_name.rsplit("real_time", 1)[1] for r in results] == \
        list(SUFFIXES)


def test_min_time_runs_long_enough(ember_rt, mul_vmfb):
    a = np.ones(4, np.float32)
    start = time.monotonic()
    (row,) = ember_rt.benchmark_module(_load(ember_rt, mul_vmfb), "simple_mul",
                                       [a, a], benchmark_min_time=0.2)
    assert time.monotonic() - start >= 0.2
    calls = int(row.iterations)
    per_call_ms = float(row.time.split()[0])
    # The reported time per call is the measured time over the calls (the
    # string keeps 3 decimals: allow for the rounding).
    assert calls > 1
    assert (per_call_ms + 0.0005) * calls >= 0.2 * 1e3


def test_public_names(ember_rt, iree_rt):
    ours, theirs = ember_rt.benchmark, iree_rt.benchmark
    for name in ("benchmark_module", "benchmark_exe", "BenchmarkResult",
                 "BenchmarkToolError", "BenchmarkTimeoutError",
                 "DTYPE_TO_ABI_TYPE"):
        assert hasattr(ours, name), name
    assert ours.__all__ == theirs.__all__
    # 3.13's table (from its dtypes module) maps the unsigned and complex
    # dtypes too; 3.11's had the signed ones, bool and floats only.
    assert ours.DTYPE_TO_ABI_TYPE == theirs.DTYPE_TO_ABI_TYPE
    assert ours.DTYPE_TO_ABI_TYPE[np.dtype(np.uint16)] == "i16"
    assert ours.BenchmarkResult._fields == theirs.BenchmarkResult._fields
    assert ember_rt.benchmark_module is ours.benchmark_module
    assert issubclass(ours.BenchmarkToolError, Exception)
    assert ours.BenchmarkToolError("x").message == "x"
    assert ours.benchmark_exe().endswith("ember-benchmark-module")


# ---- the native loop --------------------------------------------------------

def _counter_context(rt, path):
    instance = rt.VmInstance()
    module = rt.VmModule.copy_buffer(instance, path.read_bytes())
    return rt.VmContext(instance, modules=[module]), module


def _call(rt, context, module, name, *ints):
    inputs, outputs = rt.VmVariantList(len(ints)), rt.VmVariantList(1)
    for value in ints:
        inputs.push_int(value)
    context.invoke(module.lookup_function(name), inputs, outputs)
    return outputs.get_variant(0)


def test_exact_call_count_and_arguments(ember_rt, counter_vmfb):
    from ember import _ember

    context, module = _counter_context(ember_rt, counter_vmfb)
    inputs = ember_rt.VmVariantList(1)
    inputs.push_int(3)
    samples = _ember.benchmark_function(
        context, module.lookup_function("bump"), inputs, repetitions=2,
        iterations=10)
    assert [s[2] for s in samples] == [10, 10]
    assert all(wall > 0 and cpu >= 0 for wall, cpu, _ in samples)
    # One untimed first call, then 2 x 10 measured ones, each adding 3.
    assert _call(ember_rt, context, module, "count") == 3 * 21


def test_min_time_repetitions_share_the_count(ember_rt, counter_vmfb):
    from ember import _ember

    context, module = _counter_context(ember_rt, counter_vmfb)
    inputs = ember_rt.VmVariantList(1)
    inputs.push_int(1)
    samples = _ember.benchmark_function(
        context, module.lookup_function("bump"), inputs, repetitions=3,
        min_time=0.05)
    counts = [s[2] for s in samples]
    assert counts[0] == counts[1] == counts[2] > 1
    assert samples[0][0] >= 0.05
    assert _call(ember_rt, context, module, "count") == 1 + sum(counts)


def test_scalars_take_the_argument_type(ember_rt, counter_vmfb):
    from ember import _ember

    context, module = _counter_context(ember_rt, counter_vmfb)
    inputs = ember_rt.VmVariantList(1)
    inputs.push_int(2)  # an int for an f32 argument is 2.0
    _ember.benchmark_function(context, module.lookup_function("bumpf"),
                              inputs, iterations=4)
    assert _call(ember_rt, context, module, "fsum") == 10.0
    inputs = ember_rt.VmVariantList(1)
    inputs.push_float(2.0)  # a whole float for an i32 argument is 2
    _ember.benchmark_function(context, module.lookup_function("bump"),
                              inputs, iterations=4)
    assert _call(ember_rt, context, module, "count") == 10
    inputs = ember_rt.VmVariantList(1)
    inputs.push_float(2.5)
    with pytest.raises(ValueError, match="not a whole number"):
        _ember.benchmark_function(context, module.lookup_function("bump"),
                                  inputs, iterations=1)


def test_argument_count_and_kind_are_checked(ember_rt, counter_vmfb):
    from ember import _ember

    context, module = _counter_context(ember_rt, counter_vmfb)
    with pytest.raises(ValueError, match="expected 1 arguments but passed 0"):
        _ember.benchmark_function(context, module.lookup_function("bump"),
                                  ember_rt.VmVariantList(0))
    with pytest.raises(ValueError, match="repetitions"):
        _ember.benchmark_function(context, module.lookup_function("count"),
                                  ember_rt.VmVariantList(0), repetitions=0)
    with pytest.raises(TypeError):
        _ember.benchmark_function(module, module.lookup_function("count"),
                                  ember_rt.VmVariantList(0))


def _spin_count_for(rt, context, module, seconds):
    """A loop length for @spin that takes about `seconds`."""
    n = 100_000
    while True:
        start = time.monotonic()
        _call(rt, context, module, "spin", n)
        took = time.monotonic() - start
        if took > 0.02 or n >= 1 << 30:
            return min(int(n * seconds / max(took, 1e-6)), (1 << 31) - 1)
        n *= 4


def test_gil_is_released(ember_rt, counter_vmfb):
    from ember import _ember

    context, module = _counter_context(ember_rt, counter_vmfb)
    inputs = ember_rt.VmVariantList(1)
    inputs.push_int(1000)
    done = threading.Event()
    ticks = 0

    def bench():
        _ember.benchmark_function(context, module.lookup_function("spin"),
                                  inputs, min_time=0.3)
        done.set()

    thread = threading.Thread(target=bench)
    thread.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    thread.join()
    assert ticks > 50, "Python ran while the benchmark did"


def test_timeout_returns_without_waiting_for_the_call(ember_rt, counter_vmfb):
    from ember import _ember

    context, module = _counter_context(ember_rt, counter_vmfb)
    n = _spin_count_for(ember_rt, context, module, 1.0)
    inputs = ember_rt.VmVariantList(1)
    inputs.push_int(n)
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        _ember.benchmark_function(context, module.lookup_function("spin"),
                                  inputs, min_time=10, timeout=0.1)
    assert time.monotonic() - start < 0.6
    # The call in progress finishes and the next one is never made: the
    # context is free again about one call later (invoke waits for it).
    start = time.monotonic()
    assert _call(ember_rt, context, module, "count") == 0
    assert time.monotonic() - start < 5
    _ember._join_abandoned_benchmarks()


def test_benchmark_module_timeout(ember_rt, counter_vmfb):
    context, module = _counter_context(ember_rt, counter_vmfb)
    n = _spin_count_for(ember_rt, context, module, 0.5)
    start = time.monotonic()
    with pytest.raises(ember_rt.benchmark.BenchmarkTimeoutError,
                       match="timed out after 0.2 seconds"):
        ember_rt.benchmark_module(module, "spin", [str(n)], timeout=0.2)
    assert time.monotonic() - start < 0.7
    # Plenty of time: no error.
    (row,) = ember_rt.benchmark_module(module, "bump", ["1"], timeout=60,
                                       benchmark_min_time="3x")
    assert row.iterations == "3"
    from ember import _ember

    _ember._join_abandoned_benchmarks()


# ---- inputs -----------------------------------------------------------------

def _views(ember_rt, specs):
    from ember.runtime import benchmark

    device = ember_rt.get_device("local-task")
    inputs = benchmark._build_inputs(device, specs)
    out = []
    for i in range(inputs.size):
        try:
            view = inputs.get_as_object(i, ember_rt.HalBufferView)
        except Exception:
            out.append(inputs.get_variant(i))
            continue
        dtype = ember_rt.array_interop.map_element_type_to_dtype(
            view.element_type)
        out.append((ember_rt.HalElementType(view.element_type),
                    view.map().asarray(tuple(view.shape), dtype).copy()))
    return out


def test_input_strings(ember_rt, tmp_path):
    et = ember_rt.HalElementType
    npy = tmp_path / "two.npy"
    with open(npy, "wb") as f:
        np.save(f, np.arange(3, dtype=np.int16))
        np.save(f, np.full((2, 1), 0.5, np.float64))
    got = _views(ember_rt, [
        "4xf32=1,2,3,4", "2x2xi32=[1 2][3 4]", "3xf32=7", "2xui8=255 0",
        "2xi1=1,0", "i32=5", "f64=0.25", "-3", "1.5", f"@{npy}", f"+{npy}",
        np.array([[1, 2]], np.int64),
    ])
    assert got[0][0] == et.FLOAT_32
    np.testing.assert_array_equal(got[0][1], [1, 2, 3, 4])
    assert got[1][0] == et.INT_32
    np.testing.assert_array_equal(got[1][1], [[1, 2], [3, 4]])
    np.testing.assert_array_equal(got[2][1], [7, 7, 7])
    assert got[3][0] == et.UINT_8
    np.testing.assert_array_equal(got[3][1], [255, 0])
    assert got[4][0] == et.BOOL_8
    np.testing.assert_array_equal(got[4][1], [True, False])
    assert got[5:9] == [5, 0.25, -3, 1.5]
    np.testing.assert_array_equal(got[9][1], [0, 1, 2])
    np.testing.assert_array_equal(got[10][1], [[0.5], [0.5]])
    assert got[10][1].dtype == np.float64
    np.testing.assert_array_equal(got[11][1], [[1, 2]])


@pytest.mark.parametrize("spec", [
    "bogus", "4xf32=1,2", "4xq32=1", "2xi32=1,x", "@/nonexistent.npy",
])
def test_bad_input_strings_are_tool_errors(ember_rt, iree_rt, mul_vmfb, spec):
    a = np.ones(4, np.float32)
    for rt in (ember_rt, iree_rt):
        with pytest.raises(rt.benchmark.BenchmarkToolError):
            rt.benchmark.benchmark_module(_load(rt, mul_vmfb), inputs=[spec, a],
                                          benchmark_min_time="1x")


# ---- errors as iree.runtime raises them ---------------------------------------

@pytest.mark.parametrize("which", ["ember", "iree"])
def test_entry_function_errors(ember_rt, iree_rt, two_entries_vmfb, mul_vmfb,
                               which):
    rt = ember_rt if which == "ember" else iree_rt
    bench = rt.benchmark
    module = _load(rt, two_entries_vmfb)
    with pytest.raises(ValueError, match="multiple options"):
        bench.benchmark_module(module, inputs=["4xf32=1"])
    with pytest.raises(ValueError, match="unknown function nope"):
        bench.benchmark_module(module, "nope", inputs=["4xf32=1"])
    # 3.13: a module file without an entry function benchmarks every export
    # that takes no arguments (3.11 raised ValueError); simple_mul takes two.
    assert bench.benchmark_module(mul_vmfb, inputs=["4xf32=1", "4xf32=1"]) \
        == []
    with pytest.raises(ValueError, match="own JSON file"):
        bench.benchmark_module(module, "entry_2", inputs=["2xf32=1"],
                               benchmark_out="/tmp/x.json")
    with pytest.raises(bench.BenchmarkToolError):
        bench.benchmark_module(mul_vmfb, "nope", inputs=["4xf32=1"] * 2)
    with pytest.raises(bench.BenchmarkToolError):  # one input of two
        bench.benchmark_module(mul_vmfb, "simple_mul", inputs=["4xf32=1"])
    (row,) = bench.benchmark_module(module, "entry_2", inputs=["2xf32=-1,2"],
                                    benchmark_min_time="3x")
    assert row.benchmark_name == "BM_entry_2/process_time/real_time"


@pytest.mark.parametrize("which", ["ember", "iree"])
def test_module_file_without_entry_function(ember_rt, iree_rt, counter_vmfb,
                                            which):
    """3.13: every export that takes no arguments is benchmarked, in export
    order, one family each; the inputs go unused."""
    rt = ember_rt if which == "ember" else iree_rt
    results = rt.benchmark.benchmark_module(
        counter_vmfb, inputs=["1"], benchmark_min_time="3x")
    assert [r.benchmark_name for r in results] == [
        "BM_count/process_time/real_time", "BM_fsum/process_time/real_time"]
    assert [r.report["family_index"] for r in results] == [0, 1]
    for row in results:
        _check_row(row, row.benchmark_name, 3, 1, 0)


@pytest.mark.parametrize("tool", ["ember", "iree"])
@pytest.mark.parametrize("which", ["ember", "iree"])
def test_executable_runs_that_tool(ember_rt, iree_rt, mul_vmfb, which, tool):
    """`executable` runs that benchmark tool in a subprocess (the module on
    stdin): either runtime's Python with either runtime's tool gives the
    same report."""
    rt = ember_rt if which == "ember" else iree_rt
    exe = (ember_rt if tool == "ember" else iree_rt).benchmark.benchmark_exe()
    results = rt.benchmark.benchmark_module(
        _load(rt, mul_vmfb), inputs=[np.ones(4, np.float32), "4xf32=2"],
        executable=exe, benchmark_min_time="4x", benchmark_repetitions=2,
        device="local-sync")
    _check_report(results, "simple_mul", 2, 4)
    with pytest.raises(rt.benchmark.BenchmarkToolError):
        rt.benchmark.benchmark_module(_load(rt, mul_vmfb), "simple_mul",
                                      inputs=["4xf32=1"], executable=exe,
                                      benchmark_min_time="1x")


def test_unknown_flags_warn(ember_rt, mul_vmfb):
    with pytest.warns(UserWarning, match="--not_a_flag"):
        ember_rt.benchmark_module(_load(ember_rt, mul_vmfb), inputs=[
            "4xf32=1", "4xf32=2"], benchmark_min_time="1x", not_a_flag=3)
    with pytest.raises(ember_rt.benchmark.BenchmarkToolError):
        ember_rt.benchmark_module(_load(ember_rt, mul_vmfb), inputs=[
            "4xf32=1", "4xf32=2"], benchmark_min_time="soon")
