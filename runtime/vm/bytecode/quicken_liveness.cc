#include <algorithm>
#include <unordered_map>

#include "runtime/vm/bytecode/quicken_liveness_internal.h"

namespace ember::vm::bytecode::quicken {
namespace {

// A set of int-bank registers, one bit each.
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

// The single 32-bit register result of a fixed-length instruction: the
// field, or null when the instruction writes anything else or nothing.
const DecodedField* Single32BitResult(const DecodedInstruction& instruction) {
  const DecodedField* result = nullptr;
  for (const DecodedField& field : instruction.field_span()) {
    const FieldTraits traits = GetFieldTraits(field.kind());
    if (!traits.is_write) continue;
    if (result != nullptr) return nullptr;
    if (field.kind() != FieldKind::kResI32 &&
        field.kind() != FieldKind::kResF32) {
      return nullptr;
    }
    result = &field;
  }
  return result;
}

// The memory limit of the analysis: bitset words over all blocks (each of
// uses, defs and live-in; 1M words = 8 MiB each). Sweeps are limited by
// kMaxSweeps, time by the work budget.
constexpr size_t kMaxLivenessWords = size_t{1} << 20;

}  // namespace

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
    EMBER_RETURN_IF_ERROR(DecodeInstruction(function, pcs[i], &instruction));
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
    if (++sweeps > kMaxSweeps) return Coalesced{};
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
    EMBER_RETURN_IF_ERROR(DecodeInstruction(function, pcs[i], &instruction));
    const OpcodeInfo& info = *instruction.info;
    if (info.set == OpcodeSet::kCore &&
        info.opcode == static_cast<uint8_t>(CoreOpcode::CondBranch)) {
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
        info.opcode != static_cast<uint8_t>(CoreOpcode::Branch)) {
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
        EMBER_RETURN_IF_ERROR(DecodeInstruction(function, pcs[p], &prior));
        ++out.walk_steps;
        if (prior.info->has_flag(kBlockMarker)) break;
        RegisterEffects effects = EffectsOf(prior);
        if (!effects.fixed_length) break;
        const DecodedField* result = Single32BitResult(prior);
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

}  // namespace ember::vm::bytecode::quicken
