// Unit tests of the BPE, WordPiece, Unigram and WordLevel models on small
// hand-written vocabularies whose expected ids follow from `tokenizers`'
// rules by hand (several are `tokenizers`' own doc examples; BPE's fast
// paths against its definition run slowly), and of their loaders on
// hostile model JSON. The differential tests against HuggingFace
// `tokenizers` are in tests/python/test_tokenizer_models.py.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "runtime/tokenizer/tokenizer.h"
#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {
namespace {

// A tokenizer.json around `model`; `pre` is the pre_tokenizer JSON.
std::string Wrap(const std::string& model, const std::string& pre = "null") {
  return R"({"version": "1.0", "truncation": null, "padding": null,
    "added_tokens": [], "normalizer": null, "pre_tokenizer": )" +
         pre + R"(, "post_processor": null, "decoder": null, "model": )" +
         model + "}";
}

// Split on runs of spaces, dropping them.
const std::string kSpaces =
    R"({"type": "Split", "pattern": {"Regex": "\\s+"}, "behavior": "Removed",
       "invert": false})";

std::unique_ptr<Tokenizer> Load(const std::string& json) {
  auto t = Tokenizer::FromHuggingFaceJson(json);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? std::move(t).value() : nullptr;
}

Status LoadError(const std::string& json) {
  auto t = Tokenizer::FromHuggingFaceJson(json);
  return t.ok() ? Status::Ok() : t.status();
}

std::vector<int32_t> Encode(const Tokenizer& t, std::string_view text) {
  auto ids = t.Encode(text, EncodeOptions{});
  EXPECT_TRUE(ids.ok()) << ids.status().ToString();
  return ids.ok() ? *ids : std::vector<int32_t>{};
}

using Ids = std::vector<int32_t>;

// ---- BPE ------------------------------------------------------------------

// BPE by its definition, slowly: merge the adjacent pair of lowest rank,
// leftmost among equal ranks, until none has a merge. Characters are
// tokens by themselves or their bytes' <0xAB> tokens (all present here).
Ids NaiveBpe(const BpeModel& m, std::string_view word) {
  Ids ids;
  for (size_t i = 0; i < word.size();) {
    size_t w = Utf8Length(static_cast<uint8_t>(word[i]));
    auto it = m.vocab.find(word.substr(i, w));
    if (it != m.vocab.end()) {
      ids.push_back(it->second);
    } else {
      for (size_t k = i; k < i + w; ++k)
        ids.push_back(m.byte_ids[static_cast<uint8_t>(word[k])]);
    }
    i += w;
  }
  while (true) {
    size_t best = ids.size();
    MergeMap::Value best_merge{0, 0};
    for (size_t i = 0; i + 1 < ids.size(); ++i) {
      const MergeMap::Value* v =
          m.merges.find((static_cast<uint64_t>(ids[i]) << 32) |
                        static_cast<uint32_t>(ids[i + 1]));
      if (v && (best == ids.size() || v->first < best_merge.first)) {
        best = i;
        best_merge = *v;
      }
    }
    if (best == ids.size()) return ids;
    ids[best] = best_merge.second;
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(best) + 1);
  }
}

// A llama-style BPE over the characters a, b, c, ▁, é, 中 (and byte
// tokens), with `merges` (JSON list of "x y") in rank order.
std::string SmallBpe(const std::string& merges) {
  std::string vocab = R"({"a": 0, "b": 1, "c": 2, "▁": 3, "é": 4, "中": 5)";
  int id = 6;
  for (const char* t :
       {"aa", "ab", "bc", "▁a", "▁b", "▁▁", "c▁", "aaa", "▁ab", "abc", "▁aa",
        "▁▁▁▁", "c▁a", "é中", "▁é中", "bb", "aab", "▁▁a"}) {
    vocab += ", \"" + std::string(t) + "\": " + std::to_string(id++);
  }
  for (int b = 0; b < 256; ++b) {
    char name[16];
    std::snprintf(name, sizeof(name), "<0x%02X>", b);
    vocab += ", \"" + std::string(name) + "\": " + std::to_string(id++);
  }
  vocab += "}";
  return R"({"type": "BPE", "byte_fallback": true, "vocab": )" + vocab +
         R"(, "merges": )" + merges + "}";
}

// Random words over the alphabet and an unknown character (byte fallback).
std::vector<std::string> RandomBpeWords(uint32_t seed) {
  const char* alphabet[] = {
      "a", "b", "c", "\xE2\x96\x81", "\xC3\xA9", "\xE4\xB8\xAD", "z"};
  std::mt19937 rng(seed);
  std::vector<std::string> words;
  for (int k = 0; k < 400; ++k) {
    std::string w;
    size_t n = 1 + rng() % (k % 4 == 0 ? 600 : 90);
    for (size_t i = 0; i < n; ++i) w += alphabet[rng() % 7];
    words.push_back(w);
    if (k % 3 == 0) words.push_back(w);  // repeats: the word cache
  }
  return words;
}

void ExpectBpeMatchesDefinition(const std::string& model_json) {
  Pipeline p;
  ASSERT_TRUE(LoadHuggingFaceJson(Wrap(model_json), &p).ok());
  const auto* m = dynamic_cast<const BpeModel*>(p.model.get());
  ASSERT_NE(m, nullptr);
  for (const std::string& word : RandomBpeWords(7)) {
    Ids got;
    ASSERT_TRUE(m->Tokenize(word, &got).ok());
    ASSERT_EQ(got, NaiveBpe(*m, word)) << word;
    Ids whole;
    ASSERT_TRUE(m->TokenizeUncached(word, &whole).ok());
    ASSERT_EQ(whole, got) << word;
  }
}

// Long words are cut between two characters no merge joins (and merge
// through a rank-bucket queue when long): the ids are BPE's by definition.
TEST(BpeTest, CutWordsMatchTheDefinition) {
  // "c ▁" joins c to ▁ (a ▁ inside a token: no cut there); "aa" + "a"
  // overlaps (leftmost first); "é 中" joins two non-ASCII characters.
  const std::string merges =
      R"(["a a", "a b", "b c", "▁ a", "▁ b", "▁ ▁", "c ▁", "aa a", "▁ ab",
          "ab c", "▁ aa", "▁▁ ▁▁", "c▁ a", "é 中", "▁ é中", "b b", "aa b",
          "▁▁ a"])";
  ExpectBpeMatchesDefinition(SmallBpe(merges));
  Pipeline p;
  ASSERT_TRUE(LoadHuggingFaceJson(Wrap(SmallBpe(merges)), &p).ok());
  const auto& m = dynamic_cast<const BpeModel&>(*p.model);
  EXPECT_TRUE(m.split_words);
  const uint64_t c_space = (uint64_t{'c'} << 32) | 0x2581;
  const uint64_t b_space = (uint64_t{'b'} << 32) | 0x2581;
  EXPECT_NE(m.join_pairs.find(c_space), nullptr);  // "c ▁": never cut there
  EXPECT_EQ(m.join_pairs.find(b_space), nullptr);  // cut between b and ▁
}

// Merges out of rank order (a merged token joining in a merge ranked
// before its own) send the queues to their binary-heap fallback.
TEST(BpeTest, MergesOutOfOrderMatchTheDefinition) {
  ExpectBpeMatchesDefinition(SmallBpe(
      R"(["aa a", "▁a b", "a a", "▁ a", "ab c", "a b", "b c", "▁ ▁", "▁▁ a",
          "c ▁", "c▁ a", "▁▁ ▁▁", "▁ aa", "é 中", "b b", "aa b"])"));
}

// With a continuing-subword prefix or ignore_merges the characters are
// not the symbols the cut relies on: no cutting.
TEST(BpeTest, PrefixOrIgnoreMergesTurnsCuttingOff) {
  for (const std::string& extra :
       {std::string(R"("continuing_subword_prefix": "##", )"),
        std::string(R"("ignore_merges": true, )")}) {
    std::string json = SmallBpe(R"(["a b"])");
    json.insert(json.find("\"byte_fallback\""), extra);
    Pipeline p;
    ASSERT_TRUE(LoadHuggingFaceJson(Wrap(json), &p).ok()) << json;
    EXPECT_FALSE(dynamic_cast<const BpeModel&>(*p.model).split_words);
  }
}

// ---- WordPiece --------------------------------------------------------------

std::string WordPiece(const std::string& vocab, uint64_t max_chars = 100,
                      const std::string& prefix = "##",
                      const std::string& unk = "[UNK]") {
  return R"({"type": "WordPiece", "unk_token": ")" + unk +
         R"(", "continuing_subword_prefix": ")" + prefix +
         R"(", "max_input_chars_per_word": )" + std::to_string(max_chars) +
         R"(, "vocab": )" + vocab + "}";
}

const std::string kBertVocab =
    R"({"[UNK]": 0, "un": 1, "##aff": 2, "##able": 3, "u": 4, "##n": 5,
        "unaff": 6, "##a": 7, "é": 8, "##é": 9, "a": 10})";

TEST(WordPieceTest, GreedyLongestMatchFirst) {
  auto t = Load(Wrap(WordPiece(kBertVocab), kSpaces));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->model_type(), "WordPiece");
  // "unaff" beats "un" + "##aff": the longest prefix wins, never a better
  // split later.
  EXPECT_EQ(Encode(*t, "unaffable"), (Ids{6, 3}));
  EXPECT_EQ(Encode(*t, "un"), (Ids{1}));
  EXPECT_EQ(Encode(*t, "unn"), (Ids{1, 5}));
  EXPECT_EQ(Encode(*t, "ééé a"), (Ids{8, 9, 9, 10}));
  // A part no token starts makes the whole word the unk token.
  EXPECT_EQ(Encode(*t, "unx unaff"), (Ids{0, 6}));
  EXPECT_EQ(Encode(*t, "x"), (Ids{0}));
  EXPECT_EQ(Encode(*t, ""), (Ids{}));
  EXPECT_EQ(t->vocab_size(), 11u);
  EXPECT_EQ(t->TokenToId("##able"), 3);
  EXPECT_EQ(t->IdToToken(2), "##aff");
  EXPECT_EQ(t->TokenToId("##"), std::nullopt);
  EXPECT_EQ(t->IdToToken(11), std::nullopt);
  // No decoder: the tokens joined by spaces.
  auto text = t->Decode(Ids{6, 3, 0}, false);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "unaff ##able [UNK]");
}

TEST(WordPieceTest, MaxInputCharsCountsCharacters) {
  auto t = Load(Wrap(WordPiece(kBertVocab, 3), kSpaces));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "ééé"), (Ids{8, 9, 9}));  // 6 bytes, 3 characters
  EXPECT_EQ(Encode(*t, "éééé"), (Ids{0}));
  EXPECT_EQ(Encode(*t, "unaffable"), (Ids{0}));
}

TEST(WordPieceTest, OtherPrefixes) {
  auto t = Load(Wrap(
      WordPiece(R"({"[UNK]": 0, "ab": 1, "c": 2, "a": 3, "b": 4})", 100, ""),
      kSpaces));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "abcab"), (Ids{1, 2, 1}));
  // A prefix that no token starts with: only first pieces match.
  t = Load(Wrap(WordPiece(R"({"[UNK]": 0, "a": 1})", 100, "@@"), kSpaces));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "a aa"), (Ids{1, 0}));
}

TEST(WordPieceTest, MissingUnkTokenFailsAtEncode) {
  auto t = Load(Wrap(WordPiece(R"({"a": 0})"), kSpaces));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "a"), (Ids{0}));
  auto ids = t->Encode("b", EncodeOptions{});
  ASSERT_FALSE(ids.ok());
  EXPECT_EQ(ids.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(ids.status().message().find("[UNK]"), std::string::npos);
}

TEST(WordPieceTest, LongWordTimeIsBounded) {
  // `tokenizers` shrinks the candidate a character at a time from the end
  // of the word: cubic in the word with a huge max_input_chars_per_word.
  // Ember walks a trie: linear times the longest token.
  auto t = Load(
      Wrap(WordPiece(R"({"[UNK]": 0, "a": 1, "##a": 2})", uint64_t{1} << 40)));
  ASSERT_NE(t, nullptr);
  std::string word(1 << 20, 'a');
  auto begin = std::chrono::steady_clock::now();
  auto ids = Encode(*t, word);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  ASSERT_EQ(ids.size(), word.size());
  EXPECT_EQ(ids[0], 1);
  EXPECT_EQ(ids[1], 2);
  // A quadratic scan of 2^20 characters would take hours; the bound leaves
  // room for a sanitizer build on a loaded machine.
  EXPECT_LT(seconds, 20.0);
}

// ---- Unigram ----------------------------------------------------------------

std::string Unigram(const std::string& vocab, const std::string& unk_id = "0",
                    bool byte_fallback = false) {
  return R"({"type": "Unigram", "unk_id": )" + unk_id + R"(, "vocab": )" +
         vocab + R"(, "byte_fallback": )" + (byte_fallback ? "true" : "false") +
         "}";
}

TEST(UnigramTest, ViterbiAsTokenizersDocExample) {
  // `tokenizers`' doc example: "abcdacdxx" -> abcd, a, cd, xx (the two
  // unknown x fused into one unk).
  auto t = Load(Wrap(Unigram(
      R"([["<unk>", 0], ["a", 0], ["b", 0], ["c", 0], ["d", 0], ["cd", 1],
          ["ab", 2], ["abc", 5], ["abcd", 10]])")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->model_type(), "Unigram");
  EXPECT_EQ(Encode(*t, "abcdacdxx"), (Ids{8, 1, 5, 0}));
  EXPECT_EQ(Encode(*t, "xabcx"), (Ids{0, 7, 0}));
  EXPECT_EQ(Encode(*t, ""), (Ids{}));
  EXPECT_EQ(t->vocab_size(), 9u);
  auto text = t->Decode(Ids{8, 1, 0}, false);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "abcd a <unk>");
}

TEST(UnigramTest, TiesKeepTheEarliestStart) {
  // a + b and ab score the same: the path found first (ab, which starts
  // earlier) stays.
  auto t = Load(Wrap(Unigram(R"([["<unk>", 0], ["a", -1], ["b", -1],
                                  ["ab", -2]])")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "ab"), (Ids{3}));
  // One better: the split.
  t = Load(Wrap(Unigram(R"([["<unk>", 0], ["a", -1], ["b", -1],
                             ["ab", -2.0000001]])")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "ab"), (Ids{1, 2}));
}

TEST(UnigramTest, UnknownScoresMinimumMinusTen) {
  // The lowest score is q's -40, so an unknown character scores -50: x
  // (unknown) + y (+20) is -30, against the piece xy.
  auto t = Load(Wrap(Unigram(R"([["<unk>", 0], ["q", -40], ["y", 20],
                                  ["xy", -29.9]])")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "xy"), (Ids{3}));
  t = Load(Wrap(Unigram(R"([["<unk>", 0], ["q", -40], ["y", 20],
                             ["xy", -30.1]])")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "xy"), (Ids{0, 2}));
}

TEST(UnigramTest, ConsecutiveUnknownsFuseAndAreLookedUp) {
  // Two unknown characters fuse into one unk; the literal text of the unk
  // piece is an unk node too and fuses with them.
  auto t = Load(Wrap(Unigram(R"([["<unk>", 0], ["a", -1], ["é", -1]])")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t,
                   "a\xE4\xB8\x80\xE4\xBA\x8C"
                   "a"),
            (Ids{1, 0, 1}));
  EXPECT_EQ(Encode(*t, "x<unk>y"), (Ids{0}));
  EXPECT_EQ(Encode(*t, "éxé"), (Ids{2, 0, 2}));
}

TEST(UnigramTest, ByteFallback) {
  std::string vocab = R"([["<unk>", 0], ["a", -1])";
  for (int b = 0; b < 256; ++b) {
    char piece[16];
    snprintf(piece, sizeof(piece), "<0x%02X>", b);
    vocab += R"(, [")" + std::string(piece) + R"(", -20])";
  }
  vocab += "]";
  auto t = Load(Wrap(Unigram(vocab, "0", true)));
  ASSERT_NE(t, nullptr);
  // "é" is C3 A9: ids 2 + 0xC3, 2 + 0xA9; "x" is 0x78.
  EXPECT_EQ(Encode(*t, "aéxa"), (Ids{1, 2 + 0xC3, 2 + 0xA9, 2 + 0x78, 1}));
  // The byte pieces are pieces too: the text "<0x41>" is that piece (-20
  // beats six unknown characters at -30 each), while "<0x4" is a run of
  // unknown characters, fused, whose bytes become byte pieces.
  EXPECT_EQ(Encode(*t, "<0x41>"), (Ids{2 + 0x41}));
  EXPECT_EQ(Encode(*t, "<0x4"), (Ids{2 + '<', 2 + '0', 2 + 'x', 2 + '4'}));
  // A missing byte piece: the run is the unk.
  t = Load(
      Wrap(Unigram(R"([["<unk>", 0], ["a", -1], ["<0x78>", -1]])", "0", true)));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "axa"), (Ids{1, 2, 1}));
  // é and x fuse into one run; C3 has no piece, so the run is one unk.
  EXPECT_EQ(Encode(*t, "a\xC3\xA9x"), (Ids{1, 0}));
  EXPECT_EQ(Encode(*t, "a<0x78>a"), (Ids{1, 2, 1}));
}

TEST(UnigramTest, RepeatedPiecesAsTokenizers) {
  // `tokenizers` maps a repeated piece to its last id and that id's score;
  // every id still names its piece and counts in the vocabulary size.
  auto t = Load(Wrap(Unigram(R"([["<unk>", 0], ["a", -1], ["b", -2],
                                  ["a", -3], ["ab", -2.5]])")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "ab"), (Ids{4}));
  EXPECT_EQ(Encode(*t, "a"), (Ids{3}));
  EXPECT_EQ(t->vocab_size(), 5u);
  EXPECT_EQ(t->TokenToId("a"), 3);
  EXPECT_EQ(t->IdToToken(1), "a");
}

TEST(UnigramTest, NoUnkIdFailsOnlyWhenNeeded) {
  auto t = Load(Wrap(Unigram(R"([["a", -1], ["b", -1]])", "null")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "abba"), (Ids{0, 1, 1, 0}));
  auto ids = t->Encode("abc", EncodeOptions{});
  ASSERT_FALSE(ids.ok());
  EXPECT_EQ(ids.status().code(), StatusCode::kInvalidArgument);
  // An empty vocabulary without unk_id loads (as in `tokenizers`).
  t = Load(Wrap(Unigram("[]", "null")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, ""), (Ids{}));
  EXPECT_FALSE(t->Encode("a", EncodeOptions{}).ok());
}

TEST(UnigramTest, ViterbiTimeIsLinearTimesTheLongestPiece) {
  // Pieces a, aa, ..., a^64 and a 1 MiB word of a: 64 candidates per
  // position, no more.
  std::string vocab = R"([["<unk>", 0])";
  for (int n = 1; n <= 64; ++n) {
    vocab += R"(, [")" + std::string(n, 'a') + R"(", )" +
             std::to_string(-1.0 - n * 0.01) + "]";
  }
  vocab += "]";
  auto t = Load(Wrap(Unigram(vocab)));
  ASSERT_NE(t, nullptr);
  std::string word(1 << 20, 'a');
  auto begin = std::chrono::steady_clock::now();
  auto ids = Encode(*t, word);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  // The longest piece is the best per character: 16384 pieces of 64.
  ASSERT_EQ(ids.size(), (size_t{1} << 20) / 64);
  EXPECT_EQ(ids[0], 64);
  // A quadratic scan of 2^20 characters would take hours; the bound leaves
  // room for a sanitizer build on a loaded machine.
  EXPECT_LT(seconds, 20.0);
}

TEST(UnigramTest, ScoresAreReadAsTokenizersReadsThem) {
  // serde_json (no float_roundtrip) reads these one ulp off the correctly
  // rounded value; `tokenizers` runs Viterbi on what it read. Pairs
  // measured with tokenizers 0.23.3 (load, then save).
  EXPECT_EQ(SerdeJsonDouble(-7.2429341971864005), -7.2429341971864);
  EXPECT_EQ(SerdeJsonDouble(-7.3466572908133125), -7.346657290813312);
  EXPECT_EQ(SerdeJsonDouble(-7.4292744986936246), -7.429274498693624);
  // Exact in two roundings: unchanged.
  for (double v : {1.5, -0.25, -7.0, 0.1, 1e22, -12.125, 0.0, -0.0}) {
    EXPECT_EQ(SerdeJsonDouble(v), v) << v;
  }
  EXPECT_TRUE(std::signbit(SerdeJsonDouble(-0.0)));
  // Below 1e-308 serde divides twice; no overflow, no NaN.
  EXPECT_GT(SerdeJsonDouble(5e-324), 0.0);
  EXPECT_NEAR(SerdeJsonDouble(1.5e-310), 1.5e-310, 1e-323);
}

// ---- WordLevel --------------------------------------------------------------

TEST(WordLevelTest, LookupAndUnk) {
  auto t = Load(Wrap(
      R"({"type": "WordLevel", "unk_token": "[UNK]",
          "vocab": {"[UNK]": 0, "hello": 1, "world": 2, "": 3}})",
      kSpaces));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->model_type(), "WordLevel");
  EXPECT_EQ(Encode(*t, "hello  world there"), (Ids{1, 2, 0}));
  EXPECT_EQ(Encode(*t, ""), (Ids{}));  // "" is a token but never a word
  auto text = t->Decode(Ids{1, 0, 2}, false);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "hello [UNK] world");
  // Without a pre-tokenizer the whole text is one word.
  t = Load(Wrap(R"({"type": "WordLevel", "unk_token": "[UNK]",
                    "vocab": {"[UNK]": 0, "a b": 1}})"));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "a b"), (Ids{1}));
  EXPECT_EQ(Encode(*t, ""), (Ids{}));
  auto ids = Load(Wrap(R"({"type": "WordLevel", "unk_token": "[UNK]",
                           "vocab": {"a": 0}})"))
                 ->Encode("b", EncodeOptions{});
  EXPECT_FALSE(ids.ok());
}

// ---- The shared vocabulary and hostile JSON ---------------------------------

TEST(ModelVocabTest, RepeatedKeyKeepsItsLastId) {
  // serde fills a HashMap in order: "a" ends with id 2, id 1 names nothing.
  auto t = Load(Wrap(WordPiece(R"({"[UNK]": 0, "a": 1, "a": 2})")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Encode(*t, "a"), (Ids{2}));
  EXPECT_EQ(t->vocab_size(), 2u);
  EXPECT_EQ(t->IdToToken(1), std::nullopt);
  EXPECT_EQ(t->IdToToken(2), "a");
}

struct Hostile {
  const char* name;
  std::string json;
  StatusCode code;
  const char* message_part;
};

TEST(ModelVocabTest, HostileModelsAreBoundedErrors) {
  std::string long_piece(Tokenizer::kMaxTokenBytes + 1, 'a');
  const Hostile cases[] = {
      {"wordpiece ids clash", Wrap(WordPiece(R"({"[UNK]": 0, "a": 0})")),
       StatusCode::kInvalidArgument, "given to two tokens"},
      {"wordpiece id too large",
       Wrap(WordPiece(R"({"[UNK]": 0, "a": 4294967295})")),
       StatusCode::kInvalidArgument, "not an integer in"},
      {"wordpiece negative id", Wrap(WordPiece(R"({"[UNK]": -1})")),
       StatusCode::kInvalidArgument, "not an integer in"},
      {"wordpiece float id", Wrap(WordPiece(R"({"[UNK]": 1.5})")),
       StatusCode::kInvalidArgument, "not an integer in"},
      {"wordpiece vocab not an object", Wrap(WordPiece(R"(["[UNK]"])")),
       StatusCode::kInvalidArgument, "\"vocab\""},
      {"wordpiece token too long",
       Wrap(WordPiece(R"({")" + long_piece + R"(": 0})")),
       StatusCode::kInvalidArgument, "over the limit"},
      {"wordpiece missing max_input_chars_per_word",
       Wrap(R"({"type": "WordPiece", "unk_token": "[UNK]",
                "continuing_subword_prefix": "##", "vocab": {}})"),
       StatusCode::kInvalidArgument, "max_input_chars_per_word"},
      {"wordpiece negative max_input_chars_per_word",
       Wrap(R"({"type": "WordPiece", "unk_token": "[UNK]",
                "continuing_subword_prefix": "##",
                "max_input_chars_per_word": -1, "vocab": {}})"),
       StatusCode::kInvalidArgument, "max_input_chars_per_word"},
      {"wordpiece null unk_token",
       Wrap(R"({"type": "WordPiece", "unk_token": null,
                "continuing_subword_prefix": "##",
                "max_input_chars_per_word": 100, "vocab": {}})"),
       StatusCode::kInvalidArgument, "unk_token"},
      {"wordlevel missing unk_token",
       Wrap(R"({"type": "WordLevel", "vocab": {"a": 0}})"),
       StatusCode::kInvalidArgument, "unk_token"},
      {"unigram unk_id out of range",
       Wrap(Unigram(R"([["<unk>", 0], ["a", -1]])", "2")),
       StatusCode::kInvalidArgument, "unk_id"},
      {"unigram negative unk_id", Wrap(Unigram(R"([["<unk>", 0]])", "-1")),
       StatusCode::kInvalidArgument, "unk_id"},
      {"unigram unk_id in an empty vocabulary", Wrap(Unigram("[]", "0")),
       StatusCode::kInvalidArgument, "empty"},
      {"unigram entry not a pair", Wrap(Unigram(R"([["<unk>", 0, 1]])")),
       StatusCode::kInvalidArgument, "vocab entry 0"},
      {"unigram score a string", Wrap(Unigram(R"([["<unk>", "0"]])")),
       StatusCode::kInvalidArgument, "vocab entry 0"},
      {"unigram piece a number", Wrap(Unigram(R"([[1, 0]])")),
       StatusCode::kInvalidArgument, "vocab entry 0"},
      {"unigram score out of double range",
       Wrap(Unigram(R"([["<unk>", 0], ["a", 1e400]])")),
       StatusCode::kInvalidArgument, ""},
      {"unigram score NaN", Wrap(Unigram(R"([["<unk>", NaN]])")),
       StatusCode::kInvalidArgument, ""},
      {"unigram piece too long",
       Wrap(Unigram(R"([["<unk>", 0], [")" + long_piece + R"(", 0]])")),
       StatusCode::kInvalidArgument, "over the limit"},
      {"unigram vocab missing", Wrap(R"({"type": "Unigram", "unk_id": 0})"),
       StatusCode::kInvalidArgument, "\"vocab\""},
      {"unigram byte_fallback not a bool",
       Wrap(R"({"type": "Unigram", "vocab": [], "byte_fallback": 1})"),
       StatusCode::kInvalidArgument, "byte_fallback"},
  };
  for (const Hostile& c : cases) {
    Status s = LoadError(c.json);
    EXPECT_FALSE(s.ok()) << c.name;
    EXPECT_EQ(s.code(), c.code) << c.name << ": " << s.ToString();
    EXPECT_NE(s.message().find(c.message_part), std::string::npos)
        << c.name << ": " << s.ToString();
  }
}

TEST(ModelVocabTest, TooManyPiecesIsResourceExhausted) {
  std::string vocab = "[";
  vocab.reserve((Tokenizer::kMaxVocab + 1) * 8);
  for (size_t i = 0; i <= Tokenizer::kMaxVocab; ++i) {
    vocab += i ? ",[\"\",0]" : "[\"\",0]";
  }
  vocab += "]";
  Status s = LoadError(Wrap(Unigram(vocab, "null")));
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.ToString();
}

TEST(ModelVocabTest, TooManyTokenBytesIsResourceExhausted) {
  // 33,000 tokens of 1,024 bytes: over the 32 MiB of token bytes.
  std::string vocab = "{";
  for (int i = 0; i < 33000; ++i) {
    std::string key = std::to_string(i);
    key.resize(Tokenizer::kMaxTokenBytes, 'x');
    vocab += (i ? ",\"" : "\"") + key + "\":" + std::to_string(i);
  }
  vocab += "}";
  Status s = LoadError(Wrap(WordPiece(vocab)));
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.ToString();
}

// ---- PieceTrie --------------------------------------------------------------

TEST(PieceTrieTest, FindsExactAndPrefixes) {
  std::vector<std::string_view> keys = {"ab", "a", "abc", "b", "ab", ""};
  std::vector<int32_t> values = {0, 1, 2, 3, 4, 5};
  PieceTrie trie;
  ASSERT_TRUE(trie.Build(keys, values).ok());
  EXPECT_EQ(trie.Find("a"), 1);
  EXPECT_EQ(trie.Find("ab"), 4);  // the last of the repeated key
  EXPECT_EQ(trie.Find("abc"), 2);
  EXPECT_EQ(trie.Find("b"), 3);
  EXPECT_EQ(trie.Find(""), 5);
  EXPECT_EQ(trie.Find("abcd"), -1);
  EXPECT_EQ(trie.Find("c"), -1);
  uint32_t node = trie.Walk(PieceTrie::root(), "ab");
  ASSERT_NE(node, PieceTrie::kNone);
  EXPECT_EQ(trie.Value(trie.Child(node, 'c')), 2);
  EXPECT_EQ(trie.Child(node, 'd'), PieceTrie::kNone);
  // A node with many children (binary search) and every byte value.
  std::vector<std::string> many;
  for (int b = 0; b < 256; ++b) many.push_back(std::string("x") + char(b));
  std::vector<std::string_view> many_keys(many.begin(), many.end());
  std::vector<int32_t> many_values;
  for (int b = 0; b < 256; ++b) many_values.push_back(b);
  ASSERT_TRUE(trie.Build(many_keys, many_values).ok());
  for (int b = 0; b < 256; ++b) EXPECT_EQ(trie.Find(many[b]), b);
  EXPECT_EQ(trie.Find("x"), -1);
}

}  // namespace
}  // namespace ember::tokenizer
