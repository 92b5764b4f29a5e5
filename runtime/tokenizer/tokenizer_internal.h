// The parts of a loaded tokenizer (private to runtime/tokenizer/ and its
// tests): one struct per `tokenizer.json` component this layer implements,
// and the PCRE2 regex wrapper. See docs/tokenizer.md for each component's
// exact behaviour. One file per stage, each with its loader (json_util.h):
//   text.cc            UTF-8, GPT-2's byte table, literal and regex replace
//   regex.cc           Regex (PCRE2) and the Oniguruma translation
//   normalizers.cc     Normalizer, Pipeline::Normalize
//   added_tokens.cc    added tokens: loading, indexing, matching, EncodeText
//   pre_tokenizers.cc  PreTokenizer, Pipeline::EncodeNormalizedPiece
//   model_*.cc         the models (Model is their interface)
//   post_processors.cc Pipeline::PostProcess
//   decoders.cc        Decoder, RunDecoder, DecodeStream
//   tiktoken.cc        tiktoken rank files
//   hf_json.cc         the top of a tokenizer.json
//   tokenizer.cc       the public Tokenizer
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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
  static Result<std::shared_ptr<const Regex>> Compile(std::string_view pattern);
  // A pattern written for Oniguruma (what `tokenizers` runs), translated
  // where PCRE2 reads it differently (docs/tokenizer.md "Regexes").
  static Result<std::shared_ptr<const Regex>> CompileOniguruma(
      std::string_view pattern);
  ~Regex();
  // Calls `on_match(start, end)` for each non-overlapping match of valid
  // UTF-8 `text`, left to right (an empty match advances one character).
  Status ForEachMatch(
      std::string_view text,
      const std::function<void(size_t, size_t)>& on_match) const;

 private:
  Regex() = default;
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

struct Normalizer {
  enum class Kind { kPrepend, kReplace, kNfc, kNfd, kNfkc, kNfkd };
  Kind kind;
  std::string text;     // Prepend: what; Replace: the literal pattern
  std::string content;  // Replace: the replacement
  std::shared_ptr<const Regex> regex;  // Replace with a Regex pattern
};

// One pre-tokenizer: ByteLevel, or Split (a pattern cuts each piece; what
// happens to the matches is `behavior`). A `Sequence` is a list of them.
struct PreTokenizer {
  enum class Kind { kByteLevel, kSplit };
  enum class Behavior {
    kRemoved,
    kIsolated,
    kMergedWithPrevious,
    kMergedWithNext,
    kContiguous
  };
  Kind kind = Kind::kByteLevel;
  bool add_prefix_space = false;       // ByteLevel
  bool use_regex = true;               // ByteLevel
  std::shared_ptr<const Regex> regex;  // ByteLevel with use_regex; Split
  std::string literal;                 // Split with a String pattern
  Behavior behavior = Behavior::kIsolated;
  bool invert = false;

  // Appends the words of `piece` (non-empty) to `out`.
  Status Split(std::string_view piece, std::vector<std::string>* out) const;
};

struct Decoder {
  enum class Kind { kByteLevel, kReplace, kByteFallback, kFuse, kStrip };
  Kind kind;
  std::string text;     // Replace: the literal pattern
  std::string content;  // Replace: the replacement; Strip: the character
  std::shared_ptr<const Regex> regex;
  size_t start = 0, stop = 0;  // Strip
};

struct AddedToken {
  std::string content;
  int32_t id = 0;
  bool special = false;
  bool normalized = false;
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
};

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
  virtual std::optional<std::string_view> IdToToken(int32_t id) const = 0;
  virtual std::optional<int32_t> TokenToId(std::string_view token) const = 0;
  // The number of tokens of the vocabulary.
  virtual size_t VocabSize() const = 0;
  // One past the largest id of the vocabulary (bounds added-token ids).
  virtual size_t IdLimit() const = 0;
};

class BpeModel final : public Model {
 public:
  StringIdMap vocab;
  std::vector<std::string> vocab_r;  // by id; "" where no token
  std::vector<uint8_t> has_id;       // by id
  // (left id << 32 | right id) -> (rank, merged id)
  std::unordered_map<uint64_t, std::pair<uint32_t, int32_t>> merges;
  std::string unk_token;
  bool has_unk = false;
  bool fuse_unk = false;
  bool byte_fallback = false;
  bool ignore_merges = false;
  std::string continuing_subword_prefix;
  std::string end_of_word_suffix;
  int32_t byte_ids[256];  // "<0xAB>" ids for byte_fallback, -1 when absent
  bool all_byte_ids = false;

  // Identifies this model in the per-thread word caches (never reused).
  uint64_t serial = 0;

  BpeModel();
  std::string_view type() const override { return "BPE"; }
  // Appends the ids of one word (short words through a per-thread cache;
  // the model is immutable, so a cached result stays right).
  Status Tokenize(std::string_view word,
                  std::vector<int32_t>* ids) const override;
  Status TokenizeUncached(std::string_view word,
                          std::vector<int32_t>* ids) const;
  std::optional<std::string_view> IdToToken(int32_t id) const override;
  std::optional<int32_t> TokenToId(std::string_view token) const override;
  size_t VocabSize() const override { return vocab.size(); }
  size_t IdLimit() const override { return vocab_r.size(); }
};

struct TemplateItem {
  bool is_sequence = false;  // the encoded text ("Sequence" A)
  std::vector<int32_t> ids;  // a SpecialToken's ids
};

struct Pipeline {
  std::unique_ptr<Model> model;
  std::vector<AddedToken> added;  // by index
  std::unordered_map<int32_t, size_t> added_by_id;
  StringIdMap added_by_content;
  std::unordered_set<std::string> special_contents;
  TokenTrie raw_trie;         // normalized=false tokens
  TokenTrie normalized_trie;  // normalized=true tokens, normalized content
  std::vector<Normalizer> normalizers;
  std::vector<PreTokenizer> pre_tokenizers;
  bool has_decoder = false;
  std::vector<Decoder> decoders;
  std::vector<TemplateItem> single_template;
  bool has_template = false;

  // normalizers.cc
  Status Normalize(std::string_view in, std::string* out) const;
  // added_tokens.cc: the ids of `text`, before post-processing.
  Status EncodeText(std::string_view text, const EncodeOptions& options,
                    std::vector<int32_t>* ids) const;
  // pre_tokenizers.cc: pre-tokenizes one normalized piece and runs the model
  // on each word. `at_start`: the piece begins the text (offset 0 of the
  // original), which Metaspace's prepend_scheme "first" needs.
  Status EncodeNormalizedPiece(std::string_view piece, bool at_start,
                               std::vector<int32_t>* ids) const;
  // post_processors.cc: with add_special_tokens, what the post-processor
  // adds around the ids of one sequence.
  Status PostProcess(std::vector<int32_t>* ids) const;
  std::optional<std::string_view> IdToToken(int32_t id) const;
};

// True for the code points `tokenizers`' normalizers treat as unassigned
// although utf8proc knows them (normalization_compat.cc).
bool UnknownToTokenizersNormalization(uint32_t code_point);

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

// The code point at `s[i]` (valid UTF-8) and its length in bytes.
uint32_t DecodeCodePoint(std::string_view s, size_t i, size_t* length);
void AppendCodePoint(uint32_t c, std::string* out);
// Every occurrence of `pattern` (non-empty) replaced by `content`.
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

}  // namespace ember::tokenizer
