// The executable copy of a function's bytecode ("quickening").
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
// in executable_code.cc checks that the two sets are disjoint).
//
//  * Direct ExtF32 instructions (computed-goto builds only). An ExtF32
//    instruction is encoded as the prefix 0xE0, its opcode, then its fields.
//    Running it costs two dispatches. In the copy the prefix byte becomes
//    kFirstDirectExtF32Opcode + (the op's index in the ExtF32 table); the op
//    byte and the fields stay where they were, so the handler is unchanged
//    and one dispatch reaches it. ExtF64 keeps the prefix: there are not
//    enough free byte values for both sets, and f64 is rare in compiled
//    programs (the compiler demotes it by default).
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
//  * Branch copy coalescing (executable_code.cc, CoalesceBranchCopies). A
//    copy `%s -> %d` of an unconditional vm.br is removed when the
//    instruction that computes %s sits in the branch's block, nothing after
//    it touches %s or %d, %s is dead at the target and no other copy of the
//    branch names either register: that instruction's result field is
//    rewritten to %d. Loop-carried values then skip one store-to-load round
//    trip through the register file per iteration.
//
//  * Constant operands. A register written exactly once in the whole
//    function, by vm.const.i32 in the entry block before any read of it
//    (the usual home of loop bounds, masks, strides), holds that constant
//    everywhere. An i32 add/sub/mul/and/or/xor/shl/shr whose operand is such
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
//  * Constant f32 operands. vm.const.f32 registers are found the same way
//    (their bit patterns). When the pattern's low 16 bits are zero -- the
//    value is exactly a bfloat16, like 0.5, 1.25, -2, 1e10 rounded, inf --
//    the high 16 bits fit the operand slot and the handler rebuilds the
//    exact float: vm.add/sub/mul.f32 with a constant right operand
//    (AddF32Imm, SubF32Imm, MulF32Imm; add and mul move a constant left
//    operand right) and the FMA3 form with a constant factor (FMAF32HwImmB).
//    Other constants stay in registers. Only with direct ExtF32 opcodes.
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
// Branches with ref operands, br_table, calls and everything else run from
// the original encoding.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "runtime/base/status.h"

#if !defined(EMBER_VM_DISPATCH_SWITCH) && (defined(__GNUC__) || defined(__clang__))
#define EMBER_VM_COMPUTED_GOTO 1
#else
#define EMBER_VM_COMPUTED_GOTO 0
#endif

namespace ember::vm::bytecode_internal {

// The Ember-internal opcodes: X(Name, byte). Names become labels/cases in
// the interpreter as op_Exec_<Name>.
#define EMBER_VM_EXEC_OPCODES(X) \
  X(BrI32x0, 0xE2)               \
  X(BrI32x1, 0xE3)               \
  X(BrI32x2, 0xE4)               \
  X(BrI32x3, 0xE5)               \
  X(BrI32xN, 0xE6)               \
  X(CondBrI32x00, 0xE7)          \
  X(CondBrI32xN, 0xE8)           \
  X(CmpEQI32Br, 0xE9)            \
  X(CmpNEI32Br, 0xEA)            \
  X(CmpLTI32SBr, 0xEB)           \
  X(CmpLTI32UBr, 0xEC)           \
  X(CmpNZI32Br, 0xED)            \
  X(BrToCmpEQI32Br, 0xEE)        \
  X(BrToCmpNEI32Br, 0xEF)        \
  X(BrToCmpLTI32SBr, 0xF0)       \
  X(BrToCmpLTI32UBr, 0xF1)       \
  X(BrToCmpNZI32Br, 0xF2)        \
  X(AddI32Imm, 0xF3)             \
  X(SubI32Imm, 0xF4)             \
  X(MulI32Imm, 0xF5)             \
  X(AndI32Imm, 0xF6)             \
  X(OrI32Imm, 0xF7)              \
  X(XorI32Imm, 0xF8)             \
  X(ShlI32Imm, 0xF9)             \
  X(ShrI32SImm, 0xFA)            \
  X(ShrI32UImm, 0xFB)            \
  X(FMAF32Hw, 0xFC)              \
  X(CmpEQI32BrD, 0xC7)           \
  X(CmpNEI32BrD, 0xC8)           \
  X(CmpLTI32SBrD, 0xC9)          \
  X(CmpLTI32UBrD, 0xCA)          \
  X(CmpNZI32BrD, 0xCB)           \
  X(BrToCmpEQI32BrD, 0xCC)       \
  X(BrToCmpNEI32BrD, 0xCD)       \
  X(BrToCmpLTI32SBrD, 0xCE)      \
  X(BrToCmpLTI32UBrD, 0xCF)      \
  X(BrToCmpNZI32BrD, 0xD0)       \
  X(FMAI32ImmB, 0xD1)            \
  X(FMAI32ImmC, 0xD2)            \
  X(AddF32Imm, 0xD3)             \
  X(SubF32Imm, 0xD4)             \
  X(MulF32Imm, 0xD5)             \
  X(FMAF32HwImmB, 0xD6)          \
  X(AddImmBrToCmpEQI32BrD, 0xD7) \
  X(AddImmBrToCmpNEI32BrD, 0xD8) \
  X(AddImmBrToCmpLTI32SBrD, 0xD9) \
  X(AddImmBrToCmpLTI32UBrD, 0xDA) \
  X(AddImmBrToCmpNZI32BrD, 0xDB)

enum class ExecOpcode : uint8_t {
#define EMBER_VM_EXEC_ENUM(name, byte) k##name = byte,
  EMBER_VM_EXEC_OPCODES(EMBER_VM_EXEC_ENUM)
#undef EMBER_VM_EXEC_ENUM
};

// Direct ExtF32 opcodes occupy [kFirstDirectExtF32Opcode,
// kFirstDirectExtF32Opcode + number of ExtF32 ops).
inline constexpr uint8_t kFirstDirectExtF32Opcode = 0x89;

// Whether the copy maps ExtF32 instructions to direct opcodes. The switch
// fallback dispatches extension ops in a nested switch, so it runs them
// from the prefixed form.
inline constexpr bool kDirectExtF32 = EMBER_VM_COMPUTED_GOTO != 0;

// Field offsets of the re-encoded branches (see above).
namespace exec_layout {
inline constexpr int kBrRel = 1;
inline constexpr int kBrCount = 5;
inline constexpr int kBrPairs = 7;
inline constexpr int kCondBrCondition = 1;
inline constexpr int kCondBrTrueRel = 3;
inline constexpr int kCondBrFalseRel = 7;
inline constexpr int kCondBrTrueCount = 11;
inline constexpr int kCondBrFalseCount = 13;
inline constexpr int kCondBrPairs = 15;
}  // namespace exec_layout

struct ExecOptions {
  // False: the copy is the file's bytecode unchanged (for differential
  // tests of the rewrites, and for debugging).
  bool rewrite = true;
  bool direct_ext_f32 = kDirectExtF32;
};

// Returns the executable copy of one verified function (`function` is its
// bytecode, as the verifier saw it). Fails only if the bytes do not decode,
// which the verifier rules out.
Result<std::vector<uint8_t>> MakeExecutableCode(std::span<const uint8_t> function,
                                                const ExecOptions& options = {});

}  // namespace ember::vm::bytecode_internal
