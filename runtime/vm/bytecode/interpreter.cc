// The bytecode interpreter: one dispatch loop over the opcode table.
//
// Every function reaching this file has passed the load-time verifier
// (bytecode/verifier.h, run by BytecodeModule::Create): each instruction is
// complete, every register operand is in range and in the right bank,
// 64-bit operands name an even pair inside the frame, every branch target is
// a block marker, every ordinal indexes its table and every call's operand
// and result lists match the callee's calling convention. The loop relies on
// all of that and checks none of it again. What the verifier cannot know --
// values computed at run time: indirect global offsets, list indices, buffer
// ranges, ref types held in registers, division by zero -- is still checked
// where the instruction runs.
//
// Shape of the loop. `ip` points at the opcode byte of the next
// instruction in the function's quickened copy (quickened_code.h): the
// verified bytecode with some hot instructions rewritten, at the same pcs,
// into internal forms -- direct ExtF32 opcodes, branches with relative
// targets and unpadded scalar copies, fused compare-and-branch, and loop
// back edges whose copies were coalesced away. Operands are read from it at
// offsets the opcode table fixes at compile time
// (bytecode/instruction_layout.h): a register is a u16 at ip + k, so
// `%i2 = vm.add.i32 %i0, %i1` costs three u16 loads, three register
// accesses and the dispatch. Instructions with a variable-length field
// (register and remap lists, strings) read it with a Cursor that applies the
// encoding's padding rule.
//
// Dispatch is threaded code (GCC/Clang labels-as-values: every handler ends
// in its own indirect jump, which branch predictors like) unless
// EMBER_VM_DISPATCH_SWITCH is defined or the compiler lacks the extension;
// then the same handlers become the cases of a switch. Both forms come from
// the one opcode table: the label tables are built by expanding it, and the
// case labels are its enums.
//
// Errors leave the loop through `fail`, which records the pc of the failing
// instruction in its frame so Run can annotate the status with a stack trace.
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/base/trace.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/bytecode/bytecode_module_state_internal.h"
#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/instruction_layout.h"
#include "runtime/vm/bytecode/opcode_table.h"
#include "runtime/vm/bytecode/quickened_code.h"
#include "runtime/vm/list.h"

namespace ember::vm::bytecode {
namespace {

using bytecode::InstructionLayout;
using bytecode::kImportOrdinalBit;
using bytecode::kIntOrdinalMask;
using bytecode::kRefMoveBit;
using bytecode::kRefOrdinalMask;
using bytecode::kRefRegisterBit;
using bytecode::OpcodeSet;
using bytecode::RegisterList;
using bytecode::RemapList;

using FunctionInfo = BytecodeModule::FunctionInfo;

// A handler's instruction layout, as a type (see OP below).
template <const InstructionLayout& kLayout>
struct LayoutOf {
  static constexpr const InstructionLayout& value = kLayout;
};

// An operand offset that must be a compile-time constant.
template <int kOffset>
constexpr int Fixed() {
  static_assert(kOffset >= 0, "field follows a variable-length field");
  return kOffset;
}

// Reads fields sequentially from `p`, padding lists to an even offset
// relative to the function start as the encoding requires.
class Cursor {
 public:
  Cursor(const uint8_t* function, const uint8_t* p)
      : function_(function), p_(p) {}
  const uint8_t* position() const { return p_; }

  uint16_t Half() {
    uint16_t value = LoadLE<uint16_t>(p_);
    p_ += 2;
    return value;
  }
  uint32_t Word() {
    uint32_t value = LoadLE<uint32_t>(p_);
    p_ += 4;
    return value;
  }
  RegisterList List() {
    AlignTo2();
    uint16_t count = LoadLE<uint16_t>(p_);
    RegisterList list(p_ + 2, count);
    p_ += 2 + size_t{2} * count;
    return list;
  }
  RemapList Remap() {
    AlignTo2();
    uint16_t count = LoadLE<uint16_t>(p_);
    RemapList remap(p_ + 2, count);
    p_ += 2 + size_t{4} * count;
    return remap;
  }
  std::string_view String() {
    uint16_t length = LoadLE<uint16_t>(p_);
    std::string_view text(reinterpret_cast<const char*>(p_ + 2), length);
    p_ += 2 + size_t{length};
    return text;
  }
  // Skips one field of any kind (br_table cases included).
  void Skip(bytecode::FieldKind kind) {
    using bytecode::FieldEncoding;
    switch (bytecode::GetFieldTraits(kind).encoding) {
      case FieldEncoding::kRegister: p_ += 2; break;
      case FieldEncoding::kU32: p_ += 4; break;
      case FieldEncoding::kU64: p_ += 8; break;
      case FieldEncoding::kString: String(); break;
      case FieldEncoding::kRegisterList: List(); break;
      case FieldEncoding::kRemapList: Remap(); break;
      case FieldEncoding::kBranchTable: {
        uint16_t count = Half();
        for (uint16_t i = 0; i < count; ++i) {
          Word();
          Remap();
        }
        break;
      }
      case FieldEncoding::kNone: break;
    }
  }

 private:
  void AlignTo2() { p_ += (p_ - function_) & 1; }

  const uint8_t* function_;
  const uint8_t* p_;
};

// The end of the instruction at `ip`, walking the variable fields.
const uint8_t* InstructionEnd(const InstructionLayout& layout,
                              const uint8_t* function, const uint8_t* ip) {
  if (layout.size != InstructionLayout::kVariable) return ip + layout.size;
  int first_variable = 0;
  while (layout.offsets[first_variable + 1] != InstructionLayout::kVariable) {
    ++first_variable;
  }
  Cursor cursor(function, ip + layout.offsets[first_variable]);
  for (int i = first_variable; i < layout.field_count; ++i) {
    cursor.Skip(layout.kinds[i]);
  }
  return cursor.position();
}

struct Frame {
  uint32_t function = 0;
  const FunctionInfo* info = nullptr;
  const uint8_t* code = nullptr;  // the quickened copy (quickened_code.h)
  // The pc of the instruction being executed (of the pending call, while a
  // callee runs); written when the frame is left or fails, for stack traces.
  uint32_t pc = 0;
  // One slack slot past the count (harmless; the verifier keeps every
  // 64-bit pair inside the count).
  std::vector<uint32_t> i32;
  std::vector<VmRef> refs;
  // Set while this frame calls an internal function: where the callee's
  // results go and where execution continues afterwards.
  RegisterList return_registers;
  uint32_t return_pc = 0;
  // When the frame was entered, while a trace records (trace.h); 0 when not.
  uint64_t trace_begin = 0;
};

// 64-bit values live in two consecutive registers, low word first.
inline int64_t LoadI64(const uint32_t* regs, uint16_t reg) {
  return static_cast<int64_t>(static_cast<uint64_t>(regs[reg]) |
                              (static_cast<uint64_t>(regs[reg + 1]) << 32));
}
inline void StoreI64(uint32_t* regs, uint16_t reg, int64_t value) {
  regs[reg] = static_cast<uint32_t>(value);
  regs[reg + 1] = static_cast<uint32_t>(static_cast<uint64_t>(value) >> 32);
}
// A ref read honouring MOVE: the register is cleared when it is set.
static_assert(RegisterCall::kRefBit == kRefRegisterBit &&
                  RegisterCall::kMoveBit == kRefMoveBit &&
                  RegisterCall::kRefOrdinalMask == kRefOrdinalMask,
              "RegisterCall uses the bytecode's register encoding");

inline VmRef ReadRef(VmRef* refs, uint16_t reg) {
  VmRef& slot = refs[reg & kRefOrdinalMask];
  return (reg & kRefMoveBit) ? slot.Take() : slot;
}

// One ref operand copy of a branch, out of line: refs are rare in branch
// operands, and inlining the ref-count traffic into every branch handler
// costs the i32 copies their registers.
[[gnu::noinline, gnu::cold]] void RemapRef(VmRef* refs, uint16_t source,
                                           uint16_t destination) {
  VmRef value = ReadRef(refs, source);
  refs[destination & kRefOrdinalMask] = std::move(value);
}

// Applies a branch's operand copies in order, as IREE does (the compiler
// orders them so that sequential copies are correct). Each entry is a
// (source, destination) pair of u16 register ordinals. `frame` supplies the
// ref registers, which only the (cold) ref copies need.
[[gnu::always_inline]] inline void RemapOne(uint32_t* regs, Frame* frame,
                                            uint16_t source,
                                            uint16_t destination) {
  if (source & kRefRegisterBit) [[unlikely]] {
    RemapRef(frame->refs.data(), source, destination);
  } else {
    regs[destination] = regs[source];
  }
}
[[gnu::always_inline]] inline void Remap(uint32_t* regs, Frame* frame,
                                         RemapList remap) {
  const size_t count = remap.size();
  for (size_t i = 0; i < count; ++i) {
    RemapOne(regs, frame, remap.source(i), remap.destination(i));
  }
}

// Boxing space of an import call, one per nesting level of import calls.
struct ImportScratch {
  std::vector<Variant> arguments;
  std::vector<Variant> results;
};

}  // namespace

struct InterpreterStack {
  std::vector<std::unique_ptr<Frame>> frames;
  std::vector<std::unique_ptr<ImportScratch>> import_scratch;
};

void InterpreterStackDeleter::operator()(InterpreterStack* stack) const {
  delete stack;
}

namespace {

class Interpreter {
 public:
  Interpreter(Context& context, const BytecodeModule& module,
              BytecodeModuleState& state)
      : context_(context),
        module_(module),
        state_(state),
        stack_(state.spare_stack
                   ? std::move(state.spare_stack)
                   : std::unique_ptr<InterpreterStack, InterpreterStackDeleter>(
                         new InterpreterStack())),
        frames_(stack_->frames),
        import_scratch_(stack_->import_scratch) {}

  ~Interpreter() {
    while (depth_ > 0) PopFrame();
    if (!state_.spare_stack) state_.spare_stack = std::move(stack_);
  }

  Status Run(uint32_t ordinal, std::span<const Variant> arguments,
             std::span<Variant> results, Variant* movable) {
    results_ = results;
    Status status = Enter(ordinal, arguments, movable);
    if (status.ok()) status = Loop();
    if (!status.ok()) {
      for (size_t i = depth_; i-- > 0;) {
        const Frame& frame = *frames_[i];
        std::string location =
            module_.file().SourceLocation(frame.function, frame.pc);
        std::string note =
            "in " + module_.QualifiedFunctionName(frame.function);
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
    EMBER_ASSIGN_OR_RETURN(const uint8_t* code, module_.QuickenedCode(ordinal));
    EMBER_RETURN_IF_ERROR(context_.EnterFrame());
    if (depth_ == frames_.size()) frames_.push_back(std::make_unique<Frame>());
    Frame* frame = frames_[depth_++].get();
    frame->function = ordinal;
    frame->info = &module_.function_info(ordinal);
    frame->code = code;
    frame->pc = 0;
    frame->i32.assign(frame->info->i32_register_count + 1u, 0);
    frame->refs.clear();
    frame->refs.resize(frame->info->ref_register_count);
    frame->return_registers = RegisterList();
    frame->return_pc = 0;
    frame->trace_begin = trace::BeginNs();
    return frame;
  }

  void PopFrame() {
    Frame* frame = frames_[--depth_].get();
    frame->refs.clear();  // releases every ref the frame still holds
    if (frame->trace_begin != 0) [[unlikely]]
      TraceFrame(*frame);
    context_.LeaveFrame();
  }

  [[gnu::cold, gnu::noinline]] void TraceFrame(const Frame& frame) const {
    const std::string_view debug_name =
        module_.file().FunctionDebugName(frame.function);
    if (!debug_name.empty()) {
      trace::CompleteQualified(trace::Category::kFrame, module_.name(),
                               debug_name, frame.trace_begin);
    } else {
      trace::Complete(trace::Category::kFrame,
                      module_.QualifiedFunctionName(frame.function),
                      frame.trace_begin);
    }
  }

  // Host entry: the arguments come from outside and are checked here.
  // With `movable` (the arguments, writable), refs are moved into the
  // frame instead of retained.
  Status Enter(uint32_t ordinal, std::span<const Variant> arguments,
               Variant* movable) {
    if (ordinal >= module_.function_count()) {
      return OutOfRangeError(
          StringPrintf("function ordinal %u out of range", ordinal));
    }
    EMBER_ASSIGN_OR_RETURN(Frame * frame, PushFrame(ordinal));
    const FunctionInfo& info = *frame->info;
    if (info.cconv == nullptr) {
      return FailedPreconditionError(
          "function " + module_.QualifiedFunctionName(ordinal) +
          " has no calling convention and cannot be called from outside");
    }
    const CallingConvention& cconv = *info.cconv;
    const std::span<const CconvSlot> types = info.arguments;
    if (arguments.size() != types.size()) {
      return InvalidArgumentError(
          StringPrintf("%s expects %zu arguments (cconv '%.*s'), got %zu",
                       module_.QualifiedFunctionName(ordinal).c_str(),
                       types.size(), static_cast<int>(cconv.text.size()),
                       cconv.text.data(), arguments.size()));
    }
    // The verifier proved that the cconv's arguments fit the register
    // counts, which places every one at its slot's ordinal.
    for (size_t i = 0; i < types.size(); ++i) {
      const CconvSlot slot = types[i];
      const Variant& argument = arguments[i];
      if (slot.type == CconvType::kRef) {
        if (argument.is_value()) {
          return InvalidArgumentError(StringPrintf(
              "argument %zu: expected a ref, got %s", i,
              std::string(ValueTypeName(argument.value().type())).c_str()));
        }
        if (movable != nullptr) {
          frame->refs[slot.ordinal] = movable[i].TakeRef();
        } else {
          frame->refs[slot.ordinal] = argument.ref();
        }
        continue;
      }
      ValueType expected = ValueTypeOfCconv(slot.type);
      if (expected == ValueType::kNone) {
        return UnimplementedError(StringPrintf(
            "argument %zu: cconv type '%c' is not supported on bytecode "
            "functions",
            i, CconvChar(slot.type)));
      }
      if (!argument.is_value() || argument.value().type() != expected) {
        return InvalidArgumentError(StringPrintf(
            "argument %zu: expected %s, got %s", i, CconvTypeName(slot.type),
            argument.is_ref() ? "a ref"
            : argument.is_empty()
                ? "nothing"
                : std::string(ValueTypeName(argument.value().type())).c_str()));
      }
      uint64_t bits = argument.value().bits();
      frame->i32[slot.ordinal] = static_cast<uint32_t>(bits);
      if (IsWideCconvType(slot.type)) {
        frame->i32[slot.ordinal + 1] = static_cast<uint32_t>(bits >> 32);
      }
    }
    return Status::Ok();
  }

  // ---- calls --------------------------------------------------------------
  // Copies `operands` of `caller` into the argument slots of `callee`. The
  // verifier matched the operands to the callee's cconv one to one.
  static void CopyArguments(Frame& caller, RegisterList operands,
                            Frame& callee) {
    const CconvSlot* slots = callee.info->arguments.data();
    for (size_t i = 0; i < operands.size(); ++i) {
      const uint16_t reg = operands[i];
      const CconvSlot slot = slots[i];
      if (reg & kRefRegisterBit) {
        callee.refs[slot.ordinal] = ReadRef(caller.refs.data(), reg);
        continue;
      }
      callee.i32[slot.ordinal] = caller.i32[reg];
      if (IsWideCconvType(slot.type)) {
        callee.i32[slot.ordinal + 1] = caller.i32[reg + 1];
      }
    }
  }

  // Boxes one register as a Variant of cconv type `type`.
  static Variant Box(Frame& f, uint16_t reg, CconvType type) {
    if (reg & kRefRegisterBit) return Variant(ReadRef(f.refs.data(), reg));
    uint32_t o = reg & kIntOrdinalMask;
    switch (type) {
      case CconvType::kI64:
        return Variant(Value::I64(LoadI64(f.i32.data(), o)));
      case CconvType::kF64:
        return Variant(
            Value::F64(std::bit_cast<double>(LoadI64(f.i32.data(), o))));
      case CconvType::kF32:
        return Variant(Value::F32(std::bit_cast<float>(f.i32[o])));
      default: return Variant(Value::I32(static_cast<int32_t>(f.i32[o])));
    }
  }

  // Writes a boxed import result of cconv type `type` into register `reg`
  // (the verifier put `reg` in the bank `type` names; the value is the
  // callee's).
  static Status Unbox(Frame& f, uint16_t reg, CconvType type, Variant& value) {
    if (type == CconvType::kRef) {
      if (value.is_value())
        return InternalError("import returned a value for a ref result");
      f.refs[reg & kRefOrdinalMask] = value.TakeRef();
      return Status::Ok();
    }
    ValueType expected = ValueTypeOfCconv(type);
    if (!value.is_value() || value.value().type() != expected) {
      return InternalError(StringPrintf(
          "import returned a wrong type for a %s result", CconvTypeName(type)));
    }
    if (IsWideCconvType(type)) {
      StoreI64(f.i32.data(), reg, value.value().i64());
    } else {
      f.i32[reg] = static_cast<uint32_t>(value.value().bits());
    }
    return Status::Ok();
  }

  // The register call of an import: the callee reads `operands` and writes
  // `results` in `f`'s registers.
  [[gnu::always_inline]] static RegisterCall MakeRegisterCall(
      Frame& f, const RegisterList* segment_sizes, RegisterList operands,
      RegisterList results) {
    RegisterCall call;
    call.i32 = f.i32.data();
    call.refs = f.refs.data();
    call.arguments = operands.data();
    call.argument_count = operands.size();
    if (segment_sizes != nullptr) {
      call.segment_sizes = segment_sizes->data();
      call.segment_count = segment_sizes->size();
    }
    call.results = results.data();
    call.result_count = results.size();
    return call;
  }

  // Import call: boxes operands per the import's cconv (spans per
  // `segment_sizes` when variadic), calls through the Context, unboxes. The
  // verifier matched operand and result lists to the import's cconv.
  //
  // The common case -- a native callee already resolved for this context,
  // no tracing -- is inline in the call ops: it reads the cached target and
  // calls it with this frame's registers, touching neither the import
  // table nor the callee module.
  [[gnu::always_inline]] Status CallImport(Frame& f, uint32_t function_ordinal,
                                           const RegisterList* segment_sizes,
                                           RegisterList operands,
                                           RegisterList results) {
    const uint32_t index = function_ordinal & ~kImportOrdinalBit;
    const BytecodeModuleState::ImportTarget& callee =
        state_.import_targets[index];
    if (callee.direct.call == nullptr || trace::Enabled()) [[unlikely]] {
      return CallImportSlow(f, index, segment_sizes, operands, results);
    }
    const RegisterCall call =
        MakeRegisterCall(f, segment_sizes, operands, results);
    EMBER_RETURN_IF_ERROR(context_.EnterFrame());
    Status status = callee.direct.call(*callee.state, callee.direct.name, call);
    context_.LeaveFrame();
    if (!status.ok()) [[unlikely]] {
      return ImportFailed(std::move(status), index);
    }
    return Status::Ok();
  }

  // Everything else: the first call of an import in this context (which
  // resolves it), traced calls, modules without register calls (boxed).
  [[gnu::noinline]] Status CallImportSlow(Frame& f, uint32_t index,
                                          const RegisterList* segment_sizes,
                                          RegisterList operands,
                                          RegisterList results) {
    const Function& target = state_.imports[index];
    if (target.is_null()) [[unlikely]] {
      return NotFoundError("optional import '" +
                           std::string(module_.import_info(index).full_name) +
                           "' is not resolved");
    }
    if (target.module->SupportsRegisterCalls()) {
      // Native callee: it reads and writes this frame's registers itself.
      // Its state and the function serving the import are looked up once
      // per context and import.
      BytecodeModuleState::ImportTarget& callee = state_.import_targets[index];
      if (callee.state == nullptr) [[unlikely]] {
        callee.state = context_.FindState(target.module);
        if (callee.state == nullptr) {
          return FailedPreconditionError("module '" +
                                         std::string(target.module->name()) +
                                         "' is not registered in this context");
        }
        callee.direct = target.module->ResolveRegisterCall(target);
      }
      const RegisterCall call =
          MakeRegisterCall(f, segment_sizes, operands, results);
      EMBER_RETURN_IF_ERROR(context_.EnterFrame());
      // Traced calls go through the module, which records them.
      Status status =
          callee.direct.call != nullptr && !trace::Enabled()
              ? callee.direct.call(*callee.state, callee.direct.name, call)
              : target.module->CallWithRegisters(context_, *callee.state,
                                                 target, call);
      context_.LeaveFrame();
      if (!status.ok()) [[unlikely]] {
        return ImportFailed(std::move(status), index);
      }
      return Status::Ok();
    }
    ImportInfo import = module_.import_info(index);
    const FunctionInfo& signature = module_.import_signature(index);
    const std::span<const CconvSlot> types = signature.arguments;
    // Boxed arguments and results live in vectors kept per import depth, so
    // the calls of one invocation reuse their capacity instead of
    // allocating; they are cleared after the call so no ref outlives it.
    if (import_depth_ == import_scratch_.size()) {
      import_scratch_.push_back(std::make_unique<ImportScratch>());
    }
    ImportScratch& scratch = *import_scratch_[import_depth_];
    struct DepthGuard {
      Interpreter& self;
      ImportScratch& scratch;
      ~DepthGuard() {
        scratch.arguments.clear();
        scratch.results.clear();
        --self.import_depth_;
      }
    } guard{*this, scratch};
    ++import_depth_;
    std::vector<Variant>& arguments = scratch.arguments;
    arguments.reserve(operands.size() + types.size());
    size_t next_operand = 0;
    size_t segment = 0;
    for (size_t i = 0; i < types.size(); ++i) {
      const CconvSlot slot = types[i];
      if (slot.type != CconvType::kSpanBegin) {
        ++segment;
        arguments.push_back(Box(f, operands[next_operand++], slot.type));
        continue;
      }
      const size_t body = i + 1;
      const size_t end = slot.ordinal;
      i = end;
      int count = static_cast<int16_t>((*segment_sizes)[segment++]);
      arguments.push_back(Variant(Value::I32(count)));
      for (int t = 0; t < count; ++t) {
        for (size_t b = body; b < end; ++b) {
          arguments.push_back(Box(f, operands[next_operand++], types[b].type));
        }
      }
    }
    const std::span<const CconvSlot> result_types = signature.results;
    std::vector<Variant>& boxed_results = scratch.results;
    boxed_results.resize(result_types.size());
    EMBER_RETURN_IF_ERROR(context_.Call(target, arguments, boxed_results),
                          "calling import '%.*s'",
                          static_cast<int>(import.full_name.size()),
                          import.full_name.data());
    for (size_t i = 0; i < results.size(); ++i) {
      EMBER_RETURN_IF_ERROR(
          Unbox(f, results[i], result_types[i].type, boxed_results[i]));
    }
    return Status::Ok();
  }

  [[gnu::cold, gnu::noinline]] Status ImportFailed(Status status,
                                                   uint32_t index) const {
    const std::string_view name = module_.import_info(index).full_name;
    return std::move(status).Annotate("calling import '" + std::string(name) +
                                      "'");
  }

  // vm.return from the entry frame: the results go out to the host.
  Status ReturnToHost(Frame& f, RegisterList operands) {
    const FunctionInfo& info = *f.info;
    if (results_.size() != operands.size()) {
      return InvalidArgumentError(
          StringPrintf("caller expects %zu results, function returns %u",
                       results_.size(), operands.size()));
    }
    for (size_t i = 0; i < operands.size(); ++i) {
      CconvType type = info.cconv != nullptr             ? info.results[i].type
                       : (operands[i] & kRefRegisterBit) ? CconvType::kRef
                                                         : CconvType::kI32;
      results_[i] = Box(f, operands[i], type);
    }
    return Status::Ok();
  }

  // vm.return to a bytecode caller: copies the results into the caller's
  // pending result registers (same count and banks: both lists match the
  // callee's cconv) and pops the callee.
  void ReturnToCaller(Frame& f, RegisterList operands, Frame& caller) {
    const FunctionInfo& info = *f.info;
    RegisterList destinations = caller.return_registers;
    for (size_t i = 0; i < operands.size(); ++i) {
      uint16_t source = operands[i];
      uint16_t destination = destinations[i];
      if (source & kRefRegisterBit) {
        caller.refs[destination & kRefOrdinalMask] =
            ReadRef(f.refs.data(), source);
      } else {
        caller.i32[destination] = f.i32[source];
        if (IsWideCconvType(info.results[i].type)) {
          caller.i32[destination + 1] = f.i32[source + 1];
        }
      }
    }
    PopFrame();
    caller.pc = caller.return_pc;
    caller.return_registers = RegisterList();
  }

  // ---- helpers for typed ref operands -------------------------------------
  static Result<Buffer*> BufferOf(const VmRef& ref) {
    Buffer* buffer = ref.As<Buffer>();
    if (buffer != nullptr) [[likely]]
      return buffer;
    if (ref.is_null()) return InvalidArgumentError("buffer is null");
    return InvalidArgumentError("ref is not a vm.buffer (" +
                                std::string(ref.type()->name()) + ")");
  }
  // The descriptor is compared directly (List::Type() is an out-of-line
  // call, and list operands are hot in list-heavy code).
  Result<List*> ListOf(const VmRef& ref) const {
    if (ref.type() == list_type_) [[likely]]
      return static_cast<List*>(ref.get());
    return NotAList(ref);
  }
  // The list behind `ref`, or null when it is not one (the caller then takes
  // the ListOf path, which reports the error).
  List* ListOrNull(const VmRef& ref) const {
    return ref.type() == list_type_ ? static_cast<List*>(ref.get()) : nullptr;
  }
  [[gnu::noinline]] static Status NotAList(const VmRef& ref) {
    if (ref.is_null()) return InvalidArgumentError("list is null");
    return InvalidArgumentError("ref is not a vm.list (" +
                                std::string(ref.type()->name()) + ")");
  }
  const TypeDef& TypeOf(uint32_t ordinal) const {
    return module_.types()[ordinal];
  }
  // Indirect globals: the offset is a run-time value.
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
      return OutOfRangeError(
          StringPrintf("ref global %u out of range", ordinal));
    }
    return &state_.ref_globals[ordinal];
  }
  static Status CheckRefType(const TypeDef& type, const VmRef& ref) {
    if (TypeAcceptsRef(type, ref)) return Status::Ok();
    return InvalidArgumentError("ref of type " +
                                std::string(ref.type()->name()) + " where " +
                                type.ToString() + " is expected");
  }
  static Status DivisionByZero(const char* mnemonic) {
    return InvalidArgumentError(std::string(mnemonic) + ": division by zero");
  }

  Status Loop();

  const RefType* const list_type_ = &List::Type();
  Context& context_;
  const BytecodeModule& module_;
  BytecodeModuleState& state_;
  std::unique_ptr<InterpreterStack, InterpreterStackDeleter> stack_;
  std::vector<std::unique_ptr<Frame>>& frames_;
  // Boxing space of CallImport, one level per nested import call.
  std::vector<std::unique_ptr<ImportScratch>>& import_scratch_;
  size_t import_depth_ = 0;
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
// Fused multiply-add, rounded once as vm.fma requires. Without -mfma the
// compiler calls libm's fmaf/fma through the PLT; on x86-64 CPUs with FMA3
// (tested on each call through the flag libgcc caches at startup) one
// vfmadd does the same exact operation inline.
inline float FusedMultiplyAdd(float a, float b, float c) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__FMA__)
  if (__builtin_cpu_supports("fma")) [[likely]] {
    asm("vfmadd213ss %2, %1, %0" : "+x"(a) : "x"(b), "x"(c));  // a = b*a + c
    return a;
  }
#endif
  return std::fma(a, b, c);
}
inline double FusedMultiplyAdd(double a, double b, double c) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__FMA__)
  if (__builtin_cpu_supports("fma")) [[likely]] {
    asm("vfmadd213sd %2, %1, %0" : "+x"(a) : "x"(b), "x"(c));  // a = b*a + c
    return a;
  }
#endif
  return std::fma(a, b, c);
}
// For FMAF32Hw, which the quickened copy uses only when the CPU has FMA3.
inline float FusedMultiplyAddHw(float a, float b, float c) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__FMA__)
  asm("vfmadd213ss %2, %1, %0" : "+x"(a) : "x"(b), "xm"(c));  // a = b*a + c
  return a;
#else
  return std::fma(a, b, c);
#endif
}
// a + b and a * b with a as the first operand of the instruction: when both
// are NaNs the result carries a's payload (x86 keeps the first source's).
// C++ leaves the order of a commutative operation to the compiler, which
// then decides the payload; IREE's handlers compute lhs op rhs with lhs
// first, and forwarding and immediates must not change the answer either.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
inline float AddFirst(float a, float b) {
  asm("addss %1, %0" : "+x"(a) : "x"(b));
  return a;
}
inline float MulFirst(float a, float b) {
  asm("mulss %1, %0" : "+x"(a) : "x"(b));
  return a;
}
inline double AddFirst(double a, double b) {
  asm("addsd %1, %0" : "+x"(a) : "x"(b));
  return a;
}
inline double MulFirst(double a, double b) {
  asm("mulsd %1, %0" : "+x"(a) : "x"(b));
  return a;
}
#else
template <typename T>
T AddFirst(T a, T b) {
  return a + b;
}
template <typename T>
T MulFirst(T a, T b) {
  return a * b;
}
#endif
float RoundEven(float x) { return std::nearbyint(x); }
double RoundEven(double x) { return std::nearbyint(x); }
// vm.fpowi (IREE 3.12+): x to an integer power, computed as the official
// runtime computes it so that results agree bit for bit
// (docs/module-format.md, "Opcode table"): the i64 exponent is first
// truncated to its low 32 bits (2^32 + 3 means 3, INT64_MIN means 0), then
// x^|n| is the product of the squares x^(2^k) of the set bits of |n|, taken
// in increasing k, each product rounded; a negative n takes the reciprocal
// of that. For large |n| this differs from pow(x, n) in the last bits, on
// purpose. n = 0 gives 1 even for a NaN x; n = 1 returns x itself (a
// signalling NaN unchanged).
template <typename T>
T PowI(T x, int64_t exponent) {
  const auto n = static_cast<int32_t>(static_cast<uint32_t>(exponent));
  uint32_t bits =
      n < 0 ? 0u - static_cast<uint32_t>(n) : static_cast<uint32_t>(n);
  T result = (bits & 1u) ? x : T(1);
  while ((bits >>= 1) != 0) {
    x = MulFirst(x, x);
    if (bits & 1u) result = MulFirst(result, x);
  }
  return n < 0 ? T(1) / result : result;
}

#if EMBER_VM_COMPUTED_GOTO
// Per-set tables of handler addresses indexed by opcode byte. Label
// addresses exist only inside Loop, which hands them over in table order
// (`dense`); opcode bytes without an instruction go to `unknown`.
struct DispatchTables {
  const void* core[256];
  const void* ext_f32[256];
  const void* ext_f64[256];
};

template <size_t N>
void FillTable(const void* (&table)[256], const uint8_t (&bytes)[N],
               const void* const* dense, const void* unknown) {
  for (const void*& slot : table) slot = unknown;
  for (size_t i = 0; i < N; ++i) table[bytes[i]] = dense[i];
}

DispatchTables BuildDispatchTables(const void* const* core,
                                   const void* const* ext_f32,
                                   const void* const* ext_f64,
                                   const void* const* exec,
                                   const void* unknown) {
  DispatchTables tables;
  FillTable(tables.core, bytecode::kCoreOpcodeBytes, core, unknown);
  // The quickened copy's internal opcodes (quickened_code.h) share the
  // core table: direct ExtF32 opcodes, then the rewritten branches.
  if constexpr (kDirectExtF32) {
    // ext_f32 is dense, in kExtF32OpcodeBytes order.
    for (size_t d = 0; d < kDirectExtF32Count; ++d) {
      for (size_t i = 0; i < std::size(bytecode::kExtF32OpcodeBytes); ++i) {
        if (bytecode::kExtF32OpcodeBytes[i] == kDirectExtF32Ops[d]) {
          tables.core[kFirstDirectExtF32Opcode + d] = ext_f32[i];
        }
      }
    }
  }
  static constexpr uint8_t kQuickBytes[] = {
#define EMBER_VM_EXEC_BYTE(name, byte) byte,
      EMBER_VM_EXEC_OPCODES(EMBER_VM_EXEC_BYTE)
#undef EMBER_VM_EXEC_BYTE
  };
  for (size_t i = 0; i < std::size(kQuickBytes); ++i) {
    tables.core[kQuickBytes[i]] = exec[i];
  }
  FillTable(tables.ext_f32, bytecode::kExtF32OpcodeBytes, ext_f32, unknown);
  FillTable(tables.ext_f64, bytecode::kExtF64OpcodeBytes, ext_f64, unknown);
  return tables;
}
#endif

// ---- the handler vocabulary -------------------------------------------------
// OP(Set, Name) starts a handler and binds L to the instruction's layout;
// BEGIN_EXT_OPS(prefix, table) ... END_OPS wraps the handlers of one
// extension set, dispatched on the byte after the prefix.
// Every handler ends by transferring control: NEXT() (fixed-length
// instructions), JUMP_TO(p) or a return/fail.
//
// L is a type (LayoutOf<layout>), not a variable: an indirect goto may reach
// any label, and C++ forbids jumping into the scope of an initialised
// variable (Clang rejects it), while a typedef has no initialisation.
#if EMBER_VM_COMPUTED_GOTO
#define OP(set, name)                                                      \
  op_##set##_##name                                                        \
      : if constexpr (typedef LayoutOf<bytecode::layouts::k##set##name> L; \
                      true)
#define XOP(name) op_Quick_##name:
#if defined(__x86_64__) && !defined(__clang__)
// GCC hoists the table's address into a register and, short of registers in
// this large function, spills it, putting a stack load in front of every
// dispatch. A volatile asm cannot be hoisted: each dispatch recomputes the
// address with one RIP-relative lea instead.
#define DISPATCH_TABLE()                                         \
  ({                                                             \
    const void* const* table;                                    \
    asm volatile("lea %1, %0" : "=r"(table) : "m"(tables.core)); \
    table;                                                       \
  })
#else
#define DISPATCH_TABLE() tables.core
#endif
#define DISPATCH() goto* DISPATCH_TABLE()[*ip]
#define BEGIN_CORE_OPS \
  DISPATCH();          \
  {
#define BEGIN_EXT_OPS(prefix, table)            \
  op_Core_##prefix : goto* tables.table[ip[1]]; \
  {
#define END_OPS }
#else
#define OP(set, name)                                     \
  case static_cast<uint8_t>(bytecode::set##Opcode::name): \
    if constexpr (typedef LayoutOf<bytecode::layouts::k##set##name> L; true)
#define XOP(name) case static_cast<uint8_t>(QuickOpcode::k##name):
#define DISPATCH() goto dispatch
#define BEGIN_CORE_OPS \
  dispatch:            \
  switch (*ip) {
#define BEGIN_EXT_OPS(prefix, table)                       \
  case static_cast<uint8_t>(bytecode::CoreOpcode::prefix): \
    switch (ip[1]) {
#define END_OPS                 \
  default: goto unknown_opcode; \
    }
#endif

#define AT(n) (ip + Fixed<L::value.offsets[n]>())
#define REG(n) LoadLE<uint16_t>(AT(n))
#define U32(n) LoadLE<uint32_t>(AT(n))
#define U64(n) LoadLE<uint64_t>(AT(n))
#define CURSOR(n) Cursor(code, ip + Fixed<L::value.offsets[n]>())
#define R32(n) regs[REG(n)]
#define S32(n) static_cast<int32_t>(R32(n))
#define GET64(n) LoadI64(regs, REG(n))
#define SET64(n, v) StoreI64(regs, REG(n), static_cast<int64_t>(v))
#define GETF32(n) std::bit_cast<float>(R32(n))
// Stores an i32 / f32 result and leaves it in acc (result forwarding).
#define PUT32(n, v) (acc = static_cast<uint32_t>(v), R32(n) = acc)
#define SETF32(n, v) PUT32(n, std::bit_cast<uint32_t>(static_cast<float>(v)))
#define ACC_F32() std::bit_cast<float>(static_cast<uint32_t>(acc))
#define GETF64(n) std::bit_cast<double>(GET64(n))
#define SETF64(n, v) SET64(n, std::bit_cast<int64_t>(static_cast<double>(v)))
#define REF(n) refs[REG(n) & kRefOrdinalMask]
#define NEXT()                    \
  do {                            \
    ip += Fixed<L::value.size>(); \
    DISPATCH();                   \
  } while (0)
#define JUMP_TO(p) \
  do {             \
    ip = (p);      \
    DISPATCH();    \
  } while (0)
// Error exits: the status goes to `error`, then to `fail`.
#define TRY(expr)                                                    \
  do {                                                               \
    if (Status try_status = (expr); !try_status.ok()) [[unlikely]] { \
      error = std::move(try_status);                                 \
      goto fail;                                                     \
    }                                                                \
  } while (0)
//
// No object with a destructor may be in scope where a handler dispatches: an
// indirect goto does not run destructors (Clang rejects such jumps, GCC
// skips the destructor). So with computed goto the Result of TRY_ASSIGN
// lives only inside a GNU statement expression, and handlers that hold a
// Ref or VmRef keep it in an inner block that closes before NEXT().
#define TRY_ASSIGN(lhs, expr) \
  TRY_ASSIGN_IMPL(EMBER_CONCAT(try_result_, __COUNTER__), lhs, expr)
#if EMBER_VM_COMPUTED_GOTO
#define TRY_ASSIGN_IMPL(tmp, lhs, expr) \
  lhs = ({                              \
    auto tmp = (expr);                  \
    if (!tmp.ok()) [[unlikely]] {       \
      error = std::move(tmp).status();  \
      goto fail;                        \
    }                                   \
    std::move(tmp).value();             \
  })
#else
#define TRY_ASSIGN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                    \
  if (!tmp.ok()) [[unlikely]] {         \
    error = std::move(tmp).status();    \
    goto fail;                          \
  }                                     \
  lhs = std::move(tmp).value()
#endif
#define FAIL(expr)  \
  do {              \
    error = (expr); \
    goto fail;      \
  } while (0)

#define BIN_I32(name, expr)                \
  OP(Core, name) {                         \
    [[maybe_unused]] int32_t a = S32(0);   \
    [[maybe_unused]] int32_t b = S32(1);   \
    [[maybe_unused]] uint32_t ua = R32(0); \
    [[maybe_unused]] uint32_t ub = R32(1); \
    PUT32(2, expr);                        \
    NEXT();                                \
  }
#define BIN_I64(name, expr)                                  \
  OP(Core, name) {                                           \
    [[maybe_unused]] int64_t a = GET64(0);                   \
    [[maybe_unused]] int64_t b = GET64(1);                   \
    [[maybe_unused]] uint64_t ua = static_cast<uint64_t>(a); \
    [[maybe_unused]] uint64_t ub = static_cast<uint64_t>(b); \
    SET64(2, expr);                                          \
    NEXT();                                                  \
  }
#define UN_I32(name, expr)                 \
  OP(Core, name) {                         \
    [[maybe_unused]] int32_t a = S32(0);   \
    [[maybe_unused]] uint32_t ua = R32(0); \
    R32(1) = static_cast<uint32_t>(expr);  \
    NEXT();                                \
  }
#define UN_I64(name, expr)                                   \
  OP(Core, name) {                                           \
    [[maybe_unused]] int64_t a = GET64(0);                   \
    [[maybe_unused]] uint64_t ua = static_cast<uint64_t>(a); \
    SET64(1, expr);                                          \
    NEXT();                                                  \
  }
#define CMP_I64(name, expr)                                  \
  OP(Core, name) {                                           \
    [[maybe_unused]] int64_t a = GET64(0);                   \
    [[maybe_unused]] int64_t b = GET64(1);                   \
    [[maybe_unused]] uint64_t ua = static_cast<uint64_t>(a); \
    [[maybe_unused]] uint64_t ub = static_cast<uint64_t>(b); \
    R32(2) = (expr) ? 1u : 0u;                               \
    NEXT();                                                  \
  }
#define DIV_GUARD(divisor)         \
  if ((divisor) == 0) [[unlikely]] \
  FAIL(DivisionByZero(L::value.mnemonic))
#define SIMPLE(set, name, stmt) \
  OP(set, name) {               \
    stmt;                       \
    NEXT();                     \
  }

// Float ops, one macro per shape, for the ExtF32 and ExtF64 sets.
#define FUN(SET, GET, PUT, name, expr) \
  OP(SET, name) {                      \
    auto x = GET(0);                   \
    PUT(1, expr);                      \
    NEXT();                            \
  }
#define FBIN(SET, GET, PUT, name, expr) \
  OP(SET, name) {                       \
    auto a = GET(0);                    \
    auto b = GET(1);                    \
    PUT(2, expr);                       \
    NEXT();                             \
  }
#define FCMP(SET, GET, name, expr) \
  OP(SET, name) {                  \
    auto a = GET(0);               \
    auto b = GET(1);               \
    R32(2) = (expr) ? 1u : 0u;     \
    NEXT();                        \
  }
#define FLOAT_OPS(SET, GET, PUT, T, Suffix)                          \
  FBIN(SET, GET, PUT, Add##Suffix, AddFirst(a, b))                   \
  FBIN(SET, GET, PUT, Sub##Suffix, a - b)                            \
  FBIN(SET, GET, PUT, Mul##Suffix, MulFirst(a, b))                   \
  FBIN(SET, GET, PUT, Div##Suffix, a / b)                            \
  FBIN(SET, GET, PUT, Rem##Suffix, std::remainder(a, b))             \
  FBIN(SET, GET, PUT, Min##Suffix, b < a ? b : a)                    \
  FBIN(SET, GET, PUT, Max##Suffix, a < b ? b : a)                    \
  FBIN(SET, GET, PUT, Atan2##Suffix, std::atan2(a, b))               \
  FBIN(SET, GET, PUT, Pow##Suffix, std::pow(a, b))                   \
  OP(SET, FMA##Suffix) {                                             \
    PUT(3, FusedMultiplyAdd(GET(0), GET(1), GET(2)));                \
    NEXT();                                                          \
  }                                                                  \
  FUN(SET, GET, PUT, Abs##Suffix, std::fabs(x))                      \
  FUN(SET, GET, PUT, Neg##Suffix, -x)                                \
  FUN(SET, GET, PUT, Ceil##Suffix, std::ceil(x))                     \
  FUN(SET, GET, PUT, Floor##Suffix, std::floor(x))                   \
  FUN(SET, GET, PUT, Round##Suffix, std::round(x))                   \
  FUN(SET, GET, PUT, Round##Suffix##Even, RoundEven(x))              \
  FUN(SET, GET, PUT, Atan##Suffix, std::atan(x))                     \
  FUN(SET, GET, PUT, Cos##Suffix, std::cos(x))                       \
  FUN(SET, GET, PUT, Sin##Suffix, std::sin(x))                       \
  FUN(SET, GET, PUT, Exp##Suffix, std::exp(x))                       \
  FUN(SET, GET, PUT, Exp2##Suffix, std::exp2(x))                     \
  FUN(SET, GET, PUT, ExpM1##Suffix, std::expm1(x))                   \
  FUN(SET, GET, PUT, Log##Suffix, std::log(x))                       \
  FUN(SET, GET, PUT, Log10##Suffix, std::log10(x))                   \
  FUN(SET, GET, PUT, Log1p##Suffix, std::log1p(x))                   \
  FUN(SET, GET, PUT, Log2##Suffix, std::log2(x))                     \
  FUN(SET, GET, PUT, Rsqrt##Suffix, T(1) / std::sqrt(x))             \
  FUN(SET, GET, PUT, Sqrt##Suffix, std::sqrt(x))                     \
  FUN(SET, GET, PUT, Tanh##Suffix, std::tanh(x))                     \
  FUN(SET, GET, PUT, Erf##Suffix, std::erf(x))                       \
  FCMP(SET, GET, CmpEQ##Suffix##O, a == b)                           \
  FCMP(SET, GET, CmpEQ##Suffix##U, std::isunordered(a, b) || a == b) \
  FCMP(SET, GET, CmpNE##Suffix##O, a != b)                           \
  FCMP(SET, GET, CmpNE##Suffix##U, std::isunordered(a, b) || a != b) \
  FCMP(SET, GET, CmpLT##Suffix##O, std::isless(a, b))                \
  FCMP(SET, GET, CmpLT##Suffix##U,                                   \
       std::isunordered(a, b) || std::isless(a, b))                  \
  FCMP(SET, GET, CmpLTE##Suffix##O, std::islessequal(a, b))          \
  FCMP(SET, GET, CmpLTE##Suffix##U,                                  \
       std::isunordered(a, b) || std::islessequal(a, b))             \
  OP(SET, CmpNaN##Suffix) {                                          \
    R32(1) = std::isnan(GET(0)) ? 1u : 0u;                           \
    NEXT();                                                          \
  }

// Loads one 4- or 8-byte primitive global into / out of registers.
#define GLOBAL_LOAD32(p) std::memcpy(&R32(1), (p), 4)
#define GLOBAL_STORE32(p) std::memcpy((p), &R32(1), 4)
#define GLOBAL_LOAD64(p)     \
  do {                       \
    int64_t v;               \
    std::memcpy(&v, (p), 8); \
    SET64(1, v);             \
  } while (0)
#define GLOBAL_STORE64(p)    \
  do {                       \
    int64_t v = GET64(1);    \
    std::memcpy((p), &v, 8); \
  } while (0)
#define GLOBAL_OPS(SET, Suffix, LOAD, STORE, WIDTH)     \
  OP(SET, GlobalLoad##Suffix) {                         \
    LOAD(rwdata + U32(0));                              \
    NEXT();                                             \
  }                                                     \
  OP(SET, GlobalStore##Suffix) {                        \
    STORE(rwdata + U32(0));                             \
    NEXT();                                             \
  }                                                     \
  OP(SET, GlobalLoadIndirect##Suffix) {                 \
    TRY_ASSIGN(uint8_t* p, GlobalBytes(R32(0), WIDTH)); \
    LOAD(p);                                            \
    NEXT();                                             \
  }                                                     \
  OP(SET, GlobalStoreIndirect##Suffix) {                \
    TRY_ASSIGN(uint8_t* p, GlobalBytes(R32(0), WIDTH)); \
    STORE(p);                                           \
    NEXT();                                             \
  }

#define BUFFER_LOAD(SET, name, T, PUT)                 \
  OP(SET, name) {                                      \
    TRY_ASSIGN(Buffer* buffer, BufferOf(REF(0)));      \
    TRY_ASSIGN(T v, buffer->LoadElement<T>(GET64(1))); \
    PUT;                                               \
    NEXT();                                            \
  }
#define BUFFER_STORE(SET, name, T, VALUE)                          \
  OP(SET, name) {                                                  \
    TRY_ASSIGN(Buffer* buffer, BufferOf(REF(0)));                  \
    TRY(buffer->StoreElement<T>(GET64(1), static_cast<T>(VALUE))); \
    NEXT();                                                        \
  }
#define BUFFER_FILL(SET, name, T, VALUE)                                     \
  OP(SET, name) {                                                            \
    TRY_ASSIGN(Buffer* buffer, BufferOf(REF(0)));                            \
    TRY(buffer->FillElements<T>(GET64(1), GET64(2), static_cast<T>(VALUE))); \
    NEXT();                                                                  \
  }

// Typed list element access: the inline fast path (a value list of exactly
// the requested type, index in range), else the general List call.
#define LIST_GET_FAST(T, VT, PUT)                         \
  if (List* fast = ListOrNull(REF(0))) [[likely]] {       \
    T v;                                                  \
    if (fast->TryGetExact<T>(R32(1), VT, v)) [[likely]] { \
      PUT;                                                \
      NEXT();                                             \
    }                                                     \
  }
#define LIST_SET_FAST(T, VT, VALUE)                         \
  if (List* fast = ListOrNull(REF(0))) [[likely]] {         \
    if (fast->TrySetExact<T>(R32(1), VT, VALUE)) [[likely]] \
      NEXT();                                               \
  }
// vm.list.get/set.<type>: the inline exact-type path, then the general one
// (width conversion, variant lists, errors). `PUT` stores `v` (a T).
#define LIST_GET_OP(SET, NAME, T, VT, ACCESSOR, PUT)       \
  OP(SET, NAME) {                                          \
    LIST_GET_FAST(T, VT, PUT)                              \
    TRY_ASSIGN(List* list, ListOf(REF(0)));                \
    TRY_ASSIGN(Value value, list->GetValueAs(R32(1), VT)); \
    {                                                      \
      T v = value.ACCESSOR();                              \
      PUT;                                                 \
    }                                                      \
    NEXT();                                                \
  }
#define LIST_SET_OP(SET, NAME, T, VT, MAKE, VALUE)   \
  OP(SET, NAME) {                                    \
    LIST_SET_FAST(T, VT, VALUE)                      \
    TRY_ASSIGN(List* list, ListOf(REF(0)));          \
    TRY(list->SetValue(R32(1), Value::MAKE(VALUE))); \
    NEXT();                                          \
  }

Status Interpreter::Loop() {
  // The executing frame, cached in locals; refreshed on call and return.
  Frame* f = frames_[depth_ - 1].get();
  const uint8_t* code = f->code;
  const uint8_t* ip = code + f->pc;
#if EMBER_VM_COMPUTED_GOTO && defined(__x86_64__) && !defined(__clang__)
  // Every handler indexes the register file. Left to itself GCC spills this
  // pointer in a function this large and reloads it from the stack in each
  // handler, which puts a load in front of every operand access on the
  // loop-carried path; pinned to a callee-saved register it stays put
  // (measured ~8% on bench/vm_loop). Clang keeps it in a register anyway.
  register uint32_t* regs asm("r13") = f->i32.data();
  // The last i32/f32 arithmetic result, for result forwarding
  // (quickened_code.h). Pinned like regs: measured 134 -> 118 ms on
  // bench/vm_loop with forwarding.
  register uint32_t acc asm("r14") = 0;
#else
  uint32_t* regs = f->i32.data();
  uint32_t acc = 0;
#endif
  Status error;
  // Refs and globals are off the arithmetic hot path; reading them through
  // `f` / `state_` leaves registers to the values every handler needs.
#define refs (f->refs.data())
#define rwdata (state_.rwdata.data())

#define ENTER_FRAME(frame) \
  do {                     \
    f = (frame);           \
    code = f->code;        \
    ip = code + f->pc;     \
    regs = f->i32.data();  \
  } while (0)

#if EMBER_VM_COMPUTED_GOTO
#define EMBER_VM_LABEL_ADDRESS(set, byte, id, ...) &&op_##set##_##id,
  static const void* const kCoreLabels[] = {
      EMBER_VM_CORE_OPCODES(EMBER_VM_LABEL_ADDRESS)};
  static const void* const kExtF32Labels[] = {
      EMBER_VM_EXT_F32_OPCODES(EMBER_VM_LABEL_ADDRESS)};
  static const void* const kExtF64Labels[] = {
      EMBER_VM_EXT_F64_OPCODES(EMBER_VM_LABEL_ADDRESS)};
#undef EMBER_VM_LABEL_ADDRESS
#define EMBER_VM_EXEC_LABEL_ADDRESS(name, byte) &&op_Quick_##name,
  static const void* const kQuickLabels[] = {
      EMBER_VM_EXEC_OPCODES(EMBER_VM_EXEC_LABEL_ADDRESS)};
#undef EMBER_VM_EXEC_LABEL_ADDRESS
  static const DispatchTables tables =
      BuildDispatchTables(kCoreLabels, kExtF32Labels, kExtF64Labels,
                          kQuickLabels, &&unknown_opcode);
#endif

  BEGIN_CORE_OPS
  // ---- globals ----------------------------------------------------------
  GLOBAL_OPS(Core, I32, GLOBAL_LOAD32, GLOBAL_STORE32, 4)
  GLOBAL_OPS(Core, I64, GLOBAL_LOAD64, GLOBAL_STORE64, 8)
  OP(Core, GlobalLoadRef) {
    VmRef& global = state_.ref_globals[U32(0)];
    TRY(CheckRefType(TypeOf(U32(1)), global));
    REF(2) = global;
    NEXT();
  }
  OP(Core, GlobalLoadIndirectRef) {
    TRY_ASSIGN(VmRef * global, RefGlobal(R32(0)));
    TRY(CheckRefType(TypeOf(U32(1)), *global));
    REF(2) = *global;
    NEXT();
  }
  OP(Core, GlobalStoreRef) {
    TRY(CheckRefType(TypeOf(U32(1)), REF(2)));
    state_.ref_globals[U32(0)] = ReadRef(refs, REG(2));
    NEXT();
  }
  OP(Core, GlobalStoreIndirectRef) {
    TRY_ASSIGN(VmRef * global, RefGlobal(R32(0)));
    TRY(CheckRefType(TypeOf(U32(1)), REF(2)));
    *global = ReadRef(refs, REG(2));
    NEXT();
  }
  // ---- constants --------------------------------------------------------
  SIMPLE(Core, ConstI32Zero, R32(0) = 0)
  SIMPLE(Core, ConstI32, R32(1) = U32(0))
  SIMPLE(Core, ConstI64Zero, SET64(0, 0))
  SIMPLE(Core, ConstI64, SET64(1, U64(0)))
  SIMPLE(Core, ConstRefZero, REF(0).reset())
  SIMPLE(Core, ConstRefRodata, REF(1) = module_.rodata_buffers()[U32(0)])
  // ---- lists ------------------------------------------------------------
  OP(Core, ListAlloc) {
    int32_t capacity = S32(1);
    if (capacity < 0) FAIL(InvalidArgumentError("negative list capacity"));
    {
      TRY_ASSIGN(Ref<List> list,
                 List::Create(TypeOf(U32(0)), static_cast<size_t>(capacity)));
      REF(2) = VmRef::Of(std::move(list));
    }
    NEXT();
  }
  OP(Core, ListReserve) {
    TRY_ASSIGN(List * list, ListOf(REF(0)));
    if (S32(1) < 0) FAIL(InvalidArgumentError("negative list capacity"));
    TRY(list->Reserve(R32(1)));
    NEXT();
  }
  OP(Core, ListSize) {
    if (List* fast = ListOrNull(REF(0))) [[likely]] {
      R32(1) = static_cast<uint32_t>(fast->size());
      NEXT();
    }
    TRY_ASSIGN(List * list, ListOf(REF(0)));
    R32(1) = static_cast<uint32_t>(list->size());
    NEXT();
  }
  OP(Core, ListResize) {
    if (List* fast = ListOrNull(REF(0))) [[likely]] {
      // A negative size reads as >= 2^31, beyond any capacity.
      if (fast->TryGrowInPlace(R32(1))) [[likely]]
        NEXT();
    }
    TRY_ASSIGN(List * list, ListOf(REF(0)));
    if (S32(1) < 0) FAIL(InvalidArgumentError("negative list size"));
    TRY(list->Resize(R32(1)));
    NEXT();
  }
  LIST_GET_OP(Core, ListGetI32, int32_t, ValueType::kI32, i32,
              R32(2) = static_cast<uint32_t>(v))
  LIST_SET_OP(Core, ListSetI32, int32_t, ValueType::kI32, I32, S32(2))
  LIST_GET_OP(Core, ListGetI64, int64_t, ValueType::kI64, i64, SET64(2, v))
  LIST_SET_OP(Core, ListSetI64, int64_t, ValueType::kI64, I64, GET64(2))
  OP(Core, ListGetRef) {
    TRY_ASSIGN(List * list, ListOf(REF(0)));
    {
      TRY_ASSIGN(VmRef value, list->GetRefOfType(R32(1), TypeOf(U32(2))));
      REF(3) = std::move(value);
    }
    NEXT();
  }
  OP(Core, ListSetRef) {
    TRY_ASSIGN(List * list, ListOf(REF(0)));
    if (REG(2) & kRefMoveBit) {
      TRY(list->SetRef(R32(1), std::move(REF(2))));
    } else {
      TRY(list->SetRef(R32(1), static_cast<const VmRef&>(REF(2))));
    }
    NEXT();
  }
  // ---- select / switch --------------------------------------------------
  SIMPLE(Core, SelectI32, R32(3) = R32(0) ? R32(1) : R32(2))
  SIMPLE(Core, SelectI64, SET64(3, R32(0) ? GET64(1) : GET64(2)))
  OP(Core, SelectRef) {
    bool condition = R32(0) != 0;
    uint16_t chosen_reg = condition ? REG(2) : REG(3);
    uint16_t other = condition ? REG(3) : REG(2);
    {
      VmRef chosen = ReadRef(refs, chosen_reg);
      if (other & kRefMoveBit) refs[other & kRefOrdinalMask].reset();
      REF(4) = std::move(chosen);
    }
    NEXT();
  }
  OP(Core, SwitchI32) {
    Cursor cursor = CURSOR(2);
    RegisterList values = cursor.List();
    uint32_t index = R32(0);
    regs[cursor.Half()] = index < values.size() ? regs[values[index]] : R32(1);
    JUMP_TO(cursor.position());
  }
  OP(Core, SwitchI64) {
    Cursor cursor = CURSOR(2);
    RegisterList values = cursor.List();
    uint32_t index = R32(0);
    int64_t v = index < values.size() ? LoadI64(regs, values[index]) : GET64(1);
    StoreI64(regs, cursor.Half(), v);
    JUMP_TO(cursor.position());
  }
  OP(Core, SwitchRef) {
    Cursor cursor = CURSOR(3);
    RegisterList values = cursor.List();
    uint32_t index = R32(0);
    uint16_t source = index < values.size() ? values[index] : REG(2);
    {
      VmRef value = ReadRef(refs, source);
      refs[cursor.Half() & kRefOrdinalMask] = std::move(value);
    }
    JUMP_TO(cursor.position());
  }
  // ---- i32 arithmetic ---------------------------------------------------
  BIN_I32(AddI32, ua + ub)
  BIN_I32(SubI32, ua - ub)
  BIN_I32(MulI32, ua * ub)
  OP(Core, DivI32S) {
    DIV_GUARD(R32(1));
    R32(2) = static_cast<uint32_t>(DivS32(S32(0), S32(1)));
    NEXT();
  }
  OP(Core, DivI32U) {
    DIV_GUARD(R32(1));
    R32(2) = R32(0) / R32(1);
    NEXT();
  }
  OP(Core, RemI32S) {
    DIV_GUARD(R32(1));
    R32(2) = static_cast<uint32_t>(RemS32(S32(0), S32(1)));
    NEXT();
  }
  OP(Core, RemI32U) {
    DIV_GUARD(R32(1));
    R32(2) = R32(0) % R32(1);
    NEXT();
  }
  SIMPLE(Core, FMAI32, PUT32(3, R32(0) * R32(1) + R32(2)))
  UN_I32(AbsI32, a < 0 ? 0u - ua : ua)
  BIN_I32(MinI32S, a < b ? a : b)
  BIN_I32(MinI32U, ua < ub ? ua : ub)
  BIN_I32(MaxI32S, a > b ? a : b)
  BIN_I32(MaxI32U, ua > ub ? ua : ub)
  // ---- i64 arithmetic ---------------------------------------------------
  BIN_I64(AddI64, ua + ub)
  BIN_I64(SubI64, ua - ub)
  BIN_I64(MulI64, ua * ub)
  OP(Core, DivI64S) {
    DIV_GUARD(GET64(1));
    SET64(2, DivS64(GET64(0), GET64(1)));
    NEXT();
  }
  OP(Core, DivI64U) {
    DIV_GUARD(GET64(1));
    SET64(2, static_cast<uint64_t>(GET64(0)) / static_cast<uint64_t>(GET64(1)));
    NEXT();
  }
  OP(Core, RemI64S) {
    DIV_GUARD(GET64(1));
    SET64(2, RemS64(GET64(0), GET64(1)));
    NEXT();
  }
  OP(Core, RemI64U) {
    DIV_GUARD(GET64(1));
    SET64(2, static_cast<uint64_t>(GET64(0)) % static_cast<uint64_t>(GET64(1)));
    NEXT();
  }
  SIMPLE(Core, FMAI64,
         SET64(3, static_cast<uint64_t>(GET64(0)) *
                          static_cast<uint64_t>(GET64(1)) +
                      static_cast<uint64_t>(GET64(2))))
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
  SIMPLE(Core, ShlI32, PUT32(2, R32(0) << (R32(1) & 31)))
  SIMPLE(Core, ShrI32S,
         PUT32(2, static_cast<uint32_t>(S32(0) >> (R32(1) & 31))))
  SIMPLE(Core, ShrI32U, PUT32(2, R32(0) >> (R32(1) & 31)))
  SIMPLE(Core, ShlI64,
         SET64(2, static_cast<uint64_t>(GET64(0)) << (R32(1) & 63)))
  SIMPLE(Core, ShrI64S, SET64(2, GET64(0) >> (R32(1) & 63)))
  SIMPLE(Core, ShrI64U,
         SET64(2, static_cast<uint64_t>(GET64(0)) >> (R32(1) & 63)))
  // ---- truncation and extension -----------------------------------------
  SIMPLE(Core, TruncI32I8, R32(1) = R32(0) & 0xFFu)
  SIMPLE(Core, TruncI32I16, R32(1) = R32(0) & 0xFFFFu)
  SIMPLE(Core, TruncI64I32, R32(1) = static_cast<uint32_t>(GET64(0)))
  SIMPLE(Core, ExtI8I32S,
         R32(1) = static_cast<uint32_t>(
             static_cast<int32_t>(static_cast<int8_t>(R32(0)))))
  SIMPLE(Core, ExtI8I32U, R32(1) = R32(0) & 0xFFu)
  SIMPLE(Core, ExtI16I32S,
         R32(1) = static_cast<uint32_t>(
             static_cast<int32_t>(static_cast<int16_t>(R32(0)))))
  SIMPLE(Core, ExtI16I32U, R32(1) = R32(0) & 0xFFFFu)
  SIMPLE(Core, ExtI32I64S, SET64(1, static_cast<int64_t>(S32(0))))
  SIMPLE(Core, ExtI32I64U, SET64(1, static_cast<uint64_t>(R32(0))))
  // ---- comparisons ------------------------------------------------------
  BIN_I32(CmpEQI32, a == b)
  BIN_I32(CmpNEI32, a != b)
  BIN_I32(CmpLTI32S, a < b)
  BIN_I32(CmpLTI32U, ua < ub)
  SIMPLE(Core, CmpNZI32, R32(1) = R32(0) != 0)
  CMP_I64(CmpEQI64, a == b)
  CMP_I64(CmpNEI64, a != b)
  CMP_I64(CmpLTI64S, a < b)
  CMP_I64(CmpLTI64U, ua < ub)
  SIMPLE(Core, CmpNZI64, R32(1) = GET64(0) != 0)
  SIMPLE(Core, CmpEQRef, R32(2) = REF(0) == REF(1))
  SIMPLE(Core, CmpNERef, R32(2) = !(REF(0) == REF(1)))
  SIMPLE(Core, CmpNZRef, R32(1) = !REF(0).is_null())
  // ---- control flow -----------------------------------------------------
  // Branches land one byte past the target's block marker, so a marker is
  // only executed if code falls into it, which the verifier rules out;
  // stepping over it keeps the loop total anyway.
  OP(Core, Block) { NEXT(); }
  // Yield is synchronous (yielding and resuming at once is a branch) and
  // Break has no debugger to stop in; both branch like vm.br.
#define BRANCH_OP(name)                \
  OP(Core, name) {                     \
    Remap(regs, f, CURSOR(1).Remap()); \
    JUMP_TO(code + U32(0) + 1);        \
  }
  BRANCH_OP(Branch)
  BRANCH_OP(Yield)
  BRANCH_OP(Break)
#undef BRANCH_OP
  OP(Core, CondBreak) {
    // Both outcomes continue at the destination.
    Cursor cursor = CURSOR(2);
    Remap(regs, f, cursor.Remap());
    JUMP_TO(code + U32(1) + 1);
  }
  OP(Core, CondBranch) {
    Cursor cursor = CURSOR(2);
    RemapList true_remap = cursor.Remap();
    if (R32(0)) {
      Remap(regs, f, true_remap);
      JUMP_TO(code + U32(1) + 1);
    }
    uint32_t false_target = cursor.Word();
    Remap(regs, f, cursor.Remap());
    JUMP_TO(code + false_target + 1);
  }
  // The rewritten scalar branches of the quickened copy
  // (quickened_code.h): relative targets, no padding, no bank tests.
#define XU16(offset) LoadLE<uint16_t>(ip + (offset))
#define XREL(offset) static_cast<int32_t>(LoadLE<uint32_t>(ip + (offset)))
#define XCOPY(k)                                     \
  regs[XU16(quick_layout::kBrPairs + 4 * (k) + 2)] = \
      regs[XU16(quick_layout::kBrPairs + 4 * (k))]
  XOP(BrI32x0) { JUMP_TO(ip + XREL(quick_layout::kBrRel)); }
  XOP(BrI32x1) {
    XCOPY(0);
    JUMP_TO(ip + XREL(quick_layout::kBrRel));
  }
  XOP(BrI32x2) {
    XCOPY(0);
    XCOPY(1);
    JUMP_TO(ip + XREL(quick_layout::kBrRel));
  }
  XOP(BrI32x3) {
    XCOPY(0);
    XCOPY(1);
    XCOPY(2);
    JUMP_TO(ip + XREL(quick_layout::kBrRel));
  }
  XOP(BrI32xN) {
    const uint8_t* pair = ip + quick_layout::kBrPairs;
    const uint8_t* end = pair + 4 * XU16(quick_layout::kBrCount);
    for (; pair != end; pair += 4)
      regs[LoadLE<uint16_t>(pair + 2)] = regs[LoadLE<uint16_t>(pair)];
    JUMP_TO(ip + XREL(quick_layout::kBrRel));
  }
  XOP(CondBrI32x00) {
    JUMP_TO(ip + (regs[XU16(quick_layout::kCondBrCondition)]
                      ? XREL(quick_layout::kCondBrTrueRel)
                      : XREL(quick_layout::kCondBrFalseRel)));
  }
  XOP(CondBrI32xN) {
    const uint8_t* pair = ip + quick_layout::kCondBrPairs;
    const uint8_t* end = pair + 4 * XU16(quick_layout::kCondBrTrueCount);
    int32_t rel = XREL(quick_layout::kCondBrTrueRel);
    if (regs[XU16(quick_layout::kCondBrCondition)] == 0) {
      pair = end;
      end = pair + 4 * XU16(quick_layout::kCondBrFalseCount);
      rel = XREL(quick_layout::kCondBrFalseRel);
    }
    for (; pair != end; pair += 4)
      regs[LoadLE<uint16_t>(pair + 2)] = regs[LoadLE<uint16_t>(pair)];
    JUMP_TO(ip + rel);
  }
  // Fused compare-and-branch: the comparison writes its result register,
  // then the copyless vm.cond_br right after it (CondBrI32x00 at
  // ip + the comparison's size) branches without being dispatched.
// The ...BrD forms leave out the result, which is dead after the branch.
#define CMP_BR_FORM(core, label, store_result, result, expr)                \
  XOP(label)                                                                \
  if constexpr (typedef LayoutOf<bytecode::layouts::kCore##core> L; true) { \
    const bool taken = (expr);                                              \
    if constexpr (store_result) R32(result) = taken ? 1u : 0u;              \
    ip += Fixed<L::value.size>();                                           \
    JUMP_TO(ip + (taken ? XREL(quick_layout::kCondBrTrueRel)                \
                        : XREL(quick_layout::kCondBrFalseRel)));            \
  }
#define CMP_BR(core, result, expr)                \
  CMP_BR_FORM(core, core##Br, true, result, expr) \
  CMP_BR_FORM(core, core##BrD, false, result, expr)
  CMP_BR(CmpEQI32, 2, R32(0) == R32(1))
  CMP_BR(CmpNEI32, 2, R32(0) != R32(1))
  CMP_BR(CmpLTI32S, 2, S32(0) < S32(1))
  CMP_BR(CmpLTI32U, 2, R32(0) < R32(1))
  CMP_BR(CmpNZI32, 1, R32(0) != 0)
#undef CMP_BR
#undef CMP_BR_FORM
  // i32 ops with a constant right operand (quickened_code.h): the u16
  // slot of operand 1 holds the value, sign-extended from 16 bits.
#define BIN_I32_IMM(name, expr)                                             \
  XOP(name##Imm)                                                            \
  if constexpr (typedef LayoutOf<bytecode::layouts::kCore##name> L; true) { \
    [[maybe_unused]] const uint32_t ua = R32(0);                            \
    [[maybe_unused]] const uint32_t imm = static_cast<uint32_t>(            \
        static_cast<int32_t>(static_cast<int16_t>(REG(1))));                \
    PUT32(2, expr);                                                         \
    NEXT();                                                                 \
  }
  BIN_I32_IMM(AddI32, ua + imm)
  BIN_I32_IMM(SubI32, ua - imm)
  BIN_I32_IMM(MulI32, ua * imm)
  BIN_I32_IMM(AndI32, ua & imm)
  BIN_I32_IMM(OrI32, ua | imm)
  BIN_I32_IMM(XorI32, ua ^ imm)
  BIN_I32_IMM(ShlI32, ua << (imm & 31))
  BIN_I32_IMM(ShrI32S, static_cast<int32_t>(ua) >> (imm & 31))
  BIN_I32_IMM(ShrI32U, ua >> (imm & 31))
#undef BIN_I32_IMM
#define IMM16(n) \
  static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(REG(n))))
  // vm.fma.i32 with a constant factor (slot 1) or addend (slot 2).
  XOP(FMAI32ImmB)
  if constexpr (typedef LayoutOf<bytecode::layouts::kCoreFMAI32> L; true) {
    PUT32(3, R32(0) * IMM16(1) + R32(2));
    NEXT();
  }
  XOP(FMAI32ImmC)
  if constexpr (typedef LayoutOf<bytecode::layouts::kCoreFMAI32> L; true) {
    PUT32(3, R32(0) * R32(1) + IMM16(2));
    NEXT();
  }
  // Result forwarding (quickened_code.h): operand 0 (or, where named,
  // another) is the previous instruction's result, taken from acc. The
  // expressions are those of the register forms.
#define I32_ACC(name, expr)                                                 \
  XOP(name##AccL)                                                           \
  if constexpr (typedef LayoutOf<bytecode::layouts::kCore##name> L; true) { \
    [[maybe_unused]] const uint32_t ua = acc;                               \
    [[maybe_unused]] const uint32_t ub = R32(1);                            \
    PUT32(2, expr);                                                         \
    NEXT();                                                                 \
  }
  I32_ACC(AddI32, ua + ub)
  I32_ACC(SubI32, ua - ub)
  I32_ACC(MulI32, ua * ub)
  I32_ACC(AndI32, ua & ub)
  I32_ACC(OrI32, ua | ub)
  I32_ACC(XorI32, ua ^ ub)
  I32_ACC(ShlI32, ua << (ub & 31))
  I32_ACC(ShrI32S, static_cast<uint32_t>(static_cast<int32_t>(ua) >> (ub & 31)))
  I32_ACC(ShrI32U, ua >> (ub & 31))
#undef I32_ACC
#define I32_IMM_ACC(name, expr)                                             \
  XOP(name##ImmAcc)                                                         \
  if constexpr (typedef LayoutOf<bytecode::layouts::kCore##name> L; true) { \
    [[maybe_unused]] const uint32_t ua = acc;                               \
    [[maybe_unused]] const uint32_t imm = IMM16(1);                         \
    PUT32(2, expr);                                                         \
    NEXT();                                                                 \
  }
  I32_IMM_ACC(AddI32, ua + imm)
  I32_IMM_ACC(SubI32, ua - imm)
  I32_IMM_ACC(MulI32, ua * imm)
  I32_IMM_ACC(AndI32, ua & imm)
  I32_IMM_ACC(OrI32, ua | imm)
  I32_IMM_ACC(XorI32, ua ^ imm)
  I32_IMM_ACC(ShlI32, ua << (imm & 31))
  I32_IMM_ACC(ShrI32S,
              static_cast<uint32_t>(static_cast<int32_t>(ua) >> (imm & 31)))
  I32_IMM_ACC(ShrI32U, ua >> (imm & 31))
#undef I32_IMM_ACC
  XOP(FMAI32AccA)
  if constexpr (typedef LayoutOf<bytecode::layouts::kCoreFMAI32> L; true) {
    const uint32_t a = acc;
    PUT32(3, a * R32(1) + R32(2));
    NEXT();
  }
  XOP(FMAI32AccC)
  if constexpr (typedef LayoutOf<bytecode::layouts::kCoreFMAI32> L; true) {
    const uint32_t c = acc;
    PUT32(3, R32(0) * R32(1) + c);
    NEXT();
  }
  // f32 ops with a bfloat16-exact constant: slot 1 holds the high half of
  // its bit pattern.
#define BF16_IMM(n) std::bit_cast<float>(static_cast<uint32_t>(REG(n)) << 16)
#define BIN_F32_IMM(name, expr)                                               \
  XOP(name##Imm)                                                              \
  if constexpr (typedef LayoutOf<bytecode::layouts::kExtF32##name> L; true) { \
    const float a = GETF32(0);                                                \
    const float b = BF16_IMM(1);                                              \
    SETF32(2, expr);                                                          \
    NEXT();                                                                   \
  }
  BIN_F32_IMM(AddF32, AddFirst(a, b))
  BIN_F32_IMM(SubF32, a - b)
  BIN_F32_IMM(MulF32, MulFirst(a, b))
#undef BIN_F32_IMM
#define F32_ACC(label, name, a_expr, b_expr, expr)                            \
  XOP(label)                                                                  \
  if constexpr (typedef LayoutOf<bytecode::layouts::kExtF32##name> L; true) { \
    const float a = a_expr;                                                   \
    const float b = b_expr;                                                   \
    SETF32(2, expr);                                                          \
    NEXT();                                                                   \
  }
  F32_ACC(AddF32AccL, AddF32, ACC_F32(), GETF32(1), AddFirst(a, b))
  F32_ACC(SubF32AccL, SubF32, ACC_F32(), GETF32(1), a - b)
  F32_ACC(SubF32AccR, SubF32, GETF32(0), ACC_F32(), a - b)
  F32_ACC(AddF32AccR, AddF32, GETF32(0), ACC_F32(), AddFirst(a, b))
  F32_ACC(MulF32AccR, MulF32, GETF32(0), ACC_F32(), MulFirst(a, b))
  F32_ACC(MulF32AccL, MulF32, ACC_F32(), GETF32(1), MulFirst(a, b))
  F32_ACC(DivF32AccL, DivF32, ACC_F32(), GETF32(1), a / b)
  F32_ACC(AddF32ImmAcc, AddF32, ACC_F32(), BF16_IMM(1), AddFirst(a, b))
  F32_ACC(SubF32ImmAcc, SubF32, ACC_F32(), BF16_IMM(1), a - b)
  F32_ACC(MulF32ImmAcc, MulF32, ACC_F32(), BF16_IMM(1), MulFirst(a, b))
#undef F32_ACC
  XOP(CastSI32F32Acc)
  if constexpr (typedef LayoutOf<bytecode::layouts::kExtF32CastSI32F32> L;
                true) {
    const int32_t x = static_cast<int32_t>(acc);
    SETF32(1, static_cast<float>(x));
    NEXT();
  }
  XOP(CastUI32F32Acc)
  if constexpr (typedef LayoutOf<bytecode::layouts::kExtF32CastUI32F32> L;
                true) {
    const uint32_t x = acc;
    SETF32(1, static_cast<float>(x));
    NEXT();
  }
  // Copyless back edges into a fused loop head: jump, then run the head's
  // handler directly (with the switch fallback: dispatch on it).
#if EMBER_VM_COMPUTED_GOTO
#define BR_TO_HEAD(head)              \
  XOP(BrTo##head) {                   \
    ip += XREL(quick_layout::kBrRel); \
    goto op_Quick_##head;             \
  }
#else
#define BR_TO_HEAD(head) \
  XOP(BrTo##head) { JUMP_TO(ip + XREL(quick_layout::kBrRel)); }
#endif
  BR_TO_HEAD(CmpEQI32Br)
  BR_TO_HEAD(CmpNEI32Br)
  BR_TO_HEAD(CmpLTI32SBr)
  BR_TO_HEAD(CmpLTI32UBr)
  BR_TO_HEAD(CmpNZI32Br)
  BR_TO_HEAD(CmpEQI32BrD)
  BR_TO_HEAD(CmpNEI32BrD)
  BR_TO_HEAD(CmpLTI32SBrD)
  BR_TO_HEAD(CmpLTI32UBrD)
  BR_TO_HEAD(CmpNZI32BrD)
#undef BR_TO_HEAD
  // Loop latches: add-immediate, then the copyless back edge right after
  // it (ip + the add's size), then the fused head it enters, inline so
  // the whole latch runs without a dispatch or a taken jump in between.
#define ADD_IMM_BR_TO(core, expr)                                             \
  XOP(AddImmBrTo##core##BrD)                                                  \
  if constexpr (typedef LayoutOf<bytecode::layouts::kCoreAddI32> L; true) {   \
    R32(2) = R32(0) + IMM16(1);                                               \
    ip += Fixed<L::value.size>();                                             \
    ip += XREL(quick_layout::kBrRel);                                         \
    if constexpr (typedef LayoutOf<bytecode::layouts::kCore##core> L; true) { \
      const bool taken = (expr);                                              \
      ip += Fixed<L::value.size>();                                           \
      if (taken) [[likely]]                                                   \
        JUMP_TO(ip + XREL(quick_layout::kCondBrTrueRel));                     \
      JUMP_TO(ip + XREL(quick_layout::kCondBrFalseRel));                      \
    }                                                                         \
  }
  ADD_IMM_BR_TO(CmpEQI32, R32(0) == R32(1))
  ADD_IMM_BR_TO(CmpNEI32, R32(0) != R32(1))
  ADD_IMM_BR_TO(CmpLTI32S, S32(0) < S32(1))
  ADD_IMM_BR_TO(CmpLTI32U, R32(0) < R32(1))
  ADD_IMM_BR_TO(CmpNZI32, R32(0) != 0)
#undef ADD_IMM_BR_TO
#undef XCOPY
#undef XREL
#undef XU16
  OP(Core, BranchTable) {
    Cursor cursor = CURSOR(2);
    RemapList default_remap = cursor.Remap();
    uint32_t index = R32(0);
    uint16_t case_count = cursor.Half();
    if (index >= case_count) {
      Remap(regs, f, default_remap);
      JUMP_TO(code + U32(1) + 1);
    }
    for (uint32_t i = 0; i < index; ++i) {
      cursor.Word();
      cursor.Remap();
    }
    uint32_t target = cursor.Word();
    Remap(regs, f, cursor.Remap());
    JUMP_TO(code + target + 1);
  }
  // Internal calls push the callee and continue in it; the caller's pc
  // stays at the call (for stack traces) until the callee returns.
#define CALL_INTERNAL(callee, operands, results, next)  \
  do {                                                  \
    f->pc = static_cast<uint32_t>(ip - code);           \
    TRY_ASSIGN(Frame* callee_frame, PushFrame(callee)); \
    f->return_registers = (results);                    \
    f->return_pc = static_cast<uint32_t>((next)-code);  \
    CopyArguments(*f, (operands), *callee_frame);       \
    ENTER_FRAME(callee_frame);                          \
    DISPATCH();                                         \
  } while (0)
  OP(Core, Call) {
    uint32_t callee = U32(0);
    Cursor cursor = CURSOR(1);
    RegisterList operands = cursor.List();
    RegisterList results = cursor.List();
    const uint8_t* next = cursor.position();
    if (callee & kImportOrdinalBit) {
      TRY(CallImport(*f, callee, nullptr, operands, results));
      JUMP_TO(next);
    }
    CALL_INTERNAL(callee, operands, results, next);
  }
  OP(Core, CallYieldable) {
    // A synchronous call that resumes at a block: the results are written
    // when the callee returns, then execution continues at `resume`.
    uint32_t callee = U32(0);
    Cursor cursor = CURSOR(1);
    RegisterList operands = cursor.List();
    uint32_t resume = cursor.Word();
    RegisterList results = cursor.List();
    const uint8_t* next = code + resume + 1;
    if (callee & kImportOrdinalBit) {
      TRY(CallImport(*f, callee, nullptr, operands, results));
      JUMP_TO(next);
    }
    CALL_INTERNAL(callee, operands, results, next);
  }
  OP(Core, CallVariadic) {
    Cursor cursor = CURSOR(1);
    RegisterList segment_sizes = cursor.List();
    RegisterList operands = cursor.List();
    RegisterList results = cursor.List();
    TRY(CallImport(*f, U32(0), &segment_sizes, operands, results));
    JUMP_TO(cursor.position());
  }
  OP(Core, CallVariadicYieldable) {
    Cursor cursor = CURSOR(1);
    RegisterList segment_sizes = cursor.List();
    RegisterList operands = cursor.List();
    uint32_t resume = cursor.Word();
    RegisterList results = cursor.List();
    TRY(CallImport(*f, U32(0), &segment_sizes, operands, results));
    JUMP_TO(code + resume + 1);
  }
  OP(Core, Return) {
    RegisterList operands = CURSOR(0).List();
    if (depth_ == 1) {
      f->pc = static_cast<uint32_t>(ip - code);
      TRY(ReturnToHost(*f, operands));
      return Status::Ok();
    }
    Frame* caller = frames_[depth_ - 2].get();
    ReturnToCaller(*f, operands, *caller);
    ENTER_FRAME(caller);
    DISPATCH();
  }
  OP(Core, Fail) {
    uint32_t status_code = R32(0);
    Cursor cursor = CURSOR(1);
    std::string_view message = cursor.String();
    if (status_code == 0) JUMP_TO(cursor.position());
    if (status_code > static_cast<uint32_t>(StatusCode::kIncompatible)) {
      status_code = static_cast<uint32_t>(StatusCode::kUnknown);
    }
    FAIL(Status(static_cast<StatusCode>(status_code), std::string(message)));
  }
  OP(Core, ImportResolved) {
    uint32_t index = U32(0) & ~kImportOrdinalBit;
    R32(1) = index < state_.imports.size() && !state_.imports[index].is_null();
    NEXT();
  }
  OP(Core, Trace) {
    JUMP_TO(InstructionEnd(L::value, code, ip));
  }  // no tracing sink yet
  OP(Core, Print) { JUMP_TO(InstructionEnd(L::value, code, ip)); }
  // ---- vm.buffer --------------------------------------------------------
  BUFFER_LOAD(Core, BufferLoadI8U, uint8_t, R32(2) = v)
  BUFFER_LOAD(Core, BufferLoadI8S, int8_t,
              R32(2) = static_cast<uint32_t>(static_cast<int32_t>(v)))
  BUFFER_LOAD(Core, BufferLoadI16U, uint16_t, R32(2) = v)
  BUFFER_LOAD(Core, BufferLoadI16S, int16_t,
              R32(2) = static_cast<uint32_t>(static_cast<int32_t>(v)))
  BUFFER_LOAD(Core, BufferLoadI32, uint32_t, R32(2) = v)
  BUFFER_LOAD(Core, BufferLoadI64, int64_t, SET64(2, v))
  BUFFER_STORE(Core, BufferStoreI8, uint8_t, R32(2))
  BUFFER_STORE(Core, BufferStoreI16, uint16_t, R32(2))
  BUFFER_STORE(Core, BufferStoreI32, uint32_t, R32(2))
  BUFFER_STORE(Core, BufferStoreI64, int64_t, GET64(2))
  BUFFER_FILL(Core, BufferFillI8, uint8_t, R32(3))
  BUFFER_FILL(Core, BufferFillI16, uint16_t, R32(3))
  BUFFER_FILL(Core, BufferFillI32, uint32_t, R32(3))
  BUFFER_FILL(Core, BufferFillI64, int64_t, GET64(3))
  OP(Core, BufferAlloc) {
    {
      TRY_ASSIGN(Ref<Buffer> buffer,
                 Buffer::Allocate(
                     static_cast<uint64_t>(GET64(0)), R32(1),
                     BufferAccess::kMutable | BufferAccess::kOriginGuest));
      REF(2) = VmRef::Of(std::move(buffer));
    }
    NEXT();
  }
  OP(Core, BufferClone) {
    TRY_ASSIGN(Buffer * source, BufferOf(REF(0)));
    {
      TRY_ASSIGN(
          Ref<Buffer> buffer,
          Buffer::Clone(*source, static_cast<uint64_t>(GET64(1)),
                        static_cast<uint64_t>(GET64(2)), R32(3),
                        BufferAccess::kMutable | BufferAccess::kOriginGuest));
      REF(4) = VmRef::Of(std::move(buffer));
    }
    NEXT();
  }
  OP(Core, BufferLength) {
    TRY_ASSIGN(Buffer * buffer, BufferOf(REF(0)));
    SET64(1, buffer->length());
    NEXT();
  }
  OP(Core, BufferCopy) {
    TRY_ASSIGN(Buffer * source, BufferOf(REF(0)));
    TRY_ASSIGN(Buffer * target, BufferOf(REF(2)));
    TRY(Buffer::Copy(*source, static_cast<uint64_t>(GET64(1)), *target,
                     static_cast<uint64_t>(GET64(3)),
                     static_cast<uint64_t>(GET64(4))));
    NEXT();
  }
  OP(Core, BufferCompare) {
    TRY_ASSIGN(Buffer * lhs, BufferOf(REF(0)));
    TRY_ASSIGN(Buffer * rhs, BufferOf(REF(2)));
    TRY_ASSIGN(bool equal,
               Buffer::Compare(*lhs, static_cast<uint64_t>(GET64(1)), *rhs,
                               static_cast<uint64_t>(GET64(3)),
                               static_cast<uint64_t>(GET64(4))));
    R32(5) = equal ? 1u : 0u;
    NEXT();
  }
  OP(Core, BufferHash) {
    TRY_ASSIGN(Buffer * buffer, BufferOf(REF(0)));
    TRY_ASSIGN(int64_t hash, buffer->Hash(static_cast<uint64_t>(GET64(1)),
                                          static_cast<uint64_t>(GET64(2))));
    SET64(3, hash);
    NEXT();
  }
  // ---- refs -------------------------------------------------------------
  OP(Core, CastAnyRef) {
    TRY(CheckRefType(TypeOf(U32(1)), REF(0)));
    REF(2) = ReadRef(refs, REG(0));
    NEXT();
  }
  OP(Core, DiscardRefs) {
    Cursor cursor = CURSOR(0);
    RegisterList list = cursor.List();
    for (size_t i = 0; i < list.size(); ++i) {
      refs[list[i] & kRefOrdinalMask].reset();
    }
    JUMP_TO(cursor.position());
  }
  SIMPLE(Core, AssignRef, REF(1) = ReadRef(refs, REG(0)))

  // vm.fma.f32 on a CPU with FMA3 (quickened_code.h): one vfmadd.
  XOP(FMAF32Hw)
  if constexpr (typedef LayoutOf<bytecode::layouts::kExtF32FMAF32> L; true) {
    // Loaded as floats, straight into vector registers.
    float a, b, c;
    std::memcpy(&a, &R32(0), sizeof(a));
    std::memcpy(&b, &R32(1), sizeof(b));
    std::memcpy(&c, &R32(2), sizeof(c));
    SETF32(3, FusedMultiplyAddHw(a, b, c));
    NEXT();
  }
  // The same with the previous result as a factor or as the addend.
  XOP(FMAF32HwAccA)
  if constexpr (typedef LayoutOf<bytecode::layouts::kExtF32FMAF32> L; true) {
    float b, c;
    std::memcpy(&b, &R32(1), sizeof(b));
    std::memcpy(&c, &R32(2), sizeof(c));
    SETF32(3, FusedMultiplyAddHw(ACC_F32(), b, c));
    NEXT();
  }
  XOP(FMAF32HwAccB)
  if constexpr (typedef LayoutOf<bytecode::layouts::kExtF32FMAF32> L; true) {
    float a, c;
    std::memcpy(&a, &R32(0), sizeof(a));
    std::memcpy(&c, &R32(2), sizeof(c));
    SETF32(3, FusedMultiplyAddHw(a, ACC_F32(), c));
    NEXT();
  }
  XOP(FMAF32HwAccC)
  if constexpr (typedef LayoutOf<bytecode::layouts::kExtF32FMAF32> L; true) {
    float a, b;
    std::memcpy(&a, &R32(0), sizeof(a));
    std::memcpy(&b, &R32(1), sizeof(b));
    SETF32(3, FusedMultiplyAddHw(a, b, ACC_F32()));
    NEXT();
  }
  // The same with a constant factor in slot 1 (see BF16_IMM).
  XOP(FMAF32HwImmB)
  if constexpr (typedef LayoutOf<bytecode::layouts::kExtF32FMAF32> L; true) {
    float a, c;
    std::memcpy(&a, &R32(0), sizeof(a));
    std::memcpy(&c, &R32(2), sizeof(c));
    SETF32(3, FusedMultiplyAddHw(a, BF16_IMM(1), c));
    NEXT();
  }
#undef BF16_IMM
#undef IMM16

  // ---- ExtF32 -----------------------------------------------------------
  BEGIN_EXT_OPS(PrefixExtF32, ext_f32)
  GLOBAL_OPS(ExtF32, F32, GLOBAL_LOAD32, GLOBAL_STORE32, 4)
  SIMPLE(ExtF32, ConstF32Zero, R32(0) = 0)
  SIMPLE(ExtF32, ConstF32, R32(1) = U32(0))
  LIST_GET_OP(ExtF32, ListGetF32, float, ValueType::kF32, f32, SETF32(2, v))
  LIST_SET_OP(ExtF32, ListSetF32, float, ValueType::kF32, F32, GETF32(2))
  SIMPLE(ExtF32, SelectF32, R32(3) = R32(0) ? R32(1) : R32(2))
  OP(ExtF32, SwitchF32) {
    Cursor cursor = CURSOR(2);
    RegisterList values = cursor.List();
    uint32_t index = R32(0);
    regs[cursor.Half()] = index < values.size() ? regs[values[index]] : R32(1);
    JUMP_TO(cursor.position());
  }
  FLOAT_OPS(ExtF32, GETF32, SETF32, float, F32)
  SIMPLE(ExtF32, FPowIF32, SETF32(2, PowI(GETF32(0), GET64(1))))
  SIMPLE(ExtF32, CastSI32F32, SETF32(1, static_cast<float>(S32(0))))
  SIMPLE(ExtF32, CastUI32F32, SETF32(1, static_cast<float>(R32(0))))
  SIMPLE(ExtF32, CastF32SI32,
         R32(1) = static_cast<uint32_t>(
             static_cast<int32_t>(std::lround(GETF32(0)))))
  SIMPLE(ExtF32, CastF32UI32,
         R32(1) = static_cast<uint32_t>(std::llround(GETF32(0))))
  SIMPLE(ExtF32, CastF32SI64, SET64(1, std::llround(GETF32(0))))
  SIMPLE(ExtF32, CastF32UI64,
         SET64(1, static_cast<uint64_t>(std::round(GETF32(0)))))
  SIMPLE(ExtF32, CastSI64F32, SETF32(1, static_cast<float>(GET64(0))))
  SIMPLE(ExtF32, CastUI64F32,
         SETF32(1, static_cast<float>(static_cast<uint64_t>(GET64(0)))))
  SIMPLE(ExtF32, BitcastI32F32, R32(1) = R32(0))
  SIMPLE(ExtF32, BitcastF32I32, R32(1) = R32(0))
  BUFFER_LOAD(ExtF32, BufferLoadF32, float, SETF32(2, v))
  BUFFER_STORE(ExtF32, BufferStoreF32, float, GETF32(2))
  BUFFER_FILL(ExtF32, BufferFillF32, float, GETF32(3))
  END_OPS

  // ---- ExtF64 -----------------------------------------------------------
  BEGIN_EXT_OPS(PrefixExtF64, ext_f64)
  GLOBAL_OPS(ExtF64, F64, GLOBAL_LOAD64, GLOBAL_STORE64, 8)
  SIMPLE(ExtF64, ConstF64Zero, SET64(0, 0))
  SIMPLE(ExtF64, ConstF64, SET64(1, U64(0)))
  LIST_GET_OP(ExtF64, ListGetF64, double, ValueType::kF64, f64, SETF64(2, v))
  LIST_SET_OP(ExtF64, ListSetF64, double, ValueType::kF64, F64, GETF64(2))
  SIMPLE(ExtF64, SelectF64, SET64(3, R32(0) ? GET64(1) : GET64(2)))
  OP(ExtF64, SwitchF64) {
    Cursor cursor = CURSOR(2);
    RegisterList values = cursor.List();
    uint32_t index = R32(0);
    int64_t v = index < values.size() ? LoadI64(regs, values[index]) : GET64(1);
    StoreI64(regs, cursor.Half(), v);
    JUMP_TO(cursor.position());
  }
  FLOAT_OPS(ExtF64, GETF64, SETF64, double, F64)
  SIMPLE(ExtF64, FPowIF64, SETF64(2, PowI(GETF64(0), GET64(1))))
  SIMPLE(ExtF64, TruncF64F32, SETF32(1, static_cast<float>(GETF64(0))))
  SIMPLE(ExtF64, ExtF32F64, SETF64(1, static_cast<double>(GETF32(0))))
  SIMPLE(ExtF64, CastSI32F64, SETF64(1, static_cast<double>(S32(0))))
  SIMPLE(ExtF64, CastUI32F64, SETF64(1, static_cast<double>(R32(0))))
  SIMPLE(ExtF64, CastF64SI32,
         R32(1) = static_cast<uint32_t>(
             static_cast<int32_t>(std::lround(GETF64(0)))))
  SIMPLE(ExtF64, CastF64UI32,
         R32(1) = static_cast<uint32_t>(std::llround(GETF64(0))))
  SIMPLE(ExtF64, CastSI64F64, SETF64(1, static_cast<double>(GET64(0))))
  SIMPLE(ExtF64, CastUI64F64,
         SETF64(1, static_cast<double>(static_cast<uint64_t>(GET64(0)))))
  SIMPLE(ExtF64, CastF64SI64, SET64(1, std::llround(GETF64(0))))
  SIMPLE(ExtF64, CastF64UI64,
         SET64(1, static_cast<uint64_t>(std::llround(GETF64(0)))))
  SIMPLE(ExtF64, BitcastI64F64, SET64(1, GET64(0)))
  SIMPLE(ExtF64, BitcastF64I64, SET64(1, GET64(0)))
  BUFFER_LOAD(ExtF64, BufferLoadF64, double, SETF64(2, v))
  BUFFER_STORE(ExtF64, BufferStoreF64, double, GETF64(2))
  BUFFER_FILL(ExtF64, BufferFillF64, double, GETF64(3))
  END_OPS
  END_OPS

unknown_opcode:
  // Unreachable for verified bytecode (every opcode is known).
  error = InternalError(StringPrintf("unknown opcode 0x%02X at pc %u", *ip,
                                     static_cast<uint32_t>(ip - code)));
fail:
  f->pc = static_cast<uint32_t>(ip - code);
  return error;
#undef ENTER_FRAME
#undef refs
#undef rwdata
}

}  // namespace

Status Execute(Context& context, const BytecodeModule& module,
               BytecodeModuleState& state, uint32_t ordinal,
               std::span<const Variant> arguments, std::span<Variant> results,
               Variant* movable) {
  Interpreter interpreter(context, module, state);
  return interpreter.Run(ordinal, arguments, results, movable);
}

}  // namespace ember::vm::bytecode
