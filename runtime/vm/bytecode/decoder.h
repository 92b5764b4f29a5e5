// A bounds-checked decoder for one bytecode instruction at a time.
//
// The decoder is the only code in Ember that turns raw function bytes into
// instructions without trusting them. It is driven entirely by the opcode
// table (opcode_table.h): it reads the opcode (and the extension opcode after
// an 0xE0/0xE1 prefix), then walks the instruction's field list, checking
// before every read that the bytes are there. It never reads outside the
// function span, whatever the input; on any shortfall it returns DATA_LOSS,
// and on an opcode it does not know INVALID_ARGUMENT, both naming the offset
// and the instruction.
//
// It checks structure only. Whether a register is in range, of the right
// bank, even for 64-bit values, or whether an ordinal indexes a real table
// entry is the verifier's business; the decoder hands it the raw values.
//
// Decoded lists (register lists, remap lists, branch-table cases) are views
// into the function bytes, not copies: decoding allocates nothing. The views
// stay valid as long as the bytecode does. They read little-endian u16s with
// LoadLE, so they do not depend on host alignment.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "runtime/base/endian.h"
#include "runtime/base/status.h"
#include "runtime/vm/bytecode/opcode_table.h"

namespace ember::vm::bytecode {

// A run of u16 values in the bytecode: a register list or segment sizes.
class RegisterList {
 public:
  RegisterList() = default;
  RegisterList(const uint8_t* data, uint16_t count)
      : data_(data), count_(count) {}
  uint16_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  uint16_t operator[](size_t i) const {
    return LoadLE<uint16_t>(data_ + 2 * i);
  }
  // The little-endian u16 entries.
  const uint8_t* data() const { return data_; }

 private:
  const uint8_t* data_ = nullptr;
  uint16_t count_ = 0;
};

// Branch operand remapping: (source register, destination register) pairs,
// applied in order (as IREE does; the compiler orders them) when the branch is
// taken.
class RemapList {
 public:
  RemapList() = default;
  RemapList(const uint8_t* data, uint16_t count) : data_(data), count_(count) {}
  uint16_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  uint16_t source(size_t i) const { return LoadLE<uint16_t>(data_ + 4 * i); }
  uint16_t destination(size_t i) const {
    return LoadLE<uint16_t>(data_ + 4 * i + 2);
  }

 private:
  const uint8_t* data_ = nullptr;
  uint16_t count_ = 0;
};

struct BranchCase {
  uint32_t target = 0;  // pc of the case's block marker
  RemapList remap;
};

// The cases of a br_table. Cases are variable length (each remap list is
// padded relative to the function start), so they are walked in order; the
// decoder has already checked that the whole run lies inside the function.
class BranchCaseList {
 public:
  class Iterator {
   public:
    Iterator(const uint8_t* function, uint32_t offset, uint16_t remaining)
        : function_(function), offset_(offset), remaining_(remaining) {}
    BranchCase operator*() const;
    Iterator& operator++();
    bool operator!=(const Iterator& other) const {
      return remaining_ != other.remaining_;
    }

   private:
    const uint8_t* function_;
    uint32_t offset_;
    uint16_t remaining_;
  };

  BranchCaseList() = default;
  BranchCaseList(const uint8_t* function, uint32_t first_case_offset,
                 uint16_t count)
      : function_(function), offset_(first_case_offset), count_(count) {}
  uint16_t size() const { return count_; }
  Iterator begin() const { return Iterator(function_, offset_, count_); }
  Iterator end() const { return Iterator(function_, offset_, 0); }
  // The i-th case, found by walking from the first (O(i)).
  BranchCase operator[](size_t i) const;

 private:
  const uint8_t* function_ = nullptr;
  uint32_t offset_ = 0;
  uint16_t count_ = 0;
};

// One decoded field. Which member is meaningful follows from
// GetFieldTraits(info->kind).encoding:
//   kRegister -> reg; kU32 / kU64 -> bits; kString -> string;
//   kRegisterList -> list; kRemapList -> remap; kBranchTable -> cases.
struct DecodedField {
  const FieldInfo* info = nullptr;
  uint32_t offset = 0;  // function-relative offset of the field's first byte
                        // (after any alignment padding)
  uint16_t reg = 0;     // raw u16, ref/move bits included
  uint64_t bits = 0;    // immediate bits, ordinal, offset or branch target
  std::string_view string;
  RegisterList list;
  RemapList remap;
  BranchCaseList cases;

  FieldKind kind() const { return info->kind; }
  uint32_t u32() const { return static_cast<uint32_t>(bits); }
  int32_t i32() const {
    return static_cast<int32_t>(static_cast<uint32_t>(bits));
  }
  int64_t i64() const { return static_cast<int64_t>(bits); }
  float f32() const {
    uint32_t b = u32();
    float value;
    std::memcpy(&value, &b, sizeof(value));
    return value;
  }
  double f64() const {
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  // The segment-size list holds signed 16-bit values.
  int16_t segment_size(size_t i) const { return static_cast<int16_t>(list[i]); }
};

struct DecodedInstruction {
  const OpcodeInfo* info = nullptr;
  uint32_t pc = 0;       // offset of the first byte (the prefix, if any)
  uint32_t next_pc = 0;  // offset just past the last field
  uint8_t field_count = 0;
  std::array<DecodedField, kMaxInstructionFields> fields;

  std::span<const DecodedField> field_span() const {
    return {fields.data(), field_count};
  }
  const DecodedField& field(size_t i) const { return fields[i]; }

  // Calls fn(uint32_t target) for every branch target the instruction
  // names: plain targets, resume targets and every br_table case.
  template <typename Fn>
  void ForEachBranchTarget(Fn&& fn) const {
    for (const DecodedField& f : field_span()) {
      if (f.kind() == FieldKind::kBranchTarget) {
        fn(f.u32());
      } else if (f.kind() == FieldKind::kBranchTableCases) {
        for (BranchCase c : f.cases) fn(c.target);
      }
    }
  }
};

// Decodes the instruction at `pc` of `function` (the function's bytes,
// starting at its bytecode_offset and bytecode_length long -- not including
// the zero padding to 8 bytes that follows each function; alignment padding
// is relative to its first byte). On success fills `out`, including
// out->next_pc.
//
// Errors: INVALID_ARGUMENT for a pc outside the function or an unknown
// (core or extension) opcode; DATA_LOSS when the instruction runs past the
// end of the function. `out` is unspecified after an error.
Status DecodeInstruction(std::span<const uint8_t> function, uint32_t pc,
                         DecodedInstruction* out);

// One line of text for an instruction, e.g.
//   %i2 = vm.add.i32 %i0, %i1
//   %i4:5 = vm.const.i64 123456789012
//   %r1! = vm.assign.ref %r0!
//   vm.cond_br %i1, ^0x46(%i0->%i4), ^0x4e()
// Int-bank registers print as %iN (a 64-bit pair as %iN:N+1), refs as %rN,
// with "!" marking the MOVE bit. Results are printed left of '='.
std::string DisassembleInstruction(const DecodedInstruction& instruction);

// Every instruction of a function, one per line, each prefixed with its
// offset; stops at the first decoding error and returns it.
Result<std::string> DisassembleFunction(std::span<const uint8_t> function);

}  // namespace ember::vm::bytecode
