#include "tools/tool_support.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>

#include "runtime/hal/buffer_view.h"
#include "runtime/hal/buffer_view_format.h"
#include "runtime/hal/cpu/local_device.h"
#include "runtime/hal/driver.h"
#include "runtime/io/file_handle.h"
#include "runtime/io/parameter_index.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/modules/io_parameters/io_parameters_module.h"
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

Result<Program> LoadProgram(
    const std::string& path, const std::string& device_uri,
    std::shared_ptr<modules::check::CheckFailures> check_failures,
    const std::vector<std::string>& parameters) {
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
    EMBER_ASSIGN_OR_RETURN(
        auto hal_module,
        modules::hal::CreateHalModule({program.device},
                                      modules::hal::StdioDebugSink(stderr)));
    program.modules.push_back(std::move(hal_module));
  }
  if (!parameters.empty() || ImportsFrom(*program.module, "io_parameters.")) {
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
