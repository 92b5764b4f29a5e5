#include "runtime/hal/element_type.h"

#include <gtest/gtest.h>

namespace ember::hal {
namespace {

TEST(ElementTypeTest, ValuesAreIreeEncoding) {
  EXPECT_EQ(static_cast<uint32_t>(ElementType::kFloat32), 0x21000020u);
  EXPECT_EQ(static_cast<uint32_t>(ElementType::kFloat16), 0x21000010u);
  EXPECT_EQ(static_cast<uint32_t>(ElementType::kBfloat16), 0x22000010u);
  EXPECT_EQ(static_cast<uint32_t>(ElementType::kInt32), 0x10000020u);
  EXPECT_EQ(static_cast<uint32_t>(ElementType::kBool8), 0x13000008u);
  EXPECT_EQ(static_cast<uint32_t>(ElementType::kComplexFloat128), 0x23000080u);
  EXPECT_EQ(static_cast<uint32_t>(ElementType::kFloat8E8M0FNU), 0x28000008u);
}

TEST(ElementTypeTest, Queries) {
  EXPECT_EQ(BitCount(ElementType::kFloat64), 64u);
  EXPECT_EQ(DenseByteCount(ElementType::kInt4), 1u);
  EXPECT_FALSE(IsByteAligned(ElementType::kUint4));
  EXPECT_TRUE(IsInteger(ElementType::kBool8));  // all INTEGER bits set
  EXPECT_TRUE(IsBoolean(ElementType::kBool8));
  EXPECT_FALSE(IsBoolean(ElementType::kSint8));
  EXPECT_TRUE(IsFloat(ElementType::kComplexFloat64));
  EXPECT_TRUE(IsFloat(ElementType::kFloat8E4M3FN));
  EXPECT_FALSE(IsFloat(ElementType::kInt32));
  EXPECT_TRUE(IsOpaque(ElementType::kOpaque32));
  EXPECT_TRUE(IsIntegerOfWidth(ElementType::kUint16, 16));
  EXPECT_FALSE(IsIntegerOfWidth(ElementType::kFloat16, 16));
}

TEST(ElementTypeTest, ParseAndFormatRoundTrip) {
  const std::pair<const char*, ElementType> cases[] = {
      {"f32", ElementType::kFloat32},
      {"f16", ElementType::kFloat16},
      {"bf16", ElementType::kBfloat16},
      {"i8", ElementType::kInt8},
      {"si8", ElementType::kSint8},
      {"ui64", ElementType::kUint64},
      {"i1", ElementType::kBool8},
      {"cf64", ElementType::kComplexFloat64},
      {"f8E4M3FN", ElementType::kFloat8E4M3FN},
      {"f8E5M2FNUZ", ElementType::kFloat8E5M2FNUZ},
      {"f8E8M0FNU", ElementType::kFloat8E8M0FNU},
      {"i4", ElementType::kInt4},
  };
  for (const auto& [text, type] : cases) {
    auto parsed = ParseElementType(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
    EXPECT_EQ(*parsed, type) << text;
    EXPECT_EQ(FormatElementType(type), text);
  }
  auto opaque = ParseElementType("x32");
  ASSERT_TRUE(opaque.ok());
  EXPECT_EQ(*opaque, ElementType::kOpaque32);
  EXPECT_EQ(FormatElementType(ElementType::kOpaque32), "*32");
  EXPECT_EQ(FormatElementType(static_cast<ElementType>(0x7F000010u)), "*16");
}

TEST(ElementTypeTest, ParseRejectsMalformedText) {
  for (const char* text : {"", "f", "q32", "f256", "i-1", "f32x", "int32", "bf",
                           "ui", "f 32", "f99999999999999999999"}) {
    auto parsed = ParseElementType(text);
    EXPECT_FALSE(parsed.ok()) << "'" << text << "'";
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
    }
  }
  EXPECT_TRUE(ParseElementType("f255").ok());  // any bit count below 256
}

}  // namespace
}  // namespace ember::hal
