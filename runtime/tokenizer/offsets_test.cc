// Unit tests of Tokenizer::EncodeWithOffsets on small hand-written
// tokenizers whose offsets follow from `tokenizers`' alignment rules by hand
// (docs/tokenizer.md "Offsets"); the differential tests against
// HuggingFace `tokenizers` are in tests/python/test_tokenizer_offsets.py.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/tokenizer/tokenizer.h"

namespace ember::tokenizer {
namespace {

using Offsets = std::vector<TokenOffsets>;

// A character-level WordPiece-free BPE on a few letters, no merges, with
// `normalizer` and `pre_tokenizer` spliced in, "<s>" special and "[X]"
// (lstrip) added.
std::string Json(const std::string& normalizer,
                 const std::string& pre_tokenizer,
                 const std::string& post_processor = "null") {
  return R"({"added_tokens": [
    {"id": 20, "content": "<s>", "single_word": false, "lstrip": false,
     "rstrip": false, "normalized": false, "special": true},
    {"id": 21, "content": "[X]", "single_word": false, "lstrip": true,
     "rstrip": false, "normalized": false, "special": false}],
  "normalizer": )" +
         normalizer + R"(, "pre_tokenizer": )" + pre_tokenizer +
         R"(, "post_processor": )" + post_processor + R"(,
  "decoder": null,
  "model": {"type": "BPE", "unk_token": "?", "fuse_unk": true,
    "byte_fallback": false,
    "vocab": {"?": 0, "a": 1, "b": 2, "\u00e9": 3, "e": 4, "\u0301": 5,
              " ": 6, "\u2581": 7, "ab": 8, "\u2581a": 9},
    "merges": ["a b", "\u2581 a"]}})";
}

void Expect(const std::string& json, std::string_view text,
            const std::vector<int32_t>& want_ids, const Offsets& want,
            bool add_special_tokens = false) {
  auto t = Tokenizer::FromHuggingFaceJson(json);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  std::vector<int32_t> ids;
  Offsets offsets;
  EncodeOptions options;
  options.add_special_tokens = add_special_tokens;
  ASSERT_TRUE((*t)->EncodeWithOffsets(text, options, &ids, &offsets).ok());
  EXPECT_EQ(ids, want_ids) << text;
  EXPECT_EQ(offsets, want) << text;
  // The ids are Encode's.
  auto plain = (*t)->Encode(text, options);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(*plain, ids);
}

TEST(OffsetsTest, PlainTextAndAddedTokens) {
  // "[X]" takes the spaces before it (lstrip): its offsets include them.
  Expect(Json("null", "null"), "ab<s>a  [X]b", {8, 20, 1, 21, 2},
         {{0, 2}, {2, 5}, {5, 6}, {6, 11}, {11, 12}});
  // An unknown run (fused) spans its characters.
  Expect(Json("null", "null"), "xyza", {0, 1}, {{0, 3}, {3, 4}});
}

TEST(OffsetsTest, CompositionGivesTheFirstCharacter) {
  // NFC makes "e" + U+0301 one "é", aligned to the "e" alone (3 bytes of
  // text, offsets of 1), as `tokenizers` does.
  Expect(Json(R"({"type": "NFC"})", "null"),
         "e\xcc\x81"
         "a",
         {3, 1}, {{0, 1}, {3, 4}});
  // NFD's second character is inserted: both take the "é".
  Expect(Json(R"({"type": "NFD"})", "null"), "\xc3\xa9", {4, 5},
         {{0, 2}, {0, 2}});
}

TEST(OffsetsTest, MetaspaceAndPrependedText) {
  // The prepended U+2581 takes the first character's alignment, a space
  // turned into U+2581 its own.
  const std::string json =
      Json("null", R"({"type": "Metaspace", "replacement": "\u2581",
                   "prepend_scheme": "always", "split": true})");
  Expect(json, "a a", {9, 9}, {{0, 1}, {1, 3}});
  // "first" after a Strip normalizer: the piece starts at byte 1, so
  // nothing is prepended (`tokenizers`' original_shift rule).
  const std::string first =
      Json(R"({"type": "Strip", "strip_left": true, "strip_right": false})",
           R"({"type": "Metaspace", "replacement": "\u2581",
          "prepend_scheme": "first", "split": true})");
  Expect(first, " a", {1}, {{1, 2}});
  Expect(first, "a", {9}, {{0, 1}});
}

TEST(OffsetsTest, PostProcessorTokensHaveZeroOffsets) {
  const std::string json = Json("null", "null",
                                R"({"type": "TemplateProcessing",
          "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                     {"Sequence": {"id": "A", "type_id": 0}}],
          "pair": [{"Sequence": {"id": "A", "type_id": 0}}],
          "special_tokens": {"<s>": {"id": "<s>", "ids": [20],
                                     "tokens": ["<s>"]}}})");
  Expect(json, "ab", {20, 8}, {{0, 0}, {0, 2}}, true);
  Expect(json, "ab", {8}, {{0, 2}}, false);
}

TEST(OffsetsTest, PairsUseThePairTemplate) {
  // [<s>] a [<s>] b: each text encoded on its own; the pair's offsets are
  // in the pair's text.
  const std::string json = Json("null", "null",
                                R"({"type": "TemplateProcessing",
          "single": [{"Sequence": {"id": "A", "type_id": 0}}],
          "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                   {"Sequence": {"id": "A", "type_id": 0}},
                   {"SpecialToken": {"id": "<s>", "type_id": 1}},
                   {"Sequence": {"id": "B", "type_id": 1}}],
          "special_tokens": {"<s>": {"id": "<s>", "ids": [20],
                                     "tokens": ["<s>"]}}})");
  auto t = Tokenizer::FromHuggingFaceJson(json);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EncodeOptions options;
  options.add_special_tokens = true;
  std::vector<int32_t> ids;
  Offsets offsets;
  ASSERT_TRUE(
      (*t)->EncodePairWithOffsets("ab", "xa", options, &ids, &offsets).ok());
  EXPECT_EQ(ids, (std::vector<int32_t>{20, 8, 20, 0, 1}));
  EXPECT_EQ(offsets, (Offsets{{0, 0}, {0, 2}, {0, 0}, {0, 1}, {1, 2}}));
  std::vector<int32_t> plain;
  ASSERT_TRUE((*t)->EncodePair("ab", "xa", options, &plain).ok());
  EXPECT_EQ(plain, ids);
  // Characters: "é" is one character of two bytes.
  options.char_offsets = true;
  const std::string e_acute_a =
      "\xc3\xa9"
      "a";
  ASSERT_TRUE(
      (*t)->EncodePairWithOffsets(e_acute_a, "a", options, &ids, &offsets)
          .ok());
  EXPECT_EQ(ids, (std::vector<int32_t>{20, 3, 1, 20, 1}));
  EXPECT_EQ(offsets, (Offsets{{0, 0}, {0, 1}, {1, 2}, {0, 0}, {0, 1}}));
}

TEST(OffsetsTest, InvalidUtf8IsAnError) {
  auto t = Tokenizer::FromHuggingFaceJson(Json("null", "null"));
  ASSERT_TRUE(t.ok());
  std::vector<int32_t> ids;
  Offsets offsets;
  EXPECT_FALSE(
      (*t)->EncodeWithOffsets("a\xff", EncodeOptions{}, &ids, &offsets).ok());
}

}  // namespace
}  // namespace ember::tokenizer
