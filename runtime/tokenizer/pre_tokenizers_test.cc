// Unit tests of the pre-tokenizers (docs/tokenizer.md "Pre-tokenizers"):
// each kind on hand-picked edge cases whose words follow from
// `tokenizers`' rules by hand, the loader's checks of each field, and
// hostile inputs (long texts in bounded time). The differential tests
// against HuggingFace `tokenizers` on every code point and on >= 10,000
// texts are in tests/python/test_tokenizer_pre_tokenizers.py.
#include <gtest/gtest.h>

#include <chrono>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "runtime/tokenizer/tokenizer.h"
#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {
namespace {

using Words = std::vector<std::pair<std::string, bool>>;
using Kind = PreTokenizer::Kind;
using Behavior = PreTokenizer::Behavior;

Words Cut(const PreTokenizer& step, std::string_view text,
          bool at_start = true) {
  Words words;
  Status status =
      step.ForEachWord(text, at_start, [&](std::string_view w, bool s) {
        words.emplace_back(std::string(w), s);
        return Status::Ok();
      });
  EXPECT_TRUE(status.ok()) << status.ToString();
  return words;
}

// The words alone.
std::vector<std::string> Texts(const Words& words) {
  std::vector<std::string> out;
  for (const auto& w : words) out.push_back(w.first);
  return out;
}

PreTokenizer Make(Kind kind) {
  PreTokenizer step;
  step.kind = kind;
  return step;
}

using V = std::vector<std::string>;

TEST(PreTokenizersTest, CharClassesAtTheirEdges) {
  // \w of the `regex` crate: letters, marks, decimal digits, connector
  // punctuation, Join_Control; not other numbers or symbols.
  for (uint32_t c :
       std::initializer_list<uint32_t>{'a', 'Z', '0', '_', 0xAAu, 0x300u,
                                       0x200Cu, 0x200Du, 0x4E00u, 0x203Fu}) {
    EXPECT_TRUE(InCharClass(CharClass::kRegexWord, c)) << c;
  }
  for (uint32_t c : std::initializer_list<uint32_t>{' ', '-', '!', 0xB2u, 0xBDu,
                                                    0x2028u, 0x1F600u}) {
    EXPECT_FALSE(InCharClass(CharClass::kRegexWord, c)) << c;
  }
  // White_Space: U+0085 yes, U+180E and U+200B no.
  for (uint32_t c : std::initializer_list<uint32_t>{
           '\t', '\r', ' ', 0x85u, 0xA0u, 0x1680u, 0x2000u, 0x200Au, 0x2028u,
           0x2029u, 0x202Fu, 0x205Fu, 0x3000u}) {
    EXPECT_TRUE(InCharClass(CharClass::kWhiteSpace, c)) << c;
  }
  for (uint32_t c : std::initializer_list<uint32_t>{
           'a', 0x1Cu, 0x180Eu, 0x200Bu, 0xFEFFu, 0x10FFFFu}) {
    EXPECT_FALSE(InCharClass(CharClass::kWhiteSpace, c)) << c;
  }
  // is_numeric: Nd, Nl, No.
  for (uint32_t c : std::initializer_list<uint32_t>{'0', '9', 0xB2u, 0xBDu,
                                                    0x660u, 0x2160u, 0x3007u}) {
    EXPECT_TRUE(InCharClass(CharClass::kNumeric, c)) << c;
  }
  EXPECT_FALSE(InCharClass(CharClass::kNumeric, 'a'));
  // Punctuation: all of ASCII's (also $ + < = > ^ ` | ~, which are symbols
  // in Unicode), and P* of the older tables `tokenizers` has.
  for (char c : std::string_view("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")) {
    EXPECT_TRUE(InCharClass(CharClass::kPunctuation, static_cast<uint8_t>(c)))
        << c;
  }
  for (uint32_t c : std::initializer_list<uint32_t>{0xA1u, 0xBFu, 0x3001u,
                                                    0x300Cu, 0x2014u}) {
    EXPECT_TRUE(InCharClass(CharClass::kPunctuation, c)) << c;
  }
  for (uint32_t c :
       std::initializer_list<uint32_t>{'a', ' ', 0xA2u, 0xACu, 0x110000u}) {
    EXPECT_FALSE(InCharClass(CharClass::kPunctuation, c)) << c;
  }
}

TEST(PreTokenizersTest, Whitespace) {
  auto step = Make(Kind::kWhitespace);
  EXPECT_EQ(Texts(Cut(step, "Hey man!! How's it going?")),
            (V{"Hey", "man", "!!", "How", "'", "s", "it", "going", "?"}));
  // Mixed runs split where the kind changes; spaces of any kind vanish.
  EXPECT_EQ(Texts(Cut(step, "a-b\u3000\u0085c_d$$e\u0301")),
            (V{"a", "-", "b", "c_d", "$$", "e\u0301"}));
  EXPECT_EQ(Texts(Cut(step, " \t\n")), V{});
  EXPECT_EQ(Cut(step, "  x"), (Words{{"x", false}}));
  EXPECT_EQ(Cut(step, "x y"), (Words{{"x", true}, {"y", false}}));
}

TEST(PreTokenizersTest, WhitespaceSplitAndCharDelimiter) {
  auto step = Make(Kind::kWhitespaceSplit);
  EXPECT_EQ(Texts(Cut(step, "  Hey\u00a0man!\u2028\u180e x  ")),
            (V{"Hey", "man!", "\u180e", "x"}));
  auto delim = Make(Kind::kCharDelimiter);
  delim.delimiter = 0x2581;  // ▁
  EXPECT_EQ(Texts(Cut(delim, "\u2581a\u2581\u2581b c\u2581")), (V{"a", "b c"}));
}

TEST(PreTokenizersTest, BertIsolatesPunctuation) {
  auto step = Make(Kind::kBert);
  EXPECT_EQ(Texts(Cut(step, "Hey friend!     How are you?!?")),
            (V{"Hey", "friend", "!", "How", "are", "you", "?", "!", "?"}));
  EXPECT_EQ(Cut(step, "$5"), (Words{{"$", true}, {"5", false}}));
  EXPECT_EQ(Texts(Cut(step, "\u3001a\u00bfb")),
            (V{"\u3001", "a", "\u00bf", "b"}));
}

TEST(PreTokenizersTest, DigitsAndPunctuationBehaviours) {
  auto digits = Make(Kind::kDigits);
  EXPECT_EQ(Texts(Cut(digits, "Hey 123 friend\u00b2\u00bd!")),
            (V{"Hey ", "123", " friend", "\u00b2\u00bd", "!"}));
  digits.individual_digits = true;
  EXPECT_EQ(Texts(Cut(digits, "a12b")), (V{"a", "1", "2", "b"}));

  auto punct = Make(Kind::kPunctuation);
  const std::string_view text = "a,,b.";
  std::pair<Behavior, V> cases[] = {
      {Behavior::kIsolated, {"a", ",", ",", "b", "."}},
      {Behavior::kRemoved, {"a", "b"}},
      {Behavior::kContiguous, {"a", ",,", "b", "."}},
      {Behavior::kMergedWithPrevious, {"a,", ",", "b."}},
      {Behavior::kMergedWithNext, {"a", ",", ",b", "."}},
  };
  for (const auto& [behavior, want] : cases) {
    punct.behavior = behavior;
    EXPECT_EQ(Texts(Cut(punct, text)), want) << static_cast<int>(behavior);
  }
}

TEST(PreTokenizersTest, MetaspaceSchemesAndSplit) {
  auto step = Make(Kind::kMetaspace);
  step.literal = "\u2581";
  step.delimiter = 0x2581;
  EXPECT_EQ(Texts(Cut(step, "Hey  friend ")),
            (V{"\u2581Hey", "\u2581", "\u2581friend", "\u2581"}));
  // Already starting with the replacement (or a space): nothing prepended.
  EXPECT_EQ(Texts(Cut(step, " a")), (V{"\u2581a"}));
  EXPECT_EQ(Texts(Cut(step, "\u2581\u2581a")), (V{"\u2581", "\u2581a"}));
  // "first": only where the word starts the text.
  step.prepend_scheme = PreTokenizer::PrependScheme::kFirst;
  EXPECT_EQ(Texts(Cut(step, "a b", true)), (V{"\u2581a", "\u2581b"}));
  EXPECT_EQ(Texts(Cut(step, "a b", false)), (V{"a", "\u2581b"}));
  step.prepend_scheme = PreTokenizer::PrependScheme::kNever;
  EXPECT_EQ(Cut(step, "a b"), (Words{{"a", true}, {"\u2581b", false}}));
  step.split = false;
  step.prepend_scheme = PreTokenizer::PrependScheme::kAlways;
  EXPECT_EQ(Texts(Cut(step, "a b ")), (V{"\u2581a\u2581b\u2581"}));
  // Another replacement character (one byte, then four).
  step.split = true;
  step.literal = "_";
  EXPECT_EQ(Texts(Cut(step, "x_y z")), (V{"_x", "_y", "_z"}));
  step.literal = "\U0001F600";
  EXPECT_EQ(Texts(Cut(step, "x y")), (V{"\U0001F600x", "\U0001F600y"}));
}

TEST(PreTokenizersTest, FixedLengthCountsCharacters) {
  auto step = Make(Kind::kFixedLength);
  step.length = 2;
  EXPECT_EQ(Texts(Cut(step, "ab\u00e9d\U0001F600")),
            (V{"ab", "\u00e9d", "\U0001F600"}));
  step.length = 100;
  EXPECT_EQ(Texts(Cut(step, "abc")), (V{"abc"}));
}

TEST(PreTokenizersTest, AtStartFollowsTheFirstWordOnly) {
  auto step = Make(Kind::kWhitespaceSplit);
  EXPECT_EQ(Cut(step, "a b"), (Words{{"a", true}, {"b", false}}));
  EXPECT_EQ(Cut(step, "a b", false), (Words{{"a", false}, {"b", false}}));
}

// ---- through the loader ----------------------------------------------------

std::string WithPreTokenizer(const std::string& pre_tokenizer) {
  return R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2,
    "\u2581": 3, "\u2581a": 4, "1": 5, "!": 6},
    "merges": ["a b", "\u2581 a"]}, "pre_tokenizer": )" +
         pre_tokenizer + "}";
}

Result<std::vector<int32_t>> EncodeWith(const std::string& pre_tokenizer,
                                        std::string_view text) {
  EMBER_ASSIGN_OR_RETURN(
      auto t, Tokenizer::FromHuggingFaceJson(WithPreTokenizer(pre_tokenizer)));
  return t->Encode(text, EncodeOptions{});
}

TEST(PreTokenizersTest, LoadedKindsShowInTheIds) {
  using Ids = std::vector<int32_t>;
  auto ids = EncodeWith(R"({"type": "Whitespace"})", "ab a!b");
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  EXPECT_EQ(*ids, (Ids{2, 0, 6, 1}));
  ids =
      EncodeWith(R"({"type": "CharDelimiterSplit", "delimiter": "b"})", "abab");
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  EXPECT_EQ(*ids, (Ids{0, 0}));
  ids = EncodeWith(R"({"type": "Metaspace", "replacement": "\u2581",
                       "prepend_scheme": "first", "split": true})",
                   "a a");
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  EXPECT_EQ(*ids, (Ids{4, 4}));
  ids = EncodeWith(R"({"type": "Sequence", "pretokenizers": [
                         {"type": "Digits", "individual_digits": true},
                         {"type": "FixedLength", "length": 1}]})",
                   "ab11");
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  EXPECT_EQ(*ids, (Ids{0, 1, 5, 5}));
  ids = EncodeWith(R"({"type": "UnicodeScripts"})", "ab\u4e00a1");
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  EXPECT_EQ(*ids, (Ids{2, 0, 5}));
  ids = EncodeWith(R"({"type": "ByteLevel", "add_prefix_space": false,
                       "trim_offsets": false, "use_regex": false})",
                   "ab");
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  EXPECT_EQ(*ids, (Ids{2}));
}

TEST(PreTokenizersTest, BadFieldsAreInvalidArguments) {
  const char* bad[] = {
      R"({"type": "Metaspace"})",
      R"({"type": "Metaspace", "replacement": ""})",
      R"({"type": "Metaspace", "replacement": "ab"})",
      R"({"type": "Metaspace", "replacement": "_", "prepend_scheme": "First"})",
      R"({"type": "Metaspace", "replacement": "_", "add_prefix_space": false})",
      R"({"type": "Metaspace", "replacement": "_", "split": 1})",
      R"({"type": "Digits"})",
      R"({"type": "Digits", "individual_digits": null})",
      R"({"type": "Punctuation", "behavior": "removed"})",
      R"({"type": "CharDelimiterSplit"})",
      R"({"type": "CharDelimiterSplit", "delimiter": "xy"})",
      R"({"type": "FixedLength", "length": 0})",
      R"({"type": "FixedLength", "length": -1})",
      R"({"type": "FixedLength", "length": 1e300})",
      R"({"type": "ByteLevel", "trim_offsets": "yes"})",
  };
  for (const char* p : bad) {
    auto t = Tokenizer::FromHuggingFaceJson(WithPreTokenizer(p));
    ASSERT_FALSE(t.ok()) << p;
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument)
        << p << ": " << t.status().ToString();
  }
  // Accepted: the legacy add_prefix_space where it agrees.
  for (
      const char* p :
      {R"({"type": "Metaspace", "replacement": "_", "add_prefix_space": true})",
       R"({"type": "Metaspace", "replacement": "_", "add_prefix_space": false,
               "prepend_scheme": "never"})",
       R"({"type": "Punctuation"})", R"({"type": "FixedLength"})"}) {
    auto t = Tokenizer::FromHuggingFaceJson(WithPreTokenizer(p));
    EXPECT_TRUE(t.ok()) << p << ": " << t.status().ToString();
  }
}

TEST(PreTokenizersTest, UnicodeScriptsCutsWhereTheScriptChanges) {
  auto step = Make(Kind::kUnicodeScripts);
  // U+0020 is "Any": it joins the word before it, and leading ones are
  // dropped (`tokenizers` starts the first word at the first other
  // character).
  EXPECT_EQ(Cut(step, "  abc"), (Words{{"abc", false}}));
  EXPECT_EQ(Cut(step, "  "), Words{});
  EXPECT_EQ(Cut(step, "abc \u4e00\u4e8c"),
            (Words{{"abc ", true}, {"\u4e00\u4e8c", false}}));
  EXPECT_EQ(Texts(Cut(step, "a\u4e00b")), (V{"a", "\u4e00", "b"}));
  // Digits are Common, marks Inherited: scripts of their own.
  EXPECT_EQ(Texts(Cut(step, "ab 12 ab")), (V{"ab ", "12 ", "ab"}));
  EXPECT_EQ(Texts(Cut(step, "a\u0301b")), (V{"a", "\u0301", "b"}));
  // Hiragana, Katakana and U+30FC count as Han.
  EXPECT_EQ(Texts(Cut(step, "\u30fc\u30ab\u306a\u6f22\u5b57")),
            (V{"\u30fc\u30ab\u306a\u6f22\u5b57"}));
  // An unassigned code point is "Any" too.
  EXPECT_EQ(UnicodeScriptOf(0x10FFFF), 0);
  EXPECT_EQ(UnicodeScriptOf(' '), 0);
  EXPECT_NE(UnicodeScriptOf('a'), 0);
  EXPECT_EQ(UnicodeScriptOf('a'), UnicodeScriptOf('Z'));
  EXPECT_NE(UnicodeScriptOf('a'), UnicodeScriptOf('1'));
}

TEST(PreTokenizersTest, SplitOnTheEmptyString) {
  // An empty String pattern matches (empty) at every character boundary
  // in `tokenizers`: each character is a word.
  auto step = Make(Kind::kSplit);
  step.behavior = Behavior::kRemoved;
  EXPECT_EQ(Texts(Cut(step, "h\u00e9!")), (V{"h", "\u00e9", "!"}));
  step.behavior = Behavior::kMergedWithNext;
  step.invert = true;
  EXPECT_EQ(Texts(Cut(step, "ab")), (V{"a", "b"}));
  // A Regex that can match the empty string cuts at its empty matches, as
  // onig's find_iter reports them: not one right after the previous
  // match, so "(?=a)|a" never gets to match the "a" itself.
  auto regex = Regex::CompileOniguruma("(?=[A-Z])");
  ASSERT_TRUE(regex.ok());
  step.regex = *regex;
  step.behavior = Behavior::kRemoved;
  step.invert = false;
  EXPECT_EQ(Texts(Cut(step, "HelloWorld A")), (V{"Hello", "World ", "A"}));
  regex = Regex::CompileOniguruma("(?=a)|a");
  ASSERT_TRUE(regex.ok());
  step.regex = *regex;
  EXPECT_EQ(Texts(Cut(step, "xaya")), (V{"x", "ay", "a"}));
  // Oniguruma's \h (a hex digit there, horizontal space in PCRE2) is
  // still refused.
  auto b = Tokenizer::FromHuggingFaceJson(WithPreTokenizer(
      R"({"type": "Split", "pattern": {"Regex": "\\h"},
          "behavior": "Isolated", "invert": false})"));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kUnimplemented);
  auto ok = Tokenizer::FromHuggingFaceJson(WithPreTokenizer(
      R"({"type": "Split", "pattern": {"Regex": "x+|(?=y)y"},
          "behavior": "Isolated", "invert": false})"));
  EXPECT_TRUE(ok.ok()) << ok.status().ToString();
}

TEST(PreTokenizersTest, LongHostileTextsTakeLinearTime) {
  // A 64-step Sequence of the kinds that cut most, with a Metaspace and a
  // ByteLevel among them, on 256 KiB of the characters that make the most
  // words: bounded time, no recursion beyond the 64 steps.
  std::string steps =
      R"({"type": "Metaspace", "replacement": "\u2581", "split": true},)"
      R"({"type": "ByteLevel", "add_prefix_space": false, "use_regex": true})";
  const char* kinds[] = {
      R"({"type": "Punctuation", "behavior": "MergedWithNext"})",
      R"({"type": "FixedLength", "length": 1})",
      R"({"type": "Digits", "individual_digits": false})",
      R"({"type": "BertPreTokenizer"})"};
  for (int i = 2; i < 64; ++i) {
    steps += ",";
    steps += kinds[i % 4];
  }
  auto t = Tokenizer::FromHuggingFaceJson(WithPreTokenizer(
      R"({"type": "Sequence", "pretokenizers": [)" + steps + "]}"));
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  std::string text;
  while (text.size() < (1u << 18)) text += " a!1\u2581";
  auto begin = std::chrono::steady_clock::now();
  auto ids = (*t)->Encode(text, EncodeOptions{});
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  EXPECT_GT(ids->size(), text.size() / 4);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(20));
  // 65 steps are refused.
  auto too_many = Tokenizer::FromHuggingFaceJson(
      WithPreTokenizer(R"({"type": "Sequence", "pretokenizers": [)" + steps +
                       R"(, {"type": "Whitespace"}]})"));
  EXPECT_FALSE(too_many.ok());
}

TEST(PreTokenizersTest, CompoundedGrowthIsRefused) {
  // Each ByteLevel can double the bytes (and a prefix space make a
  // one-byte word three), a Metaspace make a one-byte word 1 + the
  // replacement's bytes: past 16 times in all, the file is refused.
  const std::string byte_level =
      R"({"type": "ByteLevel", "add_prefix_space": true, "use_regex": false})";
  const std::string metaspace =
      R"({"type": "Metaspace", "replacement": "\u2581"})";
  auto sequence = [](std::initializer_list<std::string> steps) {
    std::string out = R"({"type": "Sequence", "pretokenizers": [)";
    bool first = true;
    for (const auto& s : steps) {
      if (!first) out += ",";
      out += s;
      first = false;
    }
    return out + "]}";
  };
  EXPECT_TRUE(Tokenizer::FromHuggingFaceJson(
                  WithPreTokenizer(sequence({metaspace, byte_level})))
                  .ok());
  for (const std::string& p : {sequence({byte_level, byte_level, byte_level}),
                               sequence({metaspace, metaspace, metaspace})}) {
    auto t = Tokenizer::FromHuggingFaceJson(WithPreTokenizer(p));
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
  }
  // A 1 MiB word through the largest growth allowed stays in bounds.
  auto t = Tokenizer::FromHuggingFaceJson(
      WithPreTokenizer(sequence({metaspace, byte_level})));
  ASSERT_TRUE(t.ok());
  auto ids = (*t)->Encode(std::string(1u << 20, 'a'), EncodeOptions{});
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  // The mapped space and replacement are not in the vocabulary (no unk
  // token: dropped); each "a" is id 0.
  EXPECT_EQ(*ids, std::vector<int32_t>(1u << 20, 0));
}

}  // namespace
}  // namespace ember::tokenizer
