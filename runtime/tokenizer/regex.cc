// Regex: PCRE2 under match and depth limits, and the translation of the
// Oniguruma patterns `tokenizers` files are written for.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <cstring>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {

// ---- Regex ------------------------------------------------------------------

Result<std::shared_ptr<const Regex>> Regex::Compile(std::string_view pattern,
                                                    bool line_anchors) {
  if (!IsValidUtf8(pattern)) {
    return InvalidArgumentError("regex pattern is not valid UTF-8");
  }
  int error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(
      reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
      PCRE2_UTF | PCRE2_UCP | (line_anchors ? PCRE2_MULTILINE : 0u), &error,
      &offset, nullptr);
  if (code == nullptr) {
    PCRE2_UCHAR buffer[256];
    pcre2_get_error_message(error, buffer, sizeof(buffer));
    return InvalidArgumentError(StringPrintf(
        "regex pattern does not compile at offset %zu: %s",
        static_cast<size_t>(offset), reinterpret_cast<const char*>(buffer)));
  }
  // JIT is an optimisation; where it is unavailable the interpreter runs
  // under the same limits.
  (void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
  std::shared_ptr<Regex> regex(new Regex());
  regex->code_ = code;
  regex->source_ = pattern;
  uint32_t match_empty = 1;
  regex->may_match_empty_ =
      pcre2_pattern_info(code, PCRE2_INFO_MATCHEMPTY, &match_empty) != 0 ||
      match_empty != 0;
  pcre2_match_context* context = pcre2_match_context_create(nullptr);
  if (context == nullptr) return ResourceExhaustedError("pcre2 match context");
  // Bounds for a hostile pattern: backtracking steps and the interpreter's
  // backtracking memory, per match attempt.
  pcre2_set_match_limit(context, 10'000'000);
  pcre2_set_depth_limit(context, 100'000);
  pcre2_set_heap_limit(context, 64 * 1024);  // KiB
  regex->match_context_ = context;
  return std::shared_ptr<const Regex>(std::move(regex));
}

Result<std::shared_ptr<const Regex>> Regex::CompileOniguruma(
    std::string_view pattern, bool line_anchors) {
  // Oniguruma and PCRE2 share the syntax tokenizer.json patterns use, but
  // not the members of \s, \w and \p{..}: those become explicit PCRE2
  // classes (regex_classes.cc), and \b / \B lookarounds on Oniguruma's
  // \w. \h and other shorthands whose meaning differs between the engines
  // are refused rather than guessed, as are negated classes inside a
  // bracket (PCRE2 has no class subtraction).
  std::string out;
  out.reserve(pattern.size() + 64);
  int class_depth = 0;
  auto add_class = [&](std::string_view name, bool negated) -> Status {
    auto body = OnigurumaClassBody(name);
    if (!body) {
      return UnimplementedError(StringPrintf(
          "regex: the class \\p{%.*s} is not implemented",
          static_cast<int>(std::min<size_t>(name.size(), 32)), name.data()));
    }
    if (class_depth > 0) {
      if (negated) {
        return UnimplementedError(
            "regex: a negated class (\\S, \\D, \\P{..}) inside [...] is "
            "not implemented");
      }
      out += *body;
    } else {
      out += negated ? "[^" : "[";
      out += *body;
      out += "]";
    }
    return Status::Ok();
  };
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      char e = pattern[++i];
      if (e == 's' || e == 'S') {
        EMBER_RETURN_IF_ERROR(add_class("s", e == 'S'));
      } else if (e == 'd' || e == 'D') {
        EMBER_RETURN_IF_ERROR(add_class("Nd", e == 'D'));
      } else if ((e == 'w' || e == 'W') && class_depth == 0) {
        // Inside [...] Oniguruma's \w has other members (measured: not
        // U+00B2, U+00B3, U+00B9, U+00BC..U+00BE): refused there below.
        EMBER_RETURN_IF_ERROR(add_class("w", e == 'W'));
      } else if ((e == 'b' || e == 'B') && class_depth == 0) {
        // A word boundary by Oniguruma's \w: a word character on exactly
        // one side (\b), or on both or neither (\B).
        const std::string w = "[" + std::string(*OnigurumaClassBody("w")) + "]";
        if (e == 'b') {
          out += "(?:(?<=" + w + ")(?!" + w + ")|(?<!" + w + ")(?=" + w + "))";
        } else {
          out += "(?:(?<=" + w + ")(?=" + w + ")|(?<!" + w + ")(?!" + w + "))";
        }
      } else if (e == 'p' || e == 'P') {
        size_t close = pattern.find('}', i + 1);
        if (i + 1 >= pattern.size() || pattern[i + 1] != '{' ||
            close == std::string_view::npos) {
          return UnimplementedError(
              "regex: \\p without {name} is not implemented");
        }
        std::string_view name = pattern.substr(i + 2, close - i - 2);
        bool negated = e == 'P';
        if (!name.empty() && name[0] == '^') {
          negated = !negated;
          name.remove_prefix(1);
        }
        EMBER_RETURN_IF_ERROR(add_class(name, negated));
        i = close;
      } else if (std::string_view("wWbBhHRXK").find(e) !=
                 std::string_view::npos) {
        return UnimplementedError(StringPrintf(
            "regex: \\%c is not implemented (Oniguruma and PCRE2 differ)", e));
      } else {
        out.push_back('\\');
        out.push_back(e);
      }
      continue;
    }
    if (c == '[') {
      if (class_depth > 0) {
        return UnimplementedError(
            "regex: nested [...] classes are not implemented");
      }
      ++class_depth;
      out.push_back(c);
      // A ']' right after '[' or '[^' is a literal member.
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') {
        out.push_back(pattern[++i]);
      }
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') {
        out.push_back(pattern[++i]);
      }
      continue;
    }
    if (c == ']' && class_depth > 0) --class_depth;
    out.push_back(c);
  }
  return Compile(out, line_anchors);
}

bool Regex::MayMatchEmpty() const { return may_match_empty_; }

Regex::~Regex() {
  pcre2_match_context_free(static_cast<pcre2_match_context*>(match_context_));
  pcre2_code_free(static_cast<pcre2_code*>(code_));
}

Status Regex::ForEachMatch(
    std::string_view text,
    const std::function<void(size_t, size_t)>& on_match) const {
  auto* code = static_cast<pcre2_code*>(code_);
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(code, nullptr);
  if (data == nullptr) return ResourceExhaustedError("pcre2 match data");
  Status status;
  size_t pos = 0;
  // A pattern that can match the empty string reports its empty matches,
  // as onig's find_iter does for `tokenizers`: an empty match is dropped
  // only when it ends where the previous match ended (the scan then moves
  // on by one character), and an empty text has no match at all
  // (`tokenizers`' find_matches). Other patterns never match empty.
  const bool report_empty = may_match_empty_;
  bool matched = false;
  size_t last_match_end = 0;
  if (report_empty && text.empty()) pos = 1;
  while (pos <= text.size()) {
    int rc = pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(text.data()),
                         text.size(), pos, PCRE2_NO_UTF_CHECK, data,
                         static_cast<pcre2_match_context*>(match_context_));
    if (rc == PCRE2_ERROR_NOMATCH) break;
    if (rc < 0) {
      PCRE2_UCHAR buffer[256];
      pcre2_get_error_message(rc, buffer, sizeof(buffer));
      status = ResourceExhaustedError(StringPrintf(
          "regex match failed: %s", reinterpret_cast<const char*>(buffer)));
      break;
    }
    PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data);
    size_t start = ovector[0], end = ovector[1];
    if (start > text.size() || end > text.size() || end < start) {
      status = InternalError("regex match out of bounds");
      break;
    }
    if (end == start && (!report_empty || (matched && last_match_end == end))) {
      // An empty match not reported: move on by one character.
      if (pos >= text.size()) break;
      pos += Utf8Length(static_cast<uint8_t>(text[pos]));
      continue;
    }
    on_match(start, end);
    matched = true;
    last_match_end = end;
    pos = end;
  }
  pcre2_match_data_free(data);
  return status;
}

}  // namespace ember::tokenizer
