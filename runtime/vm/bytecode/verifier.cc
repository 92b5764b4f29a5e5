// One linear pass per function, driven by the opcode table. Each instruction
// is decoded, checked as a whole (block structure, extension requirements,
// calls), then field by field according to its FieldKind. Branch targets are
// collected and resolved against the block markers once the walk is done.
//
// Every check costs O(the instruction or function it is about): message text
// (operand labels, callee names, cconvs) is built only when an error is
// returned (LazyText, CconvOwner), and what a cconv string says is worked out
// once per module per distinct string (SharedState), so a long name or cconv
// named by many calls, returns or functions is not re-read each time.
//
// Where Ember is stricter than IREE 3.11's verifier (and why), see the notes
// at the checks marked "Stricter than IREE".
#include "runtime/vm/bytecode/verifier.h"

#include <cstdarg>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "runtime/base/printable.h"
#include "runtime/base/string_identity.h"
#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/opcode_table.h"
#include "runtime/vm/calling_convention.h"

namespace ember::vm::bytecode {
namespace {

// The name of an operand in a message, built only when a message is: fixed
// text, or a callable returning the text. It refers to the callable, so it
// may only be passed down a call, never stored.
class LazyText {
 public:
  LazyText(const char* text) : text_(text) {}  // NOLINT: implicit by design
  template <typename F, typename = std::enable_if_t<
                            std::is_invocable_r_v<std::string, const F&>>>
  LazyText(const F& make)  // NOLINT: implicit by design
      : object_(&make), make_([](const void* object) -> std::string {
          return (*static_cast<const F*>(object))();
        }) {}

  std::string str() const {
    return make_ ? make_(object_) : std::string(text_ ? text_ : "");
  }

 private:
  const char* text_ = nullptr;
  const void* object_ = nullptr;
  std::string (*make_)(const void*) = nullptr;
};

// How a register operand prints in messages: %iN, %rN (with ! for MOVE), or
// the raw value when it is in neither form.
std::string RegisterText(uint16_t raw) {
  if (raw & kRefRegisterBit) {
    std::string text = StringPrintf("%%r%u", raw & kRefOrdinalMask);
    if (raw & kRefMoveBit) text += '!';
    return text;
  }
  return StringPrintf("%%i%u", raw);
}

const char* OperandTypeName(OperandType type) {
  switch (type) {
    case OperandType::kI32: return "i32";
    case OperandType::kI64: return "i64";
    case OperandType::kF32: return "f32";
    case OperandType::kF64: return "f64";
    case OperandType::kRef: return "ref";
    case OperandType::kAny: return "any";
    case OperandType::kNone: break;
  }
  return "none";
}

OperandType OperandTypeOfCconv(CconvType type) {
  switch (type) {
    case CconvType::kI32: return OperandType::kI32;
    case CconvType::kI64: return OperandType::kI64;
    case CconvType::kF32: return OperandType::kF32;
    case CconvType::kF64: return OperandType::kF64;
    case CconvType::kRef: return OperandType::kRef;
    default: return OperandType::kNone;
  }
}

// The width in bytes of the primitive global an instruction accesses: the
// type of its (only) int register field.
uint32_t GlobalAccessWidth(const DecodedInstruction& instruction) {
  for (const DecodedField& field : instruction.field_span()) {
    const FieldTraits traits = GetFieldTraits(field.kind());
    if (traits.encoding != FieldEncoding::kRegister) continue;
    switch (traits.type) {
      case OperandType::kI32:
      case OperandType::kF32: return 4;
      case OperandType::kI64:
      case OperandType::kF64: return 8;
      default: break;
    }
  }
  return 0;
}

// A cconv string as the checks need it, parsed once per module
// (ModuleVerifier) so that no check costs more than the instruction or
// function it is about, however long the string. An absent cconv is a valid
// one without arguments or results.
struct CconvInfo {
  // Whether the string parses; the parse error otherwise.
  Status status;
  CallingConvention cconv;
};

CconvInfo AnalyzeCconv(std::string_view cconv) {
  CconvInfo info;
  if (cconv.empty()) return info;
  Result<CallingConvention> parsed = ParseCallingConvention(cconv);
  if (!parsed.ok()) {
    info.status = parsed.status();
    return info;
  }
  info.cconv = std::move(*parsed);
  return info;
}

}  // namespace

namespace verifier_internal {

struct SharedState {
  // Never moved once inserted (unordered_map nodes are stable), so the
  // verifiers may hold references.
  std::unordered_map<StringIdentity, CconvInfo, StringIdentityHash> cconvs;
  ModuleVerifier::Stats stats;

  const CconvInfo& Cconv(std::string_view cconv) {
    static const CconvInfo* const kNone = new CconvInfo();
    if (cconv.empty()) return *kNone;
    auto [it, inserted] = cconvs.try_emplace(StringIdentity(cconv));
    if (inserted) {
      it->second = AnalyzeCconv(cconv);
      ++stats.cconv_strings_analyzed;
      stats.cconv_bytes_analyzed += cconv.size();
    }
    return it->second;
  }
};

}  // namespace verifier_internal

namespace {

using verifier_internal::SharedState;

// Whose cconv a register list is checked against; described (with the
// cconv) only when a message needs it.
struct CconvOwner {
  enum class Kind { kImport, kFunction, kOwnResults };
  Kind kind;
  uint32_t ordinal;
  std::string_view cconv;
};

class FunctionVerifier {
 public:
  FunctionVerifier(const ModuleFile& file, size_t ordinal, SharedState& shared)
      : file_(file),
        def_(file.def()),
        ordinal_(ordinal),
        descriptor_(def_.function_descriptors[ordinal]),
        code_(file.FunctionBytecode(ordinal)),
        i32_count_(descriptor_.i32_register_count < 0
                       ? 0u
                       : static_cast<uint32_t>(descriptor_.i32_register_count)),
        ref_count_(descriptor_.ref_register_count < 0
                       ? 0u
                       : static_cast<uint32_t>(descriptor_.ref_register_count)),
        shared_(shared) {}

  Status Run();

 private:
  struct PendingTarget {
    uint32_t target;
    uint32_t pc;
    const char* mnemonic;
  };

  // An error about the instruction being verified.
  Status Fail(const char* format, ...) __attribute__((format(printf, 2, 3)));
  // An error at an explicit place (after the walk).
  Status FailAt(uint32_t pc, const char* mnemonic, const char* format, ...)
      __attribute__((format(printf, 4, 5)));
  Status FailV(uint32_t pc, const char* mnemonic, const char* format,
               va_list args);
  std::string FunctionLabel() const;
  // "import #N 'name'", "function 'name' (#N)" or "this function's
  // results", with " (cconv '...')" when `with_cconv` (always for the
  // function's own results). For messages only.
  std::string Describe(const CconvOwner& owner, bool with_cconv = true) const;

  Status VerifySignature();
  Status VerifyInstruction(const DecodedInstruction& instruction);
  Status VerifyField(const DecodedInstruction& instruction,
                     const DecodedField& field);
  Status CheckRegister(uint16_t raw, OperandType type, bool allows_move,
                       const LazyText& what);
  Status CheckAnyRegister(uint16_t raw, bool allows_move, const LazyText& what);
  Status CheckRemap(const RemapList& remap, const LazyText& what);
  Status CheckImportOrdinal(uint32_t ordinal, const char* what);

  Status VerifyCall(const DecodedInstruction& instruction);
  Status VerifyReturn(const DecodedInstruction& instruction);
  // Checks `list` against the value types `types` (one cconv side without
  // spans), for the list called `what`.
  Status CheckListAgainstTypes(const RegisterList& list, const CconvSide& types,
                               bool is_results, const char* what,
                               const CconvOwner& owner);
  Status CheckVariadicArguments(const RegisterList& list,
                                const DecodedField& segments,
                                const CconvInfo& cconv,
                                const CconvOwner& owner);
  Status CheckCconvValue(CconvType type, uint16_t raw, bool is_results,
                         const char* what, size_t index,
                         const CconvOwner& owner);

  const ModuleFile& file_;
  const ModuleDef& def_;
  const size_t ordinal_;
  const FunctionDescriptor& descriptor_;
  const std::span<const uint8_t> code_;
  const uint32_t i32_count_;
  const uint32_t ref_count_;
  SharedState& shared_;

  // The function's own cconv string and what it says.
  std::string_view own_cconv_text_;
  const CconvInfo* own_cconv_ = nullptr;
  // The instruction being verified, for messages.
  uint32_t pc_ = 0;
  const char* mnemonic_ = "";

  std::vector<uint8_t> is_marker_;
  std::vector<PendingTarget> targets_;
};

std::string FunctionLabel(const ModuleFile& file, size_t ordinal) {
  std::string_view name = file.FunctionDebugName(ordinal);
  if (name.empty()) return StringPrintf("#%zu", ordinal);
  return StringPrintf("'%s' (#%zu)", Printable(name).c_str(), ordinal);
}

std::string FunctionVerifier::FunctionLabel() const {
  return ::ember::vm::bytecode::FunctionLabel(file_, ordinal_);
}

std::string FunctionVerifier::Describe(const CconvOwner& owner,
                                       bool with_cconv) const {
  std::string text;
  switch (owner.kind) {
    case CconvOwner::Kind::kImport:
      text = StringPrintf(
          "import #%u '%s'", owner.ordinal,
          Printable(def_.imported_functions[owner.ordinal].full_name).c_str());
      break;
    case CconvOwner::Kind::kFunction:
      text = StringPrintf(
          "function %s",
          ::ember::vm::bytecode::FunctionLabel(file_, owner.ordinal).c_str());
      break;
    case CconvOwner::Kind::kOwnResults:
      text = "this function's results";
      with_cconv = true;
      break;
  }
  if (with_cconv) {
    text += StringPrintf(" (cconv '%s')", owner.cconv.empty()
                                              ? "none"
                                              : Printable(owner.cconv).c_str());
  }
  return text;
}

Status FunctionVerifier::FailV(uint32_t pc, const char* mnemonic,
                               const char* format, va_list args) {
  std::string what = StringPrintfV(format, args);
  return InvalidArgumentError(
      StringPrintf("function %s at offset 0x%08X (%s): %s",
                   FunctionLabel().c_str(), pc, mnemonic, what.c_str()));
}

Status FunctionVerifier::Fail(const char* format, ...) {
  va_list args;
  va_start(args, format);
  Status status = FailV(pc_, mnemonic_, format, args);
  va_end(args);
  return status;
}

Status FunctionVerifier::FailAt(uint32_t pc, const char* mnemonic,
                                const char* format, ...) {
  va_list args;
  va_start(args, format);
  Status status = FailV(pc, mnemonic, format, args);
  va_end(args);
  return status;
}

// The function's own cconv: no spans, and its arguments must fit the
// register file they are copied into on entry. What the cconv says is worked
// out once per distinct string (functions may share one), so this is O(1)
// per function.
Status FunctionVerifier::VerifySignature() {
  mnemonic_ = "signature";
  if (ordinal_ < def_.function_signatures.size()) {
    own_cconv_text_ = def_.function_signatures[ordinal_].calling_convention;
  }
  const std::string_view cconv = own_cconv_text_;
  const CconvInfo& info = shared_.Cconv(cconv);
  if (!info.status.ok()) {
    return Fail("invalid calling convention '%s': %s", Printable(cconv).c_str(),
                std::string(info.status.message()).c_str());
  }
  own_cconv_ = &info;
  const CconvSide& arguments = info.cconv.arguments;
  if (arguments.has_span) {
    return Fail(
        "internal functions cannot take variadic arguments "
        "(cconv '%s')",
        Printable(cconv).c_str());
  }
  if (info.cconv.results.has_span) {
    return Fail("results cannot be variadic (cconv '%s')",
                Printable(cconv).c_str());
  }
  if (arguments.i32_registers > i32_count_ ||
      arguments.ref_registers > ref_count_) {
    return Fail(
        "arguments need %llu int and %llu ref registers but the function "
        "has %u and %u (cconv '%s')",
        static_cast<unsigned long long>(arguments.i32_registers),
        static_cast<unsigned long long>(arguments.ref_registers), i32_count_,
        ref_count_, Printable(cconv).c_str());
  }
  return Status();
}

Status FunctionVerifier::Run() {
  EMBER_RETURN_IF_ERROR(VerifySignature());
  if (code_.empty()) {
    return FailAt(0, "function", "the function has no bytecode");
  }
  is_marker_.assign(code_.size(), 0);
  int64_t marker_count = 0;
  bool in_block = false;
  uint32_t last_pc = 0;
  const char* last_mnemonic = "function";

  DecodedInstruction instruction;
  uint32_t pc = 0;
  while (pc < code_.size()) {
    pc_ = pc;
    mnemonic_ = "instruction";
    Status decoded = DecodeInstruction(code_, pc, &instruction);
    if (!decoded.ok()) {
      return FailAt(pc, "undecodable instruction", "%s",
                    std::string(decoded.message()).c_str());
    }
    mnemonic_ = instruction.info->mnemonic;
    const OpcodeInfo& info = *instruction.info;

    // Block structure.
    if (info.has_flag(kBlockMarker)) {
      if (in_block) {
        return Fail(
            "block marker inside a block: the previous block has no "
            "terminator");
      }
      in_block = true;
      is_marker_[pc] = 1;
      ++marker_count;
    } else if (!in_block) {
      return Fail(pc == 0 ? "a function must begin with a block marker"
                          : "instruction after a terminator must be a block "
                            "marker");
    }

    // Extensions need the function to declare them.
    if (info.set == OpcodeSet::kExtF32 &&
        !(descriptor_.requirements & kFeatureExtF32)) {
      return Fail(
          "EXT_F32 instruction in a function whose requirements (%s) "
          "do not include EXT_F32",
          FeatureBitsToString(descriptor_.requirements).c_str());
    }
    if (info.set == OpcodeSet::kExtF64 &&
        !(descriptor_.requirements & kFeatureExtF64)) {
      return Fail(
          "EXT_F64 instruction in a function whose requirements (%s) "
          "do not include EXT_F64",
          FeatureBitsToString(descriptor_.requirements).c_str());
    }

    EMBER_RETURN_IF_ERROR(VerifyInstruction(instruction));

    if (info.has_flag(kTerminator)) in_block = false;
    last_pc = pc;
    last_mnemonic = info.mnemonic;
    pc = instruction.next_pc;
  }

  if (in_block) {
    return FailAt(last_pc, last_mnemonic,
                  "the function ends without a terminator in its last block");
  }
  if (marker_count != descriptor_.block_count) {
    return FailAt(last_pc, last_mnemonic,
                  "the function has %lld block marker(s) but its descriptor "
                  "declares block_count %d",
                  static_cast<long long>(marker_count),
                  descriptor_.block_count);
  }
  for (const PendingTarget& pending : targets_) {
    if (pending.target >= code_.size()) {
      return FailAt(pending.pc, pending.mnemonic,
                    "branch target 0x%08X is outside the function (%zu bytes)",
                    pending.target, code_.size());
    }
    if (!is_marker_[pending.target]) {
      return FailAt(pending.pc, pending.mnemonic,
                    "branch target 0x%08X is not a block marker",
                    pending.target);
    }
  }
  return Status();
}

Status FunctionVerifier::VerifyInstruction(
    const DecodedInstruction& instruction) {
  const OpcodeInfo& info = *instruction.info;
  const bool is_call = info.has_flag(kCall);
  const bool is_return =
      info.set == OpcodeSet::kCore &&
      info.opcode == static_cast<uint8_t>(CoreOpcode::Return);
  for (const DecodedField& field : instruction.field_span()) {
    const FieldKind kind = field.kind();
    // Call and return lists are typed by a cconv, not by their kind; the
    // callee ordinal and segment sizes are read with them.
    if (is_call &&
        (kind == FieldKind::kFuncOrdinal || kind == FieldKind::kListAny ||
         kind == FieldKind::kListResults || kind == FieldKind::kSegmentSizes)) {
      continue;
    }
    if (is_return && kind == FieldKind::kListAny) continue;
    EMBER_RETURN_IF_ERROR(VerifyField(instruction, field));
  }
  if (is_call) return VerifyCall(instruction);
  if (is_return) return VerifyReturn(instruction);
  return Status();
}

Status FunctionVerifier::VerifyField(const DecodedInstruction& instruction,
                                     const DecodedField& field) {
  const FieldKind kind = field.kind();
  const FieldTraits traits = GetFieldTraits(kind);
  const char* name = field.info->name;
  switch (traits.encoding) {
    case FieldEncoding::kNone:
      return Fail("opcode table field '%s' has no encoding", name);
    case FieldEncoding::kRegister:
      return CheckRegister(field.reg, traits.type, traits.allows_move, name);
    case FieldEncoding::kString: return Status();
    case FieldEncoding::kU32:
    case FieldEncoding::kU64: break;
    case FieldEncoding::kRegisterList: {
      if (kind == FieldKind::kSegmentSizes) {
        return Fail("segment sizes outside a variadic call");
      }
      for (uint16_t i = 0; i < field.list.size(); ++i) {
        auto what = [name, i] { return StringPrintf("%s[%u]", name, i); };
        if (traits.type == OperandType::kAny) {
          EMBER_RETURN_IF_ERROR(
              CheckAnyRegister(field.list[i], traits.allows_move, what));
        } else {
          EMBER_RETURN_IF_ERROR(CheckRegister(field.list[i], traits.type,
                                              traits.allows_move, what));
        }
      }
      return Status();
    }
    case FieldEncoding::kRemapList: return CheckRemap(field.remap, name);
    case FieldEncoding::kBranchTable: {
      uint32_t index = 0;
      for (BranchCase c : field.cases) {
        targets_.push_back({c.target, pc_, mnemonic_});
        auto what = [index] { return StringPrintf("case %u operands", index); };
        EMBER_RETURN_IF_ERROR(CheckRemap(c.remap, what));
        ++index;
      }
      return Status();
    }
  }

  // Immediates, ordinals and targets.
  const uint32_t value = field.u32();
  switch (kind) {
    case FieldKind::kBranchTarget:
      targets_.push_back({value, pc_, mnemonic_});
      return Status();
    case FieldKind::kFuncOrdinal:
      // Outside calls only vm.import.resolved names a function.
      if (!(value & kImportOrdinalBit)) {
        return Fail("%s 0x%08X is not an import ordinal (bit 31 clear)", name,
                    value);
      }
      return CheckImportOrdinal(value & ~kImportOrdinalBit, name);
    case FieldKind::kGlobalByteOffset: {
      const uint32_t width = GlobalAccessWidth(instruction);
      if (width == 0) {
        return Fail("opcode table gives no value type for the global access");
      }
      const int64_t capacity = def_.module_state.global_bytes_capacity;
      if (static_cast<int64_t>(value) + width > capacity) {
        return Fail(
            "global byte offset %u + %u bytes is outside the %lld "
            "byte(s) of global storage",
            value, width, static_cast<long long>(capacity));
      }
      return Status();
    }
    case FieldKind::kGlobalRefOrdinal: {
      const int64_t count = def_.module_state.global_ref_count;
      if (static_cast<int64_t>(value) >= count) {
        return Fail(
            "global ref ordinal %u is out of range (the module has "
            "%lld ref global(s))",
            value, static_cast<long long>(count));
      }
      return Status();
    }
    case FieldKind::kRodataOrdinal:
      if (value >= def_.rodata_segments.size()) {
        return Fail(
            "rodata ordinal %u is out of range (the module has %zu "
            "segment(s))",
            value, def_.rodata_segments.size());
      }
      return Status();
    case FieldKind::kTypeOrdinal:
      if (value >= def_.types.size()) {
        return Fail(
            "%s type ordinal %u is out of range (the module has %zu "
            "type(s))",
            name, value, def_.types.size());
      }
      return Status();
    default: return Status();  // immediates: any bits are valid
  }
}

Status FunctionVerifier::CheckRegister(uint16_t raw, OperandType type,
                                       bool allows_move, const LazyText& what) {
  switch (type) {
    case OperandType::kI32:
    case OperandType::kF32:
      if (raw & kRefRegisterBit) {
        return Fail("%s must be an %s register but is ref register %s",
                    what.str().c_str(), OperandTypeName(type),
                    RegisterText(raw).c_str());
      }
      if (raw >= i32_count_) {
        return Fail(
            "%s register %%i%u is out of range (the function has %u "
            "int register(s))",
            what.str().c_str(), raw, i32_count_);
      }
      return Status();
    case OperandType::kI64:
    case OperandType::kF64:
      if (raw & kRefRegisterBit) {
        return Fail("%s must be an %s register pair but is ref register %s",
                    what.str().c_str(), OperandTypeName(type),
                    RegisterText(raw).c_str());
      }
      if (raw & 1) {
        return Fail(
            "%s is a 64-bit (%s) value in odd register %%i%u; 64-bit "
            "values need an even register",
            what.str().c_str(), OperandTypeName(type), raw);
      }
      if (uint32_t{raw} + 1 >= i32_count_) {
        return Fail(
            "%s register pair %%i%u:%u is out of range (the function "
            "has %u int register(s))",
            what.str().c_str(), raw, raw + 1u, i32_count_);
      }
      return Status();
    case OperandType::kRef:
      if (!(raw & kRefRegisterBit)) {
        return Fail("%s must be a ref register but is int register %%i%u",
                    what.str().c_str(), raw);
      }
      if ((raw & kRefMoveBit) && !allows_move) {
        return Fail(
            "%s register %s has the MOVE bit, which this operand does "
            "not allow",
            what.str().c_str(), RegisterText(raw).c_str());
      }
      if ((raw & kRefOrdinalMask) >= ref_count_) {
        return Fail(
            "%s register %%r%u is out of range (the function has %u "
            "ref register(s))",
            what.str().c_str(), raw & kRefOrdinalMask, ref_count_);
      }
      return Status();
    case OperandType::kAny: return CheckAnyRegister(raw, allows_move, what);
    case OperandType::kNone: break;
  }
  return Fail("opcode table gives %s no value type", what.str().c_str());
}

Status FunctionVerifier::CheckAnyRegister(uint16_t raw, bool allows_move,
                                          const LazyText& what) {
  return CheckRegister(
      raw, (raw & kRefRegisterBit) ? OperandType::kRef : OperandType::kI32,
      allows_move, what);
}

Status FunctionVerifier::CheckRemap(const RemapList& remap,
                                    const LazyText& what) {
  for (uint16_t i = 0; i < remap.size(); ++i) {
    const uint16_t source = remap.source(i);
    const uint16_t destination = remap.destination(i);
    if ((source & kRefRegisterBit) != (destination & kRefRegisterBit)) {
      return Fail("%s pair %u copies %s to %s, across register banks",
                  what.str().c_str(), i, RegisterText(source).c_str(),
                  RegisterText(destination).c_str());
    }
    auto source_what = [&what, i] {
      return StringPrintf("%s pair %u source", what.str().c_str(), i);
    };
    auto destination_what = [&what, i] {
      return StringPrintf("%s pair %u destination", what.str().c_str(), i);
    };
    EMBER_RETURN_IF_ERROR(
        CheckAnyRegister(source, /*allows_move=*/true, source_what));
    EMBER_RETURN_IF_ERROR(
        CheckAnyRegister(destination, /*allows_move=*/false, destination_what));
  }
  return Status();
}

Status FunctionVerifier::CheckImportOrdinal(uint32_t ordinal,
                                            const char* what) {
  if (ordinal >= def_.imported_functions.size()) {
    return Fail(
        "%s import ordinal %u is out of range (the module has %zu "
        "import(s))",
        what, ordinal, def_.imported_functions.size());
  }
  return Status();
}

Status FunctionVerifier::VerifyCall(const DecodedInstruction& instruction) {
  const DecodedField* callee_field = nullptr;
  const DecodedField* segments = nullptr;
  const DecodedField* operands = nullptr;
  const DecodedField* results = nullptr;
  for (const DecodedField& field : instruction.field_span()) {
    switch (field.kind()) {
      case FieldKind::kFuncOrdinal: callee_field = &field; break;
      case FieldKind::kSegmentSizes: segments = &field; break;
      case FieldKind::kListAny: operands = &field; break;
      case FieldKind::kListResults: results = &field; break;
      default: break;
    }
  }
  if (!callee_field || !operands || !results) {
    return Fail(
        "opcode table describes a call without callee, operands and "
        "results");
  }
  const bool variadic = instruction.info->has_flag(kImportCalleeOnly);
  if (variadic && !segments) {
    return Fail("opcode table describes a variadic call without segments");
  }

  // What the callee's cconv says is worked out once per distinct string, and
  // the callee is named only in a message: a passing call costs
  // O(its operands), however long the callee's name or cconv.
  const uint32_t callee = callee_field->u32();
  CconvOwner owner{CconvOwner::Kind::kFunction, callee, {}};
  if (callee & kImportOrdinalBit) {
    const uint32_t import = callee & ~kImportOrdinalBit;
    EMBER_RETURN_IF_ERROR(CheckImportOrdinal(import, "callee"));
    owner.kind = CconvOwner::Kind::kImport;
    owner.ordinal = import;
    owner.cconv = def_.imported_functions[import].signature.calling_convention;
  } else {
    if (variadic) {
      return Fail(
          "variadic calls may only call imports, not internal "
          "function #%u",
          callee);
    }
    if (callee >= def_.function_descriptors.size()) {
      return Fail(
          "callee function ordinal %u is out of range (the module has "
          "%zu function(s))",
          callee, def_.function_descriptors.size());
    }
    if (callee < def_.function_signatures.size()) {
      owner.cconv = def_.function_signatures[callee].calling_convention;
    }
  }
  const CconvInfo& cconv = shared_.Cconv(owner.cconv);
  if (!cconv.status.ok()) {
    return Fail("callee %s has an invalid calling convention '%s': %s",
                Describe(owner, /*with_cconv=*/false).c_str(),
                Printable(owner.cconv).c_str(),
                std::string(cconv.status.message()).c_str());
  }

  if (variadic) {
    EMBER_RETURN_IF_ERROR(
        CheckVariadicArguments(operands->list, *segments, cconv, owner));
  } else {
    if (cconv.cconv.arguments.has_span) {
      return Fail(
          "callee %s takes variadic arguments; it must be called with "
          "vm.call.variadic",
          Describe(owner).c_str());
    }
    EMBER_RETURN_IF_ERROR(
        CheckListAgainstTypes(operands->list, cconv.cconv.arguments,
                              /*is_results=*/false, "operand", owner));
  }
  if (cconv.cconv.results.has_span) {
    return Fail("callee %s has variadic results, which calls cannot receive",
                Describe(owner).c_str());
  }
  return CheckListAgainstTypes(results->list, cconv.cconv.results,
                               /*is_results=*/true, "result", owner);
}

Status FunctionVerifier::VerifyReturn(const DecodedInstruction& instruction) {
  const DecodedField* operands = nullptr;
  for (const DecodedField& field : instruction.field_span()) {
    if (field.kind() == FieldKind::kListAny) operands = &field;
  }
  if (!operands) return Fail("opcode table describes a return without a list");
  const CconvOwner owner{CconvOwner::Kind::kOwnResults,
                         static_cast<uint32_t>(ordinal_), own_cconv_text_};
  const CconvSide& results = own_cconv_->cconv.results;
  if (operands->list.size() != results.size()) {
    return Fail("returns %u value(s) but %s has %zu", operands->list.size(),
                Describe(owner).c_str(), results.size());
  }
  for (uint16_t i = 0; i < operands->list.size(); ++i) {
    EMBER_RETURN_IF_ERROR(CheckCconvValue(results[i].type, operands->list[i],
                                          /*is_results=*/false,
                                          "returned value", i, owner));
  }
  return Status();
}

Status FunctionVerifier::CheckCconvValue(CconvType type, uint16_t raw,
                                         bool is_results, const char* what,
                                         size_t index,
                                         const CconvOwner& owner) {
  const OperandType value_type = OperandTypeOfCconv(type);
  if (value_type == OperandType::kNone) {
    return Fail("%s has unsupported cconv character '%c'",
                Describe(owner).c_str(), CconvChar(type));
  }
  auto label = [&] {
    return StringPrintf("%s %zu ('%c' of %s)", what, index, CconvChar(type),
                        Describe(owner).c_str());
  };
  // A ref passed as an argument or returned may be moved; a call's result
  // registers are written, where MOVE has no meaning.
  return CheckRegister(raw, value_type, /*allows_move=*/!is_results, label);
}

Status FunctionVerifier::CheckListAgainstTypes(const RegisterList& list,
                                               const CconvSide& types,
                                               bool is_results,
                                               const char* what,
                                               const CconvOwner& owner) {
  if (list.size() != types.size()) {
    return Fail("passes %u %s register(s) but %s has %zu", list.size(), what,
                Describe(owner).c_str(), types.size());
  }
  for (uint16_t i = 0; i < list.size(); ++i) {
    EMBER_RETURN_IF_ERROR(
        CheckCconvValue(types[i].type, list[i], is_results, what, i, owner));
  }
  return Status();
}

// A variadic call's operands: the segment list has one entry per top-level
// argument (-1 for a plain value, n >= 0 tuples for a span), and the operand
// list is exactly what those expand to. Each step consumes a segment or an
// operand, and spans are stepped over through their CconvSlot pairing, so this
// is O(segments + operands) however long the callee's cconv.
Status FunctionVerifier::CheckVariadicArguments(const RegisterList& list,
                                                const DecodedField& segments,
                                                const CconvInfo& cconv,
                                                const CconvOwner& owner) {
  const CconvSide& types = cconv.cconv.arguments;
  size_t segment = 0;
  size_t operand = 0;
  auto take = [&](CconvType type) -> Status {
    if (operand >= list.size()) {
      return Fail(
          "passes %u operand register(s) but the segment sizes of %s "
          "need more",
          list.size(), Describe(owner).c_str());
    }
    Status status = CheckCconvValue(type, list[operand], /*is_results=*/false,
                                    "operand", operand, owner);
    ++operand;
    return status;
  };
  size_t position = 0;
  while (position < types.size()) {
    if (segment >= segments.list.size()) {
      return Fail("has %u segment size(s) but %s has more top-level arguments",
                  segments.list.size(), Describe(owner).c_str());
    }
    const int16_t size = segments.segment_size(segment);
    if (types[position].type == CconvType::kSpanBegin) {
      const size_t end = types[position].ordinal;
      if (size < 0) {
        return Fail(
            "segment %zu is %d, but argument %zu of %s is a span and "
            "needs a count >= 0",
            segment, size, segment, Describe(owner).c_str());
      }
      for (int16_t tuple = 0; tuple < size; ++tuple) {
        for (size_t b = position + 1; b < end; ++b) {
          EMBER_RETURN_IF_ERROR(take(types[b].type));
        }
      }
      position = end + 1;
    } else {
      // IREE ignores the value. iree-compile 3.11 writes -1 for a plain
      // argument of vm.call.variadic but 1 in vm.call.variadic.yieldable
      // (IREE's async_ops test); a plain argument is one operand either way.
      if (size != -1 && size != 1) {
        return Fail(
            "segment %zu is %d, but argument %zu of %s is a plain "
            "value and needs -1 (or 1)",
            segment, size, segment, Describe(owner).c_str());
      }
      EMBER_RETURN_IF_ERROR(take(types[position].type));
      ++position;
    }
    ++segment;
  }
  if (segment != segments.list.size()) {
    return Fail("has %u segment size(s) but %s has %zu top-level argument(s)",
                segments.list.size(), Describe(owner).c_str(), segment);
  }
  if (operand != list.size()) {
    return Fail(
        "passes %u operand register(s) but the segment sizes of %s "
        "account for %zu",
        list.size(), Describe(owner).c_str(), operand);
  }
  return Status();
}

}  // namespace

ModuleVerifier::ModuleVerifier(const ModuleFile& file)
    : file_(file),
      shared_(std::make_unique<verifier_internal::SharedState>()) {}

ModuleVerifier::~ModuleVerifier() = default;

const ModuleVerifier::Stats& ModuleVerifier::stats() const {
  return shared_->stats;
}

Status ModuleVerifier::VerifyFunction(size_t ordinal) {
  const ModuleDef& def = file_.def();
  if (ordinal >= def.function_descriptors.size()) {
    return InvalidArgumentError(StringPrintf(
        "function ordinal %zu is out of range (the module has %zu function(s))",
        ordinal, def.function_descriptors.size()));
  }
  return FunctionVerifier(file_, ordinal, *shared_).Run();
}

Status VerifyFunction(const ModuleFile& file, size_t ordinal) {
  return ModuleVerifier(file).VerifyFunction(ordinal);
}

Status VerifyModuleBytecode(const ModuleFile& file) {
  ModuleVerifier verifier(file);
  for (size_t i = 0; i < file.def().function_descriptors.size(); ++i) {
    EMBER_RETURN_IF_ERROR(verifier.VerifyFunction(i),
                          "while verifying module '%s'",
                          Printable(file.name()).c_str());
  }
  return Status();
}

}  // namespace ember::vm::bytecode
