#include "runtime/vm/bytecode/quickened_code.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/instruction_layout.h"
#include "runtime/vm/bytecode/opcode_table.h"
#include "runtime/vm/bytecode/quicken_blocks_internal.h"
#include "runtime/vm/bytecode/quicken_constants_internal.h"
#include "runtime/vm/bytecode/quicken_forwarding_internal.h"
#include "runtime/vm/bytecode/quicken_liveness_internal.h"

namespace ember::vm::bytecode {
namespace {

using quicken::Coalesced;
using quicken::ConstantFlow;
using quicken::FunctionBlocks;
using quicken::IsScalarRemap;
using quicken::WorkBudget;

constexpr size_t kExtF32Count = std::size(kExtF32OpcodeBytes);

// The internal opcodes must not collide with any core opcode byte (the
// dispatch table is shared), nor with each other.
constexpr bool InternalOpcodesAreFree() {
  std::array<bool, 256> used{};
  for (uint8_t byte : kCoreOpcodeBytes) used[byte] = true;
  for (size_t i = 0; i < kDirectExtF32Count; ++i) {
    size_t byte = kFirstDirectExtF32Opcode + i;
    if (byte > 255 || used[byte]) return false;
    used[byte] = true;
  }
  bool ok = true;
#define EMBER_VM_CHECK_FREE(name, byte) \
  ok = ok && !used[byte];               \
  used[byte] = true;
  EMBER_VM_EXEC_OPCODES(EMBER_VM_CHECK_FREE)
#undef EMBER_VM_CHECK_FREE
  return ok;
}
static_assert(InternalOpcodesAreFree(),
              "internal opcodes overlap bytecode-17 core opcodes");

// The direct opcode of each ExtF32 opcode byte (0: it has none).
constexpr std::array<uint8_t, 256> MakeDirectExtF32() {
  std::array<uint8_t, 256> direct{};
  for (size_t i = 0; i < kDirectExtF32Count; ++i) {
    direct[kDirectExtF32Ops[i]] =
        static_cast<uint8_t>(kFirstDirectExtF32Opcode + i);
  }
  return direct;
}
constexpr std::array<uint8_t, 256> kDirectOpcodeOf = MakeDirectExtF32();
static_assert(kDirectExtF32Count <= kExtF32Count);

// ---- where the rewritten fields sit -----------------------------------------
// An internal form keeps the fields of the instruction it is made from
// (an immediate takes the u16 slot of the register it replaces), so the
// offsets it is written at are that instruction's layout, which the
// interpreter's handlers read with the same layouts.

constexpr bool SameFields(const InstructionLayout& a,
                          const InstructionLayout& b) {
  if (a.field_count != b.field_count || a.size != b.size) return false;
  for (int i = 0; i < a.field_count; ++i) {
    if (a.kinds[i] != b.kinds[i] || a.offsets[i] != b.offsets[i]) return false;
  }
  return true;
}

// Fields of the binary ops that get immediate forms: lhs, rhs, result.
enum BinaryField { kLhs = 0, kRhs = 1 };
// Fields of the multiply-adds a * b + c.
enum MultiplyAddField { kFactorA = 0, kFactorB = 1, kAddend = 2 };
// Fields of vm.br and vm.cond_br as the file encodes them.
enum BranchField { kBranchTarget = 0, kBranchRemap = 1 };
enum CondBranchField {
  kCondition = 0,
  kTrueTarget = 1,
  kTrueRemap = 2,
  kFalseTarget = 3,
  kFalseRemap = 4,
};

// One layout for all the i32 binary ops with immediate forms, and one for
// the f32 ones.
constexpr const InstructionLayout& kI32Binary = layouts::kCoreAddI32;
static_assert(SameFields(layouts::kCoreSubI32, kI32Binary) &&
              SameFields(layouts::kCoreMulI32, kI32Binary) &&
              SameFields(layouts::kCoreAndI32, kI32Binary) &&
              SameFields(layouts::kCoreOrI32, kI32Binary) &&
              SameFields(layouts::kCoreXorI32, kI32Binary) &&
              SameFields(layouts::kCoreShlI32, kI32Binary) &&
              SameFields(layouts::kCoreShrI32S, kI32Binary) &&
              SameFields(layouts::kCoreShrI32U, kI32Binary));
constexpr const InstructionLayout& kF32Binary = layouts::kExtF32AddF32;
static_assert(SameFields(layouts::kExtF32SubF32, kF32Binary) &&
              SameFields(layouts::kExtF32MulF32, kF32Binary));
constexpr const InstructionLayout& kI32MultiplyAdd = layouts::kCoreFMAI32;
constexpr const InstructionLayout& kF32MultiplyAdd = layouts::kExtF32FMAF32;

// ---- encoding helpers
// ---------------------------------------------------------

void Put16(uint8_t* p, uint16_t value) {
  p[0] = static_cast<uint8_t>(value);
  p[1] = static_cast<uint8_t>(value >> 8);
}
void Put32(uint8_t* p, uint32_t value) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(value >> (8 * i));
}
uint8_t* PutPairs(uint8_t* p, RemapList remap) {
  for (size_t i = 0; i < remap.size(); ++i) {
    Put16(p, remap.source(i));
    Put16(p + 2, remap.destination(i));
    p += 4;
  }
  return p;
}
// A 16-bit immediate in an operand slot: the handler sign-extends it.
uint16_t Immediate16(int32_t value) {
  return static_cast<uint16_t>(static_cast<int16_t>(value));
}
// Offset from the branch at `pc` to the instruction after the block marker
// at `target`.
uint32_t Relative(uint32_t pc, uint32_t target) {
  return static_cast<uint32_t>(static_cast<int64_t>(target) + 1 -
                               static_cast<int64_t>(pc));
}

// ---- opcode choices
// -----------------------------------------------------------

QuickOpcode BranchOpcode(size_t copies) {
  switch (copies) {
    case 0: return QuickOpcode::kBrI32x0;
    case 1: return QuickOpcode::kBrI32x1;
    case 2: return QuickOpcode::kBrI32x2;
    case 3: return QuickOpcode::kBrI32x3;
    default: return QuickOpcode::kBrI32xN;
  }
}

// The fusable i32 comparisons and their three internal forms: fused with
// the branch (result stored), fused with the result left out (...BrD), and
// the back edges that jump into each fused head.
struct FusedCompareForms {
  CoreOpcode compare;
  QuickOpcode fused;
  QuickOpcode fused_dead;
  QuickOpcode branch_into;
  QuickOpcode branch_into_dead;
  QuickOpcode latch_into_dead;  // add-immediate + branch_into_dead
};
constexpr FusedCompareForms kFusedCompares[] = {
#define EMBER_VM_FUSED_FORMS(name) \
  {CoreOpcode::name,               \
   QuickOpcode::k##name##Br,       \
   QuickOpcode::k##name##BrD,      \
   QuickOpcode::kBrTo##name##Br,   \
   QuickOpcode::kBrTo##name##BrD,  \
   QuickOpcode::kAddImmBrTo##name##BrD},
    EMBER_VM_FUSED_FORMS(CmpEQI32) EMBER_VM_FUSED_FORMS(CmpNEI32)
        EMBER_VM_FUSED_FORMS(CmpLTI32S) EMBER_VM_FUSED_FORMS(CmpLTI32U)
            EMBER_VM_FUSED_FORMS(CmpNZI32)
#undef EMBER_VM_FUSED_FORMS
};

// The fused compare-and-branch opcode of an i32 comparison, if it has one.
// `dead`: the comparison's result is dead after the branch (only the branch
// reads it), so the fused handler need not store it.
bool FusedCompare(uint8_t core_opcode, bool dead, QuickOpcode* fused) {
  for (const FusedCompareForms& forms : kFusedCompares) {
    if (static_cast<uint8_t>(forms.compare) == core_opcode) {
      *fused = dead ? forms.fused_dead : forms.fused;
      return true;
    }
  }
  return false;
}

// The branch that jumps straight into fused head `head`, if any, and the
// latch form (add-immediate, then that branch) when there is one.
bool BranchIntoHead(uint8_t head, QuickOpcode* chained,
                    std::optional<QuickOpcode>* latch) {
  for (const FusedCompareForms& forms : kFusedCompares) {
    if (head == static_cast<uint8_t>(forms.fused)) {
      *chained = forms.branch_into;
      latch->reset();
      return true;
    }
    if (head == static_cast<uint8_t>(forms.fused_dead)) {
      *chained = forms.branch_into_dead;
      *latch = forms.latch_into_dead;
      return true;
    }
  }
  return false;
}

// The immediate form of an i32 binary op, and whether it is commutative.
bool ImmediateForm(uint8_t core_opcode, QuickOpcode* form, bool* commutative) {
  *commutative = true;
  switch (static_cast<CoreOpcode>(core_opcode)) {
    case CoreOpcode::AddI32: *form = QuickOpcode::kAddI32Imm; return true;
    case CoreOpcode::MulI32: *form = QuickOpcode::kMulI32Imm; return true;
    case CoreOpcode::AndI32: *form = QuickOpcode::kAndI32Imm; return true;
    case CoreOpcode::OrI32: *form = QuickOpcode::kOrI32Imm; return true;
    case CoreOpcode::XorI32: *form = QuickOpcode::kXorI32Imm; return true;
    default: break;
  }
  *commutative = false;
  switch (static_cast<CoreOpcode>(core_opcode)) {
    case CoreOpcode::SubI32: *form = QuickOpcode::kSubI32Imm; return true;
    case CoreOpcode::ShlI32: *form = QuickOpcode::kShlI32Imm; return true;
    case CoreOpcode::ShrI32S: *form = QuickOpcode::kShrI32SImm; return true;
    case CoreOpcode::ShrI32U: *form = QuickOpcode::kShrI32UImm; return true;
    default: return false;
  }
}

// The immediate form of an ExtF32 binary op with a constant right operand,
// and whether the op is commutative.
bool F32ImmediateForm(uint8_t ext_opcode, QuickOpcode* form,
                      bool* commutative) {
  switch (static_cast<ExtF32Opcode>(ext_opcode)) {
    case ExtF32Opcode::AddF32:
      *form = QuickOpcode::kAddF32Imm;
      *commutative = true;
      return true;
    case ExtF32Opcode::SubF32:
      *form = QuickOpcode::kSubF32Imm;
      *commutative = false;
      return true;
    case ExtF32Opcode::MulF32:
      *form = QuickOpcode::kMulF32Imm;
      *commutative = true;
      return true;
    default: return false;
  }
}

// Whether the high half of a bfloat16-exact f32 constant is a NaN. A NaN
// is never moved from the left operand to the right: with two NaN operands
// the result's payload depends on their order.
bool IsNaNBf16(uint16_t high) {
  return (high & 0x7F80u) == 0x7F80u && (high & 0x007Fu) != 0;
}

bool CpuHasFma() {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

// ---- the rewrites
// -------------------------------------------------------------

// Rewrites one function's copy. Run applies the analyses' results, then
// walks the function once in pc order (each instruction's rewrite reads the
// constants before it and may fuse with the one before it), then rewrites
// the back edges (every loop head is final by then), then forwards results
// (every instruction is final by then).
class Quickener {
 public:
  Quickener(std::span<const uint8_t> function, const QuickenOptions& options,
            std::vector<uint8_t>& code, const Coalesced& coalesced,
            std::optional<ConstantFlow>& flow,
            const std::vector<std::optional<int32_t>>& function_constants)
      : function_(function),
        options_(options),
        code_(code),
        coalesced_(coalesced),
        flow_(flow),
        function_constants_(function_constants) {}

  Status Run() {
    ApplyCoalescedCopies();
    DecodedInstruction instruction;
    for (uint32_t pc = 0; pc < function_.size(); pc = instruction.next_pc) {
      EMBER_RETURN_IF_ERROR(DecodeInstruction(function_, pc, &instruction),
                            "preparing pc %u for execution", pc);
      if (flow_) flow_->Step(instruction);
      const std::optional<PendingCompare> previous =
          std::exchange(compare_, std::nullopt);
      switch (instruction.info->set) {
        case OpcodeSet::kCore: RewriteCore(instruction, previous); break;
        case OpcodeSet::kExtF32:
          if (options_.direct_ext_f32) RewriteExtF32(instruction);
          break;
        default: break;
      }
    }
    RewriteBackEdges();
    if (options_.forward_results) quicken::ForwardResults(function_, code_);
    return Status();
  }

 private:
  // An i32 comparison that may fuse with a vm.cond_br right after it.
  struct PendingCompare {
    uint32_t pc;
    uint16_t result;
    uint8_t opcode;  // core opcode of the comparison
  };

  uint8_t* At(const DecodedInstruction& instruction) {
    return code_.data() + instruction.pc;
  }

  // The constant in `reg` before the current instruction: per use when the
  // dataflow ran, else the function-wide rule.
  std::optional<int32_t> ConstantOf(uint16_t reg) const {
    if (flow_) return flow_->Value(reg);
    if (reg >= function_constants_.size()) return std::nullopt;
    return function_constants_[reg];
  }
  // A constant that fits an operand slot as a 16-bit immediate.
  std::optional<int32_t> SmallConstant(uint16_t reg) const {
    std::optional<int32_t> constant = ConstantOf(reg);
    if (!constant) return std::nullopt;
    int32_t value = *constant;
    if (value < INT16_MIN || value > INT16_MAX) return std::nullopt;
    return value;
  }
  // A constant whose f32 bit pattern is a bfloat16 (low half zero): its
  // high half, which the f32 immediate handlers shift back up.
  std::optional<uint16_t> Bf16Constant(uint16_t reg) const {
    std::optional<int32_t> constant = ConstantOf(reg);
    if (!constant) return std::nullopt;
    uint32_t bits = static_cast<uint32_t>(*constant);
    if ((bits & 0xFFFFu) != 0) return std::nullopt;
    return static_cast<uint16_t>(bits >> 16);
  }

  // Copy coalescing: the instructions that computed a coalesced copy's
  // source write its destination instead.
  void ApplyCoalescedCopies() {
    for (auto [offset, reg] : coalesced_.results) {
      Put16(code_.data() + offset, reg);
    }
  }

  void RewriteCore(const DecodedInstruction& instruction,
                   const std::optional<PendingCompare>& previous) {
    const uint8_t opcode = instruction.info->opcode;
    QuickOpcode form;
    bool commutative;
    if (FusedCompare(opcode, false, &form)) {
      // Rewritten, if at all, by the vm.cond_br after it.
      compare_ = PendingCompare{
          instruction.pc, instruction.field(instruction.field_count - 1).reg,
          opcode};
      return;
    }
    if (ImmediateForm(opcode, &form, &commutative)) {
      RewriteI32Immediate(instruction, form, commutative);
      return;
    }
    switch (static_cast<CoreOpcode>(opcode)) {
      case CoreOpcode::FMAI32: RewriteFMAI32Immediate(instruction); break;
      case CoreOpcode::Branch: RewriteBranch(instruction); break;
      case CoreOpcode::CondBranch:
        if (RewriteCondBranch(instruction)) FuseLoopHead(instruction, previous);
        break;
      default: break;
    }
  }

  // Only with direct ExtF32 opcodes: immediates, FMA3, else the direct
  // opcode.
  void RewriteExtF32(const DecodedInstruction& instruction) {
    const uint8_t opcode = instruction.info->opcode;
    QuickOpcode form;
    bool commutative;
    if (F32ImmediateForm(opcode, &form, &commutative) &&
        RewriteF32Immediate(instruction, form, commutative)) {
      return;
    }
    if (opcode == static_cast<uint8_t>(ExtF32Opcode::FMAF32) && CpuHasFma()) {
      RewriteFMAF32(instruction);
      return;
    }
    if (kDirectOpcodeOf[opcode] != 0)
      At(instruction)[0] = kDirectOpcodeOf[opcode];
  }

  // An i32 binary op with a small constant operand: its immediate form,
  // the constant moved right if the op commutes.
  void RewriteI32Immediate(const DecodedInstruction& instruction,
                           QuickOpcode form, bool commutative) {
    uint16_t lhs = instruction.field(kLhs).reg;
    uint16_t rhs = instruction.field(kRhs).reg;
    std::optional<int32_t> value = SmallConstant(rhs);
    if (!value && commutative) {
      value = SmallConstant(lhs);
      if (value) lhs = rhs;
    }
    if (!value) return;
    uint8_t* at = At(instruction);
    at[0] = static_cast<uint8_t>(form);
    Put16(at + kI32Binary.offsets[kLhs], lhs);
    Put16(at + kI32Binary.offsets[kRhs], Immediate16(*value));
    if (form == QuickOpcode::kAddI32Imm) {
      add_immediates_.emplace_back(instruction.next_pc, instruction.pc);
    }
  }

  // vm.fma.i32 with a small constant addend (FMAI32ImmC), else a constant
  // factor, moved to b (FMAI32ImmB).
  void RewriteFMAI32Immediate(const DecodedInstruction& instruction) {
    const uint16_t a = instruction.field(kFactorA).reg;
    const uint16_t b = instruction.field(kFactorB).reg;
    const uint16_t c = instruction.field(kAddend).reg;
    const int16_t* offsets = kI32MultiplyAdd.offsets;
    uint8_t* at = At(instruction);
    if (std::optional<int32_t> addend = SmallConstant(c)) {
      at[0] = static_cast<uint8_t>(QuickOpcode::kFMAI32ImmC);
      Put16(at + offsets[kAddend], Immediate16(*addend));
    } else if (std::optional<int32_t> factor = SmallConstant(b)) {
      at[0] = static_cast<uint8_t>(QuickOpcode::kFMAI32ImmB);
      Put16(at + offsets[kFactorB], Immediate16(*factor));
    } else if (std::optional<int32_t> left = SmallConstant(a)) {
      at[0] = static_cast<uint8_t>(QuickOpcode::kFMAI32ImmB);
      Put16(at + offsets[kFactorA], b);
      Put16(at + offsets[kFactorB], Immediate16(*left));
    }
  }

  // An f32 add/sub/mul with a bfloat16-exact constant operand: its
  // immediate form. Returns whether it rewrote.
  bool RewriteF32Immediate(const DecodedInstruction& instruction,
                           QuickOpcode form, bool commutative) {
    uint16_t lhs = instruction.field(kLhs).reg;
    uint16_t rhs = instruction.field(kRhs).reg;
    std::optional<uint16_t> high = Bf16Constant(rhs);
    if (!high && commutative) {
      high = Bf16Constant(lhs);
      if (high && IsNaNBf16(*high)) high.reset();
      if (high) lhs = rhs;
    }
    if (!high) return false;
    uint8_t* at = At(instruction);
    at[0] = static_cast<uint8_t>(form);
    Put16(at + kF32Binary.offsets[kLhs], lhs);
    Put16(at + kF32Binary.offsets[kRhs], *high);
    return true;
  }

  // vm.fma.f32 on a CPU with FMA3: FMAF32HwImmB with a bfloat16-exact
  // constant factor (moved to b), else FMAF32Hw.
  void RewriteFMAF32(const DecodedInstruction& instruction) {
    uint16_t a = instruction.field(kFactorA).reg;
    const uint16_t b = instruction.field(kFactorB).reg;
    std::optional<uint16_t> high = Bf16Constant(b);
    if (!high) {
      high = Bf16Constant(a);
      if (high && IsNaNBf16(*high)) high.reset();
      if (high) a = b;
    }
    uint8_t* at = At(instruction);
    if (!high) {
      at[0] = static_cast<uint8_t>(QuickOpcode::kFMAF32Hw);
      return;
    }
    at[0] = static_cast<uint8_t>(QuickOpcode::kFMAF32HwImmB);
    Put16(at + kF32MultiplyAdd.offsets[kFactorA], a);
    Put16(at + kF32MultiplyAdd.offsets[kFactorB], *high);
  }

  // A vm.br whose copies are all scalar: re-encoded (quick_layout), with
  // the copies that coalescing left.
  void RewriteBranch(const DecodedInstruction& instruction) {
    RemapList remap = instruction.field(kBranchRemap).remap;
    if (!IsScalarRemap(remap)) return;
    const uint32_t pc = instruction.pc;
    std::vector<std::pair<uint16_t, uint16_t>> pairs;
    for (size_t k = 0; k < remap.size(); ++k) {
      pairs.emplace_back(remap.source(k), remap.destination(k));
    }
    // Both lists are in pc order (binary search: no quadratic work on
    // functions with many branches).
    auto coalesced_branch = std::lower_bound(
        coalesced_.branches.begin(), coalesced_.branches.end(), pc,
        [](const auto& entry, uint32_t key) { return entry.first < key; });
    if (coalesced_branch != coalesced_.branches.end() &&
        coalesced_branch->first == pc) {
      pairs = coalesced_branch->second;
    }
    size_t needed = quick_layout::kBrPairs + size_t{4} * pairs.size();
    // Cannot happen (the file's padding only adds bytes).
    if (needed > instruction.next_pc - pc) return;
    const uint32_t target = instruction.field(kBranchTarget).u32();
    uint8_t* at = At(instruction);
    at[0] = static_cast<uint8_t>(BranchOpcode(pairs.size()));
    if (pairs.empty()) copyless_branches_.emplace_back(pc, target + 1);
    Put32(at + quick_layout::kBrRel, Relative(pc, target));
    Put16(at + quick_layout::kBrCount, static_cast<uint16_t>(pairs.size()));
    uint8_t* p = at + quick_layout::kBrPairs;
    for (auto [source, destination] : pairs) {
      Put16(p, source);
      Put16(p + 2, destination);
      p += 4;
    }
  }

  // A vm.cond_br whose copies are all scalar: re-encoded (quick_layout).
  // Returns whether it was, without copies (then it can be a fused head).
  bool RewriteCondBranch(const DecodedInstruction& instruction) {
    RemapList true_remap = instruction.field(kTrueRemap).remap;
    RemapList false_remap = instruction.field(kFalseRemap).remap;
    if (!IsScalarRemap(true_remap) || !IsScalarRemap(false_remap)) return false;
    const uint32_t pc = instruction.pc;
    size_t needed = quick_layout::kCondBrPairs +
                    size_t{4} * (true_remap.size() + false_remap.size());
    if (needed > instruction.next_pc - pc) return false;
    bool no_copies = true_remap.empty() && false_remap.empty();
    uint8_t* at = At(instruction);
    at[0] = static_cast<uint8_t>(no_copies ? QuickOpcode::kCondBrI32x00
                                           : QuickOpcode::kCondBrI32xN);
    Put16(at + quick_layout::kCondBrCondition,
          instruction.field(kCondition).reg);
    Put32(at + quick_layout::kCondBrTrueRel,
          Relative(pc, instruction.field(kTrueTarget).u32()));
    Put32(at + quick_layout::kCondBrFalseRel,
          Relative(pc, instruction.field(kFalseTarget).u32()));
    Put16(at + quick_layout::kCondBrTrueCount, true_remap.size());
    Put16(at + quick_layout::kCondBrFalseCount, false_remap.size());
    PutPairs(PutPairs(at + quick_layout::kCondBrPairs, true_remap),
             false_remap);
    return no_copies;
  }

  // A loop head: the i32 comparison right before a copyless vm.cond_br on
  // its result becomes the fused compare-and-branch (...BrD when liveness
  // found the result dead at both targets).
  void FuseLoopHead(const DecodedInstruction& cond_branch,
                    const std::optional<PendingCompare>& compare) {
    if (!compare || compare->result != cond_branch.field(kCondition).reg) {
      return;
    }
    bool dead =
        std::binary_search(coalesced_.dead_conditions.begin(),
                           coalesced_.dead_conditions.end(), cond_branch.pc);
    QuickOpcode fused;
    if (FusedCompare(compare->opcode, dead, &fused)) {
      code_[compare->pc] = static_cast<uint8_t>(fused);
    }
  }

  // Copyless vm.br into a fused loop head: BrTo<head>, and a latch when an
  // add-immediate ends right where the branch starts.
  void RewriteBackEdges() {
    for (auto [pc, target] : copyless_branches_) {
      QuickOpcode chained;
      std::optional<QuickOpcode> latch;
      if (target < code_.size() &&
          BranchIntoHead(code_[target], &chained, &latch)) {
        code_[pc] = static_cast<uint8_t>(chained);
        if (latch) FuseLatch(pc, *latch);
      }
    }
  }

  // The add-immediate that ends at `branch_pc` (so it is in the branch's
  // block) becomes AddImmBrTo<head>D.
  void FuseLatch(uint32_t branch_pc, QuickOpcode latch) {
    auto add = std::lower_bound(
        add_immediates_.begin(), add_immediates_.end(), branch_pc,
        [](const auto& entry, uint32_t key) { return entry.first < key; });
    if (add != add_immediates_.end() && add->first == branch_pc) {
      code_[add->second] = static_cast<uint8_t>(latch);
    }
  }

  std::span<const uint8_t> function_;
  const QuickenOptions& options_;
  std::vector<uint8_t>& code_;
  const Coalesced& coalesced_;
  std::optional<ConstantFlow>& flow_;
  const std::vector<std::optional<int32_t>>& function_constants_;

  // The previous instruction, when it was a fusable comparison.
  std::optional<PendingCompare> compare_;
  // Copyless unconditional branches: (pc, target pc after the marker).
  std::vector<std::pair<uint32_t, uint32_t>> copyless_branches_;
  // AddI32Imm rewrites, as (end pc, pc), in pc order: latch candidates.
  std::vector<std::pair<uint32_t, uint32_t>> add_immediates_;
};

}  // namespace

Result<std::vector<uint8_t>> MakeQuickenedCode(
    std::span<const uint8_t> function, const QuickenOptions& options,
    QuickenStats* stats) {
  std::vector<uint8_t> code(function.begin(), function.end());
  if (!options.rewrite) return code;
  WorkBudget liveness_budget(function.size());
  WorkBudget constants_budget(function.size());
  EMBER_ASSIGN_OR_RETURN(FunctionBlocks blocks, FunctionBlocks::Of(function));
  EMBER_ASSIGN_OR_RETURN(
      Coalesced coalesced,
      quicken::CoalesceBranchCopies(function, blocks, liveness_budget));
  EMBER_ASSIGN_OR_RETURN(
      std::optional<ConstantFlow> flow,
      ConstantFlow::Analyze(function, blocks, constants_budget));
  // The function-wide rule, only needed when the dataflow gave up.
  std::vector<std::optional<int32_t>> constants;
  if (!flow) {
    EMBER_ASSIGN_OR_RETURN(constants, quicken::FindConstantRegisters(function));
  }
  if (stats != nullptr) {
    stats->liveness_complete = coalesced.complete;
    stats->constants_complete = flow.has_value();
    stats->liveness_work = liveness_budget.spent();
    stats->constants_work = constants_budget.spent();
    stats->work_budget = liveness_budget.limit();
    stats->copy_walk_steps = coalesced.walk_steps;
  }
  EMBER_RETURN_IF_ERROR(
      Quickener(function, options, code, coalesced, flow, constants).Run());
  return code;
}

}  // namespace ember::vm::bytecode
