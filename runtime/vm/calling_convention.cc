#include "runtime/vm/calling_convention.h"

#include "runtime/base/status.h"

namespace ember::vm {

static_assert(CconvTypeOfChar(CconvChar(CconvType::kI32)) == CconvType::kI32 &&
              CconvTypeOfChar(CconvChar(CconvType::kI64)) == CconvType::kI64 &&
              CconvTypeOfChar(CconvChar(CconvType::kF32)) == CconvType::kF32 &&
              CconvTypeOfChar(CconvChar(CconvType::kF64)) == CconvType::kF64 &&
              CconvTypeOfChar(CconvChar(CconvType::kRef)) == CconvType::kRef &&
              CconvTypeOfChar(CconvChar(CconvType::kSpanBegin)) ==
                  CconvType::kSpanBegin &&
              CconvTypeOfChar(CconvChar(CconvType::kSpanEnd)) ==
                  CconvType::kSpanEnd);

Status CconvSyntaxStatus(const CconvSyntax& syntax) {
  switch (syntax.error) {
    case CconvError::kNone: return Status();
    case CconvError::kVersion:
      return InvalidArgumentError("must start with version '0'");
    case CconvError::kMissingSeparator:
      return InvalidArgumentError("missing '_' between arguments and results");
    case CconvError::kEmptySide:
      return InvalidArgumentError("empty side (use 'v')");
    case CconvError::kNestedSpan:
      return InvalidArgumentError("nested variadic span");
    case CconvError::kUnopenedSpan:
      return InvalidArgumentError("'D' without 'C'");
    case CconvError::kEmptySpan: return InvalidArgumentError("empty span");
    case CconvError::kUnterminatedSpan:
      return InvalidArgumentError("unterminated variadic span");
    case CconvError::kUnknownChar:
      return InvalidArgumentError(
          StringPrintf("unknown type character 0x%02x",
                       static_cast<unsigned char>(syntax.bad_char)));
  }
  return InvalidArgumentError("malformed calling convention");
}

namespace {

// The register assignment of a side (CconvSlot::ordinal) and the spans'
// pairing, for a side the syntax check passed.
CconvSide BuildSide(std::string_view text, bool has_span) {
  CconvSide side;
  side.text = text;
  side.has_span = has_span;
  side.slots.reserve(text.size());
  uint64_t i32 = 0;
  uint64_t ref = 0;
  size_t span_begin = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const CconvType type = CconvTypeOfChar(text[i]);
    CconvSlot slot{type, 0};
    switch (type) {
      case CconvType::kRef: slot.ordinal = static_cast<uint32_t>(ref++); break;
      case CconvType::kSpanBegin: span_begin = i; break;
      case CconvType::kSpanEnd:
        slot.ordinal = static_cast<uint32_t>(span_begin);
        side.slots[span_begin].ordinal = static_cast<uint32_t>(i);
        break;
      default:
        if (IsWideCconvType(type)) i32 = (i32 + 1) & ~uint64_t{1};
        slot.ordinal = static_cast<uint32_t>(i32);
        i32 += IsWideCconvType(type) ? 2 : 1;
        break;
    }
    side.slots.push_back(slot);
  }
  side.i32_registers = i32;
  side.ref_registers = ref;
  return side;
}

}  // namespace

Result<CallingConvention> ParseCallingConvention(std::string_view cconv) {
  const CconvSyntax syntax = CheckCallingConventionSyntax(cconv);
  EMBER_RETURN_IF_ERROR(CconvSyntaxStatus(syntax));
  CallingConvention result;
  result.text = cconv;
  result.arguments = BuildSide(syntax.arguments, syntax.arguments_have_span);
  result.results = BuildSide(syntax.results, syntax.results_have_span);
  return result;
}

}  // namespace ember::vm
