#include "runtime/hal/buffer_view_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
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

// ---------------------------------------------------------------------------
// %G as IREE prints it
// ---------------------------------------------------------------------------
//
// IREE 3.12 and later format floats with a printf of their own (not the C
// library's, and not the one 3.11 bundled). Its %g with the default six
// significant digits works like this (the steps of upstream's
// runtime/src/iree/base/printf.c, restated; iree-run-module 3.13's output
// agrees):
//
//   1. A decimal exponent is estimated from the binary one
//      (floor(log2 * 301 / 1000)), corrected by one either way by dividing
//      by the estimated power of ten, and raised by one more when rounding
//      to six digits carries (999999.5 -> 1E+06).
//   2. Exponents below -4 or from 6 up print as d.ddddd E+xx, the others as
//      a fixed number of decimals; trailing zeros (and a bare point) go.
//   3. The six digits are the value scaled by a power of ten and rounded
//      half to even, the scaling's rounding error recovered with a fused
//      multiply-add, so the digits are correctly rounded -- except where
//      the power of ten itself is inexact (beyond 1e44), where the error
//      of the power is not corrected and a digit can differ from C's
//      printf (0x223F37B75BF9D28C prints as 1.00001E-143; C gives 1E-143).
//
// Reproducing the same operations in the same order gives the same digits.
// Each operation must round on its own: GCC does not contract a*b+c into a
// fused multiply-add in ISO C++ mode, and the pragma stops Clang from doing
// so on targets that have the instruction.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

namespace {

constexpr int kSignificantDigits = 6;  // %g's default precision
constexpr double kTwoTo52 = 4503599627370496.0;
constexpr double kTwoTo53 = 9007199254740992.0;
constexpr double kExactPowersOfTen[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
constexpr int kLargestExactPower = 22;

// The exact rounding error of the product p = a * b (a * b - p).
double ProductError(double a, double b, double p) { return std::fma(a, b, -p); }

// 10^n: exact up to 10^22 (and 1 / 10^n below), else by repeated squaring,
// rounding at every step as IREE does.
double PowerOfTen(int n) {
  const unsigned magnitude =
      n < 0 ? 0u - static_cast<unsigned>(n) : static_cast<unsigned>(n);
  if (magnitude <= static_cast<unsigned>(kLargestExactPower)) {
    return n < 0 ? 1.0 / kExactPowersOfTen[magnitude]
                 : kExactPowersOfTen[magnitude];
  }
  double result = 1.0;
  double base = 10.0;
  for (unsigned e = magnitude; e > 0; e >>= 1) {
    if (e & 1) result = n > 0 ? result * base : result / base;
    base *= base;
  }
  return result;
}

// floor(log10(value)) for a positive finite value, possibly one too low or
// too high.
int EstimateDecimalExponent(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const int biased = static_cast<int>((bits >> 52) & 0x7FF);
  int binary_exponent;
  if (biased == 0) {  // subnormal: from the highest set mantissa bit
    const uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
    int highest = 0;
    for (int bit = 51; bit >= 0; --bit) {
      if (mantissa & (uint64_t{1} << bit)) {
        highest = bit;
        break;
      }
    }
    binary_exponent = -1074 + highest;
  } else {
    binary_exponent = biased - 1023;
  }
  const int product = binary_exponent * 301;
  int estimate = product / 1000;
  if (product < 0 && product % 1000 != 0) --estimate;
  return estimate;
}

double Floor(double x) {  // for positive values, as IREE's
  if (x >= kTwoTo52) return x;
  double truncated = static_cast<double>(static_cast<int64_t>(x));
  if (truncated > x) truncated -= 1.0;
  return truncated;
}

bool IsOdd(double integer) {
  if (integer >= kTwoTo53) return false;
  return (static_cast<int64_t>(integer) & 1) != 0;
}

// value * 10^n as a high part (`product`) and the returned low part. The
// error is exact while 10^n is (n <= 44, as two exact factors); beyond, the
// power's own error is not accounted for.
double ScaleByPowerOfTen(double value, int n, double& product) {
  if (n <= kLargestExactPower || n > 2 * kLargestExactPower) {
    const double scale = PowerOfTen(n);
    product = value * scale;
    return ProductError(value, scale, product);
  }
  const double first = kExactPowersOfTen[kLargestExactPower];
  const double second = PowerOfTen(n - kLargestExactPower);
  const double partial = value * first;
  const double first_error = ProductError(value, first, partial);
  product = partial * second;
  const double second_error = ProductError(partial, second, product);
  return second_error + first_error * second;
}

// Round-half-to-even of `integer + remainder` where remainder is in [0, 1).
uint64_t RoundHalfEven(uint64_t integer, double remainder) {
  if (remainder > 0.5 || (remainder == 0.5 && (integer & 1))) ++integer;
  return integer;
}

// The `count` significant digits of `value` for a decimal exponent
// `exponent`, rounded half to even: an integer in [10^(count-1), 10^count)
// unless `exponent` was off by one (the caller then corrects it and asks
// again). Far from 1 the value is normalized step by step, which may move
// `exponent` itself.
uint64_t ScaledDigits(double value, int& exponent, int count) {
  const int scale_exponent = exponent - count + 1;
  if (scale_exponent > 290 || scale_exponent < -290) {
    // Far from 1: normalized to [1, 10) in steps of 10^22, then scaled.
    double normalized = value;
    int remaining = exponent;
    if (remaining > 0) {
      for (; remaining > kLargestExactPower; remaining -= kLargestExactPower) {
        normalized /= kExactPowersOfTen[kLargestExactPower];
      }
      normalized /= PowerOfTen(remaining);
    } else if (remaining < 0) {
      remaining = -remaining;
      for (; remaining > kLargestExactPower; remaining -= kLargestExactPower) {
        normalized *= kExactPowersOfTen[kLargestExactPower];
      }
      normalized *= PowerOfTen(remaining);
    }
    while (normalized >= 10.0) {
      normalized /= 10.0;
      ++exponent;
    }
    while (normalized < 1.0 && normalized > 0.0) {
      normalized *= 10.0;
      --exponent;
    }
    const double scaled = normalized * PowerOfTen(count - 1);
    const uint64_t integer = static_cast<uint64_t>(scaled);
    return RoundHalfEven(integer, scaled - static_cast<double>(integer));
  }
  if (scale_exponent > 0 && scale_exponent <= kLargestExactPower) {
    // Divided by an exact power; the remainder recovered exactly.
    const double divisor = kExactPowersOfTen[scale_exponent];
    uint64_t integer = static_cast<uint64_t>(value / divisor);
    const double high = static_cast<double>(integer) * divisor;
    const double low =
        ProductError(static_cast<double>(integer), divisor, high);
    double residual = (value - high) - low;
    if (residual < 0) {
      --integer;
      residual += divisor;
    }
    const double half = divisor * 0.5;
    if (residual > half || (residual == half && (integer & 1))) ++integer;
    return integer;
  }
  if (scale_exponent < 0) {
    double product;
    const double error = ScaleByPowerOfTen(value, -scale_exponent, product);
    uint64_t integer = static_cast<uint64_t>(product);
    double remainder = (product - static_cast<double>(integer)) + error;
    while (remainder >= 1.0) {
      ++integer;
      remainder -= 1.0;
    }
    while (remainder < 0.0) {
      --integer;
      remainder += 1.0;
    }
    return RoundHalfEven(integer, remainder);
  }
  // scale_exponent beyond 22 (values from 1e28 up): a rounded division.
  const double scaled = value / PowerOfTen(scale_exponent);
  const uint64_t integer = static_cast<uint64_t>(scaled);
  return RoundHalfEven(integer, scaled - static_cast<double>(integer));
}

// "d.ddddd" then "E+xx" for `value` > 0 with `count` significant digits,
// trailing zeros of the fraction dropped.
std::string Exponential(double value, int count, bool uppercase) {
  int exponent = EstimateDecimalExponent(value);
  const uint64_t top = static_cast<uint64_t>(PowerOfTen(count));
  const uint64_t bottom = top / 10;
  uint64_t digits = ScaledDigits(value, exponent, count);
  if (digits >= top || (digits < bottom && digits > 0)) {
    exponent += digits >= top ? 1 : -1;
    digits = ScaledDigits(value, exponent, count);
    while (digits >= top) {
      digits /= 10;
      ++exponent;
    }
  }
  char text[24];  // count <= 17
  for (int i = count - 1; i >= 0; --i) {
    text[i] = static_cast<char>('0' + digits % 10);
    digits /= 10;
  }
  int last = count - 1;
  while (last > 0 && text[last] == '0') --last;
  std::string out(1, text[0]);
  if (last > 0) {
    out += '.';
    out.append(text + 1, text + last + 1);
  }
  out += uppercase ? 'E' : 'e';
  out += exponent < 0 ? '-' : '+';
  const int magnitude = std::abs(exponent);
  if (magnitude < 10) out += '0';
  out += std::to_string(magnitude);
  return out;
}

// `value` >= 0 (below 1e6) with `decimals` digits after the point, rounded
// half to even, trailing zeros and a bare point dropped.
std::string Fixed(double value, int decimals) {
  double integral = value >= kTwoTo52
                        ? value
                        : static_cast<double>(static_cast<int64_t>(value));
  const double fraction = value >= kTwoTo52 ? 0.0 : value - integral;
  const double scale = PowerOfTen(decimals);
  const double scaled = fraction * scale;
  const double error = ProductError(fraction, scale, scaled);
  uint64_t fraction_digits = static_cast<uint64_t>(scaled);
  const double remainder =
      (scaled - static_cast<double>(fraction_digits)) + error;
  if (remainder > 0.5) {
    ++fraction_digits;
  } else if (remainder == 0.5) {
    const bool odd = decimals > 0 ? (fraction_digits & 1) != 0
                                  : (static_cast<uint64_t>(integral) % 10) & 1;
    if (odd) ++fraction_digits;
  }
  if (fraction_digits >= static_cast<uint64_t>(scale)) {
    fraction_digits = 0;
    integral += 1.0;
  }
  std::string out = std::to_string(static_cast<uint64_t>(integral));
  if (decimals > 0) {
    std::string fraction_text(static_cast<size_t>(decimals), '0');
    for (int i = decimals - 1; i >= 0; --i) {
      fraction_text[static_cast<size_t>(i)] =
          static_cast<char>('0' + fraction_digits % 10);
      fraction_digits /= 10;
    }
    while (!fraction_text.empty() && fraction_text.back() == '0') {
      fraction_text.pop_back();
    }
    if (!fraction_text.empty()) out += '.' + fraction_text;
  }
  return out;
}

}  // namespace

std::string FormatFloatG(double value, bool uppercase) {
  std::string sign = std::signbit(value) ? "-" : "";
  if (std::isnan(value)) return sign + (uppercase ? "NAN" : "nan");
  if (std::isinf(value)) return sign + (uppercase ? "INF" : "inf");
  const double magnitude = std::fabs(value);
  int exponent = 0;
  if (magnitude != 0.0) {
    exponent = EstimateDecimalExponent(magnitude);
    const double check = magnitude / PowerOfTen(exponent);
    if (check >= 10.0) {
      ++exponent;
    } else if (check < 1.0) {
      --exponent;
    }
    // The notation follows the exponent after rounding to six digits.
    const int shift = kSignificantDigits - exponent - 1;
    const double limit = kExactPowersOfTen[kSignificantDigits];
    if (shift >= 0 && shift <= kLargestExactPower) {
      const double scale = kExactPowersOfTen[shift];
      const double scaled = magnitude * scale;
      const double error = ProductError(magnitude, scale, scaled);
      double integer = Floor(scaled);
      double fraction = (scaled - integer) + error;
      if (fraction < 0) {
        integer -= 1.0;
        fraction += 1.0;
      }
      const bool up = fraction > 0.5 || (fraction == 0.5 && IsOdd(integer));
      if (up && integer + 1.0 >= limit) ++exponent;
    } else if (shift < 0 && shift >= -kLargestExactPower) {
      const double divisor = kExactPowersOfTen[-shift];
      double integer = Floor(magnitude / divisor);
      const double high = integer * divisor;
      const double low = ProductError(integer, divisor, high);
      double remainder = (magnitude - high) - low;
      if (remainder < 0) {
        integer -= 1.0;
        remainder += divisor;
      }
      const double half = divisor * 0.5;
      const bool up = remainder > half || (remainder == half && IsOdd(integer));
      if (up && integer + 1.0 >= limit) ++exponent;
    }
  }
  if (exponent < -4 || exponent >= kSignificantDigits) {
    return sign + Exponential(magnitude, kSignificantDigits, uppercase);
  }
  return sign +
         Fixed(magnitude, std::max(kSignificantDigits - exponent - 1, 0));
}

// ---------------------------------------------------------------------------
// Elements and tensors
// ---------------------------------------------------------------------------

namespace {

template <typename T>
T Load(const uint8_t* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

// The tensor's text after "SHAPExTYPE=": IREE's recursion over the
// dimensions, with the same checks that the data is there.
class ElementsPrinter {
 public:
  ElementsPrinter(ElementType type, uint64_t budget, std::string* text)
      : type_(type),
        element_size_(DenseByteCount(type)),
        budget_(budget),
        text_(text) {}

  Status Print(std::span<const int64_t> shape, std::span<const uint8_t> data) {
    if (shape.empty()) {
      static constexpr int64_t kOne[] = {1};
      return Print(kOne, data);
    }
    const uint64_t outer = static_cast<uint64_t>(shape[0]);
    if (shape.size() == 1) {
      const uint64_t count = std::min(budget_, outer);
      uint64_t needed;
      if (__builtin_mul_overflow(count, uint64_t{element_size_}, &needed) ||
          needed > data.size()) {
        return Underflow(data.size(), needed);
      }
      budget_ -= count;
      for (uint64_t i = 0; i < count; ++i) {
        if (i) *text_ += ' ';
        *text_ += FormatElement(data.data() + i * element_size_, type_);
      }
      if (count < outer) *text_ += "...";
      return Status::Ok();
    }
    // Nothing inside an empty dimension is visited, so the dimensions after
    // it may multiply past 64 bits (a view's element count is only checked
    // up to its first zero).
    if (outer == 0) return Status::Ok();
    uint64_t stride = element_size_;
    bool overflow = false;
    for (size_t i = 1; i < shape.size(); ++i) {
      if (shape[i] == 0) {
        stride = 0;
        overflow = false;
        break;
      }
      overflow |= __builtin_mul_overflow(
          stride, static_cast<uint64_t>(shape[i]), &stride);
    }
    if (overflow) {
      return OutOfRangeError("tensor byte length overflows 64 bits");
    }
    uint64_t needed;
    if (__builtin_mul_overflow(stride, outer, &needed) ||
        needed > data.size()) {
      return Underflow(data.size(), needed);
    }
    // Brackets are printed even for rows with nothing left to show; bound
    // them, since a zero-sized inner dimension makes them free otherwise.
    if (__builtin_add_overflow(brackets_, outer, &brackets_) ||
        brackets_ > kMaxBrackets) {
      return ResourceExhaustedError(
          "tensor has too many rows to print (over 2^26 brackets)");
    }
    for (uint64_t i = 0; i < outer; ++i) {
      *text_ += '[';
      EMBER_RETURN_IF_ERROR(
          Print(shape.subspan(1), data.subspan(i * stride, stride)));
      *text_ += ']';
    }
    return Status::Ok();
  }

 private:
  static constexpr uint64_t kMaxBrackets = uint64_t{1} << 26;

  static Status Underflow(uint64_t available, uint64_t needed) {
    return OutOfRangeError(
        StringPrintf("tensor data underflow: %llu bytes where %llu are needed",
                     static_cast<unsigned long long>(available),
                     static_cast<unsigned long long>(needed)));
  }

  ElementType type_;
  size_t element_size_;
  uint64_t budget_;
  uint64_t brackets_ = 0;
  std::string* text_;
};

}  // namespace

std::string FormatElement(const uint8_t* bytes, ElementType type) {
  switch (type) {
    case ElementType::kInt8:
    case ElementType::kSint8: return std::to_string(Load<int8_t>(bytes));
    case ElementType::kUint8: return std::to_string(Load<uint8_t>(bytes));
    case ElementType::kInt16:
    case ElementType::kSint16: return std::to_string(Load<int16_t>(bytes));
    case ElementType::kUint16: return std::to_string(Load<uint16_t>(bytes));
    case ElementType::kInt32:
    case ElementType::kSint32: return std::to_string(Load<int32_t>(bytes));
    case ElementType::kUint32: return std::to_string(Load<uint32_t>(bytes));
    case ElementType::kInt64:
    case ElementType::kSint64: return std::to_string(Load<int64_t>(bytes));
    case ElementType::kUint64: return std::to_string(Load<uint64_t>(bytes));
    case ElementType::kFloat64: return FormatFloatG(Load<double>(bytes));
    case ElementType::kFloat32:
    case ElementType::kFloat16:
    case ElementType::kBfloat16:
    case ElementType::kFloat8E5M2:
    case ElementType::kFloat8E4M3FN:
    case ElementType::kFloat8E5M2FNUZ:
    case ElementType::kFloat8E4M3FNUZ:
    case ElementType::kFloat8E8M0FNU: {
      // Narrow floats are widened to f32 first (exactly), then to double.
      // IREE's widening of the types narrower than f32 makes every NaN the
      // positive one, so only an f32 NaN prints its sign.
      double value;
      DecodeFloat(bytes, type, &value);
      if (type != ElementType::kFloat32 && std::isnan(value)) {
        value = std::numeric_limits<double>::quiet_NaN();
      }
      return FormatFloatG(static_cast<float>(value));
    }
    default: break;
  }
  // Everything else is its bytes in hex, as they lie in memory.
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string hex;
  for (size_t i = 0; i < DenseByteCount(type); ++i) {
    hex += kHex[bytes[i] >> 4];
    hex += kHex[bytes[i] & 0xF];
  }
  return hex;
}

Result<std::string> FormatBufferView(BufferView& view, uint64_t max_elements) {
  std::string text = view.ShapeAndTypeString() + "=";
  EMBER_ASSIGN_OR_RETURN(
      BufferMapping mapping,
      view.buffer()->Map(MappingMode::kScoped, MemoryAccess::kRead, 0,
                         kWholeBuffer));
  ElementsPrinter printer(view.element_type(), max_elements, &text);
  EMBER_RETURN_IF_ERROR(
      printer.Print(view.shape(),
                    std::span<const uint8_t>(mapping.data(), mapping.size())),
      "printing a %s tensor", view.ShapeAndTypeString().c_str());
  return text;
}

}  // namespace ember::hal
