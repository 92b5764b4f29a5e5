// The quickened copy of a function's bytecode.
//
// When a BytecodeModule is created, each function that the verifier
// accepted is copied once, and some hot instructions in the copy are
// rewritten into Ember-internal forms that are cheaper to execute; the
// interpreter runs the copy. A rewrite never changes an instruction's start
// or length, so every pc -- branch targets, return addresses, the pcs of
// stack traces and source maps -- means the same in the file and the copy,
// and an instruction that is not rewritten runs exactly as encoded.
//
// Internal opcodes (EMBER_VM_EXEC_OPCODES and the direct ExtF32 range) use
// byte values that no bytecode-17 core opcode uses; quickened_code.cc
// checks that at compile time. An internal form keeps the fields of the
// instruction it replaces at that instruction's offsets (its
// InstructionLayout), an immediate taking the u16 slot of the register it
// replaces; only branches are re-encoded (quick_layout below).
//
// The rewrites (quickened_code.cc):
//  * Direct ExtF32 opcodes (computed-goto builds only): the 0xE0 prefix of
//    the common ExtF32 ops (EMBER_VM_DIRECT_EXT_F32) becomes an opcode of
//    its own, so one dispatch reaches the handler instead of two.
//  * Scalar branches: a vm.br or vm.cond_br whose copies are all int-bank
//    registers is re-encoded with relative targets and no padding
//    (quick_layout); vm.br with 0-3 copies and vm.cond_br without copies
//    get straight-line handlers.
//  * Copy coalescing: a copy `%s -> %d` of a vm.br is dropped when the
//    instruction computing %s is in the branch's block and can write %d
//    instead (quicken_liveness_internal.h has the conditions).
//  * Immediates: an i32 add/sub/mul/and/or/xor/shl/shr or vm.fma.i32
//    operand that holds a constant fitting 16 signed bits is replaced by
//    the value, in that operand's slot; an f32 add/sub/mul operand or
//    FMA3 fma factor holding a constant whose bit pattern is exactly a
//    bfloat16 is replaced by the pattern's high half. Commutative ops move
//    a constant left operand right, except an f32 NaN: with two NaN
//    operands the result's payload depends on their order (forwarding
//    never swaps f32 operands either, for the same reason).
//  * FMA3: vm.fma.f32 becomes a single vfmadd when the CPU has FMA3
//    (checked when the copy is made, not per execution).
//  * Compare-and-branch: an i32 eq/ne/lt.s/lt.u/nz directly followed by a
//    copyless vm.cond_br on its result fuses with it (the ...Br forms; the
//    ...BrD forms skip storing the result when it is dead at both
//    targets). The branch keeps its own form at its own pc.
//  * Back edges and latches: a copyless vm.br into such a fused head
//    becomes BrTo<head>, which enters the head's handler directly; an i32
//    add-immediate right before one into a ...BrD head becomes
//    AddImmBrTo<head>D, one dispatch for the add, the branch and the head.
//  * Result forwarding: i32 and f32 arithmetic handlers also leave their
//    result in a machine register (`acc`); the next instruction of the
//    block that reads it gets an ...Acc form taking the operand from there.
//    The store stays, so the register file is always exact.
// The f32 rewrites need direct ExtF32 opcodes.
// Branches with ref operands, br_table, calls and everything else run from
// the file's encoding.
//
// The analyses behind them, each in its own file: the block structure
// (quicken_blocks_internal.h), int-bank liveness for copy coalescing and
// dead compare results (quicken_liveness_internal.h), the constant in each
// register at each use (quicken_constants_internal.h) and forwarding
// (quicken_forwarding_internal.h). The two dataflows each have a work
// budget of 2^14 + 256 units per byte of the function (QuickenStats) and
// give up past it -- leaving their rewrites out, or for constants falling
// back to a function-wide rule -- so a hostile module cannot make loading
// slow.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/opcode_table.h"

#if !defined(EMBER_VM_DISPATCH_SWITCH) && \
    (defined(__GNUC__) || defined(__clang__))
#define EMBER_VM_COMPUTED_GOTO 1
#else
#define EMBER_VM_COMPUTED_GOTO 0
#endif

namespace ember::vm::bytecode {

// The Ember-internal opcodes: X(Name, byte). Names become labels/cases in
// the interpreter as op_Quick_<Name>.
#define EMBER_VM_EXEC_OPCODES(X)  \
  X(BrI32x0, 0xE2)                \
  X(BrI32x1, 0xE3)                \
  X(BrI32x2, 0xE4)                \
  X(BrI32x3, 0xE5)                \
  X(BrI32xN, 0xE6)                \
  X(CondBrI32x00, 0xE7)           \
  X(CondBrI32xN, 0xE8)            \
  X(CmpEQI32Br, 0xE9)             \
  X(CmpNEI32Br, 0xEA)             \
  X(CmpLTI32SBr, 0xEB)            \
  X(CmpLTI32UBr, 0xEC)            \
  X(CmpNZI32Br, 0xED)             \
  X(BrToCmpEQI32Br, 0xEE)         \
  X(BrToCmpNEI32Br, 0xEF)         \
  X(BrToCmpLTI32SBr, 0xF0)        \
  X(BrToCmpLTI32UBr, 0xF1)        \
  X(BrToCmpNZI32Br, 0xF2)         \
  X(AddI32Imm, 0xF3)              \
  X(SubI32Imm, 0xF4)              \
  X(MulI32Imm, 0xF5)              \
  X(AndI32Imm, 0xF6)              \
  X(OrI32Imm, 0xF7)               \
  X(XorI32Imm, 0xF8)              \
  X(ShlI32Imm, 0xF9)              \
  X(ShrI32SImm, 0xFA)             \
  X(ShrI32UImm, 0xFB)             \
  X(FMAF32Hw, 0xFC)               \
  X(CmpEQI32BrD, 0xC7)            \
  X(CmpNEI32BrD, 0xC8)            \
  X(CmpLTI32SBrD, 0xC9)           \
  X(CmpLTI32UBrD, 0xCA)           \
  X(CmpNZI32BrD, 0xCB)            \
  X(BrToCmpEQI32BrD, 0xCC)        \
  X(BrToCmpNEI32BrD, 0xCD)        \
  X(BrToCmpLTI32SBrD, 0xCE)       \
  X(BrToCmpLTI32UBrD, 0xCF)       \
  X(BrToCmpNZI32BrD, 0xD0)        \
  X(FMAI32ImmB, 0xD1)             \
  X(FMAI32ImmC, 0xD2)             \
  X(AddF32Imm, 0xD3)              \
  X(SubF32Imm, 0xD4)              \
  X(MulF32Imm, 0xD5)              \
  X(FMAF32HwImmB, 0xD6)           \
  X(AddImmBrToCmpEQI32BrD, 0xD7)  \
  X(AddImmBrToCmpNEI32BrD, 0xD8)  \
  X(AddImmBrToCmpLTI32SBrD, 0xD9) \
  X(AddImmBrToCmpLTI32UBrD, 0xDA) \
  X(AddImmBrToCmpNZI32BrD, 0xDB)  \
  X(AddI32AccL, 0xA7)             \
  X(SubI32AccL, 0xA8)             \
  X(MulI32AccL, 0xA9)             \
  X(AndI32AccL, 0xAA)             \
  X(OrI32AccL, 0xAB)              \
  X(XorI32AccL, 0xAC)             \
  X(ShlI32AccL, 0xAD)             \
  X(ShrI32SAccL, 0xAE)            \
  X(ShrI32UAccL, 0xAF)            \
  X(AddI32ImmAcc, 0xB0)           \
  X(SubI32ImmAcc, 0xB1)           \
  X(MulI32ImmAcc, 0xB2)           \
  X(AndI32ImmAcc, 0xB3)           \
  X(OrI32ImmAcc, 0xB4)            \
  X(XorI32ImmAcc, 0xB5)           \
  X(ShlI32ImmAcc, 0xB6)           \
  X(ShrI32SImmAcc, 0xB7)          \
  X(ShrI32UImmAcc, 0xB8)          \
  X(FMAI32AccA, 0xB9)             \
  X(FMAI32AccC, 0xBA)             \
  X(AddF32AccL, 0xBB)             \
  X(SubF32AccL, 0xBC)             \
  X(SubF32AccR, 0xBD)             \
  X(MulF32AccL, 0xBE)             \
  X(DivF32AccL, 0xBF)             \
  X(AddF32ImmAcc, 0xC0)           \
  X(SubF32ImmAcc, 0xC1)           \
  X(MulF32ImmAcc, 0xC2)           \
  X(FMAF32HwAccA, 0xC3)           \
  X(FMAF32HwAccC, 0xC4)           \
  X(CastSI32F32Acc, 0xC5)         \
  X(CastUI32F32Acc, 0xC6)         \
  X(AddF32AccR, 0xDC)             \
  X(MulF32AccR, 0xDD)             \
  X(FMAF32HwAccB, 0xFE)

enum class QuickOpcode : uint8_t {
#define EMBER_VM_EXEC_ENUM(name, byte) k##name = byte,
  EMBER_VM_EXEC_OPCODES(EMBER_VM_EXEC_ENUM)
#undef EMBER_VM_EXEC_ENUM
};

// The ExtF32 ops with direct opcodes, in byte order: X(Name).
// clang-format off
#define EMBER_VM_DIRECT_EXT_F32(X)                                        \
  X(GlobalLoadF32) X(GlobalStoreF32) X(ConstF32Zero) X(ConstF32)          \
  X(ListGetF32) X(ListSetF32) X(SelectF32) X(AddF32) X(SubF32) X(MulF32)  \
  X(DivF32) X(FMAF32) X(AbsF32) X(NegF32) X(CastSI32F32) X(CastUI32F32)   \
  X(CastF32SI32) X(CastF32UI32) X(BitcastI32F32) X(BitcastF32I32)         \
  X(CmpEQF32O) X(CmpNEF32O) X(CmpLTF32O) X(CmpLTEF32O) X(BufferLoadF32)   \
  X(BufferStoreF32) X(MinF32) X(MaxF32) X(SqrtF32) X(FloorF32)
// clang-format on

// Direct ExtF32 opcodes occupy [kFirstDirectExtF32Opcode,
// kFirstDirectExtF32Opcode + kDirectExtF32Count).
inline constexpr uint8_t kFirstDirectExtF32Opcode = 0x89;
inline constexpr uint8_t kDirectExtF32Ops[] = {
#define EMBER_VM_DIRECT_EXT_F32_BYTE(name) \
  static_cast<uint8_t>(bytecode::ExtF32Opcode::name),
    EMBER_VM_DIRECT_EXT_F32(EMBER_VM_DIRECT_EXT_F32_BYTE)
#undef EMBER_VM_DIRECT_EXT_F32_BYTE
};
inline constexpr size_t kDirectExtF32Count = std::size(kDirectExtF32Ops);
// The direct opcode of ExtF32 op `name`.
constexpr uint8_t DirectExtF32Opcode(bytecode::ExtF32Opcode op) {
  for (size_t i = 0; i < kDirectExtF32Count; ++i) {
    if (kDirectExtF32Ops[i] == static_cast<uint8_t>(op)) {
      return static_cast<uint8_t>(kFirstDirectExtF32Opcode + i);
    }
  }
  return 0;  // not direct
}

// Whether the copy maps ExtF32 instructions to direct opcodes. The switch
// fallback dispatches extension ops in a nested switch, so it runs them
// from the prefixed form.
inline constexpr bool kDirectExtF32 = EMBER_VM_COMPUTED_GOTO != 0;

// The re-encoded scalar branches, inside the instruction's own bytes:
//   vm.br      [op][rel i32 @1][n u16 @5][n x (src u16, dst u16) @7]
//   vm.cond_br [op][cond u16 @1][true rel i32 @3][false rel i32 @7]
//              [t u16 @11][f u16 @13][t pairs @15][f pairs after them]
// `rel` is the target's block marker + 1 minus the branch's pc (a jump is
// `ip += rel`). The form is never longer than the file's, which pads each
// remap list to an even offset; leftover bytes are unused.
namespace quick_layout {
inline constexpr int kBrRel = 1;
inline constexpr int kBrCount = 5;
inline constexpr int kBrPairs = 7;
inline constexpr int kCondBrCondition = 1;
inline constexpr int kCondBrTrueRel = 3;
inline constexpr int kCondBrFalseRel = 7;
inline constexpr int kCondBrTrueCount = 11;
inline constexpr int kCondBrFalseCount = 13;
inline constexpr int kCondBrPairs = 15;
}  // namespace quick_layout

struct QuickenOptions {
  // False: the copy is the file's bytecode unchanged (for differential
  // tests of the rewrites, and for debugging).
  bool rewrite = true;
  bool direct_ext_f32 = kDirectExtF32;
  // Result forwarding (see above); off only to measure it.
  bool forward_results = true;
};

// What the load-time analyses did for one function (for tests and tools).
// Each analysis has a work budget proportional to the function's size
// (units: 64-bit words or states touched, about a nanosecond each; see
// above).
struct QuickenStats {
  bool liveness_complete = false;   // copy coalescing, dead compare results
  bool constants_complete = false;  // per-use constants (else function-wide)
  size_t liveness_work = 0;
  size_t constants_work = 0;
  size_t work_budget = 0;  // of each analysis
  // Instructions looked at by copy coalescing's walks back from branches:
  // at most one per instruction (each block is walked once).
  size_t copy_walk_steps = 0;
};

// Returns the quickened copy of one verified function (`function` is its
// bytecode, as the verifier saw it). Fails only if the bytes do not decode,
// which the verifier rules out.
Result<std::vector<uint8_t>> MakeQuickenedCode(
    std::span<const uint8_t> function, const QuickenOptions& options = {},
    QuickenStats* stats = nullptr);

}  // namespace ember::vm::bytecode
