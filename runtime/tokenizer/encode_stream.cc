// EncodeStream: Tokenizer::Encode of text that comes a chunk at a time,
// returning ids as soon as no later text can change them
// (docs/tokenizer.md "Streaming encode").
//
// Where ids become final:
//  - Added tokens matched in the raw text cut it into pieces that are
//    encoded independently; a match is final once no longer token can
//    start at its position (the text after it is not a proper prefix of a
//    token's content) and no token can start earlier. The text before it
//    and the token are then encoded and emitted.
//  - Inside a piece, for the pre-tokenizers whose regex looks a bounded
//    distance past a match (GPT-2's ByteLevel regex; the tiktoken
//    patterns; a Split with Llama 3's, Qwen2's or GPT-2's pattern), with
//    no normalizer, a word is final when at least kSettledChars characters
//    follow it and one of them is not whitespace. Those regexes decide a
//    match at s from the text up to its end plus at most three characters
//    (a contraction such as 'll, a (?!\S)) -- except that a run of
//    whitespace is read to its end (\s*[\r\n], \s++$ and \s+(?!\S) all
//    scan the whole run). A non-whitespace character before the end of the
//    settled text ends any such run, so every match before the cut was
//    decided by text that is already here. The regexes have no lookbehind
//    and no ^ or \b, so matching resumes at the cut exactly as it would
//    have in the whole text.
//  - Anything else (normalizers, which can join characters across a cut;
//    no pre-tokenizer, where the whole piece is one word; other
//    pre-tokenizers or regexes from a file) emits at added tokens only.
//  - Added tokens with lstrip, rstrip or single_word look at the text
//    around them, Metaspace's prepend_scheme "first" at where a piece
//    starts, and a post-processor that does more than add ids around the
//    sequence needs all of it: those pipelines encode everything at
//    Finalize.
#include <algorithm>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {

namespace {

// Characters that must follow a word, one of them not whitespace, before
// the word is emitted (see the top of this file: 3 would do).
constexpr size_t kSettledChars = 8;

// A superset of what the regexes' \s matches (White_Space), so that "not
// whitespace" here is never whitespace to a regex.
bool IsSpaceLike(uint32_t c) {
  if (c <= 0x20) return c == 0x20 || (c >= 0x09 && c <= 0x0D) || c >= 0x1C;
  switch (c) {
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x180E:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
    case 0xFEFF: return true;
    default: return c >= 0x2000 && c <= 0x200B;
  }
}

constexpr int32_t kSentinel = INT32_MIN;

// Split patterns of `tokenizer.json` files (as the files write them, for
// Oniguruma) that look a bounded distance past a match, like the tiktoken
// ones: Llama 3's (cl100k's first form), Qwen2's (digits one by one) and
// GPT-2's. A Split regex streams word by word when its compiled PCRE2
// source equals one of theirs.
bool IsBoundedSplitRegex(const Regex& regex) {
  static const std::vector<std::string> known = [] {
    std::vector<std::string> out;
    for (
        std::string_view pattern : {
            R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
            R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
            R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)",
        }) {
      auto regex = Regex::CompileOniguruma(pattern);
      if (regex.ok()) out.push_back((*regex)->source());
    }
    return out;
  }();
  return std::find(known.begin(), known.end(), regex.source()) != known.end();
}

}  // namespace

std::unique_ptr<EncodeStream> Tokenizer::NewEncodeStream(
    const EncodeOptions& options) const {
  return std::unique_ptr<EncodeStream>(new EncodeStream(this, options));
}

EncodeStream::EncodeStream(const Tokenizer* tokenizer,
                           const EncodeOptions& options)
    : tokenizer_(tokenizer), options_(options) {
  const Pipeline& p = *tokenizer->pipeline_;
  // What the post-processor puts around the sequence: run it on a lone
  // sentinel id.
  std::vector<int32_t> probe{kSentinel};
  if (p.PostProcess(options.add_special_tokens, &probe).ok() &&
      std::count(probe.begin(), probe.end(), kSentinel) == 1) {
    auto at = std::find(probe.begin(), probe.end(), kSentinel);
    prefix_.assign(probe.begin(), at);
    suffix_.assign(at + 1, probe.end());
  } else {
    buffer_all_ = true;
  }
  for (const AddedToken& token : p.added) {
    if (!token.normalized &&
        (token.lstrip || token.rstrip || token.single_word)) {
      buffer_all_ = true;
    }
  }
  for (const PreTokenizer& step : p.pre_tokenizers) {
    if (step.kind == PreTokenizer::Kind::kMetaspace &&
        step.prepend_scheme == PreTokenizer::PrependScheme::kFirst) {
      buffer_all_ = true;
    }
  }
  // Truncation keeps the last tokens (or needs the count) and padding the
  // total: both need the whole text.
  if (p.truncation.enabled || p.padding.enabled) buffer_all_ = true;
  const auto& steps = p.pre_tokenizers;
  bool byte_level_regex = steps.size() == 1 &&
                          steps[0].kind == PreTokenizer::Kind::kByteLevel &&
                          steps[0].use_regex && steps[0].regex;
  bool bounded_split =
      steps.size() == 2 && steps[0].kind == PreTokenizer::Kind::kSplit &&
      steps[0].regex && !steps[0].regex->MayMatchEmpty() &&
      (p.stream_words_bounded || IsBoundedSplitRegex(*steps[0].regex)) &&
      steps[0].behavior == PreTokenizer::Behavior::kIsolated &&
      !steps[0].invert && steps[1].kind == PreTokenizer::Kind::kByteLevel &&
      !steps[1].use_regex && !steps[1].add_prefix_space;
  words_ = (byte_level_regex || bounded_split) && p.normalizers.empty() &&
           p.normalized_trie.empty();
  // The contents matched in the raw text: added_by_content also holds
  // aliases (tiktoken's o200k_harmony gives one id two strings).
  auto is_raw = [&p](int32_t id) {
    auto it = p.added_by_id.find(id);
    return it != p.added_by_id.end() && !p.added[it->second].normalized;
  };
  std::call_once(p.raw_prefixes_once, [&p, &is_raw] {
    for (const auto& [content, id] : p.added_by_content) {
      if (!is_raw(id)) continue;
      for (size_t n = 1; n < content.size(); ++n) {
        p.raw_prefixes.emplace(content.substr(0, n));
      }
    }
  });
  for (const auto& [content, id] : p.added_by_content) {
    if (is_raw(id)) {
      max_token_bytes_ = std::max(max_token_bytes_, content.size());
    }
  }
}

Status EncodeStream::Feed(std::string_view chunk, std::vector<int32_t>* ids) {
  if (finalized_) {
    return FailedPreconditionError(
        "cannot feed an encode stream after "
        "Finalize");
  }
  // Hold back a UTF-8 sequence that the chunk cut short.
  partial_.append(chunk);
  size_t keep = 0;
  for (size_t back = 1; back <= 3 && back <= partial_.size(); ++back) {
    auto b = static_cast<uint8_t>(partial_[partial_.size() - back]);
    if ((b & 0xC0) == 0x80) continue;  // a continuation byte
    if (b >= 0xC2 && b <= 0xF4 && Utf8Length(b) > back) keep = back;
    break;
  }
  std::string_view complete(partial_.data(), partial_.size() - keep);
  if (!IsValidUtf8(complete)) {
    return InvalidArgumentError(
        "text fed to the encode stream is not valid "
        "UTF-8");
  }
  if (text_.size() + complete.size() > Tokenizer::kMaxJsonBytes) {
    return ResourceExhaustedError(
        "an encode stream holds over 1 GiB of text it cannot encode yet");
  }
  text_.append(complete);
  partial_.erase(0, complete.size());
  if (buffer_all_) return Status::Ok();
  return Drain(/*final=*/false, ids);
}

Status EncodeStream::Finalize(std::vector<int32_t>* ids) {
  if (finalized_) {
    return FailedPreconditionError("the encode stream is already finalized");
  }
  finalized_ = true;
  if (!partial_.empty()) {
    return InvalidArgumentError(
        "text fed to the encode stream ends inside a "
        "UTF-8 sequence");
  }
  if (buffer_all_) return tokenizer_->Encode(text_, options_, ids);
  EMBER_RETURN_IF_ERROR(Drain(/*final=*/true, ids));
  ids->insert(ids->end(), suffix_.begin(), suffix_.end());
  return Status::Ok();
}

bool EncodeStream::MayStartToken(size_t pos) const {
  size_t rest = text_.size() - pos;
  if (rest == 0 || rest >= max_token_bytes_) return false;
  const Pipeline& p = *tokenizer_->pipeline_;
  return p.raw_prefixes.count(std::string_view(text_).substr(pos)) != 0;
}

Status EncodeStream::Drain(bool final, std::vector<int32_t>* ids) {
  const Pipeline& p = *tokenizer_->pipeline_;
  if (!started_) {
    ids->insert(ids->end(), prefix_.begin(), prefix_.end());
    started_ = true;
  }
  // The raw added tokens: every final match closes a piece.
  size_t begin = 0;  // where the current piece starts in text_
  size_t pos = scanned_, hold = text_.size();
  std::string_view text = text_;
  while (pos < text.size()) {
    if (!final && MayStartToken(pos)) {
      hold = pos;
      break;
    }
    size_t length = 0;
    int32_t index =
        p.raw_trie.empty() ? -1 : p.raw_trie.LongestAt(text, pos, &length);
    if (index < 0) {
      ++pos;
      continue;
    }
    const AddedToken& token = p.added[index];
    if (token.special && options_.no_special_token_matching) {
      pos += length;  // consumed by the scan, as in Pipeline::EncodeText
      continue;
    }
    size_t consumed = 0;
    if (pos > begin) {
      EMBER_RETURN_IF_ERROR(EncodePiece(text.substr(begin, pos - begin),
                                        /*final=*/true, 0, &consumed, ids));
    }
    ids->push_back(token.id);
    pos += length;
    begin = pos;
    at_start_ = false;
    piece_fresh_ = true;
  }
  // The open piece: all of it at the end, its settled words before.
  std::string_view open = text.substr(begin);
  size_t consumed = 0;
  if (final) {
    if (!open.empty() || at_start_) {
      EMBER_RETURN_IF_ERROR(EncodePiece(open, true, 0, &consumed, ids));
    }
    consumed = open.size();
  } else if (words_ && (begin > 0 || open.size() >= retry_at_)) {
    // Each try runs the regex over the whole held text; trying again only
    // once that text has doubled keeps a stream that cannot cut (a long
    // run of spaces fed a byte at a time) linear.
    EMBER_RETURN_IF_ERROR(
        EncodeWords(open, false, hold - begin, &consumed, ids));
    retry_at_ = 2 * (open.size() - consumed);
  }
  size_t erase = begin + consumed;
  if (erase > 0) {
    text_.erase(0, erase);
    at_start_ = false;
  }
  scanned_ = (final ? text.size() : std::max(hold, erase)) - erase;
  return Status::Ok();
}

Status EncodeStream::EncodePiece(std::string_view piece, bool final,
                                 size_t limit, size_t* consumed,
                                 std::vector<int32_t>* ids) {
  if (words_) return EncodeWords(piece, final, limit, consumed, ids);
  // A whole piece (no added token inside it) through the ordinary path.
  // Only its start differs from the one-shot encode, which nothing in a
  // pipeline streamed here looks at.
  EncodeOptions options = options_;
  options.add_special_tokens = false;
  *consumed = piece.size();
  const Pipeline& p = *tokenizer_->pipeline_;
  return p.EncodeText(piece, options, ids);
}

Status EncodeStream::EncodeWords(std::string_view piece, bool final,
                                 size_t limit, size_t* consumed,
                                 std::vector<int32_t>* ids) {
  const Pipeline& p = *tokenizer_->pipeline_;
  const PreTokenizer& step = p.pre_tokenizers[0];
  *consumed = 0;
  // ByteLevel's add_prefix_space puts a space before the piece once.
  std::string prefixed;
  size_t added = 0;
  if (piece_fresh_ && step.kind == PreTokenizer::Kind::kByteLevel &&
      step.add_prefix_space && !piece.empty() && piece[0] != ' ') {
    prefixed.reserve(piece.size() + 1);
    prefixed.push_back(' ');
    prefixed.append(piece);
    piece = prefixed;
    limit += 1;
    added = 1;
  }
  if (piece.empty()) return Status::Ok();
  // The words: every match and every gap between them (Isolated).
  std::vector<size_t> ends;
  size_t last = 0;
  EMBER_RETURN_IF_ERROR(
      step.regex->ForEachMatch(piece, [&](size_t start, size_t end) {
        if (start > last) ends.push_back(start);
        ends.push_back(end);
        last = end;
      }));
  if (last < piece.size()) ends.push_back(piece.size());
  size_t cut = piece.size();
  if (!final) {
    // The last word end with kSettledChars characters after it, below
    // `limit`, one of them not whitespace.
    cut = 0;
    size_t chars = 0;
    bool settled = false;
    size_t i = limit;
    for (size_t k = ends.size(); k-- > 0;) {
      size_t e = ends[k];
      if (e > limit) continue;
      while (i > e) {
        --i;
        auto b = static_cast<uint8_t>(piece[i]);
        if ((b & 0xC0) == 0x80) continue;
        size_t w = 0;
        ++chars;
        if (!IsSpaceLike(DecodeCodePoint(piece, i, &w))) settled = true;
      }
      if (settled && chars >= kSettledChars) {
        cut = e;
        break;
      }
    }
    if (cut == 0) return Status::Ok();
  }
  std::string mapped;
  size_t start = 0;
  for (size_t e : ends) {
    if (e > cut) break;
    mapped.clear();
    for (size_t j = start; j < e; ++j) {
      mapped += ByteLevelChar(static_cast<uint8_t>(piece[j]));
    }
    EMBER_RETURN_IF_ERROR(p.model->Tokenize(mapped, ids));
    start = e;
  }
  *consumed = cut - added;
  piece_fresh_ = final;
  return Status::Ok();
}

}  // namespace ember::tokenizer
