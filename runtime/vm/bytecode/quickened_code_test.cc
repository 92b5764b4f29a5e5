// Tests of the quickened copy (quickened_code.h) on compiled programs:
// the copy keeps every instruction boundary, changes only what the rewrites
// may change, and does rewrite the loop shapes it is meant for. Whether the
// rewritten code computes the same results is op_conformance_test's job (it
// runs every op program both ways).
#include "runtime/vm/bytecode/quickened_code.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "runtime/testing/bytecode_assembler.h"
#include "runtime/testing/corpus.h"
#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/instruction_layout.h"
#include "runtime/vm/bytecode/module_file.h"

namespace ember::vm::bytecode {
namespace {

using bytecode::DecodedInstruction;

bool IsInternalOpcode(uint8_t byte) {
  switch (static_cast<QuickOpcode>(byte)) {
#define EMBER_VM_EXEC_CASE(name, value) case QuickOpcode::k##name:
    EMBER_VM_EXEC_OPCODES(EMBER_VM_EXEC_CASE)
#undef EMBER_VM_EXEC_CASE
    return true;
  }
  return byte >= kFirstDirectExtF32Opcode &&
         byte < kFirstDirectExtF32Opcode + kDirectExtF32Count;
}

std::shared_ptr<const bytecode::ModuleFile> LoadOne(const std::string& name) {
  for (auto& file : ember::testing::LoadCorpus(name)) {
    if (file.name == name) {
      auto loaded = bytecode::ModuleFile::LoadCopy(file.bytes);
      EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
      if (loaded.ok()) return *loaded;
    }
  }
  return nullptr;
}

std::span<const uint8_t> ExportedFunction(const bytecode::ModuleFile& file,
                                          std::string_view name) {
  for (const auto& exported : file.def().exported_functions) {
    if (exported.local_name == name) {
      return file.FunctionBytecode(
          static_cast<size_t>(exported.internal_ordinal));
    }
  }
  ADD_FAILURE() << "no export " << name;
  return {};
}

// The pcs and decoded instructions of a function, in order.
std::vector<DecodedInstruction> DecodeAll(std::span<const uint8_t> function) {
  std::vector<DecodedInstruction> out;
  DecodedInstruction instruction;
  for (uint32_t pc = 0; pc < function.size(); pc = instruction.next_pc) {
    Status status = bytecode::DecodeInstruction(function, pc, &instruction);
    EXPECT_TRUE(status.ok()) << status.ToString();
    if (!status.ok()) break;
    out.push_back(instruction);
  }
  return out;
}

TEST(QuickenedCodeTest, KeepsInstructionBoundariesInEveryCorpusFunction) {
  auto corpus = ember::testing::LoadCorpus(".embedded");
  if (corpus.empty()) GTEST_SKIP() << "no corpus (tools/ember_corpus.py build)";
  size_t functions = 0;
  size_t rewritten_instructions = 0;
  for (const auto& entry : corpus) {
    SCOPED_TRACE(entry.name);
    auto loaded = bytecode::ModuleFile::LoadCopy(entry.bytes);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    const bytecode::ModuleFile& file = **loaded;
    for (size_t f = 0; f < file.def().function_descriptors.size(); ++f) {
      std::span<const uint8_t> function = file.FunctionBytecode(f);
      auto plain =
          MakeQuickenedCode(function, QuickenOptions{.rewrite = false});
      ASSERT_TRUE(plain.ok());
      EXPECT_TRUE(std::equal(plain->begin(), plain->end(), function.begin(),
                             function.end()));
      QuickenStats stats;
      auto exec = MakeQuickenedCode(function, {}, &stats);
      ASSERT_TRUE(exec.ok()) << exec.status().ToString();
      ASSERT_EQ(exec->size(), function.size());
      // Compiled code never needs more than the hostile-input bounds allow.
      EXPECT_TRUE(stats.liveness_complete) << "function " << f;
      EXPECT_TRUE(stats.constants_complete) << "function " << f;
      EXPECT_LE(stats.liveness_work, stats.work_budget / 4) << "function " << f;
      EXPECT_LE(stats.constants_work, stats.work_budget / 4)
          << "function " << f;
      ++functions;
      for (const DecodedInstruction& instruction : DecodeAll(function)) {
        uint8_t original = function[instruction.pc];
        uint8_t now = (*exec)[instruction.pc];
        if (now == original) continue;
        ++rewritten_instructions;
        EXPECT_TRUE(IsInternalOpcode(now))
            << "pc " << instruction.pc << ": opcode 0x" << std::hex
            << int{original} << " became 0x" << int{now};
      }
    }
  }
  EXPECT_GT(functions, 0u);
  EXPECT_GT(rewritten_instructions, 0u);
}

// bench/vm_loop's shape: both loop-carried values are computed in the body,
// so the back edge loses both copies, the loop head compare fuses with its
// cond_br, and the copyless back edge jumps straight into that head.
TEST(QuickenedCodeTest, CoalescesLoopCarriedCopiesAndFusesTheLoopHead) {
  auto file = LoadOne("vm_ops_loops.embedded");
  if (!file) GTEST_SKIP() << "no corpus (tools/ember_corpus.py build)";
  std::span<const uint8_t> function =
      ExportedFunction(*file, "test_loop_carried_i32_f32");
  auto exec = MakeQuickenedCode(function);
  ASSERT_TRUE(exec.ok()) << exec.status().ToString();
  int back_edges = 0;
  int fused_heads = 0;
  for (const DecodedInstruction& instruction : DecodeAll(function)) {
    uint8_t now = (*exec)[instruction.pc];
    if (instruction.info->set != bytecode::OpcodeSet::kCore) continue;
    auto op = static_cast<bytecode::CoreOpcode>(instruction.info->opcode);
    bool backward = instruction.field(0).u32() < instruction.pc;
    if (op == bytecode::CoreOpcode::Branch && backward) {
      ++back_edges;
      // The head's result (%more) is dead after its branch: the D form.
      EXPECT_EQ(now, static_cast<uint8_t>(QuickOpcode::kBrToCmpLTI32SBrD))
          << "back edge at pc " << instruction.pc
          << " kept copies or does not enter the fused head";
    }
    if (op == bytecode::CoreOpcode::CmpLTI32S) {
      ++fused_heads;
      EXPECT_EQ(now, static_cast<uint8_t>(QuickOpcode::kCmpLTI32SBrD));
    }
  }
  EXPECT_EQ(back_edges, 1);
  EXPECT_EQ(fused_heads, 1);
}

// A value read again after it is computed keeps its copy.
// Constant operands become immediates; the f32 fma uses the FMA3 form when
// the CPU has it; a compare result that is read after the loop is kept.
TEST(QuickenedCodeTest, ImmediatesAndLiveCompareResults) {
  auto file = LoadOne("vm_ops_loops.embedded");
  if (!file) GTEST_SKIP() << "no corpus (tools/ember_corpus.py build)";
  {
    std::span<const uint8_t> function =
        ExportedFunction(*file, "test_loop_carried_i32_f32");
    auto exec = MakeQuickenedCode(function);
    ASSERT_TRUE(exec.ok()) << exec.status().ToString();
    int immediates = 0;
    for (const DecodedInstruction& instruction : DecodeAll(function)) {
      uint8_t now = (*exec)[instruction.pc];
      if (now == static_cast<uint8_t>(QuickOpcode::kAndI32Imm) ||
          now == static_cast<uint8_t>(QuickOpcode::kShrI32UImm) ||
          now == static_cast<uint8_t>(QuickOpcode::kAddI32Imm) ||
          now == static_cast<uint8_t>(QuickOpcode::kAddImmBrToCmpLTI32SBrD)) {
        ++immediates;
        // The immediate replaces the constant register in operand slot 1.
        int16_t value = static_cast<int16_t>(
            (*exec)[instruction.pc + 3] | ((*exec)[instruction.pc + 4] << 8));
        EXPECT_TRUE(value == 255 || value == 1023 || value == 3 || value == 1)
            << "immediate " << value << " at pc " << instruction.pc;
      }
    }
    // and 255, and 1023, shr 3, add 1 -- the last is the loop latch, fused
    // with the back edge and the head -- and fma.i32 with the LCG's
    // addend (its factor does not fit in 16 bits).
    EXPECT_EQ(immediates, 4);
    int latches = 0;
    int fma_addends = 0;
    for (const DecodedInstruction& instruction : DecodeAll(function)) {
      uint8_t now = (*exec)[instruction.pc];
      latches +=
          now == static_cast<uint8_t>(QuickOpcode::kAddImmBrToCmpLTI32SBrD);
      fma_addends += now == static_cast<uint8_t>(QuickOpcode::kFMAI32ImmC);
    }
    EXPECT_EQ(latches, 1);
    EXPECT_EQ(fma_addends, 1);
  }
  {
    std::span<const uint8_t> function =
        ExportedFunction(*file, "test_loop_heads_each_compare");
    auto exec = MakeQuickenedCode(function);
    ASSERT_TRUE(exec.ok()) << exec.status().ToString();
    bool nz_keeps_result = false;
    for (const DecodedInstruction& instruction : DecodeAll(function)) {
      if ((*exec)[instruction.pc] ==
          static_cast<uint8_t>(QuickOpcode::kCmpNZI32Br)) {
        nz_keeps_result = true;
      }
    }
    EXPECT_TRUE(nz_keeps_result) << "cmp.nz's result is passed out of the loop";
  }
}

TEST(QuickenedCodeTest, KeepsCopiesOfValuesReadBeforeTheBranch) {
  auto file = LoadOne("vm_ops_loops.embedded");
  if (!file) GTEST_SKIP() << "no corpus (tools/ember_corpus.py build)";
  std::span<const uint8_t> function =
      ExportedFunction(*file, "test_loop_value_read_after_definition");
  auto exec = MakeQuickenedCode(function);
  ASSERT_TRUE(exec.ok()) << exec.status().ToString();
  bool found = false;
  for (const DecodedInstruction& instruction : DecodeAll(function)) {
    if (instruction.info->set != bytecode::OpcodeSet::kCore ||
        instruction.info->opcode !=
            static_cast<uint8_t>(bytecode::CoreOpcode::Branch) ||
        instruction.field(0).u32() > instruction.pc) {
      continue;  // not a back edge
    }
    found = true;
    uint8_t now = (*exec)[instruction.pc];
    EXPECT_NE(now, static_cast<uint8_t>(QuickOpcode::kBrI32x0));
    EXPECT_NE(now, static_cast<uint8_t>(QuickOpcode::kBrToCmpLTI32SBr));
    EXPECT_NE(now, static_cast<uint8_t>(QuickOpcode::kBrToCmpLTI32SBrD));
    EXPECT_TRUE(IsInternalOpcode(now));
  }
  EXPECT_TRUE(found);
}

// Latches: an add-immediate directly before a copyless back edge into a
// fused head with a dead result becomes one instruction with the branch and
// the head. The branch keeps its own rewritten form (BrTo...D) at its pc.
TEST(QuickenedCodeTest, FusesLoopLatchesIntoEachKindOfHead) {
  auto file = LoadOne("vm_ops_loops.embedded");
  if (!file) GTEST_SKIP() << "no corpus (tools/ember_corpus.py build)";
  std::span<const uint8_t> function =
      ExportedFunction(*file, "test_loop_latches_each_compare");
  auto exec = MakeQuickenedCode(function);
  ASSERT_TRUE(exec.ok()) << exec.status().ToString();
  std::vector<DecodedInstruction> all = DecodeAll(function);
  struct Expected {
    QuickOpcode latch;
    QuickOpcode branch;
    int count = 0;
  };
  Expected expected[] = {
      // The lt.s loop's step, -2, sits in a register the compiler reuses
      // after the loop: a constant only per use (ConstantFlow).
      {QuickOpcode::kAddImmBrToCmpLTI32SBrD, QuickOpcode::kBrToCmpLTI32SBrD},
      {QuickOpcode::kAddImmBrToCmpEQI32BrD, QuickOpcode::kBrToCmpEQI32BrD},
      {QuickOpcode::kAddImmBrToCmpNEI32BrD, QuickOpcode::kBrToCmpNEI32BrD},
      {QuickOpcode::kAddImmBrToCmpLTI32UBrD, QuickOpcode::kBrToCmpLTI32UBrD},
      {QuickOpcode::kAddImmBrToCmpNZI32BrD, QuickOpcode::kBrToCmpNZI32BrD},
  };
  bool mul_loop_seen = false;
  for (size_t k = 0; k + 1 < all.size(); ++k) {
    uint8_t now = (*exec)[all[k].pc];
    for (Expected& e : expected) {
      if (now != static_cast<uint8_t>(e.latch)) continue;
      ++e.count;
      EXPECT_EQ(all[k].info->opcode,
                static_cast<uint8_t>(bytecode::CoreOpcode::AddI32));
      EXPECT_EQ((*exec)[all[k + 1].pc], static_cast<uint8_t>(e.branch))
          << "the latch at pc " << all[k].pc
          << " is not followed by its back edge";
    }
    // The 3^10 loop ends in a multiply: its add stays a plain immediate.
    if (all[k].info->opcode ==
            static_cast<uint8_t>(bytecode::CoreOpcode::MulI32) &&
        all[k].info->set == bytecode::OpcodeSet::kCore) {
      mul_loop_seen = true;
      ASSERT_GT(k, 0u);
      EXPECT_EQ((*exec)[all[k - 1].pc],
                static_cast<uint8_t>(QuickOpcode::kAddI32Imm));
    }
  }
  EXPECT_TRUE(mul_loop_seen);
  EXPECT_EQ(expected[0].count, 1) << "lt.s";
  EXPECT_EQ(expected[1].count, 1) << "eq";
  EXPECT_EQ(expected[2].count, 1) << "ne";
  EXPECT_EQ(expected[3].count, 2) << "lt.u";
  EXPECT_EQ(expected[4].count, 1) << "nz";
}

int16_t Slot(const std::vector<uint8_t>& code, uint32_t at) {
  return static_cast<int16_t>(code[at] | (code[at + 1] << 8));
}

// fma.i32 and f32 constant operands (tests/corpus/vm/ops_immediates.mlir).
TEST(QuickenedCodeTest, ImmediateFormsOfFmaAndF32Constants) {
  auto file = LoadOne("vm_ops_immediates.embedded");
  if (!file) GTEST_SKIP() << "no corpus (tools/ember_corpus.py build)";
  auto count = [](std::span<const uint8_t> function,
                  const std::vector<uint8_t>& code, QuickOpcode op,
                  std::vector<int16_t>* slot_values, int slot) {
    int n = 0;
    for (const DecodedInstruction& instruction : DecodeAll(function)) {
      if (code[instruction.pc] != static_cast<uint8_t>(op)) continue;
      ++n;
      if (slot_values)
        slot_values->push_back(Slot(code, instruction.pc + slot));
    }
    return n;
  };
  {
    std::span<const uint8_t> function =
        ExportedFunction(*file, "test_fma_i32_constant_operands");
    auto exec = MakeQuickenedCode(function);
    ASSERT_TRUE(exec.ok()) << exec.status().ToString();
    std::vector<int16_t> addends, factors;
    // Addends: 12345, -32768, 9 (x * 5 + 9), 12345 (the LCG step).
    EXPECT_EQ(count(function, *exec, QuickOpcode::kFMAI32ImmC, &addends, 5), 4);
    EXPECT_EQ(addends, (std::vector<int16_t>{12345, -32768, 9, 12345}));
    // Factors: -3, and 300 moved from the left.
    EXPECT_EQ(count(function, *exec, QuickOpcode::kFMAI32ImmB, &factors, 3), 2);
    EXPECT_EQ(factors, (std::vector<int16_t>{-3, 300}));
  }
  if (kDirectExtF32) {  // the f32 forms replace direct ExtF32 opcodes
    std::span<const uint8_t> function =
        ExportedFunction(*file, "test_f32_constant_operands");
    auto exec = MakeQuickenedCode(function);
    ASSERT_TRUE(exec.ok()) << exec.status().ToString();
    // High halves: 0.5 = 0x3F00, -2 = 0xC000, inf = 0x7F80, NaN = 0x7FC0,
    // 1.25 = 0x3FA0. 0.1 and 1e10 are not bfloat16s and stay registers.
    std::vector<int16_t> adds, subs, muls;
    EXPECT_EQ(count(function, *exec, QuickOpcode::kAddF32Imm, &adds, 4), 3);
    EXPECT_EQ(adds, (std::vector<int16_t>{0x3F00, 0x3F00, 0x7F80}));
    EXPECT_EQ(count(function, *exec, QuickOpcode::kSubF32Imm, &subs, 4), 1);
    EXPECT_EQ(subs, (std::vector<int16_t>{0x3FA0}));
    EXPECT_EQ(count(function, *exec, QuickOpcode::kMulF32Imm, &muls, 4), 3);
    EXPECT_EQ(muls,
              (std::vector<int16_t>{static_cast<int16_t>(0xC000),
                                    static_cast<int16_t>(0xC000), 0x7FC0}));
  }
#if defined(__x86_64__) && defined(__GNUC__)
  if (kDirectExtF32 && __builtin_cpu_supports("fma")) {
    std::span<const uint8_t> function =
        ExportedFunction(*file, "test_fma_f32_constant_factor");
    auto exec = MakeQuickenedCode(function);
    ASSERT_TRUE(exec.ok()) << exec.status().ToString();
    std::vector<int16_t> factors;
    // 0.5 and -4 (moved from the left); 0.75 + 2^-20 stays a register.
    EXPECT_EQ(count(function, *exec, QuickOpcode::kFMAF32HwImmB, &factors, 4),
              2);
    EXPECT_EQ(factors,
              (std::vector<int16_t>{0x3F00, static_cast<int16_t>(0xC080)}));
    EXPECT_EQ(count(function, *exec, QuickOpcode::kFMAF32Hw, nullptr, 0), 1);
  }
#endif
}

// Result forwarding, checked from the outside on every corpus function: an
// ...Acc form must directly follow, in the same block, an instruction whose
// result register (its last field, as rewritten) is the operand the form
// takes from acc.
TEST(QuickenedCodeTest, ForwardedOperandsAreThePreviousResult) {
  auto corpus = ember::testing::LoadCorpus(".embedded");
  if (corpus.empty()) GTEST_SKIP() << "no corpus (tools/ember_corpus.py build)";
  // Offset of the operand taken from acc, per form.
  auto acc_operand = [](uint8_t byte) -> int {
    switch (static_cast<QuickOpcode>(byte)) {
      case QuickOpcode::kAddI32AccL:
      case QuickOpcode::kSubI32AccL:
      case QuickOpcode::kMulI32AccL:
      case QuickOpcode::kAndI32AccL:
      case QuickOpcode::kOrI32AccL:
      case QuickOpcode::kXorI32AccL:
      case QuickOpcode::kShlI32AccL:
      case QuickOpcode::kShrI32SAccL:
      case QuickOpcode::kShrI32UAccL:
      case QuickOpcode::kAddI32ImmAcc:
      case QuickOpcode::kSubI32ImmAcc:
      case QuickOpcode::kMulI32ImmAcc:
      case QuickOpcode::kAndI32ImmAcc:
      case QuickOpcode::kOrI32ImmAcc:
      case QuickOpcode::kXorI32ImmAcc:
      case QuickOpcode::kShlI32ImmAcc:
      case QuickOpcode::kShrI32SImmAcc:
      case QuickOpcode::kShrI32UImmAcc:
      case QuickOpcode::kFMAI32AccA: return 1;
      case QuickOpcode::kFMAI32AccC: return 5;
      case QuickOpcode::kAddF32AccL:
      case QuickOpcode::kSubF32AccL:
      case QuickOpcode::kMulF32AccL:
      case QuickOpcode::kDivF32AccL:
      case QuickOpcode::kAddF32ImmAcc:
      case QuickOpcode::kSubF32ImmAcc:
      case QuickOpcode::kMulF32ImmAcc:
      case QuickOpcode::kFMAF32HwAccA:
      case QuickOpcode::kCastSI32F32Acc:
      case QuickOpcode::kCastUI32F32Acc: return 2;
      case QuickOpcode::kSubF32AccR:
      case QuickOpcode::kAddF32AccR:
      case QuickOpcode::kMulF32AccR:
      case QuickOpcode::kFMAF32HwAccB: return 4;
      case QuickOpcode::kFMAF32HwAccC: return 6;
      default: return -1;
    }
  };
  size_t forwarded = 0;
  for (const auto& entry : corpus) {
    SCOPED_TRACE(entry.name);
    auto loaded = bytecode::ModuleFile::LoadCopy(entry.bytes);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    const bytecode::ModuleFile& file = **loaded;
    for (size_t f = 0; f < file.def().function_descriptors.size(); ++f) {
      std::span<const uint8_t> function = file.FunctionBytecode(f);
      auto exec = MakeQuickenedCode(function);
      ASSERT_TRUE(exec.ok()) << exec.status().ToString();
      std::vector<DecodedInstruction> all = DecodeAll(function);
      for (size_t k = 0; k < all.size(); ++k) {
        int operand = acc_operand((*exec)[all[k].pc]);
        if (operand < 0) continue;
        ++forwarded;
        ASSERT_GT(k, 0u);
        const DecodedInstruction& previous = all[k - 1];
        ASSERT_FALSE(previous.info->has_flag(bytecode::kBlockMarker))
            << "forwarded across a block start at pc " << all[k].pc;
        const bytecode::DecodedField& result =
            previous.field(previous.field_count - 1);
        uint32_t result_at = result.offset;  // function-relative
        EXPECT_EQ(Slot(*exec, result_at), Slot(*exec, all[k].pc + operand))
            << "pc " << all[k].pc
            << " forwards a register the previous instruction "
            << "(" << previous.info->mnemonic << ") did not write";
      }
    }
  }
  EXPECT_GT(forwarded, 0u);
}

// bench/vm_loop's shape: the adjacent dependent pairs get forwarded.
TEST(QuickenedCodeTest, ForwardsTheLoopCarriedShape) {
  auto file = LoadOne("vm_ops_loops.embedded");
  if (!file) GTEST_SKIP() << "no corpus (tools/ember_corpus.py build)";
  std::span<const uint8_t> function =
      ExportedFunction(*file, "test_loop_carried_i32_f32");
  auto exec = MakeQuickenedCode(function);
  ASSERT_TRUE(exec.ok()) << exec.status().ToString();
  std::vector<uint8_t> bytes;
  for (const DecodedInstruction& instruction : DecodeAll(function)) {
    bytes.push_back((*exec)[instruction.pc]);
  }
  auto has = [&](QuickOpcode op) {
    return std::find(bytes.begin(), bytes.end(), static_cast<uint8_t>(op)) !=
           bytes.end();
  };
  // shr -> xor, and -> add, and (with the f32 forms, which need direct
  // ExtF32 opcodes) and -> cast, fma -> sub 1.25.
  EXPECT_TRUE(has(QuickOpcode::kXorI32AccL));
  EXPECT_TRUE(has(QuickOpcode::kAddI32AccL));
  EXPECT_EQ(has(QuickOpcode::kCastSI32F32Acc), kDirectExtF32);
  EXPECT_EQ(has(QuickOpcode::kSubF32ImmAcc), kDirectExtF32);
  // Without forwarding none of them appear.
  auto plain =
      MakeQuickenedCode(function, QuickenOptions{.forward_results = false});
  ASSERT_TRUE(plain.ok());
  for (const DecodedInstruction& instruction : DecodeAll(function)) {
    EXPECT_FALSE((*plain)[instruction.pc] ==
                 static_cast<uint8_t>(QuickOpcode::kXorI32AccL));
  }
}

using Assembler = ember::testing::BytecodeAssembler;

// A register that holds a constant on one path into a block and another
// value on the other is not a constant there; one that holds the same
// constant on both is, and a later vm.const.i32 into the same register
// makes it that constant from there on (ConstantFlow).
TEST(QuickenedCodeTest, ConstantsArePerUseAndMeetAtJoins) {
  for (int32_t other : {5, 7}) {
    Assembler a;
    a.Block();
    auto [on_true, on_false] = a.CondBranch(0);  // r0: the argument
    uint32_t then_block = a.Block();
    a.ConstI32(5, 1);
    size_t then_exit = a.Branch();
    uint32_t else_block = a.Block();
    a.ConstI32(other, 1);
    size_t else_exit = a.Branch();
    uint32_t join = a.Block();
    const uint32_t first_add = static_cast<uint32_t>(a.bytes().size());
    a.AddI32(0, 1, 2);  // r1 is 5, or 5 or 7
    a.ConstI32(-3, 1);  // the same register, now -3 on every path
    const uint32_t second_add = static_cast<uint32_t>(a.bytes().size());
    a.AddI32(1, 0, 3);
    a.Return({2, 3});
    a.Patch(on_true, then_block);
    a.Patch(on_false, else_block);
    a.Patch(then_exit, join);
    a.Patch(else_exit, join);
    // The function is well formed (it decodes to the end).
    ASSERT_FALSE(DecodeAll(a.bytes()).empty());

    auto exec =
        MakeQuickenedCode(a.bytes(), QuickenOptions{.forward_results = false});
    ASSERT_TRUE(exec.ok()) << exec.status().ToString();
    const std::vector<uint8_t>& code = *exec;
    if (other == 5) {
      EXPECT_EQ(code[first_add], static_cast<uint8_t>(QuickOpcode::kAddI32Imm));
      EXPECT_EQ(Slot(code, first_add + 3), 5);
    } else {
      EXPECT_EQ(code[first_add],
                static_cast<uint8_t>(bytecode::CoreOpcode::AddI32))
          << "r1 differs between the paths into the join";
    }
    // The constant moved from the left: lhs r0, immediate -3.
    EXPECT_EQ(code[second_add], static_cast<uint8_t>(QuickOpcode::kAddI32Imm));
    EXPECT_EQ(Slot(code, second_add + 1), 0);
    EXPECT_EQ(Slot(code, second_add + 3), -3);
  }
}

// Functions shaped to make the load-time analyses slow: they give up at
// their work budget (or stay linear) instead of taking seconds per
// kilobyte, and the copy is still made.
TEST(QuickenedCodeTest, HostileFunctionsStayWithinTheWorkBudget) {
  {
    // 2000 blocks chained backwards (each sweep learns one block more), a
    // register numbered 32000 live through all of them: 64 sweeps over a
    // million words if unbounded.
    Assembler a;
    a.Block();
    a.ConstI32(1, 32000);
    size_t entry_exit = a.Branch();
    std::vector<uint32_t> blocks;
    std::vector<size_t> exits;
    for (int k = 0; k < 2000; ++k) {
      blocks.push_back(a.Block());
      if (k == 0) {
        a.Return({32000});
      } else {
        exits.push_back(a.Branch());
      }
    }
    a.Patch(entry_exit, blocks.back());
    for (size_t k = 1; k < blocks.size(); ++k)
      a.Patch(exits[k - 1], blocks[k - 1]);
    ASSERT_FALSE(DecodeAll(a.bytes()).empty());
    QuickenStats stats;
    auto exec = MakeQuickenedCode(a.bytes(), {}, &stats);
    ASSERT_TRUE(exec.ok()) << exec.status().ToString();
    EXPECT_EQ(exec->size(), a.bytes().size());
    EXPECT_FALSE(stats.liveness_complete) << "gave up at the budget";
    EXPECT_LE(stats.liveness_work, stats.work_budget);
    EXPECT_LE(stats.constants_work, stats.work_budget);
    EXPECT_LE(stats.work_budget,
              size_t{300} * a.bytes().size() + (size_t{1} << 14));
  }
  {
    // A 5000-instruction block ending in a branch with 5000 copies whose
    // sources the block never computes: each copy's walk back would cross
    // the whole block.
    Assembler a;
    a.Block();
    for (int i = 0; i < 5000; ++i) a.AddI32(1, 1, 1);
    const size_t branch_pc = a.bytes().size();
    a.U8(static_cast<uint8_t>(bytecode::CoreOpcode::Branch));
    size_t target_at = a.bytes().size();
    a.U32(0);
    a.Pad();
    a.U16(5000);
    for (uint16_t k = 0; k < 5000; ++k) {
      a.U16(static_cast<uint16_t>(2 + 2 * k));
      a.U16(static_cast<uint16_t>(3 + 2 * k));
    }
    uint32_t exit = a.Block();
    a.Return({});
    a.Patch(target_at, exit);
    const size_t instructions = DecodeAll(a.bytes()).size();
    ASSERT_EQ(instructions, 5004u);
    QuickenStats stats;
    auto exec = MakeQuickenedCode(a.bytes(), {}, &stats);
    ASSERT_TRUE(exec.ok()) << exec.status().ToString();
    EXPECT_TRUE(stats.liveness_complete);
    EXPECT_LE(stats.copy_walk_steps, instructions);
    // No copy could go: the branch still carries all 5000.
    EXPECT_EQ((*exec)[branch_pc], static_cast<uint8_t>(QuickOpcode::kBrI32xN));
    EXPECT_EQ(
        Slot(*exec, static_cast<uint32_t>(branch_pc) + quick_layout::kBrCount),
        5000);
  }
}

// The i32 immediate forms on compiled code (tests/corpus/vm/ops_constants
// .mlir): x and y are list loads into registers that held constants
// before (the compiler reuses them), so only per-use constants see which
// operand is constant where.
TEST(QuickenedCodeTest, ImmediateFormsOfI32ConstantOperands) {
  auto file = LoadOne("vm_ops_constants.embedded");
  if (!file) GTEST_SKIP() << "no corpus (tools/ember_corpus.py build)";
  std::span<const uint8_t> function =
      ExportedFunction(*file, "test_constant_operands");
  auto exec =
      MakeQuickenedCode(function, QuickenOptions{.forward_results = false});
  ASSERT_TRUE(exec.ok()) << exec.status().ToString();
  struct Form {
    uint8_t opcode;  // in the copy
    int immediate;   // slot 2, when an immediate form
  };
  auto imm = [](QuickOpcode op, int value) {
    return Form{static_cast<uint8_t>(op), value};
  };
  auto kept = [](bytecode::CoreOpcode op) {
    return Form{static_cast<uint8_t>(op), 0};
  };
  using bytecode::CoreOpcode;
  const std::vector<Form> expected = {
      imm(QuickOpcode::kAddI32Imm, -5),     imm(QuickOpcode::kAddI32Imm, 32767),
      imm(QuickOpcode::kAddI32Imm, -32768), kept(CoreOpcode::AddI32),  // 100000
      imm(QuickOpcode::kSubI32Imm, 3),      kept(CoreOpcode::SubI32),  // 10 - x
      imm(QuickOpcode::kMulI32Imm, -3),     imm(QuickOpcode::kMulI32Imm, 300),
      imm(QuickOpcode::kAndI32Imm, 255),    imm(QuickOpcode::kAndI32Imm, -16),
      imm(QuickOpcode::kOrI32Imm, 7),       imm(QuickOpcode::kOrI32Imm, -32768),
      imm(QuickOpcode::kXorI32Imm, -1),     imm(QuickOpcode::kXorI32Imm, 32767),
      imm(QuickOpcode::kShlI32Imm, 4),      imm(QuickOpcode::kShrI32SImm, 1),
      imm(QuickOpcode::kShrI32UImm, 28),
  };
  std::vector<Form> seen;
  std::vector<uint16_t> left_operands;
  for (const DecodedInstruction& instruction : DecodeAll(function)) {
    static constexpr CoreOpcode kBinary[] = {
        CoreOpcode::AddI32, CoreOpcode::SubI32,  CoreOpcode::MulI32,
        CoreOpcode::AndI32, CoreOpcode::OrI32,   CoreOpcode::XorI32,
        CoreOpcode::ShlI32, CoreOpcode::ShrI32S, CoreOpcode::ShrI32U};
    if (instruction.info->set != bytecode::OpcodeSet::kCore ||
        std::find(std::begin(kBinary), std::end(kBinary),
                  static_cast<CoreOpcode>(instruction.info->opcode)) ==
            std::end(kBinary)) {
      continue;
    }
    uint8_t now = (*exec)[instruction.pc];
    bool rewritten = now != function[instruction.pc];
    seen.push_back(Form{now, rewritten ? Slot(*exec, instruction.pc + 3) : 0});
    left_operands.push_back(
        static_cast<uint16_t>(Slot(*exec, instruction.pc + 1)));
  }
  ASSERT_EQ(seen.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(int{seen[i].opcode}, int{expected[i].opcode}) << "op " << i;
    EXPECT_EQ(seen[i].immediate, expected[i].immediate) << "op " << i;
  }
  // Every immediate form keeps x or y (never a constant) as its register
  // operand: two distinct registers in all.
  std::vector<uint16_t> registers;
  for (size_t i = 0; i < seen.size(); ++i) {
    if (i != 3 && i != 5)
      registers.push_back(left_operands[i]);  // not the kept ones
  }
  std::sort(registers.begin(), registers.end());
  registers.erase(std::unique(registers.begin(), registers.end()),
                  registers.end());
  EXPECT_EQ(registers.size(), 2u);
}

}  // namespace
}  // namespace ember::vm::bytecode
