// The WordLevel model (docs/tokenizer.md "WordLevel") and the token -> id
// vocabulary it shares with WordPiece.
#include <algorithm>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

Status LoadTokenIdVocab(const object& model, std::string_view where,
                        TokenIdVocab* out) {
  const int where_len = static_cast<int>(where.size());
  element ve;
  object vocab;
  if (!Field(model, "vocab", &ve) ||
      ve.get_object().get(vocab) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        StringPrintf("%.*s: \"vocab\" is missing or not an object", where_len,
                     where.data()));
  }
  size_t count = vocab.size();
  if (count > Tokenizer::kMaxVocab) {
    return ResourceExhaustedError(
        StringPrintf("%.*s: %zu tokens, over the limit of %zu", where_len,
                     where.data(), count, Tokenizer::kMaxVocab));
  }
  // The id -> token table stays proportional to the file: `tokenizers`
  // takes any u32, Ember ids below 2 * tokens + 65536.
  const uint64_t max_id = std::min<uint64_t>(
      2 * static_cast<uint64_t>(count) + 65536, INT32_MAX - 1);
  std::unordered_map<std::string_view, size_t> index;  // token -> slot
  index.reserve(count);
  out->tokens.clear();
  out->ids.clear();
  out->tokens.reserve(count);
  out->ids.reserve(count);
  size_t total_bytes = 0;
  for (auto field : vocab) {
    const int shown = static_cast<int>(std::min<size_t>(field.key.size(), 64));
    uint64_t id = 0;
    if (field.value.get_uint64().get(id) != simdjson::SUCCESS || id > max_id) {
      return InvalidArgumentError(StringPrintf(
          "%.*s: the id of token \"%.*s\" is not an integer in [0, %llu]",
          where_len, where.data(), shown, field.key.data(),
          static_cast<unsigned long long>(max_id)));
    }
    if (field.key.size() > Tokenizer::kMaxTokenBytes) {
      return InvalidArgumentError(StringPrintf(
          "%.*s: token \"%.*s...\" is %zu bytes long, over the limit of %zu",
          where_len, where.data(), shown, field.key.data(), field.key.size(),
          Tokenizer::kMaxTokenBytes));
    }
    total_bytes += field.key.size();
    if (total_bytes > kMaxModelVocabBytes) {
      return ResourceExhaustedError(
          StringPrintf("%.*s: the tokens hold over %zu bytes", where_len,
                       where.data(), kMaxModelVocabBytes));
    }
    auto [it, inserted] = index.emplace(field.key, out->tokens.size());
    if (inserted) {
      out->tokens.push_back(field.key);
      out->ids.push_back(static_cast<int32_t>(id));
    } else {
      out->ids[it->second] = static_cast<int32_t>(id);
    }
  }
  int32_t largest = -1;
  for (int32_t id : out->ids) largest = std::max(largest, id);
  out->vocab_r.assign(static_cast<size_t>(largest + 1), std::string());
  out->has_id.assign(static_cast<size_t>(largest + 1), 0);
  for (size_t i = 0; i < out->tokens.size(); ++i) {
    int32_t id = out->ids[i];
    if (out->has_id[id]) {
      // `tokenizers` keeps one of the two, whichever its hash order gives.
      return InvalidArgumentError(StringPrintf(
          "%.*s: id %d is given to two tokens (\"%.*s\" and \"%.*s\")",
          where_len, where.data(), id,
          static_cast<int>(std::min<size_t>(out->vocab_r[id].size(), 64)),
          out->vocab_r[id].data(),
          static_cast<int>(std::min<size_t>(out->tokens[i].size(), 64)),
          out->tokens[i].data()));
    }
    out->has_id[id] = 1;
    out->vocab_r[id] = std::string(out->tokens[i]);
  }
  return Status::Ok();
}

Status WordLevelModel::TokenizeWithSpans(std::string_view word,
                                         std::vector<int32_t>* ids,
                                         std::vector<ByteSpan>* spans) const {
  // One token (the word's or unk), spanning the word.
  const size_t first = ids->size();
  EMBER_RETURN_IF_ERROR(Tokenize(word, ids));
  spans->resize(spans->size() + (ids->size() - first),
                {0, static_cast<uint32_t>(word.size())});
  return Status::Ok();
}

Status WordLevelModel::Tokenize(std::string_view word,
                                std::vector<int32_t>* ids) const {
  // `tokenizers` never runs a model on an empty word (an empty text has no
  // ids even where "" is a token).
  if (word.empty()) return Status::Ok();
  auto it = vocab.find(word);
  if (it != vocab.end()) {
    ids->push_back(it->second);
    return Status::Ok();
  }
  auto unk = vocab.find(unk_token);
  if (unk == vocab.end()) {
    return InvalidArgumentError(StringPrintf(
        "WordLevel: a word is not in the vocabulary and unk_token \"%.*s\" is "
        "not either",
        static_cast<int>(std::min<size_t>(unk_token.size(), 64)),
        unk_token.data()));
  }
  ids->push_back(unk->second);
  return Status::Ok();
}

std::optional<std::string_view> WordLevelModel::IdToToken(int32_t id) const {
  if (id >= 0 && static_cast<size_t>(id) < has_id.size() && has_id[id]) {
    return std::string_view(vocab_r[id]);
  }
  return std::nullopt;
}

std::optional<int32_t> WordLevelModel::TokenToId(std::string_view token) const {
  auto it = vocab.find(token);
  if (it == vocab.end()) return std::nullopt;
  return it->second;
}

Result<std::unique_ptr<Model>> LoadWordLevelModel(const object& o) {
  auto model = std::make_unique<WordLevelModel>();
  WordLevelModel& m = *model;
  constexpr std::string_view kWhere = "model WordLevel";
  // Both fields are required, as in `tokenizers`.
  EMBER_ASSIGN_OR_RETURN(std::string_view unk,
                         GetString(o, "unk_token", kWhere));
  m.unk_token = unk;
  TokenIdVocab vocab;
  EMBER_RETURN_IF_ERROR(LoadTokenIdVocab(o, kWhere, &vocab));
  m.vocab.reserve(vocab.tokens.size());
  for (size_t i = 0; i < vocab.tokens.size(); ++i) {
    m.vocab.emplace(std::string(vocab.tokens[i]), vocab.ids[i]);
  }
  m.vocab_r = std::move(vocab.vocab_r);
  m.has_id = std::move(vocab.has_id);
  return std::unique_ptr<Model>(std::move(model));
}

}  // namespace ember::tokenizer
