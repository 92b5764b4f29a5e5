#include "runtime/vm/bytecode/quickened_code.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/instruction_layout.h"
#include "runtime/vm/bytecode/opcode_table.h"

namespace ember::vm::bytecode {
namespace {

using bytecode::DecodedInstruction;
using bytecode::kRefRegisterBit;
using bytecode::OpcodeSet;
using bytecode::RemapList;

constexpr size_t kExtF32Count = std::size(bytecode::kExtF32OpcodeBytes);

// The internal opcodes must not collide with any core opcode byte (the
// dispatch table is shared), nor with each other.
constexpr bool InternalOpcodesAreFree() {
  std::array<bool, 256> used{};
  for (uint8_t byte : bytecode::kCoreOpcodeBytes) used[byte] = true;
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
// Forwarding matches these bytes; 0 would be a core opcode.
static_assert(DirectExtF32Opcode(bytecode::ExtF32Opcode::AddF32) != 0 &&
              DirectExtF32Opcode(bytecode::ExtF32Opcode::SubF32) != 0 &&
              DirectExtF32Opcode(bytecode::ExtF32Opcode::MulF32) != 0 &&
              DirectExtF32Opcode(bytecode::ExtF32Opcode::DivF32) != 0 &&
              DirectExtF32Opcode(bytecode::ExtF32Opcode::CastSI32F32) != 0 &&
              DirectExtF32Opcode(bytecode::ExtF32Opcode::CastUI32F32) != 0);

bool IsScalarRemap(RemapList remap) {
  for (size_t i = 0; i < remap.size(); ++i) {
    if ((remap.source(i) | remap.destination(i)) & kRefRegisterBit)
      return false;
  }
  return true;
}

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
// Offset from the branch at `pc` to the instruction after the block marker
// at `target`.
uint32_t Relative(uint32_t pc, uint32_t target) {
  return static_cast<uint32_t>(static_cast<int64_t>(target) + 1 -
                               static_cast<int64_t>(pc));
}

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
  bytecode::CoreOpcode compare;
  QuickOpcode fused;
  QuickOpcode fused_dead;
  QuickOpcode branch_into;
  QuickOpcode branch_into_dead;
  QuickOpcode latch_into_dead;  // add-immediate + branch_into_dead
};
constexpr FusedCompareForms kFusedCompares[] = {
#define EMBER_VM_FUSED_FORMS(name)                              \
  {bytecode::CoreOpcode::name,    QuickOpcode::k##name##Br,     \
   QuickOpcode::k##name##BrD,     QuickOpcode::kBrTo##name##Br, \
   QuickOpcode::kBrTo##name##BrD, QuickOpcode::kAddImmBrTo##name##BrD},
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

// ---- branch copy coalescing ------------------------------------------------
//
// A loop back-edge `vm.br ^head(%s -> %d)` copies a value computed in the
// body into the register the header reads. When the instruction D that
// computes %s is in the branch's own block, and nothing between D and the
// branch touches %s or %d, D can write %d directly and the copy disappears
// -- provided %s is dead where the branch goes (nobody reads the value it no
// longer holds) and no other copy of the branch mentions %s or %d (copies
// apply in order). Every loop-carried value otherwise makes an extra
// store-to-load round trip through the register file per iteration.
//
// Liveness is a standard backward dataflow over the int register bank. It
// only needs to be safe: reads are over-approximated (an even-numbered entry
// of a mixed list, which may be a 64-bit value, counts as two registers)
// and writes under-approximated (call results and branch copies are not
// treated as kills).

class RegisterSet {
 public:
  explicit RegisterSet(size_t count) : words_((count + 63) / 64, 0) {}
  void Set(uint32_t r) { words_[r / 64] |= uint64_t{1} << (r % 64); }
  bool Test(uint32_t r) const { return (words_[r / 64] >> (r % 64)) & 1; }
  void Clear() { std::fill(words_.begin(), words_.end(), 0); }
  // this |= other; returns whether anything changed.
  bool Merge(const RegisterSet& other) {
    bool changed = false;
    for (size_t i = 0; i < words_.size(); ++i) {
      uint64_t merged = words_[i] | other.words_[i];
      changed |= merged != words_[i];
      words_[i] = merged;
    }
    return changed;
  }
  // this = uses | (out & ~defs)
  void SetTransfer(const RegisterSet& uses, const RegisterSet& out,
                   const RegisterSet& defs) {
    for (size_t i = 0; i < words_.size(); ++i) {
      words_[i] = uses.words_[i] | (out.words_[i] & ~defs.words_[i]);
    }
  }

 private:
  std::vector<uint64_t> words_;
};

// A list of registers kept inline up to a handful (every fixed-length
// instruction), on the heap beyond: EffectsOf runs several times per
// instruction at load, and allocating there was a third of the load time.
class RegisterList32 {
 public:
  void push_back(uint32_t r) {
    if (size_ < kInline) {
      inline_[size_++] = r;
      return;
    }
    if (size_ == kInline) heap_.assign(inline_.begin(), inline_.end());
    heap_.push_back(r);
    ++size_;
  }
  size_t size() const { return size_; }
  const uint32_t* begin() const {
    return size_ <= kInline ? inline_.data() : heap_.data();
  }
  const uint32_t* end() const { return begin() + size_; }

 private:
  static constexpr size_t kInline = 8;
  std::array<uint32_t, kInline> inline_;
  size_t size_ = 0;
  std::vector<uint32_t> heap_;
};

// The int-bank registers an instruction reads and surely writes.
struct RegisterEffects {
  RegisterList32 reads;
  RegisterList32 writes;
  bool fixed_length = true;  // no list, remap, string or table fields
};

void AddRegister(RegisterList32& out, uint16_t reg, bool wide) {
  out.push_back(reg);
  if (wide) out.push_back(uint32_t{reg} + 1);
}

RegisterEffects EffectsOf(const DecodedInstruction& instruction) {
  using bytecode::FieldEncoding;
  RegisterEffects effects;
  for (const bytecode::DecodedField& field : instruction.field_span()) {
    const bytecode::FieldTraits traits = bytecode::GetFieldTraits(field.kind());
    switch (traits.encoding) {
      case FieldEncoding::kRegister:
        if (traits.type == OperandType::kRef || (field.reg & kRefRegisterBit))
          break;
        AddRegister(traits.is_write ? effects.writes : effects.reads, field.reg,
                    bytecode::IsWideOperandType(traits.type));
        break;
      case FieldEncoding::kRegisterList:
        effects.fixed_length = false;
        if (traits.is_write ||
            field.kind() == bytecode::FieldKind::kSegmentSizes) {
          break;  // call results: not counted as writes (safe)
        }
        for (size_t i = 0; i < field.list.size(); ++i) {
          uint16_t reg = field.list[i];
          if (reg & kRefRegisterBit) continue;
          // An entry of a mixed list may be a 64-bit value (its width is in
          // the callee's cconv); those always sit on an even pair.
          bool maybe_wide = traits.type == OperandType::kI64 ||
                            traits.type == OperandType::kF64 ||
                            (traits.type == OperandType::kAny && reg % 2 == 0);
          AddRegister(effects.reads, reg, maybe_wide);
        }
        break;
      case FieldEncoding::kRemapList:
        effects.fixed_length = false;
        for (size_t i = 0; i < field.remap.size(); ++i) {
          if (!(field.remap.source(i) & kRefRegisterBit)) {
            effects.reads.push_back(field.remap.source(i));
          }
        }
        break;
      case FieldEncoding::kBranchTable:
        effects.fixed_length = false;
        for (bytecode::BranchCase branch_case : field.cases) {
          for (size_t i = 0; i < branch_case.remap.size(); ++i) {
            if (!(branch_case.remap.source(i) & kRefRegisterBit)) {
              effects.reads.push_back(branch_case.remap.source(i));
            }
          }
        }
        break;
      case FieldEncoding::kString: effects.fixed_length = false; break;
      default: break;
    }
  }
  return effects;
}

// The single 32-bit register result of a fixed-length instruction: the
// field, or null when the instruction writes anything else or nothing.
const bytecode::DecodedField* Single32BitResult(
    const DecodedInstruction& instruction) {
  const bytecode::DecodedField* result = nullptr;
  for (const bytecode::DecodedField& field : instruction.field_span()) {
    const bytecode::FieldTraits traits = bytecode::GetFieldTraits(field.kind());
    if (!traits.is_write) continue;
    if (result != nullptr) return nullptr;
    if (field.kind() != bytecode::FieldKind::kResI32 &&
        field.kind() != bytecode::FieldKind::kResF32) {
      return nullptr;
    }
    result = &field;
  }
  return result;
}

struct Coalesced {
  // Per branch pc (ascending): the copies that remain, (source,
  // destination) pairs.
  std::vector<std::pair<uint32_t, std::vector<std::pair<uint16_t, uint16_t>>>>
      branches;
  // Register fields to rewrite: (function offset of the u16, new register).
  std::vector<std::pair<uint32_t, uint16_t>> results;
  // Pcs (ascending) of the vm.cond_br whose condition register is dead at
  // both targets.
  std::vector<uint32_t> dead_conditions;
  // False when the liveness analysis gave up at a bound (nothing coalesced).
  bool complete = false;
  size_t walk_steps = 0;  // instructions looked at walking back from branches
};

// Limits of the liveness analysis: bitset words over all blocks (each of
// uses, defs and live-in; 1M words = 8 MiB each) and backward sweeps
// (enough for loop nests far deeper than compilers emit).
constexpr size_t kMaxLivenessWords = size_t{1} << 20;
constexpr int kMaxLivenessSweeps = 64;

// Those limits bound memory, not time: a small hostile function (a few
// blocks, a register numbered 30000, a chain that converges one block per
// sweep) could still cost 64 sweeps over a million words -- ~50 us of load
// time per byte of module. So each analysis also gets a work budget
// proportional to the function's size (units: 64-bit words or state entries
// touched) and gives up -- leaves its rewrites out, which is always correct
// -- once it is spent. Compiled code needs a small fraction of it (a few
// sweeps over few live registers).
constexpr size_t kAnalysisWorkPerByte = 256;
constexpr size_t kAnalysisWorkFloor = size_t{1} << 14;

class WorkBudget {
 public:
  explicit WorkBudget(size_t function_size)
      : limit_(kAnalysisWorkFloor + kAnalysisWorkPerByte * function_size) {}
  // False (and nothing spent) when `units` more would exceed the budget.
  bool Spend(size_t units) {
    if (units > limit_ - spent_) return false;
    spent_ += units;
    return true;
  }
  size_t spent() const { return spent_; }
  size_t limit() const { return limit_; }

 private:
  size_t limit_;
  size_t spent_ = 0;
};

// The block structure of a function, found once and shared by the
// analyses below.
struct FunctionBlocks {
  std::vector<uint32_t> pcs;          // per instruction
  std::vector<uint32_t> block_of;     // per instruction: its block
  std::vector<uint32_t> block_start;  // per block: its first instruction
  // Per pc: the block whose marker is there, or -1.
  std::vector<int32_t> block_at_pc;
  // Per block: the blocks it branches to (and the next one if it falls
  // through, which verified code never does).
  std::vector<std::vector<uint32_t>> successors;
  size_t edge_count = 0;
  // Past every int register an instruction names (reads and writes).
  uint32_t register_limit = 2;

  size_t block_count() const { return block_start.size(); }
  // The block of the marker at `pc` (a verified branch target).
  uint32_t BlockAt(uint32_t pc) const {
    return static_cast<uint32_t>(block_at_pc[pc]);
  }

  // No blocks when the function does not start with a block marker.
  static Result<FunctionBlocks> Of(std::span<const uint8_t> function) {
    FunctionBlocks blocks;
    blocks.block_at_pc.assign(function.size() + 1, -1);
    DecodedInstruction instruction;
    for (uint32_t pc = 0; pc < function.size(); pc = instruction.next_pc) {
      EMBER_RETURN_IF_ERROR(
          bytecode::DecodeInstruction(function, pc, &instruction),
          "preparing pc %u for execution", pc);
      if (instruction.info->has_flag(bytecode::kBlockMarker)) {
        blocks.block_at_pc[pc] =
            static_cast<int32_t>(blocks.block_start.size());
        blocks.block_start.push_back(static_cast<uint32_t>(blocks.pcs.size()));
      }
      if (blocks.block_start.empty()) return FunctionBlocks{};
      blocks.block_of.push_back(
          static_cast<uint32_t>(blocks.block_start.size() - 1));
      blocks.pcs.push_back(pc);
      RegisterEffects effects = EffectsOf(instruction);
      for (uint32_t r : effects.reads) {
        blocks.register_limit = std::max(blocks.register_limit, r + 2);
      }
      for (uint32_t r : effects.writes) {
        blocks.register_limit = std::max(blocks.register_limit, r + 2);
      }
    }
    // Successors, now that every marker is known.
    blocks.successors.resize(blocks.block_count());
    for (size_t i = 0; i < blocks.pcs.size(); ++i) {
      EMBER_RETURN_IF_ERROR(
          bytecode::DecodeInstruction(function, blocks.pcs[i], &instruction));
      const uint32_t b = blocks.block_of[i];
      std::vector<uint32_t>& out = blocks.successors[b];
      Status target_status;
      instruction.ForEachBranchTarget([&](uint32_t target) {
        if (target >= blocks.block_at_pc.size() ||
            blocks.block_at_pc[target] < 0) {
          target_status = InternalError("branch target is not a block");
          return;
        }
        out.push_back(blocks.BlockAt(target));
      });
      EMBER_RETURN_IF_ERROR(target_status);
      const bool last_of_block =
          i + 1 == blocks.pcs.size() || blocks.block_of[i + 1] != b;
      if (last_of_block && i + 1 < blocks.pcs.size() &&
          !instruction.info->has_flag(bytecode::kTerminator)) {
        out.push_back(b + 1);
      }
    }
    for (const std::vector<uint32_t>& out : blocks.successors)
      blocks.edge_count += out.size();
    return blocks;
  }
};

Result<Coalesced> CoalesceBranchCopies(std::span<const uint8_t> function,
                                       const FunctionBlocks& blocks,
                                       WorkBudget& budget) {
  const std::vector<uint32_t>& pcs = blocks.pcs;
  const std::vector<uint32_t>& block_of = blocks.block_of;
  const std::vector<uint32_t>& block_start = blocks.block_start;
  const std::vector<std::vector<uint32_t>>& successors = blocks.successors;
  const uint32_t register_limit = blocks.register_limit;
  const size_t edge_count = blocks.edge_count;
  DecodedInstruction instruction;
  const size_t block_count = block_start.size();
  if (block_count == 0) return Coalesced{};

  // Hostile modules can be large: the analysis is skipped (nothing is
  // coalesced, which is always correct) rather than allowed to take
  // unbounded memory or time. The sets (uses, defs, live-in per block) and
  // the first sweep are paid for before anything is allocated.
  const size_t words = (size_t{register_limit} + 63) / 64;
  if (block_count * words > kMaxLivenessWords) return Coalesced{};
  const size_t sweep_work = (3 * block_count + edge_count) * words + pcs.size();
  if (!budget.Spend(3 * block_count * words + sweep_work)) return Coalesced{};
  // Per-block uses (read before written) and definitions.
  std::vector<RegisterSet> uses(block_count, RegisterSet(register_limit));
  std::vector<RegisterSet> defs(block_count, RegisterSet(register_limit));
  for (size_t i = 0; i < pcs.size(); ++i) {
    EMBER_RETURN_IF_ERROR(
        bytecode::DecodeInstruction(function, pcs[i], &instruction));
    uint32_t b = block_of[i];
    RegisterEffects effects = EffectsOf(instruction);
    for (uint32_t r : effects.reads) {
      if (!defs[b].Test(r)) uses[b].Set(r);
    }
    for (uint32_t r : effects.writes) defs[b].Set(r);
  }
  std::vector<RegisterSet> live_in(block_count, RegisterSet(register_limit));
  RegisterSet live_out(register_limit);
  RegisterSet updated(register_limit);
  int sweeps = 0;
  for (bool changed = true; changed;) {
    if (++sweeps > kMaxLivenessSweeps) return Coalesced{};
    // Per block: clear, transfer, merge; per edge: merge (the first sweep
    // is paid for above).
    if (sweeps > 1 && !budget.Spend(sweep_work)) return Coalesced{};
    changed = false;
    for (size_t b = block_count; b-- > 0;) {
      live_out.Clear();
      for (uint32_t s : successors[b]) live_out.Merge(live_in[s]);
      updated.SetTransfer(uses[b], live_out, defs[b]);
      changed |= live_in[b].Merge(updated);
    }
  }

  Coalesced out;
  out.complete = true;
  // Registers touched in the current walk back (see below): stamped, so
  // that nothing is cleared per branch.
  std::vector<uint32_t> touched_at;
  uint32_t touch_stamp = 0;
  for (size_t i = 0; i < pcs.size(); ++i) {
    EMBER_RETURN_IF_ERROR(
        bytecode::DecodeInstruction(function, pcs[i], &instruction));
    const bytecode::OpcodeInfo& info = *instruction.info;
    if (info.set == OpcodeSet::kCore &&
        info.opcode == static_cast<uint8_t>(bytecode::CoreOpcode::CondBranch)) {
      uint16_t condition = instruction.field(0).reg;
      uint32_t on_true = blocks.BlockAt(instruction.field(1).u32());
      uint32_t on_false = blocks.BlockAt(instruction.field(3).u32());
      if (!live_in[on_true].Test(condition) &&
          !live_in[on_false].Test(condition)) {
        out.dead_conditions.push_back(pcs[i]);
      }
      continue;
    }
    if (info.set != OpcodeSet::kCore ||
        info.opcode != static_cast<uint8_t>(bytecode::CoreOpcode::Branch)) {
      continue;
    }
    RemapList remap = instruction.field(1).remap;
    if (remap.empty() || !IsScalarRemap(remap)) continue;
    uint32_t target = blocks.BlockAt(instruction.field(0).u32());
    // A copy onto itself does nothing: dropped first. Of the rest, a copy
    // whose two registers no other copy mentions, and whose source is dead
    // at the target, is a candidate.
    std::vector<std::pair<uint16_t, uint16_t>> pairs;
    for (size_t k = 0; k < remap.size(); ++k) {
      if (remap.source(k) != remap.destination(k)) {
        pairs.emplace_back(remap.source(k), remap.destination(k));
      }
    }
    bool changed = pairs.size() != remap.size();
    std::unordered_map<uint16_t, uint32_t> mentions;
    for (auto [source, destination] : pairs) {
      ++mentions[source];
      ++mentions[destination];
    }
    std::unordered_map<uint16_t, size_t> candidate_by_source;
    for (size_t k = 0; k < pairs.size(); ++k) {
      auto [source, destination] = pairs[k];
      if (mentions[source] == 1 && mentions[destination] == 1 &&
          !live_in[target].Test(source)) {
        candidate_by_source.emplace(source, k);
      }
    }
    // One walk back through the block: the instruction that computes a
    // candidate's source can write its destination instead when nothing
    // after it (up to the branch) touches either register. Only
    // fixed-length instructions are looked through.
    std::vector<bool> removed(pairs.size(), false);
    if (!candidate_by_source.empty()) {
      ++touch_stamp;
      auto touched = [&](uint32_t r) {
        return r < touched_at.size() && touched_at[r] == touch_stamp;
      };
      auto touch = [&](uint32_t r) {
        if (r >= touched_at.size()) touched_at.resize(r + 1, 0);
        touched_at[r] = touch_stamp;
      };
      DecodedInstruction prior;
      for (size_t p = i; p-- > block_start[block_of[i]];) {
        EMBER_RETURN_IF_ERROR(
            bytecode::DecodeInstruction(function, pcs[p], &prior));
        ++out.walk_steps;
        if (prior.info->has_flag(bytecode::kBlockMarker)) break;
        RegisterEffects effects = EffectsOf(prior);
        if (!effects.fixed_length) break;
        const bytecode::DecodedField* result = Single32BitResult(prior);
        if (result != nullptr) {
          auto candidate = candidate_by_source.find(result->reg);
          if (candidate != candidate_by_source.end()) {
            auto [source, destination] = pairs[candidate->second];
            if (!touched(source) && !touched(destination)) {
              out.results.emplace_back(result->offset, destination);
              removed[candidate->second] = true;
              changed = true;
            }
            candidate_by_source.erase(candidate);  // computed here or never
          }
        }
        for (uint32_t r : effects.reads) touch(r);
        for (uint32_t r : effects.writes) touch(r);
        if (candidate_by_source.empty()) break;
      }
    }
    if (changed) {
      std::vector<std::pair<uint16_t, uint16_t>> kept;
      for (size_t k = 0; k < pairs.size(); ++k) {
        if (!removed[k]) kept.push_back(pairs[k]);
      }
      out.branches.emplace_back(pcs[i], std::move(kept));
    }
  }
  return out;
}

// Every int-bank register an instruction may write, over-approximated:
// `effects.writes`, call results (an even entry of a list may be a 64-bit
// pair) and branch copies (on any edge).
template <typename Fn>
void ForEachIntWrite(const DecodedInstruction& instruction,
                     const RegisterEffects& effects, Fn&& written) {
  using bytecode::FieldEncoding;
  for (const bytecode::DecodedField& field : instruction.field_span()) {
    const bytecode::FieldTraits traits = bytecode::GetFieldTraits(field.kind());
    if (traits.encoding == FieldEncoding::kRegisterList && traits.is_write) {
      for (size_t i = 0; i < field.list.size(); ++i) {
        if (field.list[i] & kRefRegisterBit) continue;
        written(uint32_t{field.list[i]});
        if (field.list[i] % 2 == 0)
          written(field.list[i] + 1u);  // maybe 64-bit
      }
    } else if (traits.encoding == FieldEncoding::kRemapList) {
      for (size_t i = 0; i < field.remap.size(); ++i) {
        if (!(field.remap.destination(i) & kRefRegisterBit)) {
          written(uint32_t{field.remap.destination(i)});
        }
      }
    } else if (traits.encoding == FieldEncoding::kBranchTable) {
      for (bytecode::BranchCase branch_case : field.cases) {
        for (size_t i = 0; i < branch_case.remap.size(); ++i) {
          if (!(branch_case.remap.destination(i) & kRefRegisterBit)) {
            written(uint32_t{branch_case.remap.destination(i)});
          }
        }
      }
    }
  }
  for (uint32_t r : effects.writes) written(r);
}

// ---- constant registers -----------------------------------------------------
// Registers that hold one 32-bit constant for the whole function: written
// once, by vm.const.i32 / vm.const.f32 (or their .zero forms) in the entry
// block, and not read in that block before it. The value is the register's
// bit pattern (an f32 constant's IEEE bits). Every other kind of write --
// including call results and branch copies, counted with their 64-bit
// neighbours -- disqualifies.
Result<std::vector<std::optional<int32_t>>> FindConstantRegisters(
    std::span<const uint8_t> function) {
  using bytecode::FieldEncoding;
  std::vector<std::optional<int32_t>> constant;
  std::vector<uint32_t> writes;  // per register: number of writes seen
  std::vector<bool> read_early;  // read in the entry block before a write
  auto grow = [&](uint32_t r) {
    if (r >= writes.size()) {
      writes.resize(r + 1, 0);
      read_early.resize(r + 1, false);
      constant.resize(r + 1);
    }
  };
  auto written = [&](uint32_t r) {
    grow(r);
    ++writes[r];
  };
  DecodedInstruction instruction;
  int blocks_seen = 0;
  for (uint32_t pc = 0; pc < function.size(); pc = instruction.next_pc) {
    EMBER_RETURN_IF_ERROR(
        bytecode::DecodeInstruction(function, pc, &instruction));
    const bytecode::OpcodeInfo& info = *instruction.info;
    if (info.has_flag(bytecode::kBlockMarker)) ++blocks_seen;
    const bool entry_block = blocks_seen <= 1;
    RegisterEffects effects = EffectsOf(instruction);
    if (entry_block) {
      for (uint32_t r : effects.reads) {
        grow(r);
        if (writes[r] == 0) read_early[r] = true;
      }
    }
    ForEachIntWrite(instruction, effects, written);
    if (entry_block && info.set == OpcodeSet::kCore) {
      auto op = static_cast<bytecode::CoreOpcode>(info.opcode);
      if (op == bytecode::CoreOpcode::ConstI32Zero) {
        constant[instruction.field(0).reg] = 0;
      } else if (op == bytecode::CoreOpcode::ConstI32) {
        constant[instruction.field(1).reg] = instruction.field(0).i32();
      }
    }
    if (entry_block && info.set == OpcodeSet::kExtF32) {
      auto op = static_cast<bytecode::ExtF32Opcode>(info.opcode);
      if (op == bytecode::ExtF32Opcode::ConstF32Zero) {
        constant[instruction.field(0).reg] = 0;
      } else if (op == bytecode::ExtF32Opcode::ConstF32) {
        constant[instruction.field(1).reg] = instruction.field(0).i32();
      }
    }
  }
  for (size_t r = 0; r < constant.size(); ++r) {
    if (writes[r] != 1 || read_early[r]) constant[r].reset();
  }
  return constant;
}

// ---- constants per use
// -------------------------------------------------------- The function-wide
// rule above misses constants whose register the compiler reuses once the
// constant is dead -- common, e.g. in a function with two loops. This forward
// dataflow over blocks finds, at each instruction, the int registers that hold
// one known 32-bit constant on every path there: written by vm.const.i32 /
// vm.const.f32 (or .zero) and not since. Every other write -- over-approximated
// by ForEachIntWrite, branch copies on all edges of their branch -- makes a
// register unknown. Function arguments and registers never written are unknown
// at entry. Bounded like liveness (memory, sweeps and a work budget); past the
// bounds the function-wide rule is used instead.

constexpr int64_t kUnknownValue = INT64_MIN;        // not one known constant
constexpr int64_t kUnreachedValue = INT64_MIN + 1;  // no path seen yet
// States held: blocks x tracked registers (8 MiB).
constexpr size_t kMaxConstantEntries = size_t{1} << 20;

// The register and bit pattern a constant instruction writes.
bool ConstantWrite(const DecodedInstruction& instruction, uint16_t* reg,
                   int32_t* value) {
  const bytecode::OpcodeInfo& info = *instruction.info;
  if (info.set == OpcodeSet::kCore) {
    auto op = static_cast<bytecode::CoreOpcode>(info.opcode);
    if (op == bytecode::CoreOpcode::ConstI32Zero) {
      *reg = instruction.field(0).reg;
      *value = 0;
      return true;
    }
    if (op == bytecode::CoreOpcode::ConstI32) {
      *reg = instruction.field(1).reg;
      *value = instruction.field(0).i32();
      return true;
    }
  } else if (info.set == OpcodeSet::kExtF32) {
    auto op = static_cast<bytecode::ExtF32Opcode>(info.opcode);
    if (op == bytecode::ExtF32Opcode::ConstF32Zero) {
      *reg = instruction.field(0).reg;
      *value = 0;
      return true;
    }
    if (op == bytecode::ExtF32Opcode::ConstF32) {
      *reg = instruction.field(1).reg;
      *value = instruction.field(0).i32();
      return true;
    }
  }
  return false;
}

class ConstantFlow {
 public:
  // The analysis of `function`, or nullopt when it exceeds the bounds.
  static Result<std::optional<ConstantFlow>> Analyze(
      std::span<const uint8_t> function, const FunctionBlocks& blocks,
      WorkBudget& budget) {
    ConstantFlow flow;
    DecodedInstruction instruction;
    const std::vector<uint32_t>& pcs = blocks.pcs;
    const size_t block_count = blocks.block_count();
    if (block_count == 0) return std::optional<ConstantFlow>();
    // Only registers that constant ops write can hold a known constant: the
    // state tracks those, by dense index, not the whole bank.
    std::vector<uint16_t> constant_registers;
    for (uint32_t pc : pcs) {
      EMBER_RETURN_IF_ERROR(
          bytecode::DecodeInstruction(function, pc, &instruction));
      uint16_t reg;
      int32_t value;
      if (ConstantWrite(instruction, &reg, &value))
        constant_registers.push_back(reg);
    }
    std::sort(constant_registers.begin(), constant_registers.end());
    constant_registers.erase(
        std::unique(constant_registers.begin(), constant_registers.end()),
        constant_registers.end());
    const size_t tracked = constant_registers.size();
    if (block_count * tracked > kMaxConstantEntries)
      return std::optional<ConstantFlow>();
    flow.index_of_.assign(
        constant_registers.empty() ? 0 : constant_registers.back() + 1u, -1);
    for (size_t i = 0; i < tracked; ++i) {
      flow.index_of_[constant_registers[i]] = static_cast<int32_t>(i);
    }
    flow.tracked_ = tracked;

    // Per block, the net effect on the tracked registers as (index, value)
    // in order (later entries win), so that the sweeps never decode again.
    std::vector<std::vector<std::pair<uint32_t, int64_t>>> effects(block_count);
    size_t effect_count = 0;
    for (size_t i = 0; i < pcs.size(); ++i) {
      EMBER_RETURN_IF_ERROR(
          bytecode::DecodeInstruction(function, pcs[i], &instruction));
      std::vector<std::pair<uint32_t, int64_t>>& out =
          effects[blocks.block_of[i]];
      flow.ForEachEffect(instruction, [&](uint32_t index, int64_t value) {
        out.emplace_back(index, value);
        ++effect_count;
      });
    }
    const std::vector<std::vector<uint32_t>>& successors = blocks.successors;
    const size_t edge_count = blocks.edge_count;

    flow.in_.assign(block_count * tracked, kUnreachedValue);
    // Entry: nothing is a known constant.
    std::fill(flow.in_.begin(), flow.in_.begin() + tracked, kUnknownValue);
    std::vector<int64_t> state(tracked);
    bool changed = true;
    for (int sweep = 0; changed; ++sweep) {
      if (sweep == kMaxLivenessSweeps) return std::optional<ConstantFlow>();
      // Per block a copy, per edge a meet, and the block effects.
      if (!budget.Spend((block_count + edge_count) * tracked + effect_count +
                        block_count)) {
        return std::optional<ConstantFlow>();
      }
      changed = false;
      for (size_t b = 0; b < block_count; ++b) {
        std::copy_n(flow.in_.begin() + b * tracked, tracked, state.begin());
        for (auto [index, value] : effects[b]) state[index] = value;
        for (uint32_t s : successors[b]) changed |= flow.Meet(s, state);
      }
    }
    return std::optional<ConstantFlow>(std::move(flow));
  }

  // Walks the function in pc order: call Step for every instruction, then
  // query the registers it reads.
  void Step(const DecodedInstruction& instruction) {
    if (has_previous_) Apply(previous_, state_);
    if (instruction.info->has_flag(bytecode::kBlockMarker)) {
      state_.assign(in_.begin() + block_ * tracked_,
                    in_.begin() + (block_ + 1) * tracked_);
      ++block_;
    }
    previous_ = instruction;
    has_previous_ = true;
  }
  std::optional<int32_t> Value(uint16_t reg) const {
    if (reg >= index_of_.size() || index_of_[reg] < 0) return std::nullopt;
    const size_t i = static_cast<size_t>(index_of_[reg]);
    if (i >= state_.size()) return std::nullopt;
    int64_t v = state_[i];
    if (v == kUnknownValue || v == kUnreachedValue) return std::nullopt;
    return static_cast<int32_t>(v);
  }

 private:
  // The state after `instruction`: its writes, over-approximated (copies of
  // a branch apply to every edge), make registers unknown; a constant
  // instruction then makes its result known.
  void Apply(const DecodedInstruction& instruction,
             std::vector<int64_t>& state) const {
    ForEachEffect(instruction,
                  [&](uint32_t index, int64_t value) { state[index] = value; });
  }
  // The (tracked index, new value) updates of `instruction`, in order.
  template <typename Fn>
  void ForEachEffect(const DecodedInstruction& instruction, Fn&& update) const {
    ForEachIntWrite(instruction, EffectsOf(instruction), [&](uint32_t r) {
      if (r < index_of_.size() && index_of_[r] >= 0) {
        update(static_cast<uint32_t>(index_of_[r]), kUnknownValue);
      }
    });
    uint16_t reg;
    int32_t value;
    if (ConstantWrite(instruction, &reg, &value) && reg < index_of_.size() &&
        index_of_[reg] >= 0) {
      update(static_cast<uint32_t>(index_of_[reg]), int64_t{value});
    }
  }
  // in[block] = in[block] meet state; returns whether it changed.
  bool Meet(size_t block, const std::vector<int64_t>& state) {
    bool changed = false;
    int64_t* in = in_.data() + block * tracked_;
    for (size_t r = 0; r < tracked_; ++r) {
      int64_t merged = in[r] == kUnreachedValue ? state[r]
                       : (state[r] == kUnreachedValue || state[r] == in[r])
                           ? in[r]
                           : kUnknownValue;
      changed |= merged != in[r];
      in[r] = merged;
    }
    return changed;
  }

  std::vector<int32_t> index_of_;  // register -> tracked index, or -1
  size_t tracked_ = 0;
  std::vector<int64_t> in_;  // per block, per tracked register
  std::vector<int64_t> state_;
  size_t block_ = 0;
  DecodedInstruction previous_;
  bool has_previous_ = false;
};

// The immediate form of an i32 binary op, and whether it is commutative.
bool ImmediateForm(uint8_t core_opcode, QuickOpcode* form, bool* commutative) {
  using bytecode::CoreOpcode;
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
  using bytecode::ExtF32Opcode;
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

bool CpuHasFma() {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("fma");
#else
  return false;
#endif
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

// ---- result forwarding ------------------------------------------------------
// Runs over the rewritten copy: the final opcode byte of each instruction
// says whether its handler leaves its result in `acc` (ResultSlot) and
// which ...Acc form it has when one operand is that result (Forward).

// Byte offset of the result field of an instruction whose handler leaves
// its result in `acc`, or -1.
int ResultSlot(uint8_t byte) {
  using bytecode::CoreOpcode;
  using bytecode::ExtF32Opcode;
  switch (byte) {
    case static_cast<uint8_t>(CoreOpcode::AddI32):
    case static_cast<uint8_t>(CoreOpcode::SubI32):
    case static_cast<uint8_t>(CoreOpcode::MulI32):
    case static_cast<uint8_t>(CoreOpcode::AndI32):
    case static_cast<uint8_t>(CoreOpcode::OrI32):
    case static_cast<uint8_t>(CoreOpcode::XorI32):
    case static_cast<uint8_t>(CoreOpcode::ShlI32):
    case static_cast<uint8_t>(CoreOpcode::ShrI32S):
    case static_cast<uint8_t>(CoreOpcode::ShrI32U): return 5;
    case static_cast<uint8_t>(CoreOpcode::FMAI32): return 7;
    default: break;
  }
  if (byte == DirectExtF32Opcode(ExtF32Opcode::AddF32) ||
      byte == DirectExtF32Opcode(ExtF32Opcode::SubF32) ||
      byte == DirectExtF32Opcode(ExtF32Opcode::MulF32) ||
      byte == DirectExtF32Opcode(ExtF32Opcode::DivF32)) {
    return 6;
  }
  if (byte == DirectExtF32Opcode(ExtF32Opcode::CastSI32F32) ||
      byte == DirectExtF32Opcode(ExtF32Opcode::CastUI32F32)) {
    return 4;
  }
  switch (static_cast<QuickOpcode>(byte)) {
    case QuickOpcode::kAddI32Imm:
    case QuickOpcode::kSubI32Imm:
    case QuickOpcode::kMulI32Imm:
    case QuickOpcode::kAndI32Imm:
    case QuickOpcode::kOrI32Imm:
    case QuickOpcode::kXorI32Imm:
    case QuickOpcode::kShlI32Imm:
    case QuickOpcode::kShrI32SImm:
    case QuickOpcode::kShrI32UImm:
    case QuickOpcode::kAddI32AccL:
    case QuickOpcode::kSubI32AccL:
    case QuickOpcode::kMulI32AccL:
    case QuickOpcode::kAndI32AccL:
    case QuickOpcode::kOrI32AccL:
    case QuickOpcode::kXorI32AccL:
    case QuickOpcode::kShlI32AccL:
    case QuickOpcode::kShrI32SAccL:
    case QuickOpcode::kShrI32UAccL:
    case QuickOpcode::kAddI32ImmAcc:
    case QuickOpcode::kSubI32ImmAcc:
    case QuickOpcode::kMulI32ImmAcc:
    case QuickOpcode::kAndI32ImmAcc:
    case QuickOpcode::kOrI32ImmAcc:
    case QuickOpcode::kXorI32ImmAcc:
    case QuickOpcode::kShlI32ImmAcc:
    case QuickOpcode::kShrI32SImmAcc:
    case QuickOpcode::kShrI32UImmAcc: return 5;
    case QuickOpcode::kFMAI32ImmB:
    case QuickOpcode::kFMAI32ImmC:
    case QuickOpcode::kFMAI32AccA:
    case QuickOpcode::kFMAI32AccC: return 7;
    case QuickOpcode::kAddF32Imm:
    case QuickOpcode::kSubF32Imm:
    case QuickOpcode::kMulF32Imm:
    case QuickOpcode::kAddF32AccL:
    case QuickOpcode::kSubF32AccL:
    case QuickOpcode::kSubF32AccR:
    case QuickOpcode::kMulF32AccL:
    case QuickOpcode::kAddF32AccR:
    case QuickOpcode::kMulF32AccR:
    case QuickOpcode::kDivF32AccL:
    case QuickOpcode::kAddF32ImmAcc:
    case QuickOpcode::kSubF32ImmAcc:
    case QuickOpcode::kMulF32ImmAcc: return 6;
    case QuickOpcode::kFMAF32Hw:
    case QuickOpcode::kFMAF32HwImmB:
    case QuickOpcode::kFMAF32HwAccA:
    case QuickOpcode::kFMAF32HwAccB:
    case QuickOpcode::kFMAF32HwAccC: return 8;
    case QuickOpcode::kCastSI32F32Acc:
    case QuickOpcode::kCastUI32F32Acc: return 4;
    default: return -1;
  }
}

uint16_t Get16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

void Swap16(uint8_t* a, uint8_t* b) {
  std::swap(a[0], b[0]);
  std::swap(a[1], b[1]);
}

// Rewrites the instruction at `at` into its ...Acc form if one of its
// operands is register `acc`. Returns whether it did.
bool Forward(uint8_t* at, uint16_t acc) {
  using bytecode::CoreOpcode;
  using bytecode::ExtF32Opcode;
  // Binary ops: operands at offsets `a` and `b`. `left`: the form that
  // takes operand a from acc; `right`: operand b (kNone: swap if
  // commutative, else no form).
  struct Binary {
    uint8_t byte;
    int a;
    int b;
    QuickOpcode left;
    bool commutative;
    std::optional<QuickOpcode> right;
    bool immediate;  // b is an immediate, never a register
  };
  static constexpr Binary kBinary[] = {
      {static_cast<uint8_t>(CoreOpcode::AddI32),
       1,
       3,
       QuickOpcode::kAddI32AccL,
       true,
       {},
       false},
      {static_cast<uint8_t>(CoreOpcode::SubI32),
       1,
       3,
       QuickOpcode::kSubI32AccL,
       false,
       {},
       false},
      {static_cast<uint8_t>(CoreOpcode::MulI32),
       1,
       3,
       QuickOpcode::kMulI32AccL,
       true,
       {},
       false},
      {static_cast<uint8_t>(CoreOpcode::AndI32),
       1,
       3,
       QuickOpcode::kAndI32AccL,
       true,
       {},
       false},
      {static_cast<uint8_t>(CoreOpcode::OrI32),
       1,
       3,
       QuickOpcode::kOrI32AccL,
       true,
       {},
       false},
      {static_cast<uint8_t>(CoreOpcode::XorI32),
       1,
       3,
       QuickOpcode::kXorI32AccL,
       true,
       {},
       false},
      {static_cast<uint8_t>(CoreOpcode::ShlI32),
       1,
       3,
       QuickOpcode::kShlI32AccL,
       false,
       {},
       false},
      {static_cast<uint8_t>(CoreOpcode::ShrI32S),
       1,
       3,
       QuickOpcode::kShrI32SAccL,
       false,
       {},
       false},
      {static_cast<uint8_t>(CoreOpcode::ShrI32U),
       1,
       3,
       QuickOpcode::kShrI32UAccL,
       false,
       {},
       false},
      {static_cast<uint8_t>(QuickOpcode::kAddI32Imm),
       1,
       3,
       QuickOpcode::kAddI32ImmAcc,
       false,
       {},
       true},
      {static_cast<uint8_t>(QuickOpcode::kSubI32Imm),
       1,
       3,
       QuickOpcode::kSubI32ImmAcc,
       false,
       {},
       true},
      {static_cast<uint8_t>(QuickOpcode::kMulI32Imm),
       1,
       3,
       QuickOpcode::kMulI32ImmAcc,
       false,
       {},
       true},
      {static_cast<uint8_t>(QuickOpcode::kAndI32Imm),
       1,
       3,
       QuickOpcode::kAndI32ImmAcc,
       false,
       {},
       true},
      {static_cast<uint8_t>(QuickOpcode::kOrI32Imm),
       1,
       3,
       QuickOpcode::kOrI32ImmAcc,
       false,
       {},
       true},
      {static_cast<uint8_t>(QuickOpcode::kXorI32Imm),
       1,
       3,
       QuickOpcode::kXorI32ImmAcc,
       false,
       {},
       true},
      {static_cast<uint8_t>(QuickOpcode::kShlI32Imm),
       1,
       3,
       QuickOpcode::kShlI32ImmAcc,
       false,
       {},
       true},
      {static_cast<uint8_t>(QuickOpcode::kShrI32SImm),
       1,
       3,
       QuickOpcode::kShrI32SImmAcc,
       false,
       {},
       true},
      {static_cast<uint8_t>(QuickOpcode::kShrI32UImm),
       1,
       3,
       QuickOpcode::kShrI32UImmAcc,
       false,
       {},
       true},
      {DirectExtF32Opcode(ExtF32Opcode::AddF32), 2, 4, QuickOpcode::kAddF32AccL,
       false, QuickOpcode::kAddF32AccR, false},
      {DirectExtF32Opcode(ExtF32Opcode::SubF32), 2, 4, QuickOpcode::kSubF32AccL,
       false, QuickOpcode::kSubF32AccR, false},
      {DirectExtF32Opcode(ExtF32Opcode::MulF32), 2, 4, QuickOpcode::kMulF32AccL,
       false, QuickOpcode::kMulF32AccR, false},
      {DirectExtF32Opcode(ExtF32Opcode::DivF32),
       2,
       4,
       QuickOpcode::kDivF32AccL,
       false,
       {},
       false},
      {static_cast<uint8_t>(QuickOpcode::kAddF32Imm),
       2,
       4,
       QuickOpcode::kAddF32ImmAcc,
       false,
       {},
       true},
      {static_cast<uint8_t>(QuickOpcode::kSubF32Imm),
       2,
       4,
       QuickOpcode::kSubF32ImmAcc,
       false,
       {},
       true},
      {static_cast<uint8_t>(QuickOpcode::kMulF32Imm),
       2,
       4,
       QuickOpcode::kMulF32ImmAcc,
       false,
       {},
       true},
      // Unary casts: `b` unused (-1).
      {DirectExtF32Opcode(ExtF32Opcode::CastSI32F32),
       2,
       -1,
       QuickOpcode::kCastSI32F32Acc,
       false,
       {},
       true},
      {DirectExtF32Opcode(ExtF32Opcode::CastUI32F32),
       2,
       -1,
       QuickOpcode::kCastUI32F32Acc,
       false,
       {},
       true},
  };
  for (const Binary& form : kBinary) {
    if (at[0] != form.byte) continue;
    if (Get16(at + form.a) == acc) {
      at[0] = static_cast<uint8_t>(form.left);
      return true;
    }
    if (form.immediate || Get16(at + form.b) != acc) return false;
    if (form.right) {
      at[0] = static_cast<uint8_t>(*form.right);
      return true;
    }
    if (!form.commutative) return false;
    Swap16(at + form.a, at + form.b);
    at[0] = static_cast<uint8_t>(form.left);
    return true;
  }
  // Multiply-adds a * b + c: acc as a factor (moved to a) or as c.
  // (f32 factors are not swapped: see the NaN note in the header.)
  struct Ternary {
    uint8_t byte;
    int a;
    QuickOpcode factor;
    std::optional<QuickOpcode> second_factor;
    QuickOpcode addend;
  };
  static constexpr Ternary kTernary[] = {
      {static_cast<uint8_t>(CoreOpcode::FMAI32),
       1,
       QuickOpcode::kFMAI32AccA,
       {},
       QuickOpcode::kFMAI32AccC},
      {static_cast<uint8_t>(QuickOpcode::kFMAF32Hw), 2,
       QuickOpcode::kFMAF32HwAccA, QuickOpcode::kFMAF32HwAccB,
       QuickOpcode::kFMAF32HwAccC},
  };
  for (const Ternary& form : kTernary) {
    if (at[0] != form.byte) continue;
    uint8_t* a = at + form.a;
    uint8_t* b = a + 2;
    uint8_t* c = a + 4;
    if (Get16(a) == acc) {
      at[0] = static_cast<uint8_t>(form.factor);
    } else if (Get16(b) == acc && form.second_factor) {
      at[0] = static_cast<uint8_t>(*form.second_factor);
    } else if (Get16(b) == acc) {
      Swap16(a, b);
      at[0] = static_cast<uint8_t>(form.factor);
    } else if (Get16(c) == acc) {
      at[0] = static_cast<uint8_t>(form.addend);
    } else {
      return false;
    }
    return true;
  }
  return false;
}

void ForwardResults(std::span<const uint8_t> function,
                    std::vector<uint8_t>& code) {
  DecodedInstruction instruction;
  std::optional<uint16_t> acc;  // the register whose value is in acc
  for (uint32_t pc = 0; pc < function.size(); pc = instruction.next_pc) {
    // The copy was built from these bytes, which decoded before.
    if (!bytecode::DecodeInstruction(function, pc, &instruction).ok()) return;
    uint8_t* at = code.data() + pc;
    if (acc) Forward(at, *acc);
    int slot = ResultSlot(at[0]);
    if (slot >= 0 &&
        static_cast<uint32_t>(slot) + 2 <= instruction.next_pc - pc) {
      acc = Get16(at + slot);
    } else {
      acc.reset();
    }
  }
}

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
      CoalesceBranchCopies(function, blocks, liveness_budget));
  EMBER_ASSIGN_OR_RETURN(
      std::optional<ConstantFlow> flow,
      ConstantFlow::Analyze(function, blocks, constants_budget));
  // The function-wide rule, only needed when the dataflow gave up.
  std::vector<std::optional<int32_t>> constants;
  if (!flow) {
    EMBER_ASSIGN_OR_RETURN(constants, FindConstantRegisters(function));
  }
  if (stats != nullptr) {
    stats->liveness_complete = coalesced.complete;
    stats->constants_complete = flow.has_value();
    stats->liveness_work = liveness_budget.spent();
    stats->constants_work = constants_budget.spent();
    stats->work_budget = liveness_budget.limit();
    stats->copy_walk_steps = coalesced.walk_steps;
  }
  // The constant in `reg` before the current instruction: per use when the
  // dataflow ran, else the function-wide rule.
  auto constant_of = [&](uint16_t reg) -> std::optional<int32_t> {
    if (flow) return flow->Value(reg);
    if (reg >= constants.size()) return std::nullopt;
    return constants[reg];
  };
  auto small_constant = [&](uint16_t reg) -> std::optional<int32_t> {
    std::optional<int32_t> constant = constant_of(reg);
    if (!constant) return std::nullopt;
    int32_t value = *constant;
    if (value < INT16_MIN || value > INT16_MAX) return std::nullopt;
    return value;
  };
  // A constant whose f32 bit pattern is a bfloat16 (low half zero): its
  // high half, which the f32 immediate handlers shift back up.
  auto bf16_constant = [&](uint16_t reg) -> std::optional<uint16_t> {
    std::optional<int32_t> constant = constant_of(reg);
    if (!constant) return std::nullopt;
    uint32_t bits = static_cast<uint32_t>(*constant);
    if ((bits & 0xFFFFu) != 0) return std::nullopt;
    return static_cast<uint16_t>(bits >> 16);
  };
  for (auto [offset, reg] : coalesced.results) Put16(code.data() + offset, reg);
  DecodedInstruction instruction;
  // Copyless unconditional branches: (pc, target pc after the marker).
  std::vector<std::pair<uint32_t, uint32_t>> copyless_branches;
  // The previous instruction when it was an i32 comparison that can fuse
  // with a following vm.cond_br: its pc, result register, fused opcode.
  struct PendingCompare {
    uint32_t pc;
    uint16_t result;
    uint8_t opcode;  // core opcode of the comparison
  };
  std::optional<PendingCompare> compare;
  // AddI32Imm rewrites, as (end pc, pc), in pc order: latch candidates.
  std::vector<std::pair<uint32_t, uint32_t>> add_immediates;
  for (uint32_t pc = 0; pc < function.size(); pc = instruction.next_pc) {
    EMBER_RETURN_IF_ERROR(
        bytecode::DecodeInstruction(function, pc, &instruction),
        "preparing pc %u for execution", pc);
    if (flow) flow->Step(instruction);
    const bytecode::OpcodeInfo& info = *instruction.info;
    uint8_t* at = code.data() + pc;
    const size_t length = instruction.next_pc - pc;
    std::optional<PendingCompare> previous = compare;
    compare.reset();
    QuickOpcode fused;
    if (info.set == OpcodeSet::kCore &&
        FusedCompare(info.opcode, false, &fused)) {
      const bytecode::DecodedField& result =
          instruction.field(instruction.field_count - 1);
      compare = PendingCompare{pc, result.reg, info.opcode};
      continue;
    }
    QuickOpcode immediate_form;
    bool commutative;
    if (info.set == OpcodeSet::kCore &&
        ImmediateForm(info.opcode, &immediate_form, &commutative)) {
      // Fields: lhs, rhs, result (u16 each at offsets 1, 3, 5).
      uint16_t lhs = instruction.field(0).reg;
      uint16_t rhs = instruction.field(1).reg;
      std::optional<int32_t> value = small_constant(rhs);
      if (!value && commutative) {
        value = small_constant(lhs);
        if (value) lhs = rhs;
      }
      if (value) {
        at[0] = static_cast<uint8_t>(immediate_form);
        Put16(at + 1, lhs);
        Put16(at + 3, static_cast<uint16_t>(static_cast<int16_t>(*value)));
        if (immediate_form == QuickOpcode::kAddI32Imm) {
          add_immediates.emplace_back(instruction.next_pc, pc);
        }
      }
      continue;
    }
    if (info.set == OpcodeSet::kCore &&
        info.opcode == static_cast<uint8_t>(bytecode::CoreOpcode::FMAI32)) {
      // Fields: a, b, c, result (u16 each at offsets 1, 3, 5, 7).
      uint16_t a = instruction.field(0).reg;
      uint16_t b = instruction.field(1).reg;
      uint16_t c = instruction.field(2).reg;
      if (std::optional<int32_t> addend = small_constant(c)) {
        at[0] = static_cast<uint8_t>(QuickOpcode::kFMAI32ImmC);
        Put16(at + 5, static_cast<uint16_t>(static_cast<int16_t>(*addend)));
      } else if (std::optional<int32_t> factor = small_constant(b)) {
        at[0] = static_cast<uint8_t>(QuickOpcode::kFMAI32ImmB);
        Put16(at + 3, static_cast<uint16_t>(static_cast<int16_t>(*factor)));
      } else if (std::optional<int32_t> left = small_constant(a)) {
        at[0] = static_cast<uint8_t>(QuickOpcode::kFMAI32ImmB);
        Put16(at + 1, b);
        Put16(at + 3, static_cast<uint16_t>(static_cast<int16_t>(*left)));
      }
      continue;
    }
    QuickOpcode f32_form;
    if (info.set == OpcodeSet::kExtF32 && options.direct_ext_f32 &&
        F32ImmediateForm(info.opcode, &f32_form, &commutative)) {
      // Fields after the prefix and op bytes: lhs, rhs, result at 2, 4, 6.
      uint16_t lhs = instruction.field(0).reg;
      uint16_t rhs = instruction.field(1).reg;
      std::optional<uint16_t> high = bf16_constant(rhs);
      if (!high && commutative) {
        // Not a NaN: a + NaN and NaN + a differ in payload when a is a
        // NaN too.
        high = bf16_constant(lhs);
        if (high && (*high & 0x7F80u) == 0x7F80u && (*high & 0x007Fu) != 0) {
          high.reset();
        }
        if (high) lhs = rhs;
      }
      if (high) {
        at[0] = static_cast<uint8_t>(f32_form);
        Put16(at + 2, lhs);
        Put16(at + 4, *high);
        continue;
      }
      // Otherwise the direct ExtF32 opcode, below.
    }
    if (info.set == OpcodeSet::kExtF32 && options.direct_ext_f32 &&
        info.opcode == static_cast<uint8_t>(bytecode::ExtF32Opcode::FMAF32) &&
        CpuHasFma()) {
      // Fields: a, b, c, result at 2, 4, 6, 8. A constant factor goes to b.
      uint16_t a = instruction.field(0).reg;
      uint16_t b = instruction.field(1).reg;
      std::optional<uint16_t> high = bf16_constant(b);
      if (!high) {
        // Not a NaN, whose payload could then differ (see AddF32Imm).
        high = bf16_constant(a);
        if (high && (*high & 0x7F80u) == 0x7F80u && (*high & 0x007Fu) != 0) {
          high.reset();
        }
        if (high) a = b;
      }
      if (high) {
        at[0] = static_cast<uint8_t>(QuickOpcode::kFMAF32HwImmB);
        Put16(at + 2, a);
        Put16(at + 4, *high);
        continue;
      }
    }
    if (info.set == OpcodeSet::kExtF32) {
      if (options.direct_ext_f32 &&
          info.opcode == static_cast<uint8_t>(bytecode::ExtF32Opcode::FMAF32) &&
          CpuHasFma()) {
        at[0] = static_cast<uint8_t>(QuickOpcode::kFMAF32Hw);
      } else if (options.direct_ext_f32 && kDirectOpcodeOf[info.opcode] != 0) {
        at[0] = kDirectOpcodeOf[info.opcode];
      }
      continue;
    }
    if (info.set != OpcodeSet::kCore) continue;
    if (info.opcode == static_cast<uint8_t>(bytecode::CoreOpcode::Branch)) {
      RemapList remap = instruction.field(1).remap;
      if (!IsScalarRemap(remap)) continue;
      std::vector<std::pair<uint16_t, uint16_t>> pairs;
      for (size_t k = 0; k < remap.size(); ++k) {
        pairs.emplace_back(remap.source(k), remap.destination(k));
      }
      // Both lists are in pc order (binary search: no quadratic work on
      // functions with many branches).
      auto coalesced_branch = std::lower_bound(
          coalesced.branches.begin(), coalesced.branches.end(), pc,
          [](const auto& entry, uint32_t key) { return entry.first < key; });
      if (coalesced_branch != coalesced.branches.end() &&
          coalesced_branch->first == pc) {
        pairs = coalesced_branch->second;
      }
      size_t needed = quick_layout::kBrPairs + size_t{4} * pairs.size();
      if (needed > length) continue;  // cannot happen: padding only adds
      at[0] = static_cast<uint8_t>(BranchOpcode(pairs.size()));
      if (pairs.empty()) {
        copyless_branches.emplace_back(pc, instruction.field(0).u32() + 1);
      }
      Put32(at + quick_layout::kBrRel,
            Relative(pc, instruction.field(0).u32()));
      Put16(at + quick_layout::kBrCount, static_cast<uint16_t>(pairs.size()));
      uint8_t* p = at + quick_layout::kBrPairs;
      for (auto [source, destination] : pairs) {
        Put16(p, source);
        Put16(p + 2, destination);
        p += 4;
      }
      continue;
    }
    if (info.opcode == static_cast<uint8_t>(bytecode::CoreOpcode::CondBranch)) {
      RemapList true_remap = instruction.field(2).remap;
      RemapList false_remap = instruction.field(4).remap;
      if (!IsScalarRemap(true_remap) || !IsScalarRemap(false_remap)) continue;
      size_t needed = quick_layout::kCondBrPairs +
                      size_t{4} * (true_remap.size() + false_remap.size());
      if (needed > length) continue;
      bool no_copies = true_remap.empty() && false_remap.empty();
      at[0] = static_cast<uint8_t>(no_copies ? QuickOpcode::kCondBrI32x00
                                             : QuickOpcode::kCondBrI32xN);
      Put16(at + quick_layout::kCondBrCondition, instruction.field(0).reg);
      Put32(at + quick_layout::kCondBrTrueRel,
            Relative(pc, instruction.field(1).u32()));
      Put32(at + quick_layout::kCondBrFalseRel,
            Relative(pc, instruction.field(3).u32()));
      Put16(at + quick_layout::kCondBrTrueCount, true_remap.size());
      Put16(at + quick_layout::kCondBrFalseCount, false_remap.size());
      PutPairs(PutPairs(at + quick_layout::kCondBrPairs, true_remap),
               false_remap);
      if (no_copies && previous &&
          previous->result == instruction.field(0).reg) {
        bool dead = std::binary_search(coalesced.dead_conditions.begin(),
                                       coalesced.dead_conditions.end(), pc);
        if (FusedCompare(previous->opcode, dead, &fused)) {
          code[previous->pc] = static_cast<uint8_t>(fused);
        }
      }
      continue;
    }
  }
  // Back edges into fused loop heads (every head is rewritten by now).
  for (auto [pc, target] : copyless_branches) {
    QuickOpcode chained;
    std::optional<QuickOpcode> latch;
    if (target < code.size() &&
        BranchIntoHead(code[target], &chained, &latch)) {
      code[pc] = static_cast<uint8_t>(chained);
      // An add-immediate that ends where the branch starts is in its block.
      auto add = std::lower_bound(
          add_immediates.begin(), add_immediates.end(), pc,
          [](const auto& entry, uint32_t key) { return entry.first < key; });
      if (latch && add != add_immediates.end() && add->first == pc) {
        code[add->second] = static_cast<uint8_t>(*latch);
      }
    }
  }
  // Last: forwarding looks at every instruction's final form.
  if (options.forward_results) ForwardResults(function, code);
  return code;
}

}  // namespace ember::vm::bytecode
