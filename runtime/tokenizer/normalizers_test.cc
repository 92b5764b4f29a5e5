// Unit tests of the normalizers (normalizers.cc, precompiled.cc) on
// hand-written cases whose results follow from `tokenizers`' rules by hand,
// and hostile `precompiled_charsmap` blobs (the differential tests against
// HuggingFace `tokenizers` are in tests/python/test_tokenizer_normalizers.py).
#include <gtest/gtest.h>
#include <utf8proc.h>

#include <cstdlib>
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

// BertNormalizer rewrites most characters from a per-character cache and
// only the others with its steps over the whole run (normalizers.cc
// BertCharCache): a control that clean_text removes, a combining mark, or
// a character whose NFD keeps a non-starter, between characters that
// strip_accents' canonical reordering would otherwise move.
TEST(NormalizersTest, BertCharacterCacheKeepsReordering) {
  const std::string strip = R"({"type": "BertNormalizer",
      "clean_text": true, "handle_chinese_chars": false,
      "strip_accents": true, "lowercase": false})";
  // U+302E (Mc, class 224) and U+1B44 (Mc, class 9) are kept and sorted:
  // the removed control U+0001 and the removed mark U+0301 between them
  // do not separate them.
  const std::string sorted = "x\xE1\xAD\x84\xE3\x80\xAE";
  EXPECT_EQ(Norm(strip, "x\xE3\x80\xAE\x01\xE1\xAD\x84"), sorted);
  EXPECT_EQ(Norm(strip, "x\xE3\x80\xAE\xCC\x81\xE1\xAD\x84"), sorted);
  EXPECT_EQ(Norm(strip, "x\xE1\xAD\x84\xCC\x80\xE3\x80\xAE"), sorted);
  // U+00E9 decomposes to e + U+0301, which is removed: the marks after it
  // are sorted as without it.
  EXPECT_EQ(Norm(strip, "\xC3\xA9\xE1\xAD\x84\xCC\x96"), "e\xE1\xAD\x84");
  // Marks after a CJK ideograph attach to the space put after it.
  const std::string bert = R"({"type": "BertNormalizer",
      "clean_text": true, "handle_chinese_chars": true,
      "strip_accents": null, "lowercase": true})";
  EXPECT_EQ(Norm(bert,
                 "\xE4\xB8\xAD\xCC\x81"
                 "A\xCC\x81\xE1\xAD\x84"),
            " \xE4\xB8\xAD a\xE1\xAD\x84");
}

// The cached path against BertNormalizer's steps over the whole text (the
// path without the cache), on random mixes of the characters that matter,
// for every combination of flags.
TEST(NormalizersTest, BertCharacterCacheMatchesWholeTextSteps) {
  const std::vector<uint32_t> pool = {
      'a',    'A',     ' ',     '\t',    '\n',    0x00,   0x01,   0x7F,
      0xAD,   0xC9,    0xE9,    0x130,   0x3A3,   0x301,  0x316,  0x327,
      0x334,  0x344,   0x345,   0x5B0,   0x93C,   0x958,  0x9BE,  0x9CB,
      0x9D7,  0xE33,   0xE49,   0xF71,   0xF72,   0xF73,  0x1100, 0x1161,
      0x11A8, 0x1B3B,  0x1B44,  0x1E9E,  0x1F80,  0x1FB3, 0x200B, 0x200D,
      0x2126, 0x212B,  0x3000,  0x302A,  0x302E,  0x3099, 0x30FB, 0x3400,
      0x4E2D, 0x9FFF,  0xAC00,  0xAC01,  0xD7A3,  0xF900, 0xFB1D, 0xFFFD,
      0x0378, 0x1D15E, 0x1D165, 0x1D16D, 0x20000, 0xE0001};
  std::mt19937 rng(25);
  std::vector<std::string> texts;
  for (int k = 0; k < 3000; ++k) {
    std::string t;
    size_t n = 1 + rng() % 12;
    for (size_t i = 0; i < n; ++i)
      AppendCodePoint(pool[rng() % pool.size()], &t);
    texts.push_back(t);
  }
  for (int flags = 0; flags < 16; ++flags) {
    auto flag = [&](int bit) { return (flags >> bit) & 1 ? "true" : "false"; };
    const std::string json = std::string(R"({"type": "BertNormalizer",)") +
                             "\"clean_text\": " + flag(0) +
                             ", \"handle_chinese_chars\": " + flag(1) +
                             ", \"strip_accents\": " + flag(2) +
                             ", \"lowercase\": " + flag(3) + "}";
    auto cached = LoadOne(json);
    auto steps = LoadOne(json);
    ASSERT_TRUE(cached.ok() && steps.ok()) << json;
    ASSERT_TRUE((*cached)->normalizers[0].bert_chars != nullptr);
    (*steps)->normalizers[0].bert_chars.reset();
    std::string all;
    for (const std::string& t : texts) all += t;
    texts.push_back(all);
    for (const std::string& t : texts) {
      std::string want, got;
      ASSERT_TRUE((*steps)->Normalize(t, &want).ok());
      ASSERT_TRUE((*cached)->Normalize(t, &got).ok());
      ASSERT_EQ(got, want) << json << " on " << t;
    }
    texts.pop_back();
  }
}

// The four Unicode forms copy the characters no normalization can reach
// across (normalizers.cc InertCharacters) and hand utf8proc the rest: the
// result is utf8proc's on the whole text, for random mixes of inert
// characters, composing and reordering ones, and Hangul.
TEST(NormalizersTest, UnicodeFormsSplitAtInertCharacters) {
  const std::vector<uint32_t> pool = {
      'a',     'e',     'A',    ' ',    '\n',   0xA0,   0xBD,   0xC5,   0xE9,
      0x301,   0x316,   0x334,  0x344,  0x345,  0x399,  0x3B9,  0x5B7,  0x5D0,
      0x915,   0x93C,   0x958,  0x9BE,  0x9C7,  0xB47,  0xB56,  0xBBE,  0xBC6,
      0xE33,   0xF71,   0xF73,  0x1025, 0x102E, 0x1100, 0x1161, 0x11A8, 0x1B05,
      0x1B35,  0x1B44,  0x1E9B, 0x1F00, 0x1F80, 0x1FBE, 0x2000, 0x2126, 0x212B,
      0x2460,  0x2F00,  0x3000, 0x302E, 0x304B, 0x3099, 0x309A, 0x30AB, 0x3131,
      0x3300,  0x4E2D,  0xAC00, 0xAC01, 0xF900, 0xFB01, 0xFF21, 0xFF76, 0xFF9E,
      0x1D15E, 0x1D165, 0x20000};
  const std::pair<const char*, int> forms[] = {
      {"NFC", UTF8PROC_COMPOSE},
      {"NFD", UTF8PROC_DECOMPOSE},
      {"NFKC", UTF8PROC_COMPOSE | UTF8PROC_COMPAT},
      {"NFKD", UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT}};
  std::mt19937 rng(11);
  std::vector<std::string> texts;
  for (int k = 0; k < 3000; ++k) {
    std::string t;
    size_t n = 1 + rng() % 14;
    for (size_t i = 0; i < n; ++i)
      AppendCodePoint(pool[rng() % pool.size()], &t);
    texts.push_back(t);
  }
  for (const auto& [name, options] : forms) {
    auto p = LoadOne(std::string(R"({"type": ")") + name + "\"}");
    ASSERT_TRUE(p.ok());
    for (const std::string& t : texts) {
      utf8proc_uint8_t* whole = nullptr;
      utf8proc_ssize_t n = utf8proc_map(
          reinterpret_cast<const utf8proc_uint8_t*>(t.data()),
          static_cast<utf8proc_ssize_t>(t.size()), &whole,
          static_cast<utf8proc_option_t>(options | UTF8PROC_STABLE));
      ASSERT_GE(n, 0);
      std::string want(reinterpret_cast<const char*>(whole),
                       static_cast<size_t>(n));
      std::free(whole);
      std::string got;
      ASSERT_TRUE((*p)->Normalize(t, &got).ok());
      ASSERT_EQ(got, want) << name << " on " << t;
    }
  }
  // U+11A7 after an LV syllable: utf8proc 2.8 composes the two and drops
  // it; `tokenizers` keeps both (and so does Ember).
  const std::string lv_11a7 = "\xEA\xB0\x80\xE1\x86\xA7";
  EXPECT_EQ(Norm(R"({"type": "NFC"})", lv_11a7), lv_11a7);
  EXPECT_EQ(Norm(R"({"type": "NFKC"})", "x" + lv_11a7 + "\xE1\x86\xA8"),
            "x" + lv_11a7 + "\xE1\x86\xA8");
  EXPECT_EQ(Norm(R"({"type": "NFC"})", "e\xCC\x81\xE4\xB8\xAD"),
            "\xC3\xA9\xE4\xB8\xAD");
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
