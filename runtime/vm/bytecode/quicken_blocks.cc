#include <algorithm>

#include "runtime/vm/bytecode/quicken_blocks_internal.h"

namespace ember::vm::bytecode::quicken {
namespace {

void AddRegister(RegisterList32& out, uint16_t reg, bool wide) {
  out.push_back(reg);
  if (wide) out.push_back(uint32_t{reg} + 1);
}

}  // namespace

bool IsScalarRemap(RemapList remap) {
  for (size_t i = 0; i < remap.size(); ++i) {
    if ((remap.source(i) | remap.destination(i)) & kRefRegisterBit)
      return false;
  }
  return true;
}

RegisterEffects EffectsOf(const DecodedInstruction& instruction) {
  RegisterEffects effects;
  for (const DecodedField& field : instruction.field_span()) {
    const FieldTraits traits = GetFieldTraits(field.kind());
    switch (traits.encoding) {
      case FieldEncoding::kRegister:
        if (traits.type == OperandType::kRef || (field.reg & kRefRegisterBit))
          break;
        AddRegister(traits.is_write ? effects.writes : effects.reads, field.reg,
                    IsWideOperandType(traits.type));
        break;
      case FieldEncoding::kRegisterList:
        effects.fixed_length = false;
        if (traits.is_write || field.kind() == FieldKind::kSegmentSizes) {
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
        for (BranchCase branch_case : field.cases) {
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

Result<FunctionBlocks> FunctionBlocks::Of(std::span<const uint8_t> function) {
  FunctionBlocks blocks;
  blocks.block_at_pc.assign(function.size() + 1, -1);
  DecodedInstruction instruction;
  for (uint32_t pc = 0; pc < function.size(); pc = instruction.next_pc) {
    EMBER_RETURN_IF_ERROR(DecodeInstruction(function, pc, &instruction),
                          "preparing pc %u for execution", pc);
    if (instruction.info->has_flag(kBlockMarker)) {
      blocks.block_at_pc[pc] = static_cast<int32_t>(blocks.block_start.size());
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
        DecodeInstruction(function, blocks.pcs[i], &instruction));
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
        !instruction.info->has_flag(kTerminator)) {
      out.push_back(b + 1);
    }
  }
  for (const std::vector<uint32_t>& out : blocks.successors)
    blocks.edge_count += out.size();
  return blocks;
}

}  // namespace ember::vm::bytecode::quicken
