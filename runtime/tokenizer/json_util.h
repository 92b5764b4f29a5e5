// What the `tokenizer.json` loaders share (private to runtime/tokenizer/):
// typed, bounded accessors over simdjson's DOM that turn a missing or
// mistyped field into INVALID_ARGUMENT naming it, and one loader per
// component, each next to the code that runs the component. simdjson has
// validated the whole document (UTF-8 included) and bounded its nesting
// before any of these run.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// A field of an object; false when absent.
bool Field(const object& o, std::string_view key, element* out);
bool IsNullOrAbsent(const object& o, std::string_view key);
Result<std::string_view> GetString(const object& o, std::string_view key,
                                   std::string_view where);
// An optional string: null or absent gives `fallback`.
Result<std::string_view> GetOptionalString(const object& o,
                                           std::string_view key,
                                           std::string_view where,
                                           std::string_view fallback = {});
Result<bool> GetBool(const object& o, std::string_view key,
                     std::string_view where, bool fallback);
// An integer in [0, max]; missing is an error.
Result<uint64_t> GetUint(const object& o, std::string_view key,
                         std::string_view where, uint64_t max);
Result<std::string_view> TypeOf(const object& o, std::string_view where);
// UNIMPLEMENTED naming the component ("normalizer") and its type.
Status Unimplemented(std::string_view component, std::string_view type);
// A one-character string field (Strip's content, ...).
Status CheckOneChar(std::string_view s, std::string_view what);
// A Replace/Split pattern: {"String": "..."} (into `text`) or
// {"Regex": "..."} (compiled into `regex`).
Status LoadPattern(const object& o, std::string_view where, std::string* text,
                   std::shared_ptr<const Regex>* regex);

// The component loaders. Each appends to or fills the Pipeline; `depth`
// bounds nested Sequences.
Status LoadNormalizer(const element& e, size_t depth, Pipeline* p);
Status LoadPreTokenizer(const element& e, size_t depth, Pipeline* p);
Status LoadDecoder(const element& e, size_t depth, Pipeline* p);
Status LoadPostProcessor(const element& e, size_t depth, Pipeline* p);
// "added_tokens"; IndexAddedTokens runs once the model and the normalizers
// are loaded.
Status LoadAddedTokens(const element& e, Pipeline* p);
Status IndexAddedTokens(Pipeline* p);
// "truncation" and "padding" of the top object (null or absent: off;
// truncation.cc). Runs once the model, the added tokens and the
// post-processor are loaded.
Status LoadTruncationAndPadding(const object& top, Pipeline* p);

// The models ("model" object; its "type" has been read).
Result<std::unique_ptr<Model>> LoadBpeModel(const object& o);
Result<std::unique_ptr<Model>> LoadWordPieceModel(const object& o);
Result<std::unique_ptr<Model>> LoadUnigramModel(const object& o);
Result<std::unique_ptr<Model>> LoadWordLevelModel(const object& o);

// The {"token": id, ...} "vocab" of WordPiece and WordLevel
// (model_wordlevel.cc): a repeated token keeps its last id (as `tokenizers`'
// HashMap does); ids are distinct and below 2 * tokens + 65536.
struct TokenIdVocab {
  std::vector<std::string_view> tokens;  // distinct; views into the DOM
  std::vector<int32_t> ids;              // of tokens[i]
  std::vector<std::string> vocab_r;      // by id; "" where no token
  std::vector<uint8_t> has_id;           // by id
};
Status LoadTokenIdVocab(const object& model, std::string_view where,
                        TokenIdVocab* out);

}  // namespace ember::tokenizer
