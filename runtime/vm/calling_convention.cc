#include "runtime/vm/calling_convention.h"

#include "runtime/base/status.h"

namespace ember::vm {

Result<CallingConvention> ParseCallingConvention(std::string_view cconv) {
  if (cconv.size() < 2 || cconv[0] != '0') {
    return InvalidArgumentError("must start with version '0'");
  }
  size_t split = cconv.find('_');
  if (split == std::string_view::npos) {
    return InvalidArgumentError("missing '_' between arguments and results");
  }
  CallingConvention result{cconv.substr(1, split - 1), cconv.substr(split + 1)};
  for (std::string_view* side : {&result.arguments, &result.results}) {
    if (*side == "v") {
      *side = std::string_view();
      continue;
    }
    if (side->empty()) return InvalidArgumentError("empty side (use 'v')");
    bool in_span = false;
    size_t span_length = 0;
    for (char c : *side) {
      switch (c) {
        case 'i':
        case 'I':
        case 'f':
        case 'F':
        case 'r': ++span_length; break;
        case 'C':
          if (in_span) return InvalidArgumentError("nested variadic span");
          in_span = true;
          span_length = 0;
          break;
        case 'D':
          if (!in_span) return InvalidArgumentError("'D' without 'C'");
          if (span_length == 0) return InvalidArgumentError("empty span");
          in_span = false;
          break;
        default:
          return InvalidArgumentError(StringPrintf(
              "unknown type character 0x%02x", static_cast<unsigned char>(c)));
      }
    }
    if (in_span) return InvalidArgumentError("unterminated variadic span");
  }
  return result;
}

}  // namespace ember::vm
