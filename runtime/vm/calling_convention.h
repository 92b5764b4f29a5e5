// Calling conventions: the signature strings of VM functions.
//
// Every function the VM can call -- a bytecode function, a native export, an
// import -- carries a cconv string "0<arguments>_<results>": version '0',
// one character per value (i = i32, I = i64, f = f32, F = f64, r = ref),
// variadic spans C...D on the argument side, and "v" for an empty side. It is
// the contract checked when imports are linked and the layout of the boxed
// arguments a call passes (module.h).
//
// This header is the only place that reads cconv characters: the loader,
// the verifier, the interpreter's marshalling, native modules and the host
// bindings all go through CconvTypeOfChar and the parsed form below, so a
// rule such as "an i64 starts at an even register" is written once.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/value.h"

namespace ember::vm {

// What one cconv character stands for.
enum class CconvType : uint8_t {
  kI32,
  kI64,
  kF32,
  kF64,
  kRef,
  kSpanBegin,  // 'C'
  kSpanEnd,    // 'D'
  kInvalid,
};

// The one character -> type mapping.
constexpr CconvType CconvTypeOfChar(char c) {
  switch (c) {
    case 'i': return CconvType::kI32;
    case 'I': return CconvType::kI64;
    case 'f': return CconvType::kF32;
    case 'F': return CconvType::kF64;
    case 'r': return CconvType::kRef;
    case 'C': return CconvType::kSpanBegin;
    case 'D': return CconvType::kSpanEnd;
    default: return CconvType::kInvalid;
  }
}

// The character of a type (the inverse of CconvTypeOfChar; '?' for
// kInvalid), for messages and for spelling cconvs of C++ signatures.
constexpr char CconvChar(CconvType type) {
  constexpr char kChars[] = {'i', 'I', 'f', 'F', 'r', 'C', 'D', '?'};
  return kChars[static_cast<size_t>(type)];
}

// A value rather than a span marker.
constexpr bool IsCconvValue(CconvType type) { return type <= CconvType::kRef; }

// i64 and f64 take two i32 registers, the first one even.
constexpr bool IsWideCconvType(CconvType type) {
  return type == CconvType::kI64 || type == CconvType::kF64;
}

// The primitive type of a value; kNone for a ref or a marker.
constexpr ValueType ValueTypeOfCconv(CconvType type) {
  switch (type) {
    case CconvType::kI32: return ValueType::kI32;
    case CconvType::kI64: return ValueType::kI64;
    case CconvType::kF32: return ValueType::kF32;
    case CconvType::kF64: return ValueType::kF64;
    default: return ValueType::kNone;
  }
}

// "i32", "i64", "f32", "f64", "ref"; "?" for a marker or kInvalid.
constexpr const char* CconvTypeName(CconvType type) {
  switch (type) {
    case CconvType::kI32: return "i32";
    case CconvType::kI64: return "i64";
    case CconvType::kF32: return "f32";
    case CconvType::kF64: return "f64";
    case CconvType::kRef: return "ref";
    default: return "?";
  }
}

// ---- syntax (constexpr, allocation-free) -----------------------------------

enum class CconvError : uint8_t {
  kNone,
  kVersion,           // not "0..."
  kMissingSeparator,  // no '_'
  kEmptySide,         // "" where "v" is meant
  kNestedSpan,
  kUnopenedSpan,  // 'D' without 'C'
  kEmptySpan,     // "CD"
  kUnterminatedSpan,
  kUnknownChar,
};

// What a syntax check finds out about a cconv without allocating.
struct CconvSyntax {
  CconvError error = CconvError::kNone;
  char bad_char = 0;           // for kUnknownChar
  std::string_view arguments;  // "v" spelled as empty
  std::string_view results;
  bool arguments_have_span = false;
  bool results_have_span = false;
  constexpr bool ok() const { return error == CconvError::kNone; }
};

namespace cconv_internal {
// Index loops rather than string_view::find and ==: GCC's sanitizer builds
// reject their pointer tests in constant expressions over template
// parameter objects (native_module.h's FixedString).
constexpr bool IsVoidSide(std::string_view side) {
  return side.size() == 1 && side[0] == 'v';
}
constexpr CconvError CheckSide(std::string_view side, bool* has_span,
                               char* bad_char) {
  if (side.empty()) return CconvError::kEmptySide;
  bool in_span = false;
  size_t span_length = 0;
  for (size_t i = 0; i < side.size(); ++i) {
    const char c = side[i];
    switch (CconvTypeOfChar(c)) {
      case CconvType::kSpanBegin:
        if (in_span) return CconvError::kNestedSpan;
        in_span = true;
        *has_span = true;
        span_length = 0;
        break;
      case CconvType::kSpanEnd:
        if (!in_span) return CconvError::kUnopenedSpan;
        if (span_length == 0) return CconvError::kEmptySpan;
        in_span = false;
        break;
      case CconvType::kInvalid: *bad_char = c; return CconvError::kUnknownChar;
      default: ++span_length; break;
    }
  }
  return in_span ? CconvError::kUnterminatedSpan : CconvError::kNone;
}
}  // namespace cconv_internal

// Checks a cconv ("0" + args + "_" + results; chars i I f F r, spans C...D,
// "v" for an empty side) and splits it into its sides. Usable in
// static_asserts.
constexpr CconvSyntax CheckCallingConventionSyntax(std::string_view cconv) {
  CconvSyntax syntax;
  if (cconv.size() < 2 || cconv[0] != '0') {
    syntax.error = CconvError::kVersion;
    return syntax;
  }
  size_t split = 1;
  while (split < cconv.size() && cconv[split] != '_') ++split;
  if (split == cconv.size()) {
    syntax.error = CconvError::kMissingSeparator;
    return syntax;
  }
  syntax.arguments = cconv.substr(1, split - 1);
  syntax.results = cconv.substr(split + 1);
  if (cconv_internal::IsVoidSide(syntax.arguments)) {
    syntax.arguments = {};
  } else {
    syntax.error = cconv_internal::CheckSide(
        syntax.arguments, &syntax.arguments_have_span, &syntax.bad_char);
    if (!syntax.ok()) return syntax;
  }
  if (cconv_internal::IsVoidSide(syntax.results)) {
    syntax.results = {};
  } else {
    syntax.error = cconv_internal::CheckSide(
        syntax.results, &syntax.results_have_span, &syntax.bad_char);
  }
  return syntax;
}

// The INVALID_ARGUMENT status of a failed syntax check (OK when it passed).
Status CconvSyntaxStatus(const CconvSyntax& syntax);

// ---- the parsed form --------------------------------------------------------

// One character of a parsed side.
struct CconvSlot {
  CconvType type;
  // A value: its register in the callee's frame when the side is packed in
  // order, per bank -- the i32 bank for i/I/f/F (an i64/f64 rounds up to an
  // even register and takes two), the ref bank for r. Only meaningful for a
  // side without spans. kSpanBegin: the index of its kSpanEnd; kSpanEnd: the
  // index of its kSpanBegin.
  uint32_t ordinal;
};

// One side (arguments or results) of a parsed cconv.
struct CconvSide {
  std::string_view text;         // its characters; "v" spelled as empty
  std::vector<CconvSlot> slots;  // one per character
  bool has_span = false;
  // Registers the values take per bank (see CconvSlot::ordinal); without
  // spans, what a frame needs to receive the side.
  uint64_t i32_registers = 0;
  uint64_t ref_registers = 0;

  size_t size() const { return slots.size(); }
  const CconvSlot& operator[](size_t i) const { return slots[i]; }
};

// A cconv parsed once (per distinct string per module) for everyone who
// calls, checks or marshals through it.
struct CallingConvention {
  std::string_view text;  // the whole cconv
  CconvSide arguments;
  CconvSide results;
};

// Parses and validates a cconv; the views point into `cconv`.
Result<CallingConvention> ParseCallingConvention(std::string_view cconv);

}  // namespace ember::vm
