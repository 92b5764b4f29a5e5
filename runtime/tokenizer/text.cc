// UTF-8 validation and decoding, GPT-2's byte table, and the literal and
// regex replacements the normalizers and decoders share.
#include <algorithm>
#include <cstring>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {

// ---- UTF-8 ------------------------------------------------------------------

namespace {

// For a byte >= 0x80 that can start a well-formed UTF-8 sequence (Unicode's
// table 3-7): the sequence's width and the range its second byte must be
// in. False for a byte that cannot start one.
bool Utf8Lead(uint8_t b, size_t* width, uint8_t* lo, uint8_t* hi) {
  *lo = 0x80;
  *hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) {
    *width = 2;
  } else if (b == 0xE0) {
    *width = 3, *lo = 0xA0;
  } else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) {
    *width = 3;
  } else if (b == 0xED) {
    *width = 3, *hi = 0x9F;
  } else if (b == 0xF0) {
    *width = 4, *lo = 0x90;
  } else if (b >= 0xF1 && b <= 0xF3) {
    *width = 4;
  } else if (b == 0xF4) {
    *width = 4, *hi = 0x8F;
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  size_t n = text.size(), i = 0;
  while (i < n) {
    uint8_t b = s[i];
    if (b < 0x80) {
      ++i;
      // Then eight ASCII bytes at a time while they last (most text is
      // mostly ASCII).
      while (i + 8 <= n) {
        uint64_t eight;
        std::memcpy(&eight, s + i, 8);
        if ((eight & 0x8080808080808080ull) != 0) break;
        i += 8;
      }
      continue;
    }
    size_t w;
    uint8_t lo, hi;
    if (!Utf8Lead(b, &w, &lo, &hi)) {
      return false;
    }
    if (n - i < w || s[i + 1] < lo || s[i + 1] > hi) return false;
    for (size_t k = 2; k < w; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
    }
    i += w;
  }
  return true;
}

// Unicode's "maximal subpart" replacement, which Rust's from_utf8_lossy and
// Python's errors="replace" both follow: a lead byte and the continuation
// bytes that can still complete it are one U+FFFD; a byte that cannot
// start anything is one U+FFFD.
std::string Utf8Lossy(std::string_view bytes) {
  static constexpr char kReplacement[] = "\xEF\xBF\xBD";
  const auto* s = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t n = bytes.size(), i = 0;
  std::string out;
  out.reserve(n);
  while (i < n) {
    uint8_t b = s[i];
    if (b < 0x80) {
      out.push_back(static_cast<char>(b));
      ++i;
      continue;
    }
    size_t w;
    uint8_t lo, hi;
    if (!Utf8Lead(b, &w, &lo, &hi)) {
      out += kReplacement;
      ++i;
      continue;
    }
    size_t k = 1;
    if (i + 1 < n && s[i + 1] >= lo && s[i + 1] <= hi) {
      k = 2;
      while (k < w && i + k < n && (s[i + k] & 0xC0) == 0x80) ++k;
    }
    if (k == w) {
      out.append(bytes.substr(i, w));
    } else {
      out += kReplacement;
    }
    i += k;
  }
  return out;
}

void AppendCodePoint(uint32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

namespace {

// GPT-2's table: the printable bytes '!'..'~', 0xA1..0xAC and 0xAE..0xFF
// stand for themselves; the other 68 bytes, in order, for U+0100 onwards.
struct ByteLevelTable {
  std::string chars[256];
  int16_t byte_of[512];
  ByteLevelTable() {
    std::fill(std::begin(byte_of), std::end(byte_of), int16_t{-1});
    uint32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) ||
                       (b >= 0xAE && b <= 0xFF);
      uint32_t c = printable ? static_cast<uint32_t>(b) : next++;
      AppendCodePoint(c, &chars[b]);
      byte_of[c] = static_cast<int16_t>(b);
    }
  }
};
const ByteLevelTable& Table() {
  static const ByteLevelTable table;
  return table;
}

}  // namespace

const std::string& ByteLevelChar(uint8_t byte) { return Table().chars[byte]; }
int ByteLevelByte(uint32_t code_point) {
  return code_point < 512 ? Table().byte_of[code_point] : -1;
}

void ReplaceAll(std::string_view in, std::string_view pattern,
                std::string_view content, std::string* out) {
  out->clear();
  if (pattern.empty()) {
    out->assign(in);
    return;
  }
  size_t pos = 0;
  while (true) {
    size_t hit = in.find(pattern, pos);
    if (hit == std::string_view::npos) break;
    out->append(in.substr(pos, hit - pos));
    out->append(content);
    pos = hit + pattern.size();
  }
  out->append(in.substr(pos));
}

Status RegexReplace(const Regex& regex, std::string_view in,
                    std::string_view content, std::string* out) {
  out->clear();
  size_t pos = 0;
  EMBER_RETURN_IF_ERROR(regex.ForEachMatch(in, [&](size_t start, size_t end) {
    out->append(in.substr(pos, start - pos));
    out->append(content);
    pos = end;
  }));
  out->append(in.substr(pos));
  return Status::Ok();
}

}  // namespace ember::tokenizer
