// Unit tests of the decoders, the decode stream, the post-processors and the
// added-token options on small hand-written tokenizer.json files, with the
// expected text worked out by hand from `tokenizers`' rules, plus hostile
// files (the differential tests against HuggingFace `tokenizers` are in
// tests/python/test_tokenizer_post_decode.py).
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

#include "runtime/tokenizer/tokenizer.h"
#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {
namespace {

// The vocabulary of the decoder tests (id = position); "[S]" (id 100) is a
// special added token, "<x>" (101) a plain one.
const char* const kTokens[] = {"hello",
                               "##wor",
                               "##ld",
                               "!",
                               "do",
                               "n't",
                               "\xE2\x96\x81hel",
                               "lo",
                               "\xE2\x96\x81world",
                               "<pad>",
                               "h",
                               "e",
                               "l",
                               "o",
                               "|",
                               "w",
                               "hel",
                               "lo</w>",
                               "wor",
                               "ld</w>",
                               "<0xC3>",
                               "<0xA9>",
                               "<0xFF>",
                               "a",
                               "\xE2\x96\x81",
                               "a\xE2\x96\x81"
                               "b",
                               " .",
                               ".",
                               "##"};

std::string Json(const std::string& decoder,
                 const std::string& post_processor = "null",
                 const std::string& added = "") {
  std::string vocab;
  for (size_t i = 0; i < std::size(kTokens); ++i) {
    if (i) vocab += ", ";
    vocab += "\"" + std::string(kTokens[i]) + "\": " + std::to_string(i);
  }
  return R"({"version": "1.0", "truncation": null, "padding": null,
    "added_tokens": [
      {"id": 100, "content": "[S]", "single_word": false, "lstrip": false,
       "rstrip": false, "normalized": false, "special": true},
      {"id": 101, "content": "<x>", "single_word": false, "lstrip": false,
       "rstrip": false, "normalized": false, "special": false})" +
         added + R"(],
    "normalizer": null, "pre_tokenizer": null,
    "post_processor": )" +
         post_processor + R"(, "decoder": )" + decoder + R"(,
    "model": {"type": "BPE", "dropout": null, "unk_token": null,
      "continuing_subword_prefix": null, "end_of_word_suffix": null,
      "fuse_unk": false, "byte_fallback": false, "ignore_merges": true,
      "vocab": {)" +
         vocab + R"(}, "merges": []}})";
}

std::unique_ptr<Tokenizer> Load(const std::string& json) {
  auto t = Tokenizer::FromHuggingFaceJson(json);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? std::move(t).value() : nullptr;
}

std::string Decode(const Tokenizer& t, std::vector<int32_t> ids,
                   bool skip = false) {
  auto text = t.Decode(ids, skip);
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  return text.ok() ? *text : "<error>";
}

// The stream fed one id at a time; each piece is also checked against
// `pieces` when given.
std::string Stream(const Tokenizer& t, const std::vector<int32_t>& ids,
                   bool skip = false,
                   std::vector<std::string>* pieces = nullptr) {
  auto stream = t.NewDecodeStream(skip);
  std::string all;
  for (int32_t id : ids) {
    std::string piece;
    Status s = stream->Feed(std::span<const int32_t>(&id, 1), &piece);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (pieces) pieces->push_back(piece);
    all += piece;
  }
  std::string rest;
  EXPECT_TRUE(stream->Finalize(&rest).ok());
  if (pieces) pieces->push_back(rest);
  return all + rest;
}

TEST(DecodersTest, WordPieceJoinsAndCleansUp) {
  auto t = Load(Json(R"({"type": "WordPiece", "prefix": "##",
                         "cleanup": true})"));
  ASSERT_NE(t, nullptr);
  // "!" and "n't" get a space, which the cleanup removes again.
  std::vector<int32_t> ids = {0, 1, 2, 3, 4, 5};
  EXPECT_EQ(Decode(*t, ids), "helloworld! don't");
  std::vector<std::string> pieces;
  EXPECT_EQ(Stream(*t, ids, false, &pieces), "helloworld! don't");
  // Incremental: every token's text comes with it.
  EXPECT_EQ(pieces[1], "wor");
  EXPECT_EQ(pieces[5], "n't");
  // The first token keeps its prefix; cleanup works per token.
  EXPECT_EQ(Decode(*t, {1, 27}), "##wor.");
  EXPECT_EQ(Decode(*t, {28, 28}), "##");  // the second "##" becomes ""
  auto no_cleanup = Load(Json(R"({"type": "WordPiece", "prefix": "##",
                                  "cleanup": false})"));
  EXPECT_EQ(Decode(*no_cleanup, {0, 3, 4, 5}), "hello ! do n't");
}

TEST(DecodersTest, MetaspaceDropsTheFirstTokensReplacements) {
  auto t = Load(Json(R"({"type": "Metaspace", "replacement": "\u2581",
                         "prepend_scheme": "always", "split": true})"));
  ASSERT_NE(t, nullptr);
  // Every U+2581 of the first token goes, not only the leading one.
  EXPECT_EQ(Decode(*t, {25, 8}), "ab world");
  EXPECT_EQ(Decode(*t, {6, 7, 8}), "hello world");
  // After a skipped special token, the next one is the first.
  EXPECT_EQ(Decode(*t, {100, 8}, true), "world");
  EXPECT_EQ(Stream(*t, {100, 8}, true), "world");
  auto never = Load(Json(R"({"type": "Metaspace", "replacement": "\u2581",
                             "prepend_scheme": "never"})"));
  EXPECT_EQ(Decode(*never, {6, 7, 8}), " hello world");
}

TEST(DecodersTest, CtcDedupsThenDropsPadsAndDelimits) {
  auto t = Load(Json(R"({"type": "CTC", "pad_token": "<pad>",
                         "word_delimiter_token": "|", "cleanup": true})"));
  ASSERT_NE(t, nullptr);
  // <pad> h h <pad> e l l <pad> l o | w
  std::vector<int32_t> ids = {9, 10, 10, 9, 11, 12, 12, 9, 12, 13, 14, 15};
  EXPECT_EQ(Decode(*t, ids), "hello w");
  EXPECT_EQ(Stream(*t, ids), "hello w");
}

TEST(DecodersTest, BpeDecoderHoldsTheLastToken) {
  auto t = Load(Json(R"({"type": "BPEDecoder", "suffix": "</w>"})"));
  ASSERT_NE(t, nullptr);
  std::vector<int32_t> ids = {16, 17, 18, 19};
  EXPECT_EQ(Decode(*t, ids), "hello world");
  std::vector<std::string> pieces;
  EXPECT_EQ(Stream(*t, ids, false, &pieces), "hello world");
  EXPECT_EQ(pieces[0], "");  // held: it might be the last
  EXPECT_EQ(pieces[1], "hel");
  EXPECT_EQ(pieces.back(), "ld");
  // Rust's replace with an empty pattern: before every character and at
  // the end.
  auto empty = Load(Json(R"({"type": "BPEDecoder", "suffix": ""})"));
  EXPECT_EQ(Decode(*empty, {16, 23}),
            " h e l "
            "a");
}

TEST(DecodersTest, ByteFallbackRunsInAChain) {
  auto t = Load(Json(R"({"type": "Sequence", "decoders": [
      {"type": "ByteFallback"}, {"type": "Fuse"},
      {"type": "Metaspace", "replacement": "\u2581",
       "prepend_scheme": "first"}]})"));
  ASSERT_NE(t, nullptr);
  std::vector<int32_t> ids = {20, 21, 24, 22, 23};
  // é, U+2581 (dropped: the fused text is the first token), U+FFFD, a.
  EXPECT_EQ(Decode(*t, ids),
            "\xC3\xA9\xEF\xBF\xBD"
            "a");
  std::vector<std::string> pieces;
  EXPECT_EQ(Stream(*t, ids, false, &pieces), Decode(*t, ids));
  EXPECT_EQ(pieces[0], "");  // half of é
  EXPECT_EQ(pieces[1], "");  // the run may go on
  EXPECT_EQ(pieces[2], "\xC3\xA9");
  EXPECT_EQ(pieces[3], "\xEF\xBF\xBD");  // 0xFF is never valid: at once
}

TEST(DecodersTest, StreamEqualsDecodeForEveryChain) {
  const char* chains[] = {
      R"({"type": "WordPiece", "prefix": "##", "cleanup": true})",
      R"({"type": "Metaspace", "replacement": "\u2581"})",
      R"({"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|",
          "cleanup": true})",
      R"({"type": "BPEDecoder", "suffix": "</w>"})",
      R"({"type": "ByteLevel"})",
      R"({"type": "Sequence", "decoders": [
          {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
          {"type": "ByteFallback"}, {"type": "Fuse"},
          {"type": "Strip", "content": " ", "start": 1, "stop": 0}]})",
      R"({"type": "Sequence", "decoders": [{"type": "Fuse"},
          {"type": "Replace", "pattern": {"String": "lol"}, "content": "!"},
          {"type": "Strip", "content": "h", "start": 3, "stop": 0}]})",
      R"({"type": "Sequence", "decoders": [{"type": "ByteFallback"},
          {"type": "CTC", "pad_token": "", "word_delimiter_token": "",
           "cleanup": false},
          {"type": "Strip", "content": "l", "start": 1, "stop": 1}]})",
      R"({"type": "Sequence", "decoders": [{"type": "Fuse"},
          {"type": "WordPiece", "prefix": "##", "cleanup": true}]})",
      "null",
  };
  std::mt19937 rng(7);
  const int32_t n = static_cast<int32_t>(std::size(kTokens));
  for (const char* chain : chains) {
    auto t = Load(Json(chain));
    ASSERT_NE(t, nullptr) << chain;
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<int32_t> ids(rng() % 12);
      for (int32_t& id : ids) {
        uint32_t r = rng() % (n + 2);
        id = r < static_cast<uint32_t>(n) ? static_cast<int32_t>(r)
                                          : 100 + static_cast<int32_t>(r - n);
      }
      for (bool skip : {false, true}) {
        EXPECT_EQ(Stream(*t, ids, skip), Decode(*t, ids, skip)) << chain;
      }
    }
  }
}

TEST(DecodersTest, HostileDecodersGetClearErrors) {
  auto expect_error = [](const std::string& decoder, StatusCode code,
                         const char* needle) {
    auto t = Tokenizer::FromHuggingFaceJson(Json(decoder));
    ASSERT_FALSE(t.ok()) << decoder;
    EXPECT_EQ(t.status().code(), code) << t.status().ToString();
    EXPECT_NE(t.status().ToString().find(needle), std::string::npos)
        << t.status().ToString();
  };
  expect_error(R"({"type": "WordPiece", "prefix": "##"})",
               StatusCode::kInvalidArgument, "cleanup");
  expect_error(R"({"type": "WordPiece", "prefix": 3, "cleanup": true})",
               StatusCode::kInvalidArgument, "prefix");
  expect_error(R"({"type": "Metaspace", "replacement": ""})",
               StatusCode::kInvalidArgument, "replacement");
  expect_error(R"({"type": "Metaspace", "replacement": "_",
                   "prepend_scheme": 1})",
               StatusCode::kInvalidArgument, "prepend_scheme");
  expect_error(R"({"type": "CTC", "pad_token": "a", "cleanup": true})",
               StatusCode::kInvalidArgument, "word_delimiter_token");
  expect_error(
      R"({"type": "BPEDecoder", "suffix": ")" + std::string(5000, 'x') + "\"}",
      StatusCode::kInvalidArgument, "over");
  expect_error(R"({"type": "Mystery"})", StatusCode::kUnimplemented, "Mystery");
  std::string many = R"({"type": "Sequence", "decoders": [)";
  for (int i = 0; i < 100; ++i)
    many += i ? R"(, {"type": "Fuse"})" : R"({"type": "Fuse"})";
  expect_error(many + "]}", StatusCode::kInvalidArgument, "more than 64");
  std::string deep;
  for (int i = 0; i < 20; ++i) deep += R"({"type": "Sequence", "decoders": [)";
  deep += R"({"type": "Fuse"})";
  for (int i = 0; i < 20; ++i) deep += "]}";
  expect_error(deep, StatusCode::kInvalidArgument, "nest too deep");
}

TEST(DecodersTest, ExplodingChainsAreBounded) {
  // Each BPEDecoder with an empty suffix doubles the text (but the last
  // token's).
  std::string chain = R"({"type": "Sequence", "decoders": [)";
  for (int i = 0; i < 60; ++i) {
    chain += i ? ", " : "";
    chain += R"({"type": "BPEDecoder", "suffix": ""})";
  }
  auto t = Load(Json(chain + "]}"));
  ASSERT_NE(t, nullptr);
  auto text = t->Decode(std::vector<int32_t>{0, 16}, false);
  EXPECT_EQ(text.status().code(), StatusCode::kResourceExhausted);
  auto stream = t->NewDecodeStream(false);
  std::string out;
  std::vector<int32_t> ids = {0, 16};
  // Each BPEDecoder stage holds a token: the text explodes at Finalize.
  Status status = stream->Feed(ids, &out);
  if (status.ok()) status = stream->Finalize(&out);
  EXPECT_EQ(status.code(), StatusCode::kResourceExhausted);
}

TEST(DecodersTest, StreamRejectsBadIdsAndUseAfterFinalize) {
  for (const char* chain : {"null", R"({"type": "WordPiece", "prefix": "##",
                                        "cleanup": true})",
                            R"({"type": "Sequence", "decoders": [
                                {"type": "Fuse"}, {"type": "WordPiece",
                                "prefix": "##", "cleanup": true}]})"}) {
    auto t = Load(Json(chain));
    ASSERT_NE(t, nullptr);
    auto stream = t->NewDecodeStream(false);
    std::string out;
    for (int32_t bad : {-1, 99, 102, INT32_MAX}) {
      EXPECT_EQ(stream->Feed(std::span<const int32_t>(&bad, 1), &out).code(),
                StatusCode::kOutOfRange);
    }
    EXPECT_TRUE(stream->Finalize(&out).ok());
    int32_t id = 0;
    EXPECT_EQ(stream->Feed(std::span<const int32_t>(&id, 1), &out).code(),
              StatusCode::kFailedPrecondition);
  }
}

// ---- post-processors

std::vector<int32_t> Encode(const Tokenizer& t, std::string_view text,
                            bool add_special_tokens) {
  EncodeOptions options;
  options.add_special_tokens = add_special_tokens;
  auto ids = t.Encode(text, options);
  EXPECT_TRUE(ids.ok()) << ids.status().ToString();
  return ids.ok() ? *ids : std::vector<int32_t>{-1};
}

constexpr const char* kTemplate = R"({"type": "TemplateProcessing",
    "single": [{"SpecialToken": {"id": "[S]", "type_id": 0}},
               {"Sequence": {"id": "A", "type_id": 0}}],
    "pair": [{"Sequence": {"id": "A", "type_id": 0}},
             {"SpecialToken": {"id": "<x>", "type_id": 1}},
             {"Sequence": {"id": "B", "type_id": 1}}],
    "special_tokens": {"[S]": {"id": "[S]", "ids": [100], "tokens": ["[S]"]},
                       "<x>": {"id": "<x>", "ids": [101, 101],
                               "tokens": ["<x>", "<x>"]}}})";

TEST(PostProcessorsTest, BertAndRoberta) {
  auto bert = Load(Json("null", R"({"type": "BertProcessing",
      "sep": ["<x>", 101], "cls": ["[S]", 100]})"));
  ASSERT_NE(bert, nullptr);
  EXPECT_EQ(Encode(*bert, "hello", true), (std::vector<int32_t>{100, 0, 101}));
  EXPECT_EQ(Encode(*bert, "hello", false), (std::vector<int32_t>{0}));
  EXPECT_EQ(Encode(*bert, "", true), (std::vector<int32_t>{100, 101}));
}

TEST(PostProcessorsTest, SequencesPassAListOfEncodings) {
  // The template makes 2 encodings ([S], A); the next template gets a
  // pair: A=[100], B=[0], so its pair template gives 100 101 101 0.
  auto t = Load(Json("null", std::string(R"({"type": "Sequence",
      "processors": [)") + kTemplate +
                                 ", " + kTemplate + "]}"));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "hello", true),
            (std::vector<int32_t>{100, 101, 101, 0}));
  EXPECT_EQ(Encode(*t, "hello", false), (std::vector<int32_t>{0}));
  // Bert after the template: [S] -> cls [S] sep; A -> A sep. Roberta puts
  // a sep in front of the second too.
  auto bert = Load(Json("null", std::string(R"({"type": "Sequence",
      "processors": [)") + kTemplate +
                                    R"(, {"type": "BertProcessing",
      "sep": ["<x>", 101], "cls": ["[S]", 100]}]})"));
  ASSERT_NE(bert, nullptr);
  EXPECT_EQ(Encode(*bert, "hello", true),
            (std::vector<int32_t>{100, 100, 101, 0, 101}));
  auto roberta = Load(Json("null", std::string(R"({"type": "Sequence",
      "processors": [)") + kTemplate + R"(, {"type": "RobertaProcessing",
      "sep": ["<x>", 101], "cls": ["[S]", 100], "trim_offsets": true,
      "add_prefix_space": false}]})"));
  ASSERT_NE(roberta, nullptr);
  EXPECT_EQ(Encode(*roberta, "hello", true),
            (std::vector<int32_t>{100, 100, 101, 101, 0, 101}));
}

TEST(PostProcessorsTest, WhatPanicsInTokenizersIsAnError) {
  // A template naming B in "single".
  auto t = Load(Json("null", R"({"type": "TemplateProcessing",
      "single": [{"Sequence": {"id": "B", "type_id": 0}}], "pair": [],
      "special_tokens": {}})"));
  ASSERT_NE(t, nullptr);
  EncodeOptions options;
  EXPECT_EQ(t->Encode("hello", options).status().code(),
            StatusCode::kInvalidArgument);
  // A missing special token: only with add_special_tokens.
  auto missing = Load(Json("null", R"({"type": "TemplateProcessing",
      "single": [{"SpecialToken": {"id": "?", "type_id": 0}},
                 {"Sequence": {"id": "A", "type_id": 0}}], "pair": [],
      "special_tokens": {}})"));
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ(Encode(*missing, "hello", false), (std::vector<int32_t>{0}));
  options.add_special_tokens = true;
  EXPECT_EQ(missing->Encode("hello", options).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(PostProcessorsTest, HostilePostProcessorsAreRefusedOrBounded) {
  auto refused = [](const std::string& pp, const char* needle) {
    auto t = Tokenizer::FromHuggingFaceJson(Json("null", pp));
    ASSERT_FALSE(t.ok()) << pp;
    EXPECT_NE(t.status().ToString().find(needle), std::string::npos)
        << t.status().ToString();
  };
  refused(R"({"type": "BertProcessing", "sep": ["a", 1]})", "cls");
  refused(R"({"type": "BertProcessing", "sep": ["a", 7777],
              "cls": ["b", 0]})",
          "special token id 7777");
  refused(R"({"type": "BertProcessing", "sep": ["a", -1], "cls": ["b", 0]})",
          "sep");
  refused(R"({"type": "ByteLevel"})", "add_prefix_space");
  refused(R"({"type": "TemplateProcessing",
              "single": [{"SpecialToken": {"id": "s", "type_id": 0}}],
              "pair": [], "special_tokens": {"s": {"id": "s",
              "ids": [1, 2, 999999], "tokens": []}}})",
          "special token id 999999");
  refused(R"({"type": "TemplateProcessing", "single": [{"X": {}}],
              "pair": [], "special_tokens": {}})",
          "neither a Sequence");
  // The largest template repeats the sequence 64 times; nothing grows
  // beyond that (a template for more than 2 encodings is an error).
  std::string big = R"({"type": "Sequence", "processors": [
      {"type": "TemplateProcessing", "single": [)";
  for (int i = 0; i < 64; ++i) {
    big += i ? ", " : "";
    big += R"({"Sequence": {"id": "A", "type_id": 0}})";
  }
  big += R"(], "pair": [], "special_tokens": {}},
      {"type": "BertProcessing", "sep": ["a", 23], "cls": ["b", 10]}]})";
  auto t = Load(Json("null", big));
  ASSERT_NE(t, nullptr);
  // Bert wraps each of the 64 encodings: cls 0 sep, then 63 times 0 sep.
  std::vector<int32_t> want = {10};
  for (int i = 0; i < 64; ++i) want.insert(want.end(), {0, 23});
  EXPECT_EQ(Encode(*t, "hello", true), want);
}

// ---- added tokens

// "<m>" lstrip, "<r>" rstrip, "wo" single_word; "hello" is in the model.
const std::string kAdded = R"(,
  {"id": 102, "content": "<m>", "single_word": false, "lstrip": true,
   "rstrip": false, "normalized": false, "special": true},
  {"id": 103, "content": "<r>", "single_word": false, "lstrip": false,
   "rstrip": true, "normalized": false, "special": false},
  {"id": 104, "content": "wo", "single_word": true, "lstrip": false,
   "rstrip": false, "normalized": false, "special": false})";

TEST(AddedTokensTest, StripAndSingleWord) {
  auto t = Load(Json("null", "null", kAdded));
  ASSERT_NE(t, nullptr);
  // lstrip takes the whitespace before (U+3000 and U+0085 are White_Space),
  // rstrip the whitespace after; the model has "hello".
  EXPECT_EQ(Encode(*t, "hello \xE3\x80\x80\xC2\x85<m>", false),
            (std::vector<int32_t>{0, 102}));
  EXPECT_EQ(Encode(*t, "<r> \t\nhello", false), (std::vector<int32_t>{103, 0}));
  // U+200B is not whitespace: nothing to strip; "\u200Bhello" is no token,
  // so its characters are (U+200B has none and is dropped).
  EXPECT_EQ(Encode(*t, "<r>\xE2\x80\x8Bhello", false),
            (std::vector<int32_t>{103, 10, 11, 12, 12, 13}));
  // single_word: "wo" matches only between non-word characters.
  EXPECT_EQ(Encode(*t, "wo", false), (std::vector<int32_t>{104}));
  EXPECT_EQ(Encode(*t, "!wo.", false), (std::vector<int32_t>{3, 104, 27}));
  EXPECT_EQ(Encode(*t, "hellowo", false),
            (std::vector<int32_t>{10, 11, 12, 12, 13, 15, 13}));
  // A combining mark and U+200D are word characters (Rust's `\w`).
  EXPECT_EQ(Encode(*t, "wo\xCC\x81", false), (std::vector<int32_t>{15, 13}));
  EXPECT_EQ(Encode(*t, "\xE2\x80\x8Dwo", false),
            (std::vector<int32_t>{15, 13}));
  // Special: skipped with no_special_token_matching, the whitespace too.
  EncodeOptions options;
  options.no_special_token_matching = true;
  auto ids = t->Encode(" <m>", options);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(ids->size(), 0u);  // " <m>" as text: none of it is a token
}

TEST(AddedTokensTest, RstripReachingPastTheNextMatch) {
  // "<r>" takes the spaces after it; " x" starts inside them. `tokenizers`
  // emits both tokens (its offsets overlap); so does Ember.
  auto t = Load(Json("null", "null", kAdded + R"(,
      {"id": 105, "content": " h", "single_word": false, "lstrip": false,
       "rstrip": false, "normalized": false, "special": false})"));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "<r>  hello", false),
            (std::vector<int32_t>{103, 105, 11, 12, 12, 13}));
}

// A whitespace token with rstrip or lstrip on a long run of whitespace:
// every position matches and would rescan the run (quadratic); each byte is
// looked at a bounded number of times instead. The ids are `tokenizers'`:
// one token per match.
TEST(AddedTokensTest, StripOnLongWhitespaceRunsIsLinear) {
  auto t = Load(Json("null", "null", R"(,
      {"id": 102, "content": " ", "single_word": false, "lstrip": false,
       "rstrip": true, "normalized": false, "special": false},
      {"id": 103, "content": "\t", "single_word": true, "lstrip": true,
       "rstrip": true, "normalized": false, "special": false})"));
  ASSERT_NE(t, nullptr);
  const size_t n = 400000;
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Encode(*t, std::string(n, ' '), false),
            std::vector<int32_t>(n, 102));
  EXPECT_EQ(Encode(*t, std::string(n, '\t'), false),
            std::vector<int32_t>(n, 103));
  std::string mixed;
  for (size_t i = 0; i < n / 4; ++i) mixed += " \t";
  EXPECT_EQ(Encode(*t, mixed, false).size(), n / 2);
  // Quadratic stripping of 400,000 characters would take minutes; the
  // bound leaves room for a sanitizer build on a loaded machine.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

}  // namespace
}  // namespace ember::tokenizer
