// Added tokens: loaded and indexed after the model and normalizers, and
// matched leftmost-longest in the raw and the normalized text before
// anything else runs (docs/tokenizer.md "Added tokens").
#include <algorithm>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

void TokenTrie::Add(std::string_view content, int32_t token_index) {
  if (!content.empty()) starts_[static_cast<uint8_t>(content[0])] = true;
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
  if (pos >= text.size() || !starts_[static_cast<uint8_t>(text[pos])]) {
    return -1;
  }
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
    EMBER_ASSIGN_OR_RETURN(token.lstrip,
                           GetBool(o, "lstrip", "added token", false));
    EMBER_ASSIGN_OR_RETURN(token.rstrip,
                           GetBool(o, "rstrip", "added token", false));
    EMBER_ASSIGN_OR_RETURN(token.single_word,
                           GetBool(o, "single_word", "added token", false));
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
      // `tokenizers` also returns the normalized content for the id
      // (id_to_token and decode, its normalized_cache).
      if (normalized != t.content) p->added[i].normalized_content = normalized;
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

namespace {

// Rust regex's `\s` (Unicode White_Space), which `tokenizers` uses for
// lstrip/rstrip (docs/tokenizer.md "Added tokens").
bool IsRustSpace(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
         c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// Rust regex's `\w`: Alphabetic, M, Nd, Pc and Join_Control, in the
// Unicode version of `tokenizers` 0.23 (16). Alphabetic is L, Nl and
// Other_Alphabetic, whose members outside M are the circled and squared
// Latin letters. Built on the Oniguruma category classes (the same
// Unicode 16 data, regex_classes.cc); measured against `tokenizers` on
// every code point (tests/python/test_tokenizer_post_decode.py).
const Regex* WordCharRegex() {
  static const std::shared_ptr<const Regex> regex = [] {
    std::string pattern = "^[";
    for (std::string_view name : {"L", "M", "Nd", "Nl", "Pc"}) {
      pattern += *OnigurumaClassBody(name);
    }
    pattern +=
        "\\x{200C}\\x{200D}\\x{24B6}-\\x{24E9}\\x{1F130}-\\x{1F149}"
        "\\x{1F150}-\\x{1F169}\\x{1F170}-\\x{1F189}]";
    auto compiled = Regex::Compile(pattern);
    return compiled.ok() ? *compiled : nullptr;
  }();
  return regex.get();
}

Result<bool> IsRustWordChar(std::string_view ch) {
  const Regex* regex = WordCharRegex();
  if (!regex) return InternalError("the word-character class does not compile");
  bool found = false;
  EMBER_RETURN_IF_ERROR(regex->ForEachMatch(
      ch, [&](size_t start, size_t) { found = found || start == 0; }));
  return found;
}

// The start of the last code point of `s` (non-empty, valid UTF-8).
size_t LastCharStart(std::string_view s) {
  size_t i = s.size() - 1;
  while (i > 0 && (static_cast<uint8_t>(s[i]) & 0xC0) == 0x80) --i;
  return i;
}

}  // namespace

Status Pipeline::SplitAtAddedTokens(
    const TokenTrie& trie, std::string_view piece, const EncodeOptions& options,
    const std::function<Status(std::string_view, size_t)>& on_text,
    const std::function<void(const AddedToken&, size_t, size_t)>& on_token)
    const {
  if (trie.empty() || piece.empty()) return on_text(piece, size_t{0});
  // `start_offset` is `tokenizers`' name: the end of the last token.
  // rstrip can move it past matches still to come, and such a match
  // then moves it back; kept as is (the ids are what `tokenizers` gives).
  size_t start_offset = 0, pos = 0;
  // The last whitespace run rstrip measured: [run_from, run_to) is all
  // whitespace and run_to is not. A match that ends inside it ends its
  // strip at run_to too, so a long run is scanned once (a whitespace
  // token with rstrip would otherwise rescan it at every match).
  size_t run_from = 0, run_to = 0;
  while (pos < piece.size()) {
    size_t length = 0;
    int32_t index = trie.LongestAt(piece, pos, &length);
    if (index < 0) {
      ++pos;
      continue;
    }
    size_t start = pos, stop = pos + length;
    // The scan moves past every match, used or not, so no other token
    // is found inside a skipped one.
    pos = stop;
    const AddedToken& token = added[index];
    if (token.special && options.no_special_token_matching) continue;
    if (token.single_word) {
      // Word boundaries: the character before and after must not be a
      // `\w` character (or be the start/end of the piece).
      if (start > 0) {
        size_t c = LastCharStart(piece.substr(0, start));
        EMBER_ASSIGN_OR_RETURN(bool word,
                               IsRustWordChar(piece.substr(c, start - c)));
        if (word) continue;
      }
      if (stop < piece.size()) {
        size_t w = Utf8Length(static_cast<uint8_t>(piece[stop]));
        EMBER_ASSIGN_OR_RETURN(bool word,
                               IsRustWordChar(piece.substr(stop, w)));
        if (word) continue;
      }
    }
    if (token.lstrip) {
      // The whitespace before the match, not reaching back past the
      // last token (so each byte is looked at once over the piece).
      size_t s = start;
      while (s > start_offset) {
        size_t c = LastCharStart(piece.substr(0, s)), w = 0;
        if (!IsRustSpace(DecodeCodePoint(piece, c, &w))) break;
        s = c;
      }
      start = std::max(s, start_offset);
    }
    if (token.rstrip) {
      if (stop >= run_from && stop <= run_to) {
        stop = run_to;
      } else {
        run_from = stop;
        while (stop < piece.size()) {
          size_t w = 0;
          if (!IsRustSpace(DecodeCodePoint(piece, stop, &w))) break;
          stop += w;
        }
        run_to = stop;
      }
    }
    if (start_offset < start) {
      EMBER_RETURN_IF_ERROR(on_text(
          piece.substr(start_offset, start - start_offset), start_offset));
    }
    on_token(token, start, stop);
    start_offset = stop;
  }
  if (start_offset != piece.size()) {
    EMBER_RETURN_IF_ERROR(on_text(piece.substr(start_offset), start_offset));
  }
  return Status::Ok();
}

bool Pipeline::MetaspaceFirstNeedsAlignments() const {
  bool rewritten = !normalizers.empty();
  for (const PreTokenizer& step : pre_tokenizers) {
    if (step.kind == PreTokenizer::Kind::kMetaspace &&
        step.prepend_scheme == PreTokenizer::PrependScheme::kFirst &&
        rewritten) {
      return true;
    }
    if (step.kind == PreTokenizer::Kind::kMetaspace ||
        (step.kind == PreTokenizer::Kind::kByteLevel &&
         step.add_prefix_space)) {
      rewritten = true;
    }
  }
  return false;
}

Status Pipeline::EncodeText(std::string_view text, const EncodeOptions& options,
                            std::vector<int32_t>* ids) const {
  if (MetaspaceFirstNeedsAlignments()) {
    // Metaspace's prepend_scheme "first" prepends to a word whose first
    // byte came from the start of the text. After a normalizer (or a
    // pre-tokenizer that adds text) only the alignments tell; without
    // them, a word starts the text when it is first in the first piece.
    std::vector<OffsetToken> tokens;
    EMBER_RETURN_IF_ERROR(EncodeTextWithOffsets(text, options, &tokens));
    for (const OffsetToken& t : tokens) ids->push_back(t.id);
    return Status::Ok();
  }
  std::string normalized;
  auto on_token = [ids](const AddedToken& token, size_t, size_t) {
    ids->push_back(token.id);
  };
  return SplitAtAddedTokens(
      raw_trie, text, options,
      [&](std::string_view piece, size_t offset) -> Status {
        EMBER_RETURN_IF_ERROR(Normalize(piece, &normalized));
        return SplitAtAddedTokens(
            normalized_trie, normalized, options,
            [&](std::string_view sub, size_t sub_offset) -> Status {
              return EncodeNormalizedPiece(sub, offset == 0 && sub_offset == 0,
                                           ids);
            },
            on_token);
      },
      on_token);
}

std::optional<std::string_view> Pipeline::IdToToken(int32_t id) const {
  auto it = added_by_id.find(id);
  if (it != added_by_id.end()) {
    const AddedToken& token = added[it->second];
    return std::string_view(token.normalized_content.empty()
                                ? token.content
                                : token.normalized_content);
  }
  return model->IdToToken(id);
}

}  // namespace ember::tokenizer
