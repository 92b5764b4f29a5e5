// ember-run-module: loads a VM-only `.vmfb` and calls one exported function.
//
//   ember-run-module --module=FILE --function=NAME [--input=VALUE ...]
//                    [--repeat=N] [--print-timing]
//
// Inputs follow iree-run-module: `--input=i32=5`, `--input=f32=1.5`,
// `i64=` and `f64=` likewise; a bare `--input=5` takes its type from the
// function's calling convention. Results print as `result[0]: i32=42`.
//
// Only scalar arguments are supported, and no module besides the program
// itself is linked, so a module that imports `hal` (or any other module)
// fails with UNIMPLEMENTED naming it. Compile with --compile-mode=vm.
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
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/bytecode/module_file.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/list.h"

namespace {

using ember::Result;
using ember::Status;
using ember::vm::Value;
using ember::vm::ValueType;
using ember::vm::Variant;

struct Options {
  std::string module_path;
  std::string function;
  std::vector<std::string> inputs;
  long repeat = 1;
  bool print_timing = false;
};

void PrintUsage(FILE* stream) {
  std::fprintf(stream,
               "usage: ember-run-module --module=FILE --function=NAME "
               "[--input=VALUE ...] [--repeat=N] [--print-timing]\n"
               "  --input=TYPE=VALUE  a scalar argument: i32=5, i64=-1, "
               "f32=0.5, f64=2.25;\n"
               "                      a bare VALUE takes its type from the "
               "function's signature\n"
               "  --repeat=N          call the function N times (default 1)\n"
               "  --print-timing      per-call times on stderr\n");
}

// The value of `--name=VALUE` in `arg`, or nullptr when arg is another flag.
const char* FlagValue(const char* arg, const char* name) {
  size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0 || arg[length] != '=')
    return nullptr;
  return arg + length + 1;
}

// Parses one `--input` of argument `index`; `signature_type` is what the
// function's signature says that argument is (kNone when unknown or a ref).
Result<Value> ParseInput(std::string_view text, size_t index,
                         ValueType signature_type) {
  ValueType type = signature_type;
  std::string_view number = text;
  size_t equals = text.find('=');
  if (equals != std::string_view::npos) {
    std::string_view name = text.substr(0, equals);
    if (name == "i32")
      type = ValueType::kI32;
    else if (name == "i64")
      type = ValueType::kI64;
    else if (name == "f32")
      type = ValueType::kF32;
    else if (name == "f64")
      type = ValueType::kF64;
    else {
      return ember::UnimplementedError(ember::StringPrintf(
          "input %zu: type '%.*s' is not supported (i32, i64, f32, f64)", index,
          static_cast<int>(name.size()), name.data()));
    }
    number = text.substr(equals + 1);
  }
  if (type == ValueType::kNone) {
    return ember::InvalidArgumentError(ember::StringPrintf(
        "input %zu: '%.*s' needs a type (e.g. i32=5); the signature gives none",
        index, static_cast<int>(text.size()), text.data()));
  }
  std::string copy(number);
  char* end = nullptr;
  errno = 0;
  Value value;
  switch (type) {
    case ValueType::kI32: {
      long long v = std::strtoll(copy.c_str(), &end, 0);
      if (v < INT32_MIN || v > UINT32_MAX) errno = ERANGE;
      value = Value::I32(static_cast<int32_t>(v));
      break;
    }
    case ValueType::kI64:
      value = Value::I64(std::strtoll(copy.c_str(), &end, 0));
      break;
    case ValueType::kF32:
      value = Value::F32(std::strtof(copy.c_str(), &end));
      break;
    default: value = Value::F64(std::strtod(copy.c_str(), &end)); break;
  }
  if (copy.empty() || *end != '\0' || errno == ERANGE) {
    return ember::InvalidArgumentError(ember::StringPrintf(
        "input %zu: cannot parse '%s' as %s", index, copy.c_str(),
        std::string(ember::vm::ValueTypeName(type)).c_str()));
  }
  return value;
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

// CPU time of the process, as iree-benchmark-module's process_time reports.
double ProcessCpuMs() {
  timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 +
         static_cast<double>(now.tv_nsec) / 1e6;
}
double Min(std::vector<double> v) {
  return *std::min_element(v.begin(), v.end());
}
double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double t : v) sum += t;
  return sum / static_cast<double>(v.size());
}
double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// This tool links the program alone: a module that needs another (`hal`
// above all) cannot run. Judged on the file, before its type table is
// resolved, since that is where the first `!hal.*` type would fail.
Status RequireVmOnly(const ember::vm::bytecode::ModuleFile& file) {
  auto unavailable = [&](std::string_view needed, std::string_view what) {
    return ember::UnimplementedError(ember::StringPrintf(
        "module '%.*s' %.*s module '%.*s', which ember-run-module does not "
        "provide: it runs VM-only modules (iree-compile --compile-mode=vm)",
        static_cast<int>(file.name().size()), file.name().data(),
        static_cast<int>(what.size()), what.data(),
        static_cast<int>(needed.size()), needed.data()));
  };
  for (const auto& dependency : file.def().dependencies) {
    if (dependency.flags & ember::vm::bytecode::kLinkRequired) {
      return unavailable(dependency.name, "needs");
    }
  }
  for (const auto& import : file.def().imported_functions) {
    if (import.flags & ember::vm::bytecode::kLinkRequired) {
      std::string_view module_name =
          import.full_name.substr(0, import.full_name.find('.'));
      return unavailable(
          module_name, "imports '" + std::string(import.full_name) + "' from");
    }
  }
  return Status::Ok();
}

Status Run(const Options& options) {
  auto instance = ember::vm::Instance::Create();
  instance->Freeze();
  EMBER_ASSIGN_OR_RETURN(
      auto file, ember::vm::bytecode::ModuleFile::LoadFile(options.module_path),
      "loading %s", options.module_path.c_str());
  EMBER_RETURN_IF_ERROR(RequireVmOnly(*file));
  EMBER_ASSIGN_OR_RETURN(
      auto module, ember::vm::bytecode::BytecodeModule::Create(instance, file),
      "loading %s", options.module_path.c_str());

  // The argument types of the export, for bare inputs.
  std::vector<ValueType> argument_types;
  for (size_t i = 0; i < module->export_count(); ++i) {
    ember::vm::ExportInfo info = module->export_info(i);
    if (info.name != options.function) continue;
    argument_types.clear();
    auto cconv = ember::vm::ParseCallingConvention(info.calling_convention);
    if (!cconv.ok()) continue;
    for (const ember::vm::CconvSlot& slot : cconv->arguments.slots) {
      argument_types.push_back(ember::vm::ValueTypeOfCconv(slot.type));
    }
  }

  std::vector<Variant> arguments;
  for (size_t i = 0; i < options.inputs.size(); ++i) {
    ValueType signature_type =
        i < argument_types.size() ? argument_types[i] : ValueType::kNone;
    EMBER_ASSIGN_OR_RETURN(Value value,
                           ParseInput(options.inputs[i], i, signature_type));
    arguments.emplace_back(value);
  }

  std::shared_ptr<ember::vm::Module> as_module = module;
  EMBER_ASSIGN_OR_RETURN(auto context,
                         ember::vm::Context::Create(instance, {&as_module, 1}));
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
