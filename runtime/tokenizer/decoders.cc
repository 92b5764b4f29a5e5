// The decoders: token strings back to text, at once (RunDecoder) and as a
// stream (DecodeStream) (docs/tokenizer.md "Decode").
#include <algorithm>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

namespace {

// Rust's u8::from_str_radix(s, 16) for the two characters of "<0xAB>": an
// optional '+' and hex digits.
int ParseHexByte(std::string_view s) {
  if (s.empty()) return -1;
  if (s[0] == '+') s.remove_prefix(1);
  if (s.empty()) return -1;
  int value = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      d = c - 'A' + 10;
    } else {
      return -1;
    }
    value = value * 16 + d;
  }
  return value;
}

}  // namespace

Status RunDecoder(const Decoder& d, std::vector<std::string>* tokens) {
  std::vector<std::string>& t = *tokens;
  switch (d.kind) {
    case Decoder::Kind::kByteLevel: {
      std::string bytes;
      for (const std::string& token : t) {
        size_t mark = bytes.size();
        bool all = true;
        for (size_t i = 0; i < token.size();) {
          size_t w = 0;
          uint32_t c = DecodeCodePoint(token, i, &w);
          int b = ByteLevelByte(c);
          if (b < 0) {
            all = false;
            break;
          }
          bytes.push_back(static_cast<char>(b));
          i += w;
        }
        if (!all) {
          bytes.resize(mark);
          bytes += token;
        }
      }
      t.assign(1, Utf8Lossy(bytes));
      return Status::Ok();
    }
    case Decoder::Kind::kReplace: {
      std::string out;
      for (std::string& token : t) {
        if (d.regex) {
          EMBER_RETURN_IF_ERROR(RegexReplace(*d.regex, token, d.content, &out));
        } else {
          ReplaceAll(token, d.text, d.content, &out);
        }
        token.swap(out);
      }
      return Status::Ok();
    }
    case Decoder::Kind::kByteFallback: {
      std::vector<std::string> out;
      std::string pending;
      auto flush = [&] {
        if (pending.empty()) return;
        if (IsValidUtf8(pending)) {
          out.push_back(pending);
        } else {
          for (size_t i = 0; i < pending.size(); ++i)
            out.push_back("\xEF\xBF\xBD");
        }
        pending.clear();
      };
      for (std::string& token : t) {
        int byte = -1;
        if (token.size() == 6 && token.compare(0, 3, "<0x") == 0 &&
            token[5] == '>') {
          byte = ParseHexByte(std::string_view(token).substr(3, 2));
        }
        if (byte >= 0 && byte < 256) {
          pending.push_back(static_cast<char>(byte));
        } else {
          flush();
          out.push_back(std::move(token));
        }
      }
      flush();
      t.swap(out);
      return Status::Ok();
    }
    case Decoder::Kind::kFuse: {
      std::string all;
      for (const std::string& token : t) all += token;
      t.assign(1, std::move(all));
      return Status::Ok();
    }
    case Decoder::Kind::kStrip: {
      for (std::string& token : t) {
        // Character-wise, as `tokenizers` counts.
        std::vector<std::pair<size_t, size_t>> chars;  // (offset, length)
        for (size_t i = 0; i < token.size();) {
          size_t w = Utf8Length(static_cast<uint8_t>(token[i]));
          chars.push_back({i, w});
          i += w;
        }
        auto is_content = [&](size_t k) {
          return std::string_view(token).substr(chars[k].first,
                                                chars[k].second) == d.content;
        };
        size_t start_cut = 0;
        for (size_t k = 0; k < chars.size() && k < d.start; ++k) {
          if (!is_content(k)) break;
          start_cut = k + 1;
        }
        size_t stop_cut = chars.size();
        for (size_t k = 0; k < chars.size() && k < d.stop; ++k) {
          size_t index = chars.size() - 1 - k;
          if (!is_content(index)) break;
          stop_cut = index;
        }
        if (start_cut >= stop_cut) {
          token.clear();
          continue;
        }
        size_t from = chars[start_cut].first;
        size_t to =
            stop_cut < chars.size() ? chars[stop_cut].first : token.size();
        token = token.substr(from, to - from);
      }
      return Status::Ok();
    }
  }
  return InternalError("unknown decoder");
}

Status LoadDecoder(const element& e, size_t depth, Pipeline* p) {
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return InvalidArgumentError("decoder is not an object");
  }
  EMBER_ASSIGN_OR_RETURN(std::string_view type, TypeOf(o, "decoder"));
  Decoder d;
  if (type == "Sequence") {
    element list;
    array a;
    if (!Field(o, "decoders", &list) ||
        list.get_array().get(a) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          "decoder Sequence: \"decoders\" is not an array");
    }
    if (depth > 8)
      return InvalidArgumentError("decoder Sequences nest too deep");
    for (element child : a)
      EMBER_RETURN_IF_ERROR(LoadDecoder(child, depth + 1, p));
    return Status::Ok();
  } else if (type == "ByteLevel") {
    d.kind = Decoder::Kind::kByteLevel;
  } else if (type == "Replace") {
    d.kind = Decoder::Kind::kReplace;
    EMBER_RETURN_IF_ERROR(LoadPattern(o, "decoder Replace", &d.text, &d.regex));
    EMBER_ASSIGN_OR_RETURN(std::string_view c,
                           GetString(o, "content", "decoder Replace"));
    d.content = c;
  } else if (type == "ByteFallback") {
    d.kind = Decoder::Kind::kByteFallback;
  } else if (type == "Fuse") {
    d.kind = Decoder::Kind::kFuse;
  } else if (type == "Strip") {
    d.kind = Decoder::Kind::kStrip;
    EMBER_ASSIGN_OR_RETURN(std::string_view c,
                           GetString(o, "content", "decoder Strip"));
    EMBER_RETURN_IF_ERROR(CheckOneChar(c, "decoder Strip's content"));
    d.content = c;
    EMBER_ASSIGN_OR_RETURN(d.start,
                           GetUint(o, "start", "decoder Strip", 1u << 30));
    EMBER_ASSIGN_OR_RETURN(d.stop,
                           GetUint(o, "stop", "decoder Strip", 1u << 30));
  } else {
    return Unimplemented("decoder", type);
  }
  p->decoders.push_back(std::move(d));
  return Status::Ok();
}

// ---- streaming decode
// ---------------------------------------------------------

namespace {

// The length of the longest prefix of `bytes` that Utf8Lossy decides
// without seeing what follows: everything but a trailing sequence that is
// valid so far and not complete.
size_t DecidedUtf8Prefix(std::string_view bytes) {
  const auto* s = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t n = bytes.size(), i = 0;
  while (i < n) {
    uint8_t b = s[i];
    size_t w = 1;
    uint8_t lo = 0x80, hi = 0xBF;
    if (b < 0x80) {
      ++i;
      continue;
    } else if (b >= 0xC2 && b <= 0xDF) {
      w = 2;
    } else if (b == 0xE0) {
      w = 3, lo = 0xA0;
    } else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) {
      w = 3;
    } else if (b == 0xED) {
      w = 3, hi = 0x9F;
    } else if (b == 0xF0) {
      w = 4, lo = 0x90;
    } else if (b >= 0xF1 && b <= 0xF3) {
      w = 4;
    } else if (b == 0xF4) {
      w = 4, hi = 0x8F;
    } else {
      ++i;
      continue;
    }
    if (i + 1 >= n) return i;  // a lead byte alone: wait
    if (s[i + 1] < lo || s[i + 1] > hi) {
      ++i;
      continue;
    }
    size_t k = 2;
    while (k < w && i + k < n && (s[i + k] & 0xC0) == 0x80) ++k;
    if (k < w && i + k >= n) return i;  // valid so far, incomplete: wait
    i += k;
  }
  return n;
}

}  // namespace

size_t DecidedUtf8PrefixForTest(std::string_view bytes) {
  return DecidedUtf8Prefix(bytes);
}

namespace {

bool IsByteToken(std::string_view token, char* byte) {
  if (token.size() != 6 || token.substr(0, 3) != "<0x" || token[5] != '>') {
    return false;
  }
  int value = ParseHexByte(token.substr(3, 2));
  if (value < 0 || value > 255) return false;
  *byte = static_cast<char>(value);
  return true;
}

}  // namespace

DecodeStream::DecodeStream(const Tokenizer* tokenizer, bool skip_special_tokens)
    : tokenizer_(tokenizer), skip_special_tokens_(skip_special_tokens) {
  const Pipeline& p = *tokenizer->pipeline_;
  const auto& d = p.decoders;
  using K = Decoder::Kind;
  if (!p.has_decoder) {
    mode_ = Mode::kNoDecoder;
  } else if (d.size() == 1 && d[0].kind == K::kByteLevel) {
    mode_ = Mode::kByteLevel;
  } else if (d.size() == 4 && d[0].kind == K::kReplace && !d[0].regex &&
             d[1].kind == K::kByteFallback && d[2].kind == K::kFuse &&
             d[3].kind == K::kStrip && d[3].stop == 0) {
    mode_ = Mode::kLlama;
    strip_left_ = d[3].start;
  }
}

std::unique_ptr<DecodeStream> Tokenizer::NewDecodeStream(
    bool skip_special_tokens) const {
  return std::unique_ptr<DecodeStream>(
      new DecodeStream(this, skip_special_tokens));
}

// Strip (start only) on the fused text: drop up to strip_left_ leading
// content characters; the first other character ends the stripping.
void DecodeStream::EmitStripped(std::string_view piece, std::string* text) {
  const std::string& content = tokenizer_->pipeline_->decoders[3].content;
  while (strip_left_ > 0 && !piece.empty()) {
    if (piece.substr(0, content.size()) != content) {
      strip_left_ = 0;
      break;
    }
    piece.remove_prefix(content.size());
    --strip_left_;
  }
  text->append(piece);
}

void DecodeStream::FlushByteRun(std::string* text) {
  if (pending_.empty()) return;
  if (IsValidUtf8(pending_)) {
    EmitStripped(pending_, text);
  } else {
    for (size_t i = 0; i < pending_.size(); ++i) {
      EmitStripped("\xEF\xBF\xBD", text);
    }
  }
  pending_.clear();
}

Status DecodeStream::Feed(std::span<const int32_t> ids, std::string* text) {
  if (finalized_) return FailedPreconditionError("decode stream is finalized");
  const Pipeline& p = *tokenizer_->pipeline_;
  if (mode_ == Mode::kBuffer) {
    for (int32_t id : ids) {
      if (!p.IdToToken(id)) {
        return OutOfRangeError(
            StringPrintf("token id %d is not in the vocabulary", id));
      }
    }
    buffered_.insert(buffered_.end(), ids.begin(), ids.end());
    return Status::Ok();
  }
  std::string replaced;
  for (int32_t id : ids) {
    auto token = p.IdToToken(id);
    if (!token) {
      return OutOfRangeError(
          StringPrintf("token id %d is not in the vocabulary (%zu tokens)", id,
                       tokenizer_->vocab_size()));
    }
    if (skip_special_tokens_ && p.special_contents.count(std::string(*token))) {
      continue;
    }
    switch (mode_) {
      case Mode::kNoDecoder:
        if (started_) text->push_back(' ');
        text->append(*token);
        started_ = true;
        break;
      case Mode::kByteLevel: {
        size_t mark = pending_.size();
        for (size_t i = 0; i < token->size();) {
          size_t w = 0;
          int b = ByteLevelByte(DecodeCodePoint(*token, i, &w));
          if (b < 0) {
            pending_.resize(mark);
            pending_.append(*token);
            break;
          }
          pending_.push_back(static_cast<char>(b));
          i += w;
        }
        size_t decided = DecidedUtf8Prefix(pending_);
        text->append(Utf8Lossy(std::string_view(pending_).substr(0, decided)));
        pending_.erase(0, decided);
        break;
      }
      case Mode::kLlama: {
        const Decoder& replace = p.decoders[0];
        ReplaceAll(*token, replace.text, replace.content, &replaced);
        char byte;
        if (IsByteToken(replaced, &byte)) {
          pending_.push_back(byte);
        } else {
          FlushByteRun(text);
          EmitStripped(replaced, text);
        }
        break;
      }
      case Mode::kBuffer: break;
    }
  }
  return Status::Ok();
}

Status DecodeStream::Finalize(std::string* text) {
  if (finalized_) return Status::Ok();
  finalized_ = true;
  switch (mode_) {
    case Mode::kBuffer: {
      EMBER_ASSIGN_OR_RETURN(
          std::string all, tokenizer_->Decode(buffered_, skip_special_tokens_));
      text->append(all);
      buffered_.clear();
      break;
    }
    case Mode::kByteLevel:
      text->append(Utf8Lossy(pending_));
      pending_.clear();
      break;
    case Mode::kLlama: FlushByteRun(text); break;
    case Mode::kNoDecoder: break;
  }
  return Status::Ok();
}

}  // namespace ember::tokenizer
