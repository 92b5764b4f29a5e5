#include "runtime/base/printable.h"

#include <cstdint>
#include <cstdio>

namespace ember {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendHexEscape(std::string& out, unsigned char c) {
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 0xF];
}

bool IsPrintableAscii(unsigned char c) { return c >= 0x20 && c < 0x7F; }

// Length of the well-formed UTF-8 sequence of two or more bytes starting at
// text[i] (no overlongs, surrogates or code points past U+10FFFF), or 0.
// Checking each start byte alone agrees with Python's decoder, which reports
// maximal ill-formed subparts: none of their bytes can start a well-formed
// sequence.
size_t MultiByteUtf8Length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  size_t length;
  uint32_t min_code_point;
  uint32_t code_point;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, min_code_point = 0x80, code_point = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, min_code_point = 0x800, code_point = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, min_code_point = 0x10000, code_point = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i + k) & 0x3F);
  }
  if (code_point < min_code_point || code_point > 0x10FFFF ||
      (code_point >= 0xD800 && code_point <= 0xDFFF)) {
    return 0;
  }
  return length;
}

}  // namespace

void AppendEscaped(std::string& out, std::string_view text, Escape mode,
                   size_t max_bytes) {
  const size_t full_size = text.size();
  const bool cut = full_size > max_bytes;
  if (cut) text = text.substr(0, max_bytes);
  out.reserve(out.size() + text.size() + (cut ? 32 : 0));
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (mode == Escape::kInvalidUtf8) {
        out += static_cast<char>(c);
      } else if (c == '\\' || c == '"') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (IsPrintableAscii(c)) {
        out += static_cast<char>(c);
      } else {
        AppendHexEscape(out, c);
      }
      ++i;
      continue;
    }
    if (mode != Escape::kAscii) {
      if (size_t length = MultiByteUtf8Length(text, i)) {
        out.append(text.substr(i, length));
        i += length;
        continue;
      }
    }
    AppendHexEscape(out, c);
    ++i;
  }
  if (cut) {
    char suffix[48];
    std::snprintf(suffix, sizeof(suffix), "... (%zu bytes)", full_size);
    out += suffix;
  }
}

std::string Escaped(std::string_view text, Escape mode, size_t max_bytes) {
  std::string out;
  AppendEscaped(out, text, mode, max_bytes);
  return out;
}

void AppendJsonString(std::string& out, std::string_view text) {
  out += '"';
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      if (size_t length = MultiByteUtf8Length(text, i)) {
        out.append(text.substr(i, length));
        i += length;
      } else {
        out += "\\ufffd";
        ++i;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (IsPrintableAscii(c)) {
          out += static_cast<char>(c);
        } else {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        }
    }
    ++i;
  }
  out += '"';
}

}  // namespace ember
