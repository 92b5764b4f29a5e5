// Added tokens: loaded and indexed after the model and normalizers, and
// matched leftmost-longest in the raw and the normalized text before
// anything else runs (docs/tokenizer.md "Added tokens").
#include <algorithm>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

void TokenTrie::Add(std::string_view content, int32_t token_index) {
  int32_t node = 0;
  for (char ch : content) {
    auto byte = static_cast<uint8_t>(ch);
    auto& kids = nodes_[node].children;
    auto it = std::lower_bound(kids.begin(), kids.end(), byte,
                               [](const std::pair<uint8_t, int32_t>& a,
                                  uint8_t b) { return a.first < b; });
    if (it != kids.end() && it->first == byte) {
      node = it->second;
    } else {
      auto next = static_cast<int32_t>(nodes_.size());
      kids.insert(it, {byte, next});
      nodes_.push_back(Node{});
      node = next;
    }
  }
  // The first token added with this content wins (like `tokenizers`,
  // which keeps the first of duplicate contents).
  if (nodes_[node].token < 0) nodes_[node].token = token_index;
}

int32_t TokenTrie::LongestAt(std::string_view text, size_t pos,
                             size_t* length) const {
  int32_t node = 0, best = -1;
  for (size_t i = pos; i < text.size(); ++i) {
    auto byte = static_cast<uint8_t>(text[i]);
    const auto& kids = nodes_[node].children;
    auto it = std::lower_bound(kids.begin(), kids.end(), byte,
                               [](const std::pair<uint8_t, int32_t>& a,
                                  uint8_t b) { return a.first < b; });
    if (it == kids.end() || it->first != byte) break;
    node = it->second;
    if (nodes_[node].token >= 0) {
      best = nodes_[node].token;
      *length = i + 1 - pos;
    }
  }
  return best;
}

Status LoadAddedTokens(const element& e, Pipeline* p) {
  if (e.is_null()) return Status::Ok();
  array tokens;
  if (e.get_array().get(tokens) != simdjson::SUCCESS) {
    return InvalidArgumentError("\"added_tokens\" is not an array");
  }
  if (tokens.size() > Tokenizer::kMaxAddedTokens) {
    return ResourceExhaustedError(
        StringPrintf("%zu added tokens, over the limit of %zu", tokens.size(),
                     Tokenizer::kMaxAddedTokens));
  }
  size_t index = 0;
  for (element t : tokens) {
    object o;
    if (t.get_object().get(o) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          StringPrintf("added token %zu is not an object", index));
    }
    AddedToken token;
    EMBER_ASSIGN_OR_RETURN(std::string_view content,
                           GetString(o, "content", "added token"));
    if (content.empty() || content.size() > Tokenizer::kMaxTokenBytes) {
      return InvalidArgumentError(
          StringPrintf("added token %zu: content is empty or over %zu bytes",
                       index, Tokenizer::kMaxTokenBytes));
    }
    token.content = content;
    EMBER_ASSIGN_OR_RETURN(uint64_t id,
                           GetUint(o, "id", "added token", INT32_MAX - 1));
    token.id = static_cast<int32_t>(id);
    EMBER_ASSIGN_OR_RETURN(token.special,
                           GetBool(o, "special", "added token", false));
    EMBER_ASSIGN_OR_RETURN(
        token.normalized,
        GetBool(o, "normalized", "added token", !token.special));
    for (std::string_view flag : {"lstrip", "rstrip", "single_word"}) {
      EMBER_ASSIGN_OR_RETURN(bool set, GetBool(o, flag, "added token", false));
      if (set) {
        return UnimplementedError(StringPrintf(
            "tokenizer.json added token \"%.*s\": \"%.*s\": true is not "
            "implemented",
            static_cast<int>(std::min<size_t>(content.size(), 64)),
            content.data(), static_cast<int>(flag.size()), flag.data()));
      }
    }
    p->added.push_back(std::move(token));
    ++index;
  }
  return Status::Ok();
}

// Indexes the added tokens once the model and normalizers are known: ids
// beyond the model's vocabulary need a bound too, and normalized tokens are
// matched by their normalized content.
Status IndexAddedTokens(Pipeline* p) {
  const uint64_t max_id = p->model->IdLimit() + Tokenizer::kMaxAddedTokens;
  std::string normalized;
  for (size_t i = 0; i < p->added.size(); ++i) {
    const AddedToken& t = p->added[i];
    if (static_cast<uint64_t>(t.id) > max_id) {
      return InvalidArgumentError(StringPrintf(
          "added token %zu: id %d is far beyond the vocabulary", i, t.id));
    }
    std::optional<int32_t> model_id = p->model->TokenToId(t.content);
    if (model_id && *model_id != t.id) {
      return InvalidArgumentError(StringPrintf(
          "added token %zu: id %d differs from the model's id %d for the same "
          "content",
          i, t.id, *model_id));
    }
    if (!p->added_by_id.emplace(t.id, i).second) {
      return InvalidArgumentError(StringPrintf(
          "added token %zu: id %d is given to two added tokens", i, t.id));
    }
    p->added_by_content.emplace(t.content, t.id);
    if (t.special) p->special_contents.insert(t.content);
    if (t.normalized && !p->normalizers.empty()) {
      EMBER_RETURN_IF_ERROR(p->Normalize(t.content, &normalized));
      if (!normalized.empty()) {
        p->normalized_trie.Add(normalized, static_cast<int32_t>(i));
      }
    } else if (t.normalized) {
      p->normalized_trie.Add(t.content, static_cast<int32_t>(i));
    } else {
      p->raw_trie.Add(t.content, static_cast<int32_t>(i));
    }
  }
  return Status::Ok();
}

Status Pipeline::EncodeText(std::string_view text, const EncodeOptions& options,
                            std::vector<int32_t>* ids) const {
  // Cuts `piece` at the added tokens of `trie`, calling `on_text` for the
  // text between them.
  // `on_text(sub, offset)` gets each piece of text and its offset in `piece`.
  auto split = [&](const TokenTrie& trie, std::string_view piece,
                   auto&& on_text) -> Status {
    if (trie.empty()) return on_text(piece, size_t{0});
    size_t start = 0, pos = 0;
    while (pos < piece.size()) {
      size_t length = 0;
      int32_t index = trie.LongestAt(piece, pos, &length);
      if (index < 0) {
        ++pos;
        continue;
      }
      const AddedToken& token = added[index];
      if (!(token.special && options.no_special_token_matching)) {
        if (pos > start)
          EMBER_RETURN_IF_ERROR(
              on_text(piece.substr(start, pos - start), start));
        ids->push_back(token.id);
        start = pos + length;
      }
      // A skipped special token is still consumed by the scan, as in
      // `tokenizers` (its matcher moves past every match).
      pos += length;
    }
    if (start < piece.size() || piece.empty()) {
      EMBER_RETURN_IF_ERROR(on_text(piece.substr(start), start));
    }
    return Status::Ok();
  };
  std::string normalized;
  return split(
      raw_trie, text, [&](std::string_view piece, size_t offset) -> Status {
        EMBER_RETURN_IF_ERROR(Normalize(piece, &normalized));
        std::string_view n = normalized;
        return split(normalized_trie, n,
                     [&](std::string_view sub, size_t sub_offset) -> Status {
                       return EncodeNormalizedPiece(
                           sub, offset == 0 && sub_offset == 0, ids);
                     });
      });
}

std::optional<std::string_view> Pipeline::IdToToken(int32_t id) const {
  auto it = added_by_id.find(id);
  if (it != added_by_id.end())
    return std::string_view(added[it->second].content);
  return model->IdToToken(id);
}

}  // namespace ember::tokenizer
