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

using ember::Result;
using ember::Status;
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

namespace hal = ember::hal;

// Parses "2x2xf32=1,2,3,4" (or "f32=1" for a rank-0 tensor) into a buffer
// view allocated on `device`.
Result<ember::Ref<hal::BufferView>> ParseTensor(std::string_view text,
                                                size_t index,
                                                hal::Device& device) {
  size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    return ember::InvalidArgumentError(
        ember::StringPrintf("input %zu: tensor '%.*s' needs SHAPExTYPE=VALUES "
                            "(e.g. 2x2xf32=1,2,3,4)",
                            index, static_cast<int>(text.size()), text.data()));
  }
  std::string_view head = text.substr(0, equals);
  std::string_view body = text.substr(equals + 1);
  std::vector<int64_t> shape;
  size_t x;
  while ((x = head.find('x')) != std::string_view::npos) {
    std::string dim(head.substr(0, x));
    char* end = nullptr;
    long long value = std::strtoll(dim.c_str(), &end, 10);
    if (dim.empty() || *end != '\0' || value < 0 || value > (1ll << 40)) {
      return ember::InvalidArgumentError(ember::StringPrintf(
          "input %zu: bad dimension '%s'", index, dim.c_str()));
    }
    shape.push_back(value);
    head = head.substr(x + 1);
  }
  EMBER_ASSIGN_OR_RETURN(hal::ElementType type, hal::ParseElementType(head),
                         "input %zu", index);
  EMBER_ASSIGN_OR_RETURN(uint64_t byte_length,
                         hal::DenseByteLength(shape, type), "input %zu", index);
  const size_t element_size = hal::DenseByteCount(type);
  const uint64_t count = element_size ? byte_length / element_size : 0;
  std::vector<std::string> values;
  std::string current;
  for (char c : body) {
    if (c == ',' || c == ' ') {
      if (!current.empty()) values.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) values.push_back(std::move(current));
  if (values.size() != count && values.size() != 1) {
    return ember::InvalidArgumentError(ember::StringPrintf(
        "input %zu: %zu values for %llu elements", index, values.size(),
        static_cast<unsigned long long>(count)));
  }
  EMBER_ASSIGN_OR_RETURN(
      ember::Ref<hal::Buffer> buffer,
      device.allocator().Allocate(hal::BufferParams{}, byte_length));
  EMBER_ASSIGN_OR_RETURN(
      hal::BufferMapping mapping,
      buffer->Map(hal::MappingMode::kScoped, hal::MemoryAccess::kWrite, 0,
                  hal::kWholeBuffer));
  for (uint64_t i = 0; i < count; ++i) {
    const std::string& item = values.size() == 1 ? values[0] : values[i];
    char* end = nullptr;
    uint8_t* at = mapping.data() + i * element_size;
    errno = 0;
    if (hal::IsFloat(type) && hal::BitCount(type) == 32) {
      float v = std::strtof(item.c_str(), &end);
      std::memcpy(at, &v, 4);
    } else if (hal::IsFloat(type) && hal::BitCount(type) == 64) {
      double v = std::strtod(item.c_str(), &end);
      std::memcpy(at, &v, 8);
    } else if (hal::IsInteger(type) && element_size <= 8) {
      long long v = std::strtoll(item.c_str(), &end, 0);
      std::memcpy(at, &v, element_size);
    } else {
      return ember::UnimplementedError(
          ember::StringPrintf("input %zu: parsing %s values is not supported",
                              index, hal::FormatElementType(type).c_str()));
    }
    if (*end != '\0' || errno == ERANGE) {
      return ember::InvalidArgumentError(ember::StringPrintf(
          "input %zu: cannot parse '%s' as %s", index, item.c_str(),
          hal::FormatElementType(type).c_str()));
    }
  }
  return hal::BufferView::Create(buffer, shape, type,
                                 hal::EncodingType::kDenseRowMajor);
}

Status Run(const Options& options) {
  EMBER_ASSIGN_OR_RETURN(
      ember::tools::Program program,
      ember::tools::LoadProgram(options.module_path, options.device));
  const auto& module = program.module;
  const ember::Ref<hal::Device>& device = program.device;

  // The function and its calling convention, checked before any input is
  // read (a typo in --function says so).
  std::optional<ember::vm::CallingConvention> cconv;
  for (size_t i = 0; i < module->export_count(); ++i) {
    ember::vm::ExportInfo info = module->export_info(i);
    if (info.name != options.function) continue;
    auto parsed = ember::vm::ParseCallingConvention(info.calling_convention);
    if (parsed.ok()) cconv = std::move(*parsed);
    break;
  }
  if (!cconv) {
    std::string names;
    for (const std::string& name : ember::tools::ExportNames(*module)) {
      if (!names.empty()) names += ", ";
      names += name;
    }
    return ember::NotFoundError(ember::StringPrintf(
        "module '%.*s' exports no function '%s' (it exports: %s)",
        static_cast<int>(module->name().size()), module->name().data(),
        options.function.c_str(), names.c_str()));
  }

  std::vector<Variant> arguments;
  const auto& slots = cconv->arguments.slots;
  for (size_t i = 0; i < options.inputs.size(); ++i) {
    const bool is_ref =
        i < slots.size() && slots[i].type == ember::vm::CconvType::kRef;
    if (is_ref) {
      if (!device) {
        return ember::InvalidArgumentError(
            ember::StringPrintf("input %zu: a ref argument needs a device", i));
      }
      EMBER_ASSIGN_OR_RETURN(auto view,
                             ParseTensor(options.inputs[i], i, *device));
      arguments.emplace_back(ember::vm::VmRef::Of(std::move(view)));
      continue;
    }
    ValueType signature_type = i < slots.size()
                                   ? ember::vm::ValueTypeOfCconv(slots[i].type)
                                   : ValueType::kNone;
    EMBER_ASSIGN_OR_RETURN(Value value,
                           ParseInput(options.inputs[i], i, signature_type));
    arguments.emplace_back(value);
  }

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
