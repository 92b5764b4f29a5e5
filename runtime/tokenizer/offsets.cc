// Offsets: where each token of an encode came from in the text, exactly as
// `tokenizers` reports them (docs/tokenizer.md "Offsets").
//
// `tokenizers` keeps, for every byte of a normalized text, the range of
// the original text it stands for (its NormalizedString "alignments"), and
// updates them at every rewrite by one rule: the new text is a list of
// characters, each marked as replacing the next old character (0), as
// inserted (1: it takes the alignment of the old byte before it) or as
// replacing one and removing the n after it (-n). A token's offsets are
// then the start of the alignment of its first byte and the end of that of
// its last. That rule is why, say, NFC's "e" + U+0301 -> "é" gives "é" the
// offsets of the "e" alone, and this file follows it, quirks included.
//
// This is the slow path: Tokenizer::Encode never builds alignments. Each
// stage here makes the text Encode's stage makes (the tests compare the
// ids) while carrying one Alignment per byte.
#include <utf8proc.h>

#include <algorithm>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {

namespace {

// The original bytes [begin, end) one byte of a normalized text stands for,
// counted from the start of the whole text (`tokenizers` counts them from
// the start of each piece and keeps the piece's start apart; the sums are
// the same).
struct Alignment {
  uint32_t begin = 0, end = 0;
};

// A text being normalized, with its alignments. `shift` is where the piece
// it was cut from starts in the original text (`tokenizers`'
// original_shift): Metaspace's prepend_scheme "first" tests it, and an
// insertion at the very start is aligned to it.
struct AlignedText {
  std::string text;
  std::vector<Alignment> align;  // one per byte of text
  uint32_t shift = 0;
};

void AppendAligned(uint32_t c, Alignment a, AlignedText* out) {
  AppendCodePoint(c, &out->text);
  out->align.resize(out->text.size(), a);
}

void AppendAlignedBytes(std::string_view bytes, Alignment a, AlignedText* out) {
  out->text.append(bytes);
  out->align.resize(out->text.size(), a);
}

// `tokenizers`' transform over the whole text: the new characters `dest`
// replace the old ones by the rule at the top of this file;
// `initial_removed` old characters at the start are dropped first. Where
// `tokenizers` would index past the old alignments (a change list that
// does not fit its text; it panics), the last one is used.
void Transform(AlignedText* t, const std::vector<CharChange>& dest,
               size_t initial_removed) {
  const std::string& old = t->text;
  const std::vector<Alignment>& old_align = t->align;
  size_t cursor = 0;  // the next old character not yet consumed
  auto consume = [&]() -> size_t {
    if (cursor >= old.size()) return 0;
    size_t w = Utf8Length(static_cast<uint8_t>(old[cursor]));
    cursor += w;
    return w;
  };
  auto at = [&](size_t i) -> Alignment {
    if (i < old_align.size()) return old_align[i];
    if (old_align.empty()) return {t->shift, t->shift};
    return old_align.back();
  };
  size_t offset = 0;
  for (size_t i = 0; i < initial_removed; ++i) offset += consume();
  AlignedText out;
  out.shift = t->shift;
  out.text.reserve(old.size());
  out.align.reserve(old.size());
  for (const CharChange& d : dest) {
    Alignment a;
    if (d.change > 0) {
      a = offset < 1 ? Alignment{t->shift, t->shift} : at(offset - 1);
    } else {
      a = at(offset);
      offset += consume();
      for (int32_t k = 0; k < -d.change; ++k) offset += consume();
    }
    AppendAligned(d.c, a, &out);
  }
  *t = std::move(out);
}

// Each character rewritten into zero or more characters by `fn(c, out)`
// (appending code points to `out`): the first replaces it and the others
// are inserted after it, so all take its alignment; none removes it.
template <typename Fn>
void MapChars(AlignedText* t, Fn fn) {
  AlignedText out;
  out.shift = t->shift;
  out.text.reserve(t->text.size());
  out.align.reserve(t->text.size());
  std::vector<uint32_t> chars;
  for (size_t i = 0; i < t->text.size();) {
    size_t w = 0;
    uint32_t c = DecodeCodePoint(t->text, i, &w);
    chars.clear();
    fn(c, &chars);
    for (uint32_t d : chars) AppendAligned(d, t->align[i], &out);
    i += w;
  }
  *t = std::move(out);
}

// `tokenizers`' prepend: the new text, and the old first character after
// it, all take the old first character's alignment.
void Prepend(std::string_view s, AlignedText* t) {
  if (t->text.empty()) return;
  Alignment a = t->align[0];
  t->text.insert(0, s);
  t->align.insert(t->align.begin(), s.size(), a);
}

// `tokenizers`' replace: the text of each match [start, end) gives way to
// `content`, inserted, so aligned to the match's last byte.
template <typename ForEachMatch>
Status ReplaceMatches(AlignedText* t, std::string_view content, size_t limit,
                      ForEachMatch for_each_match) {
  AlignedText out;
  out.shift = t->shift;
  size_t last = 0;
  Status status;
  EMBER_RETURN_IF_ERROR(for_each_match([&](size_t start, size_t end) {
    if (!status.ok()) return;
    out.text.append(t->text, last, start - last);
    out.align.insert(out.align.end(), t->align.begin() + last,
                     t->align.begin() + start);
    // An empty match at the start: an insertion with nothing before it
    // takes the empty range at the piece's start.
    AppendAlignedBytes(
        content, end > 0 ? t->align[end - 1] : Alignment{t->shift, t->shift},
        &out);
    last = end;
    if (out.text.size() > limit) {
      status = ResourceExhaustedError(StringPrintf(
          "normalized text would exceed %zu bytes (64 times the text plus "
          "1 MiB)",
          limit));
    }
  }));
  EMBER_RETURN_IF_ERROR(status);
  out.text.append(t->text, last);
  out.align.insert(out.align.end(), t->align.begin() + last, t->align.end());
  *t = std::move(out);
  return Status::Ok();
}

// Keeps the characters `keep(c)` accepts, each with its own alignment
// (`tokenizers`' filter).
template <typename Keep>
void Filter(AlignedText* t, Keep keep) {
  AlignedText out;
  out.shift = t->shift;
  for (size_t i = 0; i < t->text.size();) {
    size_t w = 0;
    uint32_t c = DecodeCodePoint(t->text, i, &w);
    if (keep(c)) {
      out.text.append(t->text, i, w);
      out.align.insert(out.align.end(), t->align.begin() + i,
                       t->align.begin() + i + w);
    }
    i += w;
  }
  *t = std::move(out);
}

// ---------------------------------------------------------------------------
// Unicode normalization with `tokenizers`' change marks. `tokenizers` uses
// unicode-normalization-alignments: decomposition marks the first
// character of each decomposed character 0 and the others 1, and the
// canonical reordering of combining marks moves the marks with their
// characters; composition gives a composed pair the first one's mark plus
// the second's minus 1. The tables are utf8proc's, corrected where
// `tokenizers`' differ as normalizers.cc does (characters it does not know
// decompose to themselves, have class 0 and compose with nothing).

uint8_t CombiningClass(uint32_t c) {
  if (c >= 0x7FD && UnknownToTokenizersNormalization(c)) return 0;
  return static_cast<uint8_t>(
      utf8proc_get_property(static_cast<int32_t>(c))->combining_class);
}

struct Decomposed {
  uint32_t c;
  int32_t change;
  uint8_t ccc;
};

Status Decompose(std::string_view text, bool compat,
                 std::vector<Decomposed>* out) {
  out->clear();
  size_t pending = 0;  // out[pending..] waits for canonical ordering
  auto order = [&]() {
    std::stable_sort(
        out->begin() + static_cast<std::ptrdiff_t>(pending), out->end(),
        [](const Decomposed& a, const Decomposed& b) { return a.ccc < b.ccc; });
    pending = out->size();
  };
  auto options = static_cast<utf8proc_option_t>(
      UTF8PROC_DECOMPOSE | UTF8PROC_STABLE | (compat ? UTF8PROC_COMPAT : 0));
  utf8proc_int32_t buffer[32];
  for (size_t i = 0; i < text.size();) {
    size_t w = 0;
    uint32_t c = DecodeCodePoint(text, i, &w);
    i += w;
    utf8proc_ssize_t n = 1;
    buffer[0] = static_cast<utf8proc_int32_t>(c);
    if (!(c >= 0x7FD && UnknownToTokenizersNormalization(c)) && c >= 0x80) {
      int last_boundclass = 0;
      n = utf8proc_decompose_char(static_cast<utf8proc_int32_t>(c), buffer, 32,
                                  options, &last_boundclass);
      if (n < 0 || n > 32) {
        return InvalidArgumentError(
            StringPrintf("Unicode normalization failed at U+%04X",
                         static_cast<unsigned>(c)));
      }
    }
    for (utf8proc_ssize_t k = 0; k < n; ++k) {
      auto d = static_cast<uint32_t>(buffer[k]);
      uint8_t ccc = CombiningClass(d);
      if (ccc == 0) order();
      out->push_back({d, k == 0 ? 0 : 1, ccc});
    }
  }
  order();
  return Status::Ok();
}

// The canonical composition of `a` and `b`, or 0.
uint32_t ComposePair(uint32_t a, uint32_t b) {
  if ((a >= 0x7FD && UnknownToTokenizersNormalization(a)) ||
      (b >= 0x7FD && UnknownToTokenizersNormalization(b))) {
    return 0;
  }
  // U+11A7 is no trailing consonant (the T jamo start at U+11A8); utf8proc
  // 2.8 composes an LV syllable with it into the syllable itself, dropping
  // it, where `tokenizers` (and Unicode) keep both.
  if (b == 0x11A7) return 0;
  utf8proc_int32_t buffer[2] = {static_cast<utf8proc_int32_t>(a),
                                static_cast<utf8proc_int32_t>(b)};
  utf8proc_ssize_t n = utf8proc_normalize_utf32(
      buffer, 2,
      static_cast<utf8proc_option_t>(UTF8PROC_COMPOSE | UTF8PROC_STABLE));
  return n == 1 ? static_cast<uint32_t>(buffer[0]) : 0;
}

// Canonical composition of a decomposed, ordered list, in the order
// unicode-normalization-alignments emits characters.
void Compose(const std::vector<Decomposed>& in, std::vector<CharChange>* out) {
  out->clear();
  bool has_starter = false;
  CharChange starter{0, 0};
  std::vector<CharChange> blocked;  // after the starter, not composed
  int last_ccc = -1;                // -1: nothing since the starter
  auto flush = [&]() {
    if (has_starter) out->push_back(starter);
    out->insert(out->end(), blocked.begin(), blocked.end());
    blocked.clear();
    has_starter = false;
    last_ccc = -1;
  };
  for (const Decomposed& d : in) {
    if (!has_starter) {
      if (d.ccc != 0) {
        out->push_back({d.c, d.change});
        continue;
      }
      has_starter = true;
      starter = {d.c, d.change};
      last_ccc = -1;
      continue;
    }
    // Blocked when a character in between has a class as high (or is a
    // starter, which ends the run).
    bool reachable = last_ccc < 0 || last_ccc < d.ccc;
    if (reachable) {
      if (uint32_t r = ComposePair(starter.c, d.c)) {
        starter = {r, starter.change + d.change - 1};
        continue;
      }
    }
    if (d.ccc == 0) {
      flush();
      has_starter = true;
      starter = {d.c, d.change};
      continue;
    }
    blocked.push_back({d.c, d.change});
    last_ccc = d.ccc;
  }
  flush();
}

Status UnicodeNormalizeAligned(AlignedText* t, bool compose, bool compat) {
  std::vector<Decomposed> decomposed;
  EMBER_RETURN_IF_ERROR(Decompose(t->text, compat, &decomposed));
  std::vector<CharChange> changes;
  if (compose) {
    Compose(decomposed, &changes);
  } else {
    changes.reserve(decomposed.size());
    for (const Decomposed& d : decomposed) changes.push_back({d.c, d.change});
  }
  Transform(t, changes, 0);
  return Status::Ok();
}

bool IsBertChineseChar(uint32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

void Lowercase(AlignedText* t) {
  std::string scratch;
  MapChars(t, [&](uint32_t c, std::vector<uint32_t>* out) {
    scratch.clear();
    AppendTokenizersLowercase(c, &scratch);
    for (size_t i = 0; i < scratch.size();) {
      size_t w = 0;
      out->push_back(DecodeCodePoint(scratch, i, &w));
      i += w;
    }
  });
}

// Pipeline::Normalize (normalizers.cc), step by step with alignments.
Status NormalizeAligned(const Pipeline& p, AlignedText* t) {
  const size_t limit = 64 * t->text.size() + (size_t{1} << 20);
  for (const Normalizer& n : p.normalizers) {
    switch (n.kind) {
      case Normalizer::Kind::kPrepend: Prepend(n.text, t); break;
      case Normalizer::Kind::kReplace:
        if (n.regex) {
          EMBER_RETURN_IF_ERROR(
              ReplaceMatches(t, n.content, limit, [&](const auto& on_match) {
                return n.regex->ForEachMatch(t->text, on_match);
              }));
        } else {
          EMBER_RETURN_IF_ERROR(
              ReplaceMatches(t, n.content, limit, [&](const auto& on_match) {
                std::string_view s = t->text;
                for (size_t at = s.find(n.text); at != std::string_view::npos;
                     at = s.find(n.text, at + n.text.size())) {
                  on_match(at, at + n.text.size());
                }
                return Status::Ok();
              }));
        }
        break;
      case Normalizer::Kind::kNfc:
        EMBER_RETURN_IF_ERROR(UnicodeNormalizeAligned(t, true, false));
        break;
      case Normalizer::Kind::kNfd:
        EMBER_RETURN_IF_ERROR(UnicodeNormalizeAligned(t, false, false));
        break;
      case Normalizer::Kind::kNfkc:
        EMBER_RETURN_IF_ERROR(UnicodeNormalizeAligned(t, true, true));
        break;
      case Normalizer::Kind::kNfkd:
        EMBER_RETURN_IF_ERROR(UnicodeNormalizeAligned(t, false, true));
        break;
      case Normalizer::Kind::kLowercase: Lowercase(t); break;
      case Normalizer::Kind::kStrip: {
        // The White_Space characters at the ends removed; the rest keep
        // their alignments.
        size_t begin = 0, end = t->text.size();
        if (n.strip_left) {
          while (begin < end) {
            size_t w = 0;
            if (!IsRustWhitespace(DecodeCodePoint(t->text, begin, &w))) break;
            begin += w;
          }
        }
        if (n.strip_right) {
          while (end > begin) {
            size_t lead = end - 1;
            while (lead > begin &&
                   (static_cast<uint8_t>(t->text[lead]) & 0xC0) == 0x80) {
              --lead;
            }
            size_t w = 0;
            if (!IsRustWhitespace(DecodeCodePoint(t->text, lead, &w))) break;
            end = lead;
          }
        }
        t->text = t->text.substr(begin, end - begin);
        t->align = std::vector<Alignment>(t->align.begin() + begin,
                                          t->align.begin() + end);
        break;
      }
      case Normalizer::Kind::kStripAccents:
        Filter(t, [](uint32_t c) { return !IsCombiningMarkToTokenizers(c); });
        break;
      case Normalizer::Kind::kBert:
        if (!n.bert_ascii.empty() &&
            std::all_of(t->text.begin(), t->text.end(), [](char c) {
              return static_cast<uint8_t>(c) < 0x80;
            })) {
          // All ASCII: each character's result (normalizers.cc's table),
          // every byte of it aligned to the character, as the steps below
          // would make it.
          AlignedText out;
          out.shift = t->shift;
          for (size_t i = 0; i < t->text.size(); ++i) {
            AppendAlignedBytes(n.bert_ascii[static_cast<uint8_t>(t->text[i])],
                               t->align[i], &out);
          }
          *t = std::move(out);
          break;
        }
        if (n.clean_text) {
          Filter(t, [](uint32_t c) {
            bool tab_or_line = c == '\t' || c == '\n' || c == '\r';
            return !(c == 0 || c == 0xFFFD ||
                     (!tab_or_line && IsOtherToTokenizers(c)));
          });
          MapChars(t, [](uint32_t c, std::vector<uint32_t>* out) {
            bool space =
                c == '\t' || c == '\n' || c == '\r' || IsRustWhitespace(c);
            out->push_back(space ? ' ' : c);
          });
        }
        if (n.handle_chinese_chars) {
          MapChars(t, [](uint32_t c, std::vector<uint32_t>* out) {
            if (IsBertChineseChar(c)) {
              out->insert(out->end(), {' ', c, ' '});
            } else {
              out->push_back(c);
            }
          });
        }
        if (n.strip_accents) {
          EMBER_RETURN_IF_ERROR(UnicodeNormalizeAligned(t, false, false));
          Filter(t,
                 [](uint32_t c) { return !IsNonspacingMarkToTokenizers(c); });
        }
        if (n.lowercase) Lowercase(t);
        break;
      case Normalizer::Kind::kPrecompiled: {
        std::vector<CharChange> changes;
        bool modified = false;
        EMBER_RETURN_IF_ERROR(
            n.charsmap->NormalizeChanges(t->text, &changes, &modified));
        if (modified) Transform(t, changes, 0);
        break;
      }
      case Normalizer::Kind::kByteLevel: {
        AlignedText out;
        out.shift = t->shift;
        for (size_t i = 0; i < t->text.size(); ++i) {
          AppendAlignedBytes(ByteLevelChar(static_cast<uint8_t>(t->text[i])),
                             t->align[i], &out);
        }
        *t = std::move(out);
        break;
      }
      case Normalizer::Kind::kNmt:
        Filter(t, [](uint32_t c) {
          return !((c >= 0x1 && c <= 0x8) || c == 0xB ||
                   (c >= 0xE && c <= 0x1F) || c == 0x7F || c == 0x8F ||
                   c == 0x9F);
        });
        MapChars(t, [](uint32_t c, std::vector<uint32_t>* out) {
          bool to_space = c == 0x9 || c == 0xA || c == 0xC || c == 0xD ||
                          c == 0x1680 || (c >= 0x200B && c <= 0x200F) ||
                          c == 0x2028 || c == 0x2029 || c == 0x2581 ||
                          c == 0xFEFF || c == 0xFFFD;
          out->push_back(to_space ? ' ' : c);
        });
        break;
    }
    if (t->text.size() > limit) {
      return ResourceExhaustedError(StringPrintf(
          "normalized text would exceed %zu bytes (64 times the text plus "
          "1 MiB)",
          limit));
    }
  }
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// Pre-tokenization with alignments.

// A word: its text, the alignment of each of its bytes (in storage owned
// by a caller up the stack) and its `shift`.
struct WordRef {
  std::string_view text;
  const Alignment* align;
  uint32_t shift;
};
using WordRefFn = std::function<Status(const WordRef&)>;

// The word of bytes [start, end) of `w` (`tokenizers`' slice: its shift is
// where its first byte came from).
WordRef Slice(const WordRef& w, size_t start, size_t end) {
  return {w.text.substr(start, end - start), w.align + start,
          start < end ? w.align[start].begin : w.shift + uint32_t(start)};
}

Status ByteLevelAligned(const PreTokenizer& step, const WordRef& w,
                        const WordRefFn& on_word) {
  AlignedText t{std::string(w.text),
                std::vector<Alignment>(w.align, w.align + w.text.size()),
                w.shift};
  if (step.add_prefix_space && t.text[0] != ' ') Prepend(" ", &t);
  const WordRef whole{t.text, t.align.data(), t.shift};
  AlignedText mapped;
  auto word = [&](size_t start, size_t end) -> Status {
    if (start >= end) return Status::Ok();
    WordRef part = Slice(whole, start, end);
    mapped.text.clear();
    mapped.align.clear();
    for (size_t i = start; i < end; ++i) {
      AppendAlignedBytes(ByteLevelChar(static_cast<uint8_t>(t.text[i])),
                         t.align[i], &mapped);
    }
    return on_word({mapped.text, mapped.align.data(), part.shift});
  };
  if (!step.use_regex) return word(0, t.text.size());
  std::vector<std::pair<size_t, size_t>> parts;
  size_t last = 0;
  EMBER_RETURN_IF_ERROR(
      step.regex->ForEachMatch(t.text, [&](size_t start, size_t end) {
        parts.emplace_back(last, start);
        parts.emplace_back(start, end);
        last = end;
      }));
  parts.emplace_back(last, t.text.size());
  for (auto [start, end] : parts) EMBER_RETURN_IF_ERROR(word(start, end));
  return Status::Ok();
}

Status MetaspaceAligned(const PreTokenizer& step, const WordRef& w,
                        const WordRefFn& on_word) {
  const std::string& rep = step.literal;
  AlignedText t;
  t.shift = w.shift;
  for (size_t i = 0; i < w.text.size(); ++i) {
    if (w.text[i] == ' ') {
      AppendAlignedBytes(rep, w.align[i], &t);
    } else {
      AppendAlignedBytes(w.text.substr(i, 1), w.align[i], &t);
    }
  }
  if (!t.text.empty() && t.text.compare(0, rep.size(), rep) != 0) {
    bool prepend =
        step.prepend_scheme == PreTokenizer::PrependScheme::kAlways ||
        (step.prepend_scheme == PreTokenizer::PrependScheme::kFirst &&
         t.shift == 0);
    if (prepend) Prepend(rep, &t);
  }
  const WordRef whole{t.text, t.align.data(), t.shift};
  if (t.text.empty()) return Status::Ok();
  if (!step.split) return on_word(whole);
  std::string_view s = t.text;
  size_t start = 0;
  for (size_t hit = s.find(rep, 1); hit != std::string_view::npos;
       hit = s.find(rep, hit + rep.size())) {
    EMBER_RETURN_IF_ERROR(on_word(Slice(whole, start, hit)));
    start = hit;
  }
  if (start < s.size()) {
    EMBER_RETURN_IF_ERROR(on_word(Slice(whole, start, s.size())));
  }
  return Status::Ok();
}

Status ForEachAlignedWord(const PreTokenizer& step, const WordRef& w,
                          const WordRefFn& on_word) {
  if (w.text.empty()) return Status::Ok();
  switch (step.kind) {
    case PreTokenizer::Kind::kByteLevel:
      return ByteLevelAligned(step, w, on_word);
    case PreTokenizer::Kind::kMetaspace:
      return MetaspaceAligned(step, w, on_word);
    default: break;
  }
  // The other pre-tokenizers only cut: their words are views of `w`.
  return step.ForEachWord(
      w.text, w.shift == 0, [&](std::string_view sub, bool) -> Status {
        if (sub.data() < w.text.data() ||
            sub.data() + sub.size() > w.text.data() + w.text.size()) {
          return InternalError("pre-tokenizer word outside its text");
        }
        size_t start = static_cast<size_t>(sub.data() - w.text.data());
        return on_word(Slice(w, start, start + sub.size()));
      });
}

// How many characters at the start (or end) of a token's string are
// spaces to the ByteLevel/Roberta trimming: U+0020, GPT-2's U+0120 for it,
// or White_Space.
uint16_t CountSpaces(std::string_view s, bool from_end) {
  size_t count = 0;
  if (!from_end) {
    for (size_t i = 0; i < s.size();) {
      size_t w = 0;
      uint32_t c = DecodeCodePoint(s, i, &w);
      if (c != 0x120 && !IsRustWhitespace(c)) break;
      ++count;
      i += w;
    }
  } else {
    size_t end = s.size();
    while (end > 0) {
      size_t lead = end - 1;
      while (lead > 0 && (static_cast<uint8_t>(s[lead]) & 0xC0) == 0x80) --lead;
      size_t w = 0;
      uint32_t c = DecodeCodePoint(s, lead, &w);
      if (c != 0x120 && !IsRustWhitespace(c)) break;
      ++count;
      end = lead;
    }
  }
  return static_cast<uint16_t>(std::min<size_t>(count, UINT16_MAX));
}

// The byte offsets of the tokens of `sequence` (in `text`) to character
// indices, as `tokenizers`' char offsets: a start inside a character is
// that character, an end inside one is just past it; an offset past the
// text is left as it is (as `tokenizers` leaves one it cannot convert).
void ToCharOffsets(std::string_view text, uint8_t sequence,
                   std::vector<OffsetToken>* tokens) {
  std::vector<size_t> char_of(text.size() + 1);
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<uint8_t>(text[i]) & 0xC0) != 0x80) ++chars;
    char_of[i] = chars - 1;
  }
  char_of[text.size()] = chars;
  auto is_boundary = [&](size_t b) {
    return b >= text.size() || (static_cast<uint8_t>(text[b]) & 0xC0) != 0x80;
  };
  for (OffsetToken& t : *tokens) {
    if (t.sequence != sequence) continue;
    if (t.begin > text.size() || t.end > text.size()) continue;
    size_t end = t.end == 0 || is_boundary(t.end) ? char_of[t.end]
                                                  : char_of[t.end - 1] + 1;
    t.begin = char_of[t.begin];
    t.end = end;
  }
}

}  // namespace

Status Pipeline::EncodeTextWithOffsets(std::string_view text,
                                       const EncodeOptions& options,
                                       std::vector<OffsetToken>* tokens) const {
  auto add = [&](int32_t id, size_t begin, size_t end, std::string_view value) {
    tokens->push_back(
        {id, begin, end, CountSpaces(value, false), CountSpaces(value, true)});
  };
  std::vector<int32_t> ids;
  std::vector<ByteSpan> spans;
  // The model on one word: each span becomes offsets as `tokenizers`'
  // convert_offsets does (an empty span is taken as is, shifted; one past
  // the word's end -- BPE's byte fallback with a prefix can count there --
  // is reported unshifted).
  const WordRefFn to_model = [&](const WordRef& w) -> Status {
    ids.clear();
    spans.clear();
    EMBER_RETURN_IF_ERROR(model->TokenizeWithSpans(w.text, &ids, &spans));
    if (spans.size() != ids.size()) {
      return InternalError("model gave a span count unlike its id count");
    }
    for (size_t i = 0; i < ids.size(); ++i) {
      const ByteSpan s = spans[i];
      size_t begin = s.begin, end = s.end;
      if (s.begin == s.end) {
        begin += w.shift;
        end += w.shift;
      } else if (s.begin < s.end && s.end <= w.text.size()) {
        begin = w.align[s.begin].begin;
        end = w.align[s.end - 1].end;
      }
      add(ids[i], begin, end, model->IdToToken(ids[i]).value_or(""));
    }
    return Status::Ok();
  };
  const size_t n = pre_tokenizers.size();
  std::vector<WordRefFn> next(n + 1);
  next[n] = to_model;
  for (size_t k = n; k-- > 0;) {
    next[k] = [this, &next, k](const WordRef& w) {
      return ForEachAlignedWord(pre_tokenizers[k], w, next[k + 1]);
    };
  }

  AlignedText normalized;
  return SplitAtAddedTokens(
      raw_trie, text, options,
      [&](std::string_view piece, size_t offset) -> Status {
        if (piece.empty()) return Status::Ok();
        normalized.text.assign(piece);
        normalized.align.resize(piece.size());
        for (size_t i = 0; i < piece.size();) {
          size_t w = Utf8Length(static_cast<uint8_t>(piece[i]));
          Alignment a{static_cast<uint32_t>(offset + i),
                      static_cast<uint32_t>(offset + i + w)};
          for (size_t k = 0; k < w; ++k) normalized.align[i + k] = a;
          i += w;
        }
        normalized.shift = static_cast<uint32_t>(offset);
        EMBER_RETURN_IF_ERROR(NormalizeAligned(*this, &normalized));
        const WordRef whole{normalized.text, normalized.align.data(),
                            normalized.shift};
        return SplitAtAddedTokens(
            normalized_trie, normalized.text, options,
            [&](std::string_view sub, size_t sub_offset) -> Status {
              if (sub.empty()) return Status::Ok();
              return next[0](Slice(whole, sub_offset, sub_offset + sub.size()));
            },
            [&](const AddedToken& token, size_t start, size_t stop) {
              add(token.id, normalized.align[start].begin,
                  normalized.align[stop - 1].end,
                  whole.text.substr(start, stop - start));
            });
      },
      [&](const AddedToken& token, size_t start, size_t stop) {
        add(token.id, start, stop, text.substr(start, stop - start));
      });
}

Status Tokenizer::EncodeWithOffsets(std::string_view text,
                                    const EncodeOptions& options,
                                    std::vector<int32_t>* ids,
                                    std::vector<TokenOffsets>* offsets) const {
  return EncodeWithOffsetsMaybePair(text, nullptr, options, ids, offsets);
}

Status Tokenizer::EncodePairWithOffsets(
    std::string_view text, std::string_view pair, const EncodeOptions& options,
    std::vector<int32_t>* ids, std::vector<TokenOffsets>* offsets) const {
  return EncodeWithOffsetsMaybePair(text, &pair, options, ids, offsets);
}

Status Tokenizer::EncodeWithOffsetsMaybePair(
    std::string_view text, const std::string_view* pair,
    const EncodeOptions& options, std::vector<int32_t>* ids,
    std::vector<TokenOffsets>* offsets) const {
  std::vector<OffsetToken> tokens;
  EMBER_RETURN_IF_ERROR(EncodeTokens(text, pair, options, &tokens));
  ids->clear();
  offsets->clear();
  ids->reserve(tokens.size());
  offsets->reserve(tokens.size());
  for (const OffsetToken& t : tokens) {
    ids->push_back(t.id);
    offsets->push_back({t.begin, t.end});
  }
  return Status::Ok();
}

Status Tokenizer::EncodeFull(std::string_view text,
                             const std::string_view* pair,
                             const EncodeOptions& options,
                             Encoding* encoding) const {
  std::vector<OffsetToken> tokens;
  EMBER_RETURN_IF_ERROR(EncodeTokens(text, pair, options, &tokens));
  *encoding = Encoding();
  for (const OffsetToken& t : tokens) {
    encoding->ids.push_back(t.id);
    encoding->type_ids.push_back(t.type_id);
    encoding->offsets.push_back({t.begin, t.end});
    encoding->special_tokens_mask.push_back(t.special ? 1 : 0);
    encoding->attention_mask.push_back(t.pad ? 0 : 1);
  }
  return Status::Ok();
}

Status Tokenizer::EncodeTokens(std::string_view text,
                               const std::string_view* pair,
                               const EncodeOptions& options,
                               std::vector<OffsetToken>* out) const {
  if (!IsValidUtf8(text) || (pair && !IsValidUtf8(*pair))) {
    return InvalidArgumentError("text to encode is not valid UTF-8");
  }
  if (text.size() >= UINT32_MAX || (pair && pair->size() >= UINT32_MAX)) {
    return InvalidArgumentError("text to encode with offsets is 4 GiB or more");
  }
  const Pipeline& p = *pipeline_;
  std::vector<OffsetToken>& tokens = *out;
  std::vector<OffsetToken> second;
  tokens.clear();
  EMBER_RETURN_IF_ERROR(p.EncodeTextWithOffsets(text, options, &tokens));
  if (pair) {
    // The second sequence's tokens: offsets in the pair's text, type id 1
    // until a post-processor says otherwise (`tokenizers`' process()).
    EMBER_RETURN_IF_ERROR(p.EncodeTextWithOffsets(*pair, options, &second));
    for (OffsetToken& t : second) {
      t.sequence = 1;
      t.type_id = 1;
    }
  }
  // ByteLevel/Roberta trimming, as `tokenizers`' Python binding sees it:
  // offsets in characters there, so the spaces counted are characters of
  // the token's text here.
  auto trim = [&](std::vector<OffsetToken>* e, bool add_prefix_space) {
    for (size_t i = 0; i < e->size(); ++i) {
      OffsetToken& t = (*e)[i];
      const std::string_view text_of = t.sequence == 1 ? *pair : text;
      size_t lead = t.lead, trail = t.trail;
      if (lead == 0 && trail == 0) continue;
      if (lead > 0) {
        bool is_first = i == 0 || t.begin == 0;
        if (is_first && add_prefix_space && lead == 1) lead = 0;
        size_t b = t.begin;
        for (size_t k = 0; k < lead && b < t.end; ++k) {
          b += b < text_of.size() ? Utf8Length(static_cast<uint8_t>(text_of[b]))
                                  : 1;
        }
        t.begin = std::min(b, t.end);
      }
      if (trail > 0) {
        // Only when at least `trail` characters come before the end.
        size_t e_pos = std::min(t.end, text_of.size()), k = 0;
        size_t back = t.end;
        while (k < trail && e_pos > 0) {
          --e_pos;
          while (e_pos > 0 &&
                 (static_cast<uint8_t>(text_of[e_pos]) & 0xC0) == 0x80) {
            --e_pos;
          }
          ++k;
          back = e_pos;
        }
        if (k == trail) t.end = std::max(back, t.begin);
      }
    }
  };
  OffsetToken pad;
  pad.id = p.padding.id;
  pad.type_id = p.padding.type_id;
  pad.special = true;
  pad.pad = true;
  EMBER_RETURN_IF_ERROR(p.Finish(
      options.add_special_tokens, pad, &tokens, pair ? &second : nullptr,
      [&](std::vector<OffsetToken>* items, std::vector<OffsetToken>* b) {
        return p.PostProcessWithOffsets(options.add_special_tokens, items, b,
                                        trim);
      }));
  if (options.char_offsets) {
    ToCharOffsets(text, 0, &tokens);
    if (pair) ToCharOffsets(*pair, 1, &tokens);
  }
  return Status::Ok();
}

}  // namespace ember::tokenizer
