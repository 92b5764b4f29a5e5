#include "tools/tool_support.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <thread>
#include <type_traits>
#include <utility>

#include "runtime/drivers/drivers.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/buffer_view_format.h"
#include "runtime/hal/cpu/local_device.h"
#include "runtime/hal/driver.h"
#include "runtime/io/file_handle.h"
#include "runtime/io/parameter_index.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/modules/io_parameters/io_parameters_module.h"
#include "runtime/modules/vmvx/vmvx_executable.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/bytecode/module_file.h"
#include "tools/numpy_io.h"

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

unsigned long long ULL(uint64_t v) {
  return static_cast<unsigned long long>(v);
}

// Parses one scalar; `signature_type` is what the function's signature says
// the slot is (kNone when unknown).
Result<Value> ParseScalar(std::string_view text, ValueType signature_type) {
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
      return UnimplementedError(
          StringPrintf("type '%.*s' is not supported (i32, i64, f32, f64)",
                       static_cast<int>(name.size()), name.data()));
    }
    number = text.substr(equals + 1);
  }
  if (type == ValueType::kNone) {
    return InvalidArgumentError(StringPrintf(
        "'%.*s' needs a type (e.g. i32=5); the signature gives none",
        static_cast<int>(text.size()), text.data()));
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
        StringPrintf("cannot parse '%s' as %s", copy.c_str(),
                     std::string(vm::ValueTypeName(type)).c_str()));
  }
  return value;
}

// The bits of the float with `exponent_bits` and `mantissa_bits` (IEEE
// layout with infinities and NaNs: f16 is 5/10, bf16 8/7) nearest to
// `value`, ties to even. As in IREE's parser, text becomes an f32 first and
// a NaN becomes the all-ones NaN of its sign.
uint16_t NarrowFloatBits(float value, int exponent_bits, int mantissa_bits) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (bits >> 31) << (exponent_bits + mantissa_bits);
  const uint32_t infinity = ((1u << exponent_bits) - 1) << mantissa_bits;
  const int f32_exponent = static_cast<int>((bits >> 23) & 0xFF);
  const uint32_t f32_mantissa = bits & 0x7FFFFF;
  if (f32_exponent == 0xFF) {
    return static_cast<uint16_t>(
        sign | infinity | (f32_mantissa ? (1u << mantissa_bits) - 1 : 0));
  }
  // value = significand * 2^(exponent - 23), exactly.
  const uint64_t significand =
      f32_exponent ? (f32_mantissa | (1u << 23)) : f32_mantissa;
  const int exponent = f32_exponent ? f32_exponent - 127 : -126;
  // The narrow type's biased exponent, at least 1: below that its
  // subnormals share exponent 1's scale without the implicit bit.
  int biased = exponent + (1 << (exponent_bits - 1)) - 1;
  int shift = 23 - mantissa_bits;
  if (biased < 1) {
    shift += 1 - biased;
    biased = 1;
  }
  // Past a 23-bit shift IREE gives zero, even for the values between half
  // the smallest f16 subnormal and that subnormal, which round up to it;
  // kept so that inputs have the oracle's bits.
  uint64_t rounded = 0;
  if (shift <= 23) {
    const uint64_t half = uint64_t{1} << (shift - 1);
    const uint64_t rest = significand & ((uint64_t{1} << shift) - 1);
    rounded = significand >> shift;
    if (rest > half || (rest == half && (rounded & 1))) ++rounded;
  }
  // `rounded` holds the implicit bit for normals, so adding it carries into
  // the exponent exactly when rounding overflows the mantissa.
  const uint64_t magnitude =
      (static_cast<uint64_t>(biased - 1) << mantissa_bits) + rounded;
  if (magnitude >= infinity) return static_cast<uint16_t>(sign | infinity);
  return static_cast<uint16_t>(sign | magnitude);
}

// Parses one tensor element of `type` into `out` (DenseByteCount(type)
// bytes).
Status ParseElement(const std::string& text, hal::ElementType type,
                    uint8_t* out) {
  auto fail = [&] {
    return InvalidArgumentError(
        StringPrintf("cannot parse '%s' as %s", text.c_str(),
                     hal::FormatElementType(type).c_str()));
  };
  if (text.empty()) return fail();
  char* end = nullptr;
  errno = 0;
  // Floats follow IREE: out-of-range values become infinities, and only an
  // underflow all the way to zero is an error.
  auto parse_float = [&](float* value) {
    *value = std::strtof(text.c_str(), &end);
    return *end == '\0' && (*value != 0 || errno != ERANGE);
  };
  switch (type) {
    case hal::ElementType::kFloat32: {
      float v;
      if (!parse_float(&v)) return fail();
      std::memcpy(out, &v, 4);
      return Status::Ok();
    }
    case hal::ElementType::kFloat64: {
      double v = std::strtod(text.c_str(), &end);
      if (*end != '\0' || (v == 0 && errno == ERANGE)) return fail();
      std::memcpy(out, &v, 8);
      return Status::Ok();
    }
    case hal::ElementType::kFloat16:
    case hal::ElementType::kBfloat16: {
      float v;
      if (!parse_float(&v)) return fail();
      const uint16_t bits = type == hal::ElementType::kFloat16
                                ? NarrowFloatBits(v, 5, 10)
                                : NarrowFloatBits(v, 8, 7);
      std::memcpy(out, &bits, 2);
      return Status::Ok();
    }
    default: break;
  }
  const uint32_t bits = hal::BitCount(type);
  if (!hal::IsInteger(type) || bits == 0 || bits > 64 || bits % 8 != 0) {
    return UnimplementedError(
        StringPrintf("parsing %s values is not supported",
                     hal::FormatElementType(type).c_str()));
  }
  const hal::NumericalType numerical = hal::NumericalTypeOf(type);
  const bool is_signed = numerical == hal::NumericalType::kIntegerSigned;
  const bool is_signless = numerical == hal::NumericalType::kInteger;
  const uint64_t unsigned_max =
      bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t signed_max = unsigned_max >> 1;
  uint64_t raw;
  if (text[0] == '-') {
    // Negative values are for signed and signless integers only.
    long long v = std::strtoll(text.c_str(), &end, 0);
    const long long minimum =
        bits == 64 ? INT64_MIN : -(static_cast<long long>(signed_max) + 1);
    if (!(is_signed || is_signless) || *end != '\0' || errno == ERANGE ||
        v < minimum) {
      return fail();
    }
    raw = static_cast<uint64_t>(v);
  } else {
    unsigned long long v = std::strtoull(text.c_str(), &end, 0);
    if (*end != '\0' || errno == ERANGE ||
        v > (is_signed ? signed_max : unsigned_max)) {
      return fail();
    }
    raw = v;
  }
  std::memcpy(out, &raw, bits / 8);  // little-endian host
  return Status::Ok();
}

// "2x3xf32" (or "f32" for rank 0).
Status ParseShapeAndType(std::string_view head, std::vector<int64_t>* shape,
                         hal::ElementType* type) {
  size_t x;
  while ((x = head.find('x')) != std::string_view::npos) {
    std::string dim(head.substr(0, x));
    char* end = nullptr;
    errno = 0;
    long long value = std::strtoll(dim.c_str(), &end, 10);
    if (dim.empty() || *end != '\0' || errno == ERANGE || value < 0 ||
        value > (1ll << 40)) {
      return InvalidArgumentError(
          StringPrintf("bad dimension '%s'", dim.c_str()));
    }
    if (shape->size() == hal::kMaxRank) {
      return OutOfRangeError(
          StringPrintf("more than %zu dimensions", hal::kMaxRank));
    }
    shape->push_back(value);
    head = head.substr(x + 1);
  }
  EMBER_ASSIGN_OR_RETURN(*type, hal::ParseElementType(head));
  return Status::Ok();
}

// Parses "2x2xf32=1,2,3,4" (or "f32=1" for a rank-0 tensor), or
// "2x2xf32=@file" / "=+file" for raw contents read from a file, into a
// buffer view allocated from `allocator`.
Result<Ref<hal::BufferView>> ParseTensor(std::string_view text,
                                         hal::Allocator& allocator,
                                         InputFiles& files) {
  size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    return InvalidArgumentError(
        "a tensor needs SHAPExTYPE=VALUES (e.g. 2x2xf32=1,2,3,4)");
  }
  std::string_view body = text.substr(equals + 1);
  std::vector<int64_t> shape;
  hal::ElementType type;
  EMBER_RETURN_IF_ERROR(
      ParseShapeAndType(text.substr(0, equals), &shape, &type));
  EMBER_ASSIGN_OR_RETURN(uint64_t byte_length,
                         hal::DenseByteLength(shape, type));
  const size_t element_size = hal::DenseByteCount(type);
  const uint64_t count = element_size ? byte_length / element_size : 0;

  const bool from_file = body.starts_with('@') || body.starts_with('+');
  std::vector<std::string> values;
  if (!from_file) {
    std::string current;
    for (char c : body) {
      if (c == ',' || c == ' ' || c == '[' || c == ']') {
        if (!current.empty()) values.push_back(std::move(current));
        current.clear();
      } else {
        current += c;
      }
    }
    if (!current.empty()) values.push_back(std::move(current));
    if (values.size() != count && values.size() != 1) {
      return InvalidArgumentError(StringPrintf("%zu values for %llu elements",
                                               values.size(), ULL(count)));
    }
  }
  InputFile* file = nullptr;
  if (from_file) {
    EMBER_ASSIGN_OR_RETURN(
        file, files.Open(std::string(body.substr(1)), body[0] == '+'));
    if (byte_length > file->remaining()) {
      return OutOfRangeError(StringPrintf(
          "'%s' has %llu bytes left at byte %llu; the tensor takes %llu",
          file->path().c_str(), ULL(file->remaining()), ULL(file->position()),
          ULL(byte_length)));
    }
  }
  EMBER_ASSIGN_OR_RETURN(Ref<hal::Buffer> buffer,
                         allocator.Allocate(hal::BufferParams{}, byte_length));
  {
    EMBER_ASSIGN_OR_RETURN(
        hal::BufferMapping mapping,
        buffer->Map(hal::MappingMode::kScoped, hal::MemoryAccess::kWrite, 0,
                    hal::kWholeBuffer));
    if (file) {
      EMBER_RETURN_IF_ERROR(file->Read(mapping.data(), byte_length));
    } else if (count > 0) {
      // One value fills the tensor: parse it once and copy it.
      EMBER_RETURN_IF_ERROR(ParseElement(values[0], type, mapping.data()));
      for (uint64_t i = 1; i < count; ++i) {
        uint8_t* at = mapping.data() + i * element_size;
        if (values.size() == 1) {
          std::memcpy(at, mapping.data(), element_size);
        } else {
          EMBER_RETURN_IF_ERROR(ParseElement(values[i], type, at));
        }
      }
    }
  }
  return hal::BufferView::Create(buffer, shape, type,
                                 hal::EncodingType::kDenseRowMajor);
}

// A slot type for errors ("an i32").
const char* SlotName(vm::CconvType type) {
  switch (type) {
    case vm::CconvType::kI32: return "an i32";
    case vm::CconvType::kI64: return "an i64";
    case vm::CconvType::kF32: return "an f32";
    case vm::CconvType::kF64: return "an f64";
    case vm::CconvType::kRef: return "a ref";
    default: return "a span";
  }
}

// The zero of a value slot's type (what "(null)" means for a scalar).
Value ZeroOf(vm::CconvType type) {
  return Value::FromBits(vm::ValueTypeOfCconv(type), 0);
}

// Reads the .npy arrays a "@file", "+file" or "*file" value names.
Status ParseNpyValues(std::string_view spec, const vm::CconvSide& slots,
                      hal::Allocator* allocator, InputFiles& files,
                      std::vector<vm::Variant>* values) {
  const bool every = spec[0] == '*';
  std::string path(spec.substr(1));
  if (!path.ends_with(".npy")) {
    return UnimplementedError(
        "only NumPy (.npy) files can be read without a SHAPExTYPE (use "
        "SHAPExTYPE=@FILE for raw bytes)");
  }
  EMBER_ASSIGN_OR_RETURN(InputFile * file, files.Open(path, spec[0] != '@'));
  do {
    // A splat over a file already read to its end yields nothing.
    if (every && file->at_end()) break;
    const size_t slot = values->size();
    if (slot >= slots.size()) {
      return InvalidArgumentError(StringPrintf(
          "the function takes only %zu values but '%s' holds more arrays",
          slots.size(), path.c_str()));
    }
    if (slots[slot].type != vm::CconvType::kRef) {
      return InvalidArgumentError(StringPrintf(
          "value %zu is %s in the signature, but a .npy array is a tensor",
          slot, SlotName(slots[slot].type)));
    }
    if (!allocator) {
      return InvalidArgumentError("a tensor needs a device");
    }
    EMBER_ASSIGN_OR_RETURN(Ref<hal::BufferView> view,
                           ReadNpyArray(*file, *allocator));
    values->emplace_back(vm::VmRef::Of(std::move(view)));
  } while (every);
  return Status::Ok();
}

// What to call a list's values in errors.
const char* ListNoun(ValueList list) {
  return list == ValueList::kInputs ? "input" : "expected output";
}

// Up to 64 characters of a flag's value, for errors.
std::string Excerpt(std::string_view text) {
  if (text.size() <= 64) return std::string(text);
  return std::string(text.substr(0, 61)) + "...";
}

}  // namespace

// One provider per scope, in the order scopes first appear; each
// `[SCOPE=]FILE` adds the file's entries to its scope's index.
Result<std::vector<Ref<modules::io_parameters::ParameterProvider>>>
LoadParameterProviders(const std::vector<std::string>& specs) {
  std::vector<std::string> scopes;
  std::vector<Ref<io::ParameterIndex>> indexes;
  for (const std::string& spec : specs) {
    const size_t equals = spec.find('=');
    std::string scope, file_path = spec;
    if (equals != std::string::npos) {
      scope = spec.substr(0, equals);
      file_path = spec.substr(equals + 1);
    }
    size_t at = 0;
    while (at < scopes.size() && scopes[at] != scope) ++at;
    if (at == scopes.size()) {
      scopes.push_back(scope);
      indexes.push_back(io::ParameterIndex::Create());
    }
    EMBER_ASSIGN_OR_RETURN(std::string format, io::FormatFromPath(file_path),
                           "parameter file '%s'", file_path.c_str());
    EMBER_ASSIGN_OR_RETURN(Ref<io::FileHandle> file,
                           io::FileHandle::Open(file_path, false),
                           "opening parameter file '%s'", file_path.c_str());
    EMBER_RETURN_IF_ERROR(io::ParseParameterFile(format, file, *indexes[at]),
                          "parsing parameter file '%s'", file_path.c_str());
  }
  std::vector<Ref<modules::io_parameters::ParameterProvider>> providers;
  for (size_t i = 0; i < scopes.size(); ++i) {
    providers.push_back(modules::io_parameters::ParameterProvider::Create(
        scopes[i], indexes[i]));
  }
  return providers;
}

namespace {

// The bytes of a module read from stdin (`--module=-`), at most 4 GiB.
Result<std::shared_ptr<const vm::bytecode::ModuleFile>> LoadModuleFromStdin() {
  constexpr size_t kMaxBytes = size_t{1} << 32;
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  size_t read;
  while ((read = std::fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
    if (bytes.size() + read > kMaxBytes) {
      return ResourceExhaustedError("the module on stdin is over 4 GiB");
    }
    bytes.insert(bytes.end(), chunk, chunk + read);
  }
  if (std::ferror(stdin)) {
    return DataLossError(
        StringPrintf("reading stdin: %s", std::strerror(errno)));
  }
  return vm::bytecode::ModuleFile::LoadCopy(bytes);
}

}  // namespace

Result<Program> LoadProgram(
    const std::vector<std::string>& paths,
    const std::vector<std::string>& device_uris,
    std::shared_ptr<modules::check::CheckFailures> check_failures,
    const std::vector<std::string>& parameters) {
  if (paths.empty()) {
    return InvalidArgumentError(
        "no module given; use --module=file.vmfb (or --module=- for stdin)");
  }
  Program program;
  program.instance = vm::Instance::Create();
  EMBER_RETURN_IF_ERROR(modules::hal::RegisterHalTypes(*program.instance));
  program.instance->Freeze();
  std::vector<std::shared_ptr<vm::bytecode::BytecodeModule>> loaded;
  bool imports_hal = false, imports_parameters = false;
  for (const std::string& path : paths) {
    std::shared_ptr<const vm::bytecode::ModuleFile> file;
    if (path == "-") {
      EMBER_ASSIGN_OR_RETURN(file, LoadModuleFromStdin(),
                             "loading the module on stdin");
    } else {
      EMBER_ASSIGN_OR_RETURN(file, vm::bytecode::ModuleFile::LoadFile(path),
                             "loading %s", path.c_str());
    }
    EMBER_ASSIGN_OR_RETURN(
        auto module,
        vm::bytecode::BytecodeModule::Create(program.instance, file),
        "loading %s", path.c_str());
    imports_hal = imports_hal || ImportsFrom(*module, "hal.");
    imports_parameters =
        imports_parameters || ImportsFrom(*module, "io_parameters.");
    loaded.push_back(std::move(module));
  }
  program.module = loaded.back();
  if (imports_hal) {
    for (const std::string& uri : device_uris) {
      EMBER_ASSIGN_OR_RETURN(Ref<hal::Device> device,
                             drivers::SharedDrivers().CreateDevice(uri),
                             "creating device '%s'", uri.c_str());
      program.devices.push_back(std::move(device));
    }
    if (program.devices.empty()) {
      return InvalidArgumentError("no device given");
    }
    program.device = program.devices.front();
    EMBER_ASSIGN_OR_RETURN(
        auto hal_module,
        modules::hal::CreateHalModule(program.devices,
                                      modules::hal::StdioDebugSink(stderr)));
    program.modules.push_back(std::move(hal_module));
  }
  if (!parameters.empty() || imports_parameters) {
    EMBER_ASSIGN_OR_RETURN(auto providers, LoadParameterProviders(parameters));
    EMBER_ASSIGN_OR_RETURN(
        auto io_parameters_module,
        modules::io_parameters::CreateIoParametersModule(std::move(providers)));
    program.modules.push_back(std::move(io_parameters_module));
  }
  if (check_failures) {
    EMBER_ASSIGN_OR_RETURN(auto check_module, modules::check::CreateCheckModule(
                                                  std::move(check_failures)));
    program.modules.push_back(std::move(check_module));
  }
  for (auto& module : loaded) program.modules.push_back(std::move(module));
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

bool UsesCoarseFences(const vm::Module& module, const std::string& name) {
  for (size_t i = 0; i < module.export_count(); ++i) {
    const vm::ExportInfo info = module.export_info(i);
    if (info.name != name) continue;
    for (const vm::ReflectionAttr& attr : info.attrs) {
      if (attr.key == "iree.abi.model") return attr.value == "coarse-fences";
    }
    return false;
  }
  return false;
}

Ref<hal::Fence> AppendCallFences(std::vector<vm::Variant>& arguments) {
  arguments.emplace_back(vm::VmRef::Of(hal::Fence::Create()));
  Ref<hal::Fence> signal = hal::Fence::CreateWithNewSemaphore();
  arguments.emplace_back(vm::VmRef::Of(signal));
  return signal;
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

Result<std::vector<vm::Variant>> ParseVariants(
    const vm::CconvSide& slots, const std::vector<std::string>& specs,
    hal::Allocator* allocator, ValueList list) {
  std::vector<vm::Variant> values;
  InputFiles files;
  for (size_t i = 0; i < specs.size(); ++i) {
    // Surrounding whitespace is not part of a value (as in IREE).
    const std::string& untrimmed = specs[i];
    const size_t first = untrimmed.find_first_not_of(" \t\n\r\f\v");
    const std::string spec =
        first == std::string::npos
            ? std::string()
            : untrimmed.substr(
                  first, untrimmed.find_last_not_of(" \t\n\r\f\v") - first + 1);
    const size_t slot = values.size();
    auto parse_one = [&]() -> Status {
      if (spec.empty()) return InvalidArgumentError("no value given");
      if (spec[0] == '@' || spec[0] == '+' || spec[0] == '*') {
        return ParseNpyValues(spec, slots, allocator, files, &values);
      }
      if (slot >= slots.size()) {
        return InvalidArgumentError(StringPrintf(
            "the function takes only %zu %ss", slots.size(), ListNoun(list)));
      }
      const vm::CconvType type = slots[slot].type;
      if (spec == "(null)" || spec == "(ignored)") {
        if (list == ValueList::kExpectedOutputs ||
            type == vm::CconvType::kRef) {
          values.emplace_back();
        } else {
          values.emplace_back(ZeroOf(type));
        }
        return Status::Ok();
      }
      if (type == vm::CconvType::kRef) {
        if (!allocator) return InvalidArgumentError("a tensor needs a device");
        EMBER_ASSIGN_OR_RETURN(auto view, ParseTensor(spec, *allocator, files));
        values.emplace_back(vm::VmRef::Of(std::move(view)));
        return Status::Ok();
      }
      EMBER_ASSIGN_OR_RETURN(Value value,
                             ParseScalar(spec, vm::ValueTypeOfCconv(type)));
      values.emplace_back(value);
      return Status::Ok();
    };
    Status status = parse_one();
    if (!status.ok()) {
      return std::move(status).Annotate(StringPrintf(
          "parsing %s %zu '%s'", ListNoun(list), slot, Excerpt(spec).c_str()));
    }
  }
  return values;
}

Result<std::vector<vm::Variant>> ParseInputs(
    const Program& program, const vm::CallingConvention& cconv,
    const std::vector<std::string>& inputs) {
  // A program that never touches the HAL may still take tensors (and pass
  // them through): as iree-run-module, their buffers then come from a plain
  // host heap.
  Ref<hal::Allocator> heap;
  hal::Allocator* allocator = nullptr;
  if (program.device) {
    allocator = &program.device->allocator();
  } else {
    heap = hal::Allocator::CreateHeap();
    allocator = heap.get();
  }
  return ParseVariants(cconv.arguments, inputs, allocator, ValueList::kInputs);
}

Result<std::string> FormatVariant(const vm::Variant& value,
                                  uint64_t max_elements) {
  if (value.is_empty()) return std::string("(null)");
  if (value.is_ref()) {
    if (auto* view =
            value.ref().As<hal::BufferView>(modules::hal::BufferViewType())) {
      EMBER_ASSIGN_OR_RETURN(std::string text,
                             hal::FormatBufferView(*view, max_elements));
      return "hal.buffer_view\n" + text;
    }
    std::string text = value.type().ToString();
    if (const auto* list = value.ref().As<vm::List>()) {
      text += StringPrintf(" size=%zu", list->size());
    }
    return text;
  }
  const Value& v = value.value();
  switch (v.type()) {
    case ValueType::kI32: return StringPrintf("i32=%" PRId32, v.i32());
    case ValueType::kI64: return StringPrintf("i64=%" PRId64, v.i64());
    // IREE prints these with its bundled printf, whose digits and NaN/inf
    // spellings are not the C library's.
    case ValueType::kF32: return "f32=" + hal::FormatFloatG(v.f32(), false);
    case ValueType::kF64: return "f64=" + hal::FormatFloatG(v.f64(), false);
    default:
      return std::string(vm::ValueTypeName(v.type())) + "=" +
             std::to_string(v.bits());
  }
}

namespace {

// A result as a tensor for writing to a file, as iree-run-module makes one:
// buffer views as they are, scalars as rank-0 tensors, HAL and VM buffers
// as int8 vectors of their bytes, null as an empty int8 vector.
Result<Ref<hal::BufferView>> OutputView(const vm::Variant& value,
                                        hal::Allocator& heap) {
  const hal::BufferParams params;
  if (value.is_ref()) {
    const vm::VmRef& ref = value.ref();
    if (auto* view = ref.As<hal::BufferView>(modules::hal::BufferViewType())) {
      return Ref<hal::BufferView>::Retain(view);
    }
    Ref<hal::Buffer> bytes;
    if (auto* buffer = ref.As<hal::Buffer>(modules::hal::BufferType())) {
      bytes = Ref<hal::Buffer>::Retain(buffer);
    } else if (auto* buffer = ref.As<vm::Buffer>()) {
      EMBER_ASSIGN_OR_RETURN(bytes, heap.AllocateCopy(params, buffer->bytes()));
    } else {
      return InvalidArgumentError(
          "unsupported output source type " + value.type().ToString() +
          "; expected: !hal.buffer, !hal.buffer_view, !vm.buffer");
    }
    const int64_t length = static_cast<int64_t>(bytes->byte_length());
    return hal::BufferView::Create(std::move(bytes), {&length, 1},
                                   hal::ElementType::kInt8,
                                   hal::EncodingType::kDenseRowMajor);
  }
  if (value.is_empty()) {
    EMBER_ASSIGN_OR_RETURN(Ref<hal::Buffer> empty, heap.Allocate(params, 0));
    const int64_t zero = 0;
    return hal::BufferView::Create(std::move(empty), {&zero, 1},
                                   hal::ElementType::kInt8,
                                   hal::EncodingType::kDenseRowMajor);
  }
  const Value& v = value.value();
  hal::ElementType type;
  switch (v.type()) {
    case ValueType::kI8: type = hal::ElementType::kInt8; break;
    case ValueType::kI16: type = hal::ElementType::kInt16; break;
    case ValueType::kI32: type = hal::ElementType::kInt32; break;
    case ValueType::kI64: type = hal::ElementType::kInt64; break;
    case ValueType::kF32: type = hal::ElementType::kFloat32; break;
    case ValueType::kF64: type = hal::ElementType::kFloat64; break;
    default: return UnimplementedError("unsupported value type");
  }
  const uint64_t bits = v.bits();
  uint8_t storage[8];
  std::memcpy(storage, &bits, sizeof(storage));  // little-endian host
  EMBER_ASSIGN_OR_RETURN(
      Ref<hal::Buffer> buffer,
      heap.AllocateCopy(params, {storage, vm::ValueTypeByteSize(v.type())}));
  return hal::BufferView::Create(std::move(buffer), {}, type,
                                 hal::EncodingType::kDenseRowMajor);
}

// Writes one result to the file `spec` names ("@path" or "+path").
Status WriteOutputFile(const vm::Variant& value, const std::string& spec,
                       hal::Allocator& heap) {
  const bool append = spec[0] == '+';
  const std::string path = spec.substr(1);
  const bool npy = path.ends_with(".npy");
  EMBER_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, OutputView(value, heap));
  // Refuse what cannot be written before the file is created or truncated.
  if (npy) {
    EMBER_RETURN_IF_ERROR(
        EncodeNpyHeader(view->element_type(), view->shape()).status());
  }
  EMBER_ASSIGN_OR_RETURN(
      uint64_t byte_length,
      hal::DenseByteLength(view->shape(), view->element_type()));
  EMBER_ASSIGN_OR_RETURN(
      hal::BufferMapping mapping,
      view->buffer()->Map(hal::MappingMode::kScoped, hal::MemoryAccess::kRead,
                          0, byte_length));
  std::FILE* file = std::fopen(path.c_str(), append ? "ab" : "wb");
  if (!file) {
    return NotFoundError(StringPrintf("cannot open '%s' for writing: %s",
                                      path.c_str(), std::strerror(errno)));
  }
  Status status;
  if (npy) {
    status = WriteNpyArray(file, path, *view);
  } else if (byte_length && std::fwrite(mapping.data(), 1, mapping.size(),
                                        file) != mapping.size()) {
    status = DataLossError(
        StringPrintf("writing '%s': %s", path.c_str(), std::strerror(errno)));
  }
  if (std::fclose(file) != 0 && status.ok()) {
    status = DataLossError(
        StringPrintf("closing '%s': %s", path.c_str(), std::strerror(errno)));
  }
  return status;
}

// The type of a variant as the comparison reports it.
std::string VariantTypeName(const vm::Variant& value) {
  if (value.is_empty()) return "empty";
  return value.type().ToString();
}

// Scalars must be equal (same type, same value; floats compare as numbers).
bool CompareValues(size_t index, const Value& expected, const Value& actual,
                   std::string* report) {
  const std::string name(vm::ValueTypeName(expected.type()));
  std::string expected_text, actual_text;
  switch (expected.type()) {
    case ValueType::kF32:
      if (expected.f32() == actual.f32()) return true;
      expected_text = hal::FormatFloatG(expected.f32());
      actual_text = hal::FormatFloatG(actual.f32());
      break;
    case ValueType::kF64:
      if (expected.f64() == actual.f64()) return true;
      expected_text = hal::FormatFloatG(expected.f64());
      actual_text = hal::FormatFloatG(actual.f64());
      break;
    default: {
      const Value wide_expected = expected.ConvertTo(ValueType::kI64);
      const Value wide_actual = actual.ConvertTo(ValueType::kI64);
      if (wide_expected.i64() == wide_actual.i64()) return true;
      expected_text = std::to_string(wide_expected.i64());
      actual_text = std::to_string(wide_actual.i64());
      break;
    }
  }
  *report += StringPrintf(
      "[FAILED] result[%zu]: %s values differ\n  expected: %s\n  actual: %s\n",
      index, name.c_str(), expected_text.c_str(), actual_text.c_str());
  return false;
}

// Whether element `i` of `expected` and `actual` (both of `type`) are equal
// under `equality`. Thresholds apply to f16, f32 and f64 only, computed in
// the element's own precision as IREE does (so a NaN matches anything
// unless the mode is exact).
bool ElementMatches(const Equality& equality, hal::ElementType type,
                    const uint8_t* expected, const uint8_t* actual) {
  const size_t size = hal::DenseByteCount(type);
  if (equality.mode == Equality::Mode::kExact) {
    return std::memcmp(expected, actual, size) == 0;
  }
  if (equality.mode == Equality::Mode::kApproximate) {
    double atol;
    switch (type) {
      case hal::ElementType::kFloat16: atol = equality.f16_threshold; break;
      case hal::ElementType::kFloat32: atol = equality.f32_threshold; break;
      case hal::ElementType::kFloat64: atol = equality.f64_threshold; break;
      case hal::ElementType::kBfloat16: atol = equality.bf16_threshold; break;
      default: return std::memcmp(expected, actual, size) == 0;
    }
    // Every one of these widens to f64 exactly.
    double e, a;
    hal::DecodeFloat(expected, type, &e);
    hal::DecodeFloat(actual, type, &a);
    if (a == e) return true;
    if (std::isnan(a) && std::isnan(e)) return true;
    if (!std::isfinite(e)) return false;
    return std::fabs(a - e) <= atol + equality.rtol * std::fabs(e);
  }
  const bool relative = equality.mode == Equality::Mode::kRelative;
  switch (type) {
    case hal::ElementType::kFloat16:
    case hal::ElementType::kFloat32: {
      float e, a;
      if (type == hal::ElementType::kFloat16) {
        double wide_e, wide_a;
        hal::DecodeFloat(expected, type, &wide_e);
        hal::DecodeFloat(actual, type, &wide_a);
        e = static_cast<float>(wide_e);  // exact: f16 fits in f32
        a = static_cast<float>(wide_a);
      } else {
        std::memcpy(&e, expected, 4);
        std::memcpy(&a, actual, 4);
      }
      const float threshold = type == hal::ElementType::kFloat16
                                  ? equality.f16_threshold
                                  : equality.f32_threshold;
      const float difference = relative ? (e - a) / e : e - a;
      return !(std::fabs(difference) > threshold);
    }
    case hal::ElementType::kFloat64: {
      double e, a;
      std::memcpy(&e, expected, 8);
      std::memcpy(&a, actual, 8);
      const double difference = relative ? (e - a) / e : e - a;
      return !(std::fabs(difference) > equality.f64_threshold);
    }
    default: return std::memcmp(expected, actual, size) == 0;
  }
}

// Compares two tensors; on a mismatch appends IREE's report of it.
Result<bool> CompareBufferViews(size_t index, hal::BufferView& expected,
                                hal::BufferView& actual,
                                const Equality& equality, std::string* report) {
  if (actual.encoding_type() != hal::EncodingType::kDenseRowMajor) {
    return UnimplementedError("non-dense encodings not supported for matching");
  }
  const bool shape_matches =
      std::ranges::equal(expected.shape(), actual.shape());
  const bool type_matches =
      expected.element_type() == hal::ElementType::kNone ||
      expected.element_type() == actual.element_type();
  const bool encoding_matches =
      expected.encoding_type() == hal::EncodingType::kOpaque ||
      expected.encoding_type() == actual.encoding_type();
  std::string why;
  if (!shape_matches || !type_matches || !encoding_matches) {
    why = "metadata is " + actual.ShapeAndTypeString() +
          "; expected that the view matches " + expected.ShapeAndTypeString();
  } else {
    const hal::ElementType type = actual.element_type();
    if (!hal::IsByteAligned(type) || hal::BitCount(type) == 0) {
      return UnimplementedError("comparing " + hal::FormatElementType(type) +
                                " tensors is not supported");
    }
    const size_t size = hal::DenseByteCount(type);
    const uint64_t count = actual.element_count();
    EMBER_ASSIGN_OR_RETURN(
        hal::BufferMapping expected_bytes,
        expected.buffer()->Map(hal::MappingMode::kScoped,
                               hal::MemoryAccess::kRead, 0, hal::kWholeBuffer));
    EMBER_ASSIGN_OR_RETURN(
        hal::BufferMapping actual_bytes,
        actual.buffer()->Map(hal::MappingMode::kScoped,
                             hal::MemoryAccess::kRead, 0, hal::kWholeBuffer));
    if (count > expected_bytes.size() / size ||
        count > actual_bytes.size() / size) {
      return InternalError("a tensor's buffer is smaller than its shape");
    }
    for (uint64_t i = 0; i < count; ++i) {
      const uint8_t* e = expected_bytes.data() + i * size;
      const uint8_t* a = actual_bytes.data() + i * size;
      if (ElementMatches(equality, type, e, a)) continue;
      why = StringPrintf("element at index %llu (", ULL(i)) +
            hal::FormatElement(a, type) + ") does not match the expected (" +
            hal::FormatElement(e, type) + ")";
      break;
    }
    if (why.empty()) return true;
  }
  EMBER_ASSIGN_OR_RETURN(std::string expected_text,
                         hal::FormatBufferView(expected, 1024));
  EMBER_ASSIGN_OR_RETURN(std::string actual_text,
                         hal::FormatBufferView(actual, 1024));
  *report += StringPrintf("[FAILED] result[%zu]: ", index) + why +
             "; expected that the view is equal to contents of a view of " +
             expected.ShapeAndTypeString() + "\n  expected:\n" + expected_text +
             "\n  actual:\n" + actual_text + "\n";
  return false;
}

}  // namespace

Status WriteOutputs(const std::vector<vm::Variant>& results,
                    const std::vector<std::string>& specs,
                    uint64_t max_elements) {
  if (specs.size() != results.size()) {
    return OutOfRangeError(StringPrintf(
        "%zu outputs specified but the function returned %zu results",
        specs.size(), results.size()));
  }
  Ref<hal::Allocator> heap = hal::Allocator::CreateHeap();
  for (size_t i = 0; i < specs.size(); ++i) {
    const std::string& spec = specs[i];
    Status status;
    if (spec.empty()) {
      continue;  // dropped
    } else if (spec == "-") {
      Result<std::string> text = FormatVariant(results[i], max_elements);
      if (text.ok()) {
        std::fwrite(text->data(), 1, text->size(), stdout);
        std::fputc('\n', stdout);
      } else {
        status = std::move(text).status();
      }
    } else if (spec[0] == '@' || spec[0] == '+') {
      status = WriteOutputFile(results[i], spec, *heap);
    } else {
      status = UnimplementedError(StringPrintf(
          "unsupported output mode specification '%s' (use '', -, @FILE or "
          "+FILE)",
          spec.c_str()));
    }
    EMBER_RETURN_IF_ERROR(std::move(status), "writing result %zu to '%s'", i,
                          spec.c_str());
  }
  return Status::Ok();
}

Result<bool> CompareResults(const std::vector<vm::Variant>& expected,
                            const std::vector<vm::Variant>& actual,
                            const Equality& equality, std::string* report) {
  if (expected.size() != actual.size()) {
    *report += StringPrintf(
        "[FAILED] expected %zu list elements but %zu "
        "provided\n",
        expected.size(), actual.size());
    return false;
  }
  bool all_match = true;
  for (size_t i = 0; i < expected.size(); ++i) {
    const vm::Variant& e = expected[i];
    const vm::Variant& a = actual[i];
    if (e.is_empty()) continue;  // (ignored)
    if (e.is_value() && a.is_value() && e.value().type() == a.value().type()) {
      if (!CompareValues(i, e.value(), a.value(), report)) all_match = false;
      continue;
    }
    if (e.is_ref() && a.is_ref()) {
      auto* expected_view =
          e.ref().As<hal::BufferView>(modules::hal::BufferViewType());
      auto* actual_view =
          a.ref().As<hal::BufferView>(modules::hal::BufferViewType());
      if (expected_view && actual_view) {
        EMBER_ASSIGN_OR_RETURN(
            bool matched,
            CompareBufferViews(i, *expected_view, *actual_view, equality,
                               report),
            "comparing result %zu", i);
        if (!matched) all_match = false;
        continue;
      }
    }
    *report += StringPrintf(
        "[FAILED] result[%zu]: variant types mismatch; expected %s but got "
        "%s\n",
        i, VariantTypeName(e).c_str(), VariantTypeName(a).c_str());
    all_match = false;
  }
  return all_match;
}

// ---------------------------------------------------------------------------
// Command lines
// ---------------------------------------------------------------------------

namespace {

std::string_view Trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\n\r\f\v");
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(" \t\n\r\f\v");
  return text.substr(first, last - first + 1);
}

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

// IREE's boolean values; Ember refuses the words IREE silently reads as
// false (`--print_statistics=yes` would turn it off there).
Result<bool> ParseIreeBool(const std::string& value) {
  if (value.empty() || value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  return InvalidArgumentError("'" + value + "' is not true or false");
}

// Google Benchmark's: empty or anything but a false word is true.
Result<bool> ParseBenchmarkBool(const std::string& value) {
  const std::string lower = Lower(value);
  if (lower.empty()) return true;
  if (lower.size() == 1) {
    const char c = lower[0];
    if (c == '0' || c == 'f' || c == 'n') return false;
    if (std::isalnum(static_cast<unsigned char>(c))) return true;
    return InvalidArgumentError("'" + value + "' is not a boolean");
  }
  if (lower == "false" || lower == "no" || lower == "off") return false;
  if (lower == "true" || lower == "yes" || lower == "on") return true;
  return InvalidArgumentError("'" + value + "' is not a boolean");
}

// A value must be one of `choices` (for ignored flags whose values IREE
// checks).
Flags::Handler OneOf(std::vector<std::string> choices) {
  return [choices = std::move(choices)](const std::string& value) -> Status {
    for (const std::string& choice : choices) {
      if (value == choice) return Status::Ok();
    }
    std::string list;
    for (const std::string& choice : choices) {
      list += (list.empty() ? "" : ", ") +
              (choice.empty() ? std::string("\"\"") : choice);
    }
    return InvalidArgumentError("'" + value + "' is not one of " + list);
  };
}

constexpr int kMaxFlagFileDepth = 8;
constexpr size_t kMaxFlagFileBytes = size_t{1} << 20;

}  // namespace

Flags::Flags(std::string tool, std::string usage)
    : tool_(std::move(tool)), usage_(std::move(usage)) {}

void Flags::Section(std::string title) {
  flags_.push_back({"", "", std::move(title), Kind::kSection, nullptr});
}

void Flags::Add(std::string name, std::string hint, std::string help,
                Handler handler) {
  flags_.push_back({std::move(name), std::move(hint), std::move(help),
                    Kind::kImplemented, std::move(handler)});
}

void Flags::String(std::string name, std::string hint, std::string help,
                   std::string* out) {
  Add(std::move(name), std::move(hint), std::move(help),
      [out](const std::string& value) {
        *out = value;
        return Status::Ok();
      });
}

void Flags::List(std::string name, std::string hint, std::string help,
                 std::vector<std::string>* out) {
  Add(std::move(name), std::move(hint), std::move(help),
      [out](const std::string& value) {
        out->push_back(value);
        return Status::Ok();
      });
}

void Flags::Bool(std::string name, std::string help, bool* out) {
  Add(std::move(name), "", std::move(help),
      [out](const std::string& value) -> Status {
        EMBER_ASSIGN_OR_RETURN(*out, ParseIreeBool(value));
        return Status::Ok();
      });
}

void Flags::BenchmarkBool(std::string name, std::string help, bool* out) {
  Add(std::move(name), "", std::move(help),
      [out](const std::string& value) -> Status {
        EMBER_ASSIGN_OR_RETURN(*out, ParseBenchmarkBool(value));
        return Status::Ok();
      });
}

void Flags::Int(std::string name, std::string hint, std::string help,
                int64_t minimum, int64_t maximum, int64_t* out) {
  Add(std::move(name), std::move(hint), std::move(help),
      [out, minimum, maximum](const std::string& value) -> Status {
        char* end = nullptr;
        errno = 0;
        const long long parsed = std::strtoll(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || errno == ERANGE ||
            parsed < minimum || parsed > maximum) {
          return InvalidArgumentError(
              StringPrintf("'%s' is not a whole number in [%lld, %lld]",
                           value.c_str(), static_cast<long long>(minimum),
                           static_cast<long long>(maximum)));
        }
        *out = parsed;
        return Status::Ok();
      });
}

void Flags::Ignored(std::string name, std::string hint, std::string why,
                    Handler check) {
  flags_.push_back({std::move(name), std::move(hint), std::move(why),
                    Kind::kIgnored, std::move(check)});
}

void Flags::DefaultOnly(std::string name, std::string hint, std::string help,
                        std::string default_value) {
  const bool boolean = default_value == "false";
  Handler handler = [name, boolean,
                     default_value](const std::string& value) -> Status {
    bool at_default;
    if (boolean) {
      EMBER_ASSIGN_OR_RETURN(bool set, ParseIreeBool(value));
      at_default = !set;
    } else {
      at_default = value == default_value;
    }
    if (at_default) return Status::Ok();
    return UnimplementedError(
        "--" + name + (boolean ? "" : "=" + value) +
        " is not implemented in Ember (only IREE's default, " +
        (default_value.empty() ? std::string("\"\"") : default_value) +
        ", is accepted)");
  };
  flags_.push_back({std::move(name), std::move(hint), std::move(help),
                    Kind::kDefaultOnly, std::move(handler)});
}

const Flags::Flag* Flags::Find(std::string_view name) const {
  for (const Flag& flag : flags_) {
    if (flag.kind != Kind::kSection && flag.name == name) return &flag;
  }
  return nullptr;
}

Status Flags::ParseOne(std::string_view text, const std::string& origin,
                       int depth) {
  const size_t equals = text.find('=');
  const std::string name(Trim(text.substr(0, equals)));
  std::string value(equals == std::string_view::npos
                        ? std::string_view()
                        : Trim(text.substr(equals + 1)));
  auto where = [&] { return origin.empty() ? std::string() : origin + ": "; };
  if (name == "help") {
    help_ = true;
    return Status::Ok();
  }
  if (name == "flagfile") {
    if (value.empty()) {
      return InvalidArgumentError(where() + "--flagfile= needs a file path");
    }
    return ParseFlagFile(value, depth + 1);
  }
  const Flag* flag = Find(name);
  if (!flag) {
    return InvalidArgumentError(where() + "flag '" + name +
                                "' not recognized (see --help)");
  }
  // As IREE: "x" loses its quotes. IREE keeps a bare `""` as two quote
  // characters (so its own --help output, read back as a flag file, turns
  // on --device_replay_output); Ember reads it as the empty string.
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  if (!flag->handler) return Status::Ok();
  Status status = flag->handler(value);
  if (status.ok()) return status;
  if (status.code() == StatusCode::kUnimplemented) {
    return Status(status.code(), where() + std::string(status.message()));
  }
  return Status(status.code(),
                where() + "--" + name + ": " + std::string(status.message()));
}

Status Flags::ParseFlagFile(const std::string& path, int depth) {
  if (depth > kMaxFlagFileDepth) {
    return InvalidArgumentError(
        StringPrintf("--flagfile=%s: flag files nest more than %d deep",
                     path.c_str(), kMaxFlagFileDepth));
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) {
    return NotFoundError(StringPrintf("--flagfile: cannot open '%s': %s",
                                      path.c_str(), std::strerror(errno)));
  }
  std::string contents;
  char chunk[4096];
  size_t read;
  while ((read = std::fread(chunk, 1, sizeof(chunk), file)) > 0) {
    if (contents.size() + read > kMaxFlagFileBytes) {
      std::fclose(file);
      return ResourceExhaustedError(
          StringPrintf("--flagfile: '%s' is over %zu bytes", path.c_str(),
                       kMaxFlagFileBytes));
    }
    contents.append(chunk, read);
  }
  std::fclose(file);
  std::string_view rest = contents;
  int line_number = 0;
  while (!rest.empty()) {
    const size_t newline = rest.find('\n');
    std::string_view line = Trim(rest.substr(0, newline));
    rest = newline == std::string_view::npos ? std::string_view()
                                             : rest.substr(newline + 1);
    ++line_number;
    if (line.empty() || line.starts_with('#') || line.starts_with("//")) {
      continue;
    }
    const std::string origin = StringPrintf("%s:%d", path.c_str(), line_number);
    if (!line.starts_with("--")) {
      return InvalidArgumentError(origin +
                                  ": positional arguments are not allowed in "
                                  "flag files");
    }
    EMBER_RETURN_IF_ERROR(ParseOne(line.substr(2), origin, depth));
  }
  return Status::Ok();
}

int Flags::Parse(int argc, char** argv, std::vector<std::string>* positional) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = Trim(argv[i]);
    if (arg == "-h") {
      help_ = true;
      continue;
    }
    if (!arg.starts_with("--")) {
      positional->emplace_back(arg);
      continue;
    }
    Status status = ParseOne(arg.substr(2), "", 0);
    if (!status.ok()) {
      Complain(status.ToString());
      return 2;
    }
  }
  if (help_) {
    PrintHelp(stdout);
    return 0;
  }
  return -1;
}

void Flags::Complain(const std::string& message) const {
  std::fprintf(stderr, "%s: %s\n", tool_.c_str(), message.c_str());
}

void Flags::PrintHelp(std::FILE* out) const {
  std::fprintf(out, "%s\n", usage_.c_str());
  std::fprintf(out,
               "\nFlags are IREE's: --name=VALUE (a boolean also as --name), "
               "--flagfile=FILE reads\none flag per line. Unknown flags are "
               "errors; [ignored] flags are accepted\nbut only tune IREE "
               "internals Ember has no counterpart of; [default only]\nflags "
               "are refused as not implemented unless at IREE's default.\n");
  auto line = [&](const Flag& flag, const char* tag) {
    std::string left = "--" + flag.name;
    if (!flag.hint.empty()) left += "=" + flag.hint;
    std::fprintf(out, "  %-40s %s%s\n", left.c_str(), tag, flag.help.c_str());
  };
  for (const Flag& flag : flags_) {
    switch (flag.kind) {
      case Kind::kSection:
        std::fprintf(out, "\n%s:\n", flag.help.c_str());
        break;
      case Kind::kImplemented: line(flag, ""); break;
      case Kind::kIgnored: line(flag, "[ignored] "); break;
      case Kind::kDefaultOnly: line(flag, "[default only] "); break;
    }
  }
  std::fprintf(out, "  %-40s %s\n  %-40s %s\n", "--flagfile=FILE",
               "reads flags from FILE, one per line", "--help", "this text");
}

// IREE 3.13's shared tooling flags (and 3.11/3.12's names), sorted:
//   implemented   --module (repeatable, `-` for stdin), --device (one),
//                 --device_allocator=caching, --parameters,
//                 --task_topology_group_count, --task_topology_max_group_count,
//                 --list_drivers, --list_devices, --dump_devices;
//   ignored       --module_mode, --parameter_mode (how files are read);
//                 --task_topology_mode/_nodes/_performance_level/
//                 _distribution/_favor (where workers run: Ember does not
//                 pin them); --task_worker_spin_us, --task_worker_stack_size;
//                 the --device_replay_file_*, --device_profiling_filter_*,
//                 _counter, _flush_interval_ms and --device_capture_file/
//                 _label flags, which act only with a refused flag below;
//                 every --cuda_*, --hip_*, --vulkan_* flag (no such device);
//   default-only  --task_topology_cpu_ids, --task_topology_snapshot,
//                 --dump_task_topologies, --task_worker_local_memory,
//                 --task_abort_on_failure, --executable_plugin,
//                 --trace_execution, --device_lead_allocator,
//                 --device_replay_output, --device_profiling_mode,
//                 --device_profiling_output (3.11: _file),
//                 --print_device_statistics, --device_capture_tool,
//                 --agents_md.
void AddCommonFlags(Flags& flags, CommonOptions* options) {
  flags.Section("Modules, devices and parameters");
  flags.List("module", "FILE",
             "a .vmfb to load (- reads stdin); repeatable, the last is the "
             "program",
             &options->modules);
  flags.List("device", "URI",
             "local-task (default), local-sync, local-task?worker_count=N, "
             "vulkan[://N|GPU-uuid]; repeatable for a program compiled for "
             "several devices (inputs are made on the first)",
             &options->devices);
  flags.List("device_allocator", "caching[:...]",
             "caching: accepted (Ember's allocator always reuses freed "
             "blocks); debug: not implemented",
             &options->allocators);
  flags.List("parameters", "[SCOPE=]FILE",
             "parameters (.irpa, .gguf, .safetensors) for SCOPE; repeatable",
             &options->parameters);
  flags.Bool("list_drivers", "lists the HAL drivers and exits",
             &options->list_drivers);
  flags.Add("list_devices", "[DRIVER]", "lists the devices and exits",
            [options](const std::string& value) {
              options->list_devices = true;
              options->list_devices_driver = value;
              return Status::Ok();
            });
  flags.Add("dump_devices", "[DRIVER]", "describes the devices and exits",
            [options](const std::string& value) {
              options->dump_devices = true;
              options->dump_devices_driver = value;
              return Status::Ok();
            });
  flags.Ignored("module_mode", "preload|mmap",
                "how the file is read; the module is the same either way",
                OneOf({"preload", "mmap"}));
  flags.Ignored("parameter_mode", "preload|file",
                "how parameter files are read; the values are the same",
                OneOf({"preload", "file"}));

  flags.Section("Task system (local-task)");
  flags.Int("task_topology_group_count", "N",
            "workers of local-task; 0 (default): see the next flag", 0, 1024,
            &options->group_count);
  flags.Int("task_topology_max_group_count", "N",
            "caps the default worker count (the host's cores; default 64)", 1,
            1024, &options->max_group_count);
  const char* placement = "which cores workers use; Ember does not pin them";
  flags.Ignored("task_topology_mode", "physical_cores", placement);
  flags.Ignored("task_topology_nodes", "current|numa|all|IDS", placement);
  flags.Ignored("task_topology_performance_level", "any|low|high", placement,
                OneOf({"any", "low", "efficiency", "high", "performance"}));
  flags.Ignored("task_topology_distribution", "compact|scatter", placement,
                OneOf({"compact", "scatter"}));
  flags.Ignored("task_topology_favor", "latency|throughput|efficiency",
                placement, OneOf({"", "latency", "throughput", "efficiency"}));
  flags.Ignored("task_worker_spin_us", "N",
                "worker spin time; timing only, never results");
  flags.Ignored("task_worker_stack_size", "BYTES",
                "worker stack size; Ember's workers size their own stacks");
  flags.DefaultOnly("task_topology_cpu_ids", "0,1,...", "pins workers to CPUs",
                    "");
  flags.DefaultOnly("task_topology_snapshot", "FILE", "a captured CPU topology",
                    "");
  flags.DefaultOnly("dump_task_topologies", "", "prints the topology", "false");
  flags.DefaultOnly("task_worker_local_memory", "BYTES",
                    "per-worker local memory", "0");
  flags.DefaultOnly("task_abort_on_failure", "", "aborts on a task failure",
                    "false");
  flags.DefaultOnly("executable_plugin", "FILE",
                    "a plugin resolving executable imports", "");

  flags.Section("IREE diagnostics Ember does not have");
  flags.DefaultOnly("trace_execution", "", "traces VM execution", "false");
  flags.DefaultOnly("device_lead_allocator", "N", "the lead device of several",
                    "0");
  flags.DefaultOnly("device_replay_output", "FILE", "HAL replay capture", "");
  flags.Ignored("device_replay_file_policy", "POLICY",
                "only used with --device_replay_output",
                OneOf({"reference", "capture-ranges", "capture-all", "fail"}));
  flags.Ignored("device_replay_file_validation", "identity|digest",
                "only used with --device_replay_output",
                OneOf({"identity", "digest"}));
  flags.DefaultOnly("device_profiling_mode", "MODES", "HAL profiling", "");
  flags.DefaultOnly("device_profiling_output", "FILE", "HAL profiling", "");
  flags.DefaultOnly("device_profiling_file", "FILE",
                    "IREE 3.11's name of --device_profiling_output", "");
  for (const char* name :
       {"device_profiling_filter_function",
        "device_profiling_filter_command_buffer",
        "device_profiling_filter_command_index",
        "device_profiling_filter_physical_device",
        "device_profiling_filter_queue", "device_profiling_counter",
        "device_profiling_flush_interval_ms"}) {
    flags.Ignored(name, "X", "only used with --device_profiling_mode");
  }
  flags.DefaultOnly("print_device_statistics", "", "HAL profiling statistics",
                    "false");
  flags.DefaultOnly("device_capture_tool", "TOOL",
                    "external capture (renderdoc, metal)", "");
  flags.Ignored("device_capture_file", "FILE",
                "only used with --device_capture_tool");
  flags.Ignored("device_capture_label", "LABEL",
                "only used with --device_capture_tool");
  flags.DefaultOnly("agents_md", "", "prints replay capture guidance", "false");

  // The flags of drivers Ember does not have: a --device naming one of
  // them fails, so they can change nothing.
  flags.Section("Flags of IREE's GPU drivers (no such device in Ember)");
  for (const char* name : {"cuda_use_streams",
                           "cuda_allow_inline_execution",
                           "cuda_async_allocations",
                           "cuda_tracing",
                           "cuda_default_index",
                           "cuda_default_index_from_mpi",
                           "hip_dylib_path",
                           "hip_use_streams",
                           "hip_allow_inline_execution",
                           "hip_async_allocations",
                           "hip_async_caching",
                           "hip_tracing",
                           "hip_default_index",
                           "vulkan_libvulkan_search_path",
                           "vulkan_validation_layers",
                           "vulkan_debug_utils",
                           "vulkan_debug_verbosity",
                           "vulkan_tracing",
                           "vulkan_robust_buffer_access",
                           "vulkan_sparse_binding",
                           "vulkan_sparse_residency",
                           "vulkan_buffer_device_addresses",
                           "vulkan_dispatch_abi",
                           "vulkan_cached_bda_replay_instances",
                           "vulkan_cached_bda_replay_publication_bytes",
                           "vulkan_retained_cached_bda_replay_instances",
                           "vulkan_dedicated_compute_queue"}) {
    flags.Ignored(name, "X", "for a device Ember cannot create");
  }
}

int FinishMain(const Flags& flags, const std::vector<std::string>& positional,
               const CommonOptions& options,
               const std::function<Result<int>()>& run) {
  for (const std::string& arg : positional) {
    flags.Complain("ignoring the positional argument '" + arg +
                   "' (flags are --name=VALUE)");
  }
  if (ListDevicesIfAsked(options)) return 0;
  Result<int> exit_code = run();
  std::fflush(stdout);
  if (!exit_code.ok()) {
    flags.Complain(exit_code.status().ToString());
    return 1;
  }
  return *exit_code;
}

bool ListDevicesIfAsked(const CommonOptions& options) {
  if (!options.list_drivers && !options.list_devices && !options.dump_devices) {
    return false;
  }
  const hal::DriverRegistry& drivers = drivers::SharedDrivers();
  const std::string rule(76, '=');
  if (options.list_drivers) {
    std::printf(
        "# %s\n# Available HAL drivers\n# %s\n# Use --list_devices={driver "
        "name} to enumerate available devices.\n\n",
        rule.c_str(), rule.c_str());
    for (const hal::DriverInfo& info : drivers.drivers()) {
      std::printf("%16s: %s\n", info.name.c_str(), info.description.c_str());
    }
  }
  auto wanted = [](const std::string& filter, const hal::DriverInfo& info) {
    return filter.empty() || filter == info.name;
  };
  // A driver that fails to enumerate lists no device (as IREE's tools).
  auto devices_of = [&](const hal::DriverInfo& info) {
    Result<std::vector<hal::DeviceInfo>> devices =
        drivers.EnumerateDevices(info.name);
    return devices.ok() ? *std::move(devices) : std::vector<hal::DeviceInfo>{};
  };
  if (options.list_devices) {
    for (const hal::DriverInfo& info : drivers.drivers()) {
      if (!wanted(options.list_devices_driver, info)) continue;
      for (const hal::DeviceInfo& device : devices_of(info)) {
        std::printf("%s://%s\n", info.name.c_str(), device.path.c_str());
      }
    }
  }
  if (options.dump_devices) {
    for (const hal::DriverInfo& info : drivers.drivers()) {
      if (!wanted(options.dump_devices_driver, info)) continue;
      std::printf("# %s\n# Enumerated devices for driver '%s'\n# %s\n\n",
                  rule.c_str(), info.name.c_str(), rule.c_str());
      for (const hal::DeviceInfo& device : devices_of(info)) {
        const std::string& name =
            device.path.empty() && device.name == "default" ? info.description
                                                            : device.name;
        std::printf("# ===%s===\n# --device=%s://%s\n#   %s\n# ===%s===\n\n",
                    std::string(70, '-').c_str(), info.name.c_str(),
                    device.path.c_str(), name.c_str(),
                    std::string(70, '-').c_str());
      }
    }
  }
  return true;
}

namespace {

// The host's physical cores, which IREE's default topology gives one worker
// each: distinct (package, core) pairs of the online CPUs in Linux's sysfs,
// or the hardware thread count where sysfs does not say.
int64_t PhysicalCoreCount() {
  const int64_t threads =
      std::max<int64_t>(1, std::thread::hardware_concurrency());
  std::vector<std::pair<long, long>> cores;
  for (int64_t cpu = 0; cpu < std::min<int64_t>(threads, 4096); ++cpu) {
    const std::string base =
        StringPrintf("/sys/devices/system/cpu/cpu%lld/topology/",
                     static_cast<long long>(cpu));
    auto read = [&](const char* name, long* value) {
      std::FILE* file = std::fopen((base + name).c_str(), "r");
      if (!file) return false;
      const bool ok = std::fscanf(file, "%ld", value) == 1;
      std::fclose(file);
      return ok;
    };
    long package = 0, core = 0;
    if (!read("physical_package_id", &package) || !read("core_id", &core)) {
      return threads;
    }
    cores.emplace_back(package, core);
  }
  std::sort(cores.begin(), cores.end());
  cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
  return cores.empty() ? threads : static_cast<int64_t>(cores.size());
}

}  // namespace

Result<std::vector<std::string>> SelectDevices(const CommonOptions& options) {
  for (const std::string& spec : options.allocators) {
    const std::string name = spec.substr(0, spec.find(':'));
    if (name == "caching") continue;
    if (name == "debug") {
      return UnimplementedError(
          "--device_allocator=debug (scribbling over new buffers) is not "
          "implemented in Ember");
    }
    return InvalidArgumentError("--device_allocator: unrecognized allocator '" +
                                name + "' (caching, debug)");
  }
  std::vector<std::string> devices = options.devices;
  if (devices.empty()) devices.push_back("local-task");
  for (std::string& device : devices) {
    // Only a bare local-task URI takes its worker count from the flags; an
    // explicit ?worker_count= wins, as the URI is the more specific.
    const bool local_task = device == "local-task" ||
                            device.starts_with("local-task:") ||
                            device.starts_with("local-task?");
    if (local_task && device.find("worker_count=") == std::string::npos) {
      int64_t workers = options.group_count;
      if (workers == 0) {
        workers = std::min(PhysicalCoreCount(), options.max_group_count);
      }
      device += (device.find('?') == std::string::npos ? "?" : "&");
      device += "worker_count=" + std::to_string(workers);
    }
  }
  return devices;
}

Result<Program> LoadProgramFromFlags(
    const CommonOptions& options,
    std::shared_ptr<modules::check::CheckFailures> check_failures) {
  EMBER_ASSIGN_OR_RETURN(std::vector<std::string> devices,
                         SelectDevices(options));
  return LoadProgram(options.modules, devices, std::move(check_failures),
                     options.parameters);
}

Result<std::string> ResolveFunction(const vm::Module& module,
                                    const std::string& function) {
  if (!function.empty()) return function;
  // IREE skips the same names: initializers and other `__` internals, and
  // `$` variants with special ABIs.
  std::vector<std::string> candidates;
  for (const std::string& name : ExportNames(module)) {
    if (name.find('$') == std::string::npos) candidates.push_back(name);
  }
  if (candidates.size() == 1) return candidates.front();
  if (candidates.empty()) {
    return InvalidArgumentError(
        "no exported functions found in module; at least one must be present");
  }
  std::string names;
  for (const std::string& name : candidates) {
    names += (names.empty() ? "" : ", ") + name;
  }
  return InvalidArgumentError(
      "more than one exported function present; --function= must be "
      "specified explicitly (the module exports: " +
      names + ")");
}

void PrintStatistics(const Program& program) {
  if (!program.device) return;
  const hal::AllocatorStatistics stats =
      program.device->allocator().statistics();
  auto i64 = [](uint64_t v) { return static_cast<long long>(v); };
  std::fprintf(stderr,
               "Device: %s\n[[ iree_hal_allocator_t memory statistics ]]\n"
               "  HOST_LOCAL: %12lldB peak / %12lldB allocated / %12lldB "
               "freed / %12lldB live\n"
               "DEVICE_LOCAL: %12lldB peak / %12lldB allocated / %12lldB "
               "freed / %12lldB live\n\n",
               std::string(program.device->id()).c_str(),
               i64(stats.host_bytes_peak), i64(stats.host_bytes_allocated),
               i64(stats.host_bytes_freed),
               i64(stats.host_bytes_allocated - stats.host_bytes_freed),
               i64(stats.device_bytes_peak), i64(stats.device_bytes_allocated),
               i64(stats.device_bytes_freed),
               i64(stats.device_bytes_allocated - stats.device_bytes_freed));
}

void AddResultFlags(Flags& flags, ResultOptions* options) {
  flags.Section("Results");
  flags.List("output", "SPEC",
             "per result: - (print), empty (drop), @f.npy / +f.npy "
             "(write / append; other files raw)",
             &options->outputs);
  flags.List("expected_output", "VALUE",
             "per result, as --input; (ignored) skips one; compares instead "
             "of printing",
             &options->expected_outputs);
  flags.Int("output_max_element_count", "N",
            "elements printed per tensor (default 1024)", 0, INT64_MAX,
            &options->output_max_element_count);
  Equality* equality = &options->equality;
  auto threshold = [&flags](const char* name, const char* help, auto* out) {
    flags.Add(name, "X", help, [out](const std::string& value) -> Status {
      char* end = nullptr;
      errno = 0;
      const double parsed = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || errno == ERANGE ||
          !std::isfinite(parsed)) {
        return InvalidArgumentError("'" + value + "' is not a number");
      }
      *out = static_cast<std::remove_reference_t<decltype(*out)>>(parsed);
      return Status::Ok();
    });
  };
  threshold("expected_f16_threshold", "f16 tolerance (default 0.001)",
            &equality->f16_threshold);
  threshold("expected_f32_threshold", "f32 tolerance (default 0.0001)",
            &equality->f32_threshold);
  threshold("expected_f64_threshold", "f64 tolerance (default 0.0001)",
            &equality->f64_threshold);
  threshold("expected_bf16_threshold",
            "bf16 tolerance, approximate mode (default 0.01)",
            &equality->bf16_threshold);
  threshold("expected_rtol",
            "relative tolerance, approximate mode (default 1e-05)",
            &equality->rtol);
  flags.Add("equality_mode", "MODE",
            "approximate (default; |a-e| <= atol + rtol*|e|), exact, or "
            "3.11's absolute, relative",
            [equality](const std::string& value) -> Status {
              using Mode = Equality::Mode;
              if (value == "approximate") {
                equality->mode = Mode::kApproximate;
              } else if (value == "exact") {
                equality->mode = Mode::kExact;
              } else if (value == "absolute") {
                equality->mode = Mode::kAbsolute;
              } else if (value == "relative") {
                equality->mode = Mode::kRelative;
              } else {
                return InvalidArgumentError(
                    "'" + value +
                    "' is not approximate, exact, absolute or relative");
              }
              return Status::Ok();
            });
}

Result<int> ProcessResults(const ResultOptions& options,
                           const vm::CallingConvention& cconv,
                           const std::vector<vm::Variant>& results) {
  const uint64_t max_elements =
      static_cast<uint64_t>(options.output_max_element_count);
  if (!options.expected_outputs.empty()) {
    // Expected tensors live in host memory of their own, as in IREE.
    Ref<hal::Allocator> heap = hal::Allocator::CreateHeap();
    EMBER_ASSIGN_OR_RETURN(
        std::vector<vm::Variant> expected,
        ParseVariants(cconv.results, options.expected_outputs, heap.get(),
                      ValueList::kExpectedOutputs),
        "parsing the expected outputs");
    std::string report;
    EMBER_ASSIGN_OR_RETURN(
        bool matched,
        CompareResults(expected, results, options.equality, &report));
    std::fwrite(report.data(), 1, report.size(), stdout);
    if (!matched) return 1;
    std::printf(
        "[SUCCESS] all function outputs matched their expected values.\n");
    return 0;
  }
  if (!options.outputs.empty()) {
    EMBER_RETURN_IF_ERROR(WriteOutputs(results, options.outputs, max_elements),
                          "outputting the results");
    return 0;
  }
  for (size_t i = 0; i < results.size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(std::string text,
                           FormatVariant(results[i], max_elements));
    std::printf("result[%zu]: %s\n", i, text.c_str());
  }
  return 0;
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
