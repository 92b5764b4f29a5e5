// The WordPiece model (docs/tokenizer.md "WordPiece").
#include <algorithm>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

Status WordPieceModel::Tokenize(std::string_view word,
                                std::vector<int32_t>* ids) const {
  auto unk = [&]() -> Status {
    int32_t id = trie.Find(unk_token);
    if (id < 0) {
      return InvalidArgumentError(
          StringPrintf("WordPiece: unk_token \"%.*s\" is not in the vocabulary",
                       static_cast<int>(std::min<size_t>(unk_token.size(), 64)),
                       unk_token.data()));
    }
    ids->push_back(id);
    return Status::Ok();
  };
  const auto* bytes = reinterpret_cast<const uint8_t*>(word.data());
  const size_t size = word.size();
  uint64_t chars = 0;
  for (size_t i = 0; i < size; ++i) chars += (bytes[i] & 0xC0) != 0x80;
  if (chars > max_input_chars_per_word) return unk();

  // `tokenizers` tries the rest of the word, then one character shorter,
  // ... and takes the first that is a token: the longest token that is a
  // prefix of the rest. The trie finds it in one walk (a token is valid
  // UTF-8, so it ends on a character boundary), so a word costs its length
  // times the longest token, not its length cubed.
  const size_t first = ids->size();
  for (size_t start = 0; start < size;) {
    uint32_t node = start == 0 ? PieceTrie::root() : prefix_node;
    size_t best_end = 0;
    int32_t best_id = -1;
    for (size_t i = start; i < size && node != PieceTrie::kNone; ++i) {
      node = trie.Child(node, bytes[i]);
      if (node != PieceTrie::kNone && trie.Value(node) >= 0) {
        best_end = i + 1;
        best_id = trie.Value(node);
      }
    }
    if (best_id < 0) {
      // A part that no token starts: the whole word is the unk token.
      ids->resize(first);
      return unk();
    }
    ids->push_back(best_id);
    start = best_end;
  }
  return Status::Ok();
}

Status WordPieceModel::TokenizeWithSpans(std::string_view word,
                                         std::vector<int32_t>* ids,
                                         std::vector<ByteSpan>* spans) const {
  // The pieces follow each other through the word: each spans its token's
  // bytes, less the prefix after the first; the unk token spans the whole
  // word (`tokenizers`' offsets).
  const size_t first = ids->size();
  EMBER_RETURN_IF_ERROR(Tokenize(word, ids));
  const size_t whole = word.size();
  const size_t base = spans->size();
  size_t at = 0;
  for (size_t i = first; i < ids->size(); ++i) {
    size_t length = vocab_r[(*ids)[i]].size();
    if (i > first) length -= std::min(length, continuing_subword_prefix.size());
    spans->push_back({static_cast<uint32_t>(std::min(at, whole)),
                      static_cast<uint32_t>(std::min(at + length, whole))});
    at += length;
  }
  if (at != whole) {
    // Only the unk token does not spell the word: it spans all of it.
    for (size_t k = base; k < spans->size(); ++k) {
      (*spans)[k] = {0, static_cast<uint32_t>(whole)};
    }
  }
  return Status::Ok();
}

std::optional<std::string_view> WordPieceModel::IdToToken(int32_t id) const {
  if (id >= 0 && static_cast<size_t>(id) < has_id.size() && has_id[id]) {
    return std::string_view(vocab_r[id]);
  }
  return std::nullopt;
}

std::optional<int32_t> WordPieceModel::TokenToId(std::string_view token) const {
  int32_t id = trie.Find(token);
  if (id < 0) return std::nullopt;
  return id;
}

Result<std::unique_ptr<Model>> LoadWordPieceModel(const object& o) {
  auto model = std::make_unique<WordPieceModel>();
  WordPieceModel& m = *model;
  constexpr std::string_view kWhere = "model WordPiece";
  // All four fields are required, as in `tokenizers`.
  EMBER_ASSIGN_OR_RETURN(std::string_view unk,
                         GetString(o, "unk_token", kWhere));
  m.unk_token = unk;
  EMBER_ASSIGN_OR_RETURN(std::string_view prefix,
                         GetString(o, "continuing_subword_prefix", kWhere));
  if (prefix.size() > Tokenizer::kMaxTokenBytes) {
    return InvalidArgumentError(
        StringPrintf("model WordPiece: continuing_subword_prefix is over %zu "
                     "bytes long",
                     Tokenizer::kMaxTokenBytes));
  }
  m.continuing_subword_prefix = prefix;
  EMBER_ASSIGN_OR_RETURN(
      m.max_input_chars_per_word,
      GetUint(o, "max_input_chars_per_word", kWhere, UINT64_MAX));
  TokenIdVocab vocab;
  EMBER_RETURN_IF_ERROR(LoadTokenIdVocab(o, kWhere, &vocab));
  m.vocab_count = vocab.tokens.size();
  EMBER_RETURN_IF_ERROR(m.trie.Build(vocab.tokens, vocab.ids),
                        "model WordPiece");
  m.vocab_r = std::move(vocab.vocab_r);
  m.has_id = std::move(vocab.has_id);
  m.prefix_node = m.trie.Walk(PieceTrie::root(), m.continuing_subword_prefix);
  return std::unique_ptr<Model>(std::move(model));
}

}  // namespace ember::tokenizer
