// The instruction set of IREE VM bytecode version 17, as one table.
//
// Every consumer of bytecode -- the decoder, the verifier, the interpreter
// and the disassembler -- needs the same three facts about each instruction:
// its number, its name, and the exact sequence of fields that follow the
// opcode byte. Writing those facts down once, in a single X-macro, means the
// four consumers cannot drift apart: a wrong field order shows up everywhere
// at once (and in the decoder tests against real compiler output) instead of
// hiding in one hand-written switch.
//
// Shape of an entry:
//
//   X(Set, 0x22, AddI32, "vm.add.i32", kNoFlags,
//     {kRegI32, "lhs"}, {kRegI32, "rhs"}, {kResI32, "result"})
//
//   * Set is Core, ExtF32 or ExtF64 (OpcodeSet::k##Set). Extension
//     instructions are encoded as the prefix byte (0xE0 / 0xE1, themselves
//     core entries flagged kPrefix) followed by their own opcode byte.
//   * The byte is the opcode within its set.
//   * The identifier names the instruction in C++ (enums, labels).
//   * The mnemonic is the MLIR op name, used by the disassembler and in
//     error messages. A few instructions have no MLIR op in 3.11 (the block
//     marker, the prefixes, four f64<->i32 casts); their names are Ember's.
//   * The flags say what a verifier needs beyond the fields: terminators,
//     the block marker, prefixes, calls.
//   * The rest are the fields in encoding order, each a FieldKind and a
//     name. They are brace-initialisers of FieldInfo, so expanding the table
//     with `{__VA_ARGS__}` yields a FieldInfo array directly; a consumer that
//     only wants numbers and names ignores them with `...`. Expanding the
//     fields needs `using enum FieldKind;` in scope.
//
// Why the field kinds are so fine-grained: a FieldKind fixes, in one word,
// both how many bytes the field takes and what a verifier must check about
// it -- register bank, 32- or 64-bit (an even register pair), read or write,
// whether the ref MOVE bit is allowed, which table an ordinal indexes. The
// helpers below (GetFieldTraits) split a kind back into those properties.
//
// Facts about the encoding that the kinds encode (from IREE 3.11's
// verifier.c / dispatch.c, which agree with the compiler's VMOps.td except
// where noted in opcode_table.cc):
//   * All multi-byte values are little-endian and unaligned, except that
//     every register list, remap list and segment-size list is first padded
//     to an even offset *relative to the function's first byte*.
//   * A register operand is a u16. Int-bank registers use bits 0-14 and must
//     not have bit 15 set; i64/f64 values live in an even/odd register pair
//     named by the even ordinal. Ref registers have bit 15 (0x8000) set, bit
//     14 (0x4000) is MOVE, bits 0-13 are the ordinal.
//   * Lists whose element type is not fixed ("any") carry the ref bit per
//     element, which is how calls and returns mix banks. An i64/f64 value in
//     such a list is ONE entry (its even ordinal); the callee's cconv says it
//     is wide. Branch remap lists differ: there a 64-bit value is two pairs.
//   * A branch target is a u32 offset from the function start of a block
//     marker (0x79); execution resumes one byte after it.
//
// The table lists core instructions in opcode order, then ExtF32, then
// ExtF64. Counts: 139 core entries (0x00-0x88, including the 0x79 block
// marker, plus the two prefixes), 63 ExtF32 and 65 ExtF64: the VM_OPC
// definitions of IREE 3.11's VMOpcodes{Core,F32,F64}.td plus the one op per
// float set that 3.12 added, vm.fpowi.f32 / vm.fpowi.f64 (ExtF32 0x3E, ExtF64
// 0x40; docs/module-format.md, "Opcode table"). 3.13 added none.
#pragma once

#include <cstdint>
#include <span>

namespace ember::vm::bytecode {

enum class OpcodeSet : uint8_t {
  kCore = 0,
  kExtF32 = 1,
  kExtF64 = 2,
};

inline constexpr uint8_t kBlockMarkerOpcode = 0x79;
inline constexpr uint8_t kPrefixExtF32Opcode = 0xE0;
inline constexpr uint8_t kPrefixExtF64Opcode = 0xE1;

inline constexpr uint16_t kRefRegisterBit = 0x8000;
inline constexpr uint16_t kRefMoveBit = 0x4000;
inline constexpr uint16_t kRefOrdinalMask = 0x3FFF;
inline constexpr uint16_t kIntOrdinalMask = 0x7FFF;
// Function ordinals with this bit set index the import table.
inline constexpr uint32_t kImportOrdinalBit = 0x80000000u;

// What one field of an instruction is. See GetFieldTraits for the
// encoding-level properties of each.
enum class FieldKind : uint8_t {
  kEnd = 0,  // terminates a field array; never in an encoding

  // Single registers (u16). Reg* are read, Res* are written.
  kRegI32,
  kRegI64,
  kRegF32,
  kRegF64,
  kResI32,
  kResI64,
  kResF32,
  kResF64,
  kRegRef,      // ref read; MOVE bit forbidden
  kRegRefMove,  // ref read; MOVE bit allowed (ownership may transfer)
  kResRefMove,  // ref written; MOVE bit allowed

  // Immediates, stored inline.
  kImmI32,  // u32
  kImmI64,  // u64
  kImmF32,  // IEEE binary32 bits
  kImmF64,  // IEEE binary64 bits

  // u32 ordinals and offsets.
  kFuncOrdinal,       // internal function, or import when bit 31 is set
  kGlobalByteOffset,  // byte offset into the rwdata (primitive globals)
  kGlobalRefOrdinal,  // index into the ref-global table
  kRodataOrdinal,     // index into the rodata segments
  kTypeOrdinal,       // index into the module type table

  kString,  // u16 length + that many bytes, no terminator

  kBranchTarget,  // u32 pc of a block marker
  // pad to 2, u16 n, then n (src u16, dst u16) pairs. Registers may be of
  // either bank; a 64-bit value contributes two pairs (low, then high).
  kBranchRemap,
  // u16 n (not padded), then n cases of (kBranchTarget, kBranchRemap).
  kBranchTableCases,

  // Register lists: pad to 2, u16 n, then n u16 registers.
  kListI32,      // read, all i32
  kListI64,      // read, all i64 (even ordinals)
  kListF32,      // read, all f32
  kListF64,      // read, all f64 (even ordinals)
  kListRefMove,  // read, all refs; MOVE bit allowed per element
  kListAny,      // read, mixed banks (ref bit per element)
  kListResults,  // written, mixed banks (call results)
  // pad to 2, u16 n, then n i16 values: -1 for a plain argument, otherwise
  // the number of tuples in that variadic span (CallVariadic*).
  kSegmentSizes,
};

// How a field is laid out in bytes.
enum class FieldEncoding : uint8_t {
  kNone,
  kRegister,      // u16
  kU32,           // u32 (immediates, ordinals, branch targets)
  kU64,           // u64
  kString,        // u16 length + bytes
  kRegisterList,  // pad to 2, u16 count, count x u16 (also segment sizes)
  kRemapList,     // pad to 2, u16 count, count x (u16, u16)
  kBranchTable,   // u16 count, count x (u32 target, remap list)
};

// The value type a register field holds.
enum class OperandType : uint8_t {
  kNone,
  kI32,
  kI64,
  kF32,
  kF64,
  kRef,
  kAny,  // either bank, as told by the ref bit
};

struct FieldTraits {
  FieldEncoding encoding;
  OperandType type;
  bool is_write;     // the field names registers the instruction writes
  bool allows_move;  // ref registers in it may carry the MOVE bit
};

constexpr FieldTraits GetFieldTraits(FieldKind kind) {
  using E = FieldEncoding;
  using T = OperandType;
  switch (kind) {
    case FieldKind::kEnd: return {E::kNone, T::kNone, false, false};
    case FieldKind::kRegI32: return {E::kRegister, T::kI32, false, false};
    case FieldKind::kRegI64: return {E::kRegister, T::kI64, false, false};
    case FieldKind::kRegF32: return {E::kRegister, T::kF32, false, false};
    case FieldKind::kRegF64: return {E::kRegister, T::kF64, false, false};
    case FieldKind::kResI32: return {E::kRegister, T::kI32, true, false};
    case FieldKind::kResI64: return {E::kRegister, T::kI64, true, false};
    case FieldKind::kResF32: return {E::kRegister, T::kF32, true, false};
    case FieldKind::kResF64: return {E::kRegister, T::kF64, true, false};
    case FieldKind::kRegRef: return {E::kRegister, T::kRef, false, false};
    case FieldKind::kRegRefMove: return {E::kRegister, T::kRef, false, true};
    case FieldKind::kResRefMove: return {E::kRegister, T::kRef, true, true};
    case FieldKind::kImmI32: return {E::kU32, T::kI32, false, false};
    case FieldKind::kImmI64: return {E::kU64, T::kI64, false, false};
    case FieldKind::kImmF32: return {E::kU32, T::kF32, false, false};
    case FieldKind::kImmF64: return {E::kU64, T::kF64, false, false};
    case FieldKind::kFuncOrdinal:
    case FieldKind::kGlobalByteOffset:
    case FieldKind::kGlobalRefOrdinal:
    case FieldKind::kRodataOrdinal:
    case FieldKind::kTypeOrdinal:
    case FieldKind::kBranchTarget: return {E::kU32, T::kNone, false, false};
    case FieldKind::kString: return {E::kString, T::kNone, false, false};
    case FieldKind::kBranchRemap: return {E::kRemapList, T::kAny, true, true};
    case FieldKind::kBranchTableCases:
      return {E::kBranchTable, T::kAny, true, true};
    case FieldKind::kListI32: return {E::kRegisterList, T::kI32, false, false};
    case FieldKind::kListI64: return {E::kRegisterList, T::kI64, false, false};
    case FieldKind::kListF32: return {E::kRegisterList, T::kF32, false, false};
    case FieldKind::kListF64: return {E::kRegisterList, T::kF64, false, false};
    case FieldKind::kListRefMove:
      return {E::kRegisterList, T::kRef, false, true};
    case FieldKind::kListAny: return {E::kRegisterList, T::kAny, false, true};
    case FieldKind::kListResults:
      return {E::kRegisterList, T::kAny, true, true};
    case FieldKind::kSegmentSizes:
      return {E::kRegisterList, T::kNone, false, false};
  }
  return {E::kNone, T::kNone, false, false};
}

// True for the 64-bit value types, which occupy an even register pair.
constexpr bool IsWideOperandType(OperandType type) {
  return type == OperandType::kI64 || type == OperandType::kF64;
}

// A field's printable name for FieldKind (e.g. "RegI32").
const char* FieldKindName(FieldKind kind);

struct FieldInfo {
  FieldKind kind;
  const char* name;  // the operand name in VMOps.td, e.g. "lhs"
};

enum OpcodeFlags : uint8_t {
  kNoFlags = 0,
  // Ends a block: the next byte, if any, must be a block marker.
  kTerminator = 1 << 0,
  // The block marker (0x79).
  kBlockMarker = 1 << 1,
  // An extension prefix (0xE0, 0xE1); the next byte is an opcode of the set
  // PrefixTarget(opcode) names.
  kPrefix = 1 << 2,
  // Calls a function (internal or import) named by a kFuncOrdinal field.
  kCall = 1 << 3,
  // The callee must be an import (variadic calls).
  kImportCalleeOnly = 1 << 4,
};

struct OpcodeInfo {
  OpcodeSet set;
  uint8_t opcode;
  uint8_t flags;         // OpcodeFlags
  uint8_t field_count;   // number of entries in fields (without the kEnd)
  const char* name;      // C++ identifier, e.g. "AddI32"
  const char* mnemonic;  // e.g. "vm.add.i32"
  const FieldInfo* fields;

  bool has_flag(OpcodeFlags flag) const { return (flags & flag) != 0; }
  std::span<const FieldInfo> field_span() const {
    return {fields, field_count};
  }
};

// The most fields any instruction has (checked when the table is built).
inline constexpr int kMaxInstructionFields = 8;

// The instruction with `opcode` in `set`, or nullptr if there is none.
const OpcodeInfo* LookupOpcode(OpcodeSet set, uint8_t opcode);

// Every instruction of one set, in table order (ascending opcode).
std::span<const OpcodeInfo> OpcodesInSet(OpcodeSet set);

// "core", "ext_f32" or "ext_f64".
const char* OpcodeSetName(OpcodeSet set);

// For a prefix entry, the set its next byte selects.
constexpr OpcodeSet PrefixTarget(uint8_t prefix_opcode) {
  return prefix_opcode == kPrefixExtF64Opcode ? OpcodeSet::kExtF64
                                              : OpcodeSet::kExtF32;
}

// Short names for the field-list macros below.
#define EMBER_VM_UNARY(T) \
  {kReg##T, "operand"}, { kRes##T, "result" }
#define EMBER_VM_BINARY(T) \
  {kReg##T, "lhs"}, {kReg##T, "rhs"}, { kRes##T, "result" }
#define EMBER_VM_TERNARY(T) \
  {kReg##T, "a"}, {kReg##T, "b"}, {kReg##T, "c"}, { kRes##T, "result" }
#define EMBER_VM_CONVERT(FROM, TO) \
  {kReg##FROM, "operand"}, { kRes##TO, "result" }
#define EMBER_VM_COMPARE(T) \
  {kReg##T, "lhs"}, {kReg##T, "rhs"}, { kResI32, "result" }
#define EMBER_VM_BUFFER_LOAD(T) \
  {kRegRef, "source_buffer"}, {kRegI64, "source_offset"}, { kRes##T, "result" }
#define EMBER_VM_BUFFER_STORE(T) \
  {kRegRef, "target_buffer"}, {kRegI64, "target_offset"}, { kReg##T, "value" }
#define EMBER_VM_BUFFER_FILL(T)                                                \
  {kRegRef, "target_buffer"}, {kRegI64, "target_offset"}, {kRegI64, "length"}, \
  {                                                                            \
    kReg##T, "value"                                                           \
  }

// clang-format off
#define EMBER_VM_CORE_OPCODES(X)                                               \
  /* Globals. Direct forms name a byte offset (primitives) or a ref-global  */ \
  /* ordinal; indirect forms take it from an i32 register.                  */ \
  X(Core, 0x00, GlobalLoadI32, "vm.global.load.i32", kNoFlags,                 \
    {kGlobalByteOffset, "global"}, {kResI32, "value"})                         \
  X(Core, 0x01, GlobalStoreI32, "vm.global.store.i32", kNoFlags,               \
    {kGlobalByteOffset, "global"}, {kRegI32, "value"})                         \
  X(Core, 0x02, GlobalLoadIndirectI32, "vm.global.load.indirect.i32",          \
    kNoFlags, {kRegI32, "global"}, {kResI32, "value"})                         \
  X(Core, 0x03, GlobalStoreIndirectI32, "vm.global.store.indirect.i32",        \
    kNoFlags, {kRegI32, "global"}, {kRegI32, "value"})                         \
  X(Core, 0x04, GlobalLoadI64, "vm.global.load.i64", kNoFlags,                 \
    {kGlobalByteOffset, "global"}, {kResI64, "value"})                         \
  X(Core, 0x05, GlobalStoreI64, "vm.global.store.i64", kNoFlags,               \
    {kGlobalByteOffset, "global"}, {kRegI64, "value"})                         \
  X(Core, 0x06, GlobalLoadIndirectI64, "vm.global.load.indirect.i64",          \
    kNoFlags, {kRegI32, "global"}, {kResI64, "value"})                         \
  X(Core, 0x07, GlobalStoreIndirectI64, "vm.global.store.indirect.i64",        \
    kNoFlags, {kRegI32, "global"}, {kRegI64, "value"})                         \
  X(Core, 0x08, GlobalLoadRef, "vm.global.load.ref", kNoFlags,                 \
    {kGlobalRefOrdinal, "global"}, {kTypeOrdinal, "type"},                     \
    {kResRefMove, "value"})                                                    \
  X(Core, 0x09, GlobalStoreRef, "vm.global.store.ref", kNoFlags,               \
    {kGlobalRefOrdinal, "global"}, {kTypeOrdinal, "type"},                     \
    {kRegRefMove, "value"})                                                    \
  X(Core, 0x0A, GlobalLoadIndirectRef, "vm.global.load.indirect.ref",          \
    kNoFlags, {kRegI32, "global"}, {kTypeOrdinal, "type"},                     \
    {kResRefMove, "value"})                                                    \
  X(Core, 0x0B, GlobalStoreIndirectRef, "vm.global.store.indirect.ref",        \
    kNoFlags, {kRegI32, "global"}, {kTypeOrdinal, "type"},                     \
    {kRegRefMove, "value"})                                                    \
  /* Constants. */                                                             \
  X(Core, 0x0C, ConstI32Zero, "vm.const.i32.zero", kNoFlags,                   \
    {kResI32, "result"})                                                       \
  X(Core, 0x0D, ConstI32, "vm.const.i32", kNoFlags,                            \
    {kImmI32, "value"}, {kResI32, "result"})                                   \
  X(Core, 0x0E, ConstI64Zero, "vm.const.i64.zero", kNoFlags,                   \
    {kResI64, "result"})                                                       \
  X(Core, 0x0F, ConstI64, "vm.const.i64", kNoFlags,                            \
    {kImmI64, "value"}, {kResI64, "result"})                                   \
  X(Core, 0x10, ConstRefZero, "vm.const.ref.zero", kNoFlags,                   \
    {kResRefMove, "result"})                                                   \
  X(Core, 0x11, ConstRefRodata, "vm.const.ref.rodata", kNoFlags,               \
    {kRodataOrdinal, "rodata"}, {kResRefMove, "value"})                        \
  /* Lists. The element type of list.alloc is a type-table ordinal.         */ \
  X(Core, 0x12, ListAlloc, "vm.list.alloc", kNoFlags,                          \
    {kTypeOrdinal, "element_type"}, {kRegI32, "initial_capacity"},             \
    {kResRefMove, "result"})                                                   \
  X(Core, 0x13, ListReserve, "vm.list.reserve", kNoFlags,                      \
    {kRegRef, "list"}, {kRegI32, "minimum_capacity"})                          \
  X(Core, 0x14, ListSize, "vm.list.size", kNoFlags,                            \
    {kRegRef, "list"}, {kResI32, "result"})                                    \
  X(Core, 0x15, ListResize, "vm.list.resize", kNoFlags,                        \
    {kRegRef, "list"}, {kRegI32, "new_size"})                                  \
  X(Core, 0x16, ListGetI32, "vm.list.get.i32", kNoFlags,                       \
    {kRegRef, "list"}, {kRegI32, "index"}, {kResI32, "result"})                \
  X(Core, 0x17, ListSetI32, "vm.list.set.i32", kNoFlags,                       \
    {kRegRef, "list"}, {kRegI32, "index"}, {kRegI32, "value"})                 \
  X(Core, 0x18, ListGetI64, "vm.list.get.i64", kNoFlags,                       \
    {kRegRef, "list"}, {kRegI32, "index"}, {kResI64, "result"})                \
  X(Core, 0x19, ListSetI64, "vm.list.set.i64", kNoFlags,                       \
    {kRegRef, "list"}, {kRegI32, "index"}, {kRegI64, "value"})                 \
  X(Core, 0x1A, ListGetRef, "vm.list.get.ref", kNoFlags,                       \
    {kRegRef, "list"}, {kRegI32, "index"}, {kTypeOrdinal, "type"},             \
    {kResRefMove, "result"})                                                   \
  X(Core, 0x1B, ListSetRef, "vm.list.set.ref", kNoFlags,                       \
    {kRegRef, "list"}, {kRegI32, "index"}, {kRegRefMove, "value"})             \
  /* Conditional assignment. */                                                \
  X(Core, 0x1C, SelectI32, "vm.select.i32", kNoFlags,                          \
    {kRegI32, "condition"}, {kRegI32, "true_value"},                           \
    {kRegI32, "false_value"}, {kResI32, "result"})                             \
  X(Core, 0x1D, SelectI64, "vm.select.i64", kNoFlags,                          \
    {kRegI32, "condition"}, {kRegI64, "true_value"},                           \
    {kRegI64, "false_value"}, {kResI64, "result"})                             \
  X(Core, 0x1E, SelectRef, "vm.select.ref", kNoFlags,                          \
    {kRegI32, "condition"}, {kTypeOrdinal, "type"},                            \
    {kRegRefMove, "true_value"}, {kRegRefMove, "false_value"},                 \
    {kResRefMove, "result"})                                                   \
  X(Core, 0x1F, SwitchI32, "vm.switch.i32", kNoFlags,                          \
    {kRegI32, "index"}, {kRegI32, "default_value"}, {kListI32, "values"},      \
    {kResI32, "result"})                                                       \
  X(Core, 0x20, SwitchI64, "vm.switch.i64", kNoFlags,                          \
    {kRegI32, "index"}, {kRegI64, "default_value"}, {kListI64, "values"},      \
    {kResI64, "result"})                                                       \
  X(Core, 0x21, SwitchRef, "vm.switch.ref", kNoFlags,                          \
    {kRegI32, "index"}, {kTypeOrdinal, "type"},                                \
    {kRegRefMove, "default_value"}, {kListRefMove, "values"},                  \
    {kResRefMove, "result"})                                                   \
  /* i32 arithmetic. */                                                        \
  X(Core, 0x22, AddI32, "vm.add.i32", kNoFlags, EMBER_VM_BINARY(I32))          \
  X(Core, 0x23, SubI32, "vm.sub.i32", kNoFlags, EMBER_VM_BINARY(I32))          \
  X(Core, 0x24, MulI32, "vm.mul.i32", kNoFlags, EMBER_VM_BINARY(I32))          \
  X(Core, 0x25, DivI32S, "vm.div.i32.s", kNoFlags, EMBER_VM_BINARY(I32))       \
  X(Core, 0x26, DivI32U, "vm.div.i32.u", kNoFlags, EMBER_VM_BINARY(I32))       \
  X(Core, 0x27, RemI32S, "vm.rem.i32.s", kNoFlags, EMBER_VM_BINARY(I32))       \
  X(Core, 0x28, RemI32U, "vm.rem.i32.u", kNoFlags, EMBER_VM_BINARY(I32))       \
  X(Core, 0x29, FMAI32, "vm.fma.i32", kNoFlags, EMBER_VM_TERNARY(I32))         \
  /* i64 arithmetic. */                                                        \
  X(Core, 0x2A, AddI64, "vm.add.i64", kNoFlags, EMBER_VM_BINARY(I64))          \
  X(Core, 0x2B, SubI64, "vm.sub.i64", kNoFlags, EMBER_VM_BINARY(I64))          \
  X(Core, 0x2C, MulI64, "vm.mul.i64", kNoFlags, EMBER_VM_BINARY(I64))          \
  X(Core, 0x2D, DivI64S, "vm.div.i64.s", kNoFlags, EMBER_VM_BINARY(I64))       \
  X(Core, 0x2E, DivI64U, "vm.div.i64.u", kNoFlags, EMBER_VM_BINARY(I64))       \
  X(Core, 0x2F, RemI64S, "vm.rem.i64.s", kNoFlags, EMBER_VM_BINARY(I64))       \
  X(Core, 0x30, RemI64U, "vm.rem.i64.u", kNoFlags, EMBER_VM_BINARY(I64))       \
  X(Core, 0x31, FMAI64, "vm.fma.i64", kNoFlags, EMBER_VM_TERNARY(I64))         \
  /* Bitwise. */                                                               \
  X(Core, 0x32, NotI32, "vm.not.i32", kNoFlags, EMBER_VM_UNARY(I32))           \
  X(Core, 0x33, AndI32, "vm.and.i32", kNoFlags, EMBER_VM_BINARY(I32))          \
  X(Core, 0x34, OrI32, "vm.or.i32", kNoFlags, EMBER_VM_BINARY(I32))            \
  X(Core, 0x35, XorI32, "vm.xor.i32", kNoFlags, EMBER_VM_BINARY(I32))          \
  X(Core, 0x36, NotI64, "vm.not.i64", kNoFlags, EMBER_VM_UNARY(I64))           \
  X(Core, 0x37, AndI64, "vm.and.i64", kNoFlags, EMBER_VM_BINARY(I64))          \
  X(Core, 0x38, OrI64, "vm.or.i64", kNoFlags, EMBER_VM_BINARY(I64))            \
  X(Core, 0x39, XorI64, "vm.xor.i64", kNoFlags, EMBER_VM_BINARY(I64))          \
  /* Shifts. The amount is always an i32 register.                          */ \
  X(Core, 0x3A, ShlI32, "vm.shl.i32", kNoFlags,                                \
    {kRegI32, "operand"}, {kRegI32, "amount"}, {kResI32, "result"})            \
  X(Core, 0x3B, ShrI32S, "vm.shr.i32.s", kNoFlags,                             \
    {kRegI32, "operand"}, {kRegI32, "amount"}, {kResI32, "result"})            \
  X(Core, 0x3C, ShrI32U, "vm.shr.i32.u", kNoFlags,                             \
    {kRegI32, "operand"}, {kRegI32, "amount"}, {kResI32, "result"})            \
  X(Core, 0x3D, ShlI64, "vm.shl.i64", kNoFlags,                                \
    {kRegI64, "operand"}, {kRegI32, "amount"}, {kResI64, "result"})            \
  X(Core, 0x3E, ShrI64S, "vm.shr.i64.s", kNoFlags,                             \
    {kRegI64, "operand"}, {kRegI32, "amount"}, {kResI64, "result"})            \
  X(Core, 0x3F, ShrI64U, "vm.shr.i64.u", kNoFlags,                             \
    {kRegI64, "operand"}, {kRegI32, "amount"}, {kResI64, "result"})            \
  /* Truncation and extension. Narrow ints live in i32 registers.           */ \
  X(Core, 0x40, TruncI32I8, "vm.trunc.i32.i8", kNoFlags,                       \
    EMBER_VM_CONVERT(I32, I32))                                                \
  X(Core, 0x41, TruncI32I16, "vm.trunc.i32.i16", kNoFlags,                     \
    EMBER_VM_CONVERT(I32, I32))                                                \
  X(Core, 0x42, TruncI64I32, "vm.trunc.i64.i32", kNoFlags,                     \
    EMBER_VM_CONVERT(I64, I32))                                                \
  X(Core, 0x43, ExtI8I32S, "vm.ext.i8.i32.s", kNoFlags,                        \
    EMBER_VM_CONVERT(I32, I32))                                                \
  X(Core, 0x44, ExtI8I32U, "vm.ext.i8.i32.u", kNoFlags,                        \
    EMBER_VM_CONVERT(I32, I32))                                                \
  X(Core, 0x45, ExtI16I32S, "vm.ext.i16.i32.s", kNoFlags,                      \
    EMBER_VM_CONVERT(I32, I32))                                                \
  X(Core, 0x46, ExtI16I32U, "vm.ext.i16.i32.u", kNoFlags,                      \
    EMBER_VM_CONVERT(I32, I32))                                                \
  X(Core, 0x47, ExtI32I64S, "vm.ext.i32.i64.s", kNoFlags,                      \
    EMBER_VM_CONVERT(I32, I64))                                                \
  X(Core, 0x48, ExtI32I64U, "vm.ext.i32.i64.u", kNoFlags,                      \
    EMBER_VM_CONVERT(I32, I64))                                                \
  /* Comparisons; results are i32 0 or 1.                                   */ \
  X(Core, 0x49, CmpEQI32, "vm.cmp.eq.i32", kNoFlags, EMBER_VM_COMPARE(I32))    \
  X(Core, 0x4A, CmpNEI32, "vm.cmp.ne.i32", kNoFlags, EMBER_VM_COMPARE(I32))    \
  X(Core, 0x4B, CmpLTI32S, "vm.cmp.lt.i32.s", kNoFlags, EMBER_VM_COMPARE(I32)) \
  X(Core, 0x4C, CmpLTI32U, "vm.cmp.lt.i32.u", kNoFlags, EMBER_VM_COMPARE(I32)) \
  X(Core, 0x4D, CmpNZI32, "vm.cmp.nz.i32", kNoFlags,                           \
    EMBER_VM_CONVERT(I32, I32))                                                \
  X(Core, 0x4E, CmpEQI64, "vm.cmp.eq.i64", kNoFlags, EMBER_VM_COMPARE(I64))    \
  X(Core, 0x4F, CmpNEI64, "vm.cmp.ne.i64", kNoFlags, EMBER_VM_COMPARE(I64))    \
  X(Core, 0x50, CmpLTI64S, "vm.cmp.lt.i64.s", kNoFlags, EMBER_VM_COMPARE(I64)) \
  X(Core, 0x51, CmpLTI64U, "vm.cmp.lt.i64.u", kNoFlags, EMBER_VM_COMPARE(I64)) \
  X(Core, 0x52, CmpNZI64, "vm.cmp.nz.i64", kNoFlags,                           \
    EMBER_VM_CONVERT(I64, I32))                                                \
  X(Core, 0x53, CmpEQRef, "vm.cmp.eq.ref", kNoFlags,                           \
    {kRegRef, "lhs"}, {kRegRef, "rhs"}, {kResI32, "result"})                   \
  X(Core, 0x54, CmpNERef, "vm.cmp.ne.ref", kNoFlags,                           \
    {kRegRef, "lhs"}, {kRegRef, "rhs"}, {kResI32, "result"})                   \
  X(Core, 0x55, CmpNZRef, "vm.cmp.nz.ref", kNoFlags,                           \
    {kRegRef, "operand"}, {kResI32, "result"})                                 \
  /* Control flow. */                                                          \
  X(Core, 0x56, Branch, "vm.br", kTerminator,                                  \
    {kBranchTarget, "dest"}, {kBranchRemap, "dest_operands"})                  \
  X(Core, 0x57, CondBranch, "vm.cond_br", kTerminator,                         \
    {kRegI32, "condition"}, {kBranchTarget, "true_dest"},                      \
    {kBranchRemap, "true_operands"}, {kBranchTarget, "false_dest"},            \
    {kBranchRemap, "false_operands"})                                          \
  X(Core, 0x58, Call, "vm.call", kCall,                                        \
    {kFuncOrdinal, "callee"}, {kListAny, "operands"},                          \
    {kListResults, "results"})                                                 \
  X(Core, 0x59, CallVariadic, "vm.call.variadic", kCall | kImportCalleeOnly,   \
    {kFuncOrdinal, "callee"}, {kSegmentSizes, "segment_sizes"},                \
    {kListAny, "operands"}, {kListResults, "results"})                         \
  X(Core, 0x5A, Return, "vm.return", kTerminator,                              \
    {kListAny, "operands"})                                                    \
  X(Core, 0x5B, Fail, "vm.fail", kTerminator,                                  \
    {kRegI32, "status"}, {kString, "message"})                                 \
  X(Core, 0x5C, ImportResolved, "vm.import.resolved", kNoFlags,                \
    {kFuncOrdinal, "import"}, {kResI32, "result"})                             \
  X(Core, 0x5D, Yield, "vm.yield", kTerminator,                                \
    {kBranchTarget, "dest"}, {kBranchRemap, "dest_operands"})                  \
  /* Debugging. CondBreak: see the note in opcode_table.cc.                 */ \
  X(Core, 0x5E, Trace, "vm.trace", kNoFlags,                                   \
    {kString, "event_name"}, {kListAny, "operands"})                           \
  X(Core, 0x5F, Print, "vm.print", kNoFlags,                                   \
    {kString, "message"}, {kListAny, "operands"})                              \
  X(Core, 0x60, CondBreak, "vm.cond_break", kTerminator,                       \
    {kRegI32, "condition"}, {kBranchTarget, "dest"},                           \
    {kBranchRemap, "dest_operands"})                                           \
  X(Core, 0x61, Break, "vm.break", kTerminator,                                \
    {kBranchTarget, "dest"}, {kBranchRemap, "dest_operands"})                  \
  /* vm.buffer. Load/store/fill offsets and fill lengths count elements;    */ \
  /* the others count bytes.                                                */ \
  X(Core, 0x62, BufferLoadI8U, "vm.buffer.load.i8.u", kNoFlags,                \
    EMBER_VM_BUFFER_LOAD(I32))                                                 \
  X(Core, 0x63, BufferLoadI8S, "vm.buffer.load.i8.s", kNoFlags,                \
    EMBER_VM_BUFFER_LOAD(I32))                                                 \
  X(Core, 0x64, BufferLoadI16U, "vm.buffer.load.i16.u", kNoFlags,              \
    EMBER_VM_BUFFER_LOAD(I32))                                                 \
  X(Core, 0x65, BufferLoadI16S, "vm.buffer.load.i16.s", kNoFlags,              \
    EMBER_VM_BUFFER_LOAD(I32))                                                 \
  X(Core, 0x66, BufferLoadI32, "vm.buffer.load.i32", kNoFlags,                 \
    EMBER_VM_BUFFER_LOAD(I32))                                                 \
  X(Core, 0x67, BufferLoadI64, "vm.buffer.load.i64", kNoFlags,                 \
    EMBER_VM_BUFFER_LOAD(I64))                                                 \
  X(Core, 0x68, BufferStoreI8, "vm.buffer.store.i8", kNoFlags,                 \
    EMBER_VM_BUFFER_STORE(I32))                                                \
  X(Core, 0x69, BufferStoreI16, "vm.buffer.store.i16", kNoFlags,               \
    EMBER_VM_BUFFER_STORE(I32))                                                \
  X(Core, 0x6A, BufferStoreI32, "vm.buffer.store.i32", kNoFlags,               \
    EMBER_VM_BUFFER_STORE(I32))                                                \
  X(Core, 0x6B, BufferStoreI64, "vm.buffer.store.i64", kNoFlags,               \
    EMBER_VM_BUFFER_STORE(I64))                                                \
  X(Core, 0x6C, BufferAlloc, "vm.buffer.alloc", kNoFlags,                      \
    {kRegI64, "length"}, {kRegI32, "alignment"}, {kResRefMove, "result"})      \
  X(Core, 0x6D, BufferClone, "vm.buffer.clone", kNoFlags,                      \
    {kRegRef, "source_buffer"}, {kRegI64, "source_offset"},                    \
    {kRegI64, "length"}, {kRegI32, "alignment"}, {kResRefMove, "result"})      \
  X(Core, 0x6E, BufferLength, "vm.buffer.length", kNoFlags,                    \
    {kRegRef, "buffer"}, {kResI64, "result"})                                  \
  X(Core, 0x6F, BufferCopy, "vm.buffer.copy", kNoFlags,                        \
    {kRegRef, "source_buffer"}, {kRegI64, "source_offset"},                    \
    {kRegRef, "target_buffer"}, {kRegI64, "target_offset"},                    \
    {kRegI64, "length"})                                                       \
  X(Core, 0x70, BufferCompare, "vm.buffer.compare", kNoFlags,                  \
    {kRegRef, "lhs_buffer"}, {kRegI64, "lhs_offset"},                          \
    {kRegRef, "rhs_buffer"}, {kRegI64, "rhs_offset"}, {kRegI64, "length"},     \
    {kResI32, "result"})                                                       \
  X(Core, 0x71, BufferFillI8, "vm.buffer.fill.i8", kNoFlags,                   \
    EMBER_VM_BUFFER_FILL(I32))                                                 \
  X(Core, 0x72, BufferFillI16, "vm.buffer.fill.i16", kNoFlags,                 \
    EMBER_VM_BUFFER_FILL(I32))                                                 \
  X(Core, 0x73, BufferFillI32, "vm.buffer.fill.i32", kNoFlags,                 \
    EMBER_VM_BUFFER_FILL(I32))                                                 \
  X(Core, 0x74, BufferFillI64, "vm.buffer.fill.i64", kNoFlags,                 \
    EMBER_VM_BUFFER_FILL(I64))                                                 \
  /* Later additions, numbered after the groups they belong to.             */ \
  X(Core, 0x75, CtlzI32, "vm.ctlz.i32", kNoFlags, EMBER_VM_UNARY(I32))         \
  X(Core, 0x76, CtlzI64, "vm.ctlz.i64", kNoFlags, EMBER_VM_UNARY(I64))         \
  X(Core, 0x77, AbsI32, "vm.abs.i32", kNoFlags, EMBER_VM_UNARY(I32))           \
  X(Core, 0x78, AbsI64, "vm.abs.i64", kNoFlags, EMBER_VM_UNARY(I64))           \
  X(Core, 0x79, Block, "vm.block", kBlockMarker)                               \
  X(Core, 0x7A, MinI32S, "vm.min.i32.s", kNoFlags, EMBER_VM_BINARY(I32))       \
  X(Core, 0x7B, MinI32U, "vm.min.i32.u", kNoFlags, EMBER_VM_BINARY(I32))       \
  X(Core, 0x7C, MaxI32S, "vm.max.i32.s", kNoFlags, EMBER_VM_BINARY(I32))       \
  X(Core, 0x7D, MaxI32U, "vm.max.i32.u", kNoFlags, EMBER_VM_BINARY(I32))       \
  X(Core, 0x7E, MinI64S, "vm.min.i64.s", kNoFlags, EMBER_VM_BINARY(I64))       \
  X(Core, 0x7F, MinI64U, "vm.min.i64.u", kNoFlags, EMBER_VM_BINARY(I64))       \
  X(Core, 0x80, MaxI64S, "vm.max.i64.s", kNoFlags, EMBER_VM_BINARY(I64))       \
  X(Core, 0x81, MaxI64U, "vm.max.i64.u", kNoFlags, EMBER_VM_BINARY(I64))       \
  X(Core, 0x82, CastAnyRef, "vm.cast.any.ref", kNoFlags,                       \
    {kRegRefMove, "operand"}, {kTypeOrdinal, "type"},                          \
    {kResRefMove, "result"})                                                   \
  X(Core, 0x83, BranchTable, "vm.br_table", kTerminator,                       \
    {kRegI32, "index"}, {kBranchTarget, "default_dest"},                       \
    {kBranchRemap, "default_operands"}, {kBranchTableCases, "cases"})          \
  X(Core, 0x84, BufferHash, "vm.buffer.hash", kNoFlags,                        \
    {kRegRef, "source_buffer"}, {kRegI64, "source_offset"},                    \
    {kRegI64, "length"}, {kResI64, "result"})                                  \
  /* Bytecode 16: explicit ref lifetime ends and ref moves.                 */ \
  X(Core, 0x85, DiscardRefs, "vm.discard.refs", kNoFlags,                      \
    {kListRefMove, "refs"})                                                    \
  X(Core, 0x86, AssignRef, "vm.assign.ref", kNoFlags,                          \
    {kRegRefMove, "source"}, {kResRefMove, "result"})                          \
  /* Bytecode 17: calls that may yield. The results are written when the    */ \
  /* callee completes, and execution continues at the resume block.         */ \
  X(Core, 0x87, CallYieldable, "vm.call.yieldable", kTerminator | kCall,       \
    {kFuncOrdinal, "callee"}, {kListAny, "operands"},                          \
    {kBranchTarget, "resume"}, {kListResults, "results"})                      \
  X(Core, 0x88, CallVariadicYieldable, "vm.call.variadic.yieldable",           \
    kTerminator | kCall | kImportCalleeOnly,                                   \
    {kFuncOrdinal, "callee"}, {kSegmentSizes, "segment_sizes"},                \
    {kListAny, "operands"}, {kBranchTarget, "resume"},                         \
    {kListResults, "results"})                                                 \
  /* Extension prefixes. */                                                    \
  X(Core, 0xE0, PrefixExtF32, "vm.prefix.ext_f32", kPrefix)                    \
  X(Core, 0xE1, PrefixExtF64, "vm.prefix.ext_f64", kPrefix)

#define EMBER_VM_EXT_F32_OPCODES(X)                                            \
  X(ExtF32, 0x00, GlobalLoadF32, "vm.global.load.f32", kNoFlags,               \
    {kGlobalByteOffset, "global"}, {kResF32, "value"})                         \
  X(ExtF32, 0x01, GlobalStoreF32, "vm.global.store.f32", kNoFlags,             \
    {kGlobalByteOffset, "global"}, {kRegF32, "value"})                         \
  X(ExtF32, 0x02, GlobalLoadIndirectF32, "vm.global.load.indirect.f32",        \
    kNoFlags, {kRegI32, "global"}, {kResF32, "value"})                         \
  X(ExtF32, 0x03, GlobalStoreIndirectF32, "vm.global.store.indirect.f32",      \
    kNoFlags, {kRegI32, "global"}, {kRegF32, "value"})                         \
  X(ExtF32, 0x04, ConstF32Zero, "vm.const.f32.zero", kNoFlags,                 \
    {kResF32, "result"})                                                       \
  X(ExtF32, 0x05, ConstF32, "vm.const.f32", kNoFlags,                          \
    {kImmF32, "value"}, {kResF32, "result"})                                   \
  X(ExtF32, 0x06, ListGetF32, "vm.list.get.f32", kNoFlags,                     \
    {kRegRef, "list"}, {kRegI32, "index"}, {kResF32, "result"})                \
  X(ExtF32, 0x07, ListSetF32, "vm.list.set.f32", kNoFlags,                     \
    {kRegRef, "list"}, {kRegI32, "index"}, {kRegF32, "value"})                 \
  X(ExtF32, 0x08, SelectF32, "vm.select.f32", kNoFlags,                        \
    {kRegI32, "condition"}, {kRegF32, "true_value"},                           \
    {kRegF32, "false_value"}, {kResF32, "result"})                             \
  X(ExtF32, 0x09, SwitchF32, "vm.switch.f32", kNoFlags,                        \
    {kRegI32, "index"}, {kRegF32, "default_value"}, {kListF32, "values"},      \
    {kResF32, "result"})                                                       \
  X(ExtF32, 0x0A, AddF32, "vm.add.f32", kNoFlags, EMBER_VM_BINARY(F32))        \
  X(ExtF32, 0x0B, SubF32, "vm.sub.f32", kNoFlags, EMBER_VM_BINARY(F32))        \
  X(ExtF32, 0x0C, MulF32, "vm.mul.f32", kNoFlags, EMBER_VM_BINARY(F32))        \
  X(ExtF32, 0x0D, DivF32, "vm.div.f32", kNoFlags, EMBER_VM_BINARY(F32))        \
  X(ExtF32, 0x0E, RemF32, "vm.rem.f32", kNoFlags, EMBER_VM_BINARY(F32))        \
  X(ExtF32, 0x0F, FMAF32, "vm.fma.f32", kNoFlags, EMBER_VM_TERNARY(F32))       \
  X(ExtF32, 0x10, AbsF32, "vm.abs.f32", kNoFlags, EMBER_VM_UNARY(F32))         \
  X(ExtF32, 0x11, NegF32, "vm.neg.f32", kNoFlags, EMBER_VM_UNARY(F32))         \
  X(ExtF32, 0x12, CeilF32, "vm.ceil.f32", kNoFlags, EMBER_VM_UNARY(F32))       \
  X(ExtF32, 0x13, FloorF32, "vm.floor.f32", kNoFlags, EMBER_VM_UNARY(F32))     \
  X(ExtF32, 0x14, CastSI32F32, "vm.cast.si32.f32", kNoFlags,                   \
    EMBER_VM_CONVERT(I32, F32))                                                \
  X(ExtF32, 0x15, CastUI32F32, "vm.cast.ui32.f32", kNoFlags,                   \
    EMBER_VM_CONVERT(I32, F32))                                                \
  X(ExtF32, 0x16, CastF32SI32, "vm.cast.f32.si32", kNoFlags,                   \
    EMBER_VM_CONVERT(F32, I32))                                                \
  X(ExtF32, 0x17, CastF32UI32, "vm.cast.f32.ui32", kNoFlags,                   \
    EMBER_VM_CONVERT(F32, I32))                                                \
  X(ExtF32, 0x18, BitcastI32F32, "vm.bitcast.i32.f32", kNoFlags,               \
    EMBER_VM_CONVERT(I32, F32))                                                \
  X(ExtF32, 0x19, BitcastF32I32, "vm.bitcast.f32.i32", kNoFlags,               \
    EMBER_VM_CONVERT(F32, I32))                                                \
  X(ExtF32, 0x1A, AtanF32, "vm.atan.f32", kNoFlags, EMBER_VM_UNARY(F32))       \
  X(ExtF32, 0x1B, Atan2F32, "vm.atan2.f32", kNoFlags, EMBER_VM_BINARY(F32))    \
  X(ExtF32, 0x1C, CosF32, "vm.cos.f32", kNoFlags, EMBER_VM_UNARY(F32))         \
  X(ExtF32, 0x1D, SinF32, "vm.sin.f32", kNoFlags, EMBER_VM_UNARY(F32))         \
  X(ExtF32, 0x1E, ExpF32, "vm.exp.f32", kNoFlags, EMBER_VM_UNARY(F32))         \
  X(ExtF32, 0x1F, Exp2F32, "vm.exp2.f32", kNoFlags, EMBER_VM_UNARY(F32))       \
  X(ExtF32, 0x20, ExpM1F32, "vm.expm1.f32", kNoFlags, EMBER_VM_UNARY(F32))     \
  X(ExtF32, 0x21, LogF32, "vm.log.f32", kNoFlags, EMBER_VM_UNARY(F32))         \
  X(ExtF32, 0x22, Log10F32, "vm.log10.f32", kNoFlags, EMBER_VM_UNARY(F32))     \
  X(ExtF32, 0x23, Log1pF32, "vm.log1p.f32", kNoFlags, EMBER_VM_UNARY(F32))     \
  X(ExtF32, 0x24, Log2F32, "vm.log2.f32", kNoFlags, EMBER_VM_UNARY(F32))       \
  X(ExtF32, 0x25, PowF32, "vm.pow.f32", kNoFlags, EMBER_VM_BINARY(F32))        \
  X(ExtF32, 0x26, RsqrtF32, "vm.rsqrt.f32", kNoFlags, EMBER_VM_UNARY(F32))     \
  X(ExtF32, 0x27, SqrtF32, "vm.sqrt.f32", kNoFlags, EMBER_VM_UNARY(F32))       \
  X(ExtF32, 0x28, TanhF32, "vm.tanh.f32", kNoFlags, EMBER_VM_UNARY(F32))       \
  X(ExtF32, 0x29, ErfF32, "vm.erf.f32", kNoFlags, EMBER_VM_UNARY(F32))         \
  X(ExtF32, 0x2A, CmpEQF32O, "vm.cmp.eq.f32.o", kNoFlags,                      \
    EMBER_VM_COMPARE(F32))                                                     \
  X(ExtF32, 0x2B, CmpEQF32U, "vm.cmp.eq.f32.u", kNoFlags,                      \
    EMBER_VM_COMPARE(F32))                                                     \
  X(ExtF32, 0x2C, CmpNEF32O, "vm.cmp.ne.f32.o", kNoFlags,                      \
    EMBER_VM_COMPARE(F32))                                                     \
  X(ExtF32, 0x2D, CmpNEF32U, "vm.cmp.ne.f32.u", kNoFlags,                      \
    EMBER_VM_COMPARE(F32))                                                     \
  X(ExtF32, 0x2E, CmpLTF32O, "vm.cmp.lt.f32.o", kNoFlags,                      \
    EMBER_VM_COMPARE(F32))                                                     \
  X(ExtF32, 0x2F, CmpLTF32U, "vm.cmp.lt.f32.u", kNoFlags,                      \
    EMBER_VM_COMPARE(F32))                                                     \
  X(ExtF32, 0x30, CmpLTEF32O, "vm.cmp.lte.f32.o", kNoFlags,                    \
    EMBER_VM_COMPARE(F32))                                                     \
  X(ExtF32, 0x31, CmpLTEF32U, "vm.cmp.lte.f32.u", kNoFlags,                    \
    EMBER_VM_COMPARE(F32))                                                     \
  X(ExtF32, 0x32, CmpNaNF32, "vm.cmp.nan.f32", kNoFlags,                       \
    EMBER_VM_CONVERT(F32, I32))                                                \
  X(ExtF32, 0x33, BufferLoadF32, "vm.buffer.load.f32", kNoFlags,               \
    EMBER_VM_BUFFER_LOAD(F32))                                                 \
  X(ExtF32, 0x34, BufferStoreF32, "vm.buffer.store.f32", kNoFlags,             \
    EMBER_VM_BUFFER_STORE(F32))                                                \
  X(ExtF32, 0x35, BufferFillF32, "vm.buffer.fill.f32", kNoFlags,               \
    EMBER_VM_BUFFER_FILL(F32))                                                 \
  X(ExtF32, 0x36, RoundF32, "vm.round.f32", kNoFlags, EMBER_VM_UNARY(F32))     \
  X(ExtF32, 0x37, MinF32, "vm.min.f32", kNoFlags, EMBER_VM_BINARY(F32))        \
  X(ExtF32, 0x38, MaxF32, "vm.max.f32", kNoFlags, EMBER_VM_BINARY(F32))        \
  X(ExtF32, 0x39, RoundF32Even, "vm.round.f32.even", kNoFlags,                 \
    EMBER_VM_UNARY(F32))                                                       \
  X(ExtF32, 0x3A, CastF32SI64, "vm.cast.f32.si64", kNoFlags,                   \
    EMBER_VM_CONVERT(F32, I64))                                                \
  X(ExtF32, 0x3B, CastF32UI64, "vm.cast.f32.ui64", kNoFlags,                   \
    EMBER_VM_CONVERT(F32, I64))                                                \
  X(ExtF32, 0x3C, CastSI64F32, "vm.cast.si64.f32", kNoFlags,                   \
    EMBER_VM_CONVERT(I64, F32))                                                \
  X(ExtF32, 0x3D, CastUI64F32, "vm.cast.ui64.f32", kNoFlags,                   \
    EMBER_VM_CONVERT(I64, F32))                                                \
  X(ExtF32, 0x3E, FPowIF32, "vm.fpowi.f32", kNoFlags,                          \
    {kRegF32, "lhs"}, {kRegI64, "rhs"}, {kResF32, "result"})

#define EMBER_VM_EXT_F64_OPCODES(X)                                            \
  X(ExtF64, 0x00, GlobalLoadF64, "vm.global.load.f64", kNoFlags,               \
    {kGlobalByteOffset, "global"}, {kResF64, "value"})                         \
  X(ExtF64, 0x01, GlobalStoreF64, "vm.global.store.f64", kNoFlags,             \
    {kGlobalByteOffset, "global"}, {kRegF64, "value"})                         \
  X(ExtF64, 0x02, GlobalLoadIndirectF64, "vm.global.load.indirect.f64",        \
    kNoFlags, {kRegI32, "global"}, {kResF64, "value"})                         \
  X(ExtF64, 0x03, GlobalStoreIndirectF64, "vm.global.store.indirect.f64",      \
    kNoFlags, {kRegI32, "global"}, {kRegF64, "value"})                         \
  X(ExtF64, 0x04, ConstF64Zero, "vm.const.f64.zero", kNoFlags,                 \
    {kResF64, "result"})                                                       \
  X(ExtF64, 0x05, ConstF64, "vm.const.f64", kNoFlags,                          \
    {kImmF64, "value"}, {kResF64, "result"})                                   \
  X(ExtF64, 0x06, ListGetF64, "vm.list.get.f64", kNoFlags,                     \
    {kRegRef, "list"}, {kRegI32, "index"}, {kResF64, "result"})                \
  X(ExtF64, 0x07, ListSetF64, "vm.list.set.f64", kNoFlags,                     \
    {kRegRef, "list"}, {kRegI32, "index"}, {kRegF64, "value"})                 \
  X(ExtF64, 0x08, SelectF64, "vm.select.f64", kNoFlags,                        \
    {kRegI32, "condition"}, {kRegF64, "true_value"},                           \
    {kRegF64, "false_value"}, {kResF64, "result"})                             \
  X(ExtF64, 0x09, SwitchF64, "vm.switch.f64", kNoFlags,                        \
    {kRegI32, "index"}, {kRegF64, "default_value"}, {kListF64, "values"},      \
    {kResF64, "result"})                                                       \
  X(ExtF64, 0x0A, AddF64, "vm.add.f64", kNoFlags, EMBER_VM_BINARY(F64))        \
  X(ExtF64, 0x0B, SubF64, "vm.sub.f64", kNoFlags, EMBER_VM_BINARY(F64))        \
  X(ExtF64, 0x0C, MulF64, "vm.mul.f64", kNoFlags, EMBER_VM_BINARY(F64))        \
  X(ExtF64, 0x0D, DivF64, "vm.div.f64", kNoFlags, EMBER_VM_BINARY(F64))        \
  X(ExtF64, 0x0E, RemF64, "vm.rem.f64", kNoFlags, EMBER_VM_BINARY(F64))        \
  X(ExtF64, 0x0F, FMAF64, "vm.fma.f64", kNoFlags, EMBER_VM_TERNARY(F64))       \
  X(ExtF64, 0x10, AbsF64, "vm.abs.f64", kNoFlags, EMBER_VM_UNARY(F64))         \
  X(ExtF64, 0x11, NegF64, "vm.neg.f64", kNoFlags, EMBER_VM_UNARY(F64))         \
  X(ExtF64, 0x12, CeilF64, "vm.ceil.f64", kNoFlags, EMBER_VM_UNARY(F64))       \
  X(ExtF64, 0x13, FloorF64, "vm.floor.f64", kNoFlags, EMBER_VM_UNARY(F64))     \
  X(ExtF64, 0x14, TruncF64F32, "vm.trunc.f64.f32", kNoFlags,                   \
    EMBER_VM_CONVERT(F64, F32))                                                \
  X(ExtF64, 0x15, ExtF32F64, "vm.ext.f32.f64", kNoFlags,                       \
    EMBER_VM_CONVERT(F32, F64))                                                \
  X(ExtF64, 0x16, CastSI32F64, "vm.cast.si32.f64", kNoFlags,                   \
    EMBER_VM_CONVERT(I32, F64))                                                \
  X(ExtF64, 0x17, CastUI32F64, "vm.cast.ui32.f64", kNoFlags,                   \
    EMBER_VM_CONVERT(I32, F64))                                                \
  X(ExtF64, 0x18, CastF64SI32, "vm.cast.f64.si32", kNoFlags,                   \
    EMBER_VM_CONVERT(F64, I32))                                                \
  X(ExtF64, 0x19, CastF64UI32, "vm.cast.f64.ui32", kNoFlags,                   \
    EMBER_VM_CONVERT(F64, I32))                                                \
  X(ExtF64, 0x1A, CastSI64F64, "vm.cast.si64.f64", kNoFlags,                   \
    EMBER_VM_CONVERT(I64, F64))                                                \
  X(ExtF64, 0x1B, CastUI64F64, "vm.cast.ui64.f64", kNoFlags,                   \
    EMBER_VM_CONVERT(I64, F64))                                                \
  X(ExtF64, 0x1C, CastF64SI64, "vm.cast.f64.si64", kNoFlags,                   \
    EMBER_VM_CONVERT(F64, I64))                                                \
  X(ExtF64, 0x1D, CastF64UI64, "vm.cast.f64.ui64", kNoFlags,                   \
    EMBER_VM_CONVERT(F64, I64))                                                \
  X(ExtF64, 0x1E, BitcastI64F64, "vm.bitcast.i64.f64", kNoFlags,               \
    EMBER_VM_CONVERT(I64, F64))                                                \
  X(ExtF64, 0x1F, BitcastF64I64, "vm.bitcast.f64.i64", kNoFlags,               \
    EMBER_VM_CONVERT(F64, I64))                                                \
  X(ExtF64, 0x20, AtanF64, "vm.atan.f64", kNoFlags, EMBER_VM_UNARY(F64))       \
  X(ExtF64, 0x21, Atan2F64, "vm.atan2.f64", kNoFlags, EMBER_VM_BINARY(F64))    \
  X(ExtF64, 0x22, CosF64, "vm.cos.f64", kNoFlags, EMBER_VM_UNARY(F64))         \
  X(ExtF64, 0x23, SinF64, "vm.sin.f64", kNoFlags, EMBER_VM_UNARY(F64))         \
  X(ExtF64, 0x24, ExpF64, "vm.exp.f64", kNoFlags, EMBER_VM_UNARY(F64))         \
  X(ExtF64, 0x25, Exp2F64, "vm.exp2.f64", kNoFlags, EMBER_VM_UNARY(F64))       \
  X(ExtF64, 0x26, ExpM1F64, "vm.expm1.f64", kNoFlags, EMBER_VM_UNARY(F64))     \
  X(ExtF64, 0x27, LogF64, "vm.log.f64", kNoFlags, EMBER_VM_UNARY(F64))         \
  X(ExtF64, 0x28, Log10F64, "vm.log10.f64", kNoFlags, EMBER_VM_UNARY(F64))     \
  X(ExtF64, 0x29, Log1pF64, "vm.log1p.f64", kNoFlags, EMBER_VM_UNARY(F64))     \
  X(ExtF64, 0x2A, Log2F64, "vm.log2.f64", kNoFlags, EMBER_VM_UNARY(F64))       \
  X(ExtF64, 0x2B, PowF64, "vm.pow.f64", kNoFlags, EMBER_VM_BINARY(F64))        \
  X(ExtF64, 0x2C, RsqrtF64, "vm.rsqrt.f64", kNoFlags, EMBER_VM_UNARY(F64))     \
  X(ExtF64, 0x2D, SqrtF64, "vm.sqrt.f64", kNoFlags, EMBER_VM_UNARY(F64))       \
  X(ExtF64, 0x2E, TanhF64, "vm.tanh.f64", kNoFlags, EMBER_VM_UNARY(F64))       \
  X(ExtF64, 0x2F, ErfF64, "vm.erf.f64", kNoFlags, EMBER_VM_UNARY(F64))         \
  X(ExtF64, 0x30, CmpEQF64O, "vm.cmp.eq.f64.o", kNoFlags,                      \
    EMBER_VM_COMPARE(F64))                                                     \
  X(ExtF64, 0x31, CmpEQF64U, "vm.cmp.eq.f64.u", kNoFlags,                      \
    EMBER_VM_COMPARE(F64))                                                     \
  X(ExtF64, 0x32, CmpNEF64O, "vm.cmp.ne.f64.o", kNoFlags,                      \
    EMBER_VM_COMPARE(F64))                                                     \
  X(ExtF64, 0x33, CmpNEF64U, "vm.cmp.ne.f64.u", kNoFlags,                      \
    EMBER_VM_COMPARE(F64))                                                     \
  X(ExtF64, 0x34, CmpLTF64O, "vm.cmp.lt.f64.o", kNoFlags,                      \
    EMBER_VM_COMPARE(F64))                                                     \
  X(ExtF64, 0x35, CmpLTF64U, "vm.cmp.lt.f64.u", kNoFlags,                      \
    EMBER_VM_COMPARE(F64))                                                     \
  X(ExtF64, 0x36, CmpLTEF64O, "vm.cmp.lte.f64.o", kNoFlags,                    \
    EMBER_VM_COMPARE(F64))                                                     \
  X(ExtF64, 0x37, CmpLTEF64U, "vm.cmp.lte.f64.u", kNoFlags,                    \
    EMBER_VM_COMPARE(F64))                                                     \
  X(ExtF64, 0x38, CmpNaNF64, "vm.cmp.nan.f64", kNoFlags,                       \
    EMBER_VM_CONVERT(F64, I32))                                                \
  X(ExtF64, 0x39, BufferLoadF64, "vm.buffer.load.f64", kNoFlags,               \
    EMBER_VM_BUFFER_LOAD(F64))                                                 \
  X(ExtF64, 0x3A, BufferStoreF64, "vm.buffer.store.f64", kNoFlags,             \
    EMBER_VM_BUFFER_STORE(F64))                                                \
  X(ExtF64, 0x3B, BufferFillF64, "vm.buffer.fill.f64", kNoFlags,               \
    EMBER_VM_BUFFER_FILL(F64))                                                 \
  X(ExtF64, 0x3C, RoundF64, "vm.round.f64", kNoFlags, EMBER_VM_UNARY(F64))     \
  X(ExtF64, 0x3D, MinF64, "vm.min.f64", kNoFlags, EMBER_VM_BINARY(F64))        \
  X(ExtF64, 0x3E, MaxF64, "vm.max.f64", kNoFlags, EMBER_VM_BINARY(F64))        \
  X(ExtF64, 0x3F, RoundF64Even, "vm.round.f64.even", kNoFlags,                 \
    EMBER_VM_UNARY(F64))                                                       \
  X(ExtF64, 0x40, FPowIF64, "vm.fpowi.f64", kNoFlags,                          \
    {kRegF64, "lhs"}, {kRegI64, "rhs"}, {kResF64, "result"})
// clang-format on

#define EMBER_VM_ALL_OPCODES(X) \
  EMBER_VM_CORE_OPCODES(X)      \
  EMBER_VM_EXT_F32_OPCODES(X)   \
  EMBER_VM_EXT_F64_OPCODES(X)

// One enum per set, valued by opcode byte, for switches and label tables.
#define EMBER_VM_OPCODE_ENUMERATOR(set, byte, id, ...) id = byte,
enum class CoreOpcode : uint8_t {
  EMBER_VM_CORE_OPCODES(EMBER_VM_OPCODE_ENUMERATOR)
};
enum class ExtF32Opcode : uint8_t {
  EMBER_VM_EXT_F32_OPCODES(EMBER_VM_OPCODE_ENUMERATOR)
};
enum class ExtF64Opcode : uint8_t {
  EMBER_VM_EXT_F64_OPCODES(EMBER_VM_OPCODE_ENUMERATOR)
};
#undef EMBER_VM_OPCODE_ENUMERATOR

#define EMBER_VM_COUNT_ONE(...) +1
inline constexpr int kCoreOpcodeCount =
    0 EMBER_VM_CORE_OPCODES(EMBER_VM_COUNT_ONE);
inline constexpr int kExtF32OpcodeCount =
    0 EMBER_VM_EXT_F32_OPCODES(EMBER_VM_COUNT_ONE);
inline constexpr int kExtF64OpcodeCount =
    0 EMBER_VM_EXT_F64_OPCODES(EMBER_VM_COUNT_ONE);
#undef EMBER_VM_COUNT_ONE

}  // namespace ember::vm::bytecode
