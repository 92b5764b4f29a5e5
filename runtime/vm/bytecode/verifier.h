// The bytecode verifier: proves, once per function at load time, everything
// the interpreter would otherwise have to check on every instruction.
//
// A ModuleFile has already been judged as a container (module_file.h): the
// FlatBuffer is well formed, every function's span lies inside bytecode_data,
// register counts are within the ISA limits, cconv strings parse, ordinals
// in the tables are consistent. What it has not looked at is the bytecode
// itself. The verifier walks each function once, front to back, with the
// bounds-checked decoder (decoder.h) and checks every field of every
// instruction against the opcode table (opcode_table.h), the function's
// descriptor and the module's tables. A forward branch cannot be judged
// when it is seen, so branch targets are collected and checked against the
// set of block markers after the walk.
//
// What a successful VerifyFunction(file, f) guarantees about function f
// (offsets are relative to the function's first byte; "length" is the
// descriptor's bytecode_length):
//
//  Structure
//   * Decoding from offset 0, every instruction decodes without error and
//     ends at or before `length`; the last one ends exactly at `length`.
//     No instruction reads a byte outside the function.
//   * Every opcode is known. Extension instructions (0xE0 / 0xE1 prefixes)
//     appear only when the function's descriptor requirements contain
//     EXT_F32 / EXT_F64 respectively.
//   * The function is a sequence of blocks: it begins with a block marker
//     (0x79); a marker appears only right after a terminator (or at offset
//     0); every block ends with a terminator (kTerminator in the table); the
//     number of markers equals the descriptor's block_count.
//   * Every branch target -- of br, cond_br, br_table (default and every
//     case), yield, break, cond_break, and the resume target of the yieldable
//     calls -- is the offset of a block marker, so `target + 1` is the first
//     instruction of a block and is inside the function.
//
//  Registers (i32 count I and ref count R from the descriptor)
//   * Fixed-type int fields (i32/f32, single registers and lists) have bit 15
//     clear and ordinal < I. 64-bit fields (i64/f64) have bit 15 clear, an
//     even ordinal n, and n + 1 < I.
//   * Ref fields have bit 15 set and (raw & 0x3FFF) < R. Bit 14 (MOVE) is
//     set only in fields whose kind allows it (GetFieldTraits(kind).
//     allows_move), and never in a call's result list or a remap
//     destination.
//   * Lists of mixed banks (vm.print / vm.trace operands) hold, per element,
//     either a ref register as above (MOVE allowed) or an int register with
//     ordinal < I.
//   * Branch remap lists: each (source, destination) pair names two
//     registers of the same bank, each in range as above; MOVE may appear on
//     the source only. A 64-bit value is two pairs, so no evenness is implied.
//
//  Calls and returns
//   * Every function ordinal is in range: without bit 31 it indexes
//     function_descriptors; with bit 31 the low bits index imported_functions.
//     vm.import.resolved names an import.
//   * A call's operand list has exactly one entry per value of the callee's
//     argument cconv (internal callee: function_signatures[callee]; import:
//     the import's signature), its result list one entry per value of the
//     callee's result cconv; each entry is in the bank the cconv character
//     demands ('i'/'f': int register < I; 'I'/'F': even int n, n + 1 < I;
//     'r': ref register < R). An absent cconv means no arguments and no
//     results. Result lists name ref registers without MOVE.
//   * vm.call / vm.call.yieldable: the callee's argument cconv has no
//     variadic span (C...D). vm.call.variadic(.yieldable): the callee is an
//     import, the segment-size list has exactly one entry per top-level
//     argument of its cconv, -1 for a plain argument and n >= 0 for a span
//     (n tuples of the span's body), and the operand list has exactly as many
//     entries as that expands to. No cconv result side contains a span.
//   * vm.return's list matches the function's own result cconv the same way.
//   * The function's own cconv has no spans, and its arguments fit the
//     ISA's register file when packed per bank in order (an i64/f64 rounding
//     the int slot up to even and taking two slots). They may need more
//     registers than the descriptor declares (3.12+ iree-as-module output
//     does for an unused argument); the caller sizes frames for
//     max(declared, arguments), as BytecodeModule does.
//
//  Module tables
//   * Type ordinals < types.size(); rodata ordinals < rodata_segments.size();
//     global ref ordinals < module_state.global_ref_count; a direct global
//     access at byte offset o of width w (4 for i32/f32, 8 for i64/f64) has
//     o + w <= module_state.global_bytes_capacity. Byte offsets are not
//     required to be aligned.
//
// What it does not guarantee: anything about values computed at run time
// (indirect global offsets, list indices, buffer ranges, whether a ref
// register holds a value of the named type, division by zero); those are
// checked when the instruction runs.
//
// Errors are INVALID_ARGUMENT, and name the function (debug name and
// ordinal), the offset of the offending instruction, its mnemonic and what
// is wrong.
//
// Cost: verifying a module is linear in its size. A passing check builds no
// message text (messages are formatted only when an error is returned, and
// quote names and cconvs cut to 200 bytes); what a cconv string says is
// worked out once per distinct string per ModuleVerifier (VerifyModuleBytecode
// uses one per thread), however many functions share it or calls name it, so
// each check costs O(the instruction or function it is about).
// VerifyModuleBytecode verifies a module with 1 MiB of bytecode or more on
// two threads, each half of the functions (the result is the sequential
// one: the first failing function's error).
//
// Thread safety: VerifyFunction and VerifyModuleBytecode are stateless; a
// ModuleVerifier is for one thread at a time. The ModuleFile is only read.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/module_file.h"

namespace ember::vm::bytecode {

namespace verifier_internal {
struct SharedState;
// Tests only: with false, every instruction takes the general path (decode,
// then check field by field) instead of the fast path for fixed-form
// instructions, so that tests can compare the two. Not thread-safe; the
// default is true.
void SetFastPathEnabled(bool enabled);
}  // namespace verifier_internal

// Verifies functions of one module, sharing the per-module work between
// them (see "Cost" above). `file` must outlive it.
class ModuleVerifier {
 public:
  explicit ModuleVerifier(const ModuleFile& file);
  ~ModuleVerifier();
  ModuleVerifier(const ModuleVerifier&) = delete;
  ModuleVerifier& operator=(const ModuleVerifier&) = delete;

  // Same guarantees and errors as the free VerifyFunction.
  Status VerifyFunction(size_t ordinal);

  // Work done so far, for tests of the cost bounds.
  struct Stats {
    size_t cconv_strings_analyzed = 0;  // distinct non-empty cconv strings
    size_t cconv_bytes_analyzed = 0;    // their total length
  };
  const Stats& stats() const;

 private:
  const ModuleFile& file_;
  std::unique_ptr<verifier_internal::SharedState> shared_;
};

// Verifies internal function `ordinal` of `file`. It works out the cconvs it
// needs afresh (O(their length)); to verify many functions of one module, use
// one ModuleVerifier (or VerifyModuleBytecode).
Status VerifyFunction(const ModuleFile& file, size_t ordinal);

// Verifies every internal function of `file`, stopping at the first error.
Status VerifyModuleBytecode(const ModuleFile& file);

}  // namespace ember::vm::bytecode
