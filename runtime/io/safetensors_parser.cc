// The safetensors reader, as IREE 3.11's iree_io_parse_safetensors_index:
// an 8-byte little-endian header length, a JSON object of tensors
// {"name": {..., "data_offsets": [begin, end]}, "__metadata__": {...}}, then
// the data. Each tensor becomes a file entry at 8 + header length + begin,
// with no metadata; "__metadata__" is skipped. Keys are the raw JSON string
// contents (escapes are checked, not decoded), as IREE keeps them.
//
// The JSON reader is IREE's dialect (comments allowed, a trailing comma
// accepted, text after the object ignored, nesting at most 128 deep) and is
// linear: every byte is scanned at most twice (once for the object, once
// more to find "data_offsets" inside an entry).
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/io/parsers_internal.h"

namespace ember::io {
namespace {

constexpr int kMaxJsonDepth = 128;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class Json {
 public:
  static Status SkipSpaceAndComments(std::string_view& s) {
    while (!s.empty()) {
      size_t i = 0;
      while (i < s.size() && IsSpace(s[i])) ++i;
      s.remove_prefix(i);
      if (s.size() >= 2 && s[0] == '/' && s[1] == '/') {
        size_t end = s.find('\n', 2);
        s.remove_prefix(end == std::string_view::npos ? s.size() : end + 1);
        continue;
      }
      if (s.size() >= 2 && s[0] == '/' && s[1] == '*') {
        size_t end = s.find("*/", 2);
        if (end == std::string_view::npos) {
          return InvalidArgumentError("unterminated /* */ comment");
        }
        s.remove_prefix(end + 2);
        continue;
      }
      break;
    }
    return Status();
  }

  // A string's raw contents (between the quotes).
  static Status String(std::string_view& s, std::string_view* out) {
    if (s.empty() || s[0] != '"') {
      return InvalidArgumentError("missing string \" prefix");
    }
    for (size_t i = 1; i < s.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == '"') {
        *out = s.substr(1, i - 1);
        s.remove_prefix(i + 1);
        return Status();
      }
      if (c < 0x20) {
        return InvalidArgumentError(
            StringPrintf("unescaped control character 0x%02X in string", c));
      }
      if (c == '\\') {
        if (i + 1 >= s.size()) {
          return InvalidArgumentError("escape code with no contents");
        }
        char e = s[++i];
        switch (e) {
          case '"':
          case '\\':
          case '/':
          case 'b':
          case 'f':
          case 'n':
          case 'r':
          case 't': break;
          case 'u':
            if (i + 4 >= s.size()) {
              return InvalidArgumentError("truncated unicode escape code");
            }
            for (int j = 1; j <= 4; ++j) {
              if (!IsHex(s[i + j])) {
                return InvalidArgumentError(
                    "invalid hex digit in unicode escape");
              }
            }
            i += 4;
            break;
          default:
            return InvalidArgumentError(
                StringPrintf("unrecognized string escape code \\%c", e));
        }
      }
    }
    return InvalidArgumentError("unterminated string");
  }

  static Status Number(std::string_view& s, std::string_view* out) {
    size_t i = 0, n = s.size();
    if (n == 0) return InvalidArgumentError("empty number");
    if (s[i] == '-') {
      if (++i >= n) return InvalidArgumentError("number with only minus sign");
    }
    if (s[i] == '0') {
      ++i;
    } else {
      if (!IsDigit(s[i])) return InvalidArgumentError("invalid number");
      while (i < n && IsDigit(s[i])) ++i;
    }
    if (i < n && s[i] == '.') {
      if (++i >= n || !IsDigit(s[i])) {
        return InvalidArgumentError("invalid fractional part in number");
      }
      while (i < n && IsDigit(s[i])) ++i;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
      if (i >= n || !IsDigit(s[i])) {
        return InvalidArgumentError("invalid exponent in number");
      }
      while (i < n && IsDigit(s[i])) ++i;
    }
    *out = s.substr(0, i);
    s.remove_prefix(i);
    return Status();
  }

  // An object or array (`open` '{' or '['), its text including brackets.
  static Status Container(std::string_view& s, std::string_view* out, int depth,
                          char open) {
    if (depth >= kMaxJsonDepth) {
      return ResourceExhaustedError(StringPrintf(
          "JSON nesting depth exceeds maximum of %d", kMaxJsonDepth));
    }
    char close = open == '{' ? '}' : ']';
    const char* start = s.data();
    s.remove_prefix(1);
    EMBER_RETURN_IF_ERROR(SkipSpaceAndComments(s));
    while (!s.empty()) {
      if (s[0] == close) break;
      std::string_view value;
      if (open == '{') {
        EMBER_RETURN_IF_ERROR(String(s, &value));
        EMBER_RETURN_IF_ERROR(SkipSpaceAndComments(s));
        if (s.empty() || s[0] != ':') {
          return InvalidArgumentError("missing object member separator");
        }
        s.remove_prefix(1);
      }
      EMBER_RETURN_IF_ERROR(Value(s, &value, depth + 1));
      EMBER_RETURN_IF_ERROR(SkipSpaceAndComments(s));
      if (s.empty() || s[0] != ',') break;
      s.remove_prefix(1);
      EMBER_RETURN_IF_ERROR(SkipSpaceAndComments(s));
    }
    if (s.empty() || s[0] != close) {
      return InvalidArgumentError(open == '{' ? "missing object }"
                                              : "missing array ]");
    }
    s.remove_prefix(1);
    *out = std::string_view(start, static_cast<size_t>(s.data() - start));
    return Status();
  }

  static Status Value(std::string_view& s, std::string_view* out, int depth) {
    EMBER_RETURN_IF_ERROR(SkipSpaceAndComments(s));
    if (s.empty()) return InvalidArgumentError("expected JSON value");
    switch (s[0]) {
      case '"': return String(s, out);
      case '{':
      case '[': return Container(s, out, depth, s[0]);
      case 't': return Keyword(s, "true", out);
      case 'f': return Keyword(s, "false", out);
      case 'n': return Keyword(s, "null", out);
      default: return Number(s, out);
    }
  }

  // A top-level value (a byte-order mark before it is skipped).
  static Status TopValue(std::string_view& s, std::string_view* out) {
    if (s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xEF &&
        static_cast<unsigned char>(s[1]) == 0xBB &&
        static_cast<unsigned char>(s[2]) == 0xBF) {
      s.remove_prefix(3);
    }
    return Value(s, out, 0);
  }

  // Calls visit(key, value) per member of `object`; visit returns false to
  // stop early.
  template <typename Visit>
  static Status Enumerate(std::string_view object, Visit&& visit) {
    std::string_view s = object;
    if (s.empty() || s[0] != '{') {
      return InvalidArgumentError("missing object {");
    }
    s.remove_prefix(1);
    EMBER_RETURN_IF_ERROR(SkipSpaceAndComments(s));
    while (!s.empty()) {
      if (s[0] == '}') break;
      std::string_view key, value;
      EMBER_RETURN_IF_ERROR(String(s, &key));
      EMBER_RETURN_IF_ERROR(SkipSpaceAndComments(s));
      if (s.empty() || s[0] != ':') {
        return InvalidArgumentError("missing object member separator");
      }
      s.remove_prefix(1);
      EMBER_RETURN_IF_ERROR(TopValue(s, &value));
      bool keep_going = true;
      EMBER_RETURN_IF_ERROR(visit(key, value, &keep_going));
      if (!keep_going) return Status();
      EMBER_RETURN_IF_ERROR(SkipSpaceAndComments(s));
      if (s.empty() || s[0] != ',') break;
      s.remove_prefix(1);
      EMBER_RETURN_IF_ERROR(SkipSpaceAndComments(s));
    }
    if (s.empty() || s[0] != '}')
      return InvalidArgumentError("missing object }");
    return Status();
  }

 private:
  static Status Keyword(std::string_view& s, std::string_view keyword,
                        std::string_view* out) {
    if (s.substr(0, keyword.size()) != keyword) {
      return InvalidArgumentError(
          StringPrintf("invalid keyword, expected '%.*s'",
                       static_cast<int>(keyword.size()), keyword.data()));
    }
    *out = s.substr(0, keyword.size());
    s.remove_prefix(keyword.size());
    return Status();
  }
};

std::string_view Trim(std::string_view s) {
  auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
  };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// strtoull in base 0 over at most 31 characters, as IREE reads the offsets
// (so "0x10" and "+3" are accepted and trailing text ignored).
bool ParseUint64(std::string_view text, uint64_t* out) {
  char buffer[32] = {0};
  if (text.size() >= sizeof(buffer)) return false;
  std::memcpy(buffer, text.data(), text.size());
  errno = 0;
  char* end = nullptr;
  unsigned long long value = std::strtoull(buffer, &end, 0);
  if (end == buffer) return false;
  if (value == ULLONG_MAX && errno == ERANGE) return false;
  *out = value;
  return value != 0 || errno == 0;
}

bool ParseDataOffsets(std::string_view text, uint64_t* begin, uint64_t* end) {
  if (text.empty() || text.front() != '[') return false;
  text.remove_prefix(1);
  if (text.empty() || text.back() != ']') return false;
  text.remove_suffix(1);
  text = Trim(text);
  size_t comma = text.find(',');
  if (comma == std::string_view::npos) return false;
  return ParseUint64(Trim(text.substr(0, comma)), begin) &&
         ParseUint64(Trim(text.substr(comma + 1)), end);
}

std::string Quote(std::string_view text) {
  return std::string(text.substr(0, 200));
}

Status Parse(const Ref<FileHandle>& file, std::vector<ParameterEntry>& out) {
  const uint8_t* data = file->bytes().data();
  uint64_t size = file->length();
  if (size < 8) {
    return OutOfRangeError(StringPrintf(
        "insufficient capacity for safetensors header length (need at least "
        "8 bytes but have %" PRIu64 ")",
        size));
  }
  uint64_t header_length = LoadLE<uint64_t>(data);
  if (header_length > size - 8) {
    return OutOfRangeError(StringPrintf(
        "insufficient capacity for safetensors header contents (declared as "
        "%" PRIu64 " but only %" PRIu64 " bytes available)",
        header_length, size - 8));
  }
  std::string_view header(reinterpret_cast<const char*>(data + 8),
                          static_cast<size_t>(header_length));
  uint64_t base = 8 + header_length;
  uint64_t data_size = size - base;
  return Json::Enumerate(
      header,
      [&](std::string_view key, std::string_view value, bool*) -> Status {
        if (key == "__metadata__") return Status();
        std::string_view offsets;
        bool found = false;
        EMBER_RETURN_IF_ERROR(
            Json::Enumerate(value,
                            [&](std::string_view k, std::string_view v,
                                bool* keep_going) -> Status {
                              if (k == "data_offsets") {
                                offsets = v;
                                found = true;
                                *keep_going = false;
                              }
                              return Status();
                            }),
            "reading tensor `%s`", Quote(key).c_str());
        if (!found) {
          return NotFoundError(StringPrintf("tensor `%s` has no data_offsets",
                                            Quote(key).c_str()));
        }
        uint64_t begin = 0, end = 0;
        if (!ParseDataOffsets(offsets, &begin, &end)) {
          return InvalidArgumentError(StringPrintf(
              "tensor `%s`: failed to parse entry data offsets `%s`",
              Quote(key).c_str(), Quote(offsets).c_str()));
        }
        if (begin > end || end > data_size) {
          return InvalidArgumentError(StringPrintf(
              "tensor `%s` has data offsets outside of the available data "
              "(begin=%" PRIu64 ", end=%" PRIu64 ", available=%" PRIu64 ")",
              Quote(key).c_str(), begin, end, data_size));
        }
        ParameterEntry entry;
        entry.key.assign(key);
        entry.kind = ParameterEntry::Kind::kFile;
        entry.file = file;
        entry.offset = base + begin;
        entry.length = end - begin;
        out.push_back(std::move(entry));
        return Status();
      });
}

}  // namespace

Status ParseSafetensors(const Ref<FileHandle>& file, ParameterIndex& index) {
  std::vector<ParameterEntry> entries;
  EMBER_RETURN_IF_ERROR(Parse(file, entries));
  return index.AddAll(std::move(entries));
}

}  // namespace ember::io
