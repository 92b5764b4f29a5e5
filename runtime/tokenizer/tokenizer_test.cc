// Unit tests of the tokenizer layer on small hand-written tokenizer.json
// files whose expected ids follow from the BPE rules by hand (the
// differential tests against HuggingFace `tokenizers` are in
// tests/python/test_tokenizer.py).
#include "runtime/tokenizer/tokenizer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {
namespace {

// A byte-level BPE: "Ġ" is the space byte; merges build "Ġh", "hi", "Ġhi"
// (in that rank order: with "h i" first, " hi" would end as Ġ + hi).
constexpr const char* kByteLevel = R"({
  "version": "1.0", "truncation": null, "padding": null,
  "added_tokens": [{"id": 9, "content": "<|eot|>", "single_word": false,
    "lstrip": false, "rstrip": false, "normalized": false, "special": true}],
  "normalizer": null,
  "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false,
                    "trim_offsets": true, "use_regex": true},
  "post_processor": null,
  "decoder": {"type": "ByteLevel", "add_prefix_space": true,
              "trim_offsets": true, "use_regex": true},
  "model": {"type": "BPE", "dropout": null, "unk_token": null,
    "continuing_subword_prefix": null, "end_of_word_suffix": null,
    "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
    "vocab": {"h": 0, "i": 1, "\u0120": 2, "!": 3, "hi": 4, "\u0120h": 5,
              "\u0120hi": 6, "<|eot|>": 9},
    "merges": [["\u0120", "h"], "h i", "\u0120h i"]}
})";

std::unique_ptr<Tokenizer> Load(const std::string& json) {
  auto t = Tokenizer::FromHuggingFaceJson(json);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? std::move(t).value() : nullptr;
}

std::vector<int32_t> Encode(const Tokenizer& t, std::string_view text,
                            bool no_special = false) {
  EncodeOptions options;
  options.no_special_token_matching = no_special;
  auto ids = t.Encode(text, options);
  EXPECT_TRUE(ids.ok()) << ids.status().ToString();
  return ids.ok() ? *ids : std::vector<int32_t>{};
}

TEST(TokenizerTest, ByteLevelMergesAndSpecialTokens) {
  auto t = Load(kByteLevel);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "hi hi!"), (std::vector<int32_t>{4, 6, 3}));
  EXPECT_EQ(Encode(*t, "hi<|eot|> hi"), (std::vector<int32_t>{4, 9, 6}));
  EXPECT_EQ(Encode(*t, ""), std::vector<int32_t>{});
  EXPECT_EQ(t->vocab_size(), 8u);
  EXPECT_EQ(t->TokenToId("\xC4\xA0hi"), 6);
  EXPECT_EQ(t->IdToToken(9), "<|eot|>");
  EXPECT_FALSE(t->IdToToken(7).has_value());
  auto text = t->Decode(std::vector<int32_t>{4, 9, 6, 3}, false);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "hi<|eot|> hi!");
  text = t->Decode(std::vector<int32_t>{4, 9, 6}, true);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "hi hi");
  EXPECT_EQ(t->SpecialIds(), std::vector<int32_t>{9});
}

TEST(TokenizerTest, NoSpecialTokenMatchingEncodesTheTextOfTheToken) {
  auto t = Load(kByteLevel);
  ASSERT_NE(t, nullptr);
  // "<", "|" ... are not in this vocabulary and there is no unk: dropped,
  // except "eot" has no tokens either, so only the "hi"s remain.
  EXPECT_EQ(Encode(*t, "hi<|eot|>", /*no_special=*/true),
            (std::vector<int32_t>{4}));
}

TEST(TokenizerTest, DecodeRejectsUnknownIds) {
  auto t = Load(kByteLevel);
  ASSERT_NE(t, nullptr);
  auto text = t->Decode(std::vector<int32_t>{4, 1000000}, false);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), StatusCode::kOutOfRange);
  text = t->Decode(std::vector<int32_t>{-1}, false);
  EXPECT_EQ(text.status().code(), StatusCode::kOutOfRange);
}

TEST(TokenizerTest, EncodeRejectsInvalidUtf8) {
  auto t = Load(kByteLevel);
  ASSERT_NE(t, nullptr);
  for (std::string bad :
       {std::string("\xFF"), std::string("a\xC0\x80"),
        std::string("\xED\xA0\x80"), std::string("\xE2\x82")}) {
    auto ids = t->Encode(bad, {});
    ASSERT_FALSE(ids.ok());
    EXPECT_EQ(ids.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(TokenizerTest, Utf8LossyReplacesMaximalSubparts) {
  EXPECT_EQ(Utf8Lossy("a\xF0\x9F\x98"), "a\xEF\xBF\xBD");
  EXPECT_EQ(Utf8Lossy("\xC0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(Utf8Lossy("\xE2\x82\xAC!"), "\xE2\x82\xAC!");
  EXPECT_EQ(Utf8Lossy("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(TokenizerTest, ByteLevelTableIsGpt2s) {
  EXPECT_EQ(ByteLevelChar(' '), "\xC4\xA0");  // U+0120
  EXPECT_EQ(ByteLevelChar('A'), "A");
  EXPECT_EQ(ByteLevelChar(0), "\xC4\x80");  // U+0100
  EXPECT_EQ(ByteLevelByte(0x120), ' ');
  EXPECT_EQ(ByteLevelByte(0x4E00), -1);
}

// Llama style: Prepend + Replace normalizers, byte fallback, and the
// Replace/ByteFallback/Fuse/Strip decoders.
std::string LlamaJson(const std::string& extra_vocab) {
  std::string vocab =
      R"("<unk>": 0, "<s>": 1, "\u2581": 2, "a": 3, "\u2581a": 4)";
  for (int b = 0; b < 256; ++b) {
    char buf[32];
    snprintf(buf, sizeof(buf), ", \"<0x%02X>\": %d", b, 10 + b);
    vocab += buf;
  }
  return std::string(R"({"added_tokens": [
    {"id": 0, "content": "<unk>", "special": true, "normalized": false},
    {"id": 1, "content": "<s>", "special": true, "normalized": false}],
  "normalizer": {"type": "Sequence", "normalizers": [
    {"type": "Prepend", "prepend": "\u2581"},
    {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"}]},
  "pre_tokenizer": null,
  "post_processor": {"type": "TemplateProcessing",
    "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
               {"Sequence": {"id": "A", "type_id": 0}}],
    "pair": [], "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
  "decoder": {"type": "Sequence", "decoders": [
    {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
    {"type": "ByteFallback"}, {"type": "Fuse"},
    {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
  "model": {"type": "BPE", "unk_token": "<unk>", "fuse_unk": true,
    "byte_fallback": true, "vocab": {)") +
         vocab + extra_vocab + R"(}, "merges": [["\u2581", "a"]]}})";
}

TEST(TokenizerTest, LlamaStyleByteFallback) {
  auto t = Load(LlamaJson(""));
  ASSERT_NE(t, nullptr);
  // "a é" -> "▁a▁é": ▁a, ▁, then é as the bytes C3 A9.
  EXPECT_EQ(Encode(*t, "a \xC3\xA9"),
            (std::vector<int32_t>{4, 2, 10 + 0xC3, 10 + 0xA9}));
  EncodeOptions with_special;
  with_special.add_special_tokens = true;
  auto ids = t->Encode("a", with_special);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::vector<int32_t>{1, 4}));
  auto text =
      t->Decode(std::vector<int32_t>{1, 4, 2, 10 + 0xC3, 10 + 0xA9}, true);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "a \xC3\xA9");
  // A lone continuation byte decodes to U+FFFD per byte.
  text = t->Decode(std::vector<int32_t>{4, 10 + 0xA9}, false);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "a\xEF\xBF\xBD");
}

TEST(TokenizerTest, UnimplementedComponentsAreNamed) {
  std::string json = kByteLevel;
  // (`tokenizers` has no such model; the four it has are implemented.)
  std::string charlevel = json;
  charlevel.replace(charlevel.find("\"BPE\""), 5, "\"CharLevel\"");
  auto t = Tokenizer::FromHuggingFaceJson(charlevel);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(t.status().ToString().find("CharLevel"), std::string::npos);
  std::string metaspace = json;
  metaspace.replace(metaspace.find("\"ByteLevel\""), 11, "\"Metaspace\"");
  t = Tokenizer::FromHuggingFaceJson(metaspace);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().ToString().find("Metaspace"), std::string::npos);
}

TEST(TokenizerTest, HostileFilesGetClearErrors) {
  const std::string json = kByteLevel;
  auto expect_error = [](const std::string& text, StatusCode code,
                         const char* needle) {
    auto t = Tokenizer::FromHuggingFaceJson(text);
    ASSERT_FALSE(t.ok()) << needle;
    EXPECT_EQ(t.status().code(), code) << t.status().ToString();
    EXPECT_NE(t.status().ToString().find(needle), std::string::npos)
        << t.status().ToString();
  };
  expect_error("", StatusCode::kInvalidArgument, "malformed JSON");
  expect_error(json.substr(0, json.size() / 2), StatusCode::kInvalidArgument,
               "malformed JSON");
  expect_error("[1, 2]", StatusCode::kInvalidArgument, "not a JSON object");
  expect_error(std::string(100000, '[') + std::string(100000, ']'),
               StatusCode::kInvalidArgument, "malformed JSON");
  expect_error(
      "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}, "
      "\"merges\": [\"a a\"]}}",
      StatusCode::kInvalidArgument, "not in the vocabulary");
  expect_error(
      "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0, \"b\": 0}, "
      "\"merges\": []}}",
      StatusCode::kInvalidArgument, "two tokens");
  expect_error(
      "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 4000000000}, "
      "\"merges\": []}}",
      StatusCode::kInvalidArgument, "not an integer");
  expect_error(
      "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}, "
      "\"merges\": [\"a\"]}}",
      StatusCode::kInvalidArgument, "one space");
  expect_error(
      "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}, "
      "\"merges\": []}, \"truncation\": {\"max_length\": 5}}",
      StatusCode::kInvalidArgument, "truncation: field \"stride\"");
  std::string bad_utf8 =
      "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"\xFF\": 0}, "
      "\"merges\": []}}";
  expect_error(bad_utf8, StatusCode::kInvalidArgument, "malformed JSON");
  expect_error(
      "{\"normalizer\": {\"type\": \"Replace\", \"pattern\": "
      "{\"Regex\": \"(\"}, \"content\": \"\"}, \"model\": {\"type\": "
      "\"BPE\", \"vocab\": {}, \"merges\": []}}",
      StatusCode::kInvalidArgument, "does not compile");
}

TEST(TokenizerTest, PathologicalRegexIsBounded) {
  // Catastrophic backtracking from a file: the match limit stops it.
  std::string json =
      "{\"normalizer\": {\"type\": \"Replace\", \"pattern\": {\"Regex\": "
      "\"(a+)+$\"}, \"content\": \"\"}, \"model\": {\"type\": \"BPE\", "
      "\"vocab\": {}, \"merges\": []}}";
  auto t = Load(json);
  ASSERT_NE(t, nullptr);
  auto start = std::chrono::steady_clock::now();
  auto ids = t->Encode(std::string(40, 'a') + "!", {});
  auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_LT(seconds, 10.0);
  // Either PCRE2's JIT finds the answer fast or the limit reports it.
  if (!ids.ok()) {
    EXPECT_EQ(ids.status().code(), StatusCode::kResourceExhausted);
  }
}

TEST(TokenizerTest, LongWordMergesInLinearithmicTime) {
  auto t = Load(LlamaJson(""));
  ASSERT_NE(t, nullptr);
  // No pre-tokenizer: 1 MiB of text is one word for the BPE.
  std::string text(1 << 20, 'a');
  auto ids = t->Encode(text, {});
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(ids->size(), text.size());
  EXPECT_EQ((*ids)[0], 4);
}

TEST(TokenizerTest, EncodeBatchMatchesEncode) {
  auto t = Load(kByteLevel);
  ASSERT_NE(t, nullptr);
  std::vector<std::string> texts;
  for (int i = 0; i < 100; ++i)
    texts.push_back(std::string(i % 7, 'h') + " hi!" + std::to_string(i));
  std::vector<std::string_view> views(texts.begin(), texts.end());
  std::vector<std::vector<int32_t>> out;
  ASSERT_TRUE(t->EncodeBatch(views, {}, 4, &out).ok());
  for (size_t i = 0; i < texts.size(); ++i)
    EXPECT_EQ(out[i], Encode(*t, texts[i]));
}

std::string StreamDecode(const Tokenizer& t, const std::vector<int32_t>& ids,
                         std::vector<std::string>* pieces) {
  auto stream = t.NewDecodeStream(false);
  std::string all;
  for (int32_t id : ids) {
    std::string piece;
    EXPECT_TRUE(stream->Feed(std::vector<int32_t>{id}, &piece).ok());
    pieces->push_back(piece);
    all += piece;
  }
  std::string rest;
  EXPECT_TRUE(stream->Finalize(&rest).ok());
  pieces->push_back(rest);
  return all + rest;
}

TEST(TokenizerTest, DecodeStreamHoldsAByteFallbackRunUntilItEnds) {
  auto t = Load(LlamaJson(""));
  ASSERT_NE(t, nullptr);
  // "▁a" then the bytes of "é" (C3 A9), then "▁a": the run is text only
  // once a non-byte token ends it; the leading space is stripped.
  std::vector<int32_t> ids{4, 10 + 0xC3, 10 + 0xA9, 4};
  std::vector<std::string> pieces;
  EXPECT_EQ(StreamDecode(*t, ids, &pieces), "a\xC3\xA9 a");
  EXPECT_EQ(pieces, (std::vector<std::string>{"a", "", "", "\xC3\xA9 a", ""}));
  auto whole = t->Decode(ids, false);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(*whole, "a\xC3\xA9 a");
  // An invalid run ends as one U+FFFD per byte, as Decode does.
  ids = {10 + 0xC3, 4};
  pieces.clear();
  EXPECT_EQ(StreamDecode(*t, ids, &pieces), *t->Decode(ids, false));
}

TEST(TokenizerTest, DecodeStreamWaitsForTheRestOfAUtf8Sequence) {
  auto t = Load(kByteLevel);
  ASSERT_NE(t, nullptr);
  auto stream = t->NewDecodeStream(false);
  std::string text;
  ASSERT_TRUE(stream->Feed(std::vector<int32_t>{4}, &text).ok());
  EXPECT_EQ(text, "hi");
  auto unknown = stream->Feed(std::vector<int32_t>{12345}, &text);
  EXPECT_EQ(unknown.code(), StatusCode::kOutOfRange);
  ASSERT_TRUE(stream->Finalize(&text).ok());
  EXPECT_EQ(text, "hi");
  EXPECT_FALSE(stream->Feed(std::vector<int32_t>{4}, &text).ok());
  EXPECT_EQ(DecidedUtf8PrefixForTest("a\xE2\x82"), 1u);
  EXPECT_EQ(DecidedUtf8PrefixForTest("a\xE2\x82\xAC"), 4u);
  EXPECT_EQ(DecidedUtf8PrefixForTest("a\xE2\x41"), 3u);
  EXPECT_EQ(DecidedUtf8PrefixForTest("\xFF"), 1u);
}

// A template whose special token id names no token is refused at load
// (encode would emit an id that every decode then rejects). Found by
// tokenizer_loader_fuzzer.
TEST(TokenizerTest, TemplateIdsMustNameTokens) {
  std::string json(kByteLevel);
  const std::string with_template =
      R"("post_processor": {"type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                   {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [], "special_tokens": {"<s>": {"id": "<s>", "ids": [ID],
                                               "tokens": ["<s>"]}}},)";
  const size_t at = json.find(R"("post_processor": null,)");
  ASSERT_NE(at, std::string::npos);
  auto with_id = [&](const char* id) {
    std::string text = with_template;
    text.replace(text.find("ID"), 2, id);
    std::string changed = json;
    changed.replace(at, std::string(R"("post_processor": null,)").size(), text);
    return Tokenizer::FromHuggingFaceJson(changed);
  };
  auto good = with_id("9");  // the added <|eot|>
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EncodeOptions options;
  options.add_special_tokens = true;
  auto ids = (*good)->Encode("hi", options);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::vector<int32_t>{9, 4}));
  auto bad = with_id("7");  // no token has id 7
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("special token id 7"),
            std::string_view::npos);
}

}  // namespace
}  // namespace ember::tokenizer
