// What modules of IREE 3.12+ need of the bytecode layer beyond 3.11's:
//
//  * vm.fpowi.f32 / vm.fpowi.f64: encoding, verification and results bit
//    for bit as IREE 3.13's runtime computes them. The module is hand-built
//    (the pinned 3.11 compiler of the corpus cannot emit the op); its two
//    functions take the base's bits and the exponent and return the
//    result's bits:
//
//      powi_f32(i32 bits @ %i0, i64 n @ %i2:3) -> i32:  E0 3E i0 i2 -> i1
//      powi_f64(i64 bits @ %i0:1, i64 n @ %i2:3) -> i64: E1 40 i0 i2 -> i4
//
//    The expected results were measured on the official 3.13 runtime (a
//    module compiled by iree-compile 3.13 with the same functions, bitcasts
//    around vm.fpowi, called through iree.runtime);
//    tests/python/test_vm_fpowi.py repeats the comparison live over a
//    larger grid.
//  * Functions whose arguments lie past their declared register count:
//    iree-as-module (3.12+) counts only the registers instructions name, so
//    an unused argument has no register (IREE main's control_flow_ops).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/testing/bytecode_assembler.h"
#include "runtime/testing/flat_writer.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/module_def.h"
#include "runtime/vm/bytecode/module_file.h"
#include "runtime/vm/bytecode/opcode_table.h"
#include "runtime/vm/bytecode/verifier.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"

namespace ember::vm::bytecode {
namespace {

using ember::testing::BytecodeAssembler;
using ember::testing::FlatWriter;

struct TestFunction {
  std::string name;
  std::string cconv;
  std::vector<uint8_t> code;
  uint16_t i32_count = 0;
  uint32_t requirements = 0;
  uint16_t ref_count = 0;
};

// A module of exported functions (every root slot a function needs, nothing
// else).
std::vector<uint8_t> BuildModule(const std::vector<TestFunction>& functions) {
  FlatWriter w;
  // Root slots: 0 name, 7 exported_functions, 8 function_signatures,
  // 11 module_state, 12 function_descriptors, 13 bytecode_version,
  // 14 bytecode_data.
  const size_t root = w.Table({0, 7, 8, 11, 12, 13, 14});
  auto word = [root](int k) { return root + 4 + 4 * static_cast<size_t>(k); };
  w.Link(0, root);
  w.Put32(word(5), 17u << 16);
  w.Link(word(0), w.String("fpowi"));
  const size_t exports = w.OffsetVector(functions.size());
  w.Link(word(1), exports);
  std::vector<size_t> export_tables;
  for (size_t i = 0; i < functions.size(); ++i) {
    const size_t table = w.Table({0, 1});  // local_name, internal_ordinal
    w.Put32(table + 8, static_cast<uint32_t>(i));
    w.Link(exports + 4 + 4 * i, table);
    export_tables.push_back(table);
  }
  const size_t signatures = w.OffsetVector(functions.size());
  w.Link(word(2), signatures);
  std::vector<size_t> signature_tables;
  for (size_t i = 0; i < functions.size(); ++i) {
    const size_t table = w.Table({0});  // calling_convention
    w.Link(signatures + 4 + 4 * i, table);
    signature_tables.push_back(table);
  }
  w.Link(word(3), w.Table({0, 1}));  // module_state: no globals
  std::vector<uint8_t> descriptors;
  std::vector<uint8_t> bytecode;
  auto put = [&descriptors](uint32_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      descriptors.push_back(static_cast<uint8_t>(value >> (8 * i)));
    }
  };
  for (const TestFunction& f : functions) {
    while (bytecode.size() % 4) bytecode.push_back(0);
    put(static_cast<uint32_t>(bytecode.size()), 4);
    put(static_cast<uint32_t>(f.code.size()), 4);
    put(f.requirements, 4);
    put(0, 2);  // reserved
    put(1, 2);  // block_count
    put(f.i32_count, 2);
    put(f.ref_count, 2);
    bytecode.insert(bytecode.end(), f.code.begin(), f.code.end());
  }
  w.Link(word(4), w.ScalarVector(descriptors, functions.size()));
  w.Link(word(6), w.ScalarVector(bytecode, bytecode.size()));
  for (size_t i = 0; i < functions.size(); ++i) {
    w.Link(export_tables[i] + 4, w.String(functions[i].name));
    w.Link(signature_tables[i] + 4, w.String(functions[i].cconv));
  }
  return w.Archive();
}

// prefix opcode lhs rhs result, then vm.return result.
std::vector<uint8_t> PowICode(uint8_t prefix, uint8_t opcode, uint16_t lhs,
                              uint16_t rhs, uint16_t result) {
  BytecodeAssembler a;
  a.Block();
  a.U8(prefix);
  a.U8(opcode);
  a.U16(lhs);
  a.U16(rhs);
  a.U16(result);
  a.Return({result});
  return a.bytes();
}

TestFunction PowIF32Function(uint16_t lhs = 0, uint16_t rhs = 2,
                             uint16_t result = 1) {
  return {
      "powi_f32", "0iI_i",
      PowICode(kPrefixExtF32Opcode,
               static_cast<uint8_t>(ExtF32Opcode::FPowIF32), lhs, rhs, result),
      4, kFeatureExtF32};
}
TestFunction PowIF64Function(uint16_t lhs = 0, uint16_t rhs = 2,
                             uint16_t result = 4) {
  return {
      "powi_f64", "0II_I",
      PowICode(kPrefixExtF64Opcode,
               static_cast<uint8_t>(ExtF64Opcode::FPowIF64), lhs, rhs, result),
      6, kFeatureExtF64};
}

TEST(FPowITest, TableEntries) {
  const OpcodeInfo* f32 = LookupOpcode(OpcodeSet::kExtF32, 0x3E);
  ASSERT_NE(f32, nullptr);
  EXPECT_STREQ(f32->mnemonic, "vm.fpowi.f32");
  const OpcodeInfo* f64 = LookupOpcode(OpcodeSet::kExtF64, 0x40);
  ASSERT_NE(f64, nullptr);
  EXPECT_STREQ(f64->mnemonic, "vm.fpowi.f64");
}

// The bytes of iree-compile 3.13's vm.fpowi.f32 %i0, %i2:3 -> %i0 (from
// `iree-dump-module` of a 3.13 module: E0 3E 0000 0200 0000), decoded.
TEST(FPowITest, DecodesTheCompilersEncoding) {
  const std::vector<uint8_t> code = {0x79, 0xE0, 0x3E, 0x00, 0x00,
                                     0x02, 0x00, 0x00, 0x00};
  DecodedInstruction decoded;
  ASSERT_TRUE(DecodeInstruction(code, 1, &decoded).ok());
  EXPECT_STREQ(decoded.info->mnemonic, "vm.fpowi.f32");
  EXPECT_EQ(decoded.next_pc, 9u);
  EXPECT_EQ(DisassembleInstruction(decoded), "%i0 = vm.fpowi.f32 %i0, %i2:3");
  const std::vector<uint8_t> code64 = {0x79, 0xE1, 0x40, 0x00, 0x00,
                                       0x02, 0x00, 0x04, 0x00};
  ASSERT_TRUE(DecodeInstruction(code64, 1, &decoded).ok());
  EXPECT_STREQ(decoded.info->mnemonic, "vm.fpowi.f64");
  EXPECT_EQ(decoded.next_pc, 9u);
  EXPECT_EQ(DisassembleInstruction(decoded),
            "%i4:5 = vm.fpowi.f64 %i0:1, %i2:3");
}

Status Verify(const TestFunction& function) {
  auto file = ModuleFile::LoadCopy(BuildModule({function}));
  if (!file.ok()) return file.status();
  return VerifyModuleBytecode(**file);
}

TEST(FPowITest, VerifierChecksEveryOperand) {
  EXPECT_TRUE(Verify(PowIF32Function()).ok());
  EXPECT_TRUE(Verify(PowIF64Function()).ok());
  // The exponent is an i64: an odd register is no pair.
  Status odd = Verify(PowIF32Function(0, 1, 0));
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(odd.ToString().find("odd register"), std::string::npos)
      << odd.ToString();
  // f64 base and result are pairs too.
  EXPECT_FALSE(Verify(PowIF64Function(1, 2, 4)).ok());
  EXPECT_FALSE(Verify(PowIF64Function(0, 2, 5)).ok());
  // A ref register is no float.
  EXPECT_FALSE(Verify(PowIF32Function(kRefRegisterBit, 2, 1)).ok());
  // Out of range (4 int registers).
  EXPECT_FALSE(Verify(PowIF32Function(0, 2, 4)).ok());
  EXPECT_FALSE(Verify(PowIF32Function(0, 4, 1)).ok());
  // The function must declare the extension.
  TestFunction undeclared = PowIF32Function();
  undeclared.requirements = 0;
  Status status = Verify(undeclared);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.ToString().find("EXT_F32"), std::string::npos)
      << status.ToString();
  // Truncated operands.
  TestFunction cut = PowIF64Function();
  cut.code.resize(6);
  EXPECT_FALSE(Verify(cut).ok());
}

struct F32Case {
  uint32_t base;
  int64_t exponent;
  uint32_t expected;
};
struct F64Case {
  uint64_t base;
  int64_t exponent;
  uint64_t expected;
};

// Measured on IREE 3.13's runtime (see the top of the file). They cover
// rounding of the repeated squaring (1.1^100 is not the correctly rounded
// pow), overflow to inf and underflow through an infinite intermediate
// (2^-149 is 0, 0.5^149 the least subnormal), exponents truncated to 32
// bits (2^31 + 1 is -(2^31 - 1), 2^40 is 0, INT64_MAX is -1, INT64_MIN
// is 0), signed zeros, infinities, quiet and signalling NaNs (n = 1
// returns a signalling NaN unquieted) and subnormal bases.
constexpr F32Case kF32Cases[] = {
    {0x3FC00000u, 3, 0x40580000u},
    {0x3F8CCCCDu, 100, 0x46575297u},
    {0x3F8CCCCDu, -100, 0x38982E53u},
    {0x40000000u, 127, 0x7F000000u},
    {0x40000000u, 128, 0x7F800000u},
    {0x40000000u, -126, 0x00800000u},
    {0x40000000u, -149, 0x00000000u},
    {0x40000000u, -150, 0x00000000u},
    {0x3F800001u, 2147483649, 0x00000000u},
    {0x3F800001u, 2147483647, 0x7F800000u},
    {0x3FC00000u, 1099511627776, 0x3F800000u},
    {0xBF800000u, INT64_MAX, 0xBF800000u},
    {0xBF800000u, INT64_MIN, 0x3F800000u},
    {0xBF800000u, -2147483648, 0x3F800000u},
    {0x3F800001u, 4294967299, 0x3F800003u},
    {0x00000000u, -1, 0x7F800000u},
    {0x80000000u, -1, 0xFF800000u},
    {0x80000000u, -2, 0x7F800000u},
    {0x80000000u, 3, 0x80000000u},
    {0x80000000u, 0, 0x3F800000u},
    {0x7FC00000u, 0, 0x3F800000u},
    {0x7FA00000u, 1, 0x7FA00000u},
    {0x7FA00000u, 2, 0x7FE00000u},
    {0x7FA00000u, -1, 0x7FE00000u},
    {0xFFC00001u, 3, 0xFFC00001u},
    {0x7F800000u, -2, 0x00000000u},
    {0xFF800000u, 3, 0xFF800000u},
    {0xFF800000u, -3, 0x80000000u},
    {0x00000001u, 1, 0x00000001u},
    {0x00000001u, -1, 0x7F800000u},
    {0x007FFFFFu, 2, 0x00000000u},
    {0x3F000000u, 149, 0x00000001u},
    {0x3F000000u, 150, 0x00000000u},
    {0x3F7FFFFFu, INT64_MAX, 0x3F800001u},
    {0x3F7FFFFFu, 12345, 0x3F7FCFCAu},
    {0xC0400000u, -7, 0xB9EFBAB4u},
    {0x3DCCCCCDu, 37, 0x02081CF6u},
};
constexpr F64Case kF64Cases[] = {
    {0x3FF8000000000000ull, 3, 0x400B000000000000ull},
    {0x3FF199999999999Aull, 100, 0x40CAEA4E6126BB8Cull},
    {0x3FF199999999999Aull, -100, 0x3F1305CD81A57244ull},
    {0x4000000000000000ull, 1023, 0x7FE0000000000000ull},
    {0x4000000000000000ull, 1024, 0x7FF0000000000000ull},
    {0x4000000000000000ull, -1074, 0x0000000000000000ull},
    {0x4000000000000000ull, -1075, 0x0000000000000000ull},
    {0x3FF0000000000001ull, 2147483649, 0x3FEFFFFF00000422ull},
    {0x3FF0000000000001ull, 2147483647, 0x3FF00000800001EFull},
    {0x3FF8000000000000ull, 1099511627776, 0x3FF0000000000000ull},
    {0xBFF0000000000000ull, INT64_MAX, 0xBFF0000000000000ull},
    {0xBFF0000000000000ull, INT64_MIN, 0x3FF0000000000000ull},
    {0x3FF0000000000001ull, 4294967299, 0x3FF0000000000003ull},
    {0x0000000000000000ull, -1, 0x7FF0000000000000ull},
    {0x8000000000000000ull, -1, 0xFFF0000000000000ull},
    {0x8000000000000000ull, 3, 0x8000000000000000ull},
    {0x7FF8000000000000ull, 0, 0x3FF0000000000000ull},
    {0x7FF4000000000000ull, 1, 0x7FF4000000000000ull},
    {0x7FF4000000000000ull, -1, 0x7FFC000000000000ull},
    {0x7FF0000000000000ull, -2, 0x0000000000000000ull},
    {0xFFF0000000000000ull, 3, 0xFFF0000000000000ull},
    {0x0000000000000001ull, 1, 0x0000000000000001ull},
    {0x0000000000000001ull, -1, 0x7FF0000000000000ull},
    {0x000FFFFFFFFFFFFFull, 2, 0x0000000000000000ull},
    {0x3FE0000000000000ull, 1074, 0x0000000000000001ull},
    {0x3FE0000000000000ull, 1075, 0x0000000000000000ull},
    {0x3FEFFFFFFFFFFFFFull, INT64_MAX, 0x3FF0000000000001ull},
    {0xC008000000000000ull, -7, 0xBF3DF75680FEB65Full},
    {0x3FB999999999999Aull, 37, 0x3841039D428A8BA2ull},
    {0x3FF0000000000001ull, -2147483648, 0x3FEFFFFF00000420ull},
};

class FPowIRunTest : public ::testing::TestWithParam<bool> {};

TEST_P(FPowIRunTest, MatchesTheOfficialRuntimeBitForBit) {
  std::shared_ptr<Instance> instance = Instance::Create();
  auto file =
      ModuleFile::LoadCopy(BuildModule({PowIF32Function(), PowIF64Function()}));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  BytecodeModule::Options options;
  options.rewrite_bytecode = GetParam();
  auto module = BytecodeModule::Create(instance, *file, options);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  std::vector<std::shared_ptr<Module>> modules = {*module};
  auto context = Context::Create(instance, modules);
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  auto f32 = (*context)->LookupFunction("fpowi.powi_f32");
  auto f64 = (*context)->LookupFunction("fpowi.powi_f64");
  ASSERT_TRUE(f32.ok() && f64.ok());
  for (const F32Case& c : kF32Cases) {
    std::vector<Variant> args = {
        Variant(Value::I32(static_cast<int32_t>(c.base))),
        Variant(Value::I64(c.exponent))};
    auto results = (*context)->Invoke(*f32, args);
    ASSERT_TRUE(results.ok()) << results.status().ToString();
    EXPECT_EQ(static_cast<uint32_t>((*results)[0].value().i32()), c.expected)
        << std::hex << "f32 0x" << c.base << " ^ " << std::dec << c.exponent;
  }
  for (const F64Case& c : kF64Cases) {
    std::vector<Variant> args = {
        Variant(Value::I64(static_cast<int64_t>(c.base))),
        Variant(Value::I64(c.exponent))};
    auto results = (*context)->Invoke(*f64, args);
    ASSERT_TRUE(results.ok()) << results.status().ToString();
    EXPECT_EQ(static_cast<uint64_t>((*results)[0].value().i64()), c.expected)
        << std::hex << "f64 0x" << c.base << " ^ " << std::dec << c.exponent;
  }
}

INSTANTIATE_TEST_SUITE_P(QuickenedCopy, FPowIRunTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Rewritten" : "AsEncoded";
                         });

// `vm.func @f(%i0: i32, %i1: i64, %r0: !vm.ref<?>) -> i32` that returns a
// constant, declared with 1 int register (for the constant) and no ref
// register, as iree-as-module writes it; and a caller that passes it all
// three. The frame must still hold the arguments.
TEST(UnusedArgumentsTest, RunFromTheHostAndFromBytecode) {
  BytecodeAssembler callee;
  callee.Block();
  callee.ConstI32(42, 0);
  callee.Return({0});
  BytecodeAssembler caller;  // (i32, i64) -> i32: passes a null ref too
  caller.Block();
  caller.Call(0, {0, 2, kRefRegisterBit}, {0});
  caller.Return({0});
  TestFunction f{"f", "0iIr_i", callee.bytes(), /*i32_count=*/1, 0};
  TestFunction g{"g",
                 "0iI_i",
                 caller.bytes(),
                 /*i32_count=*/4,
                 0,
                 /*ref_count=*/1};
  std::vector<uint8_t> bytes = BuildModule({f, g});
  auto file = ModuleFile::LoadCopy(bytes);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  std::shared_ptr<Instance> instance = Instance::Create();
  for (bool rewrite : {true, false}) {
    BytecodeModule::Options options;
    options.rewrite_bytecode = rewrite;
    auto module = BytecodeModule::Create(instance, *file, options);
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    EXPECT_GE((*module)->function_info(0).i32_register_count, 4u);
    EXPECT_GE((*module)->function_info(0).ref_register_count, 1u);
    std::vector<std::shared_ptr<Module>> modules = {*module};
    auto context = Context::Create(instance, modules);
    ASSERT_TRUE(context.ok()) << context.status().ToString();
    auto f_function = (*context)->LookupFunction("fpowi.f");
    auto g_function = (*context)->LookupFunction("fpowi.g");
    ASSERT_TRUE(f_function.ok() && g_function.ok());
    std::vector<Variant> args = {Variant(Value::I32(7)),
                                 Variant(Value::I64(-1)), Variant()};
    auto results = (*context)->Invoke(*f_function, args);
    ASSERT_TRUE(results.ok()) << results.status().ToString();
    EXPECT_EQ((*results)[0].value().i32(), 42);
    args.pop_back();
    results = (*context)->Invoke(*g_function, args);
    ASSERT_TRUE(results.ok()) << results.status().ToString();
    EXPECT_EQ((*results)[0].value().i32(), 42);
  }
}

}  // namespace
}  // namespace ember::vm::bytecode
