// The Unigram model (docs/tokenizer.md "Unigram") and the byte trie that it
// and WordPiece search their tokens with.
#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cmath>
#include <numeric>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

// ---- PieceTrie --------------------------------------------------------------

namespace {

// The trie with each node's children as one sorted run of labels, built
// from the sorted keys; the double array is laid out from it.
struct FlatTrie {
  struct Node {
    uint32_t first_edge = 0;
    uint32_t num_edges = 0;
    int32_t value = -1;
  };
  std::vector<Node> nodes{Node{}};
  std::vector<uint8_t> labels;
  std::vector<uint32_t> children;

  // Keys (sorted in `order`) in [lo, hi) share their first `depth` bytes.
  // Recursion depth: the longest key (at most Tokenizer::kMaxTokenBytes).
  void Build(uint32_t node, size_t lo, size_t hi, size_t depth,
             const std::vector<std::string_view>& keys,
             const std::vector<int32_t>& values,
             const std::vector<uint32_t>& order) {
    // Keys ending here sort first; the last of them wins.
    while (lo < hi && keys[order[lo]].size() == depth) {
      nodes[node].value = values[order[lo]];
      ++lo;
    }
    auto label_at = [&](size_t i) {
      return static_cast<uint8_t>(keys[order[i]][depth]);
    };
    uint32_t first_edge = static_cast<uint32_t>(labels.size());
    uint32_t count = 0;
    for (size_t i = lo; i < hi; ++i) {
      if (i == lo || label_at(i) != label_at(i - 1)) {
        labels.push_back(label_at(i));
        children.push_back(static_cast<uint32_t>(nodes.size()));
        nodes.emplace_back();
        ++count;
      }
    }
    nodes[node].first_edge = first_edge;
    nodes[node].num_edges = count;
    size_t start = lo;
    for (uint32_t c = 0; c < count; ++c) {
      uint8_t label = labels[first_edge + c];
      size_t end = start;
      while (end < hi && label_at(end) == label) ++end;
      Build(children[first_edge + c], start, end, depth + 1, keys, values,
            order);
      start = end;
    }
  }
};

}  // namespace

Status PieceTrie::Build(const std::vector<std::string_view>& keys,
                        const std::vector<int32_t>& values) {
  // Sorted by bytes (a stable sort keeps equal keys in file order, so the
  // last of them is the last of its run), the keys below one node form a
  // contiguous range and a node's children can be laid out together.
  std::vector<uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  FlatTrie flat;
  flat.Build(0, 0, order.size(), 0, keys, values, order);
  order = {};

  // The double array, breadth first: each node's children go to the first
  // base (among the first 64 free units tried) where all their units are
  // free, else past the end. Free units form a doubly linked list.
  const size_t limit = 16 * flat.nodes.size() + 65536;
  std::vector<Unit> units(1);
  std::vector<uint32_t> next_free(1, kNone), prev_free(1, kNone);
  uint32_t free_head = kNone, free_tail = kNone;
  auto grow = [&](size_t size) {
    size_t old = units.size();
    if (size <= old) return;
    units.resize(size);
    next_free.resize(size);
    prev_free.resize(size);
    for (size_t i = old; i < size; ++i) {
      auto u = static_cast<uint32_t>(i);
      prev_free[u] = free_tail;
      next_free[u] = kNone;
      if (free_tail == kNone) {
        free_head = u;
      } else {
        next_free[free_tail] = u;
      }
      free_tail = u;
    }
  };
  auto take = [&](uint32_t u) {
    if (prev_free[u] == kNone) {
      free_head = next_free[u];
    } else {
      next_free[prev_free[u]] = next_free[u];
    }
    if (next_free[u] == kNone) {
      free_tail = prev_free[u];
    } else {
      prev_free[next_free[u]] = prev_free[u];
    }
  };
  // Unit 0 is the root: its check stays kNone - 1, no node's index.
  units[0].check = kNone - 1;
  grow(512);
  std::vector<std::pair<uint32_t, uint32_t>> queue;  // (flat node, unit)
  queue.reserve(flat.nodes.size());
  queue.push_back({0, 0});
  for (size_t q = 0; q < queue.size(); ++q) {
    auto [node, unit] = queue[q];
    const FlatTrie::Node& n = flat.nodes[node];
    units[unit].value = n.value;
    if (n.num_edges == 0) continue;
    const uint8_t* labels = flat.labels.data() + n.first_edge;
    const uint8_t low = labels[0];
    uint32_t base = kNone;
    int attempts = 0;
    for (uint32_t pos = free_head; pos != kNone && attempts < 64;
         pos = next_free[pos], ++attempts) {
      if (pos < low) continue;
      uint32_t candidate = pos - low;
      grow(static_cast<size_t>(candidate) + 256);
      bool fits = true;
      for (uint32_t i = 1; i < n.num_edges && fits; ++i) {
        fits = units[candidate + labels[i]].check == kNone;
      }
      if (fits) {
        base = candidate;
        break;
      }
    }
    if (base == kNone) base = static_cast<uint32_t>(units.size());
    grow(static_cast<size_t>(base) + 256);
    if (units.size() > limit) {
      return ResourceExhaustedError(StringPrintf(
          "the trie of %zu tokens needs over %zu units", keys.size(), limit));
    }
    units[unit].base = base;
    for (uint32_t i = 0; i < n.num_edges; ++i) {
      uint32_t child = base + labels[i];
      take(child);
      units[child].check = unit;
      queue.push_back({flat.children[n.first_edge + i], child});
    }
  }
  units_ = std::move(units);
  return Status::Ok();
}

uint32_t PieceTrie::Walk(uint32_t node, std::string_view s) const {
  for (char c : s) {
    if (node == kNone) return kNone;
    node = Child(node, static_cast<uint8_t>(c));
  }
  return node;
}

// ---- Unigram ----------------------------------------------------------------

namespace {

// `tokenizers`' K_UNK_PENALTY: an unknown character scores this much below
// the lowest-scored piece.
constexpr double kUnkPenalty = 10.0;

// The best path ending at one byte position of the word (SentencePiece's
// and `tokenizers`' "optimized" Viterbi: one node per position, not a full
// lattice).
struct BestPath {
  double score;
  int32_t start;  // -1: not reached yet
  int32_t id;
};

// 10^0 .. 10^308, each correctly rounded (serde_json's POW10 table).
const std::array<double, 309>& Pow10() {
  static const std::array<double, 309> table = [] {
    std::array<double, 309> t{};
    char text[8];
    for (int i = 0; i < 309; ++i) {
      int n = snprintf(text, sizeof(text), "1e%d", i);
      std::from_chars(text, text + n, t[i]);
    }
    return t;
  }();
  return table;
}

}  // namespace

// The double `tokenizers` holds for a JSON number with a fraction or an
// exponent. It parses with serde_json without "float_roundtrip": the
// decimal digits as a u64, converted to double, then one multiply or divide
// by a power of ten -- two roundings, so about one score in six of a
// trained Unigram file comes out one ulp away from the correctly rounded
// value simdjson gives. Viterbi sums these scores and compares them, so
// Ember reads them as serde_json does. The digits are recovered from the
// exact value as its shortest round-trip form, which is what the file holds
// when `tokenizers` (ryu) or Python wrote it (docs/tokenizer.md "Unigram").
double SerdeJsonDouble(double exact) {
  if (exact == 0 || !std::isfinite(exact)) return exact;
  char text[64];
  auto [end, error] = std::to_chars(text, text + sizeof(text), std::fabs(exact),
                                    std::chars_format::scientific);
  if (error != std::errc()) return exact;
  // "d.ddde+XX": the digits as one integer and the exponent of its last.
  uint64_t significand = 0;
  int fraction_digits = 0;
  bool after_point = false;
  const char* p = text;
  for (; p < end && *p != 'e'; ++p) {
    if (*p == '.') {
      after_point = true;
      continue;
    }
    significand = significand * 10 + static_cast<uint64_t>(*p - '0');
    fraction_digits += after_point;
  }
  int exponent10 = 0;
  if (p < end) {
    const char* q = p + 1;
    if (q < end && *q == '+') ++q;
    std::from_chars(q, end, exponent10);
  }
  int exponent = exponent10 - fraction_digits;
  // serde_json's f64_from_parts.
  double f = static_cast<double>(significand);
  const std::array<double, 309>& pow10 = Pow10();
  for (;;) {
    int magnitude = exponent < 0 ? -exponent : exponent;
    if (magnitude <= 308) {
      if (exponent >= 0) {
        f *= pow10[magnitude];  // inf when out of range: refused by caller
      } else {
        f /= pow10[magnitude];
      }
      break;
    }
    if (f == 0.0) break;
    if (exponent >= 0) return INFINITY;
    f /= 1e308;
    exponent += 308;
  }
  return std::signbit(exact) ? -f : f;
}

UnigramModel::UnigramModel() {
  static std::atomic<uint64_t> next_serial{1};
  serial = next_serial.fetch_add(1);
  std::fill(std::begin(byte_ids), std::end(byte_ids), -1);
}

namespace {}  // namespace

Status UnigramModel::Tokenize(std::string_view word,
                              std::vector<int32_t>* ids) const {
  if (word.empty()) return Status::Ok();
  return TokenizeThroughWordCache(
      serial, word, ids, nullptr,
      [this](std::string_view w, std::vector<int32_t>* out,
             std::vector<ByteSpan>*) { return TokenizeUncached(w, out); });
}

Status UnigramModel::TokenizeWithSpans(std::string_view word,
                                       std::vector<int32_t>* ids,
                                       std::vector<ByteSpan>* spans) const {
  // Through a word cache of its own (a different lambda type from
  // Tokenize's), which remembers the spans too.
  return TokenizeThroughWordCache(
      serial, word, ids, spans,
      [this](std::string_view w, std::vector<int32_t>* out,
             std::vector<ByteSpan>* out_spans) {
        return TokenizeUncached(w, out, out_spans);
      });
}

Status UnigramModel::TokenizeUncached(std::string_view word,
                                      std::vector<int32_t>* ids,
                                      std::vector<ByteSpan>* spans) const {
  if (word.empty()) return Status::Ok();
  if (word.size() >= static_cast<size_t>(INT32_MAX)) {
    return ResourceExhaustedError("Unigram: a word of 2 GiB or more");
  }
  // One buffer per thread, grown as needed (a large one is given back).
  thread_local std::vector<BestPath> best;
  const size_t size = word.size();
  best.assign(size + 1, BestPath{0.0, -1, 0});
  const auto* bytes = reinterpret_cast<const uint8_t*>(word.data());

  // Forward: every piece starting at each character boundary, shortest
  // first, improves the path ending where it ends only when strictly
  // better, so of equal scores the earliest candidate stays, as in
  // `tokenizers`. A character that no one-character piece covers gets the
  // unk candidate. Cost: the word's length times the longest piece.
  for (size_t start = 0; start < size;) {
    const double till_here = best[start].score;
    const size_t char_len = Utf8Length(bytes[start]);
    bool has_single = false;
    uint32_t node = PieceTrie::root();
    for (size_t end = start; end < size;) {
      node = trie.Child(node, bytes[end]);
      if (node == PieceTrie::kNone) break;
      ++end;
      int32_t id = trie.Value(node);
      if (id < 0) continue;
      BestPath& target = best[end];
      double candidate = scores[id] + till_here;
      if (target.start < 0 || candidate > target.score) {
        target = {candidate, static_cast<int32_t>(start), id};
      }
      if (end - start == char_len) has_single = true;
    }
    if (!has_single) {
      BestPath& target = best[start + char_len];
      double candidate = unk_score + till_here;
      if (target.start < 0 || candidate > target.score) {
        if (unk_id < 0) {
          return InvalidArgumentError(
              "Unigram: the text has a character that no piece covers and "
              "the model has no unk_id");
        }
        target = {candidate, static_cast<int32_t>(start), unk_id};
      }
    }
    start += char_len;
  }

  // Backward: the path, right to left, with runs of unk nodes fused into
  // one string. A fused string that is a piece is that piece; otherwise its
  // bytes with byte_fallback (when every <0xAB> exists), else unk_id.
  // Each id's span is its piece's bytes; the byte tokens of an unknown
  // piece each span the whole piece, as `tokenizers` reports them.
  size_t first = ids->size();
  const size_t first_span = spans ? spans->size() : 0;
  auto emit = [&](int32_t id, size_t start, size_t end) {
    ids->push_back(id);
    if (spans) {
      spans->push_back(
          {static_cast<uint32_t>(start), static_cast<uint32_t>(end)});
    }
  };
  auto emit_unknown = [&](size_t start, size_t end) -> Status {
    int32_t id = trie.Find(word.substr(start, end - start));
    if (id >= 0) {
      emit(id, start, end);
      return Status::Ok();
    }
    if (byte_fallback) {
      bool all = true;
      for (size_t i = start; i < end && all; ++i) all = byte_ids[bytes[i]] >= 0;
      if (all) {
        // Appended reversed, like everything in this loop.
        for (size_t i = end; i-- > start;) emit(byte_ids[bytes[i]], start, end);
        return Status::Ok();
      }
    }
    if (unk_id < 0) {
      return InvalidArgumentError("Unigram: an unknown piece and no unk_id");
    }
    emit(unk_id, start, end);
    return Status::Ok();
  };
  size_t unk_end = 0, unk_start = 0;
  bool in_unk = false;
  for (size_t end = size; end > 0;) {
    const BestPath& node = best[end];
    size_t start = static_cast<size_t>(node.start);
    if (node.id == unk_id) {
      if (!in_unk) unk_end = end;
      in_unk = true;
      unk_start = start;
    } else {
      if (in_unk) {
        EMBER_RETURN_IF_ERROR(emit_unknown(unk_start, unk_end));
        in_unk = false;
      }
      emit(node.id, start, end);
    }
    end = start;
  }
  if (in_unk) EMBER_RETURN_IF_ERROR(emit_unknown(unk_start, unk_end));
  std::reverse(ids->begin() + first, ids->end());
  if (spans) std::reverse(spans->begin() + first_span, spans->end());
  if (best.capacity() > (size_t{1} << 20)) {
    best.clear();
    best.shrink_to_fit();
  }
  return Status::Ok();
}

std::optional<std::string_view> UnigramModel::IdToToken(int32_t id) const {
  if (id >= 0 && static_cast<size_t>(id) < pieces.size()) {
    return std::string_view(pieces[id]);
  }
  return std::nullopt;
}

std::optional<int32_t> UnigramModel::TokenToId(std::string_view token) const {
  int32_t id = trie.Find(token);
  if (id < 0) return std::nullopt;
  return id;
}

Result<std::unique_ptr<Model>> LoadUnigramModel(const object& o) {
  auto model = std::make_unique<UnigramModel>();
  UnigramModel& m = *model;
  constexpr std::string_view kWhere = "model Unigram";
  EMBER_ASSIGN_OR_RETURN(m.byte_fallback,
                         GetBool(o, "byte_fallback", kWhere, false));

  // "vocab": [[piece, score], ...]; a piece's id is its position. A piece
  // may repeat: `tokenizers` then maps it to its last id (and that id's
  // score) while every id still names its piece; Ember does the same.
  element ve;
  array vocab;
  if (!Field(o, "vocab", &ve) ||
      ve.get_array().get(vocab) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        "model Unigram: \"vocab\" is missing or not an array");
  }
  size_t count = vocab.size();
  if (count > Tokenizer::kMaxVocab) {
    return ResourceExhaustedError(
        StringPrintf("model Unigram: %zu pieces, over the limit of %zu", count,
                     Tokenizer::kMaxVocab));
  }
  m.pieces.reserve(count);
  m.scores.reserve(count);
  std::vector<std::string_view> keys;
  std::vector<int32_t> values;
  keys.reserve(count);
  values.reserve(count);
  double min_score = INFINITY;
  size_t total_bytes = 0;
  for (element entry : vocab) {
    size_t index = m.pieces.size();
    array pair;
    std::string_view piece;
    double score = 0;
    if (entry.get_array().get(pair) != simdjson::SUCCESS || pair.size() != 2 ||
        pair.at(0).get_string().get(piece) != simdjson::SUCCESS ||
        pair.at(1).get_double().get(score) != simdjson::SUCCESS) {
      return InvalidArgumentError(StringPrintf(
          "model Unigram: vocab entry %zu is not [\"piece\", score]", index));
    }
    // Integers are converted as they are; numbers with a fraction or an
    // exponent as `tokenizers` reads them.
    if (pair.at(1).type() == simdjson::dom::element_type::DOUBLE) {
      score = SerdeJsonDouble(score);
    }
    if (!std::isfinite(score)) {
      return InvalidArgumentError(StringPrintf(
          "model Unigram: the score of vocab entry %zu is out of the range "
          "of a double",
          index));
    }
    if (piece.size() > Tokenizer::kMaxTokenBytes) {
      return InvalidArgumentError(StringPrintf(
          "model Unigram: vocab entry %zu is %zu bytes long, over the limit of "
          "%zu",
          index, piece.size(), Tokenizer::kMaxTokenBytes));
    }
    total_bytes += piece.size();
    if (total_bytes > kMaxModelVocabBytes) {
      return ResourceExhaustedError(
          StringPrintf("model Unigram: the pieces hold over %zu bytes",
                       kMaxModelVocabBytes));
    }
    if (score < min_score) min_score = score;
    m.pieces.emplace_back(piece);
    m.scores.push_back(score);
    keys.push_back(piece);
    values.push_back(static_cast<int32_t>(index));
  }
  m.unk_score = min_score - kUnkPenalty;

  if (!IsNullOrAbsent(o, "unk_id")) {
    // `tokenizers` checks the vocabulary is not empty first.
    if (count == 0) {
      return InvalidArgumentError(
          "model Unigram: the vocabulary is empty but \"unk_id\" is set");
    }
    EMBER_ASSIGN_OR_RETURN(uint64_t unk,
                           GetUint(o, "unk_id", kWhere, count - 1),
                           "(unk_id must name a piece)");
    m.unk_id = static_cast<int32_t>(unk);
  }

  EMBER_RETURN_IF_ERROR(m.trie.Build(keys, values), "model Unigram");
  for (int b = 0; b < 256; ++b) {
    m.byte_ids[b] = m.trie.Find(StringPrintf("<0x%02X>", b));
  }
  return std::unique_ptr<Model>(std::move(model));
}

}  // namespace ember::tokenizer
