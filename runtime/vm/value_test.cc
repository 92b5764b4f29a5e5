#include "runtime/vm/value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ember::vm {
namespace {

TEST(ValueTypeTest, NumberedAsIree) {
  EXPECT_EQ(static_cast<int>(ValueType::kNone), 0);
  EXPECT_EQ(static_cast<int>(ValueType::kI8), 1);
  EXPECT_EQ(static_cast<int>(ValueType::kI16), 2);
  EXPECT_EQ(static_cast<int>(ValueType::kI32), 3);
  EXPECT_EQ(static_cast<int>(ValueType::kI64), 4);
  EXPECT_EQ(static_cast<int>(ValueType::kF32), 5);
  EXPECT_EQ(static_cast<int>(ValueType::kF64), 6);
}

TEST(ValueTypeTest, SizesAndNames) {
  EXPECT_EQ(ValueTypeByteSize(ValueType::kNone), 0u);
  EXPECT_EQ(ValueTypeByteSize(ValueType::kI8), 1u);
  EXPECT_EQ(ValueTypeByteSize(ValueType::kI16), 2u);
  EXPECT_EQ(ValueTypeByteSize(ValueType::kI32), 4u);
  EXPECT_EQ(ValueTypeByteSize(ValueType::kI64), 8u);
  EXPECT_EQ(ValueTypeByteSize(ValueType::kF32), 4u);
  EXPECT_EQ(ValueTypeByteSize(ValueType::kF64), 8u);
  for (int i = 1; i < kValueTypeCount; ++i) {
    ValueType type = static_cast<ValueType>(i);
    EXPECT_EQ(ParseValueTypeName(ValueTypeName(type)), type);
  }
  EXPECT_EQ(ValueTypeName(ValueType::kNone), "none");
  EXPECT_FALSE(ParseValueTypeName("none").has_value());
  EXPECT_FALSE(ParseValueTypeName("i1").has_value());
  EXPECT_FALSE(ParseValueTypeName("").has_value());
  EXPECT_TRUE(IsIntegerValueType(ValueType::kI16));
  EXPECT_FALSE(IsIntegerValueType(ValueType::kF32));
  EXPECT_TRUE(IsFloatValueType(ValueType::kF64));
  EXPECT_FALSE(IsFloatValueType(ValueType::kNone));
}

TEST(ValueTest, DefaultIsNone) {
  Value value;
  EXPECT_TRUE(value.is_none());
  EXPECT_EQ(value.type(), ValueType::kNone);
  EXPECT_EQ(value.bits(), 0u);
}

TEST(ValueTest, RoundTripsEachType) {
  EXPECT_EQ(Value::I8(-5).i8(), -5);
  EXPECT_EQ(Value::I16(-30000).i16(), -30000);
  EXPECT_EQ(Value::I32(std::numeric_limits<int32_t>::min()).i32(),
            std::numeric_limits<int32_t>::min());
  EXPECT_EQ(Value::I64(std::numeric_limits<int64_t>::min()).i64(),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Value::F32(1.5f).f32(), 1.5f);
  EXPECT_EQ(Value::F64(-2.25).f64(), -2.25);
  EXPECT_EQ(Value::I8(1).type(), ValueType::kI8);
  EXPECT_EQ(Value::F64(1).type(), ValueType::kF64);
}

TEST(ValueTest, BitsAreZeroAboveTheWidth) {
  EXPECT_EQ(Value::I8(-1).bits(), 0xFFu);
  EXPECT_EQ(Value::I16(-1).bits(), 0xFFFFu);
  EXPECT_EQ(Value::I32(-1).bits(), 0xFFFFFFFFu);
  EXPECT_EQ(Value::F32(1.0f).bits(), 0x3F800000u);
  EXPECT_EQ(Value::FromBits(ValueType::kI8, 0x1234), Value::I8(0x34));
  EXPECT_EQ(Value::FromBits(ValueType::kI64, ~uint64_t{0}), Value::I64(-1));
  EXPECT_TRUE(Value::FromBits(ValueType::kNone, 7).is_none());
}

TEST(ValueTest, EqualityComparesTypeAndBits) {
  EXPECT_EQ(Value::I32(1), Value::I32(1));
  EXPECT_NE(Value::I32(1), Value::I64(1));
  EXPECT_NE(Value::F32(0.0f), Value::F32(-0.0f));
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(Value::F64(nan), Value::F64(nan));
}

TEST(ValueConvertTest, IntegersSignExtendWhenWidening) {
  EXPECT_EQ(Value::I8(-1).ConvertTo(ValueType::kI32), Value::I32(-1));
  EXPECT_EQ(Value::I8(-128).ConvertTo(ValueType::kI64), Value::I64(-128));
  EXPECT_EQ(Value::I16(-2).ConvertTo(ValueType::kI64), Value::I64(-2));
  EXPECT_EQ(Value::I32(-3).ConvertTo(ValueType::kI64), Value::I64(-3));
  EXPECT_EQ(Value::I8(100).ConvertTo(ValueType::kI16), Value::I16(100));
}

TEST(ValueConvertTest, IntegersTruncateWhenNarrowing) {
  EXPECT_EQ(Value::I64(0x1'0000'0005).ConvertTo(ValueType::kI32),
            Value::I32(5));
  EXPECT_EQ(Value::I64(-1).ConvertTo(ValueType::kI8), Value::I8(-1));
  EXPECT_EQ(Value::I32(0x1FF).ConvertTo(ValueType::kI8), Value::I8(-1));
  EXPECT_EQ(Value::I32(0x18000).ConvertTo(ValueType::kI16),
            Value::I16(static_cast<int16_t>(0x8000)));
  EXPECT_EQ(Value::I16(0x1234).ConvertTo(ValueType::kI8), Value::I8(0x34));
}

TEST(ValueConvertTest, FloatsConvertBetweenWidths) {
  EXPECT_EQ(Value::F32(1.5f).ConvertTo(ValueType::kF64), Value::F64(1.5));
  EXPECT_EQ(Value::F64(0.1).ConvertTo(ValueType::kF32), Value::F32(0.1f));
  EXPECT_TRUE(std::isinf(Value::F64(1e300).ConvertTo(ValueType::kF32).f32()));
}

TEST(ValueConvertTest, AcrossFamiliesYieldsZero) {
  // IREE's list conversion does not convert numerically between integers and
  // floats; the result is zero of the target type.
  EXPECT_EQ(Value::I32(7).ConvertTo(ValueType::kF32), Value::F32(0.0f));
  EXPECT_EQ(Value::I64(7).ConvertTo(ValueType::kF64), Value::F64(0.0));
  EXPECT_EQ(Value::F32(7.5f).ConvertTo(ValueType::kI32), Value::I32(0));
  EXPECT_EQ(Value::F64(7.5).ConvertTo(ValueType::kI8), Value::I8(0));
  EXPECT_EQ(Value().ConvertTo(ValueType::kI64), Value::I64(0));
}

TEST(ValueConvertTest, SameTypeAndNone) {
  EXPECT_EQ(Value::I16(-9).ConvertTo(ValueType::kI16), Value::I16(-9));
  EXPECT_TRUE(Value::I32(4).ConvertTo(ValueType::kNone).is_none());
}

TEST(ValueConvertTest, IsConstexpr) {
  static_assert(Value::I8(-1).ConvertTo(ValueType::kI32).i32() == -1);
  static_assert(Value::F32(2.0f).ConvertTo(ValueType::kF64).f64() == 2.0);
  SUCCEED();
}

}  // namespace
}  // namespace ember::vm
