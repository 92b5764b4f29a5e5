// The parts of a loaded tokenizer (private to runtime/tokenizer/ and its
// tests): one struct per `tokenizer.json` component this layer implements,
// and the PCRE2 regex wrapper. See docs/tokenizer.md for each component's
// exact behaviour. One file per stage, each with its loader (json_util.h):
//   text.cc            UTF-8, GPT-2's byte table, literal and regex replace
//   regex.cc           Regex (PCRE2) and the Oniguruma translation
//   normalizers.cc     Normalizer, Pipeline::Normalize
//   precompiled.cc     PrecompiledCharsmap (SentencePiece's charsmap)
//   added_tokens.cc    added tokens: loading, indexing, matching, EncodeText
//   pre_tokenizers.cc  PreTokenizer, Pipeline::EncodeNormalizedPiece
//   pre_tokenizer_classes.cc  their character classes and scripts
//   model_*.cc         the models (Model is their interface)
//   post_processors.cc Pipeline::PostProcess
//   decoders.cc        Decoder, RunDecoder, DecodeStream
//   tiktoken.cc        tiktoken rank files
//   hf_json.cc         the top of a tokenizer.json
//   tokenizer.cc       the public Tokenizer
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/tokenizer/tokenizer.h"

namespace ember::tokenizer {

// A compiled PCRE2 pattern (UTF + UCP, JIT when available), matched under a
// match limit and a depth limit so that a pathological pattern from a file
// fails with RESOURCE_EXHAUSTED instead of running for ever.
class Regex {
 public:
  // `line_anchors`: ^ and $ match at every line's start and end (Ruby's
  // and so Oniguruma's reading in `tokenizers`: ^ also after each "\n"
  // but the last one, $ also before each "\n"), not only the text's.
  static Result<std::shared_ptr<const Regex>> Compile(
      std::string_view pattern, bool line_anchors = false);
  // A pattern written for Oniguruma (what `tokenizers` runs), translated
  // where PCRE2 reads it differently (docs/tokenizer.md "Regexes"). The
  // tiktoken encodings' patterns (written for Rust's fancy-regex, whose ^
  // and $ are the text's) pass line_anchors false.
  static Result<std::shared_ptr<const Regex>> CompileOniguruma(
      std::string_view pattern, bool line_anchors = false);
  ~Regex();
  // Calls `on_match(start, end)` for each non-overlapping match of valid
  // UTF-8 `text`, left to right, as onig's find_iter reports them to
  // `tokenizers`: an empty match too (where the pattern can match empty),
  // except one that ends where the previous match ended; an empty text
  // has none.
  Status ForEachMatch(
      std::string_view text,
      const std::function<void(size_t, size_t)>& on_match) const;
  // The PCRE2 pattern compiled (after any Oniguruma translation):
  // encode_stream.cc recognizes the regexes it can stream word by word.
  const std::string& source() const { return source_; }
  // Whether the pattern may match the empty string somewhere (PCRE2's
  // PCRE2_INFO_MATCHEMPTY; a lookahead alone counts). `tokenizers` acts at
  // every empty match (Replace inserts there, Split cuts there).
  bool MayMatchEmpty() const;

 private:
  Regex() = default;
  std::string source_;
  bool may_match_empty_ = true;
  void* code_ = nullptr;  // pcre2_code_8
  void* match_context_ = nullptr;
};

// A string hash map that looks up by string_view without a copy.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const {
    return std::hash<std::string_view>{}(s);
  }
};
using StringIdMap =
    std::unordered_map<std::string, int32_t, StringHash, std::equal_to<>>;

// A SentencePiece `precompiled_charsmap` (precompiled.cc): a darts-clone
// double-array trie over UTF-8 keys whose values are offsets into a block of
// NUL-terminated replacement strings. Normalizes grapheme by grapheme
// exactly as `tokenizers`' Precompiled does (docs/tokenizer.md
// "Precompiled"). The blob comes from a file: every trie offset and string
// offset is checked when used, and a bad one is INVALID_ARGUMENT.
// One character of a rewritten text and how it relates to the text before
// (`tokenizers`' NormalizedString::transform): 0 replaces the next old
// character, 1 is inserted, -n replaces the next old character and removes
// the n after it (offsets.cc).
struct CharChange {
  uint32_t c;
  int32_t change;
};

class PrecompiledCharsmap {
 public:
  // The base64 text of the `precompiled_charsmap` field.
  static Result<std::shared_ptr<const PrecompiledCharsmap>> FromBase64(
      std::string_view base64);
  static Result<std::shared_ptr<const PrecompiledCharsmap>> FromBytes(
      std::string_view blob);
  // `in` is valid UTF-8; the result replaces `out`.
  Status Normalize(std::string_view in, std::string* out) const;
  // The same as the changes `tokenizers`' Precompiled hands to transform
  // (replaces `changes`); `modified` is false when no lookup matched, and
  // `tokenizers` then leaves the text and its alignments alone.
  Status NormalizeChanges(std::string_view in, std::vector<CharChange>* changes,
                          bool* modified) const;

 private:
  PrecompiledCharsmap() = default;
  // The replacement of the shortest key that is a prefix of `chunk`
  // (stopping at a NUL byte), or nullopt.
  Result<std::optional<std::string_view>> Transform(
      std::string_view chunk) const;
  std::vector<uint32_t> units_;
  std::string normalized_;
};

// BertNormalizer's results for single characters, filled in on first use
// (normalizers.cc).
struct BertCharCache;

struct Normalizer {
  enum class Kind {
    kPrepend,
    kReplace,
    kNfc,
    kNfd,
    kNfkc,
    kNfkd,
    kLowercase,
    kStrip,
    kStripAccents,
    kBert,
    kPrecompiled,
    kByteLevel,
    kNmt
  };
  Kind kind;
  std::string text;     // Prepend: what; Replace: the literal pattern
  std::string content;  // Replace: the replacement
  std::shared_ptr<const Regex> regex;            // Replace with a Regex pattern
  bool strip_left = false, strip_right = false;  // Strip
  // BertNormalizer (strip_accents already resolved: null = lowercase).
  bool clean_text = false, handle_chinese_chars = false;
  bool strip_accents = false, lowercase = false;
  // BertNormalizer: what it makes of each ASCII character (each of its
  // steps maps ASCII character by character), for all-ASCII text.
  std::vector<std::string> bert_ascii;
  // BertNormalizer: the result of each BMP character that normalizes apart
  // from its neighbours, computed on first use by any thread (one cache per
  // process and combination of the four flags).
  std::shared_ptr<BertCharCache> bert_chars;
  std::shared_ptr<const PrecompiledCharsmap> charsmap;  // Precompiled
};

// The character classes the predicate-splitting pre-tokenizers use, with
// `tokenizers`' members (pre_tokenizer_classes.cc, docs/tokenizer.md
// "Pre-tokenizers"): the `regex` crate's `\w`; White_Space (Rust's
// `char::is_whitespace`, also the `regex` crate's `\s`); Rust's
// `char::is_numeric`; ASCII punctuation or a `unicode_categories` P*.
enum class CharClass { kRegexWord, kWhiteSpace, kNumeric, kPunctuation };
bool InCharClass(CharClass cls, uint32_t code_point);
// UnicodeScripts' script of a code point (after `tokenizers`' fix-ups:
// U+30FC, Hiragana and Katakana count as Han), as a number; 0 is "Any"
// (U+0020 and what `tokenizers`' table lacks).
uint16_t UnicodeScriptOf(uint32_t code_point);

// One pre-tokenizer (a `Sequence` is the list of them, run in order, each
// on every word of the one before). ByteLevel and Metaspace rewrite the
// text; the others only cut it, Split by a pattern and the rest by a
// character class; what happens to the cut-out parts is `behavior`.
struct PreTokenizer {
  enum class Kind {
    kByteLevel,
    kSplit,
    kWhitespace,       // runs of \w, runs of [^\w\s]; \s removed
    kWhitespaceSplit,  // White_Space removed
    kMetaspace,
    kDigits,       // numeric runs (or each numeric character) cut out
    kPunctuation,  // each punctuation character, by `behavior`
    kBert,         // WhitespaceSplit, then each punctuation isolated
    kCharDelimiter,
    kFixedLength,     // chunks of `length` characters
    kUnicodeScripts,  // cut where the script changes
  };
  enum class Behavior {
    kRemoved,
    kIsolated,
    kMergedWithPrevious,
    kMergedWithNext,
    kContiguous
  };
  enum class PrependScheme { kAlways, kFirst, kNever };
  Kind kind = Kind::kByteLevel;
  bool add_prefix_space = false;       // ByteLevel
  bool use_regex = true;               // ByteLevel
  bool trim_offsets = true;            // ByteLevel: offsets only
  std::shared_ptr<const Regex> regex;  // ByteLevel with use_regex; Split
  std::string literal;  // Split with a String pattern; Metaspace's character
  Behavior behavior = Behavior::kIsolated;                // Split, Punctuation
  bool invert = false;                                    // Split
  PrependScheme prepend_scheme = PrependScheme::kAlways;  // Metaspace
  bool split = true;                                      // Metaspace
  bool individual_digits = false;                         // Digits
  uint32_t delimiter = 0;  // CharDelimiterSplit; Metaspace's replacement
  size_t length = 5;       // FixedLength, >= 1

  // Passes each word of `word` to `on_word`, with its view (valid during the
  // call) and whether it starts the text (`at_start`: offset 0 of the
  // original text, which Metaspace's prepend_scheme "first" tests).
  using WordFn = std::function<Status(std::string_view, bool)>;
  Status ForEachWord(std::string_view word, bool at_start,
                     const WordFn& on_word) const;
};

// One decoder of the chain (a `Sequence` is flattened into the list).
// Each turns the list of token strings into another list, as `tokenizers`'
// decode_chain does (docs/tokenizer.md "Decode").
struct Decoder {
  enum class Kind {
    kByteLevel,
    kReplace,
    kByteFallback,
    kFuse,
    kStrip,
    kWordPiece,
    kMetaspace,
    kCtc,
    kBpe
  };
  Kind kind;
  // Replace: the literal pattern; WordPiece: the prefix; Metaspace: the
  // replacement character; CTC: the pad token; BPEDecoder: the suffix.
  std::string text;
  // Replace: the replacement; Strip: the character; CTC: the word
  // delimiter token.
  std::string content;
  std::shared_ptr<const Regex> regex;  // Replace with a Regex pattern
  size_t start = 0, stop = 0;          // Strip
  bool cleanup = false;                // WordPiece, CTC
  bool prepend_never = false;          // Metaspace: prepend_scheme "never"
};

// An added token (`added_tokens` of a tokenizer.json), matched in the text
// before the model runs (docs/tokenizer.md "Added tokens").
struct AddedToken {
  std::string content;
  // With normalized=true and a normalizer that changes the content: the
  // normalized content, which `tokenizers` matches and also returns for the
  // id (id_to_token, decode). Empty otherwise.
  std::string normalized_content;
  int32_t id = 0;
  bool special = false;
  bool normalized = false;
  bool lstrip = false;       // the match takes the whitespace before it
  bool rstrip = false;       // ... and after it
  bool single_word = false;  // matches only between word boundaries
};

// Leftmost-longest matching of added tokens (what `tokenizers` does with
// aho-corasick's LeftmostLongest): a byte trie, walked from each position.
class TokenTrie {
 public:
  void Add(std::string_view content, int32_t token_index);
  bool empty() const { return nodes_.size() <= 1; }
  // The longest token starting at `pos`: its index and length, or -1.
  int32_t LongestAt(std::string_view text, size_t pos, size_t* length) const;

 private:
  struct Node {
    int32_t token = -1;
    std::vector<std::pair<uint8_t, int32_t>> children;  // sorted by byte
  };
  std::vector<Node> nodes_{Node{}};
  // The bytes some token starts with: most positions of a text start none,
  // and the scan tries every position.
  std::array<bool, 256> starts_{};
};

// Where a token lies in its word, in bytes [begin, end): `tokenizers`'
// Token::offsets as its model reports them (docs/tokenizer.md "Offsets").
struct ByteSpan {
  uint32_t begin = 0, end = 0;
};

// Words repeat (" the", "\n", "    ", "▁the"), so each thread remembers
// the ids of the short words a model tokenized lately, for one model at a
// time (`serial`, never reused); `uncached(word, ids, spans)` does the work
// otherwise. With `spans` (the offsets path) the spans are remembered too,
// in a cache of their own (each `Uncached` type has its own per-thread
// cache, and the callers pass a different lambda for each path). An error
// is never cached.
template <typename Uncached>
Status TokenizeThroughWordCache(uint64_t serial, std::string_view word,
                                std::vector<int32_t>* ids,
                                std::vector<ByteSpan>* spans,
                                Uncached&& uncached) {
  constexpr size_t kMaxWordBytes = 64;
  constexpr size_t kMaxWords = 16384;
  if (word.size() > kMaxWordBytes) return uncached(word, ids, spans);
  struct Entry {
    std::vector<int32_t> ids;
    std::vector<ByteSpan> spans;
  };
  struct Cache {
    uint64_t serial = 0;
    std::unordered_map<std::string, Entry, StringHash, std::equal_to<>> words;
  };
  thread_local Cache cache;
  if (cache.serial != serial) {
    cache.words.clear();
    cache.serial = serial;
  }
  auto it = cache.words.find(word);
  if (it != cache.words.end()) {
    ids->insert(ids->end(), it->second.ids.begin(), it->second.ids.end());
    if (spans) {
      spans->insert(spans->end(), it->second.spans.begin(),
                    it->second.spans.end());
    }
    return Status::Ok();
  }
  const size_t first = ids->size();
  const size_t first_span = spans ? spans->size() : 0;
  EMBER_RETURN_IF_ERROR(uncached(word, ids, spans));
  if (cache.words.size() >= kMaxWords) cache.words.clear();
  Entry entry{std::vector<int32_t>(ids->begin() + first, ids->end()), {}};
  if (spans) entry.spans.assign(spans->begin() + first_span, spans->end());
  cache.words.emplace(std::string(word), std::move(entry));
  return Status::Ok();
}

// A model turns one pre-tokenized word into ids. Implementations are
// immutable after loading and called from any number of threads.
class Model {
 public:
  virtual ~Model() = default;
  // "BPE", "WordPiece", "Unigram" or "WordLevel" (`tokenizers`' names).
  virtual std::string_view type() const = 0;
  // Appends the ids of `word` (valid UTF-8, possibly empty).
  virtual Status Tokenize(std::string_view word,
                          std::vector<int32_t>* ids) const = 0;
  // The same ids, and for each its span in the word (offsets.cc; words are
  // under 4 GiB there).
  virtual Status TokenizeWithSpans(std::string_view word,
                                   std::vector<int32_t>* ids,
                                   std::vector<ByteSpan>* spans) const = 0;
  virtual std::optional<std::string_view> IdToToken(int32_t id) const = 0;
  virtual std::optional<int32_t> TokenToId(std::string_view token) const = 0;
  // The number of tokens of the vocabulary.
  virtual size_t VocabSize() const = 0;
  // One past the largest id of the vocabulary (bounds added-token ids).
  virtual size_t IdLimit() const = 0;
};

// BPE's merge table: (left id << 32 | right id) -> (rank, merged id), with
// open addressing and a multiplicative hash, because its lookups are the
// inner loop of a BPE encode (a std::unordered_map spent more time hashing
// and chasing bucket lists than the merging itself).
class MergeMap {
 public:
  using Value = std::pair<uint32_t, int32_t>;
  void reserve(size_t count);
  // The value of `key`, inserted as {0, 0} when absent.
  Value& operator[](uint64_t key);
  const Value* find(uint64_t key) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = Home(key);; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.key == key) return &slot.value;
      if (slot.key == kEmpty) return nullptr;
    }
  }
  size_t size() const { return size_; }

 private:
  // Ids are below 2^31, so no key is all ones.
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  struct Slot {
    uint64_t key = kEmpty;
    Value value{0, 0};
  };
  size_t Home(uint64_t key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void Rehash(size_t capacity);
  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t mask_ = 0;
  unsigned shift_ = 64;
};

class BpeModel final : public Model {
 public:
  StringIdMap vocab;
  std::vector<std::string> vocab_r;  // by id; "" where no token
  std::vector<uint8_t> has_id;       // by id
  // (left id << 32 | right id) -> (rank, merged id)
  MergeMap merges;
  std::string unk_token;
  bool has_unk = false;
  bool fuse_unk = false;
  bool byte_fallback = false;
  bool ignore_merges = false;
  std::string continuing_subword_prefix;
  std::string end_of_word_suffix;
  int32_t byte_ids[256];  // "<0xAB>" ids for byte_fallback, -1 when absent
  bool all_byte_ids = false;
  // Load-time tables of the fast paths (model_bpe.cc, docs/tokenizer.md
  // "BPE"), made when the prefix and suffix are empty (char_tables): the
  // id of the token that is exactly a character, by code point, -1 where
  // none (below 0x200, ASCII and GPT-2's byte characters, in an array; the
  // others in a map whose value is {0, id}).
  bool char_tables = false;
  std::vector<int32_t> low_char_ids;
  MergeMap char_ids;
  // Words longer than kSplitWordBytes are cut between two characters that
  // are tokens and that no merge joins (split_words: char_tables and not
  // ignore_merges). join_pairs holds (x << 32 | y) for the last character x
  // of the left token and the first y of the right one of every merge;
  // ascii_joins the same for ASCII pairs (bit y & 63 of word 2x + y / 64).
  static constexpr size_t kSplitWordBytes = 64;
  bool split_words = false;
  MergeMap join_pairs;
  std::array<uint64_t, 256> ascii_joins{};

  // Identifies this model in the per-thread word caches (never reused).
  uint64_t serial = 0;

  BpeModel();
  std::string_view type() const override { return "BPE"; }
  // Appends the ids of one word (short words through a per-thread cache;
  // the model is immutable, so a cached result stays right).
  Status Tokenize(std::string_view word,
                  std::vector<int32_t>* ids) const override;
  Status TokenizeWithSpans(std::string_view word, std::vector<int32_t>* ids,
                           std::vector<ByteSpan>* spans) const override;
  Status TokenizeUncached(std::string_view word, std::vector<int32_t>* ids,
                          std::vector<ByteSpan>* spans = nullptr) const;
  std::optional<std::string_view> IdToToken(int32_t id) const override;
  std::optional<int32_t> TokenToId(std::string_view token) const override;
  size_t VocabSize() const override { return vocab.size(); }
  size_t IdLimit() const override { return vocab_r.size(); }
};

// The total bytes of the tokens of a WordPiece, Unigram or WordLevel
// vocabulary (Ember's bound: a trie costs about 17 bytes per byte of
// distinct prefix; real vocabularies of 250,000 tokens hold about 2 MiB).
constexpr size_t kMaxModelVocabBytes = size_t{1} << 25;

// A byte trie over a model's tokens as a double array (SentencePiece's
// darts does the same): the child of node n by byte c is unit base[n] + c
// when that unit's check is n, so a step is one add and one load, without
// a search among siblings. WordPiece walks it for the longest match and
// Unigram for every match starting at a position, one byte per step and
// without allocating (docs/tokenizer.md "Unigram").
class PieceTrie {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  // `keys[i]` gets `values[i]`; of equal keys the last one's value wins
  // (as a Rust HashMap filled in order). Keys are at most
  // Tokenizer::kMaxTokenBytes long (the recursion of the build).
  // RESOURCE_EXHAUSTED when the double array would be over 16 units per
  // node (keys made to defeat the packing).
  Status Build(const std::vector<std::string_view>& keys,
               const std::vector<int32_t>& values);
  static constexpr uint32_t root() { return 0; }
  // The child of `node` by `byte`, or kNone.
  uint32_t Child(uint32_t node, uint8_t byte) const {
    uint32_t next = units_[node].base + byte;
    return next < units_.size() && units_[next].check == node ? next : kNone;
  }
  // The value of the key ending at `node`, or -1.
  int32_t Value(uint32_t node) const { return units_[node].value; }
  // The node reached by `s` from `node`, or kNone.
  uint32_t Walk(uint32_t node, std::string_view s) const;
  // The value of exactly `s`, or -1.
  int32_t Find(std::string_view s) const {
    uint32_t node = Walk(root(), s);
    return node == kNone ? -1 : Value(node);
  }
  size_t units() const { return units_.size(); }

 private:
  struct Unit {
    uint32_t base = 0;
    uint32_t check = kNone;  // the parent; kNone: free
    int32_t value = -1;
  };
  std::vector<Unit> units_{Unit{}};
};

// WordPiece (BERT): the longest token that is a prefix of the rest of the
// word, `continuing_subword_prefix` in front after the first; a word with no
// such split, or longer than `max_input_chars_per_word` characters, is the
// unk token (docs/tokenizer.md "WordPiece").
class WordPieceModel final : public Model {
 public:
  PieceTrie trie;                    // token -> id
  std::vector<std::string> vocab_r;  // by id; "" where no token
  std::vector<uint8_t> has_id;       // by id
  size_t vocab_count = 0;
  std::string unk_token;
  std::string continuing_subword_prefix;
  uint64_t max_input_chars_per_word = 100;
  uint32_t prefix_node = PieceTrie::kNone;  // the trie after the prefix

  std::string_view type() const override { return "WordPiece"; }
  Status Tokenize(std::string_view word,
                  std::vector<int32_t>* ids) const override;
  Status TokenizeWithSpans(std::string_view word, std::vector<int32_t>* ids,
                           std::vector<ByteSpan>* spans) const override;
  std::optional<std::string_view> IdToToken(int32_t id) const override;
  std::optional<int32_t> TokenToId(std::string_view token) const override;
  size_t VocabSize() const override { return vocab_count; }
  size_t IdLimit() const override { return vocab_r.size(); }
};

// Unigram (SentencePiece): the segmentation of the word with the highest
// total score (Viterbi), unknown characters scored min - 10 and runs of
// them fused into one unk or their bytes (docs/tokenizer.md "Unigram").
class UnigramModel final : public Model {
 public:
  std::vector<std::string> pieces;  // by id (ids are positions)
  std::vector<double> scores;       // by id
  PieceTrie trie;                   // piece -> its last id
  int32_t unk_id = -1;              // -1: none
  bool byte_fallback = false;
  double unk_score = 0;   // the lowest score minus `tokenizers`' penalty 10
  int32_t byte_ids[256];  // "<0xAB>" ids, -1 when absent

  // Identifies this model in the per-thread word caches (never reused).
  uint64_t serial = 0;

  UnigramModel();
  std::string_view type() const override { return "Unigram"; }
  // Short words through a per-thread cache (what `tokenizers` does with
  // its own cache; the model is immutable, so a cached result stays right).
  Status Tokenize(std::string_view word,
                  std::vector<int32_t>* ids) const override;
  Status TokenizeWithSpans(std::string_view word, std::vector<int32_t>* ids,
                           std::vector<ByteSpan>* spans) const override;
  Status TokenizeUncached(std::string_view word, std::vector<int32_t>* ids,
                          std::vector<ByteSpan>* spans = nullptr) const;
  std::optional<std::string_view> IdToToken(int32_t id) const override;
  std::optional<int32_t> TokenToId(std::string_view token) const override;
  // Every entry, repeated pieces included (`tokenizers`' get_vocab_size).
  size_t VocabSize() const override { return pieces.size(); }
  size_t IdLimit() const override { return pieces.size(); }
};

// The double `tokenizers` (serde_json without "float_roundtrip") reads for
// the JSON number whose correctly rounded value is `exact` and which is
// written in its shortest round-trip form (model_unigram.cc).
double SerdeJsonDouble(double exact);

// WordLevel: a word is its token, or the unk token
// (docs/tokenizer.md "WordLevel").
class WordLevelModel final : public Model {
 public:
  StringIdMap vocab;
  std::vector<std::string> vocab_r;  // by id; "" where no token
  std::vector<uint8_t> has_id;       // by id
  std::string unk_token;

  std::string_view type() const override { return "WordLevel"; }
  Status Tokenize(std::string_view word,
                  std::vector<int32_t>* ids) const override;
  Status TokenizeWithSpans(std::string_view word, std::vector<int32_t>* ids,
                           std::vector<ByteSpan>* spans) const override;
  std::optional<std::string_view> IdToToken(int32_t id) const override;
  std::optional<int32_t> TokenToId(std::string_view token) const override;
  size_t VocabSize() const override { return vocab.size(); }
  size_t IdLimit() const override { return vocab_r.size(); }
};

// One piece of a TemplateProcessing template.
struct TemplateItem {
  bool is_sequence = false;  // "Sequence": one of the encodings
  size_t sequence = 0;       // 0 for A, 1 for B
  std::vector<int32_t> ids;  // "SpecialToken": its ids
  uint32_t type_id = 0;      // the piece's type id (Tokenizer::EncodeFull)
  // A SpecialToken whose id is not in "special_tokens": `tokenizers` loads
  // the file and panics when the piece is used; Ember fails that encode.
  bool missing = false;
};

// One post-processor (a `Sequence` is flattened into the list). ByteLevel
// changes offsets only (it trims them, as Roberta does too). Bert and
// Roberta differ in ids only for the second and later encodings of a list.
struct PostProcessor {
  enum class Kind { kTemplate, kBert, kRoberta, kByteLevel };
  Kind kind = Kind::kTemplate;
  std::vector<TemplateItem> single, pair;  // Template
  int32_t cls = 0, sep = 0;                // Bert, Roberta
  bool trim_offsets = false;               // ByteLevel, Roberta
  bool add_prefix_space = false;           // ByteLevel, Roberta
};

// A token of an encode with offsets (offsets.cc): its id, where it came
// from in the text, and how many characters at each end of its string are
// spaces (U+0020, GPT-2's U+0120 for it, or White_Space), which the
// ByteLevel and Roberta post-processors trim off its offsets.
struct OffsetToken {
  int32_t id = 0;
  size_t begin = 0, end = 0;
  uint16_t lead = 0, trail = 0;
  uint8_t sequence = 0;  // 1: the pair's second text (its offsets are in it)
  uint32_t type_id = 0;  // `tokenizers`' type id (EncodeFull)
  bool special = false;  // added by a post-processor or padding
  bool pad = false;      // added by padding (attention mask 0)
};

// A tokenizer.json's "truncation" (truncation.cc): a sequence longer than
// max_length (less the post-processor's special tokens when they are
// added) keeps its first (or, `left`, its last) tokens.
struct Truncation {
  enum class Strategy { kLongestFirst, kOnlyFirst, kOnlySecond };
  bool enabled = false;
  bool left = false;
  uint64_t max_length = 0, stride = 0;
  Strategy strategy = Strategy::kLongestFirst;
};

// Its "padding": pad_id added (on the left with `left`) up to `length`
// (fixed) or the longest of the batch, rounded up to `multiple`.
struct Padding {
  bool enabled = false;
  bool left = false;
  bool fixed = false;
  uint64_t length = 0, multiple = 0;
  int32_t id = 0;
  uint32_t type_id = 0;
};

struct Pipeline {
  std::unique_ptr<Model> model;
  std::vector<AddedToken> added;  // by index
  std::unordered_map<int32_t, size_t> added_by_id;
  StringIdMap added_by_content;
  std::unordered_set<std::string, StringHash, std::equal_to<>> special_contents;
  TokenTrie raw_trie;         // normalized=false tokens
  TokenTrie normalized_trie;  // normalized=true tokens, normalized content
  std::vector<Normalizer> normalizers;
  std::vector<PreTokenizer> pre_tokenizers;
  bool has_decoder = false;
  std::vector<Decoder> decoders;
  std::vector<PostProcessor> post_processors;
  Truncation truncation;
  Padding padding;
  // encode_stream.cc: the pre-tokenizer's regex looks a bounded distance
  // past each match (set by the tiktoken loader; docs/tokenizer.md
  // "Streaming encode").
  bool stream_words_bounded = false;
  // encode_stream.cc: every proper prefix of a normalized=false added
  // token, made on first use by a stream.
  mutable std::once_flag raw_prefixes_once;
  mutable std::unordered_set<std::string, StringHash, std::equal_to<>>
      raw_prefixes;
  // tokenizer.cc: for a decoder chain of ByteLevel alone (GPT-2, Llama 3,
  // tiktoken), the bytes of each id, made on first decode (empty and
  // unknown where the id names no token) and whether it is special.
  // tokenizer.cc: Tokenizer::vocab_size, counted on first use.
  mutable std::once_flag vocab_size_once;
  mutable size_t vocab_size = 0;
  mutable std::once_flag byte_level_once;
  mutable std::vector<std::string> byte_level_bytes;
  mutable std::vector<uint8_t> byte_level_kind;  // 0 none, 1 token, 2 special

  // normalizers.cc
  Status Normalize(std::string_view in, std::string* out) const;
  // added_tokens.cc: whether Metaspace's prepend_scheme "first" must see
  // alignments to know which word starts the text (a normalizer, or a
  // pre-tokenizer that inserts text, runs before it): EncodeText then
  // takes the offsets path (docs/tokenizer.md "Offsets").
  bool MetaspaceFirstNeedsAlignments() const;
  // added_tokens.cc: the ids of `text`, before post-processing.
  Status EncodeText(std::string_view text, const EncodeOptions& options,
                    std::vector<int32_t>* ids) const;
  // added_tokens.cc: cuts `piece` at the added tokens of `trie` exactly as
  // `tokenizers`' AddedVocabulary::find_matches does: `on_text(sub,
  // offset)` for the text between them (`offset`: where `sub` starts in
  // `piece`), `on_token(token, start, stop)` for each match used
  // ([start, stop) includes what lstrip/rstrip took).
  Status SplitAtAddedTokens(
      const TokenTrie& trie, std::string_view piece,
      const EncodeOptions& options,
      const std::function<Status(std::string_view, size_t)>& on_text,
      const std::function<void(const AddedToken&, size_t, size_t)>& on_token)
      const;
  // offsets.cc: EncodeText with each id's offsets in `text`
  // (docs/tokenizer.md "Offsets").
  Status EncodeTextWithOffsets(std::string_view text,
                               const EncodeOptions& options,
                               std::vector<OffsetToken>* tokens) const;
  // pre_tokenizers.cc: pre-tokenizes one normalized piece and runs the model
  // on each word. `at_start`: the piece begins the text (offset 0 of the
  // original), which Metaspace's prepend_scheme "first" needs.
  Status EncodeNormalizedPiece(std::string_view piece, bool at_start,
                               std::vector<int32_t>* ids) const;
  // post_processors.cc: what the post-processors make of the ids of one
  // sequence. `tokenizers` runs them with add_special_tokens false too
  // (a template can repeat or drop the sequence); the one-argument form is
  // add_special_tokens=true.
  // With `pair`, the list starts with the two sequences (`tokenizers`'
  // pair templates); the result replaces `ids`.
  Status PostProcess(bool add_special_tokens, std::vector<int32_t>* ids,
                     std::vector<int32_t>* pair = nullptr) const;
  Status PostProcess(std::vector<int32_t>* ids) const {
    return PostProcess(true, ids);
  }
  // The same with offsets; `trim(encoding, add_prefix_space)` trims one
  // encoding's offsets (offsets.cc).
  Status PostProcessWithOffsets(
      bool add_special_tokens, std::vector<OffsetToken>* tokens,
      std::vector<OffsetToken>* pair,
      const std::function<void(std::vector<OffsetToken>*, bool)>& trim) const;
  std::optional<std::string_view> IdToToken(int32_t id) const;

  // truncation.cc: how many special tokens the post-processors add to one
  // sequence or a pair (`tokenizers`' added_tokens(is_pair)); the lengths
  // the first sequence of `first` ids and the second of `second` (absent:
  // none) are cut to (an error where `tokenizers` fails or panics); the
  // length padding makes an encoding whose batch's longest is `longest`.
  size_t AddedBySpecialTokens(bool is_pair) const;
  Result<std::pair<size_t, size_t>> TruncatedLengths(
      size_t first, std::optional<size_t> second,
      bool add_special_tokens) const;
  size_t PaddedLength(size_t longest) const;
  // Truncation, then the post-processors, then padding: what `tokenizers`'
  // post_process does to the items (ids, or OffsetTokens) of one encode,
  // with `pair` (or null) the second sequence's. `post_process(items,
  // pair)` leaves its result in `items`.
  template <typename T, typename PostProcessFn>
  Status Finish(bool add_special_tokens, const T& pad, std::vector<T>* items,
                std::vector<T>* pair, const PostProcessFn& post_process) const {
    EMBER_ASSIGN_OR_RETURN(
        auto keep, TruncatedLengths(items->size(),
                                    pair ? std::optional<size_t>(pair->size())
                                         : std::nullopt,
                                    add_special_tokens));
    Cut(keep.first, items);
    if (pair) Cut(keep.second, pair);
    EMBER_RETURN_IF_ERROR(post_process(items, pair));
    if (padding.enabled) Pad(PaddedLength(items->size()), pad, items);
    return Status::Ok();
  }
  // Keeps `keep` of `items`: the first, or with a Left truncation the last.
  template <typename T>
  void Cut(size_t keep, std::vector<T>* items) const {
    if (keep >= items->size()) return;
    if (truncation.left) {
      items->erase(items->begin(), items->begin() + static_cast<std::ptrdiff_t>(
                                                        items->size() - keep));
    } else {
      items->resize(keep);
    }
  }
  // Pads `items` to `length` with `pad` on the padding's side.
  template <typename T>
  void Pad(size_t length, const T& pad, std::vector<T>* items) const {
    if (items->size() >= length) return;
    const size_t n = length - items->size();
    items->insert(padding.left ? items->begin() : items->end(), n, pad);
  }
};

// True for the code points `tokenizers`' normalizers treat as unassigned
// although utf8proc knows them (normalization_compat.cc).
bool UnknownToTokenizersNormalization(uint32_t code_point);
// The character classes of `tokenizers`' other normalizers, on utf8proc's
// data corrected where `tokenizers`' differs (normalization_compat.cc):
// Rust's char::to_lowercase (full mapping), unicode-normalization-
// alignments' is_combining_mark, unicode_categories' is_mark_nonspacing and
// is_other (Cc, Cf, Co), Rust's char::is_whitespace.
void AppendTokenizersLowercase(uint32_t code_point, std::string* out);
bool IsCombiningMarkToTokenizers(uint32_t code_point);
bool IsNonspacingMarkToTokenizers(uint32_t code_point);
bool IsOtherToTokenizers(uint32_t code_point);
bool IsRustWhitespace(uint32_t code_point);
// A code point whose grapheme-cluster class under utf8proc 2.8 is the one
// unicode-segmentation gives `code_point` (itself where they agree).
uint32_t GraphemeClassRepresentative(uint32_t code_point);
// Indic_Conjunct_Break as unicode-segmentation has it (for rule GB9c).
enum class IndicConjunctBreak { kNone, kConsonant, kLinker, kExtend };
IndicConjunctBreak IndicConjunctBreakOf(uint32_t code_point);

// The PCRE2 class body (what goes between [ and ]) that matches what
// Oniguruma's `\s` ("s") or `\p{X}` ("X", a general category) matches in
// `tokenizers` (regex_classes.cc).
std::optional<std::string_view> OnigurumaClassBody(std::string_view name);

// How many leading bytes a stream decoder may turn into text now: all but
// a trailing UTF-8 sequence that is valid so far but incomplete.
size_t DecidedUtf8PrefixForTest(std::string_view bytes);

// The loader (hf_json.cc).
Status LoadHuggingFaceJson(std::string_view json, Pipeline* pipeline);

// Runs one decoder of the chain over the token strings (decoders.cc).
Status RunDecoder(const Decoder& decoder, std::vector<std::string>* tokens);

// The ByteLevel words of one piece, mapped to GPT-2's characters, passed to
// `on_word` (a view valid during the call) (pre_tokenizers.cc).
Status ByteLevelWords(const PreTokenizer& step, std::string_view piece,
                      const std::function<Status(std::string_view)>& on_word);

void AppendCodePoint(uint32_t c, std::string* out);
// Every occurrence of `pattern` (non-empty; the loaders refuse an empty
// one) replaced by `content`.
void ReplaceAll(std::string_view in, std::string_view pattern,
                std::string_view content, std::string* out);
// Every match of `regex` replaced by `content`.
Status RegexReplace(const Regex& regex, std::string_view in,
                    std::string_view content, std::string* out);

// GPT-2's byte <-> printable character table (docs/tokenizer.md
// "ByteLevel").
const std::string& ByteLevelChar(uint8_t byte);
// The byte of a code point of the table, or -1.
int ByteLevelByte(uint32_t code_point);

// Decodes bytes as Rust's String::from_utf8_lossy does: each maximal
// ill-formed subsequence becomes one U+FFFD.
std::string Utf8Lossy(std::string_view bytes);

// The length of the UTF-8 sequence starting with lead byte `b` (1 for a
// byte that is not a lead; the text is validated before).
inline size_t Utf8Length(uint8_t b) {
  if (b < 0xC0) return 1;
  if (b < 0xE0) return 2;
  if (b < 0xF0) return 3;
  return 4;
}

// The code point at `s[i]` (valid UTF-8) and its length in bytes (inline:
// every stage decodes every character).
inline uint32_t DecodeCodePoint(std::string_view s, size_t i, size_t* length) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data()) + i;
  const size_t w = Utf8Length(p[0]);
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

}  // namespace ember::tokenizer
