// ember-run-module: loads a `.vmfb` and calls one exported function, with
// iree-run-module's flags.
//
//   ember-run-module --module=FILE --function=NAME [--device=local-task]
//                    [--input=VALUE ...] [--output=SPEC ...]
//                    [--expected_output=VALUE ...] [--repeat=N]
//                    [--print-timing]
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
// of f16/f32/f64 within --expected_f16_threshold (0.001),
// --expected_f32_threshold and --expected_f64_threshold (0.0001) under
// --equality_mode=absolute (default), relative or exact; everything else
// exactly. Mismatches print `[FAILED] result[i]: ...` and the exit status
// is 1; otherwise `[SUCCESS] all function outputs matched their expected
// values.` Unlike iree-run-module 3.11, which reports every scalar result
// as a type mismatch, equal scalars match.
//
// A module that imports `hal` gets the `hal` module over the device named by
// --device (a driver URI: local-sync, local-task, local-task?worker_count=2;
// default local-task, as iree-run-module).
//
// --repeat=N calls the function N times in the same context (results are
// printed once, from the last call); --print-timing writes per-call times
// to stderr, measured around Context::Invoke alone, in milliseconds: wall
// time (min, median, mean) and process CPU time (min, median; what
// iree-benchmark-module calls process_time). bench/run_vm_bench.py reads it.
//
// Exit status: 0 on success, 1 when loading or the call fails or a result
// differs from its expected value, 2 on bad usage.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/bytecode/module_file.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/list.h"
#include "tools/tool_support.h"

namespace {

namespace hal = ember::hal;
using ember::Ref;
using ember::Result;
using ember::Status;
using ember::tools::FlagValue;
using ember::tools::Mean;
using ember::tools::Median;
using ember::tools::Min;
using ember::tools::ProcessCpuMs;
using ember::vm::Variant;

struct Options {
  std::string module_path;
  std::string device = "local-task";
  std::string function;
  std::vector<std::string> parameters;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<std::string> expected_outputs;
  uint64_t output_max_element_count = 1024;
  ember::tools::Equality equality;
  long repeat = 1;
  bool print_timing = false;
};

void PrintUsage(FILE* stream) {
  std::fprintf(stream,
               "usage: ember-run-module --module=FILE --function=NAME "
               "[--device=URI] [--parameters=[SCOPE=]FILE ...]\n"
               "       [--input=VALUE ...] [--output=SPEC ...]\n"
               "       [--expected_output=VALUE ...] [--repeat=N] "
               "[--print-timing]\n"
               "  --device=URI        local-sync, local-task (default), "
               "local-task?worker_count=N\n"
               "  --parameters=[SCOPE=]FILE  parameters (.irpa, .gguf, "
               ".safetensors) for SCOPE\n"
               "                      (empty when not given); repeatable\n"
               "  --input=TYPE=VALUE  a scalar argument: i32=5, i64=-1, "
               "f32=0.5, f64=2.25;\n"
               "                      a bare VALUE takes its type from the "
               "function's signature;\n"
               "                      tensors: 2x2xf32=1,2,3,4 (one value "
               "fills the tensor),\n"
               "                      4xf32=@raw.bin; NumPy arrays: @a.npy "
               "(first), +a.npy (next),\n"
               "                      *a.npy (all the rest); (null)\n"
               "  --output=SPEC       per result: - (print), empty (drop), "
               "@f.npy (write),\n"
               "                      +f.npy (append); other files get raw "
               "bytes\n"
               "  --expected_output=VALUE  per result, as --input; "
               "(ignored) skips one\n"
               "  --expected_f16_threshold=X, --expected_f32_threshold=X,\n"
               "  --expected_f64_threshold=X, "
               "--equality_mode=absolute|relative|exact\n"
               "  --output_max_element_count=N  elements printed per tensor "
               "(default 1024)\n"
               "  --repeat=N          call the function N times (default 1)\n"
               "  --print-timing      per-call times on stderr\n");
}

// Runs the function; returns the exit status (1 when a result differs from
// its expected value).
Result<int> Run(const Options& options) {
  EMBER_ASSIGN_OR_RETURN(
      ember::tools::Program program,
      ember::tools::LoadProgram(options.module_path, options.device, nullptr,
                                options.parameters));
  const auto& module = program.module;

  EMBER_ASSIGN_OR_RETURN(
      ember::vm::CallingConvention cconv,
      ember::tools::FindFunction(*program.module, options.function));
  EMBER_ASSIGN_OR_RETURN(
      std::vector<Variant> arguments,
      ember::tools::ParseInputs(program, cconv, options.inputs));
  EMBER_ASSIGN_OR_RETURN(auto context, ember::vm::Context::Create(
                                           program.instance, program.modules));
  EMBER_ASSIGN_OR_RETURN(ember::vm::Function function,
                         context->LookupFunction(std::string(module->name()) +
                                                 "." + options.function));

  std::vector<double> wall_ms;
  std::vector<double> cpu_ms;
  std::vector<Variant> results;
  for (long call = 0; call < options.repeat; ++call) {
    double cpu_start = ProcessCpuMs();
    auto start = std::chrono::steady_clock::now();
    auto outcome = context->Invoke(function, arguments);
    auto stop = std::chrono::steady_clock::now();
    double cpu_stop = ProcessCpuMs();
    if (!outcome.ok()) return std::move(outcome).status();
    wall_ms.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
    cpu_ms.push_back(cpu_stop - cpu_start);
    results = std::move(*outcome);
  }

  std::printf("EXEC @%s\n", options.function.c_str());
  int exit_code = 0;
  if (!options.expected_outputs.empty()) {
    // Expected tensors live in host memory of their own, as in IREE.
    Ref<hal::Allocator> heap = hal::Allocator::CreateHeap();
    EMBER_ASSIGN_OR_RETURN(
        std::vector<Variant> expected,
        ember::tools::ParseVariants(cconv.results, options.expected_outputs,
                                    heap.get(),
                                    ember::tools::ValueList::kExpectedOutputs),
        "parsing the expected outputs");
    std::string report;
    EMBER_ASSIGN_OR_RETURN(
        bool matched, ember::tools::CompareResults(expected, results,
                                                   options.equality, &report));
    std::fwrite(report.data(), 1, report.size(), stdout);
    if (matched) {
      std::printf(
          "[SUCCESS] all function outputs matched their expected values.\n");
    } else {
      exit_code = 1;
    }
  } else if (!options.outputs.empty()) {
    EMBER_RETURN_IF_ERROR(
        ember::tools::WriteOutputs(results, options.outputs,
                                   options.output_max_element_count),
        "outputting the results");
  } else {
    for (size_t i = 0; i < results.size(); ++i) {
      EMBER_ASSIGN_OR_RETURN(std::string text,
                             ember::tools::FormatVariant(
                                 results[i], options.output_max_element_count));
      std::printf("result[%zu]: %s\n", i, text.c_str());
    }
  }
  std::fflush(stdout);
  if (options.print_timing) {
    std::fprintf(stderr,
                 "timing: calls=%zu min_ms=%.3f median_ms=%.3f mean_ms=%.3f "
                 "cpu_min_ms=%.3f cpu_median_ms=%.3f\n",
                 wall_ms.size(), Min(wall_ms), Median(wall_ms), Mean(wall_ms),
                 Min(cpu_ms), Median(cpu_ms));
  }
  return exit_code;
}

// Parses a number flag into `out`; false when the value is not one.
template <typename T>
bool ParseNumberFlag(const char* value, T* out) {
  char* end = nullptr;
  errno = 0;
  if constexpr (std::is_same_v<T, float>) {
    *out = std::strtof(value, &end);
  } else if constexpr (std::is_same_v<T, double>) {
    *out = std::strtod(value, &end);
  } else {
    if (*value == '-') return false;
    *out = std::strtoull(value, &end, 10);
  }
  return *value != '\0' && *end == '\0' && errno != ERANGE;
}

int BadFlag(const char* message) {
  std::fprintf(stderr, "ember-run-module: %s\n", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  ember::tools::ScopedEnvironmentTrace trace_from_environment;
  Options options;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char* value = nullptr;
    if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
      PrintUsage(stdout);
      return 0;
    } else if ((value = FlagValue(arg, "--module"))) {
      options.module_path = value;
    } else if ((value = FlagValue(arg, "--device"))) {
      options.device = value;
    } else if ((value = FlagValue(arg, "--function"))) {
      options.function = value;
    } else if ((value = FlagValue(arg, "--parameters"))) {
      options.parameters.emplace_back(value);
    } else if ((value = FlagValue(arg, "--input"))) {
      options.inputs.emplace_back(value);
    } else if ((value = FlagValue(arg, "--output"))) {
      options.outputs.emplace_back(value);
    } else if ((value = FlagValue(arg, "--expected_output"))) {
      options.expected_outputs.emplace_back(value);
    } else if ((value = FlagValue(arg, "--output_max_element_count"))) {
      if (!ParseNumberFlag(value, &options.output_max_element_count)) {
        return BadFlag("--output_max_element_count needs a count");
      }
    } else if ((value = FlagValue(arg, "--expected_f16_threshold"))) {
      if (!ParseNumberFlag(value, &options.equality.f16_threshold)) {
        return BadFlag("--expected_f16_threshold needs a number");
      }
    } else if ((value = FlagValue(arg, "--expected_f32_threshold"))) {
      if (!ParseNumberFlag(value, &options.equality.f32_threshold)) {
        return BadFlag("--expected_f32_threshold needs a number");
      }
    } else if ((value = FlagValue(arg, "--expected_f64_threshold"))) {
      if (!ParseNumberFlag(value, &options.equality.f64_threshold)) {
        return BadFlag("--expected_f64_threshold needs a number");
      }
    } else if ((value = FlagValue(arg, "--equality_mode"))) {
      using Mode = ember::tools::Equality::Mode;
      if (std::strcmp(value, "absolute") == 0) {
        options.equality.mode = Mode::kAbsolute;
      } else if (std::strcmp(value, "relative") == 0) {
        options.equality.mode = Mode::kRelative;
      } else if (std::strcmp(value, "exact") == 0) {
        options.equality.mode = Mode::kExact;
      } else {
        return BadFlag("--equality_mode is absolute, relative or exact");
      }
    } else if ((value = FlagValue(arg, "--repeat"))) {
      char* end = nullptr;
      options.repeat = std::strtol(value, &end, 10);
      if (*value == '\0' || *end != '\0' || options.repeat < 1) {
        std::fprintf(stderr,
                     "ember-run-module: --repeat needs a positive count\n");
        return 2;
      }
    } else if (std::strcmp(arg, "--print-timing") == 0) {
      options.print_timing = true;
    } else {
      std::fprintf(stderr, "ember-run-module: unknown argument '%s'\n", arg);
      PrintUsage(stderr);
      return 2;
    }
  }
  if (options.module_path.empty() || options.function.empty()) {
    PrintUsage(stderr);
    return 2;
  }
  Result<int> exit_code = Run(options);
  if (!exit_code.ok()) {
    std::fflush(stdout);
    std::fprintf(stderr, "ember-run-module: %s\n",
                 exit_code.status().ToString().c_str());
    return 1;
  }
  std::fflush(stdout);
  return *exit_code;
}
