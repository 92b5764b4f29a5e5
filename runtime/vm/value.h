// Value: one primitive VM value -- i8, i16, i32, i64, f32 or f64 -- with its
// type.
//
// The interpreter keeps primitives untyped in its 32-bit register bank; a
// Value is what crosses a boundary where the type must travel with the bits:
// list elements, variants, arguments from a host. i8 and i16 exist only as
// list element types (`!vm.list<i8>`), never as registers.
//
// ValueType is numbered exactly as IREE's iree_vm_value_type_t (value.h), so
// a dump or a bug report reads the same in both runtimes.
//
// Conversions follow IREE's list semantics (list.c,
// iree_vm_list_convert_value_type), because that is the only place the VM
// converts implicitly: integers truncate or sign-extend to another integer
// width, f32 and f64 convert to each other, and a conversion between the
// integer and float families yields zero of the target type -- it does not
// convert numerically.
//
// Thread safety: a plain value type.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ember::vm {

enum class ValueType : uint8_t {
  kNone = 0,
  kI8 = 1,
  kI16 = 2,
  kI32 = 3,
  kI64 = 4,
  kF32 = 5,
  kF64 = 6,
};
inline constexpr int kValueTypeCount = 7;

// Storage size in bytes; 0 for kNone.
constexpr size_t ValueTypeByteSize(ValueType type) {
  switch (type) {
    case ValueType::kI8: return 1;
    case ValueType::kI16: return 2;
    case ValueType::kI32: return 4;
    case ValueType::kI64: return 8;
    case ValueType::kF32: return 4;
    case ValueType::kF64: return 8;
    case ValueType::kNone: break;
  }
  return 0;
}

constexpr bool IsIntegerValueType(ValueType type) {
  return type == ValueType::kI8 || type == ValueType::kI16 ||
         type == ValueType::kI32 || type == ValueType::kI64;
}
constexpr bool IsFloatValueType(ValueType type) {
  return type == ValueType::kF32 || type == ValueType::kF64;
}

// The MLIR spelling: "i8" ... "f64"; "none" for kNone.
constexpr std::string_view ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kI8: return "i8";
    case ValueType::kI16: return "i16";
    case ValueType::kI32: return "i32";
    case ValueType::kI64: return "i64";
    case ValueType::kF32: return "f32";
    case ValueType::kF64: return "f64";
    case ValueType::kNone: break;
  }
  return "none";
}

// The inverse of ValueTypeName for the six real types.
constexpr std::optional<ValueType> ParseValueTypeName(std::string_view name) {
  for (int i = 1; i < kValueTypeCount; ++i) {
    ValueType type = static_cast<ValueType>(i);
    if (ValueTypeName(type) == name) return type;
  }
  return std::nullopt;
}

class Value {
 public:
  // A kNone value: "no value", e.g. an empty variant.
  constexpr Value() = default;

  static constexpr Value I8(int8_t v) {
    return {ValueType::kI8, static_cast<uint8_t>(v)};
  }
  static constexpr Value I16(int16_t v) {
    return {ValueType::kI16, static_cast<uint16_t>(v)};
  }
  static constexpr Value I32(int32_t v) {
    return {ValueType::kI32, static_cast<uint32_t>(v)};
  }
  static constexpr Value I64(int64_t v) {
    return {ValueType::kI64, static_cast<uint64_t>(v)};
  }
  static constexpr Value F32(float v) {
    return {ValueType::kF32, std::bit_cast<uint32_t>(v)};
  }
  static constexpr Value F64(double v) {
    return {ValueType::kF64, std::bit_cast<uint64_t>(v)};
  }

  // Builds a value of `type` from its little-endian storage bits (the low
  // ValueTypeByteSize(type) bytes of `bits`; higher bits are ignored).
  static constexpr Value FromBits(ValueType type, uint64_t bits) {
    size_t size = ValueTypeByteSize(type);
    if (size == 0) return Value();
    uint64_t mask = size == 8 ? ~uint64_t{0} : (uint64_t{1} << (size * 8)) - 1;
    return Value(type, bits & mask);
  }

  constexpr ValueType type() const { return type_; }
  constexpr bool is_none() const { return type_ == ValueType::kNone; }
  // The raw storage bits, zero above the type's width.
  constexpr uint64_t bits() const { return bits_; }

  // Typed reads. Each expects type() to be that type; on another type it
  // reinterprets the stored bits (it never converts -- see ConvertTo).
  constexpr int8_t i8() const { return static_cast<int8_t>(bits_); }
  constexpr int16_t i16() const { return static_cast<int16_t>(bits_); }
  constexpr int32_t i32() const { return static_cast<int32_t>(bits_); }
  constexpr int64_t i64() const { return static_cast<int64_t>(bits_); }
  constexpr float f32() const {
    return std::bit_cast<float>(static_cast<uint32_t>(bits_));
  }
  constexpr double f64() const { return std::bit_cast<double>(bits_); }

  // Converts with IREE's list rules (see the top of this file). Converting
  // to the same type, or to kNone, returns the value unchanged / none.
  constexpr Value ConvertTo(ValueType target) const;

  // Same type and same bits (so a NaN equals an identical NaN).
  friend constexpr bool operator==(const Value& a, const Value& b) = default;

 private:
  constexpr Value(ValueType type, uint64_t bits) : type_(type), bits_(bits) {}

  ValueType type_ = ValueType::kNone;
  uint64_t bits_ = 0;
};

constexpr Value Value::ConvertTo(ValueType target) const {
  if (target == type_) return *this;
  if (target == ValueType::kNone) return Value();
  if (IsIntegerValueType(type_) && IsIntegerValueType(target)) {
    // Sign-extend the source to 64 bits, then keep the target's low bits.
    int64_t wide = 0;
    switch (type_) {
      case ValueType::kI8: wide = i8(); break;
      case ValueType::kI16: wide = i16(); break;
      case ValueType::kI32: wide = i32(); break;
      default: wide = i64(); break;
    }
    return FromBits(target, static_cast<uint64_t>(wide));
  }
  if (type_ == ValueType::kF32 && target == ValueType::kF64) {
    return F64(static_cast<double>(f32()));
  }
  if (type_ == ValueType::kF64 && target == ValueType::kF32) {
    return F32(static_cast<float>(f64()));
  }
  // Across the integer/float families (or from kNone): zero of the target.
  return FromBits(target, 0);
}

}  // namespace ember::vm
