// The pre-tokenizers: each cuts a normalized piece into the words the
// model sees (docs/tokenizer.md "Pre-tokenizers").
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <array>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

namespace {

using WordFn = PreTokenizer::WordFn;
using Behavior = PreTokenizer::Behavior;

// The ByteLevel words of `piece` with their byte offsets in `piece` (the
// prefix space, when added, is at offset 0 and stands for the first
// character, as `tokenizers`' prepend aligns it).
Status ByteLevelRanges(
    const PreTokenizer& step, std::string_view piece,
    const std::function<Status(std::string_view, size_t)>& on_word) {
  std::string prefixed;
  if (step.add_prefix_space && !piece.empty() && piece[0] != ' ') {
    prefixed.reserve(piece.size() + 1);
    prefixed.push_back(' ');
    prefixed.append(piece);
    piece = prefixed;
  }
  // GPT-2's character of each byte is one or two UTF-8 bytes: copied from
  // a flat table (this runs on every byte of the text).
  struct Mapped {
    char bytes[2];
    uint8_t size;
  };
  static const std::array<Mapped, 256> kMapped = [] {
    std::array<Mapped, 256> t{};
    for (int b = 0; b < 256; ++b) {
      const std::string& c = ByteLevelChar(static_cast<uint8_t>(b));
      t[b].size = static_cast<uint8_t>(c.size());
      for (size_t k = 0; k < c.size() && k < 2; ++k) t[b].bytes[k] = c[k];
    }
    return t;
  }();
  std::string mapped;
  Status status;
  auto word = [&](size_t start, size_t end) {
    if (!status.ok() || start >= end) return;
    mapped.resize(2 * (end - start));
    char* out = mapped.data();
    for (size_t i = start; i < end; ++i) {
      const Mapped& m = kMapped[static_cast<uint8_t>(piece[i])];
      out[0] = m.bytes[0];
      out[1] = m.bytes[1];
      out += m.size;
    }
    mapped.resize(static_cast<size_t>(out - mapped.data()));
    status = on_word(std::string_view(mapped), start);
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

// `tokenizers`' NormalizedString::split, streamed: the parts of a word
// that Pattern::find_matches reports (in order, covering the word, each
// flagged as a match or not) come in one at a time and leave merged or
// removed by the behaviour, without the lists `tokenizers` builds. The
// behaviours, in `tokenizers`' terms: Isolated keeps every part; Removed
// drops the matches; Contiguous joins a part to the one before when both
// have the same flag; MergedWithPrevious joins a match to the part before
// it unless that was a match too; MergedWithNext (a right-to-left fold
// there) joins a match to the part after it when that one is not a match.
class BehaviorSplitter {
 public:
  BehaviorSplitter(std::string_view word, bool at_start, Behavior behavior,
                   bool invert, const WordFn& on_word)
      : word_(word),
        at_start_(at_start),
        behavior_(behavior),
        invert_(invert),
        on_word_(on_word) {}

  Status Add(size_t start, size_t end, bool is_match) {
    is_match = is_match != invert_;
    Status status;
    switch (behavior_) {
      case Behavior::kIsolated: status = Emit(start, end); break;
      case Behavior::kRemoved:
        if (!is_match) status = Emit(start, end);
        break;
      case Behavior::kContiguous:
      case Behavior::kMergedWithPrevious: {
        bool join = behavior_ == Behavior::kContiguous
                        ? is_match == previous_match_
                        : is_match && !previous_match_;
        if (join && has_pending_) {
          pending_end_ = end;
        } else {
          status = Flush();
          Hold(start, end);
        }
        break;
      }
      case Behavior::kMergedWithNext:
        if (has_pending_ && previous_match_ && !is_match) {
          has_pending_ = false;
          status = Emit(pending_start_, end);
        } else {
          status = Flush();
          if (is_match) {
            Hold(start, end);
          } else if (status.ok()) {
            status = Emit(start, end);
          }
        }
        break;
    }
    previous_match_ = is_match;
    return status;
  }

  Status Finish() { return Flush(); }

 private:
  void Hold(size_t start, size_t end) {
    has_pending_ = true;
    pending_start_ = start;
    pending_end_ = end;
  }
  Status Flush() {
    if (!has_pending_) return Status::Ok();
    has_pending_ = false;
    return Emit(pending_start_, pending_end_);
  }
  Status Emit(size_t start, size_t end) {
    if (end <= start) return Status::Ok();
    return on_word_(word_.substr(start, end - start), at_start_ && start == 0);
  }

  std::string_view word_;
  bool at_start_;
  Behavior behavior_;
  bool invert_;
  const WordFn& on_word_;
  bool previous_match_ = false;
  bool has_pending_ = false;
  size_t pending_start_ = 0, pending_end_ = 0;
};

// find_matches of a character predicate: each matching character is a
// match of its own, the runs between them are not.
template <typename Predicate>
Status SplitByPredicate(std::string_view word, bool at_start,
                        Predicate is_match, Behavior behavior,
                        const WordFn& on_word) {
  BehaviorSplitter splitter(word, at_start, behavior, false, on_word);
  size_t last = 0, length = 0;
  for (size_t i = 0; i < word.size(); i += length) {
    uint32_t c = DecodeCodePoint(word, i, &length);
    if (is_match(c)) {
      if (last < i) EMBER_RETURN_IF_ERROR(splitter.Add(last, i, false));
      EMBER_RETURN_IF_ERROR(splitter.Add(i, i + length, true));
      last = i + length;
    }
  }
  if (last < word.size()) {
    EMBER_RETURN_IF_ERROR(splitter.Add(last, word.size(), false));
  }
  return splitter.Finish();
}

// Removed by a predicate, the common case (WhitespaceSplit,
// CharDelimiterSplit, Bert's first step): the runs between matches, with
// no list built.
template <typename Predicate>
Status RunsBetween(std::string_view word, bool at_start, Predicate is_cut,
                   const WordFn& on_word) {
  size_t start = 0, length = 0;
  for (size_t i = 0; i < word.size(); i += length) {
    uint32_t c = DecodeCodePoint(word, i, &length);
    if (is_cut(c)) {
      if (start < i) {
        EMBER_RETURN_IF_ERROR(
            on_word(word.substr(start, i - start), at_start && start == 0));
      }
      start = i + length;
    }
  }
  if (start < word.size()) {
    EMBER_RETURN_IF_ERROR(on_word(word.substr(start), at_start && start == 0));
  }
  return Status::Ok();
}

bool IsWhiteSpace(uint32_t c) { return InCharClass(CharClass::kWhiteSpace, c); }
bool IsPunctuation(uint32_t c) {
  return InCharClass(CharClass::kPunctuation, c);
}
bool IsNumeric(uint32_t c) { return InCharClass(CharClass::kNumeric, c); }

// Whitespace: `tokenizers` keeps the matches of `\w+|[^\w\s]+` (the `regex`
// crate's classes) and drops the rest: so runs of word characters and
// runs of characters that are neither word nor space, split where the
// kind changes; spaces are dropped.
Status WhitespaceWords(std::string_view word, bool at_start,
                       const WordFn& on_word) {
  enum { kNone, kWord, kOther } run = kNone;
  size_t start = 0, length = 0;
  auto flush = [&](size_t end) -> Status {
    if (run != kNone && start < end) {
      return on_word(word.substr(start, end - start), at_start && start == 0);
    }
    return Status::Ok();
  };
  for (size_t i = 0; i < word.size(); i += length) {
    uint32_t c = DecodeCodePoint(word, i, &length);
    auto kind = InCharClass(CharClass::kRegexWord, c) ? kWord
                : IsWhiteSpace(c)                     ? kNone
                                                      : kOther;
    if (kind != run) {
      EMBER_RETURN_IF_ERROR(flush(i));
      run = kind;
      start = i;
    }
  }
  return flush(word.size());
}

// BertPreTokenizer: White_Space removed, then each punctuation character
// a word of its own.
Status BertWords(std::string_view word, bool at_start, const WordFn& on_word) {
  size_t start = 0, length = 0;
  for (size_t i = 0; i < word.size(); i += length) {
    uint32_t c = DecodeCodePoint(word, i, &length);
    bool space = IsWhiteSpace(c);
    if (space || IsPunctuation(c)) {
      if (start < i) {
        EMBER_RETURN_IF_ERROR(
            on_word(word.substr(start, i - start), at_start && start == 0));
      }
      if (!space) {
        EMBER_RETURN_IF_ERROR(
            on_word(word.substr(i, length), at_start && i == 0));
      }
      start = i + length;
    }
  }
  if (start < word.size()) {
    EMBER_RETURN_IF_ERROR(on_word(word.substr(start), at_start && start == 0));
  }
  return Status::Ok();
}

// Metaspace: each U+0020 becomes the replacement, which is prepended by
// the scheme (unless the word already starts with it); with `split`, a
// word starts at each replacement character (`tokenizers`' split on it
// with MergedWithNext).
Status MetaspaceWords(const PreTokenizer& step, std::string_view word,
                      bool at_start, const WordFn& on_word) {
  const std::string& rep = step.literal;
  std::string text;  // short words stay in the string's own buffer
  if (word.size() > 12) text.reserve(word.size() + rep.size() * 4);
  for (char c : word) {
    if (c == ' ') {
      text += rep;
    } else {
      text.push_back(c);
    }
  }
  bool prepend = false;
  if (!text.empty() && text.compare(0, rep.size(), rep) != 0) {
    prepend = step.prepend_scheme == PreTokenizer::PrependScheme::kAlways ||
              (step.prepend_scheme == PreTokenizer::PrependScheme::kFirst &&
               at_start);
  }
  if (prepend) text.insert(0, rep);
  std::string_view t = text;
  if (!step.split) return t.empty() ? Status::Ok() : on_word(t, at_start);
  // The replacement is one whole character of valid UTF-8, so a byte
  // match is always a character match.
  size_t start = 0;
  for (size_t hit = t.find(rep, 1); hit != std::string_view::npos;
       hit = t.find(rep, hit + rep.size())) {
    EMBER_RETURN_IF_ERROR(
        on_word(t.substr(start, hit - start), at_start && start == 0));
    start = hit;
  }
  if (start < t.size()) {
    EMBER_RETURN_IF_ERROR(on_word(t.substr(start), at_start && start == 0));
  }
  return Status::Ok();
}

// UnicodeScripts: a word starts at each character whose script differs
// from the last script seen, not counting "Any" (U+0020, unassigned
// code points), which neither starts a word nor changes the last script.
// As in `tokenizers`, "Any" characters before the first other one belong
// to no word: they are dropped.
Status UnicodeScriptsWords(std::string_view word, bool at_start,
                           const WordFn& on_word) {
  constexpr uint16_t kAny = 0;
  constexpr size_t kNone = ~size_t{0};
  uint16_t last = kAny;  // none yet
  size_t start = kNone, length = 0;
  for (size_t i = 0; i < word.size(); i += length) {
    uint16_t script = UnicodeScriptOf(DecodeCodePoint(word, i, &length));
    if (script == kAny) continue;
    if (script != last) {
      if (start != kNone) {
        EMBER_RETURN_IF_ERROR(
            on_word(word.substr(start, i - start), at_start && start == 0));
      }
      start = i;
    }
    last = script;
  }
  if (start != kNone) {
    EMBER_RETURN_IF_ERROR(on_word(word.substr(start), at_start && start == 0));
  }
  return Status::Ok();
}

}  // namespace

Status ByteLevelWords(const PreTokenizer& step, std::string_view piece,
                      const std::function<Status(std::string_view)>& on_word) {
  return ByteLevelRanges(
      step, piece, [&](std::string_view w, size_t) { return on_word(w); });
}

Status PreTokenizer::ForEachWord(std::string_view word, bool at_start,
                                 const WordFn& on_word) const {
  if (word.empty()) return Status::Ok();
  switch (kind) {
    case Kind::kByteLevel:
      return ByteLevelRanges(*this, word, [&](std::string_view w, size_t s) {
        return on_word(w, at_start && s == 0);
      });
    case Kind::kWhitespace: return WhitespaceWords(word, at_start, on_word);
    case Kind::kWhitespaceSplit:
      return RunsBetween(word, at_start, IsWhiteSpace, on_word);
    case Kind::kCharDelimiter:
      return RunsBetween(
          word, at_start, [&](uint32_t c) { return c == delimiter; }, on_word);
    case Kind::kBert: return BertWords(word, at_start, on_word);
    case Kind::kMetaspace:
      return MetaspaceWords(*this, word, at_start, on_word);
    case Kind::kDigits:
      return SplitByPredicate(
          word, at_start, IsNumeric,
          individual_digits ? Behavior::kIsolated : Behavior::kContiguous,
          on_word);
    case Kind::kPunctuation:
      return SplitByPredicate(word, at_start, IsPunctuation, behavior, on_word);
    case Kind::kFixedLength: {
      size_t start = 0, chars = 0, w = 0;
      for (size_t i = 0; i < word.size(); i += w) {
        w = Utf8Length(static_cast<uint8_t>(word[i]));
        if (++chars == length) {
          EMBER_RETURN_IF_ERROR(on_word(word.substr(start, i + w - start),
                                        at_start && start == 0));
          start = i + w;
          chars = 0;
        }
      }
      if (start < word.size()) {
        EMBER_RETURN_IF_ERROR(
            on_word(word.substr(start), at_start && start == 0));
      }
      return Status::Ok();
    }
    case Kind::kUnicodeScripts:
      return UnicodeScriptsWords(word, at_start, on_word);
    case Kind::kSplit: break;
  }
  // Split: every match of the pattern and every gap, flagged.
  BehaviorSplitter splitter(word, at_start, behavior, invert, on_word);
  Status status;
  size_t prev = 0;
  auto on_match = [&](size_t start, size_t end) {
    if (!status.ok()) return;
    if (prev != start) status = splitter.Add(prev, start, false);
    if (status.ok()) status = splitter.Add(start, end, true);
    prev = end;
  };
  if (regex) {
    EMBER_RETURN_IF_ERROR(regex->ForEachMatch(word, on_match));
  } else if (!literal.empty()) {
    for (size_t hit = word.find(literal); hit != std::string_view::npos;
         hit = word.find(literal, hit + literal.size())) {
      on_match(hit, hit + literal.size());
    }
  } else {
    // An empty String pattern: `tokenizers` escapes it into the empty
    // regex, which matches (empty) at every character boundary, so each
    // character ends up a word of its own.
    for (size_t i = 0; i < word.size();
         i += Utf8Length(static_cast<uint8_t>(word[i]))) {
      on_match(i, i);
    }
    on_match(word.size(), word.size());
  }
  EMBER_RETURN_IF_ERROR(status);
  if (prev != word.size()) {
    EMBER_RETURN_IF_ERROR(splitter.Add(prev, word.size(), false));
  }
  return splitter.Finish();
}

Status Pipeline::EncodeNormalizedPiece(std::string_view piece, bool at_start,
                                       std::vector<int32_t>* ids) const {
  // `tokenizers` drops empty splits before the model runs: an empty piece
  // gives no ids, whatever the model.
  if (piece.empty()) return Status::Ok();
  if (pre_tokenizers.empty()) return model->Tokenize(piece, ids);
  // Each pre-tokenizer's words go straight into the next one (then into the
  // model): the same words, in the same order, as `tokenizers` running each
  // over the list the one before made, without the lists. A word's view
  // stays valid while the steps after it run.
  const size_t n = pre_tokenizers.size();
  const PreTokenizer::WordFn to_model = [&](std::string_view w, bool) {
    return model->Tokenize(w, ids);
  };
  if (n == 1) return pre_tokenizers[0].ForEachWord(piece, at_start, to_model);
  std::vector<PreTokenizer::WordFn> next(n);
  next[n - 1] = to_model;
  for (size_t k = n - 1; k-- > 0;) {
    next[k] = [this, &next, k](std::string_view w, bool s) {
      return pre_tokenizers[k + 1].ForEachWord(w, s, next[k + 1]);
    };
  }
  return pre_tokenizers[0].ForEachWord(piece, at_start, next[0]);
}

namespace {

// The ByteLevel pre-tokenizer's regex (GPT-2's), as `tokenizers` writes it
// for Oniguruma; CompileOniguruma gives \s and \p{..} Oniguruma's members.
constexpr std::string_view kByteLevelPattern =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+"
    "|\\s+(?!\\S)|\\s+";

Result<PreTokenizer::Behavior> ParseBehavior(std::string_view name) {
  using B = PreTokenizer::Behavior;
  if (name == "Removed") return B::kRemoved;
  if (name == "Isolated") return B::kIsolated;
  if (name == "MergedWithPrevious") return B::kMergedWithPrevious;
  if (name == "MergedWithNext") return B::kMergedWithNext;
  if (name == "Contiguous") return B::kContiguous;
  return InvalidArgumentError(StringPrintf(
      "pre_tokenizer: unknown behavior \"%.*s\"",
      static_cast<int>(std::min<size_t>(name.size(), 64)), name.data()));
}

}  // namespace

Status LoadPreTokenizer(const element& e, size_t depth, Pipeline* p) {
  if (e.is_null()) return Status::Ok();
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return InvalidArgumentError("pre_tokenizer is not an object");
  }
  EMBER_ASSIGN_OR_RETURN(std::string_view type, TypeOf(o, "pre_tokenizer"));
  PreTokenizer step;
  if (type == "Sequence") {
    element list;
    array a;
    if (!Field(o, "pretokenizers", &list) ||
        list.get_array().get(a) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          "pre_tokenizer Sequence: \"pretokenizers\" is not an array");
    }
    if (depth > 8) {
      return InvalidArgumentError("pre_tokenizer Sequences nest too deep");
    }
    for (element child : a) {
      EMBER_RETURN_IF_ERROR(LoadPreTokenizer(child, depth + 1, p));
    }
    return Status::Ok();
  } else if (type == "ByteLevel") {
    step.kind = PreTokenizer::Kind::kByteLevel;
    EMBER_ASSIGN_OR_RETURN(
        step.add_prefix_space,
        GetBool(o, "add_prefix_space", "pre_tokenizer ByteLevel", true));
    EMBER_ASSIGN_OR_RETURN(
        step.use_regex,
        GetBool(o, "use_regex", "pre_tokenizer ByteLevel", true));
    // Changes only the offsets of the words, which ids do not show.
    EMBER_ASSIGN_OR_RETURN(
        step.trim_offsets,
        GetBool(o, "trim_offsets", "pre_tokenizer ByteLevel", true));
    if (step.use_regex) {
      EMBER_ASSIGN_OR_RETURN(step.regex,
                             Regex::CompileOniguruma(kByteLevelPattern));
    }
  } else if (type == "Split") {
    step.kind = PreTokenizer::Kind::kSplit;
    std::string literal;
    EMBER_RETURN_IF_ERROR(
        LoadPattern(o, "pre_tokenizer Split", &literal, &step.regex));
    step.literal = std::move(literal);
    EMBER_ASSIGN_OR_RETURN(std::string_view behavior,
                           GetString(o, "behavior", "pre_tokenizer Split"));
    EMBER_ASSIGN_OR_RETURN(step.behavior, ParseBehavior(behavior));
    EMBER_ASSIGN_OR_RETURN(step.invert,
                           GetBool(o, "invert", "pre_tokenizer Split", false));
  } else if (type == "Whitespace") {
    step.kind = PreTokenizer::Kind::kWhitespace;
  } else if (type == "WhitespaceSplit") {
    step.kind = PreTokenizer::Kind::kWhitespaceSplit;
  } else if (type == "BertPreTokenizer") {
    step.kind = PreTokenizer::Kind::kBert;
  } else if (type == "Metaspace") {
    step.kind = PreTokenizer::Kind::kMetaspace;
    constexpr std::string_view kWhere = "pre_tokenizer Metaspace";
    EMBER_ASSIGN_OR_RETURN(std::string_view replacement,
                           GetString(o, "replacement", kWhere));
    EMBER_RETURN_IF_ERROR(
        CheckOneChar(replacement, "pre_tokenizer Metaspace: replacement"));
    step.literal = std::string(replacement);
    size_t width = 0;
    step.delimiter = DecodeCodePoint(replacement, 0, &width);
    EMBER_ASSIGN_OR_RETURN(
        std::string_view scheme,
        GetOptionalString(o, "prepend_scheme", kWhere, "always"));
    if (scheme == "always") {
      step.prepend_scheme = PreTokenizer::PrependScheme::kAlways;
    } else if (scheme == "first") {
      step.prepend_scheme = PreTokenizer::PrependScheme::kFirst;
    } else if (scheme == "never") {
      step.prepend_scheme = PreTokenizer::PrependScheme::kNever;
    } else {
      return InvalidArgumentError(StringPrintf(
          "pre_tokenizer Metaspace: unknown prepend_scheme \"%.*s\"",
          static_cast<int>(std::min<size_t>(scheme.size(), 64)),
          scheme.data()));
    }
    // The legacy field: `tokenizers` accepts add_prefix_space false only
    // with prepend_scheme "never" (the default is "always"); true changes
    // nothing.
    EMBER_ASSIGN_OR_RETURN(bool add_prefix_space,
                           GetBool(o, "add_prefix_space", kWhere, true));
    if (!add_prefix_space &&
        step.prepend_scheme != PreTokenizer::PrependScheme::kNever) {
      return InvalidArgumentError(
          "pre_tokenizer Metaspace: add_prefix_space false does not match "
          "prepend_scheme");
    }
    EMBER_ASSIGN_OR_RETURN(step.split, GetBool(o, "split", kWhere, true));
  } else if (type == "Digits") {
    step.kind = PreTokenizer::Kind::kDigits;
    element flag;
    if (!Field(o, "individual_digits", &flag) || !flag.is_bool()) {
      return InvalidArgumentError(
          "pre_tokenizer Digits: field \"individual_digits\" is missing or "
          "not a boolean");
    }
    EMBER_ASSIGN_OR_RETURN(
        step.individual_digits,
        GetBool(o, "individual_digits", "pre_tokenizer Digits", false));
  } else if (type == "Punctuation") {
    step.kind = PreTokenizer::Kind::kPunctuation;
    EMBER_ASSIGN_OR_RETURN(
        std::string_view behavior,
        GetOptionalString(o, "behavior", "pre_tokenizer Punctuation",
                          "Isolated"));
    EMBER_ASSIGN_OR_RETURN(step.behavior, ParseBehavior(behavior));
  } else if (type == "CharDelimiterSplit") {
    step.kind = PreTokenizer::Kind::kCharDelimiter;
    EMBER_ASSIGN_OR_RETURN(
        std::string_view delimiter,
        GetString(o, "delimiter", "pre_tokenizer CharDelimiterSplit"));
    EMBER_RETURN_IF_ERROR(
        CheckOneChar(delimiter, "pre_tokenizer CharDelimiterSplit: delimiter"));
    size_t width = 0;
    step.delimiter = DecodeCodePoint(delimiter, 0, &width);
  } else if (type == "UnicodeScripts") {
    step.kind = PreTokenizer::Kind::kUnicodeScripts;
  } else if (type == "FixedLength") {
    step.kind = PreTokenizer::Kind::kFixedLength;
    // `tokenizers` loads a length of 0 and then panics at encode (a chunk
    // size of 0): refused here instead.
    element given;
    if (Field(o, "length", &given)) {
      EMBER_ASSIGN_OR_RETURN(
          uint64_t length,
          GetUint(o, "length", "pre_tokenizer FixedLength", 1u << 30));
      if (length == 0) {
        return InvalidArgumentError(
            "pre_tokenizer FixedLength: length must be at least 1");
      }
      step.length = static_cast<size_t>(length);
    }
  } else {
    return Unimplemented("pre_tokenizer", type);
  }
  if (p->pre_tokenizers.size() >= 64) {
    return InvalidArgumentError("more than 64 pre-tokenizers");
  }
  p->pre_tokenizers.push_back(std::move(step));
  // ByteLevel and Metaspace make the text longer, and a Sequence of them
  // compounds it (each ByteLevel can double the bytes, a Metaspace make a
  // one-byte word five bytes): the product of their worst cases is bounded
  // so that the words of a piece stay within 16 times its size.
  size_t growth = 1;
  for (const PreTokenizer& s : p->pre_tokenizers) {
    if (s.kind == PreTokenizer::Kind::kByteLevel) {
      growth *= s.add_prefix_space ? 3 : 2;
    } else if (s.kind == PreTokenizer::Kind::kMetaspace) {
      growth *=
          s.literal.size() +
          (s.prepend_scheme == PreTokenizer::PrependScheme::kNever ? 0 : 1);
    }
    if (growth > 16) {
      return InvalidArgumentError(
          "pre_tokenizer: the ByteLevel and Metaspace steps of this Sequence "
          "could make the text more than 16 times longer");
    }
  }
  return Status::Ok();
}

}  // namespace ember::tokenizer
