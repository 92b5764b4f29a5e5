// The quickened copy of a function's bytecode ("quickening").
//
// The interpreter does not run the bytes of the module file. When a
// BytecodeModule is created, after the verifier has accepted every function,
// each function is copied once and a few hot instructions in the copy are
// rewritten into Ember-internal forms that are cheaper to execute. The
// rewrite never changes an instruction's start or length, so every pc --
// branch targets, return addresses, the pcs in stack traces and source maps
// -- means the same in both copies, and an instruction that is not rewritten
// is executed exactly as the file encodes it.
//
// Internal opcodes use byte values that no bytecode-17 core opcode uses
// (core opcodes are 0x00-0x88 plus the prefixes 0xE0/0xE1; a static_assert
// in quickened_code.cc checks that the two sets are disjoint).
//
//  * Direct ExtF32 instructions (computed-goto builds only). An ExtF32
//    instruction is encoded as the prefix 0xE0, its opcode, then its fields.
//    Running it costs two dispatches. In the copy the prefix byte of the 30
//    common ExtF32 ops (EMBER_VM_DIRECT_EXT_F32) becomes
//    kFirstDirectExtF32Opcode + (the op's index in that list); the op byte
//    and the fields stay where they were, so the handler is unchanged and
//    one dispatch reaches it. The math functions, rarer compares and
//    conversions, and all of ExtF64 keep the prefix: there are not enough
//    free byte values for everything, and f64 is rare in compiled programs
//    (the compiler demotes it by default).
//
//  * Branches whose operand copies are all i32-bank registers (no refs),
//    the shape of every loop back-edge over scalars. The encoding pads each
//    remap list to an even offset and stores absolute targets, so a generic
//    branch computes an alignment and walks a list with a per-entry bank
//    test. The copy re-encodes the instruction, inside its own bytes, as
//      vm.br      [op][rel i32 @1][n u16 @5][n x (src u16, dst u16) @7]
//      vm.cond_br [op][cond u16 @1][true rel i32 @3][false rel i32 @7]
//                 [t u16 @11][f u16 @13][t pairs @15][f pairs after them]
//    where `rel` is the target's block marker + 1 minus the branch's pc (a
//    jump is `ip += rel`). Unconditional branches with 0-3 copies and
//    conditional branches with no copies get opcodes of their own, so their
//    handlers are straight-line code. The re-encoded form is never longer
//    than the original (it drops the padding); leftover bytes are unused.
//
//  * Branch copy coalescing (quickened_code.cc, CoalesceBranchCopies). A
//    copy `%s -> %d` of an unconditional vm.br is removed when the
//    instruction that computes %s sits in the branch's block, nothing after
//    it touches %s or %d, %s is dead at the target and no other copy of the
//    branch names either register: that instruction's result field is
//    rewritten to %d. Loop-carried values then skip one store-to-load round
//    trip through the register file per iteration.
//
//  * Constant operands. A forward dataflow over the blocks
//    (quickened_code.cc, ConstantFlow) finds, at each instruction, the
//    registers that hold one known constant on every path there: written
//    by vm.const.i32 (or .f32, .zero) and by nothing since. The compiler
//    reuses a register once its constant is dead, so this is per use. (If
//    the analysis exceeds its bounds, a function-wide rule is used: a
//    register written once, by a constant op in the entry block, before any
//    read.) An i32 add/sub/mul/and/or/xor/shl/shr whose operand is such
//    a register with a value that fits in 16 signed bits gets an immediate
//    form: the value replaces the register number in the operand's u16
//    slot (commutative ops move a constant left operand to the right). One
//    register-file load fewer per execution.
//
//    vm.fma.i32 gets the same treatment for a constant addend (FMAI32ImmC,
//    `x * y + k`, the affine index computation) or else a constant factor
//    (FMAI32ImmB, `x * k + z`, moved to the middle slot when it is on the
//    left).
//
//  * Constant f32 operands. vm.const.f32 values are found the same way
//    (their bit patterns). When the pattern's low 16 bits are zero -- the
//    value is exactly a bfloat16, like 0.5, 1.25, -2, 1e10 rounded, inf --
//    the high 16 bits fit the operand slot and the handler rebuilds the
//    exact float: vm.add/sub/mul.f32 with a constant right operand
//    (AddF32Imm, SubF32Imm, MulF32Imm; add and mul move a constant left
//    operand right unless it is a NaN, whose payload could then differ)
//    and the FMA3 form with a constant factor (FMAF32HwImmB). Other
//    constants stay in registers. Only with direct ExtF32 opcodes.
//
//  * vm.fma.f32 becomes FMAF32Hw, a single vfmadd, when the CPU has FMA3
//    (checked once here instead of on every execution).
//
//  * Loop latches. An i32 add with an immediate directly followed by a
//    back edge that was rewritten into BrTo<head>D (below) becomes
//    AddImmBrTo<head>D: the handler adds, follows the branch and runs the
//    loop head's compare-and-branch, one dispatch for three instructions.
//    The branch keeps its own rewritten form at its own pc.
//
//  * Compare-and-branch. An i32 comparison (eq, ne, lt.s, lt.u, nz)
//    immediately followed by a copyless vm.cond_br on its result -- the
//    head of nearly every loop -- gets a fused opcode: the handler writes
//    the comparison's result register as usual and then performs the
//    branch that follows without dispatching it. The vm.cond_br keeps its
//    own (rewritten) encoding at its own pc. When liveness shows the
//    comparison's result is dead at both targets (only the branch reads
//    it), the ...BrD form skips writing it. A vm.br without copies whose
//    target starts with such a fused head -- a loop back edge -- becomes
//    BrTo<head>: it jumps straight into the head's handler instead of
//    dispatching on the head's opcode byte.
//
//  * Result forwarding. Each i32/f32 arithmetic handler leaves the 32 bits
//    it stores in a machine register (`acc` in the interpreter) as well.
//    When the next instruction in the same block reads that result, it gets
//    an ...Acc form that takes the operand from `acc` instead of loading it
//    back from the register file (the slot keeps the register number; a
//    commutative op with the result on the right swaps its operands). The
//    store is kept, so the register file stays exact and forwarding is only
//    ever a shortcut to a value already there. f32 operands are never
//    swapped (add and mul have ...AccR forms): with two NaN operands the
//    result's payload depends on their order. Register-file accesses, not
//    dispatches, bound this interpreter's arithmetic (BENCHMARKS.md).
//    Producers and consumers: i32 add/sub/mul/and/or/xor/shl/shr (register
//    and immediate forms), fma.i32, f32 add/sub/mul/div (register and
//    immediate forms), fma.f32 (FMA3 form), cast.si32.f32/ui32.f32; fma.i32
//    and the f32 constant-factor fma forms only produce. The f32 forms need
//    direct ExtF32 opcodes.
//
// Branches with ref operands, br_table, calls and everything else run from
// the original encoding.
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
#define EMBER_VM_DIRECT_EXT_F32(X)                                           \
  X(GlobalLoadF32) X(GlobalStoreF32) X(ConstF32Zero) X(ConstF32)             \
  X(ListGetF32) X(ListSetF32) X(SelectF32) X(AddF32) X(SubF32) X(MulF32)     \
  X(DivF32) X(FMAF32) X(AbsF32) X(NegF32) X(CastSI32F32) X(CastUI32F32)      \
  X(CastF32SI32) X(CastF32UI32) X(BitcastI32F32) X(BitcastF32I32)            \
  X(CmpEQF32O) X(CmpNEF32O) X(CmpLTF32O) X(CmpLTEF32O) X(BufferLoadF32)      \
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

// Field offsets of the re-encoded branches (see above).
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
// (units: 64-bit words or states touched, about a nanosecond each) and
// gives up -- leaving its rewrites out -- past it, so that a hostile module
// cannot make loading slow.
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
