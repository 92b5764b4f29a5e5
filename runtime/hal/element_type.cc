#include "runtime/hal/element_type.h"

#include <charconv>

namespace ember::hal {
namespace {

struct NamedType {
  std::string_view name;
  ElementType type;
};
// Names that are not "<prefix><bits>".
constexpr NamedType kSpecialNames[] = {
    {"f8E5M2", ElementType::kFloat8E5M2},
    {"f8E4M3FN", ElementType::kFloat8E4M3FN},
    {"f8E5M2FNUZ", ElementType::kFloat8E5M2FNUZ},
    {"f8E4M3FNUZ", ElementType::kFloat8E4M3FNUZ},
    {"f8E8M0FNU", ElementType::kFloat8E8M0FNU},
};

struct Prefix {
  std::string_view text;
  NumericalType type;
};
// Tried in order: "si" and "ui" before nothing shorter could match them, and
// "bf"/"cf" are distinct from "f" because prefixes are compared whole.
constexpr Prefix kPrefixes[] = {
    {"i", NumericalType::kInteger},
    {"si", NumericalType::kIntegerSigned},
    {"ui", NumericalType::kIntegerUnsigned},
    {"f", NumericalType::kFloatIeee},
    {"bf", NumericalType::kFloatBrain},
    {"cf", NumericalType::kFloatComplex},
    {"x", NumericalType::kUnknown},
    {"*", NumericalType::kUnknown},
};

}  // namespace

Result<ElementType> ParseElementType(std::string_view text) {
  if (text == "i1") return ElementType::kBool8;
  for (const NamedType& named : kSpecialNames) {
    if (text == named.name) return named.type;
  }
  for (const Prefix& prefix : kPrefixes) {
    if (!text.starts_with(prefix.text)) continue;
    std::string_view digits = text.substr(prefix.text.size());
    uint32_t bits = 0;
    auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), bits);
    if (digits.empty() || error != std::errc() ||
        end != digits.data() + digits.size() || bits > 0xFF) {
      return InvalidArgumentError("out of range bit count in element type '" +
                                  std::string(text) + "'");
    }
    return static_cast<ElementType>(MakeElementTypeValue(prefix.type, bits));
  }
  return InvalidArgumentError("unknown element type '" + std::string(text) +
                              "'");
}

std::string FormatElementType(ElementType type) {
  for (const NamedType& named : kSpecialNames) {
    if (type == named.type) return std::string(named.name);
  }
  uint32_t bits = BitCount(type);
  const char* prefix = "*";
  switch (NumericalTypeOf(type)) {
    case NumericalType::kBoolean:
      prefix = "i";
      bits = 1;
      break;
    case NumericalType::kInteger: prefix = "i"; break;
    case NumericalType::kIntegerSigned: prefix = "si"; break;
    case NumericalType::kIntegerUnsigned: prefix = "ui"; break;
    case NumericalType::kFloatIeee: prefix = "f"; break;
    case NumericalType::kFloatBrain: prefix = "bf"; break;
    case NumericalType::kFloatComplex: prefix = "cf"; break;
    default: break;
  }
  return prefix + std::to_string(bits);
}

}  // namespace ember::hal
