// One linear pass per function, driven by the opcode table. Each instruction
// is decoded, checked as a whole (block structure, extension requirements,
// calls), then field by field according to its FieldKind. Branch targets are
// collected and resolved against the block markers once the walk is done.
//
// That general path is the definition; most instructions never take it.
// Loading is dominated by this walk, so the forms that make up most bytecode
// (registers, immediates, ordinals, targets and lists in a fixed order) are
// checked straight from the bytes by a fast path built from the same table
// (FastForm), which only ever accepts; whatever it would not accept is
// handed to the general path, which finds and words the error. Tests compare
// the two on every corpus function and on thousands of mutants. A module
// with 1 MiB of bytecode or more is verified on two threads.
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

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "runtime/base/endian.h"
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

struct PendingTarget {
  uint32_t target;
  uint32_t pc;
  const char* mnemonic;
};

struct SharedState {
  // Never moved once inserted (unordered_map nodes are stable), so the
  // verifiers may hold references.
  std::unordered_map<StringIdentity, CconvInfo, StringIdentityHash> cconvs;
  ModuleVerifier::Stats stats;
  // The string last asked for and its analysis. Compilers write one cconv
  // string per function even where many are equal, and neighbours usually
  // are: comparing with the last one (O(its length), like the lookup's
  // hash) skips the map and a second analysis of the same text, which
  // could only give the same answer.
  std::string_view last_cconv;
  const CconvInfo* last_info = nullptr;
  // Per-function scratch, reused so that a function costs no allocation.
  std::vector<uint8_t> is_marker;
  std::vector<PendingTarget> targets;
  DecodedInstruction decoded;

  const CconvInfo& Cconv(std::string_view cconv) {
    static const CconvInfo* const kNone = new CconvInfo();
    if (cconv.empty()) return *kNone;
    if (last_info != nullptr && cconv == last_cconv) return *last_info;
    auto [it, inserted] = cconvs.try_emplace(StringIdentity(cconv));
    if (inserted) {
      it->second = AnalyzeCconv(cconv);
      ++stats.cconv_strings_analyzed;
      stats.cconv_bytes_analyzed += cconv.size();
    }
    last_cconv = cconv;
    last_info = &it->second;
    return it->second;
  }
};

namespace {
std::atomic<bool> fast_path_enabled{true};
}  // namespace

void SetFastPathEnabled(bool enabled) {
  fast_path_enabled.store(enabled, std::memory_order_relaxed);
}

}  // namespace verifier_internal

namespace {

using verifier_internal::PendingTarget;
using verifier_internal::SharedState;

// The fast path. Most instructions are registers, immediates, ordinals,
// branch targets and register lists in a fixed order (vm.add.i32,
// vm.const.f32, vm.global.load.i64, vm.br with its remap list, ...): for
// those the opcode alone says what each field is and what it must satisfy,
// so they are checked straight from the bytes, without decoding into a
// DecodedInstruction and without building message closures. The fast path
// only ever accepts: an instruction that would fail any check, or that is
// of another form (calls, checked against their callee's cconv; branch
// tables; vm.import.resolved), goes to the general path, which checks it
// from scratch and words the error. So the checks and the messages are
// exactly the general path's; tests compare the two on mutated modules.
enum class FastField : uint8_t {
  kI32,          // i32/f32 register: int bank, < the int register count
  kI64,          // i64/f64 pair: int bank, even, both halves in range
  kRef,          // ref register without MOVE, < the ref register count
  kRefMove,      // ref register, MOVE allowed
  kSkip4,        // u32 immediate: any bits are valid
  kSkip8,        // u64 immediate
  kTarget,       // u32 branch target, resolved after the walk
  kRemap,        // padded remap list (pairs of one bank each)
  kGlobalBytes,  // u32 byte offset of a FastForm::global_width access
  kGlobalRef,    // u32 ref global ordinal
  kRodata,       // u32 rodata ordinal
  kType,         // u32 type ordinal
  kString,       // u16 length + bytes: nothing to check
  kListI32,      // padded register lists, element types as named
  kListI64,
  kListRefMove,
  kListAny,  // either bank, MOVE allowed
  // vm.return's operands: typed by the function's own result cconv (refs
  // may be moved), as VerifyReturn checks them.
  kReturnList,
};
struct FastForm {
  const OpcodeInfo* info = nullptr;  // null: take the general path
  uint8_t head = 0;                  // prefix + opcode bytes
  uint8_t field_count = 0;
  uint8_t global_width = 0;
  bool is_marker = false;
  bool is_terminator = false;
  // For the prefix entries of the core table: the feature bit of the set
  // the next byte selects.
  uint32_t prefix_feature = 0;
  const char* mnemonic = nullptr;  // info->mnemonic
  FastField fields[kMaxInstructionFields] = {};
  // Only registers and immediates: `length` bytes in all, register i at
  // byte `register_offsets[i]` checked by rule `fields` of that register
  // (a FastField of kI32..kRefMove, which index the function's rules).
  bool fixed = false;
  uint8_t length = 0;
  uint8_t register_count = 0;
  uint8_t register_offsets[kMaxInstructionFields] = {};
  uint8_t register_rules[kMaxInstructionFields] = {};
  // On the dense path: every register is an i32/f32 one.
  bool dense_all_i32 = false;
};

static_assert(static_cast<int>(FastField::kI32) == 0 &&
              static_cast<int>(FastField::kRefMove) == 3);

// A register check as two comparisons, for the fixed forms: the bits under
// the must-mask equal the must-value (bank, MOVE, even), and the bits under
// the ordinal mask are below a limit of the function (Run). Indexed by
// FastField kI32..kRefMove.
constexpr uint32_t kRuleMustMask[4] = {kRefRegisterBit, kRefRegisterBit | 1u,
                                       kRefRegisterBit | kRefMoveBit,
                                       kRefRegisterBit};
constexpr uint32_t kRuleMustValue[4] = {0, 0, kRefRegisterBit, kRefRegisterBit};
constexpr uint32_t kRuleOrdinalMask[4] = {0xFFFF, 0xFFFF, kRefOrdinalMask,
                                          kRefOrdinalMask};

struct FastForms {
  FastForm core[256];
  FastForm ext_f32[256];
  FastForm ext_f64[256];
  // The densest path, for core fixed forms with 1 to 4 registers that are
  // neither the block marker nor terminators: their length by opcode (0 for
  // the others). The
  // walk's loop-carried chain is opcode -> length -> next pc, so it goes
  // through this small table; the checks hang off it.
  uint8_t core_dense_length[256] = {};
};

// The FastField of `field`, or false when it needs the general path.
bool ToFastField(const FieldInfo& field, FastField* out) {
  const FieldTraits traits = GetFieldTraits(field.kind);
  switch (field.kind) {
    case FieldKind::kImmI32:
    case FieldKind::kImmF32: *out = FastField::kSkip4; return true;
    case FieldKind::kImmI64:
    case FieldKind::kImmF64: *out = FastField::kSkip8; return true;
    case FieldKind::kBranchTarget: *out = FastField::kTarget; return true;
    case FieldKind::kBranchRemap: *out = FastField::kRemap; return true;
    case FieldKind::kGlobalByteOffset:
      *out = FastField::kGlobalBytes;
      return true;
    case FieldKind::kGlobalRefOrdinal:
      *out = FastField::kGlobalRef;
      return true;
    case FieldKind::kRodataOrdinal: *out = FastField::kRodata; return true;
    case FieldKind::kTypeOrdinal: *out = FastField::kType; return true;
    case FieldKind::kString: *out = FastField::kString; return true;
    case FieldKind::kListI32:
    case FieldKind::kListF32: *out = FastField::kListI32; return true;
    case FieldKind::kListI64:
    case FieldKind::kListF64: *out = FastField::kListI64; return true;
    case FieldKind::kListRefMove: *out = FastField::kListRefMove; return true;
    case FieldKind::kListAny: *out = FastField::kListAny; return true;
    default: break;
  }
  if (traits.encoding != FieldEncoding::kRegister) return false;
  switch (traits.type) {
    case OperandType::kI32:
    case OperandType::kF32: *out = FastField::kI32; return true;
    case OperandType::kI64:
    case OperandType::kF64: *out = FastField::kI64; return true;
    case OperandType::kRef:
      *out = traits.allows_move ? FastField::kRefMove : FastField::kRef;
      return true;
    default: return false;
  }
}

void BuildFastForms(OpcodeSet set, FastForm (&forms)[256]) {
  for (const OpcodeInfo& info : OpcodesInSet(set)) {
    // Calls are checked against their callee's cconv; prefixes select a
    // set.
    if (info.flags & (kCall | kPrefix)) continue;
    FastForm form;
    form.head = info.set == OpcodeSet::kCore ? 1 : 2;
    if (info.set == OpcodeSet::kCore &&
        info.opcode == static_cast<uint8_t>(CoreOpcode::Return)) {
      form.fields[form.field_count++] = FastField::kReturnList;
      form.is_terminator = true;
      form.mnemonic = info.mnemonic;
      form.info = &info;
      forms[info.opcode] = form;
      continue;
    }
    bool simple = true;
    for (const FieldInfo& field : info.field_span()) {
      FastField fast;
      if (!ToFastField(field, &fast)) {
        simple = false;
        break;
      }
      form.fields[form.field_count++] = fast;
    }
    if (!simple) continue;
    form.is_marker = info.has_flag(kBlockMarker);
    form.is_terminator = info.has_flag(kTerminator);
    form.mnemonic = info.mnemonic;
    form.fixed = true;
    size_t offset = form.head;
    for (uint8_t f = 0; f < form.field_count && form.fixed; ++f) {
      switch (form.fields[f]) {
        case FastField::kI32:
        case FastField::kI64:
        case FastField::kRef:
        case FastField::kRefMove:
          form.register_offsets[form.register_count] =
              static_cast<uint8_t>(offset);
          form.register_rules[form.register_count] =
              static_cast<uint8_t>(form.fields[f]);
          ++form.register_count;
          offset += 2;
          break;
        case FastField::kSkip4: offset += 4; break;
        case FastField::kSkip8: offset += 8; break;
        default: form.fixed = false; break;
      }
    }
    form.length = form.fixed ? static_cast<uint8_t>(offset) : 0;
    // As GlobalAccessWidth: the type of the first register field.
    for (const FieldInfo& field : info.field_span()) {
      const FieldTraits traits = GetFieldTraits(field.kind);
      if (traits.encoding != FieldEncoding::kRegister) continue;
      if (traits.type == OperandType::kI32 ||
          traits.type == OperandType::kF32) {
        form.global_width = 4;
        break;
      }
      if (traits.type == OperandType::kI64 ||
          traits.type == OperandType::kF64) {
        form.global_width = 8;
        break;
      }
    }
    form.info = &info;
    forms[info.opcode] = form;
  }
}

const FastForms& GetFastForms() {
  static const FastForms* const forms = [] {
    auto* built = new FastForms();
    BuildFastForms(OpcodeSet::kCore, built->core);
    for (int op = 0; op < 256; ++op) {
      FastForm& form = built->core[op];
      if (form.info == nullptr || !form.fixed || form.is_marker ||
          form.is_terminator || form.register_count == 0 ||
          form.register_count > 4) {
        continue;
      }
      // Unused slots check the first register again.
      for (uint8_t i = form.register_count; i < 4; ++i) {
        form.register_offsets[i] = form.register_offsets[0];
        form.register_rules[i] = form.register_rules[0];
      }
      form.dense_all_i32 = true;
      for (int i = 0; i < 4; ++i) {
        form.dense_all_i32 &=
            form.register_rules[i] == static_cast<uint8_t>(FastField::kI32);
      }
      built->core_dense_length[op] = form.length;
    }
    built->core[kPrefixExtF32Opcode].prefix_feature = kFeatureExtF32;
    built->core[kPrefixExtF64Opcode].prefix_feature = kFeatureExtF64;
    BuildFastForms(OpcodeSet::kExtF32, built->ext_f32);
    BuildFastForms(OpcodeSet::kExtF64, built->ext_f64);
    return built;
  }();
  return *forms;
}

// Where the walk over a function's instructions stands.
struct WalkState {
  bool in_block = false;
  int64_t marker_count = 0;
  uint32_t last_pc = 0;
};

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
        shared_(shared),
        is_marker_(shared.is_marker),
        targets_(shared.targets) {}

  Status Run();

 private:
  // The fast path's form of the instruction at `pc` (prefix resolved,
  // extension declared), or null when it must take the general path.
  const FastForm* FastFormAt(const FastForms& forms, uint32_t pc) const;
  // The fast path for forms that are not fixed (lists, targets, ordinals,
  // strings): true with `*next` past the instruction when all pass.
  bool TryFastFields(const FastForm& form, uint32_t pc, size_t* next);
  // The general path: decodes the instruction at `*pc`, checks it and
  // advances past it, or returns the error.
  Status Step(uint32_t* pc, WalkState& walk);

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

  // Byte pc of the function -> 1 where a block marker is; the branch
  // targets to check against it at the end. Shared scratch (SharedState).
  std::vector<uint8_t>& is_marker_;
  std::vector<PendingTarget>& targets_;
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
  // The arguments may take more registers than the descriptor declares:
  // IREE 3.12+'s assembler (iree-as-module) counts only the registers that
  // instructions name, so an unused trailing argument lies past the count,
  // and IREE's runtime accepts that. BytecodeModule sizes each frame for
  // max(declared, arguments) instead; what must hold is that the arguments
  // fit the ISA's register file at all.
  if (arguments.i32_registers > static_cast<uint64_t>(kMaxI32Registers) ||
      arguments.ref_registers > static_cast<uint64_t>(kMaxRefRegisters)) {
    return Fail(
        "arguments need %llu int and %llu ref registers, more than the "
        "ISA's %d and %d (cconv '%s')",
        static_cast<unsigned long long>(arguments.i32_registers),
        static_cast<unsigned long long>(arguments.ref_registers),
        kMaxI32Registers, kMaxRefRegisters, Printable(cconv).c_str());
  }
  return Status();
}

Status FunctionVerifier::Run() {
  EMBER_RETURN_IF_ERROR(VerifySignature());
  if (code_.empty()) {
    return FailAt(0, "function", "the function has no bytecode");
  }
  is_marker_.assign(code_.size(), 0);
  targets_.clear();
  const FastForms& forms = GetFastForms();
  // (Functions of 4 GiB and more are left to the decoder's message.)
  const bool fast =
      verifier_internal::fast_path_enabled.load(std::memory_order_relaxed) &&
      code_.size() <= std::numeric_limits<uint32_t>::max();
  // The walk's state lives in locals (registers) on the fast path and in a
  // WalkState only across the general path.
  const uint8_t* const code = code_.data();
  const size_t end = code_.size();
  uint8_t* const marks = is_marker_.data();
  // The limits of the register rules (kRuleMustMask) by FastField
  // kI32..kRefMove; clamped so that a flag bit is never in range.
  const uint32_t ints = std::min<uint32_t>(i32_count_, kRefRegisterBit);
  const uint32_t refs = std::min<uint32_t>(ref_count_, kRefMoveBit);
  const uint32_t limits[4] = {ints, ints == 0 ? 0 : ints - 1, refs, refs};
  auto register_fails = [&](const uint8_t* p, const FastForm& form,
                            int i) -> uint32_t {
    const uint32_t raw = LoadLE<uint16_t>(p + form.register_offsets[i]);
    const uint8_t rule = form.register_rules[i];
    return static_cast<uint32_t>((raw & kRuleMustMask[rule]) !=
                                 kRuleMustValue[rule]) |
           static_cast<uint32_t>((raw & kRuleOrdinalMask[rule]) >=
                                 limits[rule]);
  };
  bool walk_in_block = false;
  int64_t walk_markers = 0;
  uint32_t walk_last_pc = 0;
  uint32_t pc = 0;
  while (pc < end) {
    if (fast) {
      const uint8_t opcode = code[pc];
      const uint32_t length = forms.core_dense_length[opcode];
      if (length != 0 && walk_in_block && end - pc >= length) {
        const FastForm& form = forms.core[opcode];
        const uint8_t* const p = code + pc;
        bool passed;
        if (form.dense_all_i32) {
          // Int registers only: below the count is the whole check (one
          // with the ref bit is >= 0x8000, above any count).
          passed =
              (static_cast<uint32_t>(
                   LoadLE<uint16_t>(p + form.register_offsets[0]) >= ints) |
               static_cast<uint32_t>(
                   LoadLE<uint16_t>(p + form.register_offsets[1]) >= ints) |
               static_cast<uint32_t>(
                   LoadLE<uint16_t>(p + form.register_offsets[2]) >= ints) |
               static_cast<uint32_t>(
                   LoadLE<uint16_t>(p + form.register_offsets[3]) >= ints)) ==
              0;
        } else {
          passed =
              (register_fails(p, form, 0) | register_fails(p, form, 1) |
               register_fails(p, form, 2) | register_fails(p, form, 3)) == 0;
        }
        if (passed) {
          walk_last_pc = pc;
          pc += length;
          continue;
        }
      }
      const FastForm* form = FastFormAt(forms, pc);
      if (form != nullptr && form->is_marker != walk_in_block) {
        bool passed;
        size_t next = size_t{pc} + form->length;
        if (form->fixed) {
          passed = end - pc >= form->length;
          if (passed) {
            const uint8_t* const p = code + pc;
            uint32_t failed = 0;
            for (uint8_t i = 0; i < form->register_count; ++i) {
              failed |= register_fails(p, *form, i);
            }
            passed = failed == 0;
          }
        } else {
          passed = TryFastFields(*form, pc, &next);
        }
        if (passed) {
          if (form->is_marker) {
            walk_in_block = true;
            marks[pc] = 1;
            ++walk_markers;
          }
          if (form->is_terminator) walk_in_block = false;
          walk_last_pc = pc;
          pc = static_cast<uint32_t>(next);
          continue;
        }
      }
    }
    WalkState walk{walk_in_block, walk_markers, walk_last_pc};
    EMBER_RETURN_IF_ERROR(Step(&pc, walk));
    walk_in_block = walk.in_block;
    walk_markers = walk.marker_count;
    walk_last_pc = walk.last_pc;
  }
  const bool in_block = walk_in_block;
  const int64_t marker_count = walk_markers;
  const uint32_t last_pc = walk_last_pc;
  // The last instruction's mnemonic, for the messages below: found again
  // only when one is needed (it decoded and passed, so this cannot fail).
  auto last_mnemonic = [this, last_pc] {
    DecodedInstruction& last = shared_.decoded;
    return DecodeInstruction(code_, last_pc, &last).ok() ? last.info->mnemonic
                                                         : "instruction";
  };

  if (in_block) {
    return FailAt(last_pc, last_mnemonic(),
                  "the function ends without a terminator in its last block");
  }
  if (marker_count != descriptor_.block_count) {
    return FailAt(last_pc, last_mnemonic(),
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

const FastForm* FunctionVerifier::FastFormAt(const FastForms& forms,
                                             uint32_t pc) const {
  const uint8_t* const code = code_.data();
  const FastForm* form = &forms.core[code[pc]];
  if (form->prefix_feature != 0) {
    if (code_.size() - pc < 2) return nullptr;
    if (!(descriptor_.requirements & form->prefix_feature)) return nullptr;
    form = form->prefix_feature == kFeatureExtF64
               ? &forms.ext_f64[code[pc + 1]]
               : &forms.ext_f32[code[pc + 1]];
  }
  return form->info != nullptr ? form : nullptr;
}

bool FunctionVerifier::TryFastFields(const FastForm& fast_form, uint32_t pc,
                                     size_t* next) {
  const FastForm* const form = &fast_form;
  const uint8_t* const code = code_.data();
  const size_t end = code_.size();

  // Checks of one register as CheckRegister / CheckAnyRegister would pass
  // it.
  const uint32_t i32_count = i32_count_;
  const uint32_t ref_count = ref_count_;
  auto int_ok = [i32_count](uint32_t raw) {
    return !(raw & kRefRegisterBit) && raw < i32_count;
  };
  auto pair_ok = [i32_count](uint32_t raw) {
    return !(raw & (kRefRegisterBit | 1u)) && raw + 1 < i32_count;
  };
  auto ref_ok = [ref_count](uint32_t raw, bool allows_move) {
    return (raw & kRefRegisterBit) && (allows_move || !(raw & kRefMoveBit)) &&
           (raw & kRefOrdinalMask) < ref_count;
  };
  auto any_ok = [&](uint32_t raw, bool allows_move) {
    return (raw & kRefRegisterBit) ? ref_ok(raw, allows_move) : int_ok(raw);
  };
  const size_t targets_before = targets_.size();
  auto reject = [&] {
    targets_.resize(targets_before);
    return false;
  };
  size_t q = size_t{pc} + form->head;
  for (uint8_t f = 0; f < form->field_count; ++f) {
    const FastField field = form->fields[f];
    switch (field) {
      case FastField::kI32:
      case FastField::kI64:
      case FastField::kRef:
      case FastField::kRefMove: {
        if (end - q < 2) return reject();
        const uint32_t raw = LoadLE<uint16_t>(code + q);
        q += 2;
        const bool ok = field == FastField::kI32 ? int_ok(raw)
                        : field == FastField::kI64
                            ? pair_ok(raw)
                            : ref_ok(raw, field == FastField::kRefMove);
        if (!ok) return reject();
        break;
      }
      case FastField::kSkip8:
        if (end - q < 8) return reject();
        q += 8;
        break;
      case FastField::kString: {
        if (end - q < 2) return reject();
        const size_t length = LoadLE<uint16_t>(code + q);
        q += 2;
        if (end - q < length) return reject();
        q += length;
        break;
      }
      case FastField::kReturnList: {
        q += q & 1u;
        if (q > end || end - q < 2) return reject();
        const size_t count = LoadLE<uint16_t>(code + q);
        q += 2;
        if ((end - q) / 2 < count) return reject();
        const CconvSide& results = own_cconv_->cconv.results;
        if (count != results.size()) return reject();
        for (size_t i = 0; i < count; ++i) {
          const uint32_t raw = LoadLE<uint16_t>(code + q + 2 * i);
          bool ok;
          switch (results[i].type) {
            case CconvType::kI32:
            case CconvType::kF32: ok = int_ok(raw); break;
            case CconvType::kI64:
            case CconvType::kF64: ok = pair_ok(raw); break;
            case CconvType::kRef: ok = ref_ok(raw, /*allows_move=*/true); break;
            default: ok = false; break;
          }
          if (!ok) return reject();
        }
        q += 2 * count;
        break;
      }
      case FastField::kRemap:
      case FastField::kListI32:
      case FastField::kListI64:
      case FastField::kListRefMove:
      case FastField::kListAny: {
        q += q & 1u;  // padding to an even offset in the function
        if (q > end || end - q < 2) return reject();
        const size_t count = LoadLE<uint16_t>(code + q);
        q += 2;
        const size_t width = field == FastField::kRemap ? 4 : 2;
        if ((end - q) / width < count) return reject();
        const uint8_t* item = code + q;
        q += count * width;
        for (size_t i = 0; i < count; ++i, item += width) {
          const uint32_t raw = LoadLE<uint16_t>(item);
          bool ok;
          switch (field) {
            case FastField::kRemap: {
              const uint32_t destination = LoadLE<uint16_t>(item + 2);
              ok = (raw & kRefRegisterBit) == (destination & kRefRegisterBit) &&
                   any_ok(raw, /*allows_move=*/true) &&
                   any_ok(destination, /*allows_move=*/false);
              break;
            }
            case FastField::kListI32: ok = int_ok(raw); break;
            case FastField::kListI64: ok = pair_ok(raw); break;
            case FastField::kListRefMove: ok = ref_ok(raw, true); break;
            default: ok = any_ok(raw, true); break;
          }
          if (!ok) return reject();
        }
        break;
      }
      default: {  // the u32 fields
        if (end - q < 4) return reject();
        const uint32_t value = LoadLE<uint32_t>(code + q);
        q += 4;
        bool ok = true;
        switch (field) {
          case FastField::kTarget:
            targets_.push_back({value, pc, form->info->mnemonic});
            break;
          case FastField::kGlobalBytes:
            ok = form->global_width != 0 &&
                 static_cast<int64_t>(value) + form->global_width <=
                     def_.module_state.global_bytes_capacity;
            break;
          case FastField::kGlobalRef:
            ok = static_cast<int64_t>(value) <
                 def_.module_state.global_ref_count;
            break;
          case FastField::kRodata:
            ok = value < def_.rodata_segments.size();
            break;
          case FastField::kType: ok = value < def_.types.size(); break;
          default: break;  // kSkip4
        }
        if (!ok) return reject();
        break;
      }
    }
  }
  *next = q;
  return true;
}

Status FunctionVerifier::Step(uint32_t* pc_in_out, WalkState& walk) {
  const uint32_t pc = *pc_in_out;
  // Reused: constructing one zeroes every field slot.
  DecodedInstruction& instruction = shared_.decoded;
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
    if (walk.in_block) {
      return Fail(
          "block marker inside a block: the previous block has no "
          "terminator");
    }
    walk.in_block = true;
    is_marker_[pc] = 1;
    ++walk.marker_count;
  } else if (!walk.in_block) {
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

  if (info.has_flag(kTerminator)) walk.in_block = false;
  walk.last_pc = pc;
  *pc_in_out = instruction.next_pc;
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

namespace {

// Verifies functions [begin, end) in order with one ModuleVerifier; the
// first failure.
Status VerifyFunctionRange(const ModuleFile& file, size_t begin, size_t end) {
  ModuleVerifier verifier(file);
  for (size_t i = begin; i < end; ++i) {
    EMBER_RETURN_IF_ERROR(verifier.VerifyFunction(i));
  }
  return Status();
}

// Below this much bytecode a second thread costs more than it saves
// (starting one is tens of microseconds; verifying runs at about 1 ns per
// byte).
constexpr size_t kParallelBytecodeBytes = size_t{1} << 20;

}  // namespace

Status VerifyModuleBytecode(const ModuleFile& file) {
  const size_t count = file.def().function_descriptors.size();
  // A large module is verified in two halves (by bytecode bytes) at once:
  // the functions are independent. The answer is the sequential one: the
  // first half's first failure, else the second half's.
  size_t split = count;
  if (file.def().bytecode_data.size() >= kParallelBytecodeBytes &&
      std::thread::hardware_concurrency() >= 2) {
    const size_t half = file.def().bytecode_data.size() / 2;
    size_t bytes = 0;
    split = 0;
    while (split < count && bytes < half) {
      bytes += file.FunctionBytecode(split).size();
      ++split;
    }
  }
  Status status;
  if (split > 0 && split < count) {
    Status second;
    std::thread worker;
    try {
      worker = std::thread([&file, &second, split, count] {
        second = VerifyFunctionRange(file, split, count);
      });
    } catch (const std::system_error&) {
      // No thread to be had: verify everything here.
    }
    if (worker.joinable()) {
      status = VerifyFunctionRange(file, 0, split);
      worker.join();
      if (status.ok()) status = std::move(second);
    } else {
      status = VerifyFunctionRange(file, 0, count);
    }
  } else {
    status = VerifyFunctionRange(file, 0, count);
  }
  EMBER_RETURN_IF_ERROR(std::move(status), "while verifying module '%s'",
                        Printable(file.name()).c_str());
  return Status();
}

}  // namespace ember::vm::bytecode
