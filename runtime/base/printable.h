// Printable: the one place that turns untrusted bytes (names and strings from
// a module file, vm.fail messages, source locations) into text that is safe
// to show: in an error message, on a terminal, as a Python str or in JSON.
//
// Escapes use lower-case hex (\xff), as Python's repr and "backslashreplace"
// do, so text escaped here and text escaped by Python read the same.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ember {

enum class Escape {
  // ASCII only, a valid C string-literal body: printable ASCII as is,
  // `\` and `"` backslashed, every other byte \xNN. For diagnostics and
  // disassembly: nothing a terminal would act on survives.
  kAscii,
  // As kAscii, but well-formed multi-byte UTF-8 (no overlongs, surrogates or
  // code points past U+10FFFF) is kept, so non-English names read as
  // written. For text dumps shown on a terminal.
  kUtf8,
  // Only the bytes that are not part of well-formed UTF-8 become \xNN;
  // everything else, control characters and NUL included, is kept. The
  // result is valid UTF-8 and equals Python's "backslashreplace" decoding.
  // For messages that become Python strings.
  kInvalidUtf8,
};

// Untrusted strings are cut to this many bytes in messages, so a message
// costs O(1) however long the string is.
inline constexpr size_t kMaxQuotedBytes = 200;

// No cut.
inline constexpr size_t kNoLimit = static_cast<size_t>(-1);

// Appends `text` escaped by `mode`. When `text` is longer than `max_bytes`,
// only its first `max_bytes` bytes are shown, followed by "... (N bytes)"
// with the full length N.
void AppendEscaped(std::string& out, std::string_view text, Escape mode,
                   size_t max_bytes = kNoLimit);
std::string Escaped(std::string_view text, Escape mode,
                    size_t max_bytes = kNoLimit);

// The usual way to quote an untrusted string in an error message: kAscii,
// cut at kMaxQuotedBytes.
inline std::string Printable(std::string_view text) {
  return Escaped(text, Escape::kAscii, kMaxQuotedBytes);
}

// Appends `text` as a JSON string literal, quotes included: `"`, `\` and
// control characters escaped (\n, \r, \t, else \u00nn; DEL too), well-formed
// UTF-8 kept, and each byte outside well-formed UTF-8 as \ufffd, the
// replacement character Python's "replace" decoding shows for it.
void AppendJsonString(std::string& out, std::string_view text);

}  // namespace ember
