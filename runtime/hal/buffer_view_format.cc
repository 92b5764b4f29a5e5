#include "runtime/hal/buffer_view_format.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>

namespace ember::hal {
namespace {

struct MiniFloat {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool has_sign;
  bool has_infinity;          // IEEE-style: all-ones exponent is inf/NaN
  bool nan_is_negative_zero;  // FNUZ: 0x80 is the one NaN
  bool nan_all_ones;          // FN: S.1111.111 is NaN, no infinity
};

double DecodeMini(uint32_t bits, const MiniFloat& f) {
  const int total = f.exponent_bits + f.mantissa_bits + (f.has_sign ? 1 : 0);
  const bool negative = f.has_sign && (bits >> (total - 1)) & 1;
  const uint32_t exponent =
      (bits >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1);
  const uint32_t mantissa = bits & ((1u << f.mantissa_bits) - 1);
  const uint32_t all_ones_exponent = (1u << f.exponent_bits) - 1;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (f.nan_is_negative_zero && negative && exponent == 0 && mantissa == 0) {
    return nan;
  }
  if (f.has_infinity && exponent == all_ones_exponent) {
    if (mantissa != 0) return nan;
    return negative ? -INFINITY : INFINITY;
  }
  if (f.nan_all_ones && exponent == all_ones_exponent &&
      mantissa == (1u << f.mantissa_bits) - 1) {
    return nan;
  }
  double value;
  if (exponent == 0) {
    value =
        std::ldexp(static_cast<double>(mantissa), 1 - f.bias - f.mantissa_bits);
  } else {
    value = std::ldexp(static_cast<double>(mantissa | (1u << f.mantissa_bits)),
                       static_cast<int>(exponent) - f.bias - f.mantissa_bits);
  }
  return negative ? -value : value;
}

}  // namespace

bool DecodeFloat(const uint8_t* bytes, ElementType type, double* value) {
  switch (type) {
    case ElementType::kFloat32: {
      float v;
      std::memcpy(&v, bytes, 4);
      *value = v;
      return true;
    }
    case ElementType::kFloat64: std::memcpy(value, bytes, 8); return true;
    case ElementType::kFloat16: {
      uint16_t bits;
      std::memcpy(&bits, bytes, 2);
      *value = DecodeMini(bits, {5, 10, 15, true, true, false, false});
      return true;
    }
    case ElementType::kBfloat16: {
      uint16_t bits;
      std::memcpy(&bits, bytes, 2);
      uint32_t wide = uint32_t{bits} << 16;
      float v;
      std::memcpy(&v, &wide, 4);
      *value = v;
      return true;
    }
    case ElementType::kFloat8E5M2:
      *value = DecodeMini(bytes[0], {5, 2, 15, true, true, false, false});
      return true;
    case ElementType::kFloat8E4M3FN:
      *value = DecodeMini(bytes[0], {4, 3, 7, true, false, false, true});
      return true;
    case ElementType::kFloat8E5M2FNUZ:
      *value = DecodeMini(bytes[0], {5, 2, 16, true, false, true, false});
      return true;
    case ElementType::kFloat8E4M3FNUZ:
      *value = DecodeMini(bytes[0], {4, 3, 8, true, false, true, false});
      return true;
    case ElementType::kFloat8E8M0FNU:
      *value = bytes[0] == 0xFF ? std::numeric_limits<double>::quiet_NaN()
                                : std::ldexp(1.0, int{bytes[0]} - 127);
      return true;
    default: return false;
  }
}

std::string FormatElement(const uint8_t* bytes, ElementType type) {
  char text[64];
  double value;
  if (type == ElementType::kFloat64) {
    std::memcpy(&value, bytes, 8);
    std::snprintf(text, sizeof(text), "%g", value);
    return text;
  }
  if (DecodeFloat(bytes, type, &value)) {
    std::snprintf(text, sizeof(text), "%g", static_cast<float>(value));
    return text;
  }
  const uint32_t bits = BitCount(type);
  if (IsInteger(type) && bits % 8 == 0 && bits <= 64 && bits > 0) {
    uint64_t raw = 0;
    std::memcpy(&raw, bytes, bits / 8);
    if (NumericalTypeOf(type) == NumericalType::kIntegerUnsigned ||
        IsBoolean(type)) {
      return std::to_string(raw);
    }
    const int shift = 64 - static_cast<int>(bits);
    return std::to_string(static_cast<int64_t>(raw << shift) >> shift);
  }
  std::string hex = "0x";
  for (uint32_t i = 0; i < (bits + 7) / 8; ++i) {
    std::snprintf(text, sizeof(text), "%02x", bytes[i]);
    hex += text;
  }
  return hex;
}

Result<std::string> FormatBufferView(BufferView& view, uint64_t max_elements) {
  std::string text = view.ShapeAndTypeString() + "=";
  const size_t element_size = DenseByteCount(view.element_type());
  const uint64_t count = view.element_count();
  EMBER_ASSIGN_OR_RETURN(
      BufferMapping mapping,
      view.buffer()->Map(MappingMode::kScoped, MemoryAccess::kRead, 0,
                         kWholeBuffer));
  if (!IsByteAligned(view.element_type()) || element_size == 0 ||
      count > mapping.size() / element_size) {
    return text + "(not printable)";
  }
  std::span<const int64_t> shape = view.shape();
  uint64_t next = 0;
  bool truncated = false;
  auto format = [&](auto&& self, size_t dim) -> void {
    if (dim + 1 >= shape.size()) {
      const uint64_t n = shape.empty() ? 1 : static_cast<uint64_t>(shape[dim]);
      for (uint64_t i = 0; i < n; ++i, ++next) {
        if (next >= max_elements) {
          truncated = true;
          return;
        }
        if (i) text += ' ';
        text += FormatElement(mapping.data() + next * element_size,
                              view.element_type());
      }
      return;
    }
    for (int64_t i = 0; i < shape[dim] && !truncated; ++i) {
      text += '[';
      self(self, dim + 1);
      text += ']';
    }
  };
  format(format, 0);
  if (truncated) text += "...";
  return text;
}

}  // namespace ember::hal
