#include "tools/tool_support.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>

#include "runtime/hal/buffer_view.h"
#include "runtime/hal/cpu/local_device.h"
#include "runtime/hal/driver.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/vm/bytecode/module_file.h"

namespace ember::tools {
namespace {

bool ImportsFrom(const vm::Module& module, std::string_view prefix) {
  for (size_t i = 0; i < module.import_count(); ++i) {
    if (module.import_info(i).full_name.starts_with(prefix)) return true;
  }
  return false;
}

namespace hal = ember::hal;
using vm::Value;
using vm::ValueType;

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
      return UnimplementedError(StringPrintf(
          "input %zu: type '%.*s' is not supported (i32, i64, f32, f64)", index,
          static_cast<int>(name.size()), name.data()));
    }
    number = text.substr(equals + 1);
  }
  if (type == ValueType::kNone) {
    return InvalidArgumentError(StringPrintf(
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
    return InvalidArgumentError(
        StringPrintf("input %zu: cannot parse '%s' as %s", index, copy.c_str(),
                     std::string(vm::ValueTypeName(type)).c_str()));
  }
  return value;
}

// Parses "2x2xf32=1,2,3,4" (or "f32=1" for a rank-0 tensor) into a buffer
// view allocated on `device`.
Result<Ref<hal::BufferView>> ParseTensor(std::string_view text, size_t index,
                                         hal::Device& device) {
  size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    return InvalidArgumentError(
        StringPrintf("input %zu: tensor '%.*s' needs SHAPExTYPE=VALUES "
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
      return InvalidArgumentError(
          StringPrintf("input %zu: bad dimension '%s'", index, dim.c_str()));
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
    return InvalidArgumentError(
        StringPrintf("input %zu: %zu values for %llu elements", index,
                     values.size(), static_cast<unsigned long long>(count)));
  }
  EMBER_ASSIGN_OR_RETURN(
      Ref<hal::Buffer> buffer,
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
      return UnimplementedError(
          StringPrintf("input %zu: parsing %s values is not supported", index,
                       hal::FormatElementType(type).c_str()));
    }
    if (*end != '\0' || errno == ERANGE) {
      return InvalidArgumentError(
          StringPrintf("input %zu: cannot parse '%s' as %s", index,
                       item.c_str(), hal::FormatElementType(type).c_str()));
    }
  }
  return hal::BufferView::Create(buffer, shape, type,
                                 hal::EncodingType::kDenseRowMajor);
}

}  // namespace

Result<Program> LoadProgram(
    const std::string& path, const std::string& device_uri,
    std::shared_ptr<modules::check::CheckFailures> check_failures) {
  Program program;
  program.instance = vm::Instance::Create();
  EMBER_RETURN_IF_ERROR(modules::hal::RegisterHalTypes(*program.instance));
  program.instance->Freeze();
  EMBER_ASSIGN_OR_RETURN(auto file, vm::bytecode::ModuleFile::LoadFile(path),
                         "loading %s", path.c_str());
  EMBER_ASSIGN_OR_RETURN(
      program.module,
      vm::bytecode::BytecodeModule::Create(program.instance, file),
      "loading %s", path.c_str());
  if (ImportsFrom(*program.module, "hal.")) {
    hal::DriverRegistry drivers;
    EMBER_RETURN_IF_ERROR(hal::cpu::RegisterLocalDrivers(drivers));
    EMBER_ASSIGN_OR_RETURN(program.device, drivers.CreateDevice(device_uri),
                           "creating device '%s'", device_uri.c_str());
    EMBER_ASSIGN_OR_RETURN(auto hal_module,
                           modules::hal::CreateHalModule({program.device}));
    program.modules.push_back(std::move(hal_module));
  }
  if (check_failures) {
    EMBER_ASSIGN_OR_RETURN(auto check_module, modules::check::CreateCheckModule(
                                                  std::move(check_failures)));
    program.modules.push_back(std::move(check_module));
  }
  program.modules.push_back(program.module);
  return program;
}

std::vector<std::string> ExportNames(const vm::Module& module) {
  std::vector<std::string> names;
  for (size_t i = 0; i < module.export_count(); ++i) {
    std::string_view name = module.export_info(i).name;
    if (!name.starts_with("__")) names.emplace_back(name);
  }
  return names;
}

Result<vm::CallingConvention> FindFunction(const vm::Module& module,
                                           const std::string& name) {
  for (size_t i = 0; i < module.export_count(); ++i) {
    vm::ExportInfo info = module.export_info(i);
    if (info.name == name) {
      return vm::ParseCallingConvention(info.calling_convention);
    }
  }
  std::string names;
  for (const std::string& exported : ExportNames(module)) {
    if (!names.empty()) names += ", ";
    names += exported;
  }
  return NotFoundError(
      StringPrintf("module '%.*s' exports no function '%s' (it exports: %s)",
                   static_cast<int>(module.name().size()), module.name().data(),
                   name.c_str(), names.c_str()));
}

Result<std::vector<vm::Variant>> ParseInputs(
    const Program& program, const vm::CallingConvention& cconv,
    const std::vector<std::string>& inputs) {
  std::vector<vm::Variant> arguments;
  const auto& slots = cconv.arguments.slots;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const bool is_ref =
        i < slots.size() && slots[i].type == vm::CconvType::kRef;
    if (is_ref) {
      if (!program.device) {
        return InvalidArgumentError(
            StringPrintf("input %zu: a ref argument needs a device", i));
      }
      EMBER_ASSIGN_OR_RETURN(auto view,
                             ParseTensor(inputs[i], i, *program.device));
      arguments.emplace_back(vm::VmRef::Of(std::move(view)));
      continue;
    }
    ValueType signature_type = i < slots.size()
                                   ? vm::ValueTypeOfCconv(slots[i].type)
                                   : ValueType::kNone;
    EMBER_ASSIGN_OR_RETURN(Value value,
                           ParseInput(inputs[i], i, signature_type));
    arguments.emplace_back(value);
  }
  return arguments;
}

// The value of `--name=VALUE` in `arg`, or nullptr when arg is another flag.
const char* FlagValue(const char* arg, const char* name) {
  size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0 || arg[length] != '=')
    return nullptr;
  return arg + length + 1;
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

}  // namespace ember::tools
