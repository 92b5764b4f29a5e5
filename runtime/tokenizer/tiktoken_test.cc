// Unit tests of tiktoken rank files (Tokenizer::FromTiktoken, FromFile on a
// `.tiktoken` file) and of EncodeStream, on small hand-written rank files
// whose ids follow from tiktoken's rule by hand. The differential tests
// against `tiktoken` itself are tests/python/test_tokenizer_tiktoken.py and
// test_tokenizer_streams.py.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "runtime/tokenizer/tokenizer.h"

namespace ember::tokenizer {
namespace {

std::string Base64(std::string_view bytes) {
  static const char* alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                 (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                 static_cast<uint8_t>(bytes[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += alphabet[(v >> s) & 63];
  }
  if (bytes.size() - i == 1) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += "==";
  } else if (bytes.size() - i == 2) {
    uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                 (static_cast<uint8_t>(bytes[i + 1]) << 8);
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += "=";
  }
  return out;
}

// The 256 single bytes at ranks 0..255, then `tokens` at 256, 257, ...
std::string RankFile(const std::vector<std::string>& tokens) {
  std::string out;
  for (int b = 0; b < 256; ++b) {
    out += Base64(std::string(1, static_cast<char>(b))) + " " +
           std::to_string(b) + "\n";
  }
  int rank = 256;
  for (const std::string& t : tokens) {
    out += Base64(t) + " " + std::to_string(rank++) + "\n";
  }
  return out;
}

std::vector<int32_t> Encode(const Tokenizer& t, std::string_view text) {
  auto ids = t.Encode(text, EncodeOptions{});
  EXPECT_TRUE(ids.ok()) << ids.status().ToString();
  return ids.ok() ? *ids : std::vector<int32_t>{};
}

TEST(TiktokenTest, MergesByTheRankOfTheConcatenation) {
  // "he" 256, "ll" 257, "hell" 258, "o" is a byte, "hello" 259, "el" 260.
  auto t = Tokenizer::FromTiktoken(
      RankFile({"he", "ll", "hell", "hello", "el"}), "r50k_base");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  // "hello" is a whole piece and a token: tiktoken takes it whole.
  EXPECT_EQ(Encode(**t, "hello"), (std::vector<int32_t>{259}));
  // "hellx": he(256) and ll(257) first, then he+ll = hell(258).
  EXPECT_EQ(Encode(**t, "hellx"), (std::vector<int32_t>{258, 'x'}));
  // "ell": e+l = el (260) and l+l = ll (257): ll is lower, then e + ll is
  // not a token.
  EXPECT_EQ(Encode(**t, "ell"), (std::vector<int32_t>{'e', 257}));
  // The special token of r50k_base, and a space kept with its word.
  EXPECT_EQ(Encode(**t, "he<|endoftext|> he"),
            (std::vector<int32_t>{256, 50256, ' ', 256}));
  EXPECT_EQ((*t)->vocab_size(), 256u + 5u + 1u);
  EXPECT_EQ((*t)->model_type(), "BPE");
  EXPECT_EQ((*t)->IdToToken(' '), "\xC4\xA0");  // GPT-2's character
  auto text = (*t)->Decode(std::vector<int32_t>{258, 'x', 50256}, false);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "hellx<|endoftext|>");
}

TEST(TiktokenTest, TokenNoTwoTokensMakeIsFoundWhole) {
  // "abc" with neither "ab" nor "bc" in the file: tiktoken finds it only as
  // a whole piece; inside a longer piece it stays bytes.
  auto t = Tokenizer::FromTiktoken(RankFile({"abc"}), "cl100k_base");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(Encode(**t, "abc"), (std::vector<int32_t>{256}));
  EXPECT_EQ(Encode(**t, "abcd"), (std::vector<int32_t>{'a', 'b', 'c', 'd'}));
}

TEST(TiktokenTest, EncodingNames) {
  std::string file = RankFile({});
  for (const char* name : {"cl100k_base", "o200k_base", "o200k_harmony",
                           "r50k_base", "gpt2", "p50k_base", "p50k_edit"}) {
    EXPECT_TRUE(Tokenizer::FromTiktoken(file, name).ok()) << name;
  }
  auto bad = Tokenizer::FromTiktoken(file, "cl100k");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().ToString().find("p50k_edit"), std::string::npos);
  auto harmony = Tokenizer::FromTiktoken(file, "o200k_harmony");
  ASSERT_TRUE(harmony.ok());
  EXPECT_EQ((*harmony)->TokenToId("<|reserved_201087|>"), 201087);
  EXPECT_EQ((*harmony)->TokenToId("<|reserved_200018|>"), 200018);
  EXPECT_EQ((*harmony)->IdToToken(200018), "<|endofprompt|>");
}

TEST(TiktokenTest, HostileRankFilesAreBoundedErrors) {
  std::string bytes = RankFile({});
  const std::pair<std::string, std::string_view> cases[] = {
      {"", "no tokens"},
      {bytes + "!!!! 256\n", "base64"},
      {bytes + "aGU=\n", "<base64 token> <rank>"},
      {bytes + "aGU= 4294967296\n", "far beyond"},
      {bytes + "aGU= 99999999999\n", "decimal"},
      {bytes + "aGU= 256\nbGw= 256\n", "not above"},
      {bytes + "aGU= 256\naGU= 257\n", "repeats"},
      {bytes + "aGU= 100257\n", "far beyond"},
      {RankFile({}).substr(RankFile({}).find('\n') + 1), "0x00"},
      {bytes + Base64(std::string(2000, 'a')) + " 256\n", "base64"},
  };
  for (const auto& [data, message] : cases) {
    auto t = Tokenizer::FromTiktoken(data, "cl100k_base");
    ASSERT_FALSE(t.ok()) << message;
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument) << message;
    EXPECT_NE(t.status().ToString().find(message), std::string::npos)
        << t.status().ToString();
  }
  // A rank that a special token of the encoding owns.
  std::string with_gap = bytes;
  for (int r = 256; r < 50257; ++r) {
    with_gap +=
        Base64("t" + std::to_string(r)) + " " + std::to_string(r) + "\n";
  }
  auto t = Tokenizer::FromTiktoken(with_gap, "r50k_base");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().ToString().find("reserves it"), std::string::npos);
}

TEST(TiktokenTest, FromFileTakesTheEncodingFromTheName) {
  std::string dir = ::testing::TempDir();
  std::string good = dir + "/cl100k_base.tiktoken";
  std::string bad = dir + "/mine.tiktoken";
  for (const std::string& path : {good, bad}) {
    std::ofstream(path, std::ios::binary) << RankFile({"he"});
  }
  auto t = Tokenizer::FromFile(good);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(Encode(**t, "he<|endofprompt|>"),
            (std::vector<int32_t>{256, 100276}));
  auto u = Tokenizer::FromFile(bad);
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.status().code(), StatusCode::kInvalidArgument);
  std::remove(good.c_str());
  std::remove(bad.c_str());
}

// Feeds `text` to a stream in chunks of `size` bytes (cutting UTF-8
// sequences anywhere) and returns all the ids.
std::vector<int32_t> StreamBytes(const Tokenizer& t, std::string_view text,
                                 size_t size) {
  auto stream = t.NewEncodeStream(EncodeOptions{});
  std::vector<int32_t> ids;
  for (size_t i = 0; i < text.size(); i += size) {
    Status s = stream->Feed(text.substr(i, size), &ids);
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
  Status s = stream->Finalize(&ids);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return ids;
}

TEST(EncodeStreamTest, EveryByteChunkSizeEqualsEncode) {
  auto t = Tokenizer::FromTiktoken(
      RankFile({"he", "ll", "hell", "hello", " w", "or", " wor", "ld", " world",
                "\xE4\xB8", "\xE4\xB8\xAD"}),
      "cl100k_base");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const std::string texts[] = {
      "hello world, hello\n\n   world   ",
      "\xE4\xB8\xAD\xE6\x96\x87 hello \xF0\x9F\x99\x82 it's DON'T",
      "<|endoftext|>hello<|endof<|endoftext|> <|fim_prefix|>x",
      std::string(300, ' ') + "x" + std::string(200, '\n') + "y",
      "a'll 'LL 123456789 x/y\r\n\r\nz",
  };
  for (const std::string& text : texts) {
    std::vector<int32_t> want = Encode(**t, text);
    for (size_t size = 1; size <= text.size(); ++size) {
      ASSERT_EQ(StreamBytes(**t, text, size), want) << text << " " << size;
    }
  }
}

TEST(EncodeStreamTest, EmitsSettledWordsEarly) {
  auto t = Tokenizer::FromTiktoken(RankFile({"he", "ll"}), "cl100k_base");
  ASSERT_TRUE(t.ok());
  auto stream = (*t)->NewEncodeStream(EncodeOptions{});
  std::vector<int32_t> ids;
  ASSERT_TRUE(stream->Feed("hell", &ids).ok());
  EXPECT_TRUE(ids.empty());  // the word may go on
  ASSERT_TRUE(stream->Feed(" and then some more words", &ids).ok());
  EXPECT_FALSE(ids.empty());
  EXPECT_EQ(ids[0], 256);
  EXPECT_EQ(ids[1], 257);
  ASSERT_TRUE(stream->Finalize(&ids).ok());
  EXPECT_EQ(ids, Encode(**t, "hell and then some more words"));
}

TEST(EncodeStreamTest, TextThatCannotBeCutStaysLinear) {
  // 400,000 spaces a byte at a time: no word can be emitted until the run
  // ends, and the held run is not re-scanned on every byte.
  auto t = Tokenizer::FromTiktoken(RankFile({"  ", "    "}), "cl100k_base");
  ASSERT_TRUE(t.ok());
  std::string text(400000, ' ');
  text += "x";
  auto start = std::chrono::steady_clock::now();
  std::vector<int32_t> got = StreamBytes(**t, text, 1);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(got, Encode(**t, text));
  // Rescanning the held run on every byte would take minutes; the bound
  // leaves room for a sanitizer build on a loaded machine.
  EXPECT_LT(seconds, 30.0);
}

TEST(EncodeStreamTest, ErrorsAreBounded) {
  auto t = Tokenizer::FromTiktoken(RankFile({}), "cl100k_base");
  ASSERT_TRUE(t.ok());
  std::vector<int32_t> ids;
  {
    auto stream = (*t)->NewEncodeStream(EncodeOptions{});
    EXPECT_EQ(stream->Feed("a\xFF", &ids).code(), StatusCode::kInvalidArgument);
  }
  {
    // A UTF-8 sequence cut at the end of the text.
    auto stream = (*t)->NewEncodeStream(EncodeOptions{});
    ASSERT_TRUE(stream->Feed("ab\xE4\xB8", &ids).ok());
    EXPECT_EQ(stream->Finalize(&ids).code(), StatusCode::kInvalidArgument);
  }
  {
    auto stream = (*t)->NewEncodeStream(EncodeOptions{});
    ASSERT_TRUE(stream->Finalize(&ids).ok());
    EXPECT_EQ(stream->Feed("x", &ids).code(), StatusCode::kFailedPrecondition);
    EXPECT_EQ(stream->Finalize(&ids).code(), StatusCode::kFailedPrecondition);
  }
}

}  // namespace
}  // namespace ember::tokenizer
