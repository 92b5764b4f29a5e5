// The bytecode interpreter: one dispatch loop over the opcode table.
//
// Each step decodes one instruction with the bounds-checked decoder, checks
// its register operands against the frame (see CheckRegisters), then
// dispatches on (opcode set, opcode) in one switch whose case labels come
// from the opcode table's enums. Every check marked VERIFIER guards against
// a malformed module only; once the load-time verifier exists it will have
// proved them and they can move out of the loop.
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/vm/buffer.h"
#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/opcode_table.h"
#include "runtime/vm/bytecode_module_state.h"
#include "runtime/vm/list.h"

namespace ember::vm::bytecode_internal {
namespace {

using bytecode::BranchCase;
using bytecode::DecodedField;
using bytecode::DecodedInstruction;
using bytecode::FieldEncoding;
using bytecode::kImportOrdinalBit;
using bytecode::kIntOrdinalMask;
using bytecode::kRefMoveBit;
using bytecode::kRefOrdinalMask;
using bytecode::kRefRegisterBit;
using bytecode::OpcodeSet;
using bytecode::RegisterList;
using bytecode::RemapList;

using FunctionInfo = BytecodeModule::FunctionInfo;

struct Frame {
  uint32_t function = 0;
  const FunctionInfo* info = nullptr;
  // The pc of the instruction being executed (of the pending call, while a
  // callee runs); stack traces read it.
  uint32_t pc = 0;
  // One slack slot past the count, so that a 64-bit access at the last
  // ordinal stays inside the array (the verifier rejects such code).
  std::vector<uint32_t> i32;
  std::vector<VmRef> refs;
  // Set while this frame calls an internal function: where the callee's
  // results go and where execution continues afterwards.
  RegisterList return_registers;
  uint32_t return_pc = 0;
};

constexpr uint16_t Key(OpcodeSet set, uint8_t opcode) {
  return static_cast<uint16_t>((static_cast<unsigned>(set) << 8) | opcode);
}

bool IsWideChar(char c) { return c == 'I' || c == 'F'; }

const char* TypeCharName(char c) {
  switch (c) {
    case 'i': return "i32";
    case 'I': return "i64";
    case 'f': return "f32";
    case 'F': return "f64";
    case 'r': return "ref";
  }
  return "?";
}

ValueType ValueTypeOfChar(char c) {
  switch (c) {
    case 'i': return ValueType::kI32;
    case 'I': return ValueType::kI64;
    case 'f': return ValueType::kF32;
    case 'F': return ValueType::kF64;
  }
  return ValueType::kNone;
}

class Interpreter {
 public:
  Interpreter(Context& context, const BytecodeModule& module,
              BytecodeModuleState& state)
      : context_(context), module_(module), state_(state) {}

  ~Interpreter() {
    while (depth_ > 0) PopFrame();
  }

  Status Run(uint32_t ordinal, std::span<const Variant> arguments,
             std::span<Variant> results) {
    results_ = results;
    Status status = Enter(ordinal, arguments);
    if (status.ok()) status = Loop();
    if (!status.ok()) {
      for (size_t i = depth_; i-- > 0;) {
        const Frame& frame = *frames_[i];
        std::string location =
            module_.file().SourceLocation(frame.function, frame.pc);
        std::string note = "in " + module_.QualifiedFunctionName(frame.function);
        if (!location.empty()) note += " at " + location;
        note += " (pc " + std::to_string(frame.pc) + ")";
        status.Annotate(std::move(note));
      }
    }
    while (depth_ > 0) PopFrame();
    return status;
  }

 private:
  // ---- frames ------------------------------------------------------------
  Result<Frame*> PushFrame(uint32_t ordinal) {
    if (ordinal >= module_.function_count()) {  // VERIFIER
      return OutOfRangeError(StringPrintf("function ordinal %u out of range",
                                          ordinal));
    }
    EMBER_RETURN_IF_ERROR(context_.EnterFrame());
    if (depth_ == frames_.size()) frames_.push_back(std::make_unique<Frame>());
    Frame* frame = frames_[depth_++].get();
    frame->function = ordinal;
    frame->info = &module_.function_info(ordinal);
    frame->pc = 0;
    frame->i32.assign(frame->info->i32_register_count + 1u, 0);
    frame->refs.clear();
    frame->refs.resize(frame->info->ref_register_count);
    frame->return_registers = RegisterList();
    frame->return_pc = 0;
    return frame;
  }

  void PopFrame() {
    Frame* frame = frames_[--depth_].get();
    frame->refs.clear();  // releases every ref the frame still holds
    context_.LeaveFrame();
  }

  Status Enter(uint32_t ordinal, std::span<const Variant> arguments) {
    EMBER_ASSIGN_OR_RETURN(Frame * frame, PushFrame(ordinal));
    const FunctionInfo& info = *frame->info;
    if (!info.has_signature) {
      return FailedPreconditionError(
          "function " + module_.QualifiedFunctionName(ordinal) +
          " has no calling convention and cannot be called from outside");
    }
    std::string_view types = info.argument_types;
    if (arguments.size() != types.size()) {
      return InvalidArgumentError(StringPrintf(
          "%s expects %zu arguments (cconv '%.*s'), got %zu",
          module_.QualifiedFunctionName(ordinal).c_str(), types.size(),
          static_cast<int>(info.calling_convention.size()),
          info.calling_convention.data(), arguments.size()));
    }
    uint32_t i32_slot = 0;
    uint32_t ref_slot = 0;
    for (size_t i = 0; i < types.size(); ++i) {
      char c = types[i];
      const Variant& argument = arguments[i];
      if (c == 'r') {
        if (argument.is_value()) {
          return InvalidArgumentError(StringPrintf(
              "argument %zu: expected a ref, got %s", i,
              std::string(ValueTypeName(argument.value().type())).c_str()));
        }
        if (ref_slot >= info.ref_register_count) {  // VERIFIER
          return InvalidArgumentError("too few ref registers for arguments");
        }
        frame->refs[ref_slot++] = argument.ref();
        continue;
      }
      ValueType expected = ValueTypeOfChar(c);
      if (expected == ValueType::kNone) {
        return UnimplementedError(StringPrintf(
            "argument %zu: cconv type '%c' is not supported on bytecode "
            "functions", i, c));
      }
      if (!argument.is_value() || argument.value().type() != expected) {
        return InvalidArgumentError(StringPrintf(
            "argument %zu: expected %s, got %s", i, TypeCharName(c),
            argument.is_ref() ? "a ref"
            : argument.is_empty()
                ? "nothing"
                : std::string(ValueTypeName(argument.value().type())).c_str()));
      }
      if (IsWideChar(c)) i32_slot = (i32_slot + 1) & ~1u;
      uint32_t width = IsWideChar(c) ? 2 : 1;
      if (i32_slot + width > info.i32_register_count) {  // VERIFIER
        return InvalidArgumentError("too few i32 registers for arguments");
      }
      uint64_t bits = argument.value().bits();
      frame->i32[i32_slot] = static_cast<uint32_t>(bits);
      if (width == 2) frame->i32[i32_slot + 1] = static_cast<uint32_t>(bits >> 32);
      i32_slot += width;
    }
    return Status::Ok();
  }

  // ---- register access ---------------------------------------------------
  static int64_t LoadI64(const Frame& f, uint16_t reg) {
    uint32_t o = reg & kIntOrdinalMask;
    return static_cast<int64_t>(static_cast<uint64_t>(f.i32[o]) |
                                (static_cast<uint64_t>(f.i32[o + 1]) << 32));
  }
  static void StoreI64(Frame& f, uint16_t reg, int64_t value) {
    uint32_t o = reg & kIntOrdinalMask;
    f.i32[o] = static_cast<uint32_t>(value);
    f.i32[o + 1] = static_cast<uint32_t>(static_cast<uint64_t>(value) >> 32);
  }
  // A ref read honouring MOVE: the register is cleared when it is set.
  static VmRef ReadRef(Frame& f, uint16_t reg) {
    VmRef& slot = f.refs[reg & kRefOrdinalMask];
    return (reg & kRefMoveBit) ? slot.Take() : slot;
  }

  static bool RegisterInRange(const Frame& f, uint16_t reg, bool is_ref) {
    return is_ref ? (reg & kRefOrdinalMask) < f.info->ref_register_count
                  : (reg & kIntOrdinalMask) < f.info->i32_register_count;
  }
  static bool RemapInRange(const Frame& f, const RemapList& remap) {
    for (size_t i = 0; i < remap.size(); ++i) {
      bool is_ref = (remap.source(i) & kRefRegisterBit) != 0;
      if (!RegisterInRange(f, remap.source(i), is_ref) ||
          !RegisterInRange(f, remap.destination(i), is_ref)) {
        return false;
      }
    }
    return true;
  }

  // VERIFIER: every register operand names a register the frame has.
  static Status CheckRegisters(const DecodedInstruction& ins, const Frame& f) {
    using bytecode::ValueType;
    for (const DecodedField& field : ins.field_span()) {
      bytecode::FieldTraits traits = bytecode::GetFieldTraits(field.kind());
      bool ok = true;
      switch (traits.encoding) {
        case FieldEncoding::kRegister:
          ok = RegisterInRange(f, field.reg, traits.type == ValueType::kRef);
          break;
        case FieldEncoding::kRegisterList:
          if (traits.type == ValueType::kNone) break;  // segment sizes
          for (size_t i = 0; ok && i < field.list.size(); ++i) {
            bool is_ref = traits.type == ValueType::kAny
                              ? (field.list[i] & kRefRegisterBit) != 0
                              : traits.type == ValueType::kRef;
            ok = RegisterInRange(f, field.list[i], is_ref);
          }
          break;
        case FieldEncoding::kRemapList:
          ok = RemapInRange(f, field.remap);
          break;
        default:
          break;  // branch-table remaps are checked when taken
      }
      if (!ok) {
        return InvalidArgumentError(StringPrintf(
            "%s: register operand '%s' out of range", ins.info->mnemonic,
            field.info->name));
      }
    }
    return Status::Ok();
  }

  // ---- control flow helpers ----------------------------------------------
  // The pc just after the block marker at `target`.
  static Result<uint32_t> BranchTarget(const Frame& f, uint32_t target) {
    if (target >= f.info->code.size() ||
        f.info->code[target] != bytecode::kBlockMarkerOpcode) {  // VERIFIER
      return InvalidArgumentError(
          StringPrintf("branch target %u is not a block", target));
    }
    return target + 1;
  }

  // Applies a branch's operand copies in order, as IREE does (the compiler
  // orders them so that sequential copies are correct).
  static void Remap(Frame& f, const RemapList& remap) {
    for (size_t i = 0; i < remap.size(); ++i) {
      uint16_t source = remap.source(i);
      uint16_t destination = remap.destination(i);
      if (source & kRefRegisterBit) {
        VmRef value = ReadRef(f, source);
        f.refs[destination & kRefOrdinalMask] = std::move(value);
      } else {
        f.i32[destination & kIntOrdinalMask] = f.i32[source & kIntOrdinalMask];
      }
    }
  }

  Status TakeBranch(Frame& f, uint32_t target, const RemapList& remap,
                    uint32_t* next_pc) {
    if (!RemapInRange(f, remap)) {  // VERIFIER
      return InvalidArgumentError("branch remap register out of range");
    }
    EMBER_ASSIGN_OR_RETURN(*next_pc, BranchTarget(f, target));
    Remap(f, remap);
    return Status::Ok();
  }

  // ---- calls --------------------------------------------------------------
  // Copies `operands` of `caller` into the argument slots of `callee`.
  static Status CopyArguments(Frame& caller, const RegisterList& operands,
                              Frame& callee) {
    const FunctionInfo& info = *callee.info;
    if (info.has_signature && operands.size() != info.argument_types.size()) {
      return InvalidArgumentError(StringPrintf(
          "call passes %u operands to a function taking %zu", operands.size(),
          info.argument_types.size()));
    }
    uint32_t i32_slot = 0;
    uint32_t ref_slot = 0;
    for (size_t i = 0; i < operands.size(); ++i) {
      uint16_t reg = operands[i];
      if (reg & kRefRegisterBit) {
        if (ref_slot >= info.ref_register_count) {  // VERIFIER
          return InvalidArgumentError("callee has too few ref registers");
        }
        callee.refs[ref_slot++] = ReadRef(caller, reg);
        continue;
      }
      bool wide = info.has_signature && IsWideChar(info.argument_types[i]);
      if (wide) i32_slot = (i32_slot + 1) & ~1u;
      uint32_t width = wide ? 2 : 1;
      if (i32_slot + width > info.i32_register_count) {  // VERIFIER
        return InvalidArgumentError("callee has too few i32 registers");
      }
      uint32_t source = reg & kIntOrdinalMask;
      callee.i32[i32_slot] = caller.i32[source];
      if (wide) callee.i32[i32_slot + 1] = caller.i32[source + 1];
      i32_slot += width;
    }
    return Status::Ok();
  }

  // Internal call: pushes the callee; execution continues in it.
  Status CallInternal(Frame& caller, uint32_t ordinal,
                      const RegisterList& operands,
                      const RegisterList& results, uint32_t return_pc) {
    EMBER_ASSIGN_OR_RETURN(Frame * callee, PushFrame(ordinal));
    caller.return_registers = results;
    caller.return_pc = return_pc;
    return CopyArguments(caller, operands, *callee);
  }

  // Boxes one register as a Variant of cconv type `c`.
  static Variant Box(Frame& f, uint16_t reg, char c) {
    if (reg & kRefRegisterBit) return Variant(ReadRef(f, reg));
    uint32_t o = reg & kIntOrdinalMask;
    switch (c) {
      case 'I': return Variant(Value::I64(LoadI64(f, reg)));
      case 'F': return Variant(Value::F64(std::bit_cast<double>(LoadI64(f, reg))));
      case 'f': return Variant(Value::F32(std::bit_cast<float>(f.i32[o])));
      default: return Variant(Value::I32(static_cast<int32_t>(f.i32[o])));
    }
  }

  // Writes a boxed result of cconv type `c` into register `reg`.
  static Status Unbox(Frame& f, uint16_t reg, char c, Variant& value) {
    if (c == 'r') {
      if (value.is_value()) return InternalError("import returned a value for a ref result");
      if (!(reg & kRefRegisterBit)) return InvalidArgumentError("ref result into an i32 register");
      f.refs[reg & kRefOrdinalMask] = value.TakeRef();
      return Status::Ok();
    }
    ValueType expected = ValueTypeOfChar(c);
    if (!value.is_value() || value.value().type() != expected) {
      return InternalError(StringPrintf("import returned a wrong type for a %s result",
                                        TypeCharName(c)));
    }
    if (reg & kRefRegisterBit) return InvalidArgumentError("value result into a ref register");
    if (IsWideChar(c)) {
      StoreI64(f, reg, value.value().i64());
    } else {
      f.i32[reg & kIntOrdinalMask] = static_cast<uint32_t>(value.value().bits());
    }
    return Status::Ok();
  }

  // Import call: boxes operands per the import's cconv (spans per
  // `segment_sizes` when variadic), calls through the Context, unboxes.
  Status CallImport(Frame& f, uint32_t function_ordinal,
                    const DecodedField* segment_sizes,
                    const RegisterList& operands, const RegisterList& results) {
    uint32_t index = function_ordinal & ~kImportOrdinalBit;
    if (index >= state_.imports.size()) {  // VERIFIER
      return OutOfRangeError(StringPrintf("import ordinal %u out of range", index));
    }
    const Function& target = state_.imports[index];
    ImportInfo import = module_.import_info(index);
    if (target.is_null()) {
      return NotFoundError("optional import '" + std::string(import.full_name) +
                           "' is not resolved");
    }
    const FunctionInfo& signature = module_.import_signature(index);
    std::string_view types = signature.argument_types;
    std::vector<Variant> arguments;
    arguments.reserve(operands.size() + 4);
    size_t next_operand = 0;
    auto take_operand = [&](char c) -> Status {
      if (next_operand >= operands.size()) {
        return InvalidArgumentError("too few operands for import '" +
                                    std::string(import.full_name) + "'");
      }
      arguments.push_back(Box(f, operands[next_operand++], c));
      return Status::Ok();
    };
    size_t segment = 0;
    for (size_t i = 0; i < types.size(); ++i) {
      char c = types[i];
      if (c != 'C') {
        if (segment_sizes) ++segment;
        EMBER_RETURN_IF_ERROR(take_operand(c));
        continue;
      }
      size_t end = types.find('D', i);
      if (end == std::string_view::npos) return InvalidArgumentError("unterminated span");
      std::string_view body = types.substr(i + 1, end - i - 1);
      i = end;
      if (!segment_sizes || segment >= segment_sizes->list.size()) {
        return InvalidArgumentError("variadic import called without segment sizes");
      }
      int count = segment_sizes->segment_size(segment++);
      if (count < 0) return InvalidArgumentError("negative span length");
      arguments.push_back(Variant(Value::I32(count)));
      for (int t = 0; t < count; ++t) {
        for (char b : body) EMBER_RETURN_IF_ERROR(take_operand(b));
      }
    }
    if (next_operand != operands.size()) {
      return InvalidArgumentError("too many operands for import '" +
                                  std::string(import.full_name) + "'");
    }
    std::string_view result_types = signature.result_types;
    if (results.size() != result_types.size()) {
      return InvalidArgumentError("result count does not match import '" +
                                  std::string(import.full_name) + "'");
    }
    std::vector<Variant> boxed_results(result_types.size());
    EMBER_RETURN_IF_ERROR(context_.Call(target, arguments, boxed_results),
                          "calling import '%.*s'",
                          static_cast<int>(import.full_name.size()),
                          import.full_name.data());
    for (size_t i = 0; i < results.size(); ++i) {
      EMBER_RETURN_IF_ERROR(Unbox(f, results[i], result_types[i], boxed_results[i]));
    }
    return Status::Ok();
  }

  // vm.return: results go to the caller's pending result registers, or out
  // to the host from the entry frame. Sets *done when the entry returns.
  Status Return(Frame& f, const RegisterList& operands, bool* done) {
    const FunctionInfo& info = *f.info;
    if (info.has_signature && operands.size() != info.result_types.size()) {
      return InvalidArgumentError("return operand count does not match cconv");
    }
    auto type_of = [&](size_t i, uint16_t reg) -> char {
      if (info.has_signature) return info.result_types[i];
      return (reg & kRefRegisterBit) ? 'r' : 'i';
    };
    if (depth_ == 1) {
      if (results_.size() != operands.size()) {
        return InvalidArgumentError(StringPrintf(
            "caller expects %zu results, function returns %u", results_.size(),
            operands.size()));
      }
      for (size_t i = 0; i < operands.size(); ++i) {
        results_[i] = Box(f, operands[i], type_of(i, operands[i]));
      }
      *done = true;
      return Status::Ok();
    }
    Frame& caller = *frames_[depth_ - 2];
    const RegisterList& destinations = caller.return_registers;
    if (destinations.size() != operands.size()) {  // VERIFIER
      return InvalidArgumentError("return operand count does not match call");
    }
    for (size_t i = 0; i < operands.size(); ++i) {
      uint16_t source = operands[i];
      uint16_t destination = destinations[i];
      if ((source & kRefRegisterBit) != (destination & kRefRegisterBit)) {
        return InvalidArgumentError("return register banks do not match");
      }
      if (source & kRefRegisterBit) {
        caller.refs[destination & kRefOrdinalMask] = ReadRef(f, source);
      } else {
        uint32_t s = source & kIntOrdinalMask;
        uint32_t d = destination & kIntOrdinalMask;
        caller.i32[d] = f.i32[s];
        if (IsWideChar(type_of(i, source))) caller.i32[d + 1] = f.i32[s + 1];
      }
    }
    PopFrame();
    caller.pc = caller.return_pc;
    caller.return_registers = RegisterList();
    return Status::Ok();
  }

  // ---- helpers for typed ref operands -------------------------------------
  static Result<Buffer*> BufferOf(Frame& f, uint16_t reg) {
    const VmRef& ref = f.refs[reg & kRefOrdinalMask];
    if (ref.is_null()) return InvalidArgumentError("buffer is null");
    Buffer* buffer = ref.As<Buffer>();
    if (buffer == nullptr) {
      return InvalidArgumentError("ref is not a vm.buffer (" +
                                  std::string(ref.type()->name()) + ")");
    }
    return buffer;
  }
  static Result<List*> ListOf(Frame& f, uint16_t reg) {
    const VmRef& ref = f.refs[reg & kRefOrdinalMask];
    if (ref.is_null()) return InvalidArgumentError("list is null");
    List* list = ref.As<List>();
    if (list == nullptr) {
      return InvalidArgumentError("ref is not a vm.list (" +
                                  std::string(ref.type()->name()) + ")");
    }
    return list;
  }
  Result<TypeDef> TypeOf(uint32_t ordinal) const {
    if (ordinal >= module_.types().size()) {  // VERIFIER
      return OutOfRangeError(StringPrintf("type ordinal %u out of range", ordinal));
    }
    return module_.types()[ordinal];
  }
  Result<uint8_t*> GlobalBytes(uint32_t offset, size_t size) {
    if (static_cast<uint64_t>(offset) + size > state_.rwdata.size()) {
      return OutOfRangeError(StringPrintf(
          "global byte offset %u (+%zu) outside %zu bytes of globals", offset,
          size, state_.rwdata.size()));
    }
    return state_.rwdata.data() + offset;
  }
  Result<VmRef*> RefGlobal(uint32_t ordinal) {
    if (ordinal >= state_.ref_globals.size()) {
      return OutOfRangeError(StringPrintf("ref global %u out of range", ordinal));
    }
    return &state_.ref_globals[ordinal];
  }
  static Status CheckRefType(const TypeDef& type, const VmRef& ref) {
    if (TypeAcceptsRef(type, ref)) return Status::Ok();
    return InvalidArgumentError("ref of type " + std::string(ref.type()->name()) +
                                " where " + type.ToString() + " is expected");
  }

  Status Loop();

  Context& context_;
  const BytecodeModule& module_;
  BytecodeModuleState& state_;
  std::vector<std::unique_ptr<Frame>> frames_;
  size_t depth_ = 0;
  std::span<Variant> results_;
};

// Integer helpers with defined behaviour for every input.
int32_t DivS32(int32_t a, int32_t b) {
  return (a == INT32_MIN && b == -1) ? a : a / b;
}
int32_t RemS32(int32_t a, int32_t b) {
  return (a == INT32_MIN && b == -1) ? 0 : a % b;
}
int64_t DivS64(int64_t a, int64_t b) {
  return (a == INT64_MIN && b == -1) ? a : a / b;
}
int64_t RemS64(int64_t a, int64_t b) {
  return (a == INT64_MIN && b == -1) ? 0 : a % b;
}
float RoundEven(float x) { return std::nearbyint(x); }
double RoundEven(double x) { return std::nearbyint(x); }

// The dispatch loop. Case labels are built from the opcode table's enums.
#define CORE(name) \
  case Key(OpcodeSet::kCore, static_cast<uint8_t>(bytecode::CoreOpcode::name))
#define EXT32(name) \
  case Key(OpcodeSet::kExtF32, static_cast<uint8_t>(bytecode::ExtF32Opcode::name))
#define EXT64(name) \
  case Key(OpcodeSet::kExtF64, static_cast<uint8_t>(bytecode::ExtF64Opcode::name))
#define FIELD(n) ins.fields[n]
#define R32(n) f.i32[FIELD(n).reg & kIntOrdinalMask]
#define S32(n) static_cast<int32_t>(R32(n))
#define GET64(n) LoadI64(f, FIELD(n).reg)
#define SET64(n, v) StoreI64(f, FIELD(n).reg, static_cast<int64_t>(v))
#define GETF32(n) std::bit_cast<float>(R32(n))
#define SETF32(n, v) R32(n) = std::bit_cast<uint32_t>(static_cast<float>(v))
#define GETF64(n) std::bit_cast<double>(GET64(n))
#define SETF64(n, v) SET64(n, std::bit_cast<int64_t>(static_cast<double>(v)))
#define REF(n) f.refs[FIELD(n).reg & kRefOrdinalMask]
#define TRY(expr) EMBER_RETURN_IF_ERROR(expr)

#define BIN_I32(name, expr)                      \
  CORE(name) : {                                 \
    [[maybe_unused]] int32_t a = S32(0);         \
    [[maybe_unused]] int32_t b = S32(1);         \
    [[maybe_unused]] uint32_t ua = R32(0);       \
    [[maybe_unused]] uint32_t ub = R32(1);       \
    R32(2) = static_cast<uint32_t>(expr);        \
    break;                                       \
  }
#define BIN_I64(name, expr)                                  \
  CORE(name) : {                                             \
    [[maybe_unused]] int64_t a = GET64(0);                   \
    [[maybe_unused]] int64_t b = GET64(1);                   \
    [[maybe_unused]] uint64_t ua = static_cast<uint64_t>(a); \
    [[maybe_unused]] uint64_t ub = static_cast<uint64_t>(b); \
    SET64(2, expr);                                          \
    break;                                                   \
  }
#define UN_I32(name, expr)                 \
  CORE(name) : {                           \
    [[maybe_unused]] int32_t a = S32(0);   \
    [[maybe_unused]] uint32_t ua = R32(0); \
    R32(1) = static_cast<uint32_t>(expr);  \
    break;                                 \
  }
#define UN_I64(name, expr)                                   \
  CORE(name) : {                                             \
    [[maybe_unused]] int64_t a = GET64(0);                   \
    [[maybe_unused]] uint64_t ua = static_cast<uint64_t>(a); \
    SET64(1, expr);                                          \
    break;                                                   \
  }
#define CMP_I64(name, expr)                                  \
  CORE(name) : {                                             \
    [[maybe_unused]] int64_t a = GET64(0);                   \
    [[maybe_unused]] int64_t b = GET64(1);                   \
    [[maybe_unused]] uint64_t ua = static_cast<uint64_t>(a); \
    [[maybe_unused]] uint64_t ub = static_cast<uint64_t>(b); \
    R32(2) = (expr) ? 1u : 0u;                               \
    break;                                                   \
  }
#define DIV_GUARD(divisor)                                                 \
  if ((divisor) == 0) {                                                    \
    return InvalidArgumentError(std::string(ins.info->mnemonic) +          \
                                ": division by zero");                     \
  }

// Float ops, one macro per shape, for the F32 (EXT32) and F64 (EXT64) sets.
#define FUN(SET, GET, PUT, name, expr) \
  SET(name) : {                        \
    auto x = GET(0);                   \
    PUT(1, expr);                      \
    break;                             \
  }
#define FBIN(SET, GET, PUT, name, expr) \
  SET(name) : {                         \
    auto a = GET(0);                    \
    auto b = GET(1);                    \
    PUT(2, expr);                       \
    break;                              \
  }
#define FCMP(SET, GET, name, expr) \
  SET(name) : {                    \
    auto a = GET(0);               \
    auto b = GET(1);               \
    R32(2) = (expr) ? 1u : 0u;     \
    break;                         \
  }
#define FLOAT_OPS(SET, GET, PUT, T, Suffix)                                     \
  FBIN(SET, GET, PUT, Add##Suffix, a + b)                                      \
  FBIN(SET, GET, PUT, Sub##Suffix, a - b)                                      \
  FBIN(SET, GET, PUT, Mul##Suffix, a * b)                                      \
  FBIN(SET, GET, PUT, Div##Suffix, a / b)                                      \
  FBIN(SET, GET, PUT, Rem##Suffix, std::remainder(a, b))                       \
  FBIN(SET, GET, PUT, Min##Suffix, b < a ? b : a)                              \
  FBIN(SET, GET, PUT, Max##Suffix, a < b ? b : a)                              \
  FBIN(SET, GET, PUT, Atan2##Suffix, std::atan2(a, b))                         \
  FBIN(SET, GET, PUT, Pow##Suffix, std::pow(a, b))                             \
  SET(FMA##Suffix) : {                                                         \
    PUT(3, std::fma(GET(0), GET(1), GET(2)));                                  \
    break;                                                                     \
  }                                                                            \
  FUN(SET, GET, PUT, Abs##Suffix, std::fabs(x))                                \
  FUN(SET, GET, PUT, Neg##Suffix, -x)                                          \
  FUN(SET, GET, PUT, Ceil##Suffix, std::ceil(x))                               \
  FUN(SET, GET, PUT, Floor##Suffix, std::floor(x))                             \
  FUN(SET, GET, PUT, Round##Suffix, std::round(x))                             \
  FUN(SET, GET, PUT, Round##Suffix##Even, RoundEven(x))                        \
  FUN(SET, GET, PUT, Atan##Suffix, std::atan(x))                               \
  FUN(SET, GET, PUT, Cos##Suffix, std::cos(x))                                 \
  FUN(SET, GET, PUT, Sin##Suffix, std::sin(x))                                 \
  FUN(SET, GET, PUT, Exp##Suffix, std::exp(x))                                 \
  FUN(SET, GET, PUT, Exp2##Suffix, std::exp2(x))                               \
  FUN(SET, GET, PUT, ExpM1##Suffix, std::expm1(x))                             \
  FUN(SET, GET, PUT, Log##Suffix, std::log(x))                                 \
  FUN(SET, GET, PUT, Log10##Suffix, std::log10(x))                             \
  FUN(SET, GET, PUT, Log1p##Suffix, std::log1p(x))                             \
  FUN(SET, GET, PUT, Log2##Suffix, std::log2(x))                               \
  FUN(SET, GET, PUT, Rsqrt##Suffix, T(1) / std::sqrt(x))                       \
  FUN(SET, GET, PUT, Sqrt##Suffix, std::sqrt(x))                               \
  FUN(SET, GET, PUT, Tanh##Suffix, std::tanh(x))                               \
  FUN(SET, GET, PUT, Erf##Suffix, std::erf(x))                                 \
  FCMP(SET, GET, CmpEQ##Suffix##O, a == b)                                     \
  FCMP(SET, GET, CmpEQ##Suffix##U, std::isunordered(a, b) || a == b)          \
  FCMP(SET, GET, CmpNE##Suffix##O, a != b)                                     \
  FCMP(SET, GET, CmpNE##Suffix##U, std::isunordered(a, b) || a != b)          \
  FCMP(SET, GET, CmpLT##Suffix##O, std::isless(a, b))                          \
  FCMP(SET, GET, CmpLT##Suffix##U, std::isunordered(a, b) || std::isless(a, b)) \
  FCMP(SET, GET, CmpLTE##Suffix##O, std::islessequal(a, b))                    \
  FCMP(SET, GET, CmpLTE##Suffix##U,                                            \
       std::isunordered(a, b) || std::islessequal(a, b))                       \
  SET(CmpNaN##Suffix) : {                                                      \
    R32(1) = std::isnan(GET(0)) ? 1u : 0u;                                     \
    break;                                                                     \
  }

Status Interpreter::Loop() {
  DecodedInstruction ins;
  while (true) {
    Frame& f = *frames_[depth_ - 1];
    EMBER_RETURN_IF_ERROR(bytecode::DecodeInstruction(f.info->code, f.pc, &ins));
    EMBER_RETURN_IF_ERROR(CheckRegisters(ins, f));
    uint32_t next_pc = ins.next_pc;
    switch (Key(ins.info->set, ins.info->opcode)) {
      // ---- globals ----------------------------------------------------------
      CORE(GlobalLoadI32) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(FIELD(0).u32(), 4));
        std::memcpy(&R32(1), p, 4);
        break;
      }
      CORE(GlobalStoreI32) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(FIELD(0).u32(), 4));
        std::memcpy(p, &R32(1), 4);
        break;
      }
      CORE(GlobalLoadIndirectI32) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(R32(0), 4));
        std::memcpy(&R32(1), p, 4);
        break;
      }
      CORE(GlobalStoreIndirectI32) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(R32(0), 4));
        std::memcpy(p, &R32(1), 4);
        break;
      }
      CORE(GlobalLoadI64) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(FIELD(0).u32(), 8));
        int64_t v;
        std::memcpy(&v, p, 8);
        SET64(1, v);
        break;
      }
      CORE(GlobalStoreI64) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(FIELD(0).u32(), 8));
        int64_t v = GET64(1);
        std::memcpy(p, &v, 8);
        break;
      }
      CORE(GlobalLoadIndirectI64) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(R32(0), 8));
        int64_t v;
        std::memcpy(&v, p, 8);
        SET64(1, v);
        break;
      }
      CORE(GlobalStoreIndirectI64) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(R32(0), 8));
        int64_t v = GET64(1);
        std::memcpy(p, &v, 8);
        break;
      }
      CORE(GlobalLoadRef) :
      CORE(GlobalLoadIndirectRef) : {
        uint32_t ordinal = ins.info->opcode == 0x08 ? FIELD(0).u32() : R32(0);
        EMBER_ASSIGN_OR_RETURN(VmRef * global, RefGlobal(ordinal));
        EMBER_ASSIGN_OR_RETURN(TypeDef type, TypeOf(FIELD(1).u32()));
        TRY(CheckRefType(type, *global));
        REF(2) = *global;
        break;
      }
      CORE(GlobalStoreRef) :
      CORE(GlobalStoreIndirectRef) : {
        uint32_t ordinal = ins.info->opcode == 0x09 ? FIELD(0).u32() : R32(0);
        EMBER_ASSIGN_OR_RETURN(VmRef * global, RefGlobal(ordinal));
        EMBER_ASSIGN_OR_RETURN(TypeDef type, TypeOf(FIELD(1).u32()));
        TRY(CheckRefType(type, REF(2)));
        *global = ReadRef(f, FIELD(2).reg);
        break;
      }
      // ---- constants --------------------------------------------------------
      CORE(ConstI32Zero) : R32(0) = 0; break;
      CORE(ConstI32) : R32(1) = FIELD(0).u32(); break;
      CORE(ConstI64Zero) : SET64(0, 0); break;
      CORE(ConstI64) : SET64(1, FIELD(0).i64()); break;
      CORE(ConstRefZero) : REF(0).reset(); break;
      CORE(ConstRefRodata) : {
        uint32_t ordinal = FIELD(0).u32();
        if (ordinal >= module_.rodata_buffers().size()) {  // VERIFIER
          return OutOfRangeError(StringPrintf("rodata ordinal %u out of range", ordinal));
        }
        REF(1) = module_.rodata_buffers()[ordinal];
        break;
      }
      // ---- lists ------------------------------------------------------------
      CORE(ListAlloc) : {
        EMBER_ASSIGN_OR_RETURN(TypeDef type, TypeOf(FIELD(0).u32()));
        int32_t capacity = S32(1);
        if (capacity < 0) return InvalidArgumentError("negative list capacity");
        EMBER_ASSIGN_OR_RETURN(Ref<List> list,
                               List::Create(type, static_cast<size_t>(capacity)));
        REF(2) = VmRef::Of(std::move(list));
        break;
      }
      CORE(ListReserve) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        if (S32(1) < 0) return InvalidArgumentError("negative list capacity");
        TRY(list->Reserve(R32(1)));
        break;
      }
      CORE(ListSize) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        R32(1) = static_cast<uint32_t>(list->size());
        break;
      }
      CORE(ListResize) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        if (S32(1) < 0) return InvalidArgumentError("negative list size");
        TRY(list->Resize(R32(1)));
        break;
      }
      CORE(ListGetI32) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(Value v, list->GetValueAs(R32(1), ValueType::kI32));
        R32(2) = static_cast<uint32_t>(v.i32());
        break;
      }
      CORE(ListSetI32) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        TRY(list->SetValue(R32(1), Value::I32(S32(2))));
        break;
      }
      CORE(ListGetI64) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(Value v, list->GetValueAs(R32(1), ValueType::kI64));
        SET64(2, v.i64());
        break;
      }
      CORE(ListSetI64) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        TRY(list->SetValue(R32(1), Value::I64(GET64(2))));
        break;
      }
      CORE(ListGetRef) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(TypeDef type, TypeOf(FIELD(2).u32()));
        EMBER_ASSIGN_OR_RETURN(VmRef value, list->GetRefOfType(R32(1), type));
        REF(3) = std::move(value);
        break;
      }
      CORE(ListSetRef) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        if (FIELD(2).reg & kRefMoveBit) {
          TRY(list->SetRef(R32(1), std::move(REF(2))));
        } else {
          TRY(list->SetRef(R32(1), static_cast<const VmRef&>(REF(2))));
        }
        break;
      }
      // ---- select / switch --------------------------------------------------
      CORE(SelectI32) : R32(3) = R32(0) ? R32(1) : R32(2); break;
      CORE(SelectI64) : SET64(3, R32(0) ? GET64(1) : GET64(2)); break;
      CORE(SelectRef) : {
        bool condition = R32(0) != 0;
        VmRef chosen = ReadRef(f, FIELD(condition ? 2 : 3).reg);
        uint16_t other = FIELD(condition ? 3 : 2).reg;
        if (other & kRefMoveBit) f.refs[other & kRefOrdinalMask].reset();
        REF(4) = std::move(chosen);
        break;
      }
      CORE(SwitchI32) : {
        uint32_t index = R32(0);
        R32(3) = index < FIELD(2).list.size()
                     ? f.i32[FIELD(2).list[index] & kIntOrdinalMask]
                     : R32(1);
        break;
      }
      CORE(SwitchI64) : {
        uint32_t index = R32(0);
        SET64(3, index < FIELD(2).list.size()
                     ? LoadI64(f, FIELD(2).list[index])
                     : GET64(1));
        break;
      }
      CORE(SwitchRef) : {
        uint32_t index = R32(0);
        uint16_t source = index < FIELD(3).list.size() ? FIELD(3).list[index]
                                                       : FIELD(2).reg;
        REF(4) = ReadRef(f, source);
        break;
      }
      // ---- i32 arithmetic ---------------------------------------------------
      BIN_I32(AddI32, ua + ub)
      BIN_I32(SubI32, ua - ub)
      BIN_I32(MulI32, ua * ub)
      CORE(DivI32S) : { DIV_GUARD(R32(1)); R32(2) = static_cast<uint32_t>(DivS32(S32(0), S32(1))); break; }
      CORE(DivI32U) : { DIV_GUARD(R32(1)); R32(2) = R32(0) / R32(1); break; }
      CORE(RemI32S) : { DIV_GUARD(R32(1)); R32(2) = static_cast<uint32_t>(RemS32(S32(0), S32(1))); break; }
      CORE(RemI32U) : { DIV_GUARD(R32(1)); R32(2) = R32(0) % R32(1); break; }
      CORE(FMAI32) : R32(3) = R32(0) * R32(1) + R32(2); break;
      UN_I32(AbsI32, a < 0 ? 0u - ua : ua)
      BIN_I32(MinI32S, a < b ? a : b)
      BIN_I32(MinI32U, ua < ub ? ua : ub)
      BIN_I32(MaxI32S, a > b ? a : b)
      BIN_I32(MaxI32U, ua > ub ? ua : ub)
      // ---- i64 arithmetic ---------------------------------------------------
      BIN_I64(AddI64, ua + ub)
      BIN_I64(SubI64, ua - ub)
      BIN_I64(MulI64, ua * ub)
      CORE(DivI64S) : { DIV_GUARD(GET64(1)); SET64(2, DivS64(GET64(0), GET64(1))); break; }
      CORE(DivI64U) : { DIV_GUARD(GET64(1)); SET64(2, static_cast<uint64_t>(GET64(0)) / static_cast<uint64_t>(GET64(1))); break; }
      CORE(RemI64S) : { DIV_GUARD(GET64(1)); SET64(2, RemS64(GET64(0), GET64(1))); break; }
      CORE(RemI64U) : { DIV_GUARD(GET64(1)); SET64(2, static_cast<uint64_t>(GET64(0)) % static_cast<uint64_t>(GET64(1))); break; }
      CORE(FMAI64) : SET64(3, static_cast<uint64_t>(GET64(0)) * static_cast<uint64_t>(GET64(1)) + static_cast<uint64_t>(GET64(2))); break;
      UN_I64(AbsI64, a < 0 ? 0 - ua : ua)
      BIN_I64(MinI64S, a < b ? a : b)
      BIN_I64(MinI64U, ua < ub ? ua : ub)
      BIN_I64(MaxI64S, a > b ? a : b)
      BIN_I64(MaxI64U, ua > ub ? ua : ub)
      // ---- bitwise and shifts -----------------------------------------------
      UN_I32(NotI32, ~ua)
      BIN_I32(AndI32, ua & ub)
      BIN_I32(OrI32, ua | ub)
      BIN_I32(XorI32, ua ^ ub)
      UN_I64(NotI64, ~ua)
      BIN_I64(AndI64, ua & ub)
      BIN_I64(OrI64, ua | ub)
      BIN_I64(XorI64, ua ^ ub)
      UN_I32(CtlzI32, std::countl_zero(ua))
      UN_I64(CtlzI64, std::countl_zero(ua))
      CORE(ShlI32) : R32(2) = R32(0) << (R32(1) & 31); break;
      CORE(ShrI32S) : R32(2) = static_cast<uint32_t>(S32(0) >> (R32(1) & 31)); break;
      CORE(ShrI32U) : R32(2) = R32(0) >> (R32(1) & 31); break;
      CORE(ShlI64) : SET64(2, static_cast<uint64_t>(GET64(0)) << (R32(1) & 63)); break;
      CORE(ShrI64S) : SET64(2, GET64(0) >> (R32(1) & 63)); break;
      CORE(ShrI64U) : SET64(2, static_cast<uint64_t>(GET64(0)) >> (R32(1) & 63)); break;
      // ---- truncation and extension -----------------------------------------
      CORE(TruncI32I8) : R32(1) = R32(0) & 0xFFu; break;
      CORE(TruncI32I16) : R32(1) = R32(0) & 0xFFFFu; break;
      CORE(TruncI64I32) : R32(1) = static_cast<uint32_t>(GET64(0)); break;
      CORE(ExtI8I32S) : R32(1) = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(R32(0)))); break;
      CORE(ExtI8I32U) : R32(1) = R32(0) & 0xFFu; break;
      CORE(ExtI16I32S) : R32(1) = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(R32(0)))); break;
      CORE(ExtI16I32U) : R32(1) = R32(0) & 0xFFFFu; break;
      CORE(ExtI32I64S) : SET64(1, static_cast<int64_t>(S32(0))); break;
      CORE(ExtI32I64U) : SET64(1, static_cast<uint64_t>(R32(0))); break;
      // ---- comparisons ------------------------------------------------------
      BIN_I32(CmpEQI32, a == b)
      BIN_I32(CmpNEI32, a != b)
      BIN_I32(CmpLTI32S, a < b)
      BIN_I32(CmpLTI32U, ua < ub)
      CORE(CmpNZI32) : R32(1) = R32(0) != 0; break;
      CMP_I64(CmpEQI64, a == b)
      CMP_I64(CmpNEI64, a != b)
      CMP_I64(CmpLTI64S, a < b)
      CMP_I64(CmpLTI64U, ua < ub)
      CORE(CmpNZI64) : R32(1) = GET64(0) != 0; break;
      CORE(CmpEQRef) : R32(2) = REF(0) == REF(1); break;
      CORE(CmpNERef) : R32(2) = !(REF(0) == REF(1)); break;
      CORE(CmpNZRef) : R32(1) = !REF(0).is_null(); break;
      // ---- control flow -----------------------------------------------------
      CORE(Block) : break;
      CORE(Branch) :
      CORE(Yield) :  // synchronous: yielding and resuming at once is a branch
      CORE(Break) :  // no debugger attached: continue at the destination
        TRY(TakeBranch(f, FIELD(0).u32(), FIELD(1).remap, &next_pc));
        break;
      CORE(CondBreak) :
        TRY(TakeBranch(f, FIELD(1).u32(), FIELD(2).remap, &next_pc));
        break;
      CORE(CondBranch) :
        if (R32(0)) {
          TRY(TakeBranch(f, FIELD(1).u32(), FIELD(2).remap, &next_pc));
        } else {
          TRY(TakeBranch(f, FIELD(3).u32(), FIELD(4).remap, &next_pc));
        }
        break;
      CORE(BranchTable) : {
        uint32_t index = R32(0);
        if (index < FIELD(3).cases.size()) {
          BranchCase c = FIELD(3).cases[index];
          TRY(TakeBranch(f, c.target, c.remap, &next_pc));
        } else {
          TRY(TakeBranch(f, FIELD(1).u32(), FIELD(2).remap, &next_pc));
        }
        break;
      }
      CORE(Call) :
      CORE(CallYieldable) : {
        bool yieldable = ins.info->opcode == 0x87;
        uint32_t callee = FIELD(0).u32();
        const RegisterList& operands = FIELD(1).list;
        const RegisterList& results = FIELD(yieldable ? 3 : 2).list;
        if (yieldable) {
          EMBER_ASSIGN_OR_RETURN(next_pc, BranchTarget(f, FIELD(2).u32()));
        }
        if (callee & kImportOrdinalBit) {
          TRY(CallImport(f, callee, nullptr, operands, results));
          break;
        }
        TRY(CallInternal(f, callee, operands, results, next_pc));
        continue;  // the callee's frame is now on top; f.pc stays at the call
      }
      CORE(CallVariadic) :
      CORE(CallVariadicYieldable) : {
        bool yieldable = ins.info->opcode == 0x88;
        uint32_t callee = FIELD(0).u32();
        if (!(callee & kImportOrdinalBit)) {  // VERIFIER
          return InvalidArgumentError("variadic call of an internal function");
        }
        if (yieldable) {
          EMBER_ASSIGN_OR_RETURN(next_pc, BranchTarget(f, FIELD(3).u32()));
        }
        TRY(CallImport(f, callee, &FIELD(1), FIELD(2).list,
                       FIELD(yieldable ? 4 : 3).list));
        break;
      }
      CORE(Return) : {
        bool done = false;
        TRY(Return(f, FIELD(0).list, &done));
        if (done) return Status::Ok();
        continue;  // the caller's pc was set by Return
      }
      CORE(Fail) : {
        uint32_t code = R32(0);
        if (code == 0) break;
        if (code > static_cast<uint32_t>(StatusCode::kIncompatible)) {
          code = static_cast<uint32_t>(StatusCode::kUnknown);
        }
        return Status(static_cast<StatusCode>(code), std::string(FIELD(1).string));
      }
      CORE(ImportResolved) : {
        uint32_t index = FIELD(0).u32() & ~kImportOrdinalBit;
        R32(1) = index < state_.imports.size() && !state_.imports[index].is_null();
        break;
      }
      CORE(Trace) :
      CORE(Print) :
        break;  // no tracing sink yet
      // ---- vm.buffer --------------------------------------------------------
#define BUFFER_LOAD(name, T, PUT)                                         \
  CORE(name) : {                                                          \
    EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));   \
    {                                                                     \
      EMBER_ASSIGN_OR_RETURN(T v, buffer->LoadElement<T>(GET64(1)));      \
      PUT;                                                                \
    }                                                                     \
    break;                                                                \
  }
      BUFFER_LOAD(BufferLoadI8U, uint8_t, R32(2) = v)
      BUFFER_LOAD(BufferLoadI8S, int8_t, R32(2) = static_cast<uint32_t>(static_cast<int32_t>(v)))
      BUFFER_LOAD(BufferLoadI16U, uint16_t, R32(2) = v)
      BUFFER_LOAD(BufferLoadI16S, int16_t, R32(2) = static_cast<uint32_t>(static_cast<int32_t>(v)))
      BUFFER_LOAD(BufferLoadI32, uint32_t, R32(2) = v)
      BUFFER_LOAD(BufferLoadI64, int64_t, SET64(2, v))
#define BUFFER_STORE(name, T, VALUE)                                      \
  CORE(name) : {                                                          \
    EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));   \
    TRY(buffer->StoreElement<T>(GET64(1), static_cast<T>(VALUE)));        \
    break;                                                                \
  }
      BUFFER_STORE(BufferStoreI8, uint8_t, R32(2))
      BUFFER_STORE(BufferStoreI16, uint16_t, R32(2))
      BUFFER_STORE(BufferStoreI32, uint32_t, R32(2))
      BUFFER_STORE(BufferStoreI64, int64_t, GET64(2))
#define BUFFER_FILL(name, T, VALUE)                                         \
  CORE(name) : {                                                            \
    EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));     \
    TRY(buffer->FillElements<T>(GET64(1), GET64(2), static_cast<T>(VALUE))); \
    break;                                                                  \
  }
      BUFFER_FILL(BufferFillI8, uint8_t, R32(3))
      BUFFER_FILL(BufferFillI16, uint16_t, R32(3))
      BUFFER_FILL(BufferFillI32, uint32_t, R32(3))
      BUFFER_FILL(BufferFillI64, int64_t, GET64(3))
      CORE(BufferAlloc) : {
        EMBER_ASSIGN_OR_RETURN(
            Ref<Buffer> buffer,
            Buffer::Allocate(static_cast<uint64_t>(GET64(0)), R32(1),
                             BufferAccess::kMutable | BufferAccess::kOriginGuest));
        REF(2) = VmRef::Of(std::move(buffer));
        break;
      }
      CORE(BufferClone) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * source, BufferOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(
            Ref<Buffer> buffer,
            Buffer::Clone(*source, static_cast<uint64_t>(GET64(1)),
                          static_cast<uint64_t>(GET64(2)), R32(3),
                          BufferAccess::kMutable | BufferAccess::kOriginGuest));
        REF(4) = VmRef::Of(std::move(buffer));
        break;
      }
      CORE(BufferLength) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));
        SET64(1, buffer->length());
        break;
      }
      CORE(BufferCopy) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * source, BufferOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(Buffer * target, BufferOf(f, FIELD(2).reg));
        TRY(Buffer::Copy(*source, static_cast<uint64_t>(GET64(1)), *target,
                         static_cast<uint64_t>(GET64(3)),
                         static_cast<uint64_t>(GET64(4))));
        break;
      }
      CORE(BufferCompare) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * lhs, BufferOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(Buffer * rhs, BufferOf(f, FIELD(2).reg));
        EMBER_ASSIGN_OR_RETURN(
            bool equal, Buffer::Compare(*lhs, static_cast<uint64_t>(GET64(1)), *rhs,
                                        static_cast<uint64_t>(GET64(3)),
                                        static_cast<uint64_t>(GET64(4))));
        R32(5) = equal ? 1u : 0u;
        break;
      }
      CORE(BufferHash) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(int64_t hash,
                               buffer->Hash(static_cast<uint64_t>(GET64(1)),
                                            static_cast<uint64_t>(GET64(2))));
        SET64(3, hash);
        break;
      }
      // ---- refs -------------------------------------------------------------
      CORE(CastAnyRef) : {
        EMBER_ASSIGN_OR_RETURN(TypeDef type, TypeOf(FIELD(1).u32()));
        TRY(CheckRefType(type, REF(0)));
        REF(2) = ReadRef(f, FIELD(0).reg);
        break;
      }
      CORE(DiscardRefs) : {
        for (size_t i = 0; i < FIELD(0).list.size(); ++i) {
          f.refs[FIELD(0).list[i] & kRefOrdinalMask].reset();
        }
        break;
      }
      CORE(AssignRef) : REF(1) = ReadRef(f, FIELD(0).reg); break;
      CORE(PrefixExtF32) :
      CORE(PrefixExtF64) :
        return InternalError("decoder returned a bare prefix");

      // ---- ExtF32 -----------------------------------------------------------
      EXT32(GlobalLoadF32) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(FIELD(0).u32(), 4));
        std::memcpy(&R32(1), p, 4);
        break;
      }
      EXT32(GlobalStoreF32) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(FIELD(0).u32(), 4));
        std::memcpy(p, &R32(1), 4);
        break;
      }
      EXT32(GlobalLoadIndirectF32) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(R32(0), 4));
        std::memcpy(&R32(1), p, 4);
        break;
      }
      EXT32(GlobalStoreIndirectF32) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(R32(0), 4));
        std::memcpy(p, &R32(1), 4);
        break;
      }
      EXT32(ConstF32Zero) : R32(0) = 0; break;
      EXT32(ConstF32) : R32(1) = FIELD(0).u32(); break;
      EXT32(ListGetF32) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(Value v, list->GetValueAs(R32(1), ValueType::kF32));
        SETF32(2, v.f32());
        break;
      }
      EXT32(ListSetF32) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        TRY(list->SetValue(R32(1), Value::F32(GETF32(2))));
        break;
      }
      EXT32(SelectF32) : R32(3) = R32(0) ? R32(1) : R32(2); break;
      EXT32(SwitchF32) : {
        uint32_t index = R32(0);
        R32(3) = index < FIELD(2).list.size()
                     ? f.i32[FIELD(2).list[index] & kIntOrdinalMask]
                     : R32(1);
        break;
      }
      FLOAT_OPS(EXT32, GETF32, SETF32, float, F32)
      EXT32(CastSI32F32) : SETF32(1, static_cast<float>(S32(0))); break;
      EXT32(CastUI32F32) : SETF32(1, static_cast<float>(R32(0))); break;
      EXT32(CastF32SI32) : R32(1) = static_cast<uint32_t>(static_cast<int32_t>(std::lround(GETF32(0)))); break;
      EXT32(CastF32UI32) : R32(1) = static_cast<uint32_t>(std::llround(GETF32(0))); break;
      EXT32(CastF32SI64) : SET64(1, std::llround(GETF32(0))); break;
      EXT32(CastF32UI64) : SET64(1, static_cast<uint64_t>(std::round(GETF32(0)))); break;
      EXT32(CastSI64F32) : SETF32(1, static_cast<float>(GET64(0))); break;
      EXT32(CastUI64F32) : SETF32(1, static_cast<float>(static_cast<uint64_t>(GET64(0)))); break;
      EXT32(BitcastI32F32) : R32(1) = R32(0); break;
      EXT32(BitcastF32I32) : R32(1) = R32(0); break;
      EXT32(BufferLoadF32) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(float v, buffer->LoadElement<float>(GET64(1)));
        SETF32(2, v);
        break;
      }
      EXT32(BufferStoreF32) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));
        TRY(buffer->StoreElement<float>(GET64(1), GETF32(2)));
        break;
      }
      EXT32(BufferFillF32) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));
        TRY(buffer->FillElements<float>(GET64(1), GET64(2), GETF32(3)));
        break;
      }

      // ---- ExtF64 -----------------------------------------------------------
      EXT64(GlobalLoadF64) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(FIELD(0).u32(), 8));
        int64_t v;
        std::memcpy(&v, p, 8);
        SET64(1, v);
        break;
      }
      EXT64(GlobalStoreF64) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(FIELD(0).u32(), 8));
        int64_t v = GET64(1);
        std::memcpy(p, &v, 8);
        break;
      }
      EXT64(GlobalLoadIndirectF64) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(R32(0), 8));
        int64_t v;
        std::memcpy(&v, p, 8);
        SET64(1, v);
        break;
      }
      EXT64(GlobalStoreIndirectF64) : {
        EMBER_ASSIGN_OR_RETURN(uint8_t * p, GlobalBytes(R32(0), 8));
        int64_t v = GET64(1);
        std::memcpy(p, &v, 8);
        break;
      }
      EXT64(ConstF64Zero) : SET64(0, 0); break;
      EXT64(ConstF64) : SET64(1, FIELD(0).i64()); break;
      EXT64(ListGetF64) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(Value v, list->GetValueAs(R32(1), ValueType::kF64));
        SETF64(2, v.f64());
        break;
      }
      EXT64(ListSetF64) : {
        EMBER_ASSIGN_OR_RETURN(List * list, ListOf(f, FIELD(0).reg));
        TRY(list->SetValue(R32(1), Value::F64(GETF64(2))));
        break;
      }
      EXT64(SelectF64) : SET64(3, R32(0) ? GET64(1) : GET64(2)); break;
      EXT64(SwitchF64) : {
        uint32_t index = R32(0);
        SET64(3, index < FIELD(2).list.size() ? LoadI64(f, FIELD(2).list[index])
                                              : GET64(1));
        break;
      }
      FLOAT_OPS(EXT64, GETF64, SETF64, double, F64)
      EXT64(TruncF64F32) : SETF32(1, static_cast<float>(GETF64(0))); break;
      EXT64(ExtF32F64) : SETF64(1, static_cast<double>(GETF32(0))); break;
      EXT64(CastSI32F64) : SETF64(1, static_cast<double>(S32(0))); break;
      EXT64(CastUI32F64) : SETF64(1, static_cast<double>(R32(0))); break;
      EXT64(CastF64SI32) : R32(1) = static_cast<uint32_t>(static_cast<int32_t>(std::lround(GETF64(0)))); break;
      EXT64(CastF64UI32) : R32(1) = static_cast<uint32_t>(std::llround(GETF64(0))); break;
      EXT64(CastSI64F64) : SETF64(1, static_cast<double>(GET64(0))); break;
      EXT64(CastUI64F64) : SETF64(1, static_cast<double>(static_cast<uint64_t>(GET64(0)))); break;
      EXT64(CastF64SI64) : SET64(1, std::llround(GETF64(0))); break;
      EXT64(CastF64UI64) : SET64(1, static_cast<uint64_t>(std::llround(GETF64(0)))); break;
      EXT64(BitcastI64F64) : SET64(1, GET64(0)); break;
      EXT64(BitcastF64I64) : SET64(1, GET64(0)); break;
      EXT64(BufferLoadF64) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));
        EMBER_ASSIGN_OR_RETURN(double v, buffer->LoadElement<double>(GET64(1)));
        SETF64(2, v);
        break;
      }
      EXT64(BufferStoreF64) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));
        TRY(buffer->StoreElement<double>(GET64(1), GETF64(2)));
        break;
      }
      EXT64(BufferFillF64) : {
        EMBER_ASSIGN_OR_RETURN(Buffer * buffer, BufferOf(f, FIELD(0).reg));
        TRY(buffer->FillElements<double>(GET64(1), GET64(2), GETF64(3)));
        break;
      }

      default:
        return UnimplementedError(StringPrintf(
            "opcode %s (%s 0x%02X) is not implemented", ins.info->mnemonic,
            bytecode::OpcodeSetName(ins.info->set), ins.info->opcode));
    }
    f.pc = next_pc;
  }
}

}  // namespace

Status Execute(Context& context, const BytecodeModule& module,
               BytecodeModuleState& state, uint32_t ordinal,
               std::span<const Variant> arguments, std::span<Variant> results) {
  Interpreter interpreter(context, module, state);
  return interpreter.Run(ordinal, arguments, results);
}

}  // namespace ember::vm::bytecode_internal
