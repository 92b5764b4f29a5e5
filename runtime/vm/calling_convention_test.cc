// Tests of cconv parsing: the character mapping, syntax errors and their
// messages, register assignment, variadic spans, and the constexpr check.
#include "runtime/vm/calling_convention.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ember::vm {
namespace {

// The syntax check runs at compile time (native modules rely on it).
static_assert(CheckCallingConventionSyntax("0iI_r").ok());
static_assert(CheckCallingConventionSyntax("0v_v").ok());
static_assert(CheckCallingConventionSyntax("0rCiD_v").arguments_have_span);
static_assert(CheckCallingConventionSyntax("0i_").error ==
              CconvError::kEmptySide);
static_assert(CheckCallingConventionSyntax("0CCiDD_v").error ==
              CconvError::kNestedSpan);
static_assert(CheckCallingConventionSyntax("0ix_v").bad_char == 'x');

TEST(CallingConvention, CharacterMapping) {
  const struct {
    char c;
    CconvType type;
    ValueType value_type;
    const char* name;
    bool wide;
  } kCases[] = {
      {'i', CconvType::kI32, ValueType::kI32, "i32", false},
      {'I', CconvType::kI64, ValueType::kI64, "i64", true},
      {'f', CconvType::kF32, ValueType::kF32, "f32", false},
      {'F', CconvType::kF64, ValueType::kF64, "f64", true},
      {'r', CconvType::kRef, ValueType::kNone, "ref", false},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.c);
    EXPECT_EQ(CconvTypeOfChar(c.c), c.type);
    EXPECT_EQ(CconvChar(c.type), c.c);
    EXPECT_EQ(ValueTypeOfCconv(c.type), c.value_type);
    EXPECT_STREQ(CconvTypeName(c.type), c.name);
    EXPECT_EQ(IsWideCconvType(c.type), c.wide);
    EXPECT_TRUE(IsCconvValue(c.type));
  }
  EXPECT_EQ(CconvTypeOfChar('C'), CconvType::kSpanBegin);
  EXPECT_EQ(CconvTypeOfChar('D'), CconvType::kSpanEnd);
  EXPECT_FALSE(IsCconvValue(CconvType::kSpanBegin));
  for (char c : std::string("v0_xX \0", 7)) {
    EXPECT_EQ(CconvTypeOfChar(c), CconvType::kInvalid) << int(c);
  }
}

TEST(CallingConvention, ParsesSpansAndVoid) {
  auto cconv = ParseCallingConvention("0rIrrCrIID_v");
  ASSERT_TRUE(cconv.ok());
  EXPECT_EQ(cconv->text, "0rIrrCrIID_v");
  EXPECT_EQ(cconv->arguments.text, "rIrrCrIID");
  EXPECT_EQ(cconv->results.text, "");
  EXPECT_TRUE(cconv->arguments.has_span);
  EXPECT_FALSE(cconv->results.has_span);
  EXPECT_EQ(cconv->results.size(), 0u);
  auto empty = ParseCallingConvention("0v_v");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->arguments.text.empty());
  EXPECT_EQ(empty->arguments.size(), 0u);
  EXPECT_EQ(empty->arguments.i32_registers, 0u);
}

TEST(CallingConvention, SpansArePaired) {
  auto cconv = ParseCallingConvention("0iCrID_v");
  ASSERT_TRUE(cconv.ok());
  const CconvSide& arguments = cconv->arguments;
  ASSERT_EQ(arguments.size(), 5u);
  EXPECT_EQ(arguments[1].type, CconvType::kSpanBegin);
  EXPECT_EQ(arguments[1].ordinal, 4u);
  EXPECT_EQ(arguments[4].type, CconvType::kSpanEnd);
  EXPECT_EQ(arguments[4].ordinal, 1u);

  auto two = ParseCallingConvention("0CiDrCrD_i");
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->arguments[0].ordinal, 2u);
  EXPECT_EQ(two->arguments[4].ordinal, 6u);
  EXPECT_EQ(two->arguments[6].ordinal, 4u);
}

TEST(CallingConvention, RegisterAssignment) {
  // i64/f64 start at an even i32 register and take two; refs count apart.
  auto cconv = ParseCallingConvention("0iIrfFiri_Ii");
  ASSERT_TRUE(cconv.ok());
  const CconvSide& arguments = cconv->arguments;
  std::vector<uint32_t> ordinals;
  for (const CconvSlot& slot : arguments.slots)
    ordinals.push_back(slot.ordinal);
  //                     i  I  r  f  F  i  r  i
  EXPECT_EQ(ordinals, (std::vector<uint32_t>{0, 2, 0, 4, 6, 8, 1, 9}));
  EXPECT_EQ(arguments.i32_registers, 10u);
  EXPECT_EQ(arguments.ref_registers, 2u);
  EXPECT_FALSE(arguments.has_span);
  // Results are assigned the same way.
  EXPECT_EQ(cconv->results[0].ordinal, 0u);
  EXPECT_EQ(cconv->results[1].ordinal, 2u);
  EXPECT_EQ(cconv->results.i32_registers, 3u);

  auto aligned = ParseCallingConvention("0IiF_v");
  ASSERT_TRUE(aligned.ok());
  EXPECT_EQ(aligned->arguments[0].ordinal, 0u);
  EXPECT_EQ(aligned->arguments[1].ordinal, 2u);
  EXPECT_EQ(aligned->arguments[2].ordinal, 4u);
  EXPECT_EQ(aligned->arguments.i32_registers, 6u);
}

TEST(CallingConvention, Errors) {
  const struct {
    const char* cconv;
    const char* message;
  } kCases[] = {
      {"", "must start with version '0'"},
      {"0", "must start with version '0'"},
      {"1i_v", "must start with version '0'"},
      {"0iv", "missing '_' between arguments and results"},
      {"0_v", "empty side (use 'v')"},
      {"0i_", "empty side (use 'v')"},
      {"0CiCiDD_v", "nested variadic span"},
      {"0iD_v", "'D' without 'C'"},
      {"0CD_v", "empty span"},
      {"0Ci_v", "unterminated variadic span"},
      {"0ix_v", "unknown type character 0x78"},
      {"0i_i_i", "unknown type character 0x5f"},
      {"0vi_v", "unknown type character 0x76"},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.cconv);
    auto parsed = ParseCallingConvention(c.cconv);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(parsed.status().message(), c.message);
    CconvSyntax syntax = CheckCallingConventionSyntax(c.cconv);
    EXPECT_FALSE(syntax.ok());
    EXPECT_EQ(CconvSyntaxStatus(syntax).message(), c.message);
  }
  EXPECT_TRUE(CconvSyntaxStatus(CheckCallingConventionSyntax("0i_i")).ok());
}

}  // namespace
}  // namespace ember::vm
