// Tokenizer: text to token ids and back, token-for-token as HuggingFace
// `tokenizers` does it for the same `tokenizer.json` (docs/tokenizer.md).
//
// The pipeline of an encode, as `tokenizers` runs it:
//   1. added tokens that match the raw text (those with normalized=false,
//      the special tokens among them) cut the text into pieces; a matched
//      piece is its token's id and goes through nothing else;
//   2. every other piece is normalized (Prepend, Replace, NFC, ...), and
//      the added tokens with normalized=true cut it again;
//   3. the pre-tokenizer (ByteLevel: the GPT-2 regex, then bytes mapped to
//      printable characters) splits each piece into words;
//   4. the model (BPE: merges by rank, byte fallback, unk) turns each word
//      into ids;
//   5. with add_special_tokens, the post-processor (TemplateProcessing)
//      adds its special tokens around the sequence.
// A decode maps ids to token strings, drops special tokens when asked, and
// runs the decoder chain (ByteLevel, ByteFallback, Fuse, Strip, Replace).
//
// What a `tokenizer.json` holds that this file does not implement is
// refused at load with UNIMPLEMENTED naming the component, never silently
// approximated. A loaded Tokenizer is immutable: every method is const and
// may be called from any number of threads at once.
//
// Every input is hostile: the JSON is parsed by simdjson (validating,
// bounded depth), every count and id is bounded, regexes from a file run
// under PCRE2 match limits, and text that is not UTF-8 is an error.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"

namespace ember::tokenizer {

class Model;
struct Pipeline;

struct EncodeOptions {
  // Run the post-processor (e.g. add "<s>" in front).
  bool add_special_tokens = false;
  // Treat the text of special tokens as ordinary text (`tokenizers`'
  // encode_special_tokens). Non-special added tokens still match.
  bool no_special_token_matching = false;
};

class Tokenizer;

// Decodes ids fed a few at a time: the concatenation of everything Feed and
// Finalize return equals Tokenizer::Decode of all the ids. Text is returned
// as soon as later ids cannot change it (a UTF-8 sequence split across
// byte tokens waits for its last byte). Exact and incremental for the
// decoder chains of GPT-2/Llama-3 (ByteLevel), llama (Replace, ByteFallback,
// Fuse, Strip without stop) and no decoder; any other chain returns all its
// text at Finalize (docs/tokenizer.md "Streaming decode").
class DecodeStream {
 public:
  Status Feed(std::span<const int32_t> ids, std::string* text);
  Status Finalize(std::string* text);

 private:
  friend class Tokenizer;
  enum class Mode { kBuffer, kNoDecoder, kByteLevel, kLlama };
  DecodeStream(const Tokenizer* tokenizer, bool skip_special_tokens);
  void EmitStripped(std::string_view piece, std::string* text);
  void FlushByteRun(std::string* text);

  const Tokenizer* tokenizer_;
  bool skip_special_tokens_;
  Mode mode_ = Mode::kBuffer;
  std::vector<int32_t> buffered_;  // kBuffer
  std::string pending_;    // kByteLevel: undecided bytes; kLlama: a byte run
  bool started_ = false;   // kNoDecoder: a token was written
  size_t strip_left_ = 0;  // kLlama: leading characters Strip may remove
  bool finalized_ = false;
};

class Tokenizer {
 public:
  // Bounds on what a loader accepts (hostile files): the JSON's size, its
  // nesting, the number of tokens and merges and the largest id.
  static constexpr size_t kMaxJsonBytes = size_t{1} << 30;
  static constexpr size_t kMaxJsonDepth = 128;
  static constexpr size_t kMaxVocab = size_t{1} << 22;
  static constexpr size_t kMaxMerges = size_t{1} << 23;
  static constexpr size_t kMaxAddedTokens = size_t{1} << 16;
  static constexpr size_t kMaxTokenBytes = 1024;

  static Result<std::unique_ptr<Tokenizer>> FromHuggingFaceJson(
      std::string_view json);
  // A `tokenizer.json` file.
  static Result<std::unique_ptr<Tokenizer>> FromFile(const std::string& path);

  ~Tokenizer();
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // Appends the ids of `text` (UTF-8; anything else is INVALID_ARGUMENT).
  Status Encode(std::string_view text, const EncodeOptions& options,
                std::vector<int32_t>* ids) const;
  Result<std::vector<int32_t>> Encode(std::string_view text,
                                      const EncodeOptions& options) const;
  // Encodes `texts` on up to `threads` threads (0: every core). Stops at
  // the first error.
  Status EncodeBatch(std::span<const std::string_view> texts,
                     const EncodeOptions& options, unsigned threads,
                     std::vector<std::vector<int32_t>>* out) const;

  // The text of `ids`. An id that is not in the vocabulary is OUT_OF_RANGE
  // (`tokenizers` drops it silently; see docs/tokenizer.md "Decode").
  Result<std::string> Decode(std::span<const int32_t> ids,
                             bool skip_special_tokens) const;
  Status DecodeBatch(std::span<const std::span<const int32_t>> batch,
                     bool skip_special_tokens, unsigned threads,
                     std::vector<std::string>* out) const;

  // A stream decoder; it refers to this Tokenizer, which must outlive it.
  std::unique_ptr<DecodeStream> NewDecodeStream(bool skip_special_tokens) const;

  // The number of distinct tokens, added tokens included (`tokenizers`'
  // get_vocab_size(with_added_tokens=True)).
  size_t vocab_size() const;
  // "BPE".
  std::string_view model_type() const;
  std::optional<std::string_view> IdToToken(int32_t id) const;
  std::optional<int32_t> TokenToId(std::string_view token) const;
  // The ids of the added tokens marked special, ascending.
  std::vector<int32_t> SpecialIds() const;

 private:
  Tokenizer();
  friend struct Pipeline;
  friend class DecodeStream;
  std::unique_ptr<Pipeline> pipeline_;
};

// True when `text` is well-formed UTF-8 (no surrogates, no overlongs).
bool IsValidUtf8(std::string_view text);

}  // namespace ember::tokenizer
