// The public Tokenizer: loading, encode and decode over the Pipeline, the
// batch forms and the vocabulary queries (see tokenizer.h for the stages
// and tokenizer_internal.h for the file of each).
#include "runtime/tokenizer/tokenizer.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {

Tokenizer::Tokenizer() : pipeline_(std::make_unique<Pipeline>()) {}
Tokenizer::~Tokenizer() = default;

Result<std::unique_ptr<Tokenizer>> Tokenizer::FromHuggingFaceJson(
    std::string_view json) {
  std::unique_ptr<Tokenizer> tokenizer(new Tokenizer());
  EMBER_RETURN_IF_ERROR(LoadHuggingFaceJson(json, tokenizer->pipeline_.get()),
                        "while loading a tokenizer.json");
  return tokenizer;
}

Result<std::unique_ptr<Tokenizer>> Tokenizer::FromFile(
    const std::string& path) {
  // A directory opens as a stream whose size reads as 2^63 - 1.
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return InvalidArgumentError(
        StringPrintf("tokenizer file '%s' is a directory", path.c_str()));
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return NotFoundError(
        StringPrintf("cannot open tokenizer file '%s'", path.c_str()));
  }
  file.seekg(0, std::ios::end);
  std::streamoff size = file.tellg();
  if (size < 0) return InvalidArgumentError("cannot size tokenizer file");
  if (static_cast<size_t>(size) > kMaxJsonBytes) {
    return ResourceExhaustedError(StringPrintf(
        "tokenizer file '%s' is %lld bytes, over the limit of %zu",
        path.c_str(), static_cast<long long>(size), kMaxJsonBytes));
  }
  file.seekg(0);
  std::string data(static_cast<size_t>(size), '\0');
  file.read(data.data(), size);
  if (file.gcount() != size) {
    return DataLossError(StringPrintf("short read of '%s'", path.c_str()));
  }
  // As iree.runtime 3.13 tells them apart: a file named
  // `<encoding>.tiktoken` is a rank file of that encoding
  // (docs/tokenizer.md "tiktoken"); anything else must be JSON.
  if (path.size() >= 9 && path.compare(path.size() - 9, 9, ".tiktoken") == 0) {
    size_t slash = path.find_last_of('/');
    std::string_view stem(path);
    stem = stem.substr(slash == std::string::npos ? 0 : slash + 1);
    stem.remove_suffix(9);
    EMBER_ASSIGN_OR_RETURN(auto tokenizer, FromTiktoken(data, stem),
                           "while loading '%s'", path.c_str());
    return tokenizer;
  }
  if (data.size() >= 4 && data.compare(0, 1, "{") != 0) {
    // Leading whitespace is fine JSON; only a file that cannot be JSON at
    // all is named for what it is not.
    size_t first = data.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || data[first] != '{') {
      return InvalidArgumentError(StringPrintf(
          "'%s' is not a HuggingFace tokenizer.json (it does not start with "
          "a JSON object)",
          path.c_str()));
    }
  }
  return FromHuggingFaceJson(data);
}

Status Tokenizer::Encode(std::string_view text, const EncodeOptions& options,
                         std::vector<int32_t>* ids) const {
  return EncodeMaybePair(text, nullptr, options, ids);
}

Status Tokenizer::EncodePair(std::string_view text, std::string_view pair,
                             const EncodeOptions& options,
                             std::vector<int32_t>* ids) const {
  return EncodeMaybePair(text, &pair, options, ids);
}

Status Tokenizer::EncodeMaybePair(std::string_view text,
                                  const std::string_view* pair,
                                  const EncodeOptions& options,
                                  std::vector<int32_t>* ids) const {
  if (!IsValidUtf8(text) || (pair && !IsValidUtf8(*pair))) {
    return InvalidArgumentError("text to encode is not valid UTF-8");
  }
  const Pipeline& p = *pipeline_;
  EMBER_RETURN_IF_ERROR(p.EncodeText(text, options, ids));
  std::vector<int32_t> second;
  if (pair) EMBER_RETURN_IF_ERROR(p.EncodeText(*pair, options, &second));
  return p.Finish(options.add_special_tokens, p.padding.id, ids,
                  pair ? &second : nullptr,
                  [&](std::vector<int32_t>* items, std::vector<int32_t>* b) {
                    return p.PostProcess(options.add_special_tokens, items, b);
                  });
}

Result<std::vector<int32_t>> Tokenizer::Encode(
    std::string_view text, const EncodeOptions& options) const {
  std::vector<int32_t> ids;
  EMBER_RETURN_IF_ERROR(Encode(text, options, &ids));
  return ids;
}

namespace {

// Batch workers that outlive a batch: the BPE model keeps a word cache per
// thread (model_bpe.cc), and a thread started for each batch began with an
// empty one -- measured on the trained GPT-2-style BPE, a cold thread spent
// 1.5x the CPU time of a warm one on the same 0.23 MiB batch, which capped
// encode_batch on 2 cores near 1.5x one thread. The caller runs a share
// too. One batch uses the pool at a time; a batch that finds it busy
// starts its own threads. A child process after fork() has none of the
// parent's threads: it makes a pool of its own.
class WorkerPool {
 public:
  // Runs body(t) for t in [0, threads) on the caller and threads - 1
  // workers; false (nothing run) when another batch holds the pool.
  static bool TryRun(unsigned threads,
                     const std::function<void(unsigned)>& body) {
    static std::mutex instance_mu;
    static WorkerPool* instance = nullptr;
    WorkerPool* pool;
    {
      std::lock_guard<std::mutex> lock(instance_mu);
      if (instance == nullptr || instance->pid_ != getpid()) {
        instance = new WorkerPool();  // never freed: workers wait on it
      }
      pool = instance;
    }
    std::unique_lock<std::mutex> run(pool->run_mu_, std::try_to_lock);
    if (!run.owns_lock()) return false;
    pool->Run(threads, body);
    return true;
  }

 private:
  static constexpr unsigned kMaxWorkers = 256;

  void Run(unsigned threads, const std::function<void(unsigned)>& body) {
    threads = std::min(threads, kMaxWorkers + 1);
    while (workers_ + 1 < threads) {
      unsigned index = workers_++;
      // The generation it has seen is the one before this batch's, so a
      // worker that starts late still takes part.
      uint64_t seen;
      {
        std::lock_guard<std::mutex> lock(mu_);
        seen = generation_;
      }
      std::thread([this, index, seen] { Work(index, seen); }).detach();
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      body_ = &body;
      active_ = threads;
      pending_ = threads - 1;
      ++generation_;
    }
    wake_.notify_all();
    body(0);
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [this] { return pending_ == 0; });
    body_ = nullptr;
  }

  void Work(unsigned index, uint64_t seen) {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (index + 1 >= active_) continue;
      const std::function<void(unsigned)>* body = body_;
      lock.unlock();
      (*body)(index + 1);
      lock.lock();
      if (--pending_ == 0) done_.notify_all();
    }
  }

  const pid_t pid_ = getpid();
  std::mutex run_mu_;  // one batch at a time
  std::mutex mu_;
  std::condition_variable wake_, done_;
  unsigned workers_ = 0;  // guarded by run_mu_
  uint64_t generation_ = 0;
  const std::function<void(unsigned)>* body_ = nullptr;
  unsigned active_ = 0, pending_ = 0;
};

// Runs work(i) for i in [0, n) on up to `threads` threads; the first error
// stops the rest.
Status ParallelFor(size_t n, unsigned threads,
                   const std::function<Status(size_t)>& work) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<size_t>(threads, n));
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) EMBER_RETURN_IF_ERROR(work(i));
    return Status::Ok();
  }
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::vector<Status> errors(threads);
  auto body = [&](unsigned t) {
    while (!failed.load(std::memory_order_relaxed)) {
      size_t i = next.fetch_add(1);
      if (i >= n) break;
      Status s = work(i);
      if (!s.ok()) {
        errors[t] = std::move(s);
        failed = true;
      }
    }
  };
  if (!WorkerPool::TryRun(threads, body)) {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(body, t);
    for (auto& thread : pool) thread.join();
  }
  for (Status& s : errors) {
    if (!s.ok()) return std::move(s);
  }
  return Status::Ok();
}

}  // namespace

namespace {

// Padding over a batch (`tokenizers`' pad_encodings after encode_batch):
// each encoding to the longest of the batch (or the fixed length), rounded
// up to the multiple.
template <typename T>
void PadBatch(const Pipeline& p, const T& pad,
              std::vector<std::vector<T>>* batch) {
  if (!p.padding.enabled || batch->empty()) return;
  size_t longest = 0;
  for (const std::vector<T>& e : *batch) longest = std::max(longest, e.size());
  const size_t length = p.PaddedLength(longest);
  for (std::vector<T>& e : *batch) p.Pad(length, pad, &e);
}

}  // namespace

namespace {

// The loop of the batch encodes: `encode(i, pair)` for each text on up to
// `threads` threads, `pair` being text i's second sequence or null, an
// error naming the text. Each encode writes into locals of its thread and
// moves them into the output at the end: the output vectors' headers sit
// side by side, and growing them in place from two threads made every
// append bounce one cache line between the cores (encode_batch scaled
// 1.75x on 2 cores where two processes reach 1.97x).
template <typename Encode>
Status ForEachText(std::span<const std::string_view> texts,
                   std::span<const std::optional<std::string_view>> pairs,
                   unsigned threads, const Encode& encode) {
  if (!pairs.empty() && pairs.size() != texts.size()) {
    return InvalidArgumentError(
        "encode_batch: pairs and texts differ in count");
  }
  return ParallelFor(texts.size(), threads, [&](size_t i) -> Status {
    const std::string_view* pair =
        pairs.empty() || !pairs[i] ? nullptr : &*pairs[i];
    EMBER_RETURN_IF_ERROR(encode(i, pair),
                          "while encoding text %zu of the batch", i);
    return Status::Ok();
  });
}

}  // namespace

Status Tokenizer::EncodeBatch(
    std::span<const std::string_view> texts, const EncodeOptions& options,
    unsigned threads, std::vector<std::vector<int32_t>>* out,
    std::span<const std::optional<std::string_view>> pairs) const {
  out->assign(texts.size(), {});
  EMBER_RETURN_IF_ERROR(ForEachText(
      texts, pairs, threads, [&](size_t i, const std::string_view* pair) {
        std::vector<int32_t> ids;
        EMBER_RETURN_IF_ERROR(EncodeMaybePair(texts[i], pair, options, &ids));
        (*out)[i] = std::move(ids);
        return Status::Ok();
      }));
  PadBatch(*pipeline_, pipeline_->padding.id, out);
  return Status::Ok();
}

Status Tokenizer::EncodeBatchWithOffsets(
    std::span<const std::string_view> texts, const EncodeOptions& options,
    unsigned threads, std::vector<std::vector<int32_t>>* ids,
    std::vector<std::vector<TokenOffsets>>* offsets,
    std::span<const std::optional<std::string_view>> pairs) const {
  ids->assign(texts.size(), {});
  offsets->assign(texts.size(), {});
  EMBER_RETURN_IF_ERROR(ForEachText(
      texts, pairs, threads, [&](size_t i, const std::string_view* pair) {
        std::vector<int32_t> one_ids;
        std::vector<TokenOffsets> one_offsets;
        EMBER_RETURN_IF_ERROR(EncodeWithOffsetsMaybePair(
            texts[i], pair, options, &one_ids, &one_offsets));
        (*ids)[i] = std::move(one_ids);
        (*offsets)[i] = std::move(one_offsets);
        return Status::Ok();
      }));
  PadBatch(*pipeline_, pipeline_->padding.id, ids);
  PadBatch(*pipeline_, TokenOffsets{}, offsets);
  return Status::Ok();
}

Status Tokenizer::EncodeBatchFull(
    std::span<const std::string_view> texts, const EncodeOptions& options,
    unsigned threads, std::vector<Encoding>* out,
    std::span<const std::optional<std::string_view>> pairs) const {
  out->assign(texts.size(), {});
  EMBER_RETURN_IF_ERROR(ForEachText(
      texts, pairs, threads, [&](size_t i, const std::string_view* pair) {
        Encoding encoding;
        EMBER_RETURN_IF_ERROR(EncodeFull(texts[i], pair, options, &encoding));
        (*out)[i] = std::move(encoding);
        return Status::Ok();
      }));
  const Pipeline& p = *pipeline_;
  if (p.padding.enabled && !out->empty()) {
    size_t longest = 0;
    for (const Encoding& e : *out) longest = std::max(longest, e.ids.size());
    const size_t length = p.PaddedLength(longest);
    for (Encoding& e : *out) {
      p.Pad(length, p.padding.id, &e.ids);
      p.Pad(length, p.padding.type_id, &e.type_ids);
      p.Pad(length, TokenOffsets{}, &e.offsets);
      p.Pad(length, uint8_t{1}, &e.special_tokens_mask);
      p.Pad(length, uint8_t{0}, &e.attention_mask);
    }
  }
  return Status::Ok();
}

namespace {

// The ByteLevel decoder of one token: its characters' bytes when each is
// one of GPT-2's table, else the token's own text (as RunDecoder does).
std::string ByteLevelTokenBytes(std::string_view token) {
  std::string bytes;
  for (size_t i = 0; i < token.size();) {
    size_t w = 0;
    int b = ByteLevelByte(DecodeCodePoint(token, i, &w));
    if (b < 0) return std::string(token);
    bytes.push_back(static_cast<char>(b));
    i += w;
  }
  return bytes;
}

}  // namespace

Result<std::string> Tokenizer::Decode(std::span<const int32_t> ids,
                                      bool skip_special_tokens) const {
  const Pipeline& p = *pipeline_;
  if (p.has_decoder && p.decoders.size() == 1 &&
      p.decoders[0].kind == Decoder::Kind::kByteLevel) {
    // Each token's bytes are made once per tokenizer, not per decode (a
    // GPT-2-style decode spent most of its time mapping characters).
    std::call_once(p.byte_level_once, [&] {
      size_t limit = p.model->IdLimit();
      for (const AddedToken& t : p.added) {
        limit = std::max(limit, static_cast<size_t>(t.id) + 1);
      }
      p.byte_level_bytes.resize(limit);
      p.byte_level_kind.assign(limit, 0);
      for (size_t id = 0; id < limit; ++id) {
        auto token = p.IdToToken(static_cast<int32_t>(id));
        if (!token) continue;
        p.byte_level_bytes[id] = ByteLevelTokenBytes(*token);
        p.byte_level_kind[id] = p.special_contents.count(*token) ? 2 : 1;
      }
    });
    std::string bytes;
    for (int32_t id : ids) {
      uint8_t kind =
          id >= 0 && static_cast<size_t>(id) < p.byte_level_kind.size()
              ? p.byte_level_kind[id]
              : 0;
      if (kind == 0) {
        return OutOfRangeError(
            StringPrintf("token id %d is not in the vocabulary (%zu tokens)",
                         id, vocab_size()));
      }
      if (skip_special_tokens && kind == 2) continue;
      bytes += p.byte_level_bytes[id];
    }
    if (IsValidUtf8(bytes)) return bytes;
    return Utf8Lossy(bytes);
  }
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (int32_t id : ids) {
    auto token = p.IdToToken(id);
    if (!token) {
      return OutOfRangeError(
          StringPrintf("token id %d is not in the vocabulary (%zu tokens)", id,
                       vocab_size()));
    }
    if (skip_special_tokens && p.special_contents.count(*token)) {
      continue;
    }
    tokens.emplace_back(*token);
  }
  if (!p.has_decoder) {
    std::string out;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (i) out.push_back(' ');
      out += tokens[i];
    }
    return out;
  }
  for (const Decoder& d : p.decoders)
    EMBER_RETURN_IF_ERROR(RunDecoder(d, &tokens));
  std::string out;
  for (const std::string& token : tokens) out += token;
  return out;
}

Status Tokenizer::DecodeBatch(std::span<const std::span<const int32_t>> batch,
                              bool skip_special_tokens, unsigned threads,
                              std::vector<std::string>* out) const {
  out->assign(batch.size(), {});
  return ParallelFor(batch.size(), threads, [&](size_t i) -> Status {
    EMBER_ASSIGN_OR_RETURN((*out)[i], Decode(batch[i], skip_special_tokens),
                           "while decoding sequence %zu of the batch", i);
    return Status::Ok();
  });
}

size_t Tokenizer::vocab_size() const {
  // Counted once (a lookup per added token, up to 2^16 of 1 KiB each):
  // callers read it in loops.
  const Pipeline& p = *pipeline_;
  std::call_once(p.vocab_size_once, [&p] {
    size_t n = p.model->VocabSize();
    for (const AddedToken& token : p.added) {
      if (!p.model->TokenToId(token.content)) ++n;
    }
    p.vocab_size = n;
  });
  return p.vocab_size;
}

std::string_view Tokenizer::model_type() const {
  return pipeline_->model->type();
}

std::optional<std::string_view> Tokenizer::IdToToken(int32_t id) const {
  return pipeline_->IdToToken(id);
}

std::optional<int32_t> Tokenizer::TokenToId(std::string_view token) const {
  const Pipeline& p = *pipeline_;
  auto it = p.added_by_content.find(token);
  if (it != p.added_by_content.end()) return it->second;
  return p.model->TokenToId(token);
}

std::optional<int32_t> Tokenizer::UnkId() const {
  const Model* model = pipeline_->model.get();
  std::optional<std::string_view> unk;
  if (auto* bpe = dynamic_cast<const BpeModel*>(model)) {
    if (bpe->has_unk) unk = bpe->unk_token;
  } else if (auto* wp = dynamic_cast<const WordPieceModel*>(model)) {
    unk = wp->unk_token;
  } else if (auto* wl = dynamic_cast<const WordLevelModel*>(model)) {
    unk = wl->unk_token;
  } else if (auto* uni = dynamic_cast<const UnigramModel*>(model)) {
    if (uni->unk_id >= 0) return uni->unk_id;
  }
  if (!unk) return std::nullopt;
  return model->TokenToId(*unk);
}

std::vector<int32_t> Tokenizer::SpecialIds() const {
  std::vector<int32_t> ids;
  for (const AddedToken& token : pipeline_->added) {
    if (token.special) ids.push_back(token.id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace ember::tokenizer
