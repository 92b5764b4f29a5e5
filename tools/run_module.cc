// ember-run-module: loads a `.vmfb` and calls one exported function, with
// iree-run-module's flags (tools/tool_support.h says how they are spelled
// and which are accepted; `--help` lists them all, one line each).
//
//   ember-run-module --module=FILE [--function=NAME] [--device=local-task]
//                    [--input=VALUE ...] [--output=SPEC ...]
//                    [--expected_output=VALUE ...] [--repeat=N]
//                    [--print-timing]
//
// --function may be left out when the module exports one function (not
// counting `__` internals and `$` variants), as in iree-run-module; with
// several the error lists them.
//
// Inputs follow iree-run-module: scalars `--input=i32=5`, `f32=1.5`, `i64=`
// and `f64=` likewise (a bare `--input=5` takes its type from the function's
// calling convention); tensors `--input=2x2xf32=1,2,3,4` (values separated by
// commas, spaces or brackets; one value fills the whole tensor; any element
// type with a text form, f16 and bf16 included) or `--input=4xf32=@raw.bin`
// for ref arguments; NumPy arrays `--input=@a.npy` (the file's first array),
// `--input=+a.npy` (its next one) and `--input=*a.npy` (all the rest).
// Results print as `result[0]: i32=42`, tensors as
// `result[0]: hal.buffer_view` and `2x2xf32=1 2 3 4` (at most
// --output_max_element_count elements, 1024 by default).
//
// --output=SPEC, once per result in order, replaces the printing: `-`
// prints the result, an empty SPEC drops it, `@file.npy` writes it as a
// NumPy array to a new file and `+file.npy` appends it (other file names
// get the raw bytes).
//
// --expected_output=VALUE, once per result in order (same forms as --input,
// `(ignored)` to skip one), replaces both: each result is compared, tensors
// of f16/f32/f64/bf16 under --equality_mode=approximate (IREE 3.13's
// default: |actual - expected| <= --expected_*_threshold + --expected_rtol
// * |expected|), exact, or IREE 3.11's absolute and relative; everything
// else exactly. Mismatches print `[FAILED] result[i]: ...` and the exit
// status is 1; otherwise `[SUCCESS] all function outputs matched their
// expected values.` Unlike iree-run-module 3.11, which reports every scalar
// result as a type mismatch, equal scalars match.
//
// A module that imports `hal` gets the `hal` module over the device named by
// --device (a driver URI: local-sync, local-task, local-task?worker_count=2;
// default local-task, as iree-run-module), local-task's workers set by
// --task_topology_group_count / --task_topology_max_group_count.
// --print_statistics prints the device allocator's statistics on stderr at
// exit, as IREE does.
//
// Ember's own flags: --repeat=N calls the function N times in the same
// context (results are printed once, from the last call); --print-timing
// writes per-call times to stderr, measured around Context::Invoke alone,
// in milliseconds: wall time (min, median, mean) and process CPU time (min,
// median; what iree-benchmark-module calls process_time).
// bench/run_vm_bench.py reads it.
//
// Exit status: 0 on success, 1 when loading or the call fails or a result
// differs from its expected value, 2 on bad usage (an unknown flag, a bad
// value, or a flag Ember does not implement).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/context.h"
#include "tools/tool_support.h"

namespace {

using ember::Result;
using ember::Status;
using ember::tools::Mean;
using ember::tools::Median;
using ember::tools::Min;
using ember::tools::ProcessCpuMs;
using ember::vm::Variant;

struct Options {
  ember::tools::CommonOptions common;
  ember::tools::ResultOptions results;
  std::string function;
  std::vector<std::string> inputs;
  bool print_statistics = false;
  int64_t repeat = 1;
  bool print_timing = false;
};

constexpr char kUsage[] =
    "usage: ember-run-module --module=FILE [--function=NAME] [--device=URI]\n"
    "       [--input=VALUE ...] [--output=SPEC ...] "
    "[--expected_output=VALUE ...]\n"
    "Calls one exported function of a .vmfb and prints its results, as "
    "iree-run-module.";

void AddFlags(ember::tools::Flags& flags, Options* options) {
  flags.Section("Function");
  flags.String("function", "NAME",
               "the export to call (optional when the module has one)",
               &options->function);
  flags.List("input", "VALUE",
             "an argument: 5, i32=5, f64=0.25; 2x2xf32=1,2,3,4; "
             "4xf32=@raw.bin; @a.npy, +a.npy, *a.npy; (null) for a null ref",
             &options->inputs);
  flags.Bool("print_statistics",
             "prints the device allocator's statistics to stderr on exit",
             &options->print_statistics);
  flags.DefaultOnly("instrument_file", "FILE", "instrument data of the program",
                    "");
  ember::tools::AddResultFlags(flags, &options->results);
  ember::tools::AddCommonFlags(flags, &options->common);
  flags.Section("Ember's own");
  flags.Int("repeat", "N",
            "calls the function N times (default 1); results of the last", 1,
            INT64_MAX, &options->repeat);
  flags.Bool("print-timing", "per-call wall and CPU times on stderr",
             &options->print_timing);
}

// Runs the function; returns the exit status (1 when a result differs from
// its expected value).
Result<int> Run(const Options& options) {
  EMBER_ASSIGN_OR_RETURN(ember::tools::Program program,
                         ember::tools::LoadProgramFromFlags(options.common));
  const auto& module = program.module;
  EMBER_ASSIGN_OR_RETURN(
      std::string function_name,
      ember::tools::ResolveFunction(*module, options.function));
  EMBER_ASSIGN_OR_RETURN(ember::vm::CallingConvention cconv,
                         ember::tools::FindFunction(*module, function_name));
  EMBER_ASSIGN_OR_RETURN(
      std::vector<Variant> arguments,
      ember::tools::ParseInputs(program, cconv, options.inputs));
  EMBER_ASSIGN_OR_RETURN(auto context, ember::vm::Context::Create(
                                           program.instance, program.modules));
  EMBER_ASSIGN_OR_RETURN(ember::vm::Function function,
                         context->LookupFunction(std::string(module->name()) +
                                                 "." + function_name));

  std::vector<double> wall_ms;
  std::vector<double> cpu_ms;
  std::vector<Variant> results;
  // A coarse-fences function gets new fences for each call, and the call
  // is over when its signal fence is reached.
  const bool coarse_fences =
      ember::tools::UsesCoarseFences(*module, function_name);
  for (int64_t call = 0; call < options.repeat; ++call) {
    std::vector<Variant> fenced;
    ember::Ref<ember::hal::Fence> signal;
    if (coarse_fences) {
      fenced = arguments;
      signal = ember::tools::AppendCallFences(fenced);
    }
    double cpu_start = ProcessCpuMs();
    auto start = std::chrono::steady_clock::now();
    auto outcome = context->Invoke(function, signal ? fenced : arguments);
    if (outcome.ok() && signal) {
      Status waited = signal->Wait(ember::hal::Timeout::Infinite());
      if (!waited.ok()) return waited;
    }
    auto stop = std::chrono::steady_clock::now();
    double cpu_stop = ProcessCpuMs();
    if (!outcome.ok()) return std::move(outcome).status();
    wall_ms.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
    cpu_ms.push_back(cpu_stop - cpu_start);
    results = std::move(*outcome);
  }

  std::printf("EXEC @%s\n", function_name.c_str());
  EMBER_ASSIGN_OR_RETURN(int exit_code, ember::tools::ProcessResults(
                                            options.results, cconv, results));
  std::fflush(stdout);
  if (options.print_timing) {
    std::fprintf(stderr,
                 "timing: calls=%zu min_ms=%.3f median_ms=%.3f mean_ms=%.3f "
                 "cpu_min_ms=%.3f cpu_median_ms=%.3f\n",
                 wall_ms.size(), Min(wall_ms), Median(wall_ms), Mean(wall_ms),
                 Min(cpu_ms), Median(cpu_ms));
  }
  // As IREE, after the results are released.
  results.clear();
  arguments.clear();
  if (options.print_statistics) ember::tools::PrintStatistics(program);
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  ember::tools::ScopedEnvironmentTrace trace_from_environment;
  Options options;
  ember::tools::Flags flags("ember-run-module", kUsage);
  AddFlags(flags, &options);
  std::vector<std::string> positional;
  const int parsed = flags.Parse(argc, argv, &positional);
  if (parsed >= 0) return parsed;
  return ember::tools::FinishMain(flags, positional, options.common,
                                  [&] { return Run(options); });
}
