// The Precompiled normalizer: SentencePiece's `precompiled_charsmap`, run
// the way `tokenizers` runs it (its Precompiled normalizer over the
// spm_precompiled crate), not the way SentencePiece itself does
// (docs/tokenizer.md "Precompiled").
//
// The blob: a little-endian u32 `trie_size` (bytes), trie_size / 4
// little-endian u32 units of a darts-clone double array, then the
// replacement strings, each ending in NUL (the bytes trie_size % 4 left over
// belong to the strings, as `tokenizers` reads them). A unit holds a label
// (bits 0-7, and bit 31 on a leaf so that it never matches a byte), a
// has-leaf flag (bit 8) and an offset (bits 10-31, shifted left by 8 when
// bit 9 is set). A lookup starts at unit 0, moves to `pos ^ offset`, then
// for each byte `c` to `pos ^ c`, whose label must be `c`; a node with the
// leaf flag has its value (a string offset, bits 0-30) in the unit at
// `pos ^ offset`.
//
// The blob comes from a file, so every unit index and string offset is
// checked when it is used: a bad one is INVALID_ARGUMENT (`tokenizers`
// panics). A lookup reads at most one unit per byte of a grapheme.
#include <utf8proc.h>

#include <cstring>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {
namespace {

// Decodes RFC 4648 base64 with the standard alphabet, padding required and
// the unused bits of the last character zero (Rust's base64::STANDARD, what
// `tokenizers` decodes the field with).
Result<std::string> DecodeBase64(std::string_view in) {
  auto value = [](char ch) -> int {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
  };
  if (in.size() % 4 != 0) {
    return InvalidArgumentError(
        "normalizer Precompiled: precompiled_charsmap is not base64 (its "
        "length is not a multiple of 4)");
  }
  std::string out;
  out.reserve(in.size() / 4 * 3);
  for (size_t i = 0; i < in.size(); i += 4) {
    bool last = i + 4 == in.size();
    int pad = 0;
    if (last && in[i + 3] == '=') pad = in[i + 2] == '=' ? 2 : 1;
    uint32_t bits = 0;
    for (int k = 0; k < 4 - pad; ++k) {
      int v = value(in[i + k]);
      if (v < 0) {
        return InvalidArgumentError(StringPrintf(
            "normalizer Precompiled: precompiled_charsmap is not base64 (byte "
            "%zu)",
            i + k));
      }
      bits |= static_cast<uint32_t>(v) << (18 - 6 * k);
    }
    if ((pad == 1 && (bits & 0xFF) != 0) ||
        (pad == 2 && (bits & 0xFFFF) != 0)) {
      return InvalidArgumentError(
          "normalizer Precompiled: precompiled_charsmap has non-zero "
          "trailing bits");
    }
    out.push_back(static_cast<char>(bits >> 16));
    if (pad < 2) out.push_back(static_cast<char>((bits >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(bits & 0xFF));
  }
  return out;
}

uint32_t LoadLe32(const char* p) {
  uint8_t b[4];
  std::memcpy(b, p, 4);
  return static_cast<uint32_t>(b[0]) | static_cast<uint32_t>(b[1]) << 8 |
         static_cast<uint32_t>(b[2]) << 16 | static_cast<uint32_t>(b[3]) << 24;
}

uint64_t UnitOffset(uint64_t unit) {
  return (unit >> 10) << ((unit & (1u << 9)) >> 6);
}
bool UnitHasLeaf(uint64_t unit) { return (unit >> 8) & 1; }
uint64_t UnitLabel(uint64_t unit) { return unit & ((1u << 31) | 0xFF); }
uint64_t UnitValue(uint64_t unit) { return unit & ((1u << 31) - 1); }

// Where the grapheme cluster starting at `pos` (< in.size()) ends, by
// Unicode's extended grapheme cluster rules as unicode-segmentation applies
// them (utf8proc's rules on `tokenizers`' classes, plus GB9c).
class GraphemeCursor {
 public:
  explicit GraphemeCursor(std::string_view in) : in_(in) {}
  size_t NextEnd(size_t pos) {
    size_t w = 0;
    uint32_t prev = DecodeCodePoint(in_, pos, &w);
    if (pos == 0) Conjunct(prev);
    size_t i = pos + w;
    while (i < in_.size()) {
      uint32_t c = DecodeCodePoint(in_, i, &w);
      if (Breaks(prev, c)) break;
      prev = c;
      i += w;
    }
    return i;
  }

 private:
  // utf8proc's state machine sees every adjacent pair once, in order (the
  // pair that ended a cluster included), as its regional-indicator and
  // emoji-sequence rules require.
  bool Breaks(uint32_t prev, uint32_t c) {
    bool brk = utf8proc_grapheme_break_stateful(
        static_cast<int32_t>(GraphemeClassRepresentative(prev)),
        static_cast<int32_t>(GraphemeClassRepresentative(c)), &state_);
    // GB9c: Consonant [Extend Linker]* Linker [Extend Linker]* x Consonant.
    bool conjunct = conjunct_ == 2;
    if (Conjunct(c) == IndicConjunctBreak::kConsonant && conjunct) brk = false;
    return brk;
  }
  // Advances the GB9c state over `c`: 1 after a consonant, 2 once a linker
  // followed it, kept over Extend.
  IndicConjunctBreak Conjunct(uint32_t c) {
    IndicConjunctBreak incb = IndicConjunctBreakOf(c);
    if (incb == IndicConjunctBreak::kConsonant) {
      conjunct_ = 1;
    } else if (conjunct_ != 0 && incb == IndicConjunctBreak::kLinker) {
      conjunct_ = 2;
    } else if (incb != IndicConjunctBreak::kExtend) {
      conjunct_ = 0;
    }
    return incb;
  }
  std::string_view in_;
  int32_t state_ = 0;
  int conjunct_ = 0;
};

}  // namespace

Result<std::shared_ptr<const PrecompiledCharsmap>>
PrecompiledCharsmap::FromBase64(std::string_view base64) {
  EMBER_ASSIGN_OR_RETURN(std::string blob, DecodeBase64(base64));
  return FromBytes(blob);
}

Result<std::shared_ptr<const PrecompiledCharsmap>>
PrecompiledCharsmap::FromBytes(std::string_view blob) {
  if (blob.size() < 4) {
    return InvalidArgumentError(
        "normalizer Precompiled: precompiled_charsmap is shorter than its "
        "4-byte header");
  }
  uint64_t trie_units = LoadLe32(blob.data()) / 4;
  if (trie_units > (blob.size() - 4) / 4) {
    return InvalidArgumentError(StringPrintf(
        "normalizer Precompiled: the trie (%llu units) is larger than the "
        "%zu-byte precompiled_charsmap",
        static_cast<unsigned long long>(trie_units), blob.size()));
  }
  if (trie_units == 0) {
    return InvalidArgumentError(
        "normalizer Precompiled: the precompiled_charsmap trie is empty");
  }
  std::shared_ptr<PrecompiledCharsmap> map(new PrecompiledCharsmap());
  map->units_.resize(trie_units);
  for (size_t i = 0; i < trie_units; ++i)
    map->units_[i] = LoadLe32(blob.data() + 4 + 4 * i);
  map->normalized_.assign(blob.substr(4 + 4 * trie_units));
  if (utf8proc_decompose(
          reinterpret_cast<const utf8proc_uint8_t*>(map->normalized_.data()),
          static_cast<utf8proc_ssize_t>(map->normalized_.size()), nullptr, 0,
          static_cast<utf8proc_option_t>(0)) < 0) {
    return InvalidArgumentError(
        "normalizer Precompiled: the replacement strings of "
        "precompiled_charsmap are not valid UTF-8");
  }
  return std::shared_ptr<const PrecompiledCharsmap>(std::move(map));
}

Result<std::optional<std::string_view>> PrecompiledCharsmap::Transform(
    std::string_view chunk) const {
  auto bad = [](uint64_t at) {
    return InvalidArgumentError(StringPrintf(
        "normalizer Precompiled: the precompiled_charsmap trie points outside "
        "itself (unit %llu)",
        static_cast<unsigned long long>(at)));
  };
  uint64_t pos = UnitOffset(units_[0]);
  for (char ch : chunk) {
    uint64_t c = static_cast<uint8_t>(ch);
    if (c == 0) break;
    pos ^= c;
    if (pos >= units_.size()) return bad(pos);
    uint64_t unit = units_[pos];
    if (UnitLabel(unit) != c) return std::optional<std::string_view>();
    pos ^= UnitOffset(unit);
    if (UnitHasLeaf(unit)) {
      if (pos >= units_.size()) return bad(pos);
      uint64_t index = UnitValue(units_[pos]);
      if (index > normalized_.size() ||
          (index < normalized_.size() &&
           (static_cast<uint8_t>(normalized_[index]) & 0xC0) == 0x80)) {
        return InvalidArgumentError(StringPrintf(
            "normalizer Precompiled: a precompiled_charsmap value (%llu) is "
            "not the start of a character of its %zu-byte strings",
            static_cast<unsigned long long>(index), normalized_.size()));
      }
      std::string_view tail = std::string_view(normalized_).substr(index);
      size_t end = tail.find('\0');
      return std::optional<std::string_view>(tail.substr(0, end));
    }
  }
  return std::optional<std::string_view>();
}

Status PrecompiledCharsmap::Normalize(std::string_view in,
                                      std::string* out) const {
  out->clear();
  // A replacement may be as long as the blob: bound the growth. Real
  // charsmaps (NFKC) grow a text at most 11x (U+FDFA, 3 bytes -> 33).
  const size_t limit = 16 * in.size() + (size_t{1} << 20);
  GraphemeCursor cursor(in);
  for (size_t pos = 0; pos < in.size();) {
    if (out->size() > limit) {
      return ResourceExhaustedError(StringPrintf(
          "normalizer Precompiled: a %zu-byte text grows past %zu bytes",
          in.size(), limit));
    }
    size_t end = cursor.NextEnd(pos);
    std::string_view grapheme = in.substr(pos, end - pos);
    pos = end;
    // A cluster of under 6 bytes is looked up whole (the shortest key that
    // is a prefix of it replaces all of it); otherwise, or when nothing
    // matches, character by character.
    if (grapheme.size() < 6) {
      EMBER_ASSIGN_OR_RETURN(std::optional<std::string_view> whole,
                             Transform(grapheme));
      if (whole) {
        out->append(*whole);
        continue;
      }
      if (Utf8Length(static_cast<uint8_t>(grapheme[0])) == grapheme.size()) {
        out->append(grapheme);  // One character: looked up already.
        continue;
      }
    }
    for (size_t i = 0; i < grapheme.size();) {
      size_t w = Utf8Length(static_cast<uint8_t>(grapheme[i]));
      std::string_view part = grapheme.substr(i, w);
      EMBER_ASSIGN_OR_RETURN(std::optional<std::string_view> norm,
                             Transform(part));
      out->append(norm ? *norm : part);
      i += w;
    }
  }
  return Status::Ok();
}

namespace {

// `tokenizers`' bookkeeping for one lookup that replaced `old_part` by
// `new_part`: each new character replaces an old one (0); when the new
// part has more characters, its last ones are insertions (1); when fewer,
// the last change so far (possibly an earlier part's) removes the rest.
void AppendReplacement(std::string_view old_part, std::string_view new_part,
                       std::vector<CharChange>* changes) {
  auto count = [](std::string_view s) {
    int64_t n = 0;
    for (char ch : s) n += (static_cast<uint8_t>(ch) & 0xC0) != 0x80;
    return n;
  };
  const int64_t diff = count(new_part) - count(old_part);
  for (size_t i = 0; i < new_part.size();) {
    size_t w = 0;
    changes->push_back({DecodeCodePoint(new_part, i, &w), 0});
    i += w;
  }
  if (diff > 0) {
    for (size_t k = 0; k < static_cast<size_t>(diff) && k < changes->size();
         ++k) {
      (*changes)[changes->size() - 1 - k].change = 1;
    }
  } else if (diff < 0 && !changes->empty()) {
    changes->back().change += static_cast<int32_t>(diff);
  }
}

}  // namespace

Status PrecompiledCharsmap::NormalizeChanges(std::string_view in,
                                             std::vector<CharChange>* changes,
                                             bool* modified) const {
  changes->clear();
  *modified = false;
  const size_t limit = 16 * in.size() + (size_t{1} << 20);
  GraphemeCursor cursor(in);
  for (size_t pos = 0; pos < in.size();) {
    if (changes->size() > limit) {
      return ResourceExhaustedError(StringPrintf(
          "normalizer Precompiled: a %zu-byte text grows past %zu characters",
          in.size(), limit));
    }
    size_t end = cursor.NextEnd(pos);
    std::string_view grapheme = in.substr(pos, end - pos);
    pos = end;
    if (grapheme.size() < 6) {
      EMBER_ASSIGN_OR_RETURN(std::optional<std::string_view> whole,
                             Transform(grapheme));
      if (whole) {
        *modified = true;
        AppendReplacement(grapheme, *whole, changes);
        continue;
      }
    }
    for (size_t i = 0; i < grapheme.size();) {
      size_t w = 0;
      uint32_t c = DecodeCodePoint(grapheme, i, &w);
      std::string_view part = grapheme.substr(i, w);
      EMBER_ASSIGN_OR_RETURN(std::optional<std::string_view> norm,
                             Transform(part));
      if (norm) {
        *modified = true;
        AppendReplacement(part, *norm, changes);
      } else {
        changes->push_back({c, 0});
      }
      i += w;
    }
  }
  return Status::Ok();
}

}  // namespace ember::tokenizer
