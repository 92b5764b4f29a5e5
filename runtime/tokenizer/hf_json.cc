// The top of a HuggingFace `tokenizer.json`: simdjson's DOM (it validates
// the whole document, UTF-8 included, before we look at it, and bounds the
// nesting), then the loader of each component (json_util.h). Anything this
// layer does not implement is UNIMPLEMENTED naming the component and the
// field, so a file is either tokenized exactly or refused (docs/tokenizer.md
// "Coverage").
#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

Status LoadHuggingFaceJson(std::string_view json, Pipeline* p) {
  if (json.size() > Tokenizer::kMaxJsonBytes) {
    return ResourceExhaustedError(
        StringPrintf("tokenizer.json is %zu bytes, over the limit of %zu",
                     json.size(), Tokenizer::kMaxJsonBytes));
  }
  simdjson::dom::parser parser;
  if (parser.allocate(json.size() + 64, Tokenizer::kMaxJsonDepth) !=
      simdjson::SUCCESS) {
    return ResourceExhaustedError("cannot allocate the JSON parser");
  }
  simdjson::padded_string padded(json);
  element root;
  auto error = parser.parse(padded).get(root);
  if (error != simdjson::SUCCESS) {
    return InvalidArgumentError(
        StringPrintf("malformed JSON: %s", simdjson::error_message(error)));
  }
  object top;
  if (root.get_object().get(top) != simdjson::SUCCESS) {
    return InvalidArgumentError("tokenizer.json is not a JSON object");
  }
  element model_e;
  object model;
  if (!Field(top, "model", &model_e) ||
      model_e.get_object().get(model) != simdjson::SUCCESS) {
    return InvalidArgumentError("tokenizer.json has no \"model\" object");
  }
  std::string_view model_type;
  element te;
  if (Field(model, "type", &te)) {
    if (te.get_string().get(model_type) != simdjson::SUCCESS) {
      return InvalidArgumentError("model \"type\" is not a string");
    }
  } else {
    element merges;
    if (Field(model, "merges", &merges)) model_type = "BPE";
  }
  Result<std::unique_ptr<Model>> (*load_model)(const object&) = nullptr;
  if (model_type == "BPE") {
    load_model = LoadBpeModel;
  } else if (model_type == "WordPiece") {
    load_model = LoadWordPieceModel;
  } else if (model_type == "Unigram") {
    load_model = LoadUnigramModel;
  } else if (model_type == "WordLevel") {
    load_model = LoadWordLevelModel;
  } else {
    return Unimplemented("model", model_type);
  }

  element e;
  if (Field(top, "normalizer", &e)) {
    EMBER_RETURN_IF_ERROR(LoadNormalizer(e, 0, p));
  }
  if (Field(top, "pre_tokenizer", &e)) {
    EMBER_RETURN_IF_ERROR(LoadPreTokenizer(e, 0, p));
  }
  EMBER_ASSIGN_OR_RETURN(
      p->model, load_model(model), "while loading the %.*s model",
      static_cast<int>(model_type.size()), model_type.data());
  if (Field(top, "added_tokens", &e))
    EMBER_RETURN_IF_ERROR(LoadAddedTokens(e, p));
  EMBER_RETURN_IF_ERROR(IndexAddedTokens(p));
  if (Field(top, "post_processor", &e)) {
    EMBER_RETURN_IF_ERROR(LoadPostProcessor(e, 0, p));
  }
  if (Field(top, "decoder", &e) && !e.is_null()) {
    p->has_decoder = true;
    EMBER_RETURN_IF_ERROR(LoadDecoder(e, 0, p));
  }
  return LoadTruncationAndPadding(top, p);
}

}  // namespace ember::tokenizer
