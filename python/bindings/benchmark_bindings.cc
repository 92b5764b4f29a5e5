// `_ember.benchmark_function`: times repeated calls of one exported function
// in a VmContext, in this process, with the GIL released. The Python side
// (ember.runtime.benchmark) builds the context and the arguments and turns
// the samples into iree.runtime.benchmark's results.
//
//   benchmark_function(context, function, inputs, *, repetitions=1,
//                      min_time=0.5, iterations=0, warmup_time=0.0,
//                      timeout=None) -> list[tuple[float, float, int]]
//
// The arguments are read once from `inputs` (a VmVariantList, in the
// function's calling convention, as VmContext.invoke reads them) and the
// same ones are passed to every call, as iree-benchmark-module does. One
// untimed call comes first (first-call work -- quickened code, lazily made
// state -- is not what is measured), then more untimed calls for
// `warmup_time` seconds. Each repetition is then measured:
//   - `iterations` > 0: exactly that many calls;
//   - otherwise the first repetition calls in batches that double (up to
//     1024 calls) until `min_time` seconds have passed, and the following
//     repetitions make as many calls as the first made, so every row reports
//     the same iteration count (as Google Benchmark's repetitions do).
// The clock is read between batches, not around each call. A repetition's
// sample is (wall seconds, process CPU seconds, calls); the CPU time is the
// whole process's (CLOCK_PROCESS_CPUTIME_ID), which includes the device's
// worker threads, as iree-benchmark-module's `process_time` does.
//
// Errors: a failing call raises as VmContext.invoke does (the status mapped
// by status_utils.h), after the calls made so far.
//
// Timeout. Without one, the calls run on the calling thread. With
// `timeout` (seconds), they run on a native worker thread while the caller
// waits, and if the benchmark has not finished when the time is up the
// caller raises TimeoutError at once. A call in progress cannot be
// interrupted, so the worker finishes the call it is in and stops before
// the next one; until then it keeps the context, function and arguments
// alive (the context stays locked, so another invoke on it waits), and the
// interpreter waits for it at exit (an atexit hook), never leaving a
// thread running into finalization.
//
// Threads: the context's mutex (vm_context_bindings.h) is held for the
// whole run, taken without the GIL, as invoke takes it.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "python/bindings/status_utils.h"
#include "python/bindings/vm_bindings.h"
#include "python/bindings/vm_context_bindings.h"
#include "python/bindings/vm_value_bindings.h"
#include "runtime/base/status.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/context.h"
#include "runtime/vm/list.h"
#include "runtime/vm/value.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int repetitions = 1;
  double min_time = 0.5;   // seconds per repetition, when iterations == 0
  int64_t iterations = 0;  // > 0: exactly this many calls per repetition
  double warmup_time = 0;  // seconds of untimed calls before measuring
};

struct Sample {
  double wall_seconds;
  double cpu_seconds;
  int64_t iterations;
};

double ProcessCpuSeconds() {
  timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) +
         static_cast<double>(now.tv_nsec) * 1e-9;
}

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One benchmark: what the calls need, and what they produce. Shared by the
// caller and, with a timeout, the worker thread (which may outlive the
// caller's wait).
struct Run {
  // Inputs, fixed before the calls start.
  VmContext* context = nullptr;       // kept alive by the caller's objects
  std::shared_ptr<vm::Module> owner;  // the function's module
  vm::Function function;
  std::vector<vm::Variant> arguments;
  Options options;

  // Set by the caller when it gives up waiting; read between calls.
  std::atomic<bool> stop{false};

  // Outputs, written by whoever runs the calls; `done` under `mutex`.
  Status status;
  std::vector<Sample> samples;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
};

// `count` calls, or fewer when asked to stop.
Status CallRepeatedly(Run& run, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    if (run.stop.load(std::memory_order_relaxed)) {
      return MakeStatus(StatusCode::kCancelled, "the benchmark was stopped");
    }
    Result<std::vector<vm::Variant>> called =
        run.context->context->Invoke(run.function, run.arguments);
    if (!called.ok()) return std::move(called).status();
  }
  return Status::Ok();
}

// The whole benchmark (see the top of the file). Without the GIL; takes the
// context's mutex.
Status Measure(Run& run) {
  std::lock_guard<std::mutex> lock(run.context->mutex);
  if (run.context->context->FindState(run.function.module) == nullptr) {
    std::string_view name = run.function.module->name();
    return MakeStatus(StatusCode::kNotFound,
                      "the function's module '%.*s' is not registered in this "
                      "context",
                      static_cast<int>(name.size()), name.data());
  }
  const Options& options = run.options;
  EMBER_RETURN_IF_ERROR(CallRepeatedly(run, 1), "in the first (untimed) call");
  if (options.warmup_time > 0) {
    const Clock::time_point start = Clock::now();
    while (SecondsSince(start) < options.warmup_time) {
      EMBER_RETURN_IF_ERROR(CallRepeatedly(run, 1), "warming up");
    }
  }
  int64_t fixed = options.iterations;
  for (int repetition = 0; repetition < options.repetitions; ++repetition) {
    const double cpu_start = ProcessCpuSeconds();
    const Clock::time_point start = Clock::now();
    int64_t calls = 0;
    double elapsed = 0;
    if (fixed > 0) {
      EMBER_RETURN_IF_ERROR(CallRepeatedly(run, fixed));
      calls = fixed;
      elapsed = SecondsSince(start);
    } else {
      int64_t batch = 1;
      while (true) {
        EMBER_RETURN_IF_ERROR(CallRepeatedly(run, batch));
        calls += batch;
        elapsed = SecondsSince(start);
        if (elapsed >= options.min_time) break;
        batch = std::min<int64_t>(batch * 2, 1024);
      }
      fixed = calls;  // the following repetitions make as many calls
    }
    const double cpu = ProcessCpuSeconds() - cpu_start;
    run.samples.push_back({elapsed, cpu, calls});
  }
  return Status::Ok();
}

void RunAndSignal(const std::shared_ptr<Run>& run) {
  Status status = Measure(*run);
  // Drop the argument refs here, still without the GIL.
  run->arguments.clear();
  std::lock_guard<std::mutex> lock(run->mutex);
  run->status = std::move(status);
  run->done = true;
  run->finished.notify_all();
}

// ---- runs left behind by a timeout ----------------------------------------

// A worker the caller stopped waiting for, with the Python objects that
// keep what it uses alive. Touched only with the GIL held.
struct Abandoned {
  std::thread thread;
  std::shared_ptr<Run> run;
  nb::object context;
};

// Never destroyed: its nb::objects must not be released after the
// interpreter has finalized. Emptied by JoinAbandoned at exit.
std::vector<Abandoned>& AbandonedRuns() {
  static auto* runs = new std::vector<Abandoned>();
  return *runs;
}

bool IsDone(Run& run) {
  std::lock_guard<std::mutex> lock(run.mutex);
  return run.done;
}

// Joins the abandoned workers that are done (`all`: every one, waiting for
// those still in a call). With the GIL held; waits without it.
void JoinAbandoned(bool all) {
  std::vector<Abandoned>& runs = AbandonedRuns();
  std::vector<Abandoned> finished;
  for (size_t i = 0; i < runs.size();) {
    if (all || IsDone(*runs[i].run)) {
      finished.push_back(std::move(runs[i]));
      runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  {
    nb::gil_scoped_release release;
    for (Abandoned& entry : finished) entry.thread.join();
  }
  // The Python references go here, with the GIL.
}

void RegisterExitHookOnce() {
  static bool registered = false;
  if (registered) return;
  nb::module_ atexit = nb::module_::import_("atexit");
  atexit.attr("register")(nb::cpp_function([] { JoinAbandoned(true); }));
  registered = true;
}

// ---- arguments ---------------------------------------------------------

bool IsFloat(vm::ValueType type) {
  return type == vm::ValueType::kF32 || type == vm::ValueType::kF64;
}

// Element `index` of `inputs` as a scalar of `type`. Within a family (ints,
// floats) this is the list's conversion, as in VmContext.invoke; across
// families the value is kept, as iree-benchmark-module gives a bare `5` the
// type of its argument: an int for a float argument becomes that float, a
// float for an int argument must be a whole number (INVALID_ARGUMENT
// otherwise). VmContext.invoke, following IREE, reads zero there instead.
Result<vm::Value> ReadScalar(const vm::List& inputs, size_t index,
                             vm::ValueType type) {
  EMBER_ASSIGN_OR_RETURN(vm::Value stored, inputs.GetValue(index));
  if (IsFloat(stored.type()) == IsFloat(type)) {
    return inputs.GetValueAs(index, type);
  }
  if (IsFloat(type)) {
    EMBER_ASSIGN_OR_RETURN(vm::Value wide,
                           inputs.GetValueAs(index, vm::ValueType::kI64));
    const double value = static_cast<double>(wide.i64());
    return type == vm::ValueType::kF32
               ? vm::Value::F32(static_cast<float>(value))
               : vm::Value::F64(value);
  }
  EMBER_ASSIGN_OR_RETURN(vm::Value wide,
                         inputs.GetValueAs(index, vm::ValueType::kF64));
  const double value = wide.f64();
  // Whole and within i64 (-2^63 <= value < 2^63); NaN fails both tests.
  if (!(value >= -9223372036854775808.0 && value < 9223372036854775808.0) ||
      value != std::trunc(value)) {
    return InvalidArgumentError(
        StringPrintf("%g is not a whole number", value));
  }
  const int64_t whole = static_cast<int64_t>(value);
  switch (type) {
    case vm::ValueType::kI8: return vm::Value::I8(static_cast<int8_t>(whole));
    case vm::ValueType::kI16:
      return vm::Value::I16(static_cast<int16_t>(whole));
    case vm::ValueType::kI32:
      return vm::Value::I32(static_cast<int32_t>(whole));
    default: return vm::Value::I64(whole);
  }
}

// The arguments of export `function`, read from `inputs` by its cconv as
// VmContext.invoke reads them (scalars: see ReadScalar).
Status ReadArguments(const VmFunction& function, const vm::List& inputs,
                     std::vector<vm::Variant>& arguments) {
  EMBER_ASSIGN_OR_RETURN(vm::CallingConvention cconv,
                         ExportCallingConvention(function, "benchmarked"));
  return MarshalArguments(cconv.arguments, inputs, arguments, "benchmarked",
                          &ReadScalar);
}

// ---- the binding -------------------------------------------------------

std::vector<std::tuple<double, double, int64_t>> BenchmarkFunction(
    VmContext& context, const VmFunction& function, PyVmVariantList& inputs,
    int repetitions, double min_time, int64_t iterations, double warmup_time,
    std::optional<double> timeout) {
  constexpr const char* kError = "Error benchmarking function";
  if (repetitions < 1) throw nb::value_error("repetitions must be at least 1");
  if (!(min_time >= 0)) throw nb::value_error("min_time must be >= 0");
  if (iterations < 0) throw nb::value_error("iterations must be >= 0");
  if (!(warmup_time >= 0)) throw nb::value_error("warmup_time must be >= 0");
  if (timeout && !(*timeout >= 0)) {
    throw nb::value_error("timeout must be >= 0 seconds");
  }
  JoinAbandoned(false);

  auto run = std::make_shared<Run>();
  run->context = &context;
  run->owner = function.module;
  run->function = vm::Function{function.module.get(), function.ordinal,
                               vm::FunctionLinkage::kExport};
  run->options = Options{repetitions, min_time, iterations, warmup_time};
  CheckStatus(ReadArguments(function, *inputs.list, run->arguments), kError);

  if (!timeout) {
    nb::gil_scoped_release release;
    RunAndSignal(run);
  } else {
    std::thread worker([run] { RunAndSignal(run); });
    bool done;
    {
      nb::gil_scoped_release release;
      std::unique_lock<std::mutex> lock(run->mutex);
      done =
          run->finished.wait_for(lock, std::chrono::duration<double>(*timeout),
                                 [&] { return run->done; });
    }
    if (!done) {
      run->stop.store(true);
      RegisterExitHookOnce();
      // The context's Python object owns the vm::Context the worker uses.
      AbandonedRuns().push_back(
          Abandoned{std::move(worker), run, nb::borrow(nb::find(&context))});
      PyErr_Format(PyExc_TimeoutError,
                   "the benchmark did not finish within %g seconds", *timeout);
      throw nb::python_error();
    }
    nb::gil_scoped_release release;
    worker.join();
  }
  CheckStatus(run->status, kError);
  std::vector<std::tuple<double, double, int64_t>> samples;
  for (const Sample& sample : run->samples) {
    samples.emplace_back(sample.wall_seconds, sample.cpu_seconds,
                         sample.iterations);
  }
  return samples;
}

}  // namespace

void BindBenchmark(nb::module_& m) {
  m.def("benchmark_function", &BenchmarkFunction, "context"_a, "function"_a,
        "inputs"_a, nb::kw_only(), "repetitions"_a = 1, "min_time"_a = 0.5,
        "iterations"_a = 0, "warmup_time"_a = 0.0, "timeout"_a = nb::none(),
        "Calls `function` in `context` repeatedly with the arguments in "
        "`inputs` and returns one (wall seconds, process CPU seconds, calls) "
        "sample per repetition. Runs without the GIL; with `timeout` "
        "(seconds), raises TimeoutError when the benchmark has not finished "
        "in time.");
  m.def(
      "_join_abandoned_benchmarks", [] { JoinAbandoned(true); },
      "Waits for the calls that benchmarks stopped by a timeout were still "
      "in (run at interpreter exit).");
}

}  // namespace ember::python
