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
// IREE formats through its bundled printf (eyalroz/printf) rather than the C
// library's. For %g that printf estimates the decimal exponent with a
// four-term series for log10 of the binary mantissa and a continued fraction
// for the power of ten, scales the value by a table power of ten (or by the
// estimate, far from 1), and cuts the result into an integer part and a
// fraction of fixed width with plain double arithmetic. The steps below are
// the same operations in the same order, so every rounding happens where it
// happens there. That needs each operation rounded on its own: GCC does not
// fuse multiply-adds in ISO C++ mode, and the pragma stops Clang from doing
// so on targets with FMA (IREE's x86-64 builds have none to use).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

namespace {

constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                   1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17};
// Exponents with a magnitude below this scale by the table above.
constexpr int kTabulatedExponents = 17;
constexpr int kMantissaBits = 52;
constexpr uint64_t kMantissaMask = (uint64_t{1} << kMantissaBits) - 1;
constexpr int kExponentBias = 1023;
// The printf's text buffer; digits past it are silently dropped.
constexpr size_t kDigitCapacity = 32;

uint64_t BitsOf(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

double DoubleOfBits(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

bool SignBit(double value) { return (BitsOf(value) >> 63) != 0; }

// The unbiased binary exponent field (-1023 for zeros and subnormals).
int BinaryExponent(double value) {
  return static_cast<int>((BitsOf(value) >> kMantissaBits) & 0x7FF) -
         kExponentBias;
}

// A double-to-integer truncation as x86-64 performs it: values out of range
// (and NaN) give INT64_MIN instead of undefined behaviour.
int64_t TruncateToInt64(double value) {
  if (!(value > -9223372036854775808.0 && value < 9223372036854775808.0)) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(value);
}

// floor() for values whose floor fits an int.
int FloorToInt(double value) {
  if (value >= 0) return static_cast<int>(value);
  const int truncated = static_cast<int>(value);
  return static_cast<double>(truncated) == value ? truncated : truncated - 1;
}

// log10 of a positive finite value: a Taylor series of log10(m) around
// m = 1.5 for the mantissa m in [1, 2), plus the binary exponent's share.
double EstimateLog10(double positive) {
  const int exponent = BinaryExponent(positive);
  const double mantissa =
      DoubleOfBits((BitsOf(positive) & kMantissaMask) |
                   (static_cast<uint64_t>(kExponentBias) << kMantissaBits));
  const double t = mantissa - 1.5;
  double sum = 0.1760912590556812420 + t * 0.2895296546021678851;
  sum = sum - t * t * 0.0965098848673892950;
  sum = sum + t * t * t * 0.0428932821632841311;
  return sum + exponent * 0.30102999566398119521;
}

// 10^exponent as 2^k times e^r, where r = exponent * ln 10 - k * ln 2 is at
// most ln 2 / 2, with e^r from a continued fraction; 1e-308 exactly at -308.
double EstimatePowerOfTen(int exponent) {
  if (exponent == -308) return 1e-308;
  const int binary = FloorToInt(exponent * 3.321928094887362 + 0.5);
  const double r = exponent * 2.302585092994046 - binary * 0.6931471805599453;
  const double r2 = r * r;
  // The exponent field is written without a range check, as there.
  double power = DoubleOfBits(
      (static_cast<uint64_t>(static_cast<int64_t>(binary)) + kExponentBias)
      << kMantissaBits);
  power *= 1 + 2 * r / (2 - r + r2 / (6 + r2 / (10 + r2 / 14)));
  return power;
}

// A value cut at a fixed number of fraction digits: `integral`.`fraction`,
// the fraction an integer below 10^digits.
struct FixedDigits {
  int64_t integral = 0;
  int64_t fraction = 0;
  bool negative = false;
};

// Splits `number` directly, rounding the fraction half to even.
FixedDigits SplitFixed(double number, unsigned digits) {
  FixedDigits split;
  split.negative = SignBit(number);
  const double magnitude = split.negative ? -number : number;
  split.integral = TruncateToInt64(magnitude);
  const double scaled =
      (magnitude - static_cast<double>(split.integral)) * kPowersOfTen[digits];
  split.fraction = TruncateToInt64(scaled);
  const double rest = scaled - static_cast<double>(split.fraction);
  if (rest > 0.5 || (rest == 0.5 && (split.fraction & 1) != 0)) {
    ++split.fraction;
  }
  if (static_cast<double>(split.fraction) >= kPowersOfTen[digits]) {
    split.fraction = 0;
    ++split.integral;
  }
  if (digits == 0) {
    const double rest_of_integral =
        magnitude - static_cast<double>(split.integral);
    if (rest_of_integral == 0.5 && (split.integral & 1) != 0) {
      ++split.integral;
    }
  }
  return split;
}

// Multiplication or division by `factor`, whichever keeps it representable.
struct Scaling {
  double factor = 1;
  bool multiply = false;
};

double Scale(double value, Scaling scaling) {
  return scaling.multiply ? value * scaling.factor : value / scaling.factor;
}

double Unscale(double value, Scaling scaling) {
  return scaling.multiply ? value / scaling.factor : value * scaling.factor;
}

// `scaling` followed by a multiplication by `extra`, as one step.
Scaling Compose(Scaling scaling, double extra) {
  if (scaling.multiply) return {scaling.factor * extra, true};
  if (std::abs(BinaryExponent(scaling.factor)) >
      std::abs(BinaryExponent(extra))) {
    return {scaling.factor / extra, false};
  }
  return {extra / scaling.factor, true};
}

// Splits `magnitude` scaled by `scaling` (to about [1, 10)); the fraction
// is taken from the unscaled remainder so that it keeps its precision.
FixedDigits SplitScaled(bool negative, unsigned digits, double magnitude,
                        Scaling scaling, int exponent) {
  const double scaled = Scale(magnitude, scaling);
  if (-exponent + static_cast<int>(digits) >=
      std::numeric_limits<double>::max_exponent10 - 1) {
    // 10^digits times the scale would not be representable.
    return SplitFixed(negative ? -scaled : scaled, digits);
  }
  FixedDigits split;
  split.negative = negative;
  split.integral = TruncateToInt64(scaled);
  const double remainder =
      magnitude - Unscale(static_cast<double>(split.integral), scaling);
  const double unit = kPowersOfTen[digits];
  double fraction = Scale(remainder, Compose(scaling, unit));
  split.fraction = TruncateToInt64(fraction);
  fraction -= static_cast<double>(split.fraction);
  if (fraction >= 0.5) ++split.fraction;
  if (fraction == 0.5) split.fraction &= ~int64_t{1};
  if (static_cast<double>(split.fraction) >= unit) {
    split.fraction = 0;
    ++split.integral;
  }
  return split;
}

// The text of `split` with `digits` fraction digits, trailing zeros (and a
// bare point) dropped. Built backwards in a buffer of the printf's size.
std::string FixedText(FixedDigits split, unsigned digits) {
  char reversed[kDigitCapacity];
  size_t length = 0;
  auto push = [&](char c) {
    if (length < kDigitCapacity) reversed[length++] = c;
  };
  if (digits != 0 && split.fraction > 0) {
    unsigned remaining = digits;  // wraps if the fraction is too wide
    while (split.fraction % 10 == 0) {
      --remaining;
      split.fraction /= 10;
    }
    do {
      --remaining;
      push(static_cast<char>('0' + split.fraction % 10));
      split.fraction /= 10;
    } while (split.fraction != 0 && length < kDigitCapacity);
    while (remaining > 0 && length < kDigitCapacity) {
      push('0');
      --remaining;
    }
    push('.');
  }
  do {
    push(static_cast<char>('0' + split.integral % 10));
    split.integral /= 10;
  } while (split.integral != 0 && length < kDigitCapacity);
  if (split.negative) push('-');
  return std::string(std::make_reverse_iterator(reversed + length),
                     std::make_reverse_iterator(reversed));
}

}  // namespace

std::string FormatFloatG(double value, bool uppercase) {
  if (value != value) return "nan";
  if (value < -std::numeric_limits<double>::max()) return "-inf";
  if (value > std::numeric_limits<double>::max()) return "inf";
  const bool negative = SignBit(value);
  const double magnitude = negative ? -value : value;
  // Six significant digits: one before the point, five after it.
  unsigned digits = 5;
  int exponent = 0;
  Scaling scaling;
  if (magnitude != 0) {
    exponent = FloorToInt(EstimateLog10(magnitude));
    double power = EstimatePowerOfTen(exponent);
    if (magnitude < power) {
      --exponent;
      power /= 10;
    }
    const bool tabulated = std::abs(exponent) < kTabulatedExponents;
    scaling.factor = tabulated ? kPowersOfTen[std::abs(exponent)] : power;
    scaling.multiply = exponent < 0 && tabulated;
  }
  FixedDigits split = exponent == 0 ? SplitFixed(value, digits)
                                    : SplitScaled(negative, digits, magnitude,
                                                  scaling, exponent);
  const int estimated_exponent = exponent;
  if (split.integral >= 10) {  // rounded up to the next power of ten
    ++exponent;
    split.integral = 1;
    split.fraction = 0;
  }
  const bool fixed_notation =
      exponent >= -4 && exponent < static_cast<int>(digits) + 1;
  if (fixed_notation) {
    // The same six significant digits as a plain decimal. The width comes
    // from the rounded exponent, the split is redone from the value itself
    // and the estimate, not the rounded exponent, decides the correction.
    digits = static_cast<int>(digits) > exponent
                 ? static_cast<unsigned>(static_cast<int>(digits) - exponent)
                 : 0;
    split = SplitFixed(value, digits);
    if (estimated_exponent >= -1 &&
        static_cast<double>(split.integral) ==
            kPowersOfTen[estimated_exponent + 1] &&
        digits > 0) {
      --digits;
    }
    return FixedText(split, digits);
  }
  std::string text = FixedText(split, digits);
  text += uppercase ? 'E' : 'e';
  text += exponent < 0 ? '-' : '+';
  const int magnitude_of_exponent = std::abs(exponent);
  if (magnitude_of_exponent < 10) text += '0';  // at least two digits
  return text + std::to_string(magnitude_of_exponent);
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
      double value;
      DecodeFloat(bytes, type, &value);
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
