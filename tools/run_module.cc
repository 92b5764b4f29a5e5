// ember-run-module: loads a `.vmfb` and calls one exported function, with
// iree-run-module's flags.
//
//   ember-run-module --module=FILE --function=NAME [--device=local-task]
//                    [--input=VALUE ...] [--repeat=N] [--print-timing]
//
// Inputs follow iree-run-module: scalars `--input=i32=5`, `f32=1.5`, `i64=`
// and `f64=` likewise (a bare `--input=5` takes its type from the function's
// calling convention); tensors `--input=2x2xf32=1,2,3,4` (values separated by
// commas or spaces, one value fills the whole tensor) for ref arguments.
// Results print as `result[0]: i32=42`, tensors as
// `result[0]: hal.buffer_view` and `2x2xf32=1 2 3 4`.
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
// Exit status: 0 on success, 1 when loading or the call fails, 2 on bad
// usage.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/buffer_view_format.h"
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
using ember::Result;
using ember::Status;
using ember::tools::FlagValue;
using ember::tools::Mean;
using ember::tools::Median;
using ember::tools::Min;
using ember::tools::ProcessCpuMs;
using ember::vm::Value;
using ember::vm::ValueType;
using ember::vm::Variant;

struct Options {
  std::string module_path;
  std::string device = "local-task";
  std::string function;
  std::vector<std::string> inputs;
  long repeat = 1;
  bool print_timing = false;
};

void PrintUsage(FILE* stream) {
  std::fprintf(stream,
               "usage: ember-run-module --module=FILE --function=NAME "
               "[--device=URI] [--input=VALUE ...] [--repeat=N] "
               "[--print-timing]\n"
               "  --device=URI        local-sync, local-task (default), "
               "local-task?worker_count=N\n"
               "  --input=TYPE=VALUE  a scalar argument: i32=5, i64=-1, "
               "f32=0.5, f64=2.25;\n"
               "                      a bare VALUE takes its type from the "
               "function's signature;\n"
               "                      tensors: 2x2xf32=1,2,3,4 (one value "
               "fills the tensor)\n"
               "  --repeat=N          call the function N times (default 1)\n"
               "  --print-timing      per-call times on stderr\n");
}

std::string FormatResult(const Variant& result) {
  if (result.is_empty()) return "(null)";
  if (result.is_ref()) {
    std::string text = result.type().ToString();
    if (const auto* list = result.ref().As<ember::vm::List>()) {
      text += ember::StringPrintf(" size=%zu", list->size());
    }
    return text;
  }
  const Value& v = result.value();
  switch (v.type()) {
    case ValueType::kI32: return ember::StringPrintf("i32=%" PRId32, v.i32());
    case ValueType::kI64: return ember::StringPrintf("i64=%" PRId64, v.i64());
    case ValueType::kF32: return ember::StringPrintf("f32=%g", v.f32());
    case ValueType::kF64: return ember::StringPrintf("f64=%g", v.f64());
    default:
      return std::string(ember::vm::ValueTypeName(v.type())) + "=" +
             std::to_string(v.bits());
  }
}

Status Run(const Options& options) {
  EMBER_ASSIGN_OR_RETURN(
      ember::tools::Program program,
      ember::tools::LoadProgram(options.module_path, options.device));
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
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].is_ref()) {
      if (auto* view = results[i].ref().As<hal::BufferView>(
              ember::modules::hal::BufferViewType())) {
        EMBER_ASSIGN_OR_RETURN(std::string text, hal::FormatBufferView(*view));
        std::printf("result[%zu]: hal.buffer_view\n%s\n", i, text.c_str());
        continue;
      }
    }
    std::printf("result[%zu]: %s\n", i, FormatResult(results[i]).c_str());
  }
  std::fflush(stdout);
  if (options.print_timing) {
    std::fprintf(stderr,
                 "timing: calls=%zu min_ms=%.3f median_ms=%.3f mean_ms=%.3f "
                 "cpu_min_ms=%.3f cpu_median_ms=%.3f\n",
                 wall_ms.size(), Min(wall_ms), Median(wall_ms), Mean(wall_ms),
                 Min(cpu_ms), Median(cpu_ms));
  }
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
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
    } else if ((value = FlagValue(arg, "--input"))) {
      options.inputs.emplace_back(value);
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
  Status status = Run(options);
  if (!status.ok()) {
    std::fprintf(stderr, "ember-run-module: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
