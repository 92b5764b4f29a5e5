#include "runtime/vm/bytecode/opcode_table.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ember::vm::bytecode {
namespace {

using enum FieldKind;

constexpr OpcodeSet kAllSets[] = {OpcodeSet::kCore, OpcodeSet::kExtF32,
                                  OpcodeSet::kExtF64};

// The numbers of VM_OPC definitions in IREE 3.11's VMOpcodesCore.td,
// VMOpcodesF32.td and VMOpcodesF64.td, plus vm.fpowi.f32 / vm.fpowi.f64 of
// 3.12 (the ExtF32Opcode / ExtF64Opcode enums of the 3.13 compiler's Python
// bindings list exactly these two more than 3.11's).
TEST(OpcodeTableTest, CountsMatchIree) {
  EXPECT_EQ(kCoreOpcodeCount, 139);
  EXPECT_EQ(kExtF32OpcodeCount, 63);
  EXPECT_EQ(kExtF64OpcodeCount, 65);
  EXPECT_EQ(OpcodesInSet(OpcodeSet::kCore).size(), 139u);
  EXPECT_EQ(OpcodesInSet(OpcodeSet::kExtF32).size(), 63u);
  EXPECT_EQ(OpcodesInSet(OpcodeSet::kExtF64).size(), 65u);
}

TEST(OpcodeTableTest, CoreRangeIsDenseAndExtensionsAreDense) {
  // Core: every byte 0x00..0x88 is an instruction, plus the two prefixes.
  for (int op = 0; op < 256; ++op) {
    bool expected = op <= 0x88 || op == 0xE0 || op == 0xE1;
    EXPECT_EQ(LookupOpcode(OpcodeSet::kCore, op) != nullptr, expected)
        << "core opcode " << op;
  }
  for (int op = 0; op < 256; ++op) {
    EXPECT_EQ(LookupOpcode(OpcodeSet::kExtF32, op) != nullptr, op <= 0x3E)
        << "ext_f32 opcode " << op;
    EXPECT_EQ(LookupOpcode(OpcodeSet::kExtF64, op) != nullptr, op <= 0x40)
        << "ext_f64 opcode " << op;
  }
}

TEST(OpcodeTableTest, NoDuplicatesAndLookupRoundTrips) {
  for (OpcodeSet set : kAllSets) {
    std::set<uint8_t> opcodes;
    std::set<std::string_view> names;
    std::set<std::string_view> mnemonics;
    for (const OpcodeInfo& info : OpcodesInSet(set)) {
      EXPECT_EQ(info.set, set);
      EXPECT_TRUE(opcodes.insert(info.opcode).second)
          << OpcodeSetName(set) << " duplicate opcode " << int{info.opcode};
      EXPECT_TRUE(names.insert(info.name).second) << info.name;
      EXPECT_TRUE(mnemonics.insert(info.mnemonic).second) << info.mnemonic;
      EXPECT_EQ(LookupOpcode(set, info.opcode), &info);
    }
  }
}

TEST(OpcodeTableTest, MnemonicsAreVmOpsOfTheRightType) {
  for (const OpcodeInfo& info : OpcodesInSet(OpcodeSet::kExtF32)) {
    EXPECT_NE(std::string_view(info.mnemonic).find("f32"), std::string::npos)
        << info.mnemonic;
  }
  for (const OpcodeInfo& info : OpcodesInSet(OpcodeSet::kExtF64)) {
    EXPECT_NE(std::string_view(info.mnemonic).find("f64"), std::string::npos)
        << info.mnemonic;
  }
  for (OpcodeSet set : kAllSets) {
    for (const OpcodeInfo& info : OpcodesInSet(set)) {
      EXPECT_EQ(std::string_view(info.mnemonic).substr(0, 3), "vm.");
    }
  }
}

TEST(OpcodeTableTest, FieldListsAreWellFormed) {
  for (OpcodeSet set : kAllSets) {
    for (const OpcodeInfo& info : OpcodesInSet(set)) {
      SCOPED_TRACE(info.mnemonic);
      ASSERT_LE(info.field_count, kMaxInstructionFields);
      EXPECT_EQ(info.fields[info.field_count].kind, kEnd);
      for (int i = 0; i < info.field_count; ++i) {
        const FieldInfo& field = info.fields[i];
        EXPECT_NE(field.kind, kEnd);
        ASSERT_NE(field.name, nullptr);
        EXPECT_NE(std::string_view(field.name), "");
        EXPECT_NE(GetFieldTraits(field.kind).encoding, FieldEncoding::kNone);
        // A remap list always belongs to the branch target before it.
        if (field.kind == kBranchRemap) {
          ASSERT_GT(i, 0);
          EXPECT_EQ(info.fields[i - 1].kind, kBranchTarget);
        }
      }
      // Only control flow has branch targets; they end blocks.
      bool has_target = false;
      for (const FieldInfo& field : info.field_span()) {
        has_target |= field.kind == kBranchTarget;
      }
      if (has_target) {
        EXPECT_TRUE(info.has_flag(kTerminator));
      }
      if (info.has_flag(kCall)) {
        EXPECT_EQ(info.fields[0].kind, kFuncOrdinal);
      }
    }
  }
}

TEST(OpcodeTableTest, TerminatorsAndMarkers) {
  std::set<std::string_view> terminators;
  for (const OpcodeInfo& info : OpcodesInSet(OpcodeSet::kCore)) {
    if (info.has_flag(kTerminator)) terminators.insert(info.name);
  }
  std::set<std::string_view> expected = {
      "Branch",        "CondBranch",
      "BranchTable",   "Return",
      "Fail",          "Yield",
      "CondBreak",     "Break",
      "CallYieldable", "CallVariadicYieldable"};
  EXPECT_EQ(terminators, expected);
  for (OpcodeSet set : {OpcodeSet::kExtF32, OpcodeSet::kExtF64}) {
    for (const OpcodeInfo& info : OpcodesInSet(set)) {
      EXPECT_EQ(info.flags, kNoFlags) << info.mnemonic;
    }
  }
  const OpcodeInfo* block = LookupOpcode(OpcodeSet::kCore, kBlockMarkerOpcode);
  ASSERT_NE(block, nullptr);
  EXPECT_TRUE(block->has_flag(kBlockMarker));
  EXPECT_EQ(block->field_count, 0);
  EXPECT_TRUE(LookupOpcode(OpcodeSet::kCore, 0xE0)->has_flag(kPrefix));
  EXPECT_TRUE(LookupOpcode(OpcodeSet::kCore, 0xE1)->has_flag(kPrefix));
  EXPECT_EQ(PrefixTarget(0xE0), OpcodeSet::kExtF32);
  EXPECT_EQ(PrefixTarget(0xE1), OpcodeSet::kExtF64);
}

// Spot checks of numbers and names against VMOpcodes*.td, spread over the
// groups (and over the out-of-order later additions).
TEST(OpcodeTableTest, SpotCheckNumbers) {
  struct Expect {
    OpcodeSet set;
    uint8_t opcode;
    const char* name;
    const char* mnemonic;
  };
  const Expect expectations[] = {
      {OpcodeSet::kCore, 0x00, "GlobalLoadI32", "vm.global.load.i32"},
      {OpcodeSet::kCore, 0x0B, "GlobalStoreIndirectRef",
       "vm.global.store.indirect.ref"},
      {OpcodeSet::kCore, 0x11, "ConstRefRodata", "vm.const.ref.rodata"},
      {OpcodeSet::kCore, 0x1A, "ListGetRef", "vm.list.get.ref"},
      {OpcodeSet::kCore, 0x21, "SwitchRef", "vm.switch.ref"},
      {OpcodeSet::kCore, 0x22, "AddI32", "vm.add.i32"},
      {OpcodeSet::kCore, 0x31, "FMAI64", "vm.fma.i64"},
      {OpcodeSet::kCore, 0x48, "ExtI32I64U", "vm.ext.i32.i64.u"},
      {OpcodeSet::kCore, 0x55, "CmpNZRef", "vm.cmp.nz.ref"},
      {OpcodeSet::kCore, 0x56, "Branch", "vm.br"},
      {OpcodeSet::kCore, 0x59, "CallVariadic", "vm.call.variadic"},
      {OpcodeSet::kCore, 0x5D, "Yield", "vm.yield"},
      {OpcodeSet::kCore, 0x61, "Break", "vm.break"},
      {OpcodeSet::kCore, 0x74, "BufferFillI64", "vm.buffer.fill.i64"},
      {OpcodeSet::kCore, 0x77, "AbsI32", "vm.abs.i32"},
      {OpcodeSet::kCore, 0x79, "Block", "vm.block"},
      {OpcodeSet::kCore, 0x81, "MaxI64U", "vm.max.i64.u"},
      {OpcodeSet::kCore, 0x82, "CastAnyRef", "vm.cast.any.ref"},
      {OpcodeSet::kCore, 0x83, "BranchTable", "vm.br_table"},
      {OpcodeSet::kCore, 0x84, "BufferHash", "vm.buffer.hash"},
      {OpcodeSet::kCore, 0x85, "DiscardRefs", "vm.discard.refs"},
      {OpcodeSet::kCore, 0x86, "AssignRef", "vm.assign.ref"},
      {OpcodeSet::kCore, 0x87, "CallYieldable", "vm.call.yieldable"},
      {OpcodeSet::kCore, 0x88, "CallVariadicYieldable",
       "vm.call.variadic.yieldable"},
      {OpcodeSet::kExtF32, 0x05, "ConstF32", "vm.const.f32"},
      {OpcodeSet::kExtF32, 0x29, "ErfF32", "vm.erf.f32"},
      {OpcodeSet::kExtF32, 0x32, "CmpNaNF32", "vm.cmp.nan.f32"},
      {OpcodeSet::kExtF32, 0x36, "RoundF32", "vm.round.f32"},
      {OpcodeSet::kExtF32, 0x39, "RoundF32Even", "vm.round.f32.even"},
      {OpcodeSet::kExtF32, 0x3D, "CastUI64F32", "vm.cast.ui64.f32"},
      {OpcodeSet::kExtF64, 0x14, "TruncF64F32", "vm.trunc.f64.f32"},
      {OpcodeSet::kExtF64, 0x15, "ExtF32F64", "vm.ext.f32.f64"},
      {OpcodeSet::kExtF64, 0x1F, "BitcastF64I64", "vm.bitcast.f64.i64"},
      {OpcodeSet::kExtF64, 0x2F, "ErfF64", "vm.erf.f64"},
      {OpcodeSet::kExtF64, 0x3B, "BufferFillF64", "vm.buffer.fill.f64"},
      {OpcodeSet::kExtF64, 0x3F, "RoundF64Even", "vm.round.f64.even"},
      {OpcodeSet::kExtF32, 0x3E, "FPowIF32", "vm.fpowi.f32"},
      {OpcodeSet::kExtF64, 0x40, "FPowIF64", "vm.fpowi.f64"},
  };
  for (const Expect& e : expectations) {
    const OpcodeInfo* info = LookupOpcode(e.set, e.opcode);
    ASSERT_NE(info, nullptr) << e.name;
    EXPECT_STREQ(info->name, e.name);
    EXPECT_STREQ(info->mnemonic, e.mnemonic);
  }
  EXPECT_EQ(static_cast<int>(CoreOpcode::CallVariadicYieldable), 0x88);
  EXPECT_EQ(static_cast<int>(ExtF32Opcode::CastSI64F32), 0x3C);
  EXPECT_EQ(static_cast<int>(ExtF64Opcode::CastF64UI32), 0x19);
}

// The field lists of instructions whose shape is easy to get wrong.
TEST(OpcodeTableTest, SpotCheckFieldOrder) {
  auto kinds = [](OpcodeSet set, uint8_t opcode) {
    std::vector<FieldKind> result;
    for (const FieldInfo& f : LookupOpcode(set, opcode)->field_span()) {
      result.push_back(f.kind);
    }
    return result;
  };
  using V = std::vector<FieldKind>;
  // The type ordinal sits between the condition and the values.
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x1E),
            (V{kRegI32, kTypeOrdinal, kRegRefMove, kRegRefMove, kResRefMove}));
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x21),
            (V{kRegI32, kTypeOrdinal, kRegRefMove, kListRefMove, kResRefMove}));
  // The element type comes first in list.alloc, last-but-one in list.get.ref.
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x12),
            (V{kTypeOrdinal, kRegI32, kResRefMove}));
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x1A),
            (V{kRegRef, kRegI32, kTypeOrdinal, kResRefMove}));
  // Buffer offsets and lengths are i64; alignment is i32.
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x6D),
            (V{kRegRef, kRegI64, kRegI64, kRegI32, kResRefMove}));
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x70),
            (V{kRegRef, kRegI64, kRegRef, kRegI64, kRegI64, kResI32}));
  // i64 shifts take an i32 amount.
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x3D), (V{kRegI64, kRegI32, kResI64}));
  // Comparisons of i64 produce an i32.
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x52), (V{kRegI64, kResI32}));
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x83),
            (V{kRegI32, kBranchTarget, kBranchRemap, kBranchTableCases}));
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x87),
            (V{kFuncOrdinal, kListAny, kBranchTarget, kListResults}));
  EXPECT_EQ(
      kinds(OpcodeSet::kCore, 0x88),
      (V{kFuncOrdinal, kSegmentSizes, kListAny, kBranchTarget, kListResults}));
  EXPECT_EQ(kinds(OpcodeSet::kCore, 0x60),
            (V{kRegI32, kBranchTarget, kBranchRemap}));
  EXPECT_EQ(kinds(OpcodeSet::kExtF64, 0x14), (V{kRegF64, kResF32}));
  EXPECT_EQ(kinds(OpcodeSet::kExtF32, 0x35),
            (V{kRegRef, kRegI64, kRegI64, kRegF32}));
}

TEST(OpcodeTableTest, FieldTraits) {
  EXPECT_TRUE(IsWideOperandType(GetFieldTraits(kRegI64).type));
  EXPECT_TRUE(IsWideOperandType(GetFieldTraits(kResF64).type));
  EXPECT_FALSE(IsWideOperandType(GetFieldTraits(kRegF32).type));
  EXPECT_FALSE(GetFieldTraits(kRegRef).allows_move);
  EXPECT_TRUE(GetFieldTraits(kRegRefMove).allows_move);
  EXPECT_TRUE(GetFieldTraits(kResRefMove).is_write);
  EXPECT_FALSE(GetFieldTraits(kListAny).is_write);
  EXPECT_TRUE(GetFieldTraits(kListResults).is_write);
  EXPECT_EQ(GetFieldTraits(kImmF64).encoding, FieldEncoding::kU64);
  EXPECT_EQ(GetFieldTraits(kSegmentSizes).encoding,
            FieldEncoding::kRegisterList);
  EXPECT_STREQ(FieldKindName(kBranchTableCases), "BranchTableCases");
}

}  // namespace
}  // namespace ember::vm::bytecode
