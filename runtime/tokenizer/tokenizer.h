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
//   5. the post-processors (TemplateProcessing, Bert, Roberta) add their
//      special tokens around the sequence (with add_special_tokens).
// A decode maps ids to token strings, drops special tokens when asked, and
// runs the decoder chain (ByteLevel, ByteFallback, Fuse, Strip, Replace,
// WordPiece, Metaspace, CTC, BPEDecoder).
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
struct OffsetToken;

struct EncodeOptions {
  // Run the post-processor (e.g. add "<s>" in front).
  bool add_special_tokens = false;
  // Treat the text of special tokens as ordinary text (`tokenizers`'
  // encode_special_tokens). Non-special added tokens still match.
  bool no_special_token_matching = false;
  // EncodeWithOffsets and the like: offsets in characters (code points) of
  // the text rather than bytes, as `tokenizers`' Python Encoding.offsets.
  bool char_offsets = false;
};

// Where a token came from in the text given to Encode: bytes [begin, end),
// as `tokenizers` reports its offsets (docs/tokenizer.md "Offsets"). A
// token the post-processor adds (e.g. "[CLS]") has {0, 0}; tokens that
// share a character (byte-level pieces of one character, byte-fallback
// tokens) each have that whole character.
struct TokenOffsets {
  size_t begin = 0, end = 0;
  bool operator==(const TokenOffsets&) const = default;
};

// Everything `tokenizers`' Encoding holds for a model's input, one entry
// per token: the ids, the type ids (the template's type_id, Bert's 0 and
// 1 for a pair, Roberta's 0, padding's pad_type_id), the offsets (as
// EncodeWithOffsets), the special-tokens mask (1: added by a
// post-processor or padding) and the attention mask (0: padding).
struct Encoding {
  std::vector<int32_t> ids;
  std::vector<uint32_t> type_ids;
  std::vector<TokenOffsets> offsets;
  std::vector<uint8_t> special_tokens_mask;
  std::vector<uint8_t> attention_mask;
};

class Tokenizer;

// Decodes ids fed a few at a time: the concatenation of everything Feed and
// Finalize return equals Tokenizer::Decode of all the ids. Text is returned
// as soon as later ids cannot change it. Each decoder of the chain runs as a
// stage over the tokens as they come (a UTF-8 sequence split across byte
// tokens waits for its last byte, BPEDecoder holds one token to know the
// last, ...); chains with a stage that cannot run that way return all their
// text at Finalize (docs/tokenizer.md "Streaming decode").
class DecodeStream {
 public:
  ~DecodeStream();
  DecodeStream(const DecodeStream&) = delete;
  DecodeStream& operator=(const DecodeStream&) = delete;
  Status Feed(std::span<const int32_t> ids, std::string* text);
  Status Finalize(std::string* text);

 private:
  friend class Tokenizer;
  struct Stage;  // decoders.cc
  DecodeStream(const Tokenizer* tokenizer, bool skip_special_tokens);
  // Passes `token` (a whole token, or after a Fuse/ByteLevel stage a piece
  // of the one token) to stage `index`; past the last stage it is text.
  Status Push(size_t index, std::string token, std::string* text);
  Status Flush(size_t index, std::string* text);

  const Tokenizer* tokenizer_;
  bool skip_special_tokens_;
  bool buffer_all_ = false;        // a chain that cannot stream
  bool no_decoder_ = false;        // tokens joined by spaces
  std::vector<int32_t> buffered_;  // buffer_all_
  std::vector<std::unique_ptr<Stage>> stages_;
  bool started_ = false;  // no_decoder_: a token was written
  bool finalized_ = false;
};

// Encodes text fed a chunk at a time: the concatenation of everything Feed
// and Finalize return equals Tokenizer::Encode of all the text. A chunk may
// end inside a UTF-8 sequence (the bytes wait for the rest). Ids come out
// as soon as more text cannot change them: after an added token that no
// longer token can extend, and, for pre-tokenizers whose regex looks a
// bounded distance ahead (GPT-2's ByteLevel, the tiktoken encodings, Llama
// 3's Split), after a word followed by enough settled text; the held text
// is then the last words (a run of whitespace is held whole). Any other
// pipeline returns its ids at added tokens and Finalize
// (docs/tokenizer.md "Streaming encode").
class EncodeStream {
 public:
  EncodeStream(const EncodeStream&) = delete;
  EncodeStream& operator=(const EncodeStream&) = delete;
  Status Feed(std::string_view chunk, std::vector<int32_t>* ids);
  Status Finalize(std::vector<int32_t>* ids);

 private:
  friend class Tokenizer;
  EncodeStream(const Tokenizer* tokenizer, const EncodeOptions& options);
  Status Drain(bool final, std::vector<int32_t>* ids);
  bool MayStartToken(size_t pos) const;
  Status EncodePiece(std::string_view piece, bool final, size_t limit,
                     size_t* consumed, std::vector<int32_t>* ids);
  Status EncodeWords(std::string_view piece, bool final, size_t limit,
                     size_t* consumed, std::vector<int32_t>* ids);

  const Tokenizer* tokenizer_;
  EncodeOptions options_;
  bool words_ = false;       // word-level emission (bounded regexes)
  bool buffer_all_ = false;  // a pipeline encoded whole at Finalize
  std::vector<int32_t> prefix_, suffix_;  // what the post-processor adds
  std::string text_;                      // text not yet turned into ids
  std::string partial_;         // an incomplete UTF-8 sequence at the end
  size_t scanned_ = 0;          // text_[0, scanned_) holds no added token
  size_t max_token_bytes_ = 0;  // the longest raw added token
  size_t retry_at_ = 0;      // held text size at which to look for words again
  bool at_start_ = true;     // text_ starts the whole text
  bool piece_fresh_ = true;  // text_ starts a piece (no word emitted yet)
  bool started_ = false;     // prefix_ emitted
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
  // A tiktoken rank file's text ("<base64 token> <rank>" lines) and the
  // name of the encoding that gives its regex and special tokens
  // ("cl100k_base", "o200k_base", "o200k_harmony", "r50k_base", "gpt2",
  // "p50k_base", "p50k_edit"; docs/tokenizer.md "tiktoken").
  static Result<std::unique_ptr<Tokenizer>> FromTiktoken(
      std::string_view data, std::string_view encoding);
  // A `tokenizer.json` file, or a `<encoding>.tiktoken` rank file (the
  // encoding named by the file name, as iree.runtime 3.13 does).
  static Result<std::unique_ptr<Tokenizer>> FromFile(const std::string& path);

  ~Tokenizer();
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // Appends the ids of `text` (UTF-8; anything else is INVALID_ARGUMENT).
  Status Encode(std::string_view text, const EncodeOptions& options,
                std::vector<int32_t>* ids) const;
  Result<std::vector<int32_t>> Encode(std::string_view text,
                                      const EncodeOptions& options) const;
  // A pair of texts (a question and a passage, a query and a document):
  // each encoded on its own, then truncated and post-processed together
  // (the `pair` template; Bert's [CLS] a [SEP] b [SEP]), as `tokenizers`'
  // encode(a, b) does. `ids` is replaced.
  Status EncodePair(std::string_view text, std::string_view pair,
                    const EncodeOptions& options,
                    std::vector<int32_t>* ids) const;
  // Encode, and for each id where it came from in `text` (`offsets` is
  // replaced). Slower than Encode: the text's alignment is kept through
  // every stage. Texts of 4 GiB or more are INVALID_ARGUMENT here.
  Status EncodeWithOffsets(std::string_view text, const EncodeOptions& options,
                           std::vector<int32_t>* ids,
                           std::vector<TokenOffsets>* offsets) const;
  // EncodePair with offsets: the second text's tokens have offsets in it.
  Status EncodePairWithOffsets(std::string_view text, std::string_view pair,
                               const EncodeOptions& options,
                               std::vector<int32_t>* ids,
                               std::vector<TokenOffsets>* offsets) const;
  // EncodeWithOffsets of each text, on up to `threads` threads (0: every
  // core). Stops at the first error.
  // The whole Encoding of `text` (and `pair`, when not null).
  Status EncodeFull(std::string_view text, const std::string_view* pair,
                    const EncodeOptions& options, Encoding* encoding) const;
  // EncodeFull of each text, padded together when the file pads.
  Status EncodeBatchFull(
      std::span<const std::string_view> texts, const EncodeOptions& options,
      unsigned threads, std::vector<Encoding>* out,
      std::span<const std::optional<std::string_view>> pairs = {}) const;
  // `pairs` (empty, or one per text): a text with a value there is
  // encoded as a pair.
  Status EncodeBatchWithOffsets(
      std::span<const std::string_view> texts, const EncodeOptions& options,
      unsigned threads, std::vector<std::vector<int32_t>>* ids,
      std::vector<std::vector<TokenOffsets>>* offsets,
      std::span<const std::optional<std::string_view>> pairs = {}) const;
  // Encodes `texts` on up to `threads` threads (0: every core). Stops at
  // the first error. `pairs` as above.
  Status EncodeBatch(
      std::span<const std::string_view> texts, const EncodeOptions& options,
      unsigned threads, std::vector<std::vector<int32_t>>* out,
      std::span<const std::optional<std::string_view>> pairs = {}) const;

  // The text of `ids`. An id that is not in the vocabulary is OUT_OF_RANGE
  // (`tokenizers` drops it silently; see docs/tokenizer.md "Decode").
  Result<std::string> Decode(std::span<const int32_t> ids,
                             bool skip_special_tokens) const;
  Status DecodeBatch(std::span<const std::span<const int32_t>> batch,
                     bool skip_special_tokens, unsigned threads,
                     std::vector<std::string>* out) const;

  // A stream encoder; it refers to this Tokenizer, which must outlive it.
  std::unique_ptr<EncodeStream> NewEncodeStream(
      const EncodeOptions& options) const;
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
  // The id of the model's unknown token, when it has one in its vocabulary
  // (the only role iree.runtime 3.13's special_ids fills).
  std::optional<int32_t> UnkId() const;

 private:
  Tokenizer();
  Status EncodeMaybePair(std::string_view text, const std::string_view* pair,
                         const EncodeOptions& options,
                         std::vector<int32_t>* ids) const;
  // offsets.cc: the tokens of an encode with offsets, post-processed.
  Status EncodeTokens(std::string_view text, const std::string_view* pair,
                      const EncodeOptions& options,
                      std::vector<OffsetToken>* tokens) const;
  Status EncodeWithOffsetsMaybePair(std::string_view text,
                                    const std::string_view* pair,
                                    const EncodeOptions& options,
                                    std::vector<int32_t>* ids,
                                    std::vector<TokenOffsets>* offsets) const;
  friend struct Pipeline;
  friend class DecodeStream;
  friend class EncodeStream;
  std::unique_ptr<Pipeline> pipeline_;
};

// True when `text` is well-formed UTF-8 (no surrogates, no overlongs).
bool IsValidUtf8(std::string_view text);

}  // namespace ember::tokenizer
