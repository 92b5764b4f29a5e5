// Test helper: hand-assembled function bytecode (bytecode 17 encodings, as
// runtime/vm/bytecode/opcode_table.h describes them: u16 registers, u32
// immediates and targets, lists as a u16 count padded to an even offset
// from the function's start).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/vm/bytecode/opcode_table.h"

namespace ember::testing {

class BytecodeAssembler {
 public:
  std::vector<uint8_t>& bytes() { return bytes_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  uint32_t here() const { return static_cast<uint32_t>(bytes_.size()); }

  void U8(uint8_t value) { bytes_.push_back(value); }
  void U16(uint16_t value) { Append(value); }
  void U32(uint32_t value) { Append(value); }
  // Padding to an even offset (before a list).
  void Pad() {
    if (bytes_.size() % 2) U8(0);
  }
  // Functions laid out one after another start 4-aligned (list padding is
  // relative to each function's start).
  void AlignFunction() {
    while (bytes_.size() % 4) U8(0);
  }
  void List(const std::vector<uint16_t>& registers) {
    Pad();
    U16(static_cast<uint16_t>(registers.size()));
    for (uint16_t r : registers) U16(r);
  }
  // Sets the u32 at `at` (a branch target written as 0 before the target
  // block existed).
  void Patch(size_t at, uint32_t value) {
    for (int i = 0; i < 4; ++i)
      bytes_[at + i] = static_cast<uint8_t>(value >> (8 * i));
  }

  // Returns the marker's pc.
  uint32_t Block() {
    const uint32_t pc = here();
    Op(vm::bytecode::CoreOpcode::Block);
    return pc;
  }
  void ConstI32(int32_t value, uint16_t result) {
    Op(vm::bytecode::CoreOpcode::ConstI32);
    U32(static_cast<uint32_t>(value));
    U16(result);
  }
  void AddI32(uint16_t lhs, uint16_t rhs, uint16_t result) {
    Op(vm::bytecode::CoreOpcode::AddI32);
    U16(lhs);
    U16(rhs);
    U16(result);
  }
  // A copyless vm.br; returns where its target is (for Patch).
  size_t Branch(uint32_t target = 0) {
    Op(vm::bytecode::CoreOpcode::Branch);
    const size_t at = bytes_.size();
    U32(target);
    List({});
    return at;
  }
  // A copyless vm.cond_br; returns where its two targets are.
  std::pair<size_t, size_t> CondBranch(uint16_t condition) {
    Op(vm::bytecode::CoreOpcode::CondBranch);
    U16(condition);
    const size_t on_true = bytes_.size();
    U32(0);
    List({});
    const size_t on_false = bytes_.size();
    U32(0);
    List({});
    return {on_true, on_false};
  }
  void Return(const std::vector<uint16_t>& registers = {}) {
    Op(vm::bytecode::CoreOpcode::Return);
    List(registers);
  }
  void Call(uint32_t callee, const std::vector<uint16_t>& operands,
            const std::vector<uint16_t>& results) {
    Op(vm::bytecode::CoreOpcode::Call);
    U32(callee);
    List(operands);
    List(results);
  }
  void CallVariadic(uint32_t callee, const std::vector<uint16_t>& segments,
                    const std::vector<uint16_t>& operands,
                    const std::vector<uint16_t>& results) {
    Op(vm::bytecode::CoreOpcode::CallVariadic);
    U32(callee);
    List(segments);
    List(operands);
    List(results);
  }

 private:
  template <typename T>
  void Append(T value) {
    const size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    StoreLE(&bytes_[at], value);
  }
  void Op(vm::bytecode::CoreOpcode op) { U8(static_cast<uint8_t>(op)); }

  std::vector<uint8_t> bytes_;
};

}  // namespace ember::testing
