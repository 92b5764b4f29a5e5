// Liveness of the int register bank, and the branch copy coalescing and
// dead compare results it allows (quickened_code.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/quicken_blocks_internal.h"

namespace ember::vm::bytecode::quicken {

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

// A loop back-edge `vm.br ^head(%s -> %d)` copies a value computed in the
// body into the register the header reads. When the instruction D that
// computes %s is in the branch's own block, and nothing between D and the
// branch touches %s or %d, D can write %d directly and the copy disappears
// -- provided %s is dead where the branch goes (nobody reads the value it no
// longer holds) and no other copy of the branch mentions %s or %d (copies
// apply in order). Every loop-carried value otherwise makes an extra
// store-to-load round trip through the register file per iteration.
//
// Liveness is a standard backward dataflow over the int register bank,
// safe because of how EffectsOf approximates reads and writes. Past its
// bounds (memory, sweeps, `budget`) nothing is coalesced and no condition
// is reported dead.
Result<Coalesced> CoalesceBranchCopies(std::span<const uint8_t> function,
                                       const FunctionBlocks& blocks,
                                       WorkBudget& budget);

}  // namespace ember::vm::bytecode::quicken
