// What the quickener's analyses (quicken_liveness_internal.h,
// quicken_constants_internal.h) share: the int-bank registers each
// instruction reads and writes, the function's block structure, and the
// work budget that bounds each analysis on hostile input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/opcode_table.h"

namespace ember::vm::bytecode::quicken {

// Whether no copy of `remap` involves a ref register.
bool IsScalarRemap(RemapList remap);

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

// The int-bank registers an instruction reads and surely writes. Reads are
// over-approximated (an even-numbered entry of a mixed list, which may be a
// 64-bit value, counts as two registers) and writes under-approximated (call
// results and branch copies are not counted), which is what liveness needs
// to be safe.
struct RegisterEffects {
  RegisterList32 reads;
  RegisterList32 writes;
  bool fixed_length = true;  // no list, remap, string or table fields
};

RegisterEffects EffectsOf(const DecodedInstruction& instruction);

// Every int-bank register an instruction may write, over-approximated:
// `effects.writes`, call results (an even entry of a list may be a 64-bit
// pair) and branch copies (on any edge).
template <typename Fn>
void ForEachIntWrite(const DecodedInstruction& instruction,
                     const RegisterEffects& effects, Fn&& written) {
  for (const DecodedField& field : instruction.field_span()) {
    const FieldTraits traits = GetFieldTraits(field.kind());
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
      for (BranchCase branch_case : field.cases) {
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

// Limits on the backward/forward sweeps of both dataflows: enough for loop
// nests far deeper than compilers emit.
inline constexpr int kMaxSweeps = 64;

// Memory limits alone would not bound time: a small hostile function (a few
// blocks, a register numbered 30000, a chain that converges one block per
// sweep) could still cost 64 sweeps over a million words -- ~50 us of load
// time per byte of module. So each analysis also gets a work budget
// proportional to the function's size (units: 64-bit words or state entries
// touched) and gives up -- leaves its rewrites out, which is always correct
// -- once it is spent. Compiled code needs a small fraction of it (a few
// sweeps over few live registers).
inline constexpr size_t kAnalysisWorkPerByte = 256;
inline constexpr size_t kAnalysisWorkFloor = size_t{1} << 14;

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
// analyses.
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
  static Result<FunctionBlocks> Of(std::span<const uint8_t> function);
};

}  // namespace ember::vm::bytecode::quicken
