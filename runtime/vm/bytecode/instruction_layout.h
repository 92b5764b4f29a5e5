// Compile-time byte layouts of every instruction, derived from the opcode
// table, for the interpreter's hot path.
//
// The decoder (decoder.h) walks an instruction's fields one by one and checks
// every read, because it must cope with any bytes. The interpreter only ever
// runs functions the verifier (verifier.h) has accepted, so every
// instruction is known to be complete, every register in range and of the
// right bank. What the interpreter needs is therefore much less: where each
// field sits. For most instructions that is a constant -- registers are two
// bytes, immediates and ordinals four or eight -- so an operand read is one
// load at a fixed offset from the opcode byte.
//
// InstructionLayout holds those offsets. It is built by expanding the opcode
// table (EMBER_VM_ALL_OPCODES) once, here, so the layouts cannot disagree
// with the decoder or the verifier. A field that follows a variable-length
// one (a register list, a remap list, a string) has no fixed offset
// (kVariable); instructions with such fields read them with a cursor that
// walks from the last fixed offset, as the encoding requires.
//
// Offsets count from the instruction's first byte: 1 for core instructions,
// 2 for extension instructions (prefix byte, then opcode byte).
#pragma once

#include <cstdint>
#include <initializer_list>

#include "runtime/vm/bytecode/opcode_table.h"

namespace ember::vm::bytecode {

struct InstructionLayout {
  static constexpr int16_t kVariable = -1;

  const char* mnemonic = nullptr;
  uint8_t field_count = 0;
  FieldKind kinds[kMaxInstructionFields] = {};
  // Offset of each field's first byte (before any list padding), or
  // kVariable.
  int16_t offsets[kMaxInstructionFields] = {};
  // The whole instruction's length in bytes, or kVariable.
  int16_t size = kVariable;
};

// Bytes a field takes when its length does not depend on its contents;
// kVariable otherwise.
constexpr int FixedFieldSize(FieldKind kind) {
  switch (GetFieldTraits(kind).encoding) {
    case FieldEncoding::kRegister: return 2;
    case FieldEncoding::kU32: return 4;
    case FieldEncoding::kU64: return 8;
    default: return InstructionLayout::kVariable;
  }
}

constexpr InstructionLayout MakeInstructionLayout(
    OpcodeSet set, const char* mnemonic,
    std::initializer_list<FieldInfo> fields) {
  InstructionLayout layout;
  layout.mnemonic = mnemonic;
  int at = set == OpcodeSet::kCore ? 1 : 2;
  int i = 0;
  for (const FieldInfo& field : fields) {
    layout.kinds[i] = field.kind;
    layout.offsets[i] = static_cast<int16_t>(at);
    if (at != InstructionLayout::kVariable) {
      int size = FixedFieldSize(field.kind);
      at = size == InstructionLayout::kVariable ? size : at + size;
    }
    ++i;
  }
  for (int rest = i; rest < kMaxInstructionFields; ++rest) {
    layout.offsets[rest] = InstructionLayout::kVariable;
  }
  layout.field_count = static_cast<uint8_t>(i);
  layout.size = static_cast<int16_t>(at);
  return layout;
}

// One constant per instruction: kLayoutCoreAddI32, kLayoutExtF32AddF32, ...
namespace layouts {
using enum FieldKind;
#define EMBER_VM_DEFINE_LAYOUT(set, byte, id, mnemonic, flags, ...) \
  inline constexpr InstructionLayout k##set##id =                   \
      MakeInstructionLayout(OpcodeSet::k##set, mnemonic, {__VA_ARGS__});
EMBER_VM_ALL_OPCODES(EMBER_VM_DEFINE_LAYOUT)
#undef EMBER_VM_DEFINE_LAYOUT
}  // namespace layouts

// The opcode bytes of each set, in table order; they index the dispatch
// tables the interpreter builds.
#define EMBER_VM_OPCODE_BYTE(set, byte, ...) byte,
inline constexpr uint8_t kCoreOpcodeBytes[] = {
    EMBER_VM_CORE_OPCODES(EMBER_VM_OPCODE_BYTE)};
inline constexpr uint8_t kExtF32OpcodeBytes[] = {
    EMBER_VM_EXT_F32_OPCODES(EMBER_VM_OPCODE_BYTE)};
inline constexpr uint8_t kExtF64OpcodeBytes[] = {
    EMBER_VM_EXT_F64_OPCODES(EMBER_VM_OPCODE_BYTE)};
#undef EMBER_VM_OPCODE_BYTE

}  // namespace ember::vm::bytecode
