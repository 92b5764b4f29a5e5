// tiktoken rank files (docs/tokenizer.md "tiktoken"): one token a line,
// "<base64 of its bytes> <rank>", and an encoding name that gives the
// pre-tokenizer regex and the special tokens. The result is an ordinary
// Pipeline: a Split (Isolated) with the encoding's regex, a regex-less
// ByteLevel (bytes to GPT-2's printable characters), a BpeModel whose ids
// are the ranks, the special tokens as special added tokens matched in the
// raw text, and a ByteLevel decoder.
//
// Exactness. tiktoken merges, at each step, the adjacent pair of parts
// whose concatenation has the lowest rank (leftmost on a tie), and takes a
// whole piece that is itself a token as that token. The BpeModel runs the
// same loop over a merge table, so the table holds, for every token T of
// rank r and every way of cutting T's bytes into two tokens x + y, the
// merge (x, y) -> T with rank r: a pair of parts is merged by the model
// exactly when tiktoken would merge it, at the same rank. ignore_merges
// is tiktoken's whole-piece lookup. This needs no assumption about how the
// file was trained (a token that no two tokens make is still found whole,
// as tiktoken finds it); tests/python/test_tokenizer_tiktoken.py compares
// with `tiktoken` itself.
#include <algorithm>
#include <array>
#include <cstring>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {

namespace {

// The encodings iree.runtime 3.13 names, with `tiktoken`'s patterns
// (tiktoken_ext/openai_public.py, 0.14) and special tokens. `$` is written
// `\z`: in Rust's regex crate it is the end of the text, in PCRE2 it would
// also match before a final newline.
constexpr std::string_view kR50kPattern =
    R"('(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++\z|\s+(?!\S)|\s)";
constexpr std::string_view kCl100kPattern =
    R"('(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++\z|\s*[\r\n]|\s+(?!\S)|\s)";
constexpr std::string_view kO200kPattern =
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

struct Special {
  std::string_view content;
  int32_t id;
};

constexpr Special kR50kSpecials[] = {{"<|endoftext|>", 50256}};
constexpr Special kP50kEditSpecials[] = {{"<|endoftext|>", 50256},
                                         {"<|fim_prefix|>", 50281},
                                         {"<|fim_middle|>", 50282},
                                         {"<|fim_suffix|>", 50283}};
constexpr Special kCl100kSpecials[] = {{"<|endoftext|>", 100257},
                                       {"<|fim_prefix|>", 100258},
                                       {"<|fim_middle|>", 100259},
                                       {"<|fim_suffix|>", 100260},
                                       {"<|endofprompt|>", 100276}};
constexpr Special kO200kSpecials[] = {{"<|endoftext|>", 199999},
                                      {"<|endofprompt|>", 200018}};
// o200k_harmony: these, and "<|reserved_N|>" for every other id in
// [200000, 201088) (added in code).
constexpr Special kHarmonySpecials[] = {
    {"<|startoftext|>", 199998}, {"<|endoftext|>", 199999},
    {"<|return|>", 200002},      {"<|constrain|>", 200003},
    {"<|channel|>", 200005},     {"<|start|>", 200006},
    {"<|end|>", 200007},         {"<|message|>", 200008},
    {"<|call|>", 200012},        {"<|endofprompt|>", 200018}};

struct TiktokenEncoding {
  std::string_view name;
  std::string_view pattern;
  std::span<const Special> specials;
  bool harmony_reserved;
};

constexpr TiktokenEncoding kEncodings[] = {
    {"cl100k_base", kCl100kPattern, kCl100kSpecials, false},
    {"o200k_base", kO200kPattern, kO200kSpecials, false},
    {"o200k_harmony", kO200kPattern, kHarmonySpecials, true},
    {"r50k_base", kR50kPattern, kR50kSpecials, false},
    {"gpt2", kR50kPattern, kR50kSpecials, false},
    {"p50k_base", kR50kPattern, kR50kSpecials, false},
    {"p50k_edit", kR50kPattern, kP50kEditSpecials, false},
};

constexpr std::string_view kEncodingList =
    "cl100k_base, o200k_base, o200k_harmony, r50k_base, gpt2, p50k_base, "
    "p50k_edit";

// Standard base64 (RFC 4648 alphabet), padding optional; anything else is
// an error. Returns false on a bad character or length.
bool DecodeBase64(std::string_view in, std::string* out) {
  static const std::array<int8_t, 256> table = [] {
    std::array<int8_t, 256> t{};
    t.fill(-1);
    const char* alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) t[static_cast<uint8_t>(alphabet[i])] = i;
    return t;
  }();
  while (!in.empty() && in.back() == '=') in.remove_suffix(1);
  if (in.size() % 4 == 1) return false;
  out->clear();
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    int v = table[static_cast<uint8_t>(c)];
    if (v < 0) return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return true;
}

std::string Clip(std::string_view s) { return std::string(s.substr(0, 64)); }

}  // namespace

Result<std::unique_ptr<Tokenizer>> Tokenizer::FromTiktoken(
    std::string_view data, std::string_view encoding_name) {
  const TiktokenEncoding* encoding = nullptr;
  for (const TiktokenEncoding& e : kEncodings) {
    if (e.name == encoding_name) encoding = &e;
  }
  if (encoding == nullptr) {
    return InvalidArgumentError(StringPrintf(
        "unknown tiktoken encoding '%s'; expected one of: %.*s",
        Clip(encoding_name).c_str(), static_cast<int>(kEncodingList.size()),
        kEncodingList.data()));
  }
  if (data.size() > kMaxJsonBytes) {
    return ResourceExhaustedError(
        StringPrintf("tiktoken data is %zu bytes, over the limit of %zu",
                     data.size(), kMaxJsonBytes));
  }

  // The lines: ranks strictly increasing (as iree.runtime 3.13 requires;
  // so no rank repeats), gaps allowed (p50k leaves 50256 to a special).
  struct Line {
    std::string bytes;
    uint32_t rank;
  };
  std::vector<Line> lines;
  StringIdMap by_bytes;  // raw bytes -> rank
  std::string token;
  size_t line_number = 0;
  int64_t last_rank = -1;
  for (size_t pos = 0; pos < data.size();) {
    size_t eol = data.find('\n', pos);
    if (eol == std::string_view::npos) eol = data.size();
    std::string_view line = data.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    size_t space = line.find(' ');
    if (space == std::string_view::npos || space == 0) {
      return InvalidArgumentError(StringPrintf(
          "tiktoken line %zu is not \"<base64 token> <rank>\"", line_number));
    }
    std::string_view b64 = line.substr(0, space);
    std::string_view rank_text = line.substr(space + 1);
    uint64_t rank = 0;
    bool rank_ok = !rank_text.empty() && rank_text.size() <= 10;
    for (char c : rank_text) {
      rank_ok = rank_ok && c >= '0' && c <= '9';
      if (rank_ok) rank = rank * 10 + static_cast<uint64_t>(c - '0');
    }
    if (!rank_ok) {
      return InvalidArgumentError(
          StringPrintf("tiktoken line %zu: the rank '%s' is not a decimal "
                       "integer",
                       line_number, Clip(rank_text).c_str()));
    }
    if (b64.size() > 4 * ((kMaxTokenBytes + 2) / 3) ||
        !DecodeBase64(b64, &token)) {
      return InvalidArgumentError(StringPrintf(
          "tiktoken line %zu: the token is not base64 of at most %zu bytes",
          line_number, kMaxTokenBytes));
    }
    if (token.empty() || token.size() > kMaxTokenBytes) {
      return InvalidArgumentError(StringPrintf(
          "tiktoken line %zu: the token is empty or over %zu bytes",
          line_number, kMaxTokenBytes));
    }
    if (static_cast<int64_t>(rank) <= last_rank) {
      return InvalidArgumentError(StringPrintf(
          "tiktoken line %zu: rank %llu is not above the previous rank %lld "
          "(ranks must increase)",
          line_number, static_cast<unsigned long long>(rank),
          static_cast<long long>(last_rank)));
    }
    if (lines.size() >= kMaxVocab) {
      return ResourceExhaustedError(StringPrintf(
          "tiktoken data has over %zu tokens, the limit", kMaxVocab));
    }
    // Ids index a table: a rank far beyond the number of tokens would make
    // a hostile file of a few bytes allocate gigabytes.
    if (rank > 2 * static_cast<uint64_t>(lines.size()) + 65536) {
      return InvalidArgumentError(StringPrintf(
          "tiktoken line %zu: rank %llu is far beyond the %zu tokens before "
          "it",
          line_number, static_cast<unsigned long long>(rank), lines.size()));
    }
    if (!by_bytes.emplace(token, static_cast<int32_t>(rank)).second) {
      return InvalidArgumentError(StringPrintf(
          "tiktoken line %zu: the token of rank %llu repeats an earlier "
          "token",
          line_number, static_cast<unsigned long long>(rank)));
    }
    last_rank = static_cast<int64_t>(rank);
    lines.push_back({token, static_cast<uint32_t>(rank)});
  }
  if (lines.empty()) {
    return InvalidArgumentError("tiktoken data has no tokens");
  }
  // tiktoken starts from single bytes: a byte without a token would make
  // it fail on any text holding that byte.
  for (int b = 0; b < 256; ++b) {
    if (!by_bytes.count(std::string(1, static_cast<char>(b)))) {
      return InvalidArgumentError(StringPrintf(
          "tiktoken data has no token for the single byte 0x%02X", b));
    }
  }

  std::unique_ptr<Tokenizer> tokenizer(new Tokenizer());
  Pipeline& p = *tokenizer->pipeline_;
  auto model = std::make_unique<BpeModel>();
  BpeModel& m = *model;
  m.ignore_merges = true;  // a whole piece that is a token is that token
  m.vocab.reserve(lines.size());
  m.vocab_r.resize(static_cast<size_t>(last_rank) + 1);
  m.has_id.resize(static_cast<size_t>(last_rank) + 1, 0);
  std::string mapped;
  for (const Line& line : lines) {
    mapped.clear();
    for (char c : line.bytes) mapped += ByteLevelChar(static_cast<uint8_t>(c));
    m.vocab.emplace(mapped, static_cast<int32_t>(line.rank));
    m.vocab_r[line.rank] = mapped;
    m.has_id[line.rank] = 1;
  }
  // Every cut of every token into two tokens (see the top of this file).
  size_t merge_count = 0;
  for (const Line& line : lines) {
    std::string_view bytes = line.bytes;
    for (size_t cut = 1; cut < bytes.size(); ++cut) {
      auto left = by_bytes.find(bytes.substr(0, cut));
      if (left == by_bytes.end()) continue;
      auto right = by_bytes.find(bytes.substr(cut));
      if (right == by_bytes.end()) continue;
      if (++merge_count > kMaxMerges) {
        return ResourceExhaustedError(StringPrintf(
            "tiktoken data makes over %zu merges, the limit", kMaxMerges));
      }
      uint64_t key =
          (static_cast<uint64_t>(static_cast<uint32_t>(left->second)) << 32) |
          static_cast<uint32_t>(right->second);
      m.merges[key] = {line.rank, static_cast<int32_t>(line.rank)};
    }
  }
  p.model = std::move(model);

  PreTokenizer split;
  split.kind = PreTokenizer::Kind::kSplit;
  split.behavior = PreTokenizer::Behavior::kIsolated;
  EMBER_ASSIGN_OR_RETURN(
      split.regex, Regex::CompileOniguruma(encoding->pattern),
      "while compiling the %s pattern", std::string(encoding->name).c_str());
  p.pre_tokenizers.push_back(std::move(split));
  PreTokenizer byte_level;
  byte_level.kind = PreTokenizer::Kind::kByteLevel;
  byte_level.add_prefix_space = false;
  byte_level.use_regex = false;
  p.pre_tokenizers.push_back(std::move(byte_level));
  p.stream_words_bounded = true;

  std::vector<AddedToken> specials;
  for (const Special& s : encoding->specials) {
    AddedToken token;
    token.content = s.content;
    token.id = s.id;
    token.special = true;
    specials.push_back(std::move(token));
  }
  // tiktoken's o200k_harmony also names 200018 "<|reserved_200018|>":
  // both strings encode to it; it decodes as "<|endofprompt|>".
  std::string alias;
  if (encoding->harmony_reserved) {
    alias = "<|reserved_200018|>";
    for (int32_t id = 200000; id < 201088; ++id) {
      bool named = false;
      for (const Special& s : encoding->specials) named = named || s.id == id;
      if (!named) {
        AddedToken token;
        token.content = StringPrintf("<|reserved_%d|>", id);
        token.id = id;
        token.special = true;
        specials.push_back(std::move(token));
      }
    }
  }
  for (AddedToken& s : specials) {
    if (p.model->IdToToken(s.id)) {
      return InvalidArgumentError(StringPrintf(
          "tiktoken data gives rank %d to a token, but %s reserves it for "
          "the special token %s",
          s.id, std::string(encoding->name).c_str(), s.content.c_str()));
    }
    size_t index = p.added.size();
    p.added_by_id.emplace(s.id, index);
    p.added_by_content.emplace(s.content, s.id);
    p.special_contents.insert(s.content);
    p.raw_trie.Add(s.content, static_cast<int32_t>(index));
    if (s.content == "<|endofprompt|>" && !alias.empty()) {
      p.added_by_content.emplace(alias, s.id);
      p.raw_trie.Add(alias, static_cast<int32_t>(index));
    }
    p.added.push_back(std::move(s));
  }

  Decoder decoder;
  decoder.kind = Decoder::Kind::kByteLevel;
  p.has_decoder = true;
  p.decoders.push_back(std::move(decoder));
  return tokenizer;
}

}  // namespace ember::tokenizer
