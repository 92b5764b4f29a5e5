// The public Tokenizer: loading, encode and decode over the Pipeline, the
// batch forms and the vocabulary queries (see tokenizer.h for the stages
// and tokenizer_internal.h for the file of each).
#include "runtime/tokenizer/tokenizer.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <functional>
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
  // The template's special tokens are emitted by id as the file gives them;
  // an id that names no token would come out of encode and then fail every
  // decode. HF loads such a file; Ember refuses it (found by fuzzing).
  for (const TemplateItem& item : tokenizer->pipeline_->single_template) {
    for (int32_t id : item.ids) {
      if (!tokenizer->IdToToken(id)) {
        return InvalidArgumentError(
            "post_processor TemplateProcessing: special token id " +
            std::to_string(id) +
            " is neither in the vocabulary nor an added token; while "
            "loading a tokenizer.json");
      }
    }
  }
  return tokenizer;
}

Result<std::unique_ptr<Tokenizer>> Tokenizer::FromFile(
    const std::string& path) {
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
  if (data.size() >= 4 && data.compare(0, 1, "{") != 0) {
    // Leading whitespace is fine JSON; only a file that cannot be JSON at
    // all is named for what it is not.
    size_t first = data.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || data[first] != '{') {
      // As iree.runtime tells them apart: a `.tiktoken` file is a rank
      // file (not implemented here); anything else must be JSON.
      if (path.size() >= 9 &&
          path.compare(path.size() - 9, 9, ".tiktoken") == 0) {
        return UnimplementedError(StringPrintf(
            "'%s': tiktoken rank files are not implemented yet", path.c_str()));
      }
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
  if (!IsValidUtf8(text)) {
    return InvalidArgumentError("text to encode is not valid UTF-8");
  }
  const Pipeline& p = *pipeline_;
  EMBER_RETURN_IF_ERROR(p.EncodeText(text, options, ids));
  if (options.add_special_tokens) EMBER_RETURN_IF_ERROR(p.PostProcess(ids));
  return Status::Ok();
}

Result<std::vector<int32_t>> Tokenizer::Encode(
    std::string_view text, const EncodeOptions& options) const {
  std::vector<int32_t> ids;
  EMBER_RETURN_IF_ERROR(Encode(text, options, &ids));
  return ids;
}

namespace {

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
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      while (!failed.load(std::memory_order_relaxed)) {
        size_t i = next.fetch_add(1);
        if (i >= n) break;
        Status s = work(i);
        if (!s.ok()) {
          errors[t] = std::move(s);
          failed = true;
        }
      }
    });
  }
  for (auto& thread : pool) thread.join();
  for (Status& s : errors) {
    if (!s.ok()) return std::move(s);
  }
  return Status::Ok();
}

}  // namespace

Status Tokenizer::EncodeBatch(std::span<const std::string_view> texts,
                              const EncodeOptions& options, unsigned threads,
                              std::vector<std::vector<int32_t>>* out) const {
  out->assign(texts.size(), {});
  return ParallelFor(texts.size(), threads, [&](size_t i) -> Status {
    EMBER_RETURN_IF_ERROR(Encode(texts[i], options, &(*out)[i]),
                          "while encoding text %zu of the batch", i);
    return Status::Ok();
  });
}

Result<std::string> Tokenizer::Decode(std::span<const int32_t> ids,
                                      bool skip_special_tokens) const {
  const Pipeline& p = *pipeline_;
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (int32_t id : ids) {
    auto token = p.IdToToken(id);
    if (!token) {
      return OutOfRangeError(
          StringPrintf("token id %d is not in the vocabulary (%zu tokens)", id,
                       vocab_size()));
    }
    if (skip_special_tokens && p.special_contents.count(std::string(*token))) {
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
  const Pipeline& p = *pipeline_;
  size_t n = p.model->VocabSize();
  for (const AddedToken& token : p.added) {
    if (!p.model->TokenToId(token.content)) ++n;
  }
  return n;
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
