// The decoders: token strings back to text, at once (RunDecoder) and as a
// stream (DecodeStream) (docs/tokenizer.md "Decode", "Streaming decode").
// Each is `tokenizers`' decode_chain: a list of token strings in, a list
// out, the decoders of a Sequence one after the other.
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

// Bounds for hostile files: decoders after flattening `Sequence`s, and the
// bytes one decode may produce at any step of the chain, 64 MiB (a chain of
// BPEDecoders or CTCs with an empty pattern doubles the text at each step).
constexpr size_t kMaxDecoders = 64;
constexpr size_t kMaxDecodedBytes = size_t{1} << 26;

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

// Rust's str::replace: every non-overlapping occurrence of `from`, left to
// right; an empty `from` matches before every character and at the end
// ("ab" -> "XaXbX"). The size of the result is computed first and bounded.
Status RustReplace(std::string_view in, std::string_view from,
                   std::string_view to, std::string* out) {
  out->clear();
  size_t matches = 0;
  if (from.empty()) {
    for (char c : in) matches += (static_cast<uint8_t>(c) & 0xC0) != 0x80;
    ++matches;
  } else {
    for (size_t at = in.find(from); at != std::string_view::npos;
         at = in.find(from, at + from.size())) {
      ++matches;
    }
  }
  if (in.size() > kMaxDecodedBytes ||
      (matches > 0 && to.size() > (kMaxDecodedBytes - in.size()) / matches)) {
    return ResourceExhaustedError(
        StringPrintf("decode: over %zu bytes of text", kMaxDecodedBytes));
  }
  if (!from.empty()) {
    ReplaceAll(in, from, to, out);
    return Status::Ok();
  }
  out->reserve(in.size() + matches * to.size());
  out->append(to);
  for (size_t i = 0; i < in.size();) {
    size_t w = Utf8Length(static_cast<uint8_t>(in[i]));
    out->append(in.substr(i, w));
    out->append(to);
    i += w;
  }
  return Status::Ok();
}

// WordPiece's cleanup (`tokenizers`' decoders::wordpiece::cleanup), also
// used by CTC: these replacements, in this order, each over the whole
// string.
Status Cleanup(std::string_view in, std::string* out) {
  static constexpr std::pair<std::string_view, std::string_view> kRules[] = {
      {" .", "."},   {" ?", "?"},     {" !", "!"},    {" ,", ","},
      {" ' ", "'"},  {" n't", "n't"}, {" 'm", "'m"},  {" do not", " don't"},
      {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
  // Every rule starts with a space and one of these characters: a token
  // without such a pair (most are) is left as it is without trying the
  // eleven replacements (decode ran at 5 MiB/s doing them for every token).
  bool may_match = false;
  for (size_t i = in.find(' '); i != std::string_view::npos && !may_match;
       i = in.find(' ', i + 1)) {
    may_match = i + 1 < in.size() && std::string_view(".?!,'nd").find(
                                         in[i + 1]) != std::string_view::npos;
  }
  if (!may_match) {
    out->assign(in);
    return Status::Ok();
  }
  std::string current(in), next;
  for (const auto& [from, to] : kRules) {
    if (current.find(from) == std::string::npos) continue;  // unchanged
    EMBER_RETURN_IF_ERROR(RustReplace(current, from, to, &next));
    current.swap(next);
  }
  *out = std::move(current);
  return Status::Ok();
}

// Strip: up to `start` leading and `stop` trailing `content` characters.
void StripOne(const Decoder& d, std::string_view token, std::string* out) {
  // Character-wise, as `tokenizers` counts: up to `start` characters equal
  // to `content` from the front, then up to `stop` from the back of what
  // is left (the two never overlap: the back stops at the front's cut).
  // Only those characters are looked at (after Fuse, the token is the whole
  // text).
  const std::string_view content = d.content;
  size_t from = 0;
  for (size_t k = 0; k < d.start && from < token.size(); ++k) {
    size_t w = Utf8Length(static_cast<uint8_t>(token[from]));
    if (token.substr(from, w) != content) break;
    from += w;
  }
  size_t to = token.size();
  for (size_t k = 0; k < d.stop && to > from; ++k) {
    size_t lead = to - 1;
    while (lead > from && (static_cast<uint8_t>(token[lead]) & 0xC0) == 0x80)
      --lead;
    if (token.substr(lead, to - lead) != content) break;
    to = lead;
  }
  out->assign(token.substr(from, to - from));
}

// One token through a decoder that maps each token on its own (Replace,
// Strip, WordPiece, Metaspace, BPEDecoder, CTC after its dedup). `first`:
// the token is the first of the list the decoder is given; `last`: the
// last.
Status DecodeOne(const Decoder& d, std::string_view token, bool first,
                 bool last, std::string* out) {
  using K = Decoder::Kind;
  switch (d.kind) {
    case K::kReplace:
      if (d.regex) return RegexReplace(*d.regex, token, d.content, out);
      return RustReplace(token, d.text, d.content, out);
    case K::kStrip: StripOne(d, token, out); return Status::Ok();
    case K::kWordPiece: {
      // Every token but the first either continues a word (the prefix is
      // cut off) or starts one (a space in front).
      std::string t;
      if (first) {
        t = token;
      } else if (token.substr(0, d.text.size()) == d.text) {
        t = token.substr(d.text.size());
      } else {
        t = " ";
        t += token;
      }
      if (d.cleanup) return Cleanup(t, out);
      *out = std::move(t);
      return Status::Ok();
    }
    case K::kMetaspace: {
      // The replacement character becomes a space, except in the first
      // token, where every one of them is dropped (unless prepend_scheme
      // is "never").
      out->clear();
      const bool drop = first && !d.prepend_never;
      for (size_t i = 0; i < token.size();) {
        size_t w = Utf8Length(static_cast<uint8_t>(token[i]));
        std::string_view c = token.substr(i, w);
        if (c != d.text) {
          out->append(c);
        } else if (!drop) {
          out->push_back(' ');
        }
        i += w;
      }
      return Status::Ok();
    }
    case K::kBpe: return RustReplace(token, d.text, last ? "" : " ", out);
    case K::kCtc: {
      std::string a;
      EMBER_RETURN_IF_ERROR(RustReplace(token, d.text, "", &a));
      if (!d.cleanup) {
        *out = std::move(a);
        return Status::Ok();
      }
      std::string b;
      EMBER_RETURN_IF_ERROR(Cleanup(a, &b));
      return RustReplace(b, d.content, " ", out);
    }
    case K::kByteLevel:
    case K::kByteFallback:
    case K::kFuse: break;
  }
  return InternalError("decoder does not map tokens one by one");
}

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

Status RunDecoder(const Decoder& d, std::vector<std::string>* tokens) {
  std::vector<std::string>& t = *tokens;
  using K = Decoder::Kind;
  switch (d.kind) {
    case K::kByteLevel: {
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
      break;
    }
    case K::kByteFallback: {
      // In place: each run of byte tokens becomes at most as many tokens
      // (its text, or one U+FFFD per byte), so the write position never
      // passes the read position.
      size_t w = 0;
      std::string pending;
      auto flush = [&] {
        if (pending.empty()) return;
        if (IsValidUtf8(pending)) {
          t[w++] = pending;
        } else {
          for (size_t i = 0; i < pending.size(); ++i) t[w++] = "\xEF\xBF\xBD";
        }
        pending.clear();
      };
      for (size_t r = 0; r < t.size(); ++r) {
        char byte;
        if (IsByteToken(t[r], &byte)) {
          pending.push_back(byte);
        } else {
          flush();
          if (w != r) t[w] = std::move(t[r]);
          ++w;
        }
      }
      flush();
      t.resize(w);
      break;
    }
    case K::kFuse: {
      size_t size = 0;
      for (const std::string& token : t) size += token.size();
      std::string all;
      all.reserve(size);
      for (const std::string& token : t) all += token;
      t.assign(1, std::move(all));
      break;
    }
    case K::kCtc: {
      // Consecutive equal tokens become one, then each is mapped, and the
      // empty results are dropped.
      std::vector<std::string> out;
      std::string mapped;
      for (size_t i = 0; i < t.size(); ++i) {
        if (i > 0 && t[i] == t[i - 1]) continue;
        EMBER_RETURN_IF_ERROR(DecodeOne(d, t[i], false, false, &mapped));
        if (!mapped.empty()) out.push_back(std::move(mapped));
      }
      t.swap(out);
      break;
    }
    case K::kReplace:
    case K::kStrip:
    case K::kWordPiece:
    case K::kMetaspace:
    case K::kBpe: {
      std::string out;
      // A literal Replace leaves a token without its pattern as it is.
      const bool literal = d.kind == K::kReplace && !d.regex && !d.text.empty();
      for (size_t i = 0; i < t.size(); ++i) {
        if (literal && t[i].find(d.text) == std::string::npos) continue;
        EMBER_RETURN_IF_ERROR(
            DecodeOne(d, t[i], i == 0, i + 1 == t.size(), &out));
        t[i].swap(out);
      }
      break;
    }
  }
  size_t total = 0;
  for (const std::string& token : t) total += token.size();
  if (total > kMaxDecodedBytes) {
    return ResourceExhaustedError(
        StringPrintf("decode: over %zu bytes of text", kMaxDecodedBytes));
  }
  return Status::Ok();
}

namespace {

// A bool field that must be present (`tokenizers` has no default for it).
Result<bool> RequiredBool(const object& o, std::string_view key,
                          std::string_view where) {
  element e;
  bool b = false;
  if (!Field(o, key, &e) || e.get_bool().get(b) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        StringPrintf("%.*s: \"%.*s\" is missing or not a bool",
                     static_cast<int>(where.size()), where.data(),
                     static_cast<int>(key.size()), key.data()));
  }
  return b;
}

// A string field that must be present, of at most kMaxTokenBytes.
Status RequiredString(const object& o, std::string_view key,
                      std::string_view where, std::string* out) {
  EMBER_ASSIGN_OR_RETURN(std::string_view s, GetString(o, key, where));
  if (s.size() > Tokenizer::kMaxTokenBytes) {
    return InvalidArgumentError(StringPrintf(
        "%.*s: \"%.*s\" is over %zu bytes", static_cast<int>(where.size()),
        where.data(), static_cast<int>(key.size()), key.data(),
        Tokenizer::kMaxTokenBytes));
  }
  out->assign(s);
  return Status::Ok();
}

}  // namespace

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
    EMBER_RETURN_IF_ERROR(
        RequiredString(o, "content", "decoder Replace", &d.content));
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
  } else if (type == "WordPiece") {
    d.kind = Decoder::Kind::kWordPiece;
    EMBER_RETURN_IF_ERROR(
        RequiredString(o, "prefix", "decoder WordPiece", &d.text));
    EMBER_ASSIGN_OR_RETURN(d.cleanup,
                           RequiredBool(o, "cleanup", "decoder WordPiece"));
  } else if (type == "Metaspace") {
    d.kind = Decoder::Kind::kMetaspace;
    EMBER_ASSIGN_OR_RETURN(std::string_view c,
                           GetString(o, "replacement", "decoder Metaspace"));
    EMBER_RETURN_IF_ERROR(CheckOneChar(c, "decoder Metaspace's replacement"));
    d.text = c;
    EMBER_ASSIGN_OR_RETURN(
        std::string_view scheme,
        GetOptionalString(o, "prepend_scheme", "decoder Metaspace", "always"));
    if (scheme != "always" && scheme != "first" && scheme != "never") {
      return InvalidArgumentError(
          "decoder Metaspace: \"prepend_scheme\" is not \"always\", "
          "\"first\" or \"never\"");
    }
    d.prepend_never = scheme == "never";
    // The legacy field: false means "never", and `tokenizers` refuses it
    // beside another scheme.
    element aps;
    if (Field(o, "add_prefix_space", &aps) && !aps.is_null()) {
      bool add = true;
      if (aps.get_bool().get(add) != simdjson::SUCCESS) {
        return InvalidArgumentError(
            "decoder Metaspace: \"add_prefix_space\" is not a bool");
      }
      if (!add && !d.prepend_never) {
        return InvalidArgumentError(
            "decoder Metaspace: add_prefix_space does not match declared "
            "prepend_scheme");
      }
    }
  } else if (type == "CTC") {
    d.kind = Decoder::Kind::kCtc;
    EMBER_RETURN_IF_ERROR(
        RequiredString(o, "pad_token", "decoder CTC", &d.text));
    EMBER_RETURN_IF_ERROR(
        RequiredString(o, "word_delimiter_token", "decoder CTC", &d.content));
    EMBER_ASSIGN_OR_RETURN(d.cleanup,
                           RequiredBool(o, "cleanup", "decoder CTC"));
  } else if (type == "BPEDecoder") {
    d.kind = Decoder::Kind::kBpe;
    EMBER_RETURN_IF_ERROR(
        RequiredString(o, "suffix", "decoder BPEDecoder", &d.text));
  } else {
    return Unimplemented("decoder", type);
  }
  if (p->decoders.size() >= kMaxDecoders) {
    return InvalidArgumentError(
        StringPrintf("decoder: more than %zu decoders", kMaxDecoders));
  }
  p->decoders.push_back(std::move(d));
  return Status::Ok();
}

size_t DecidedUtf8PrefixForTest(std::string_view bytes) {
  return DecidedUtf8Prefix(bytes);
}

// ---- streaming decode ------------------------------------------------------
//
// Each decoder of the chain is a stage that gets the tokens one at a time
// and passes what it can already decide to the next stage; past the last
// stage the pieces are text. Until a Fuse or ByteLevel stage, the stages
// pass whole tokens (the token index a decoder sees is the number of tokens
// its stage got before); after one, there is a single token, which grows,
// and a stage gets pieces of it (each piece whole UTF-8 characters). The
// stages that can run on such pieces are Fuse, Metaspace, Replace with a
// literal pattern and Strip without `stop`; a chain with any other stage
// after a Fuse or ByteLevel buffers its ids until Finalize.

struct DecodeStream::Stage {
  const Decoder* d = nullptr;
  bool pieces = false;       // gets pieces of one token (after Fuse/ByteLevel)
  size_t count = 0;          // tokens received
  std::string held;          // BPE: the held token; ByteFallback: the byte run;
                             // ByteLevel: undecided bytes; Replace on pieces:
                             // a tail that may begin the pattern
  bool has_held = false;     // BPE
  bool run_invalid = false;  // ByteFallback: the current run can never be
                             // valid UTF-8 (each byte is one U+FFFD)
  std::string prev;          // CTC: the previous token, for the dedup
  bool has_prev = false;
  size_t strip_left = 0;  // Strip on pieces: leading characters left
};

DecodeStream::DecodeStream(const Tokenizer* tokenizer, bool skip_special_tokens)
    : tokenizer_(tokenizer), skip_special_tokens_(skip_special_tokens) {
  const Pipeline& p = *tokenizer->pipeline_;
  if (!p.has_decoder) {
    no_decoder_ = true;
    return;
  }
  using K = Decoder::Kind;
  bool pieces = false;
  for (const Decoder& d : p.decoders) {
    auto stage = std::make_unique<Stage>();
    stage->d = &d;
    stage->pieces = pieces;
    if (pieces) {
      bool streams = d.kind == K::kFuse || d.kind == K::kMetaspace ||
                     (d.kind == K::kReplace && !d.regex && !d.text.empty()) ||
                     (d.kind == K::kStrip && d.stop == 0);
      if (!streams) {
        buffer_all_ = true;
        stages_.clear();
        return;
      }
      stage->strip_left = d.start;
    }
    if (d.kind == K::kFuse || d.kind == K::kByteLevel) pieces = true;
    stages_.push_back(std::move(stage));
  }
}

DecodeStream::~DecodeStream() = default;

std::unique_ptr<DecodeStream> Tokenizer::NewDecodeStream(
    bool skip_special_tokens) const {
  return std::unique_ptr<DecodeStream>(
      new DecodeStream(this, skip_special_tokens));
}

Status DecodeStream::Push(size_t index, std::string token, std::string* text) {
  if (index == stages_.size()) {
    text->append(token);
    return Status::Ok();
  }
  Stage& s = *stages_[index];
  const Decoder& d = *s.d;
  using K = Decoder::Kind;
  std::string out;
  if (s.pieces) {
    switch (d.kind) {
      case K::kFuse: return Push(index + 1, std::move(token), text);
      case K::kMetaspace:
        EMBER_RETURN_IF_ERROR(DecodeOne(d, token, true, false, &out));
        return Push(index + 1, std::move(out), text);
      case K::kStrip: {
        std::string_view piece = token;
        while (s.strip_left > 0 && !piece.empty()) {
          if (piece.substr(0, d.content.size()) != d.content) {
            s.strip_left = 0;
            break;
          }
          piece.remove_prefix(d.content.size());
          --s.strip_left;
        }
        return Push(index + 1, std::string(piece), text);
      }
      case K::kReplace: {
        // Replace what is whole; keep the longest tail that is a proper
        // prefix of the pattern (a match may start there).
        std::string buf = std::move(s.held);
        buf += token;
        s.held.clear();
        std::string_view b = buf, pattern = d.text;
        size_t pos = 0;
        for (size_t at = b.find(pattern); at != std::string_view::npos;
             at = b.find(pattern, pos)) {
          out.append(b.substr(pos, at - pos));
          out.append(d.content);
          pos = at + pattern.size();
        }
        size_t keep = std::min(pattern.size() - 1, b.size() - pos);
        while (keep > 0 &&
               b.substr(b.size() - keep) != pattern.substr(0, keep)) {
          --keep;
        }
        out.append(b.substr(pos, b.size() - keep - pos));
        s.held.assign(b.substr(b.size() - keep));
        if (out.size() > kMaxDecodedBytes) {
          return ResourceExhaustedError(
              StringPrintf("decode: over %zu bytes of text", kMaxDecodedBytes));
        }
        return Push(index + 1, std::move(out), text);
      }
      default: return InternalError("decoder stage cannot stream");
    }
  }
  const size_t i = s.count++;
  switch (d.kind) {
    case K::kReplace:
    case K::kStrip:
    case K::kWordPiece:
    case K::kMetaspace:
      EMBER_RETURN_IF_ERROR(DecodeOne(d, token, i == 0, false, &out));
      return Push(index + 1, std::move(out), text);
    case K::kBpe:
      // Held until the next token shows it is not the last.
      if (s.has_held) {
        EMBER_RETURN_IF_ERROR(DecodeOne(d, s.held, false, false, &out));
        EMBER_RETURN_IF_ERROR(Push(index + 1, std::move(out), text));
      }
      s.held = std::move(token);
      s.has_held = true;
      return Status::Ok();
    case K::kCtc:
      if (s.has_prev && token == s.prev) return Status::Ok();
      EMBER_RETURN_IF_ERROR(DecodeOne(d, token, false, false, &out));
      s.prev = std::move(token);
      s.has_prev = true;
      if (out.empty()) return Status::Ok();
      return Push(index + 1, std::move(out), text);
    case K::kByteFallback: {
      char byte;
      if (IsByteToken(token, &byte)) {
        if (s.run_invalid) return Push(index + 1, "\xEF\xBF\xBD", text);
        s.held.push_back(byte);
        size_t decided = DecidedUtf8Prefix(s.held);
        if (IsValidUtf8(std::string_view(s.held).substr(0, decided))) {
          return Status::Ok();  // may still be valid: wait
        }
        // Never valid whatever follows: one U+FFFD per byte, now.
        size_t n = s.held.size();
        s.held.clear();
        s.run_invalid = true;
        for (size_t k = 0; k < n; ++k) {
          EMBER_RETURN_IF_ERROR(Push(index + 1, "\xEF\xBF\xBD", text));
        }
        return Status::Ok();
      }
      s.run_invalid = false;
      if (!s.held.empty()) {
        // A run that is valid so far and ends here: valid when complete.
        std::string run = std::move(s.held);
        s.held.clear();
        if (IsValidUtf8(run)) {
          EMBER_RETURN_IF_ERROR(Push(index + 1, std::move(run), text));
        } else {
          for (size_t k = 0; k < run.size(); ++k) {
            EMBER_RETURN_IF_ERROR(Push(index + 1, "\xEF\xBF\xBD", text));
          }
        }
      }
      return Push(index + 1, std::move(token), text);
    }
    case K::kFuse: return Push(index + 1, std::move(token), text);
    case K::kByteLevel: {
      size_t mark = s.held.size();
      for (size_t k = 0; k < token.size();) {
        size_t w = 0;
        int b = ByteLevelByte(DecodeCodePoint(token, k, &w));
        if (b < 0) {
          s.held.resize(mark);
          s.held.append(token);
          break;
        }
        s.held.push_back(static_cast<char>(b));
        k += w;
      }
      size_t decided = DecidedUtf8Prefix(s.held);
      out = Utf8Lossy(std::string_view(s.held).substr(0, decided));
      s.held.erase(0, decided);
      return Push(index + 1, std::move(out), text);
    }
  }
  return InternalError("unknown decoder");
}

Status DecodeStream::Flush(size_t index, std::string* text) {
  if (index == stages_.size()) return Status::Ok();
  Stage& s = *stages_[index];
  const Decoder& d = *s.d;
  using K = Decoder::Kind;
  std::string out;
  if (s.pieces) {
    if (d.kind == K::kReplace && !s.held.empty()) {
      std::string tail = std::move(s.held);
      s.held.clear();
      EMBER_RETURN_IF_ERROR(Push(index + 1, std::move(tail), text));
    }
  } else if (d.kind == K::kBpe && s.has_held) {
    s.has_held = false;
    EMBER_RETURN_IF_ERROR(DecodeOne(d, s.held, false, true, &out));
    EMBER_RETURN_IF_ERROR(Push(index + 1, std::move(out), text));
  } else if (d.kind == K::kByteFallback && !s.held.empty()) {
    std::string run = std::move(s.held);
    s.held.clear();
    if (IsValidUtf8(run)) {
      EMBER_RETURN_IF_ERROR(Push(index + 1, std::move(run), text));
    } else {
      for (size_t k = 0; k < run.size(); ++k) {
        EMBER_RETURN_IF_ERROR(Push(index + 1, "\xEF\xBF\xBD", text));
      }
    }
  } else if (d.kind == K::kByteLevel && !s.held.empty()) {
    out = Utf8Lossy(s.held);
    s.held.clear();
    EMBER_RETURN_IF_ERROR(Push(index + 1, std::move(out), text));
  }
  return Flush(index + 1, text);
}

Status DecodeStream::Feed(std::span<const int32_t> ids, std::string* text) {
  if (finalized_) return FailedPreconditionError("decode stream is finalized");
  const Pipeline& p = *tokenizer_->pipeline_;
  for (int32_t id : ids) {
    auto token = p.IdToToken(id);
    if (!token) {
      return OutOfRangeError(
          StringPrintf("token id %d is not in the vocabulary (%zu tokens)", id,
                       tokenizer_->vocab_size()));
    }
    if (buffer_all_) {
      buffered_.push_back(id);
      continue;
    }
    if (skip_special_tokens_ && p.special_contents.count(*token)) {
      continue;
    }
    if (no_decoder_) {
      if (started_) text->push_back(' ');
      text->append(*token);
      started_ = true;
      continue;
    }
    EMBER_RETURN_IF_ERROR(Push(0, std::string(*token), text));
  }
  return Status::Ok();
}

Status DecodeStream::Finalize(std::string* text) {
  if (finalized_) return Status::Ok();
  finalized_ = true;
  if (buffer_all_) {
    EMBER_ASSIGN_OR_RETURN(std::string all,
                           tokenizer_->Decode(buffered_, skip_special_tokens_));
    text->append(all);
    buffered_.clear();
    return Status::Ok();
  }
  if (no_decoder_) return Status::Ok();
  return Flush(0, text);
}

}  // namespace ember::tokenizer
