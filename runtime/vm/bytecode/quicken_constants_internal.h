// Which int-bank registers hold a known 32-bit constant (an i32 value or an
// f32 bit pattern) where an instruction reads them: the immediate rewrites
// of quickened_code.h replace such operands by their value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/quicken_blocks_internal.h"

namespace ember::vm::bytecode::quicken {

// The register and bit pattern a constant instruction (vm.const.i32,
// vm.const.f32 or their .zero forms) writes; false for every other
// instruction.
bool ConstantWrite(const DecodedInstruction& instruction, uint16_t* reg,
                   int32_t* value);

// The function-wide rule: registers that hold one 32-bit constant for the
// whole function -- written once, by a constant instruction in the entry
// block, and not read in that block before it. Every other kind of write --
// including call results and branch copies, counted with their 64-bit
// neighbours -- disqualifies. Used only when ConstantFlow gives up.
Result<std::vector<std::optional<int32_t>>> FindConstantRegisters(
    std::span<const uint8_t> function);

// Constants per use. The function-wide rule misses constants whose register
// the compiler reuses once the constant is dead -- common, e.g. in a
// function with two loops. This forward dataflow over blocks finds, at each
// instruction, the int registers that hold one known constant on every path
// there: written by a constant instruction and not since. Every other write
// -- over-approximated by ForEachIntWrite, branch copies on all edges of
// their branch -- makes a register unknown. Function arguments and
// registers never written are unknown at entry.
class ConstantFlow {
 public:
  // The analysis of `function`, or nullopt when it exceeds its bounds
  // (memory, sweeps, `budget`).
  static Result<std::optional<ConstantFlow>> Analyze(
      std::span<const uint8_t> function, const FunctionBlocks& blocks,
      WorkBudget& budget);

  // Walks the function in pc order: call Step for every instruction, then
  // query the registers it reads.
  void Step(const DecodedInstruction& instruction) {
    if (has_previous_) Apply(previous_, state_);
    if (instruction.info->has_flag(kBlockMarker)) {
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
  static constexpr int64_t kUnknownValue = INT64_MIN;        // not one constant
  static constexpr int64_t kUnreachedValue = INT64_MIN + 1;  // no path yet

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
  bool Meet(size_t block, const std::vector<int64_t>& state);

  std::vector<int32_t> index_of_;  // register -> tracked index, or -1
  size_t tracked_ = 0;
  std::vector<int64_t> in_;  // per block, per tracked register
  std::vector<int64_t> state_;
  size_t block_ = 0;
  DecodedInstruction previous_;
  bool has_previous_ = false;
};

}  // namespace ember::vm::bytecode::quicken
