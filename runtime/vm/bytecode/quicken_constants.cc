#include <algorithm>

#include "runtime/vm/bytecode/quicken_constants_internal.h"

namespace ember::vm::bytecode::quicken {
namespace {

// States held: blocks x tracked registers (8 MiB).
constexpr size_t kMaxConstantEntries = size_t{1} << 20;

}  // namespace

bool ConstantWrite(const DecodedInstruction& instruction, uint16_t* reg,
                   int32_t* value) {
  const OpcodeInfo& info = *instruction.info;
  if (info.set == OpcodeSet::kCore) {
    auto op = static_cast<CoreOpcode>(info.opcode);
    if (op == CoreOpcode::ConstI32Zero) {
      *reg = instruction.field(0).reg;
      *value = 0;
      return true;
    }
    if (op == CoreOpcode::ConstI32) {
      *reg = instruction.field(1).reg;
      *value = instruction.field(0).i32();
      return true;
    }
  } else if (info.set == OpcodeSet::kExtF32) {
    auto op = static_cast<ExtF32Opcode>(info.opcode);
    if (op == ExtF32Opcode::ConstF32Zero) {
      *reg = instruction.field(0).reg;
      *value = 0;
      return true;
    }
    if (op == ExtF32Opcode::ConstF32) {
      *reg = instruction.field(1).reg;
      *value = instruction.field(0).i32();
      return true;
    }
  }
  return false;
}

Result<std::vector<std::optional<int32_t>>> FindConstantRegisters(
    std::span<const uint8_t> function) {
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
    EMBER_RETURN_IF_ERROR(DecodeInstruction(function, pc, &instruction));
    const OpcodeInfo& info = *instruction.info;
    if (info.has_flag(kBlockMarker)) ++blocks_seen;
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
      auto op = static_cast<CoreOpcode>(info.opcode);
      if (op == CoreOpcode::ConstI32Zero) {
        constant[instruction.field(0).reg] = 0;
      } else if (op == CoreOpcode::ConstI32) {
        constant[instruction.field(1).reg] = instruction.field(0).i32();
      }
    }
    if (entry_block && info.set == OpcodeSet::kExtF32) {
      auto op = static_cast<ExtF32Opcode>(info.opcode);
      if (op == ExtF32Opcode::ConstF32Zero) {
        constant[instruction.field(0).reg] = 0;
      } else if (op == ExtF32Opcode::ConstF32) {
        constant[instruction.field(1).reg] = instruction.field(0).i32();
      }
    }
  }
  for (size_t r = 0; r < constant.size(); ++r) {
    if (writes[r] != 1 || read_early[r]) constant[r].reset();
  }
  return constant;
}

Result<std::optional<ConstantFlow>> ConstantFlow::Analyze(
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
    EMBER_RETURN_IF_ERROR(DecodeInstruction(function, pc, &instruction));
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
    EMBER_RETURN_IF_ERROR(DecodeInstruction(function, pcs[i], &instruction));
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
    if (sweep == kMaxSweeps) return std::optional<ConstantFlow>();
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

bool ConstantFlow::Meet(size_t block, const std::vector<int64_t>& state) {
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

}  // namespace ember::vm::bytecode::quicken
