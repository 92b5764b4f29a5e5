// The normalizers: each rewrites the text of a piece before it is
// pre-tokenized (docs/tokenizer.md "Normalizers").
#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

namespace {

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

// Bit f of the entry of a BMP code point (f: 0 NFD, 1 NFC, 2 NFKD, 3
// NFKC) is set when, under utf8proc's data, the character is "inert" in
// that form: it has no decomposition (canonical, or any for NFKD/NFKC),
// its combining class is 0, and it is in no decomposition of two or more
// characters (so it is neither element of a composition). Such a character
// is its own normal form, nothing reorders across it (a starter) and
// nothing composes with it or across it (it blocks), so the normal form of
// A c B is that of A, then c, then that of B (docs/tokenizer.md "Unicode
// normalization"). Hangul syllables with a final jamo are inert under the
// composing forms (they decompose and compose back, and neither compose
// further nor with what precedes). U+11A7 is inert too (in no
// decomposition), which matters: utf8proc 2.8 composes an LV syllable with
// it as if it were a final jamo of index 0 and drops it, where `tokenizers`
// leaves both; as an inert character it never reaches utf8proc beside one.
// Made once, on first use (about 400,000 single-character decompositions).
const std::vector<uint8_t>& InertCharacters() {
  static const std::vector<uint8_t> table = [] {
    std::vector<uint8_t> t(0x10000, 0);
    // Bit 0: in a canonical decomposition of >= 2; bit 1: in any.
    std::vector<uint8_t> element(0x10000, 0);
    std::vector<uint8_t> decomposes(0x10000, 0);  // same bits
    utf8proc_int32_t parts[32];
    for (uint32_t c = 0; c < 0x30000; ++c) {
      if (c >= 0xD800 && c < 0xE000) continue;
      for (int compat = 0; compat < 2; ++compat) {
        int boundclass = 0;
        utf8proc_ssize_t n = utf8proc_decompose_char(
            static_cast<utf8proc_int32_t>(c), parts, 32,
            compat ? static_cast<utf8proc_option_t>(UTF8PROC_DECOMPOSE |
                                                    UTF8PROC_COMPAT)
                   : UTF8PROC_DECOMPOSE,
            &boundclass);
        const uint8_t bit = static_cast<uint8_t>(1u << compat);
        if (n < 0 || n > 32) {
          if (c < 0x10000) decomposes[c] |= bit;  // unknown: not inert
          continue;
        }
        if (c < 0x10000 && (n != 1 || static_cast<uint32_t>(parts[0]) != c))
          decomposes[c] |= bit;
        if (n < 2) continue;
        for (utf8proc_ssize_t k = 0; k < n; ++k) {
          if (parts[k] >= 0 && parts[k] < 0x10000) element[parts[k]] |= bit;
        }
      }
    }
    for (uint32_t c = 0; c < 0x10000; ++c) {
      if (c >= 0xD800 && c < 0xE000) continue;
      if (utf8proc_get_property(static_cast<utf8proc_int32_t>(c))
              ->combining_class != 0)
        continue;
      const uint8_t canonical = (element[c] | decomposes[c]) & 1;
      const uint8_t any = (element[c] | decomposes[c]) != 0;
      if (!canonical) t[c] |= 0x3;  // NFD, NFC
      if (!any) t[c] |= 0xC;        // NFKD, NFKC
      if (c >= 0xAC00 && c <= 0xD7A3 && (c - 0xAC00) % 28 != 0)
        t[c] |= 0xA;  // an LV T syllable: NFC, NFKC
    }
    return t;
  }();
  return table;
}

// The bit of InertCharacters() for `options`.
uint8_t InertBit(utf8proc_option_t options) {
  const bool compat = (options & UTF8PROC_COMPAT) != 0;
  const bool compose = (options & UTF8PROC_COMPOSE) != 0;
  return static_cast<uint8_t>(1u << ((compat ? 2 : 0) + (compose ? 1 : 0)));
}

// utf8proc's normalization, except that the code points `tokenizers` does
// not know stay as they are and split the text: a character it treats as
// unassigned has class 0, no decomposition and composes with nothing, so
// normalization never crosses it (docs/tokenizer.md "Unicode
// normalization"). Inert characters (InertCharacters) split it too; they
// and the ASCII characters that no composition can reach are copied.
Status UnicodeNormalize(std::string_view in, utf8proc_option_t options,
                        std::string* out) {
  out->clear();
  const uint8_t inert_bit = InertBit(options);
  const std::vector<uint8_t>* inert = nullptr;
  size_t start = 0;
  for (size_t i = 0; i < in.size();) {
    // An ASCII character is its own normal form in all four forms, has
    // class 0 and is no second element of a composition; when the next
    // character is no second element either (ASCII, inert, or the end),
    // nothing composes with it or reorders across it: it is copied, and
    // the text around it is normalized apart (most text is mostly ASCII).
    if (static_cast<uint8_t>(in[i]) < 0x80) {
      bool alone = i + 1 == in.size() || static_cast<uint8_t>(in[i + 1]) < 0x80;
      if (!alone) {
        size_t nw = 0;
        uint32_t next = DecodeCodePoint(in, i + 1, &nw);
        if (next < 0x10000) {
          if (inert == nullptr) inert = &InertCharacters();
          alone = ((*inert)[next] & inert_bit) != 0;
        }
      }
      if (alone) {
        if (start < i) {
          EMBER_RETURN_IF_ERROR(
              UnicodeNormalizeSpan(in.substr(start, i - start), options, out));
        }
        out->push_back(in[i]);
        start = ++i;
        continue;
      }
      ++i;
      continue;
    }
    size_t w = 0;
    uint32_t c = DecodeCodePoint(in, i, &w);
    if (c < 0x10000) {
      if (inert == nullptr) inert = &InertCharacters();
      if ((*inert)[c] & inert_bit) {
        if (start < i) {
          EMBER_RETURN_IF_ERROR(
              UnicodeNormalizeSpan(in.substr(start, i - start), options, out));
        }
        out->append(in.substr(i, w));
        start = i + w;
        i += w;
        continue;
      }
    }
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

// The CJK ideograph blocks BertNormalizer puts spaces around
// (`tokenizers`' is_chinese_char; docs/tokenizer.md "Normalizers").
bool IsBertChineseChar(uint32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// Calls `fn(code_point, bytes)` for each character of valid UTF-8 `in`.
template <typename Fn>
void ForEachChar(std::string_view in, Fn fn) {
  for (size_t i = 0; i < in.size();) {
    size_t w = 0;
    uint32_t c = DecodeCodePoint(in, i, &w);
    fn(c, in.substr(i, w));
    i += w;
  }
}

void Lowercase(std::string_view in, std::string* out) {
  out->clear();
  ForEachChar(in, [&](uint32_t c, std::string_view) {
    AppendTokenizersLowercase(c, out);
  });
}

// Leading and/or trailing White_Space characters removed.
void Strip(std::string_view in, bool left, bool right, std::string* out) {
  size_t begin = 0, end = in.size();
  if (left) {
    while (begin < end) {
      size_t w = 0;
      if (!IsRustWhitespace(DecodeCodePoint(in, begin, &w))) break;
      begin += w;
    }
  }
  if (right) {
    while (end > begin) {
      size_t lead = end - 1;
      while (lead > begin && (static_cast<uint8_t>(in[lead]) & 0xC0) == 0x80)
        --lead;
      size_t w = 0;
      if (!IsRustWhitespace(DecodeCodePoint(in, lead, &w))) break;
      end = lead;
    }
  }
  out->assign(in.substr(begin, end - begin));
}

void StripAccents(std::string_view in, std::string* out) {
  out->clear();
  ForEachChar(in, [&](uint32_t c, std::string_view bytes) {
    if (!IsCombiningMarkToTokenizers(c)) out->append(bytes);
  });
}

// BertNormalizer's steps one after the other over the whole text.
Status BertSteps(const Normalizer& n, std::string* text, std::string* scratch) {
  if (n.clean_text) {
    // Controls (and NUL, U+FFFD) removed, then whitespace to a space; tab,
    // LF and CR count as whitespace, not as controls.
    scratch->clear();
    ForEachChar(*text, [&](uint32_t c, std::string_view bytes) {
      bool tab_or_line = c == '\t' || c == '\n' || c == '\r';
      if (c == 0 || c == 0xFFFD || (!tab_or_line && IsOtherToTokenizers(c)))
        return;
      if (tab_or_line || IsRustWhitespace(c)) {
        scratch->push_back(' ');
      } else {
        scratch->append(bytes);
      }
    });
    text->swap(*scratch);
  }
  if (n.handle_chinese_chars) {
    scratch->clear();
    ForEachChar(*text, [&](uint32_t c, std::string_view bytes) {
      if (IsBertChineseChar(c)) {
        scratch->push_back(' ');
        scratch->append(bytes);
        scratch->push_back(' ');
      } else {
        scratch->append(bytes);
      }
    });
    text->swap(*scratch);
  }
  if (n.strip_accents) {
    // NFD (with `tokenizers`' tables), then the nonspacing marks removed.
    EMBER_RETURN_IF_ERROR(UnicodeNormalize(*text, UTF8PROC_DECOMPOSE, scratch));
    text->clear();
    ForEachChar(*scratch, [&](uint32_t c, std::string_view bytes) {
      if (!IsNonspacingMarkToTokenizers(c)) text->append(bytes);
    });
  }
  if (n.lowercase) {
    Lowercase(*text, scratch);
    text->swap(*scratch);
  }
  return Status::Ok();
}

}  // namespace

// BertNormalizer character by character (docs/tokenizer.md "Normalizers",
// its BertNormalizer item). Every step but strip_accents'
// NFD maps each character on its own. NFD decomposes each character on its
// own too, then sorts each run of non-starters (canonical combining class
// > 0) by class; strip_accents then drops the nonspacing marks (Mn). A
// character c is "apart" when that step cannot mix it with its neighbours:
// clean_text keeps it, and its decomposition holds a starter and no
// non-starter that is not dropped (or strip_accents is off). Then
//   Bert(A c B) = Bert(A) + Bert(c) + Bert(B)
// because the starter ends the run of non-starters of A's end and starts
// the one of B's start (so those are sorted as without c), and c's own
// non-starters are dropped: a stable sort restricted to the kept elements
// keeps them in the order it gives them alone. So the text is rewritten as
// the cached Bert(c) of each apart character and BertSteps over each run
// of the others.
struct BertCharCache {
  // Per BMP code point, two words: the first is 0 (not computed yet), 1
  // (not apart) or 2 + n with the first (up to) 7 of the n <= 15 bytes of
  // Bert(c) above its low byte; the second holds bytes 7..14. Threads that
  // race compute the same value; the second word is written before the
  // first is released.
  static constexpr uint32_t kLimit = 0x10000;
  static constexpr size_t kMaxBytes = 15;
  BertCharCache() : words(new std::atomic<uint64_t>[2 * kLimit]()) {}
  std::unique_ptr<std::atomic<uint64_t>[]> words;
};

namespace {

// The cache of BertNormalizers with `n`'s four flags, which alone decide
// what a character becomes: one per process and combination of flags while
// some tokenizer holds it (so a file with many BertNormalizers costs one
// cache of 1 MiB, not one each).
std::shared_ptr<BertCharCache> SharedBertCharCache(const Normalizer& n) {
  static std::mutex mutex;
  static std::array<std::weak_ptr<BertCharCache>, 16> caches;
  const size_t key = (n.clean_text ? 1 : 0) | (n.handle_chinese_chars ? 2 : 0) |
                     (n.strip_accents ? 4 : 0) | (n.lowercase ? 8 : 0);
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<BertCharCache> cache = caches[key].lock();
  if (!cache) {
    cache = std::make_shared<BertCharCache>();
    caches[key] = cache;
  }
  return cache;
}

// Whether BertNormalizer's strip_accents step cannot mix `c` with its
// neighbours (see BertCharCache).
bool BertApart(const Normalizer& n, uint32_t c) {
  if (!n.strip_accents) return true;
  if (n.clean_text) {
    bool tab_or_line = c == '\t' || c == '\n' || c == '\r';
    if (c == 0 || c == 0xFFFD || (!tab_or_line && IsOtherToTokenizers(c)))
      return false;  // removed: its neighbours meet
    if (tab_or_line || IsRustWhitespace(c)) return true;  // a space
  }
  // Unknown to `tokenizers`' tables: left to UnicodeNormalize.
  if (c >= 0x7FD && UnknownToTokenizersNormalization(c)) return false;
  utf8proc_int32_t parts[32];
  int last_boundclass = 0;
  utf8proc_ssize_t count =
      utf8proc_decompose_char(static_cast<utf8proc_int32_t>(c), parts, 32,
                              UTF8PROC_DECOMPOSE, &last_boundclass);
  if (count <= 0 || count > 32) return false;
  bool starter = false;
  for (utf8proc_ssize_t k = 0; k < count; ++k) {
    const uint32_t part = static_cast<uint32_t>(parts[k]);
    if (utf8proc_get_property(parts[k])->combining_class == 0) {
      starter = true;
    } else if (!IsNonspacingMarkToTokenizers(part)) {
      return false;
    }
  }
  return starter;
}

// The cache word of BMP code point `c`, computed when missing; 1 when it is
// not apart (or its result is over 15 bytes).
Result<uint64_t> BertCharWord(const Normalizer& n, uint32_t c, uint64_t* tail) {
  std::atomic<uint64_t>* words = n.bert_chars->words.get();
  uint64_t head = words[2 * c].load(std::memory_order_acquire);
  if (head == 0) {
    uint64_t second = 0;
    head = 1;
    if (BertApart(n, c)) {
      std::string one, scratch;
      AppendCodePoint(c, &one);
      EMBER_RETURN_IF_ERROR(BertSteps(n, &one, &scratch));
      if (one.size() <= BertCharCache::kMaxBytes) {
        uint8_t bytes[16] = {};
        std::memcpy(bytes, one.data(), one.size());
        head = 2 + one.size();
        for (size_t k = 0; k < 7; ++k)
          head |= static_cast<uint64_t>(bytes[k]) << (8 * (k + 1));
        for (size_t k = 0; k < 8; ++k)
          second |= static_cast<uint64_t>(bytes[7 + k]) << (8 * k);
      }
    }
    words[2 * c + 1].store(second, std::memory_order_relaxed);
    words[2 * c].store(head, std::memory_order_release);
  }
  if ((head & 0xFF) > 2 + 7)
    *tail = words[2 * c + 1].load(std::memory_order_relaxed);
  return head;
}

Status Bert(const Normalizer& n, std::string* text, std::string* scratch) {
  if (!n.bert_ascii.empty() &&
      std::all_of(text->begin(), text->end(),
                  [](char c) { return static_cast<uint8_t>(c) < 0x80; })) {
    scratch->clear();
    for (char c : *text) scratch->append(n.bert_ascii[static_cast<uint8_t>(c)]);
    text->swap(*scratch);
    return Status::Ok();
  }
  if (!n.bert_chars) return BertSteps(n, text, scratch);
  std::string& out = *scratch;
  out.clear();
  std::string run, run_scratch;
  // [run_start, i): characters that are not apart, normalized together.
  size_t run_start = std::string::npos;
  auto flush = [&](size_t end) -> Status {
    if (run_start == std::string::npos) return Status::Ok();
    run.assign(*text, run_start, end - run_start);
    run_start = std::string::npos;
    EMBER_RETURN_IF_ERROR(BertSteps(n, &run, &run_scratch));
    out.append(run);
    return Status::Ok();
  };
  for (size_t i = 0; i < text->size();) {
    size_t w = 1;
    uint32_t c = static_cast<uint8_t>((*text)[i]);
    if (c >= 0x80) c = DecodeCodePoint(*text, i, &w);
    uint64_t head = 1, tail = 0;
    if (c < BertCharCache::kLimit) {
      EMBER_ASSIGN_OR_RETURN(head, BertCharWord(n, c, &tail));
    }
    if (head == 1) {
      if (run_start == std::string::npos) run_start = i;
    } else {
      EMBER_RETURN_IF_ERROR(flush(i));
      const size_t size = static_cast<size_t>(head & 0xFF) - 2;
      char bytes[16];
      for (size_t k = 0; k < 7; ++k)
        bytes[k] = static_cast<char>(head >> (8 * (k + 1)));
      for (size_t k = 0; k < 8; ++k)
        bytes[7 + k] = static_cast<char>(tail >> (8 * k));
      out.append(bytes, size);
    }
    i += w;
  }
  EMBER_RETURN_IF_ERROR(flush(text->size()));
  text->swap(out);
  return Status::Ok();
}

// SentencePiece's "nmt" rules (`tokenizers`' Nmt): some controls removed,
// some spaces and separators to U+0020.
void Nmt(std::string_view in, std::string* out) {
  out->clear();
  ForEachChar(in, [&](uint32_t c, std::string_view bytes) {
    if ((c >= 0x1 && c <= 0x8) || c == 0xB || (c >= 0xE && c <= 0x1F) ||
        c == 0x7F || c == 0x8F || c == 0x9F) {
      return;
    }
    bool to_space = c == 0x9 || c == 0xA || c == 0xC || c == 0xD ||
                    c == 0x1680 || (c >= 0x200B && c <= 0x200F) ||
                    c == 0x2028 || c == 0x2029 || c == 0x2581 || c == 0xFEFF ||
                    c == 0xFFFD;
    if (to_space) {
      out->push_back(' ');
    } else {
      out->append(bytes);
    }
  });
}

// Each byte as GPT-2's printable character (docs/tokenizer.md "ByteLevel").
void ByteLevel(std::string_view in, std::string* out) {
  out->clear();
  for (char b : in) out->append(ByteLevelChar(static_cast<uint8_t>(b)));
}

Result<bool> RequiredBool(const object& o, std::string_view key,
                          std::string_view where) {
  element e;
  if (!Field(o, key, &e) || e.is_null()) {
    return InvalidArgumentError(StringPrintf(
        "%.*s: field \"%.*s\" is missing", static_cast<int>(where.size()),
        where.data(), static_cast<int>(key.size()), key.data()));
  }
  return GetBool(o, key, where, false);
}
// How long normalized text may grow: a file's normalizers (a Sequence of
// Replaces with long contents, Prepends, expanding charsmaps) could
// otherwise turn a short text into gigabytes. Real normalizers stay far
// below: NFKC's largest expansion is 18 characters for one (U+FDFA).
constexpr size_t kMaxNormalizedGrowth = 64;
constexpr size_t kNormalizedSlack = size_t{1} << 20;

Status NormalizedTooLong(size_t limit) {
  return ResourceExhaustedError(StringPrintf(
      "normalized text would exceed %zu bytes (64 times the text plus 1 MiB)",
      limit));
}

// Whether a Replace of `n` on `text` stays within `limit` bytes: checked
// before it runs, from the number of matches when the worst case (a match
// at every character) could exceed it.
Status CheckReplaceGrowth(const Normalizer& n, std::string_view text,
                          size_t limit) {
  if (n.content.empty() ||
      text.size() + (text.size() + 1) * n.content.size() <= limit) {
    return Status::Ok();
  }
  size_t matches = 0;
  if (n.regex) {
    EMBER_RETURN_IF_ERROR(
        n.regex->ForEachMatch(text, [&](size_t, size_t) { ++matches; }));
  } else if (n.text.empty()) {
    matches = 1;
    for (size_t i = 0; i < text.size();
         i += Utf8Length(static_cast<uint8_t>(text[i]))) {
      ++matches;
    }
  } else {
    for (size_t at = text.find(n.text); at != std::string_view::npos;
         at = text.find(n.text, at + n.text.size())) {
      ++matches;
    }
  }
  if (matches > (limit - std::min(limit, text.size())) / n.content.size()) {
    return NormalizedTooLong(limit);
  }
  return Status::Ok();
}

}  // namespace

Status Pipeline::Normalize(std::string_view in, std::string* out) const {
  const size_t limit = kMaxNormalizedGrowth * in.size() + kNormalizedSlack;
  out->assign(in);
  std::string scratch;
  for (const Normalizer& n : normalizers) {
    if (n.kind == Normalizer::Kind::kReplace) {
      EMBER_RETURN_IF_ERROR(CheckReplaceGrowth(n, *out, limit));
    }
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
      case Normalizer::Kind::kLowercase:
        Lowercase(*out, &scratch);
        out->swap(scratch);
        break;
      case Normalizer::Kind::kStrip:
        Strip(*out, n.strip_left, n.strip_right, &scratch);
        out->swap(scratch);
        break;
      case Normalizer::Kind::kStripAccents:
        StripAccents(*out, &scratch);
        out->swap(scratch);
        break;
      case Normalizer::Kind::kBert:
        EMBER_RETURN_IF_ERROR(Bert(n, out, &scratch));
        break;
      case Normalizer::Kind::kPrecompiled:
        EMBER_RETURN_IF_ERROR(n.charsmap->Normalize(*out, &scratch));
        out->swap(scratch);
        break;
      case Normalizer::Kind::kByteLevel:
        ByteLevel(*out, &scratch);
        out->swap(scratch);
        break;
      case Normalizer::Kind::kNmt:
        Nmt(*out, &scratch);
        out->swap(scratch);
        break;
    }
    if (out->size() > limit) return NormalizedTooLong(limit);
  }
  return Status::Ok();
}

Status LoadNormalizer(const element& e, size_t depth, Pipeline* p) {
  if (e.is_null()) return Status::Ok();
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return InvalidArgumentError("normalizer is not an object");
  }
  EMBER_ASSIGN_OR_RETURN(std::string_view type, TypeOf(o, "normalizer"));
  Normalizer n;
  if (type == "Sequence") {
    element list;
    array a;
    if (!Field(o, "normalizers", &list) ||
        list.get_array().get(a) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          "normalizer Sequence: \"normalizers\" is not an array");
    }
    if (depth > 8)
      return InvalidArgumentError("normalizer Sequences nest too deep");
    for (element child : a)
      EMBER_RETURN_IF_ERROR(LoadNormalizer(child, depth + 1, p));
    return Status::Ok();
  } else if (type == "Prepend") {
    n.kind = Normalizer::Kind::kPrepend;
    EMBER_ASSIGN_OR_RETURN(std::string_view s,
                           GetString(o, "prepend", "normalizer Prepend"));
    n.text = s;
  } else if (type == "Replace") {
    n.kind = Normalizer::Kind::kReplace;
    EMBER_RETURN_IF_ERROR(
        LoadPattern(o, "normalizer Replace", &n.text, &n.regex));
    if (!n.regex && n.text.empty()) {
      // `tokenizers` escapes it into the empty regex, and then panics on
      // every encode (an alignment index past the end).
      return InvalidArgumentError(
          "normalizer Replace: the String pattern is empty");
    }
    EMBER_ASSIGN_OR_RETURN(std::string_view c,
                           GetString(o, "content", "normalizer Replace"));
    n.content = c;
  } else if (type == "NFC") {
    n.kind = Normalizer::Kind::kNfc;
  } else if (type == "NFD") {
    n.kind = Normalizer::Kind::kNfd;
  } else if (type == "NFKC") {
    n.kind = Normalizer::Kind::kNfkc;
  } else if (type == "NFKD") {
    n.kind = Normalizer::Kind::kNfkd;
  } else if (type == "Lowercase") {
    n.kind = Normalizer::Kind::kLowercase;
  } else if (type == "Strip") {
    n.kind = Normalizer::Kind::kStrip;
    EMBER_ASSIGN_OR_RETURN(n.strip_left,
                           RequiredBool(o, "strip_left", "normalizer Strip"));
    EMBER_ASSIGN_OR_RETURN(n.strip_right,
                           RequiredBool(o, "strip_right", "normalizer Strip"));
  } else if (type == "StripAccents") {
    n.kind = Normalizer::Kind::kStripAccents;
  } else if (type == "BertNormalizer") {
    constexpr std::string_view kWhere = "normalizer BertNormalizer";
    n.kind = Normalizer::Kind::kBert;
    EMBER_ASSIGN_OR_RETURN(n.clean_text, RequiredBool(o, "clean_text", kWhere));
    EMBER_ASSIGN_OR_RETURN(n.handle_chinese_chars,
                           RequiredBool(o, "handle_chinese_chars", kWhere));
    EMBER_ASSIGN_OR_RETURN(n.lowercase, RequiredBool(o, "lowercase", kWhere));
    // null (or absent) strip_accents follows lowercase.
    EMBER_ASSIGN_OR_RETURN(n.strip_accents,
                           GetBool(o, "strip_accents", kWhere, n.lowercase));
    std::vector<std::string> ascii(128);
    std::string scratch;
    for (int c = 0; c < 128; ++c) {
      ascii[c].assign(1, static_cast<char>(c));
      EMBER_RETURN_IF_ERROR(BertSteps(n, &ascii[c], &scratch));
    }
    n.bert_ascii = std::move(ascii);
    n.bert_chars = SharedBertCharCache(n);
  } else if (type == "Precompiled") {
    n.kind = Normalizer::Kind::kPrecompiled;
    EMBER_ASSIGN_OR_RETURN(
        std::string_view b64,
        GetString(o, "precompiled_charsmap", "normalizer Precompiled"));
    EMBER_ASSIGN_OR_RETURN(n.charsmap, PrecompiledCharsmap::FromBase64(b64));
  } else if (type == "ByteLevel") {
    n.kind = Normalizer::Kind::kByteLevel;
  } else if (type == "Nmt") {
    n.kind = Normalizer::Kind::kNmt;
  } else {
    return Unimplemented("normalizer", type);
  }
  p->normalizers.push_back(std::move(n));
  return Status::Ok();
}

}  // namespace ember::tokenizer
