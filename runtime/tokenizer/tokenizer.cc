// The encode and decode pipelines of a loaded tokenizer (see tokenizer.h for
// the stages and docs/tokenizer.md for each component's rules).
#include "runtime/tokenizer/tokenizer.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <utf8proc.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <queue>
#include <sstream>
#include <thread>

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

namespace {

uint32_t DecodeCodePoint(std::string_view s, size_t i, size_t* length) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data()) + i;
  size_t w = Utf8Length(p[0]);
  *length = w;
  switch (w) {
    case 1: return p[0];
    case 2: return ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
    case 3:
      return ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
    default:
      return ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) |
             ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
  }
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

// ---- Regex ------------------------------------------------------------------

Result<std::shared_ptr<const Regex>> Regex::Compile(std::string_view pattern) {
  if (!IsValidUtf8(pattern)) {
    return InvalidArgumentError("regex pattern is not valid UTF-8");
  }
  int error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()),
                                   pattern.size(), PCRE2_UTF | PCRE2_UCP,
                                   &error, &offset, nullptr);
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
    std::string_view pattern) {
  // Oniguruma and PCRE2 share the syntax tokenizer.json patterns use, but
  // not the members of \s and \p{..}: those become explicit PCRE2 classes
  // (regex_classes.cc). \w, \b, \h and other shorthands whose meaning
  // differs between the engines are refused rather than guessed, as are
  // negated classes inside a bracket (PCRE2 has no class subtraction).
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
  return Compile(out);
}

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
    if (end == start) {
      // An empty match: `tokenizers` (onig's find_iter) skips it and moves
      // on by one character.
      if (start >= text.size()) break;
      pos = start + Utf8Length(static_cast<uint8_t>(text[start]));
      continue;
    }
    on_match(start, end);
    pos = end;
  }
  pcre2_match_data_free(data);
  return status;
}

// ---- added-token trie -------------------------------------------------------

void TokenTrie::Add(std::string_view content, int32_t token_index) {
  int32_t node = 0;
  for (char ch : content) {
    auto byte = static_cast<uint8_t>(ch);
    auto& kids = nodes_[node].children;
    auto it = std::lower_bound(kids.begin(), kids.end(), byte,
                               [](const std::pair<uint8_t, int32_t>& a,
                                  uint8_t b) { return a.first < b; });
    if (it != kids.end() && it->first == byte) {
      node = it->second;
    } else {
      auto next = static_cast<int32_t>(nodes_.size());
      kids.insert(it, {byte, next});
      nodes_.push_back(Node{});
      node = next;
    }
  }
  // The first token added with this content wins (like `tokenizers`,
  // which keeps the first of duplicate contents).
  if (nodes_[node].token < 0) nodes_[node].token = token_index;
}

int32_t TokenTrie::LongestAt(std::string_view text, size_t pos,
                             size_t* length) const {
  int32_t node = 0, best = -1;
  for (size_t i = pos; i < text.size(); ++i) {
    auto byte = static_cast<uint8_t>(text[i]);
    const auto& kids = nodes_[node].children;
    auto it = std::lower_bound(kids.begin(), kids.end(), byte,
                               [](const std::pair<uint8_t, int32_t>& a,
                                  uint8_t b) { return a.first < b; });
    if (it == kids.end() || it->first != byte) break;
    node = it->second;
    if (nodes_[node].token >= 0) {
      best = nodes_[node].token;
      *length = i + 1 - pos;
    }
  }
  return best;
}

// ---- normalizers ------------------------------------------------------------

namespace {

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

Status UnicodeNormalizeSpan(std::string_view in, utf8proc_option_t options,
                            std::string* out) {
  if (in.empty()) return Status::Ok();
  utf8proc_uint8_t* result = nullptr;
  utf8proc_ssize_t n =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(in.data()),
                   static_cast<utf8proc_ssize_t>(in.size()), &result,
                   static_cast<utf8proc_option_t>(options | UTF8PROC_STABLE));
  if (n < 0) {
    return InvalidArgumentError(
        StringPrintf("Unicode normalization failed: %s", utf8proc_errmsg(n)));
  }
  out->append(reinterpret_cast<const char*>(result), static_cast<size_t>(n));
  std::free(result);
  return Status::Ok();
}

// utf8proc's normalization, except that the code points `tokenizers` does
// not know stay as they are and split the text: a character it treats as
// unassigned has class 0, no decomposition and composes with nothing, so
// normalization never crosses it (docs/tokenizer.md "Unicode
// normalization").
Status UnicodeNormalize(std::string_view in, utf8proc_option_t options,
                        std::string* out) {
  out->clear();
  size_t start = 0;
  for (size_t i = 0; i < in.size();) {
    size_t w = 0;
    uint32_t c = DecodeCodePoint(in, i, &w);
    if (c >= 0x7FD && UnknownToTokenizersNormalization(c)) {
      EMBER_RETURN_IF_ERROR(
          UnicodeNormalizeSpan(in.substr(start, i - start), options, out));
      out->append(in.substr(i, w));
      start = i + w;
    }
    i += w;
  }
  return UnicodeNormalizeSpan(in.substr(start), options, out);
}

}  // namespace

Status Pipeline::Normalize(std::string_view in, std::string* out) const {
  out->assign(in);
  std::string scratch;
  for (const Normalizer& n : normalizers) {
    switch (n.kind) {
      case Normalizer::Kind::kPrepend:
        if (!out->empty()) out->insert(0, n.text);
        break;
      case Normalizer::Kind::kReplace:
        if (n.regex) {
          EMBER_RETURN_IF_ERROR(
              RegexReplace(*n.regex, *out, n.content, &scratch));
        } else {
          ReplaceAll(*out, n.text, n.content, &scratch);
        }
        out->swap(scratch);
        break;
      case Normalizer::Kind::kNfc:
        EMBER_RETURN_IF_ERROR(
            UnicodeNormalize(*out, UTF8PROC_COMPOSE, &scratch));
        out->swap(scratch);
        break;
      case Normalizer::Kind::kNfd:
        EMBER_RETURN_IF_ERROR(
            UnicodeNormalize(*out, UTF8PROC_DECOMPOSE, &scratch));
        out->swap(scratch);
        break;
      case Normalizer::Kind::kNfkc:
        EMBER_RETURN_IF_ERROR(UnicodeNormalize(
            *out,
            static_cast<utf8proc_option_t>(UTF8PROC_COMPOSE | UTF8PROC_COMPAT),
            &scratch));
        out->swap(scratch);
        break;
      case Normalizer::Kind::kNfkd:
        EMBER_RETURN_IF_ERROR(
            UnicodeNormalize(*out,
                             static_cast<utf8proc_option_t>(UTF8PROC_DECOMPOSE |
                                                            UTF8PROC_COMPAT),
                             &scratch));
        out->swap(scratch);
        break;
    }
  }
  return Status::Ok();
}

// ---- BPE --------------------------------------------------------------------

namespace {

// Words repeat (" the", "\n", "    "), so each thread remembers the ids of
// the short words it tokenized lately, for one model at a time.
struct WordCache {
  uint64_t serial = 0;
  std::unordered_map<std::string, std::vector<int32_t>, StringHash,
                     std::equal_to<>>
      words;
};
constexpr size_t kCacheMaxWordBytes = 64;
constexpr size_t kCacheMaxWords = 16384;

}  // namespace

Status BpeModel::Tokenize(std::string_view word,
                          std::vector<int32_t>* ids) const {
  if (word.size() > kCacheMaxWordBytes) return TokenizeUncached(word, ids);
  thread_local WordCache cache;
  if (cache.serial != serial) {
    cache.words.clear();
    cache.serial = serial;
  }
  auto it = cache.words.find(word);
  if (it != cache.words.end()) {
    ids->insert(ids->end(), it->second.begin(), it->second.end());
    return Status::Ok();
  }
  size_t first = ids->size();
  EMBER_RETURN_IF_ERROR(TokenizeUncached(word, ids));
  if (cache.words.size() >= kCacheMaxWords) cache.words.clear();
  cache.words.emplace(std::string(word),
                      std::vector<int32_t>(ids->begin() + first, ids->end()));
  return Status::Ok();
}

Status BpeModel::TokenizeUncached(std::string_view word,
                                  std::vector<int32_t>* ids) const {
  if (word.empty()) return Status::Ok();
  if (ignore_merges) {
    auto it = vocab.find(word);
    if (it != vocab.end()) {
      ids->push_back(it->second);
      return Status::Ok();
    }
  }
  // The symbols of the word, one per character before any merge, as a
  // doubly linked list (`tokenizers`' Word).
  struct Symbol {
    int32_t id;
    int32_t prev, next;
    bool live;
  };
  std::vector<Symbol> symbols;
  symbols.reserve(word.size());
  auto push = [&](int32_t id) {
    auto index = static_cast<int32_t>(symbols.size());
    symbols.push_back({id, index - 1, index + 1, true});
  };
  int32_t unk_id = -1;
  bool unk_pending = false;
  std::string key;
  for (size_t i = 0; i < word.size();) {
    size_t w = Utf8Length(static_cast<uint8_t>(word[i]));
    size_t end = std::min(i + w, word.size());
    bool is_first = i == 0, is_last = end == word.size();
    std::string_view s = word.substr(i, end - i);
    if ((!is_first && !continuing_subword_prefix.empty()) ||
        (is_last && !end_of_word_suffix.empty())) {
      key.clear();
      if (!is_first) key += continuing_subword_prefix;
      key += s;
      if (is_last) key += end_of_word_suffix;
      s = key;
    }
    auto it = vocab.find(s);
    if (it != vocab.end()) {
      if (unk_pending) {
        push(unk_id);
        unk_pending = false;
      }
      push(it->second);
    } else {
      bool done = false;
      if (byte_fallback) {
        bool all = true;
        for (char ch : s) all = all && byte_ids[static_cast<uint8_t>(ch)] >= 0;
        if (all) {
          // `tokenizers` emits these without flushing a pending unk first.
          for (char ch : s) push(byte_ids[static_cast<uint8_t>(ch)]);
          done = true;
        }
      }
      if (!done && has_unk) {
        auto unk = vocab.find(unk_token);
        if (unk == vocab.end()) {
          return InvalidArgumentError(
              StringPrintf("BPE unk_token \"%s\" is not in the vocabulary",
                           unk_token.c_str()));
        }
        if (unk_pending && !fuse_unk) push(unk_id);
        unk_id = unk->second;
        unk_pending = true;
      }
    }
    i = end;
  }
  if (unk_pending) push(unk_id);
  if (symbols.empty()) return Status::Ok();
  symbols.back().next = -1;

  // Merges, lowest rank first and leftmost among equal ranks; an entry is
  // stale when its pair changed since it was queued.
  struct Merge {
    uint32_t rank;
    int32_t pos;
    int32_t new_id;
    bool operator<(const Merge& other) const {
      if (rank != other.rank) return rank > other.rank;
      return pos > other.pos;
    }
  };
  auto lookup = [&](int32_t a,
                    int32_t b) -> const std::pair<uint32_t, int32_t>* {
    auto it =
        merges.find((static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) |
                    static_cast<uint32_t>(b));
    return it == merges.end() ? nullptr : &it->second;
  };
  std::priority_queue<Merge> queue;
  for (size_t i = 0; i + 1 < symbols.size(); ++i) {
    if (auto* m = lookup(symbols[i].id, symbols[i + 1].id)) {
      queue.push({m->first, static_cast<int32_t>(i), m->second});
    }
  }
  while (!queue.empty()) {
    Merge top = queue.top();
    queue.pop();
    Symbol& cur = symbols[top.pos];
    if (!cur.live || cur.next < 0) continue;
    Symbol& right = symbols[cur.next];
    auto* m = lookup(cur.id, right.id);
    if (m == nullptr || m->second != top.new_id) continue;
    cur.id = top.new_id;
    right.live = false;
    cur.next = right.next;
    if (cur.next >= 0) symbols[cur.next].prev = top.pos;
    if (cur.prev >= 0) {
      if (auto* p = lookup(symbols[cur.prev].id, cur.id)) {
        queue.push({p->first, cur.prev, p->second});
      }
    }
    if (cur.next >= 0) {
      if (auto* n = lookup(cur.id, symbols[cur.next].id)) {
        queue.push({n->first, top.pos, n->second});
      }
    }
  }
  for (int32_t i = 0; i >= 0; i = symbols[i].next)
    ids->push_back(symbols[i].id);
  return Status::Ok();
}

// ---- encode -----------------------------------------------------------------

namespace {

// The ByteLevel words of one piece, mapped to GPT-2's characters, passed to
// `on_word` (a view valid during the call).
template <typename OnWord>
Status ByteLevelWords(const PreTokenizer& step, std::string_view piece,
                      OnWord&& on_word) {
  std::string prefixed;
  if (step.add_prefix_space && !piece.empty() && piece[0] != ' ') {
    prefixed.reserve(piece.size() + 1);
    prefixed.push_back(' ');
    prefixed.append(piece);
    piece = prefixed;
  }
  std::string mapped;
  Status status;
  auto word = [&](size_t start, size_t end) {
    if (!status.ok() || start >= end) return;
    mapped.clear();
    for (size_t i = start; i < end; ++i) {
      mapped += ByteLevelChar(static_cast<uint8_t>(piece[i]));
    }
    status = on_word(std::string_view(mapped));
  };
  if (!step.use_regex) {
    word(0, piece.size());
    return status;
  }
  // Isolated: the matches and the text between them are the words.
  size_t last = 0;
  EMBER_RETURN_IF_ERROR(
      step.regex->ForEachMatch(piece, [&](size_t start, size_t end) {
        word(last, start);
        word(start, end);
        last = end;
      }));
  word(last, piece.size());
  return status;
}

}  // namespace

Status PreTokenizer::Split(std::string_view piece,
                           std::vector<std::string>* out) const {
  if (kind == Kind::kByteLevel) {
    return ByteLevelWords(*this, piece, [&](std::string_view word) {
      out->emplace_back(word);
      return Status::Ok();
    });
  }
  // The pieces of `piece` as `tokenizers`' NormalizedString::split makes
  // them: every match and every gap, flagged; inverted when asked; then
  // merged or removed by the behaviour; empty results are dropped.
  struct Range {
    size_t start, end;
    bool is_match;
  };
  std::vector<Range> ranges;
  size_t prev = 0;
  auto on_match = [&](size_t start, size_t end) {
    if (prev != start) ranges.push_back({prev, start, false});
    ranges.push_back({start, end, true});
    prev = end;
  };
  if (regex) {
    EMBER_RETURN_IF_ERROR(regex->ForEachMatch(piece, on_match));
  } else if (!literal.empty()) {
    for (size_t hit = piece.find(literal); hit != std::string_view::npos;
         hit = piece.find(literal, hit + literal.size())) {
      on_match(hit, hit + literal.size());
    }
  }
  if (prev != piece.size()) ranges.push_back({prev, piece.size(), false});
  if (invert) {
    for (Range& r : ranges) r.is_match = !r.is_match;
  }
  std::vector<std::pair<size_t, size_t>> keep;
  bool previous_match = false;
  switch (behavior) {
    case Behavior::kIsolated:
      for (const Range& r : ranges) keep.push_back({r.start, r.end});
      break;
    case Behavior::kRemoved:
      for (const Range& r : ranges) {
        if (!r.is_match) keep.push_back({r.start, r.end});
      }
      break;
    case Behavior::kContiguous:
      for (const Range& r : ranges) {
        if (r.is_match == previous_match && !keep.empty()) {
          keep.back().second = r.end;
        } else {
          keep.push_back({r.start, r.end});
        }
        previous_match = r.is_match;
      }
      break;
    case Behavior::kMergedWithPrevious:
      for (const Range& r : ranges) {
        if (r.is_match && !previous_match && !keep.empty()) {
          keep.back().second = r.end;
        } else {
          keep.push_back({r.start, r.end});
        }
        previous_match = r.is_match;
      }
      break;
    case Behavior::kMergedWithNext:
      for (size_t k = ranges.size(); k-- > 0;) {
        const Range& r = ranges[k];
        if (r.is_match && !previous_match && !keep.empty()) {
          keep.back().first = r.start;
        } else {
          keep.push_back({r.start, r.end});
        }
        previous_match = r.is_match;
      }
      std::reverse(keep.begin(), keep.end());
      break;
  }
  for (const auto& [start, end] : keep) {
    if (end > start) out->emplace_back(piece.substr(start, end - start));
  }
  return Status::Ok();
}

Status Pipeline::EncodeNormalizedPiece(std::string_view piece,
                                       std::vector<int32_t>* ids) const {
  if (pre_tokenizers.empty()) return model.Tokenize(piece, ids);
  if (pre_tokenizers.size() == 1 &&
      pre_tokenizers[0].kind == PreTokenizer::Kind::kByteLevel) {
    // The common case without a copy of each word.
    return ByteLevelWords(pre_tokenizers[0], piece, [&](std::string_view w) {
      return model.Tokenize(w, ids);
    });
  }
  std::vector<std::string> words, next;
  if (!piece.empty()) words.emplace_back(piece);
  for (const PreTokenizer& step : pre_tokenizers) {
    next.clear();
    for (const std::string& word : words) {
      EMBER_RETURN_IF_ERROR(step.Split(word, &next));
    }
    words.swap(next);
  }
  for (const std::string& word : words) {
    EMBER_RETURN_IF_ERROR(model.Tokenize(word, ids));
  }
  return Status::Ok();
}

Status Pipeline::EncodeText(std::string_view text, const EncodeOptions& options,
                            std::vector<int32_t>* ids) const {
  // Cuts `piece` at the added tokens of `trie`, calling `on_text` for the
  // text between them.
  auto split = [&](const TokenTrie& trie, std::string_view piece,
                   auto&& on_text) -> Status {
    if (trie.empty()) return on_text(piece);
    size_t start = 0, pos = 0;
    while (pos < piece.size()) {
      size_t length = 0;
      int32_t index = trie.LongestAt(piece, pos, &length);
      if (index < 0) {
        ++pos;
        continue;
      }
      const AddedToken& token = added[index];
      if (!(token.special && options.no_special_token_matching)) {
        if (pos > start)
          EMBER_RETURN_IF_ERROR(on_text(piece.substr(start, pos - start)));
        ids->push_back(token.id);
        start = pos + length;
      }
      // A skipped special token is still consumed by the scan, as in
      // `tokenizers` (its matcher moves past every match).
      pos += length;
    }
    if (start < piece.size() || piece.empty()) {
      EMBER_RETURN_IF_ERROR(on_text(piece.substr(start)));
    }
    return Status::Ok();
  };
  std::string normalized;
  return split(raw_trie, text, [&](std::string_view piece) -> Status {
    EMBER_RETURN_IF_ERROR(Normalize(piece, &normalized));
    std::string_view n = normalized;
    return split(normalized_trie, n, [&](std::string_view sub) -> Status {
      return EncodeNormalizedPiece(sub, ids);
    });
  });
}

std::optional<std::string_view> Pipeline::IdToToken(int32_t id) const {
  auto it = added_by_id.find(id);
  if (it != added_by_id.end())
    return std::string_view(added[it->second].content);
  if (id >= 0 && static_cast<size_t>(id) < model.has_id.size() &&
      model.has_id[id]) {
    return std::string_view(model.vocab_r[id]);
  }
  return std::nullopt;
}

// ---- decode -----------------------------------------------------------------

namespace {

// Rust's u8::from_str_radix(s, 16) for the two characters of "<0xAB>": an
// optional '+' and hex digits.
int ParseHexByte(std::string_view s) {
  if (s.empty()) return -1;
  if (s[0] == '+') s.remove_prefix(1);
  if (s.empty()) return -1;
  int value = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      d = c - 'A' + 10;
    } else {
      return -1;
    }
    value = value * 16 + d;
  }
  return value;
}

Status RunDecoder(const Decoder& d, std::vector<std::string>* tokens) {
  std::vector<std::string>& t = *tokens;
  switch (d.kind) {
    case Decoder::Kind::kByteLevel: {
      std::string bytes;
      for (const std::string& token : t) {
        size_t mark = bytes.size();
        bool all = true;
        for (size_t i = 0; i < token.size();) {
          size_t w = 0;
          uint32_t c = DecodeCodePoint(token, i, &w);
          int b = ByteLevelByte(c);
          if (b < 0) {
            all = false;
            break;
          }
          bytes.push_back(static_cast<char>(b));
          i += w;
        }
        if (!all) {
          bytes.resize(mark);
          bytes += token;
        }
      }
      t.assign(1, Utf8Lossy(bytes));
      return Status::Ok();
    }
    case Decoder::Kind::kReplace: {
      std::string out;
      for (std::string& token : t) {
        if (d.regex) {
          EMBER_RETURN_IF_ERROR(RegexReplace(*d.regex, token, d.content, &out));
        } else {
          ReplaceAll(token, d.text, d.content, &out);
        }
        token.swap(out);
      }
      return Status::Ok();
    }
    case Decoder::Kind::kByteFallback: {
      std::vector<std::string> out;
      std::string pending;
      auto flush = [&] {
        if (pending.empty()) return;
        if (IsValidUtf8(pending)) {
          out.push_back(pending);
        } else {
          for (size_t i = 0; i < pending.size(); ++i)
            out.push_back("\xEF\xBF\xBD");
        }
        pending.clear();
      };
      for (std::string& token : t) {
        int byte = -1;
        if (token.size() == 6 && token.compare(0, 3, "<0x") == 0 &&
            token[5] == '>') {
          byte = ParseHexByte(std::string_view(token).substr(3, 2));
        }
        if (byte >= 0 && byte < 256) {
          pending.push_back(static_cast<char>(byte));
        } else {
          flush();
          out.push_back(std::move(token));
        }
      }
      flush();
      t.swap(out);
      return Status::Ok();
    }
    case Decoder::Kind::kFuse: {
      std::string all;
      for (const std::string& token : t) all += token;
      t.assign(1, std::move(all));
      return Status::Ok();
    }
    case Decoder::Kind::kStrip: {
      for (std::string& token : t) {
        // Character-wise, as `tokenizers` counts.
        std::vector<std::pair<size_t, size_t>> chars;  // (offset, length)
        for (size_t i = 0; i < token.size();) {
          size_t w = Utf8Length(static_cast<uint8_t>(token[i]));
          chars.push_back({i, w});
          i += w;
        }
        auto is_content = [&](size_t k) {
          return std::string_view(token).substr(chars[k].first,
                                                chars[k].second) == d.content;
        };
        size_t start_cut = 0;
        for (size_t k = 0; k < chars.size() && k < d.start; ++k) {
          if (!is_content(k)) break;
          start_cut = k + 1;
        }
        size_t stop_cut = chars.size();
        for (size_t k = 0; k < chars.size() && k < d.stop; ++k) {
          size_t index = chars.size() - 1 - k;
          if (!is_content(index)) break;
          stop_cut = index;
        }
        if (start_cut >= stop_cut) {
          token.clear();
          continue;
        }
        size_t from = chars[start_cut].first;
        size_t to =
            stop_cut < chars.size() ? chars[stop_cut].first : token.size();
        token = token.substr(from, to - from);
      }
      return Status::Ok();
    }
  }
  return InternalError("unknown decoder");
}

}  // namespace

// ---- Tokenizer --------------------------------------------------------------

Tokenizer::Tokenizer() : pipeline_(std::make_unique<Pipeline>()) {}
Tokenizer::~Tokenizer() = default;

Result<std::unique_ptr<Tokenizer>> Tokenizer::FromHuggingFaceJson(
    std::string_view json) {
  std::unique_ptr<Tokenizer> tokenizer(new Tokenizer());
  EMBER_RETURN_IF_ERROR(LoadHuggingFaceJson(json, tokenizer->pipeline_.get()),
                        "while loading a tokenizer.json");
  // The template's special tokens are emitted by id as the file gives them;
  // an id that names no token would come out of encode and then fail every
  // decode. HF loads such a file; Ember refuses it (found by fuzzing).
  for (const TemplateItem& item : tokenizer->pipeline_->single_template) {
    for (int32_t id : item.ids) {
      if (!tokenizer->IdToToken(id)) {
        return InvalidArgumentError(
            "post_processor TemplateProcessing: special token id " +
            std::to_string(id) +
            " is neither in the vocabulary nor an added token; while "
            "loading a tokenizer.json");
      }
    }
  }
  return tokenizer;
}

Result<std::unique_ptr<Tokenizer>> Tokenizer::FromFile(
    const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return NotFoundError(
        StringPrintf("cannot open tokenizer file '%s'", path.c_str()));
  }
  file.seekg(0, std::ios::end);
  std::streamoff size = file.tellg();
  if (size < 0) return InvalidArgumentError("cannot size tokenizer file");
  if (static_cast<size_t>(size) > kMaxJsonBytes) {
    return ResourceExhaustedError(StringPrintf(
        "tokenizer file '%s' is %lld bytes, over the limit of %zu",
        path.c_str(), static_cast<long long>(size), kMaxJsonBytes));
  }
  file.seekg(0);
  std::string data(static_cast<size_t>(size), '\0');
  file.read(data.data(), size);
  if (file.gcount() != size) {
    return DataLossError(StringPrintf("short read of '%s'", path.c_str()));
  }
  if (data.size() >= 4 && data.compare(0, 1, "{") != 0) {
    // Leading whitespace is fine JSON; only a file that cannot be JSON at
    // all is named for what it is not.
    size_t first = data.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || data[first] != '{') {
      // As iree.runtime tells them apart: a `.tiktoken` file is a rank
      // file (not implemented here); anything else must be JSON.
      if (path.size() >= 9 &&
          path.compare(path.size() - 9, 9, ".tiktoken") == 0) {
        return UnimplementedError(StringPrintf(
            "'%s': tiktoken rank files are not implemented yet", path.c_str()));
      }
      return InvalidArgumentError(StringPrintf(
          "'%s' is not a HuggingFace tokenizer.json (it does not start with "
          "a JSON object)",
          path.c_str()));
    }
  }
  return FromHuggingFaceJson(data);
}

Status Tokenizer::Encode(std::string_view text, const EncodeOptions& options,
                         std::vector<int32_t>* ids) const {
  if (!IsValidUtf8(text)) {
    return InvalidArgumentError("text to encode is not valid UTF-8");
  }
  const Pipeline& p = *pipeline_;
  EMBER_RETURN_IF_ERROR(p.EncodeText(text, options, ids));
  if (options.add_special_tokens && p.has_template) {
    std::vector<int32_t> out;
    out.reserve(ids->size() + 8);
    for (const TemplateItem& item : p.single_template) {
      if (item.is_sequence) {
        out.insert(out.end(), ids->begin(), ids->end());
      } else {
        out.insert(out.end(), item.ids.begin(), item.ids.end());
      }
    }
    ids->swap(out);
  }
  return Status::Ok();
}

Result<std::vector<int32_t>> Tokenizer::Encode(
    std::string_view text, const EncodeOptions& options) const {
  std::vector<int32_t> ids;
  EMBER_RETURN_IF_ERROR(Encode(text, options, &ids));
  return ids;
}

namespace {

// Runs work(i) for i in [0, n) on up to `threads` threads; the first error
// stops the rest.
Status ParallelFor(size_t n, unsigned threads,
                   const std::function<Status(size_t)>& work) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<size_t>(threads, n));
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) EMBER_RETURN_IF_ERROR(work(i));
    return Status::Ok();
  }
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::vector<Status> errors(threads);
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      while (!failed.load(std::memory_order_relaxed)) {
        size_t i = next.fetch_add(1);
        if (i >= n) break;
        Status s = work(i);
        if (!s.ok()) {
          errors[t] = std::move(s);
          failed = true;
        }
      }
    });
  }
  for (auto& thread : pool) thread.join();
  for (Status& s : errors) {
    if (!s.ok()) return std::move(s);
  }
  return Status::Ok();
}

}  // namespace

Status Tokenizer::EncodeBatch(std::span<const std::string_view> texts,
                              const EncodeOptions& options, unsigned threads,
                              std::vector<std::vector<int32_t>>* out) const {
  out->assign(texts.size(), {});
  return ParallelFor(texts.size(), threads, [&](size_t i) -> Status {
    EMBER_RETURN_IF_ERROR(Encode(texts[i], options, &(*out)[i]),
                          "while encoding text %zu of the batch", i);
    return Status::Ok();
  });
}

Result<std::string> Tokenizer::Decode(std::span<const int32_t> ids,
                                      bool skip_special_tokens) const {
  const Pipeline& p = *pipeline_;
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (int32_t id : ids) {
    auto token = p.IdToToken(id);
    if (!token) {
      return OutOfRangeError(
          StringPrintf("token id %d is not in the vocabulary (%zu tokens)", id,
                       vocab_size()));
    }
    if (skip_special_tokens && p.special_contents.count(std::string(*token))) {
      continue;
    }
    tokens.emplace_back(*token);
  }
  if (!p.has_decoder) {
    std::string out;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (i) out.push_back(' ');
      out += tokens[i];
    }
    return out;
  }
  for (const Decoder& d : p.decoders)
    EMBER_RETURN_IF_ERROR(RunDecoder(d, &tokens));
  std::string out;
  for (const std::string& token : tokens) out += token;
  return out;
}

// ---- streaming decode
// ---------------------------------------------------------

namespace {

// The length of the longest prefix of `bytes` that Utf8Lossy decides
// without seeing what follows: everything but a trailing sequence that is
// valid so far and not complete.
size_t DecidedUtf8Prefix(std::string_view bytes) {
  const auto* s = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t n = bytes.size(), i = 0;
  while (i < n) {
    uint8_t b = s[i];
    size_t w = 1;
    uint8_t lo = 0x80, hi = 0xBF;
    if (b < 0x80) {
      ++i;
      continue;
    } else if (b >= 0xC2 && b <= 0xDF) {
      w = 2;
    } else if (b == 0xE0) {
      w = 3, lo = 0xA0;
    } else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) {
      w = 3;
    } else if (b == 0xED) {
      w = 3, hi = 0x9F;
    } else if (b == 0xF0) {
      w = 4, lo = 0x90;
    } else if (b >= 0xF1 && b <= 0xF3) {
      w = 4;
    } else if (b == 0xF4) {
      w = 4, hi = 0x8F;
    } else {
      ++i;
      continue;
    }
    if (i + 1 >= n) return i;  // a lead byte alone: wait
    if (s[i + 1] < lo || s[i + 1] > hi) {
      ++i;
      continue;
    }
    size_t k = 2;
    while (k < w && i + k < n && (s[i + k] & 0xC0) == 0x80) ++k;
    if (k < w && i + k >= n) return i;  // valid so far, incomplete: wait
    i += k;
  }
  return n;
}

}  // namespace

size_t DecidedUtf8PrefixForTest(std::string_view bytes) {
  return DecidedUtf8Prefix(bytes);
}

namespace {

bool IsByteToken(std::string_view token, char* byte) {
  if (token.size() != 6 || token.substr(0, 3) != "<0x" || token[5] != '>') {
    return false;
  }
  int value = ParseHexByte(token.substr(3, 2));
  if (value < 0 || value > 255) return false;
  *byte = static_cast<char>(value);
  return true;
}

}  // namespace

DecodeStream::DecodeStream(const Tokenizer* tokenizer, bool skip_special_tokens)
    : tokenizer_(tokenizer), skip_special_tokens_(skip_special_tokens) {
  const Pipeline& p = *tokenizer->pipeline_;
  const auto& d = p.decoders;
  using K = Decoder::Kind;
  if (!p.has_decoder) {
    mode_ = Mode::kNoDecoder;
  } else if (d.size() == 1 && d[0].kind == K::kByteLevel) {
    mode_ = Mode::kByteLevel;
  } else if (d.size() == 4 && d[0].kind == K::kReplace && !d[0].regex &&
             d[1].kind == K::kByteFallback && d[2].kind == K::kFuse &&
             d[3].kind == K::kStrip && d[3].stop == 0) {
    mode_ = Mode::kLlama;
    strip_left_ = d[3].start;
  }
}

std::unique_ptr<DecodeStream> Tokenizer::NewDecodeStream(
    bool skip_special_tokens) const {
  return std::unique_ptr<DecodeStream>(
      new DecodeStream(this, skip_special_tokens));
}

// Strip (start only) on the fused text: drop up to strip_left_ leading
// content characters; the first other character ends the stripping.
void DecodeStream::EmitStripped(std::string_view piece, std::string* text) {
  const std::string& content = tokenizer_->pipeline_->decoders[3].content;
  while (strip_left_ > 0 && !piece.empty()) {
    if (piece.substr(0, content.size()) != content) {
      strip_left_ = 0;
      break;
    }
    piece.remove_prefix(content.size());
    --strip_left_;
  }
  text->append(piece);
}

void DecodeStream::FlushByteRun(std::string* text) {
  if (pending_.empty()) return;
  if (IsValidUtf8(pending_)) {
    EmitStripped(pending_, text);
  } else {
    for (size_t i = 0; i < pending_.size(); ++i) {
      EmitStripped("\xEF\xBF\xBD", text);
    }
  }
  pending_.clear();
}

Status DecodeStream::Feed(std::span<const int32_t> ids, std::string* text) {
  if (finalized_) return FailedPreconditionError("decode stream is finalized");
  const Pipeline& p = *tokenizer_->pipeline_;
  if (mode_ == Mode::kBuffer) {
    for (int32_t id : ids) {
      if (!p.IdToToken(id)) {
        return OutOfRangeError(
            StringPrintf("token id %d is not in the vocabulary", id));
      }
    }
    buffered_.insert(buffered_.end(), ids.begin(), ids.end());
    return Status::Ok();
  }
  std::string replaced;
  for (int32_t id : ids) {
    auto token = p.IdToToken(id);
    if (!token) {
      return OutOfRangeError(
          StringPrintf("token id %d is not in the vocabulary (%zu tokens)", id,
                       tokenizer_->vocab_size()));
    }
    if (skip_special_tokens_ && p.special_contents.count(std::string(*token))) {
      continue;
    }
    switch (mode_) {
      case Mode::kNoDecoder:
        if (started_) text->push_back(' ');
        text->append(*token);
        started_ = true;
        break;
      case Mode::kByteLevel: {
        size_t mark = pending_.size();
        for (size_t i = 0; i < token->size();) {
          size_t w = 0;
          int b = ByteLevelByte(DecodeCodePoint(*token, i, &w));
          if (b < 0) {
            pending_.resize(mark);
            pending_.append(*token);
            break;
          }
          pending_.push_back(static_cast<char>(b));
          i += w;
        }
        size_t decided = DecidedUtf8Prefix(pending_);
        text->append(Utf8Lossy(std::string_view(pending_).substr(0, decided)));
        pending_.erase(0, decided);
        break;
      }
      case Mode::kLlama: {
        const Decoder& replace = p.decoders[0];
        ReplaceAll(*token, replace.text, replace.content, &replaced);
        char byte;
        if (IsByteToken(replaced, &byte)) {
          pending_.push_back(byte);
        } else {
          FlushByteRun(text);
          EmitStripped(replaced, text);
        }
        break;
      }
      case Mode::kBuffer: break;
    }
  }
  return Status::Ok();
}

Status DecodeStream::Finalize(std::string* text) {
  if (finalized_) return Status::Ok();
  finalized_ = true;
  switch (mode_) {
    case Mode::kBuffer: {
      EMBER_ASSIGN_OR_RETURN(
          std::string all, tokenizer_->Decode(buffered_, skip_special_tokens_));
      text->append(all);
      buffered_.clear();
      break;
    }
    case Mode::kByteLevel:
      text->append(Utf8Lossy(pending_));
      pending_.clear();
      break;
    case Mode::kLlama: FlushByteRun(text); break;
    case Mode::kNoDecoder: break;
  }
  return Status::Ok();
}

Status Tokenizer::DecodeBatch(std::span<const std::span<const int32_t>> batch,
                              bool skip_special_tokens, unsigned threads,
                              std::vector<std::string>* out) const {
  out->assign(batch.size(), {});
  return ParallelFor(batch.size(), threads, [&](size_t i) -> Status {
    EMBER_ASSIGN_OR_RETURN((*out)[i], Decode(batch[i], skip_special_tokens),
                           "while decoding sequence %zu of the batch", i);
    return Status::Ok();
  });
}

size_t Tokenizer::vocab_size() const {
  const Pipeline& p = *pipeline_;
  size_t n = p.model.vocab.size();
  for (const AddedToken& token : p.added) {
    if (!p.model.vocab.count(token.content)) ++n;
  }
  return n;
}

std::string_view Tokenizer::model_type() const { return "BPE"; }

std::optional<std::string_view> Tokenizer::IdToToken(int32_t id) const {
  return pipeline_->IdToToken(id);
}

std::optional<int32_t> Tokenizer::TokenToId(std::string_view token) const {
  const Pipeline& p = *pipeline_;
  auto it = p.added_by_content.find(token);
  if (it != p.added_by_content.end()) return it->second;
  auto m = p.model.vocab.find(token);
  if (m != p.model.vocab.end()) return m->second;
  return std::nullopt;
}

std::vector<int32_t> Tokenizer::SpecialIds() const {
  std::vector<int32_t> ids;
  for (const AddedToken& token : pipeline_->added) {
    if (token.special) ids.push_back(token.id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace ember::tokenizer
