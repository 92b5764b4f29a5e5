// Unit tests of the normalizers (normalizers.cc, precompiled.cc) on
// hand-written cases whose results follow from `tokenizers`' rules by hand,
// and hostile `precompiled_charsmap` blobs (the differential tests against
// HuggingFace `tokenizers` are in tests/python/test_tokenizer_normalizers.py).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "runtime/tokenizer/json_util.h"
#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {
namespace {

// The pipeline of one normalizer given as JSON.
Result<std::unique_ptr<Pipeline>> LoadOne(const std::string& json) {
  simdjson::dom::parser parser;
  element e;
  if (parser.parse(json).get(e) != simdjson::SUCCESS)
    return InvalidArgumentError("test JSON does not parse");
  auto p = std::make_unique<Pipeline>();
  EMBER_RETURN_IF_ERROR(LoadNormalizer(e, 0, p.get()));
  return p;
}

std::string Norm(const std::string& json, std::string_view text) {
  auto p = LoadOne(json);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  if (!p.ok()) return "<load failed>";
  std::string out;
  Status s = (*p)->Normalize(text, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

TEST(NormalizersTest, LowercaseIsRustsFullMapping) {
  const std::string j = R"({"type": "Lowercase"})";
  EXPECT_EQ(Norm(j, "ABC xyz"), "abc xyz");
  EXPECT_EQ(Norm(j, "\xC4\xB0"), "i\xCC\x87");  // U+0130 -> i + U+0307
  // No final-sigma rule (char by char): both sigmas are U+03C3.
  EXPECT_EQ(Norm(j, "\xCE\xA3\xCE\xA3"), "\xCF\x83\xCF\x83");
  // Unicode 16 pairs that utf8proc 2.8 does not know: U+A7CB -> U+0264,
  // U+10D50 -> U+10D70.
  EXPECT_EQ(Norm(j, "\xEA\x9F\x8B"), "\xC9\xA4");
  EXPECT_EQ(Norm(j, "\xF0\x90\xB5\x90"), "\xF0\x90\xB5\xB0");
  EXPECT_EQ(Norm(j, ""), "");
}

TEST(NormalizersTest, StripUsesWhiteSpace) {
  const std::string both =
      R"({"type": "Strip", "strip_left": true, "strip_right": true})";
  const std::string left =
      R"({"type": "Strip", "strip_left": true, "strip_right": false})";
  const std::string right =
      R"({"type": "Strip", "strip_left": false, "strip_right": true})";
  EXPECT_EQ(Norm(both, " \t a b \n"), "a b");
  EXPECT_EQ(Norm(left, " \t a b \n"), "a b \n");
  EXPECT_EQ(Norm(right, " \t a b \n"), " \t a b");
  EXPECT_EQ(Norm(both, "   "), "");
  EXPECT_EQ(Norm(right, "   "), "");
  // U+0085 and U+3000 are White_Space; U+180E and U+200B are not.
  EXPECT_EQ(Norm(both, "\xC2\x85x\xE3\x80\x80"), "x");
  EXPECT_EQ(Norm(both, "\xE1\xA0\x8Ex\xE2\x80\x8B"),
            "\xE1\xA0\x8Ex\xE2\x80\x8B");
  EXPECT_FALSE(LoadOne(R"({"type": "Strip", "strip_left": true})").ok());
}

TEST(NormalizersTest, StripAccentsUsesTokenizersMarks) {
  const std::string j = R"({"type": "StripAccents"})";
  EXPECT_EQ(Norm(j, "e\xCC\x81\xCC\x84o"), "eo");
  EXPECT_EQ(Norm(j, "\xC3\xA9"), "\xC3\xA9");  // precomposed: no mark
  // U+1CF2 is a mark to `tokenizers` (older tables), U+0898 is not.
  EXPECT_EQ(Norm(j, "a\xE1\xB3\xB2"), "a");
  EXPECT_EQ(Norm(j, "a\xE0\xA2\x98"), "a\xE0\xA2\x98");
}

TEST(NormalizersTest, BertNormalizerSteps) {
  const std::string defaults = R"({"type": "BertNormalizer",
      "clean_text": true, "handle_chinese_chars": true,
      "strip_accents": null, "lowercase": true})";
  // Tab -> space; NUL, U+FFFD and the control U+0001 removed; spaces around
  // each CJK ideograph; NFD + nonspacing marks removed (strip_accents null
  // follows lowercase); lowercase.
  EXPECT_EQ(Norm(defaults, std::string("H\xC3\xA9llo\t\xE4\xB8\x96\0\x01"
                                       "\xEF\xBF\xBD\xE7\x95\x8C",
                                       18)),
            "hello  \xE4\xB8\x96  \xE7\x95\x8C ");
  const std::string keep_case = R"({"type": "BertNormalizer",
      "clean_text": false, "handle_chinese_chars": false,
      "strip_accents": null, "lowercase": false})";
  EXPECT_EQ(Norm(keep_case, "H\xC3\xA9\x01"), "H\xC3\xA9\x01");
  const std::string strip_only = R"({"type": "BertNormalizer",
      "clean_text": false, "handle_chinese_chars": false,
      "strip_accents": true, "lowercase": false})";
  EXPECT_EQ(Norm(strip_only, "H\xC3\xA9"), "He");
  EXPECT_FALSE(
      LoadOne(R"({"type": "BertNormalizer", "clean_text": true})").ok());
}

TEST(NormalizersTest, NmtAndByteLevel) {
  EXPECT_EQ(Norm(R"({"type": "Nmt"})",
                 "\x01"
                 "a\tb\xE2\x80\x8B"
                 "c\xEF\xBB\xBF\x7F"),
            "a b c ");
  EXPECT_EQ(Norm(R"({"type": "ByteLevel"})", "a \xC3\xA9"),
            "a\xC4\xA0\xC3\x83\xC2\xA9");
  EXPECT_EQ(Norm(R"({"type": "ByteLevel"})", ""), "");
}

// A charsmap: header, units, strings.
std::string Blob(const std::vector<uint32_t>& units, std::string_view strings) {
  std::string out(4 + 4 * units.size(), '\0');
  uint32_t size = static_cast<uint32_t>(4 * units.size());
  std::memcpy(out.data(), &size, 4);  // little-endian hosts only
  for (size_t i = 0; i < units.size(); ++i)
    std::memcpy(out.data() + 4 + 4 * i, &units[i], 4);
  out.append(strings);
  return out;
}

// Keys "a" -> "X" and "b" -> "" (a deletion): root children at 0x100 ^ c;
// "a" at 0x161 (leaf below at 0x200), "b" at 0x162 (leaf at 0x300).
std::vector<uint32_t> SmallTrie(uint32_t a_value = 0, uint32_t b_value = 2) {
  std::vector<uint32_t> u(0x400, 0);
  u[0] = 0x100 << 10;
  u[0x161] = 0x61 | 0x100 | ((0x161 ^ 0x200) << 10);
  u[0x200] = (1u << 31) | a_value;
  u[0x162] = 0x62 | 0x100 | ((0x162 ^ 0x300) << 10);
  u[0x300] = (1u << 31) | b_value;
  return u;
}

Result<std::string> Precompiled(const std::string& blob,
                                std::string_view text) {
  EMBER_ASSIGN_OR_RETURN(auto map, PrecompiledCharsmap::FromBytes(blob));
  std::string out;
  EMBER_RETURN_IF_ERROR(map->Normalize(text, &out));
  return out;
}

TEST(PrecompiledTest, ClustersUnderSixBytesAreReplacedWhole) {
  std::string blob = Blob(SmallTrie(), std::string("X\0\0", 3));
  EXPECT_EQ(*Precompiled(blob, "abc"), "Xc");
  // "a" + U+0301 is one cluster of 3 bytes: the key "a" replaces all of it.
  EXPECT_EQ(*Precompiled(blob,
                         "a\xCC\x81"
                         "c"),
            "Xc");
  // A cluster of 6 bytes or more goes character by character.
  EXPECT_EQ(*Precompiled(blob, "a\xCC\x81\xCC\x81\xCC\x81"),
            "X\xCC\x81\xCC\x81\xCC\x81");
  // CR LF is one cluster; U+0600 (Prepend) joins the letter after it.
  EXPECT_EQ(*Precompiled(blob,
                         "\xD8\x80"
                         "a\xCC\x81"),
            "\xD8\x80X\xCC\x81");
  EXPECT_EQ(*Precompiled(blob, ""), "");
  // A NUL byte ends a lookup.
  EXPECT_EQ(*Precompiled(blob, std::string("\0a", 2)), std::string("\0X", 2));
}

TEST(PrecompiledTest, Base64IsStrict) {
  std::string blob = Blob(SmallTrie(), std::string("X\0\0", 3));
  EXPECT_FALSE(PrecompiledCharsmap::FromBase64("").ok());
  EXPECT_FALSE(PrecompiledCharsmap::FromBase64("AAA").ok());
  EXPECT_FALSE(PrecompiledCharsmap::FromBase64("AA=A").ok());
  EXPECT_FALSE(PrecompiledCharsmap::FromBase64("AB==").ok());  // bits left
  EXPECT_FALSE(PrecompiledCharsmap::FromBase64("A A=").ok());
  // "AAAAAA==" is 4 zero bytes: a header announcing an empty trie.
  EXPECT_FALSE(PrecompiledCharsmap::FromBase64("AAAAAA==").ok());
}

TEST(PrecompiledTest, HostileBlobsAreErrors) {
  EXPECT_FALSE(PrecompiledCharsmap::FromBytes("").ok());
  EXPECT_FALSE(PrecompiledCharsmap::FromBytes("abc").ok());
  // A trie larger than the blob.
  std::string big = Blob(SmallTrie(), "");
  big[0] = '\xFF';
  big[1] = '\xFF';
  EXPECT_FALSE(PrecompiledCharsmap::FromBytes(big).ok());
  // Strings that are not UTF-8.
  EXPECT_FALSE(PrecompiledCharsmap::FromBytes(Blob(SmallTrie(), "\xFF")).ok());
  // The root points outside the trie: an error at the first lookup.
  auto out = Precompiled(Blob({200u << 10, 0}, ""), "a");
  EXPECT_FALSE(out.ok());
  EXPECT_NE(out.status().ToString().find("outside"), std::string::npos);
  // The largest offset (bit 9 set: shifted by 8).
  EXPECT_FALSE(Precompiled(Blob({0xFFFFFE00u, 0}, ""), "a").ok());
  // A value past the strings, and one inside a character.
  EXPECT_FALSE(Precompiled(Blob(SmallTrie(1000), "X\0"), "a").ok());
  EXPECT_FALSE(
      Precompiled(Blob(SmallTrie(1), std::string("\xC3\xA9\0", 3)), "a").ok());
  // A value at the very end: the empty string (as `tokenizers` reads it).
  EXPECT_EQ(*Precompiled(Blob(SmallTrie(2), std::string("X\0", 2)), "ab"), "");
}

TEST(PrecompiledTest, GrowthIsBounded) {
  // "a" -> 1 MiB of "X": a text of 1000 "a" would be 1 GiB.
  std::string strings(1 << 20, 'X');
  strings.push_back('\0');
  strings.push_back('\0');
  std::string blob = Blob(SmallTrie(0, 1 << 20), strings);
  auto out = Precompiled(blob, std::string(1000, 'a'));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(Precompiled(blob, "ab")->size(), size_t{1} << 20);
}

TEST(PrecompiledTest, RandomBlobsNeverCrash) {
  std::string good = Blob(SmallTrie(), std::string("X\0\0", 3));
  std::mt19937 rng(7);
  const char* texts[] = {"abc", "a\xCC\x81", "\xE4\xB8\x96\xF0\x9F\x99\x82",
                         "\r\nb"};
  int ok = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string blob = good;
    if (i % 3 == 0) blob.resize(4 + rng() % (blob.size() - 4));
    int flips = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < flips; ++k)
      blob[rng() % blob.size()] = static_cast<char>(rng());
    auto map = PrecompiledCharsmap::FromBytes(blob);
    if (!map.ok()) continue;
    for (const char* t : texts) {
      std::string out;
      Status s = (*map)->Normalize(t, &out);
      ok += s.ok();
      if (!s.ok()) {
        EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
      }
    }
  }
  EXPECT_GT(ok, 0);
}

TEST(NormalizersTest, UnknownTypeIsUnimplemented) {
  auto p = LoadOne(R"({"type": "Uppercase"})");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kUnimplemented);
  EXPECT_FALSE(LoadOne(R"({"type": "Precompiled"})").ok());
}

}  // namespace
}  // namespace ember::tokenizer
