// The BPE model: merges by rank over the characters of a word, with byte
// fallback and unknown tokens (docs/tokenizer.md "BPE").
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <queue>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

namespace {

// A queued merge of the pair (left, right) at symbol `pos`.
struct Merge {
  uint32_t rank;
  int32_t pos;
  int32_t new_id;
  // The pair when queued: the entry is stale once either side changed.
  int32_t left, right;
  // The order of a max-heap that pops the lowest rank, then the leftmost.
  bool operator<(const Merge& other) const {
    if (rank != other.rank) return rank > other.rank;
    return pos > other.pos;
  }
};

// The merge queue: lowest (rank, position) first. Merges learned in order
// only ever queue pairs of a higher rank than the one being applied (a
// merged token takes part only in merges learned after it), so the keys
// popped never decrease and a radix heap serves them (no comparisons
// between entries; a binary heap spent half of a long word's time sifting).
// A file whose merges break that order falls back to a binary heap from its
// first out-of-order push on, with the same pop order.
class MergeQueue {
 public:
  void Reset() {
    for (auto& bucket : buckets_) bucket.clear();
    occupied_ = 0;
    size_ = 0;
    last_ = 0;
    fallback_ = false;
    heap_ = {};
  }
  void Push(const Merge& m) {
    const uint64_t key = Key(m);
    if (!fallback_ && key < last_) {
      for (auto& bucket : buckets_) {
        for (const Merge& queued : bucket) heap_.push(queued);
        bucket.clear();
      }
      occupied_ = 0;
      size_ = 0;
      fallback_ = true;
    }
    if (fallback_) {
      heap_.push(m);
      return;
    }
    Put(m);
    ++size_;
  }
  bool Pop(Merge* out) {
    if (fallback_) {
      if (heap_.empty()) return false;
      *out = heap_.top();
      heap_.pop();
      return true;
    }
    if (size_ == 0) return false;
    if (buckets_[0].empty()) {
      const size_t i = 1 + static_cast<size_t>(__builtin_ctzll(occupied_));
      uint64_t lowest = ~uint64_t{0};
      for (const Merge& m : buckets_[i]) lowest = std::min(lowest, Key(m));
      last_ = lowest;
      // Every entry of bucket i now lands in a lower bucket.
      occupied_ &= ~(uint64_t{1} << (i - 1));
      for (const Merge& m : buckets_[i]) Put(m);
      buckets_[i].clear();
    }
    *out = buckets_[0].back();
    buckets_[0].pop_back();
    --size_;
    return true;
  }

 private:
  static uint64_t Key(const Merge& m) {
    return (static_cast<uint64_t>(m.rank) << 32) | static_cast<uint32_t>(m.pos);
  }
  void Put(const Merge& m) {
    const size_t b = Bucket(Key(m));
    buckets_[b].push_back(m);
    if (b > 0) occupied_ |= uint64_t{1} << (b - 1);
  }
  size_t Bucket(uint64_t key) const {
    return key == last_
               ? 0
               : 64 - static_cast<size_t>(__builtin_clzll(key ^ last_));
  }
  std::array<std::vector<Merge>, 65> buckets_;
  size_t size_ = 0;
  // Bit b - 1 is set when bucket b (1..64) has entries: a pop finds the
  // next one with a bit scan instead of walking the empty ones.
  uint64_t occupied_ = 0;
  uint64_t last_ = 0;
  bool fallback_ = false;
  std::priority_queue<Merge> heap_;
};

// The merge queue of long words: one list per rank, and the ranks that
// have entries in a two-level bitmap, so a push is O(1) and a pop finds the
// next rank with a bit scan (the radix heap moves each entry through up to
// 64 buckets, which dominated long words). Entries of one rank are popped
// by position, lowest first (sorted when the rank is reached); every rank
// pushed later is higher (see MergeQueue), except in a file whose merges
// break that order: from the first push below the rank being popped (or
// at it, while it is being popped) on, a binary heap takes every entry,
// with the same order. Ranks at or above kMaxRanks also go to the heap
// (the lists cost 4 bytes per rank and thread).
class RankQueue {
 public:
  static constexpr uint32_t kMaxRanks = uint32_t{1} << 21;
  static constexpr size_t kKeepEntries = size_t{1} << 17;
  void Reset() {
    if (pending_ > 0) Drain(nullptr);
    // Not the buffers of a long text for ever (the lists are 4 bytes per
    // rank, bounded by kMaxRanks).
    if (entries_.capacity() > kKeepEntries) std::vector<Entry>().swap(entries_);
    if (batch_.capacity() > kKeepEntries) std::vector<Merge>().swap(batch_);
    entries_.clear();
    batch_.clear();
    current_ = 0;
    fallback_ = false;
    heap_ = {};
  }
  void Push(const Merge& m) {
    if (!fallback_ && (m.rank < current_ || m.rank >= kMaxRanks ||
                       (m.rank == current_ && !batch_.empty()))) {
      // Every entry to the heap, which pops in the same order.
      for (const Merge& b : batch_) heap_.push(b);
      batch_.clear();
      Drain(&heap_);
      fallback_ = true;
    }
    if (fallback_) {
      heap_.push(m);
      return;
    }
    const uint32_t r = m.rank;
    if (r >= head_.size()) Grow(r);
    entries_.push_back({m, head_[r]});
    head_[r] = static_cast<int32_t>(entries_.size() - 1);
    bits0_[r >> 6] |= uint64_t{1} << (r & 63);
    bits1_[r >> 12] |= uint64_t{1} << ((r >> 6) & 63);
    ++pending_;
  }
  bool Pop(Merge* out) {
    if (fallback_) {
      if (heap_.empty()) return false;
      *out = heap_.top();
      heap_.pop();
      return true;
    }
    if (batch_.empty()) {
      if (pending_ == 0) return false;
      const uint32_t r = NextRank(current_);
      current_ = r;
      Take(r, &batch_);
      // Lowest position last: pop_back takes it.
      if (batch_.size() > 1) {
        std::sort(batch_.begin(), batch_.end(),
                  [](const Merge& a, const Merge& b) { return a.pos > b.pos; });
      }
    }
    *out = batch_.back();
    batch_.pop_back();
    return true;
  }

 private:
  struct Entry {
    Merge merge;
    int32_t next;  // the entry pushed before it at the same rank, or -1
  };
  void Grow(uint32_t r) {
    size_t n = std::max<size_t>(4096, head_.size());
    while (n <= r) n *= 2;
    head_.resize(n, -1);
    bits0_.resize(n / 64, 0);
    bits1_.resize((n + 4095) / 4096, 0);
  }
  // The lowest rank >= `from` with entries (there is one: pending_ > 0).
  uint32_t NextRank(uint32_t from) const {
    size_t w = from >> 6;
    uint64_t word = bits0_[w] & (~uint64_t{0} << (from & 63));
    if (word != 0) return static_cast<uint32_t>(w * 64 + __builtin_ctzll(word));
    const size_t v = w + 1;  // the next bits0_ word
    for (size_t w1 = v >> 6; w1 < bits1_.size(); ++w1) {
      uint64_t m1 = bits1_[w1];
      if (w1 == (v >> 6)) m1 &= ~uint64_t{0} << (v & 63);
      if (m1 != 0) {
        const size_t w0 = w1 * 64 + __builtin_ctzll(m1);
        return static_cast<uint32_t>(w0 * 64 + __builtin_ctzll(bits0_[w0]));
      }
    }
    return 0;  // not reached
  }
  // Moves the entries of rank `r` to `out` and clears the rank.
  void Take(uint32_t r, std::vector<Merge>* out) {
    for (int32_t e = head_[r]; e >= 0; e = entries_[e].next) {
      out->push_back(entries_[e].merge);
      --pending_;
    }
    head_[r] = -1;
    bits0_[r >> 6] &= ~(uint64_t{1} << (r & 63));
    if (bits0_[r >> 6] == 0)
      bits1_[r >> 12] &= ~(uint64_t{1} << ((r >> 6) & 63));
  }
  // Empties every list, into `heap` unless null.
  void Drain(std::priority_queue<Merge>* heap) {
    std::vector<Merge> taken;
    while (pending_ > 0) {
      taken.clear();
      Take(NextRank(0), &taken);
      if (heap != nullptr) {
        for (const Merge& m : taken) heap->push(m);
      }
    }
  }
  std::vector<int32_t> head_;  // per rank: its newest entry, or -1
  std::vector<uint64_t> bits0_, bits1_;
  std::vector<Entry> entries_;
  std::vector<Merge> batch_;  // the rank being popped
  size_t pending_ = 0;        // entries in the lists
  uint32_t current_ = 0;
  bool fallback_ = false;
  std::priority_queue<Merge> heap_;
};

// Words of at least this many symbols merge through a RankQueue.
constexpr size_t kRankQueueSymbols = 16;
// Per-thread buffers above this many elements are freed, not kept.
constexpr size_t kKeepCapacity = size_t{1} << 16;

// The id of the token that is exactly the character `c`, or -1 (from the
// load-time tables; only with an empty prefix and suffix).
int32_t CharId(const BpeModel& m, uint32_t c) {
  if (c < m.low_char_ids.size()) return m.low_char_ids[c];
  const MergeMap::Value* v = m.char_ids.find(c);
  return v ? v->second : -1;
}

// Whether some merge joins a token ending with `x` to one starting with `y`.
bool Joins(const BpeModel& m, uint32_t x, uint32_t y) {
  if (x < 128 && y < 128) {
    return (m.ascii_joins[2 * x + (y >> 6)] >> (y & 63)) & 1;
  }
  return m.join_pairs.find((static_cast<uint64_t>(x) << 32) | y) != nullptr;
}

}  // namespace

Status BpeModel::Tokenize(std::string_view word,
                          std::vector<int32_t>* ids) const {
  if (!split_words || word.size() <= kSplitWordBytes) {
    return TokenizeThroughWordCache(
        serial, word, ids, nullptr,
        [this](std::string_view w, std::vector<int32_t>* out,
               std::vector<ByteSpan>*) { return TokenizeUncached(w, out); });
  }
  // A long word (a whole text, with no pre-tokenizer) is cut between two
  // characters that are tokens on their own and that no merge joins: the
  // pieces merge to the same tokens as the word, and so does any run of
  // consecutive pieces (docs/tokenizer.md "BPE", "Cutting long words").
  // Pieces go through the word cache, which pays where they repeat (words
  // of a vocabulary trained with a pre-tokenizer, CJK) and costs where they
  // do not. So each word's first kSampleBytes are cut, and the share of
  // their bytes the cache had (per thread and model, decaying) decides
  // whether the rest is cut too or merged as one piece.
  struct SplitStats {
    uint64_t serial = 0;
    uint64_t hit = 0, seen = 0;  // bytes of pieces
  };
  thread_local SplitStats stats;
  if (stats.serial != serial) stats = {serial, 0, 0};
  constexpr size_t kSampleBytes = 1024;
  const bool cut_all = 2 * stats.hit >= stats.seen;  // >= 50% from cache
  size_t start = 0;
  auto piece = [&](size_t end) -> Status {
    bool missed = false;
    EMBER_RETURN_IF_ERROR(TokenizeThroughWordCache(
        serial, word.substr(start, end - start), ids, nullptr,
        [&](std::string_view w, std::vector<int32_t>* out,
            std::vector<ByteSpan>*) {
          missed = true;
          return TokenizeUncached(w, out);
        }));
    stats.seen += end - start;
    if (!missed) stats.hit += end - start;
    start = end;
    return Status::Ok();
  };
  uint32_t prev = 0;
  bool prev_token = false;
  for (size_t i = 0; i < word.size();) {
    if (!cut_all && i >= kSampleBytes) break;
    size_t w = 1;
    uint32_t c = static_cast<uint8_t>(word[i]);
    if (c >= 0x80) {
      w = Utf8Length(static_cast<uint8_t>(word[i]));
      if (i + w > word.size()) break;  // not UTF-8: the rest in one piece
      c = DecodeCodePoint(word, i, &w);
    }
    const bool token = CharId(*this, c) >= 0;
    if (token && prev_token && !Joins(*this, prev, c)) {
      EMBER_RETURN_IF_ERROR(piece(i));
    }
    prev = c;
    prev_token = token;
    i += w;
  }
  if (stats.seen > (uint64_t{1} << 16)) {  // the last 64 KiB or so count
    stats.hit /= 2;
    stats.seen /= 2;
  }
  if (start == 0 || word.size() - start > kSplitWordBytes) {
    return TokenizeUncached(word.substr(start), ids);
  }
  return piece(word.size());
}

Status BpeModel::TokenizeWithSpans(std::string_view word,
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

Status BpeModel::TokenizeUncached(std::string_view word,
                                  std::vector<int32_t>* ids,
                                  std::vector<ByteSpan>* spans) const {
  if (word.empty()) return Status::Ok();
  if (ignore_merges) {
    auto it = vocab.find(word);
    if (it != vocab.end()) {
      ids->push_back(it->second);
      if (spans) spans->push_back({0, static_cast<uint32_t>(word.size())});
      return Status::Ok();
    }
  }
  // The symbols of the word, one per character before any merge, as a
  // doubly linked list (`tokenizers`' Word), each with its length in
  // bytes: a character's, 1 for a byte-fallback token, the characters' for
  // an unk (fused or not); a merge adds the two. A token's span is where
  // the lengths before it in the list add up to, as `tokenizers` counts
  // it (docs/tokenizer.md "Offsets": not always where it is in the word).
  struct Symbol {
    int32_t id;
    int32_t prev, next;
    bool live;
    uint32_t length;
  };
  // Per thread, reused (most words are short); a long text's buffer is not
  // kept past the next short word.
  thread_local std::vector<Symbol> symbols;
  if (symbols.capacity() > kKeepCapacity && word.size() <= kKeepCapacity) {
    std::vector<Symbol>().swap(symbols);
  }
  symbols.clear();
  symbols.reserve(word.size());
  auto push = [&](int32_t id, size_t length) {
    auto index = static_cast<int32_t>(symbols.size());
    symbols.push_back(
        {id, index - 1, index + 1, true, static_cast<uint32_t>(length)});
  };
  int32_t unk_id = -1;
  bool unk_pending = false;
  size_t unk_length = 0;
  std::string key;
  for (size_t i = 0; i < word.size();) {
    size_t w = Utf8Length(static_cast<uint8_t>(word[i]));
    size_t end = std::min(i + w, word.size());
    bool is_first = i == 0, is_last = end == word.size();
    std::string_view s = word.substr(i, end - i);
    if ((!is_first && !continuing_subword_prefix.empty()) ||
        (is_last && !end_of_word_suffix.empty())) {
      key.clear();
      if (!is_first) key += continuing_subword_prefix;
      key += s;
      if (is_last) key += end_of_word_suffix;
      s = key;
    }
    int32_t id = -1;
    if (char_tables && end - i == w) {
      size_t length = 0;
      id = CharId(*this, DecodeCodePoint(word, i, &length));
    } else {
      auto it = vocab.find(s);
      if (it != vocab.end()) id = it->second;
    }
    if (id >= 0) {
      if (unk_pending) {
        push(unk_id, unk_length);
        unk_pending = false;
      }
      push(id, end - i);
    } else {
      bool done = false;
      if (byte_fallback) {
        // Every byte of the key (prefix and suffix included, as
        // `tokenizers` does), each a token of length 1.
        bool all = true;
        for (char ch : s) all = all && byte_ids[static_cast<uint8_t>(ch)] >= 0;
        if (all) {
          // `tokenizers` emits these without flushing a pending unk first.
          for (char ch : s) push(byte_ids[static_cast<uint8_t>(ch)], 1);
          done = true;
        }
      }
      if (!done && has_unk) {
        auto unk = vocab.find(unk_token);
        if (unk == vocab.end()) {
          return InvalidArgumentError(
              StringPrintf("BPE unk_token \"%s\" is not in the vocabulary",
                           unk_token.c_str()));
        }
        if (unk_pending && !fuse_unk) {
          push(unk_id, unk_length);
          unk_pending = false;
        }
        if (!unk_pending) unk_length = 0;
        unk_length += end - i;
        unk_id = unk->second;
        unk_pending = true;
      }
    }
    i = end;
  }
  if (unk_pending) push(unk_id, unk_length);
  if (symbols.empty()) return Status::Ok();
  symbols.back().next = -1;

  // Merges, lowest rank first and leftmost among equal ranks; an entry is
  // stale when its pair changed since it was queued.
  auto lookup = [&](int32_t a, int32_t b) {
    return merges.find((static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) |
                       static_cast<uint32_t>(b));
  };
  auto merge_all = [&](auto& queue) {
    queue.Reset();
    for (size_t i = 0; i + 1 < symbols.size(); ++i) {
      if (auto* m = lookup(symbols[i].id, symbols[i + 1].id)) {
        queue.Push({m->first, static_cast<int32_t>(i), m->second, symbols[i].id,
                    symbols[i + 1].id});
      }
    }
    Merge top;
    while (queue.Pop(&top)) {
      Symbol& cur = symbols[top.pos];
      if (!cur.live || cur.next < 0 || cur.id != top.left) continue;
      Symbol& right = symbols[cur.next];
      if (right.id != top.right) continue;
      cur.id = top.new_id;
      cur.length += right.length;
      right.live = false;
      cur.next = right.next;
      if (cur.next >= 0) symbols[cur.next].prev = top.pos;
      if (cur.prev >= 0) {
        if (auto* p = lookup(symbols[cur.prev].id, cur.id)) {
          queue.Push(
              {p->first, cur.prev, p->second, symbols[cur.prev].id, cur.id});
        }
      }
      if (cur.next >= 0) {
        if (auto* n = lookup(cur.id, symbols[cur.next].id)) {
          queue.Push(
              {n->first, top.pos, n->second, cur.id, symbols[cur.next].id});
        }
      }
    }
  };
  if (symbols.size() >= kRankQueueSymbols) {
    thread_local RankQueue queue;
    merge_all(queue);
  } else if (symbols.size() > 1) {
    thread_local MergeQueue queue;
    merge_all(queue);
  }
  uint32_t at = 0;
  for (int32_t i = 0; i >= 0; i = symbols[i].next) {
    ids->push_back(symbols[i].id);
    if (spans) spans->push_back({at, at + symbols[i].length});
    at += symbols[i].length;
  }
  return Status::Ok();
}

void MergeMap::reserve(size_t count) {
  size_t capacity = 16;
  while (capacity < 2 * count) capacity *= 2;
  if (capacity > slots_.size()) Rehash(capacity);
}

void MergeMap::Rehash(size_t capacity) {
  std::vector<Slot> old;
  old.swap(slots_);
  slots_.assign(capacity, Slot{});
  mask_ = capacity - 1;
  shift_ = 64;
  for (size_t c = capacity; c > 1; c >>= 1) --shift_;
  for (const Slot& slot : old) {
    if (slot.key == kEmpty) continue;
    size_t i = Home(slot.key);
    while (slots_[i].key != kEmpty) i = (i + 1) & mask_;
    slots_[i] = slot;
  }
}

MergeMap::Value& MergeMap::operator[](uint64_t key) {
  if (2 * (size_ + 1) > slots_.size()) {
    Rehash(std::max<size_t>(16, 2 * slots_.size()));
  }
  size_t i = Home(key);
  while (slots_[i].key != kEmpty) {
    if (slots_[i].key == key) return slots_[i].value;
    i = (i + 1) & mask_;
  }
  slots_[i].key = key;
  ++size_;
  return slots_[i].value;
}

BpeModel::BpeModel() {
  static std::atomic<uint64_t> next_serial{1};
  serial = next_serial.fetch_add(1);
  std::fill(std::begin(byte_ids), std::end(byte_ids), -1);
}

std::optional<std::string_view> BpeModel::IdToToken(int32_t id) const {
  if (id >= 0 && static_cast<size_t>(id) < has_id.size() && has_id[id]) {
    return std::string_view(vocab_r[id]);
  }
  return std::nullopt;
}

std::optional<int32_t> BpeModel::TokenToId(std::string_view token) const {
  auto it = vocab.find(token);
  if (it == vocab.end()) return std::nullopt;
  return it->second;
}

Result<std::unique_ptr<Model>> LoadBpeModel(const object& o) {
  auto model = std::make_unique<BpeModel>();
  BpeModel& m = *model;
  constexpr std::string_view kWhere = "model BPE";
  element dropout;
  if (Field(o, "dropout", &dropout) && !dropout.is_null()) {
    double v = 0;
    if (dropout.get_double().get(v) != simdjson::SUCCESS || v != 0.0) {
      return UnimplementedError(
          "tokenizer.json model BPE \"dropout\" is not implemented");
    }
  }
  EMBER_ASSIGN_OR_RETURN(std::string_view unk,
                         GetOptionalString(o, "unk_token", kWhere));
  m.has_unk = !IsNullOrAbsent(o, "unk_token");
  m.unk_token = unk;
  EMBER_ASSIGN_OR_RETURN(
      std::string_view prefix,
      GetOptionalString(o, "continuing_subword_prefix", kWhere));
  m.continuing_subword_prefix = prefix;
  EMBER_ASSIGN_OR_RETURN(std::string_view suffix,
                         GetOptionalString(o, "end_of_word_suffix", kWhere));
  m.end_of_word_suffix = suffix;
  EMBER_ASSIGN_OR_RETURN(m.fuse_unk, GetBool(o, "fuse_unk", kWhere, false));
  EMBER_ASSIGN_OR_RETURN(m.byte_fallback,
                         GetBool(o, "byte_fallback", kWhere, false));
  EMBER_ASSIGN_OR_RETURN(m.ignore_merges,
                         GetBool(o, "ignore_merges", kWhere, false));

  // The vocabulary: token -> id. Ids must be distinct and dense enough that
  // the id -> token table stays proportional to the file.
  element ve;
  object vocab;
  if (!Field(o, "vocab", &ve) ||
      ve.get_object().get(vocab) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        "model BPE: \"vocab\" is missing or not an object");
  }
  size_t count = vocab.size();
  if (count > Tokenizer::kMaxVocab) {
    return ResourceExhaustedError(
        StringPrintf("model BPE: %zu tokens, over the limit of %zu", count,
                     Tokenizer::kMaxVocab));
  }
  const uint64_t max_id = std::min<uint64_t>(
      2 * static_cast<uint64_t>(count) + 65536, INT32_MAX - 1);
  m.vocab.reserve(count);
  for (auto field : vocab) {
    uint64_t id = 0;
    if (field.value.get_uint64().get(id) != simdjson::SUCCESS || id > max_id) {
      return InvalidArgumentError(StringPrintf(
          "model BPE: the id of token \"%.*s\" is not an integer in [0, %llu]",
          static_cast<int>(std::min<size_t>(field.key.size(), 64)),
          field.key.data(), static_cast<unsigned long long>(max_id)));
    }
    if (!m.vocab.emplace(std::string(field.key), static_cast<int32_t>(id))
             .second) {
      return InvalidArgumentError(StringPrintf(
          "model BPE: token \"%.*s\" appears twice in the vocabulary",
          static_cast<int>(std::min<size_t>(field.key.size(), 64)),
          field.key.data()));
    }
    if (id >= m.vocab_r.size()) {
      m.vocab_r.resize(id + 1);
      m.has_id.resize(id + 1, 0);
    }
    if (m.has_id[id]) {
      return InvalidArgumentError(
          StringPrintf("model BPE: id %llu is given to two tokens",
                       static_cast<unsigned long long>(id)));
    }
    m.has_id[id] = 1;
    m.vocab_r[id] = std::string(field.key);
  }
  std::fill(std::begin(m.byte_ids), std::end(m.byte_ids), -1);
  for (int b = 0; b < 256; ++b) {
    auto it = m.vocab.find(StringPrintf("<0x%02X>", b));
    if (it != m.vocab.end()) m.byte_ids[b] = it->second;
  }

  // The merges, by rank: "a b" strings or [a, b] pairs. The merged token
  // is a + b (b without the continuing-subword prefix); all three must be
  // in the vocabulary. A repeated pair keeps its last rank, as a Rust
  // HashMap built from the list does.
  element me;
  array merges;
  if (!Field(o, "merges", &me) ||
      me.get_array().get(merges) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        "model BPE: \"merges\" is missing or not an array");
  }
  if (merges.size() > Tokenizer::kMaxMerges) {
    return ResourceExhaustedError(
        StringPrintf("model BPE: %zu merges, over the limit of %zu",
                     merges.size(), Tokenizer::kMaxMerges));
  }
  m.merges.reserve(merges.size());
  uint32_t rank = 0;
  std::string merged;
  for (element entry : merges) {
    std::string_view a, b, line;
    array pair;
    if (entry.get_string().get(line) == simdjson::SUCCESS) {
      size_t space = line.find(' ');
      if (space == std::string_view::npos ||
          line.find(' ', space + 1) != std::string_view::npos) {
        return InvalidArgumentError(StringPrintf(
            "model BPE: merge %u is not two tokens separated by one space",
            rank + 1));
      }
      a = line.substr(0, space);
      b = line.substr(space + 1);
    } else if (entry.get_array().get(pair) == simdjson::SUCCESS &&
               pair.size() == 2 &&
               pair.at(0).get_string().get(a) == simdjson::SUCCESS &&
               pair.at(1).get_string().get(b) == simdjson::SUCCESS) {
    } else {
      return InvalidArgumentError(StringPrintf(
          "model BPE: merge %u is neither \"a b\" nor [\"a\", \"b\"]",
          rank + 1));
    }
    auto ia = m.vocab.find(a);
    auto ib = m.vocab.find(b);
    std::string_view b_tail = b;
    if (!m.continuing_subword_prefix.empty() &&
        b_tail.substr(0, m.continuing_subword_prefix.size()) ==
            m.continuing_subword_prefix) {
      b_tail.remove_prefix(m.continuing_subword_prefix.size());
    }
    merged.assign(a);
    merged.append(b_tail);
    auto im = m.vocab.find(merged);
    if (ia == m.vocab.end() || ib == m.vocab.end() || im == m.vocab.end()) {
      return InvalidArgumentError(StringPrintf(
          "model BPE: merge %u (\"%.*s\" + \"%.*s\") names a token that is not "
          "in the vocabulary",
          rank + 1, static_cast<int>(std::min<size_t>(a.size(), 64)), a.data(),
          static_cast<int>(std::min<size_t>(b.size(), 64)), b.data()));
    }
    uint64_t key =
        (static_cast<uint64_t>(static_cast<uint32_t>(ia->second)) << 32) |
        static_cast<uint32_t>(ib->second);
    m.merges[key] = {rank, im->second};
    ++rank;
    if (!a.empty() && !b.empty()) {
      // The last character of a and the first of b (both valid UTF-8).
      size_t last = a.size() - 1, length = 0;
      while (last > 0 && (static_cast<uint8_t>(a[last]) & 0xC0) == 0x80) --last;
      const uint32_t x = DecodeCodePoint(a, last, &length);
      const uint32_t y = DecodeCodePoint(b, 0, &length);
      m.join_pairs[(static_cast<uint64_t>(x) << 32) | y];
      if (x < 128 && y < 128)
        m.ascii_joins[2 * x + (y >> 6)] |= uint64_t{1} << (y & 63);
    }
  }
  // The tables of the fast paths (docs/tokenizer.md "BPE"): with no prefix
  // or suffix, a character is a symbol when it is a token by itself.
  m.char_tables =
      m.continuing_subword_prefix.empty() && m.end_of_word_suffix.empty();
  if (m.char_tables) {
    m.low_char_ids.assign(0x200, -1);
    for (const auto& [token, id] : m.vocab) {
      if (token.empty()) continue;
      size_t length = Utf8Length(static_cast<uint8_t>(token[0]));
      if (length != token.size()) continue;
      const uint32_t c = DecodeCodePoint(token, 0, &length);
      if (c < 0x200) {
        m.low_char_ids[c] = id;
      } else {
        m.char_ids[c] = {0, id};
      }
    }
  }
  m.split_words = m.char_tables && !m.ignore_merges;
  return std::unique_ptr<Model>(std::move(model));
}

}  // namespace ember::tokenizer
