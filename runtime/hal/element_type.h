// Element types: what one scalar of a tensor is, as IREE 3.11 encodes it.
//
// A program hands element types to the runtime as plain 32-bit numbers
// (`hal.buffer_view.create(..., 0x21000020, ...)` is f32), tools spell them
// as text (`--input=2x2xf32=...`), and Python maps them to numpy dtypes. The
// number is a bit field, numerical type in the top byte and the bit width in
// the low byte, so an element type the runtime has never heard of is still
// well formed and keeps its size: ElementType is an enum over uint32_t whose
// named values are the ones IREE defines, and every query below works on any
// value.
//
// The text forms are IREE's: i8/si8/ui8 (signless, signed, unsigned), i1 for
// booleans (stored as bytes), f16/f32/f64, bf16, cf64/cf128 for complex, the
// f8 variants by their MLIR names (f8E4M3FN, ...), and x<bits> or *<bits>
// for opaque data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace ember::hal {

enum class NumericalType : uint8_t {
  kUnknown = 0x00,
  kInteger = 0x10,  // signless
  kIntegerSigned = 0x11,
  kIntegerUnsigned = 0x12,
  kBoolean = 0x13,
  kFloat = 0x20,
  kFloatIeee = 0x21,
  kFloatBrain = 0x22,
  kFloatComplex = 0x23,
  kFloat8E5M2 = 0x24,
  kFloat8E4M3FN = 0x25,
  kFloat8E5M2FNUZ = 0x26,
  kFloat8E4M3FNUZ = 0x27,
  kFloat8E8M0FNU = 0x28,
};

constexpr uint32_t MakeElementTypeValue(NumericalType type, uint32_t bits) {
  return (static_cast<uint32_t>(type) << 24) | bits;
}

// clang-format off
enum class ElementType : uint32_t {
  kNone            = MakeElementTypeValue(NumericalType::kUnknown, 0),
  kOpaque8         = MakeElementTypeValue(NumericalType::kUnknown, 8),
  kOpaque16        = MakeElementTypeValue(NumericalType::kUnknown, 16),
  kOpaque32        = MakeElementTypeValue(NumericalType::kUnknown, 32),
  kOpaque64        = MakeElementTypeValue(NumericalType::kUnknown, 64),
  kBool8           = MakeElementTypeValue(NumericalType::kBoolean, 8),
  kInt4            = MakeElementTypeValue(NumericalType::kInteger, 4),
  kSint4           = MakeElementTypeValue(NumericalType::kIntegerSigned, 4),
  kUint4           = MakeElementTypeValue(NumericalType::kIntegerUnsigned, 4),
  kInt8            = MakeElementTypeValue(NumericalType::kInteger, 8),
  kSint8           = MakeElementTypeValue(NumericalType::kIntegerSigned, 8),
  kUint8           = MakeElementTypeValue(NumericalType::kIntegerUnsigned, 8),
  kInt16           = MakeElementTypeValue(NumericalType::kInteger, 16),
  kSint16          = MakeElementTypeValue(NumericalType::kIntegerSigned, 16),
  kUint16          = MakeElementTypeValue(NumericalType::kIntegerUnsigned, 16),
  kInt32           = MakeElementTypeValue(NumericalType::kInteger, 32),
  kSint32          = MakeElementTypeValue(NumericalType::kIntegerSigned, 32),
  kUint32          = MakeElementTypeValue(NumericalType::kIntegerUnsigned, 32),
  kInt64           = MakeElementTypeValue(NumericalType::kInteger, 64),
  kSint64          = MakeElementTypeValue(NumericalType::kIntegerSigned, 64),
  kUint64          = MakeElementTypeValue(NumericalType::kIntegerUnsigned, 64),
  kFloat16         = MakeElementTypeValue(NumericalType::kFloatIeee, 16),
  kFloat32         = MakeElementTypeValue(NumericalType::kFloatIeee, 32),
  kFloat64         = MakeElementTypeValue(NumericalType::kFloatIeee, 64),
  kBfloat16        = MakeElementTypeValue(NumericalType::kFloatBrain, 16),
  kComplexFloat64  = MakeElementTypeValue(NumericalType::kFloatComplex, 64),
  kComplexFloat128 = MakeElementTypeValue(NumericalType::kFloatComplex, 128),
  kFloat8E5M2      = MakeElementTypeValue(NumericalType::kFloat8E5M2, 8),
  kFloat8E4M3FN    = MakeElementTypeValue(NumericalType::kFloat8E4M3FN, 8),
  kFloat8E5M2FNUZ  = MakeElementTypeValue(NumericalType::kFloat8E5M2FNUZ, 8),
  kFloat8E4M3FNUZ  = MakeElementTypeValue(NumericalType::kFloat8E4M3FNUZ, 8),
  kFloat8E8M0FNU   = MakeElementTypeValue(NumericalType::kFloat8E8M0FNU, 8),
};
// clang-format on

// How the elements of a buffer are laid out.
enum class EncodingType : uint32_t {
  kOpaque = 0,         // unknown: only the producer can interpret it
  kDenseRowMajor = 1,  // C order, elements packed
};

constexpr NumericalType NumericalTypeOf(ElementType type) {
  return static_cast<NumericalType>(static_cast<uint32_t>(type) >> 24);
}
constexpr uint32_t BitCount(ElementType type) {
  return static_cast<uint32_t>(type) & 0xFFu;
}
constexpr bool IsByteAligned(ElementType type) {
  return BitCount(type) % 8 == 0;
}
// Bytes one element takes when stored densely (sub-byte types round up).
constexpr size_t DenseByteCount(ElementType type) {
  return (BitCount(type) + 7) / 8;
}
constexpr bool IsOpaque(ElementType type) {
  return NumericalTypeOf(type) == NumericalType::kUnknown;
}
// The numerical-type tests follow IREE's: a category holds when all of its
// bits are set, so booleans are integers and complex numbers are floats.
constexpr bool HasAllBits(NumericalType type, NumericalType bits) {
  return (static_cast<uint8_t>(type) & static_cast<uint8_t>(bits)) ==
         static_cast<uint8_t>(bits);
}
constexpr bool IsInteger(ElementType type) {
  return HasAllBits(NumericalTypeOf(type), NumericalType::kInteger);
}
constexpr bool IsFloat(ElementType type) {
  return HasAllBits(NumericalTypeOf(type), NumericalType::kFloat);
}
constexpr bool IsBoolean(ElementType type) {
  return HasAllBits(NumericalTypeOf(type), NumericalType::kBoolean);
}
// An integer of exactly `bits` bits, whatever its signedness.
constexpr bool IsIntegerOfWidth(ElementType type, uint32_t bits) {
  return IsInteger(type) && BitCount(type) == bits;
}

// Parses IREE's text form ("f32", "si8", "i1", "bf16", "f8E4M3FN", "x32").
Result<ElementType> ParseElementType(std::string_view text);
// IREE's text form of any element type (booleans print as "i1", opaque and
// unknown numerical types as "*<bits>").
std::string FormatElementType(ElementType type);

}  // namespace ember::hal
