// libFuzzer target for encode and decode (runtime/tokenizer/): a fixed
// byte-level BPE and a fixed byte-fallback BPE encode the input (invalid
// UTF-8 must be INVALID_ARGUMENT, never a crash), decoding the ids must
// give back the input where the pipeline is lossless, and the stream
// decoder fed one id at a time must give what Decode gives.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#ifdef EMBER_HAVE_TOKENIZER
#include "runtime/tokenizer/tokenizer.h"

namespace {

using ember::tokenizer::Tokenizer;

// A byte-level vocabulary: the 256 byte characters and a few merges.
std::unique_ptr<Tokenizer> MakeByteLevel() {
  std::string vocab = "{";
  int id = 0;
  auto add = [&](const std::string& token) {
    if (id) vocab += ",";
    vocab += "\"" + token + "\":" + std::to_string(id++);
  };
  // The GPT-2 characters, written as JSON escapes of their code points.
  int next = 256;
  for (int b = 0; b < 256; ++b) {
    bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) ||
                     (b >= 0xAE && b <= 0xFF);
    char buf[16];
    snprintf(buf, sizeof(buf), "\\u%04x", printable ? b : next++);
    add(buf);
  }
  add("\\u0120t");
  add("he");
  add("\\u0120the");
  add("<|endoftext|>");
  vocab += "}";
  std::string json =
      "{\"added_tokens\":[{\"id\":" + std::to_string(id - 1) +
      ",\"content\":\"<|endoftext|>\",\"special\":true,\"normalized\":false}],"
      "\"pre_tokenizer\":{\"type\":\"ByteLevel\",\"add_prefix_space\":false},"
      "\"decoder\":{\"type\":\"ByteLevel\"},"
      "\"model\":{\"type\":\"BPE\",\"vocab\":" +
      vocab + ",\"merges\":[\"\\u0120 t\",\"h e\",\"\\u0120t he\"]}}";
  auto t = Tokenizer::FromHuggingFaceJson(json);
  if (!t.ok()) __builtin_trap();
  return std::move(t).value();
}

std::unique_ptr<Tokenizer> MakeByteFallback() {
  std::string vocab = "{\"<unk>\":0,\"\\u2581\":1,\"a\":2,\"\\u2581a\":3";
  for (int b = 0; b < 256; ++b) {
    char buf[32];
    snprintf(buf, sizeof(buf), ",\"<0x%02X>\":%d", b, 4 + b);
    vocab += buf;
  }
  vocab += "}";
  std::string json =
      "{\"normalizer\":{\"type\":\"Sequence\",\"normalizers\":["
      "{\"type\":\"Prepend\",\"prepend\":\"\\u2581\"},{\"type\":\"Replace\","
      "\"pattern\":{\"String\":\" \"},\"content\":\"\\u2581\"}]},"
      "\"decoder\":{\"type\":\"Sequence\",\"decoders\":[{\"type\":\"Replace\","
      "\"pattern\":{\"String\":\"\\u2581\"},\"content\":\" \"},"
      "{\"type\":\"ByteFallback\"},{\"type\":\"Fuse\"},{\"type\":\"Strip\","
      "\"content\":\" \",\"start\":1,\"stop\":0}]},"
      "\"model\":{\"type\":\"BPE\",\"unk_token\":\"<unk>\",\"byte_fallback\":"
      "true,\"fuse_unk\":true,\"vocab\":" +
      vocab + ",\"merges\":[\"\\u2581 a\"]}}";
  auto t = Tokenizer::FromHuggingFaceJson(json);
  if (!t.ok()) __builtin_trap();
  return std::move(t).value();
}

}  // namespace
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
#ifdef EMBER_HAVE_TOKENIZER
  static const std::unique_ptr<Tokenizer> byte_level = MakeByteLevel();
  static const std::unique_ptr<Tokenizer> byte_fallback = MakeByteFallback();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  bool valid = ember::tokenizer::IsValidUtf8(text);
  for (const Tokenizer* t : {byte_level.get(), byte_fallback.get()}) {
    auto ids = t->Encode(text, {});
    if (!ids.ok()) {
      if (valid) __builtin_trap();  // valid text must always encode
      continue;
    }
    if (!valid) __builtin_trap();
    // Offsets: Encode's ids, each within the text (neither pipeline has a
    // post-processor, so none is {0, 0} by rule).
    std::vector<int32_t> offset_ids;
    std::vector<ember::tokenizer::TokenOffsets> offsets;
    if (!t->EncodeWithOffsets(text, {}, &offset_ids, &offsets).ok() ||
        offset_ids != *ids || offsets.size() != ids->size()) {
      __builtin_trap();
    }
    for (const auto& o : offsets) {
      if (o.begin > o.end || o.end > text.size()) __builtin_trap();
    }
    auto back = t->Decode(*ids, false);
    if (!back.ok()) __builtin_trap();
    // The stream decoder, one id at a time, must agree with Decode.
    auto stream = t->NewDecodeStream(false);
    std::string streamed;
    for (int32_t id : *ids) {
      if (!stream->Feed(std::span<const int32_t>(&id, 1), &streamed).ok()) {
        __builtin_trap();
      }
    }
    if (!stream->Finalize(&streamed).ok() || streamed != *back) {
      __builtin_trap();
    }
    // Both pipelines are lossless on valid UTF-8 (byte-level maps every
    // byte; byte fallback covers every byte and Strip removes only the
    // space Prepend added) unless the text holds the meta-space U+2581
    // itself, which the llama decoder turns into a space.
    if (*back != text && text.find("\xE2\x96\x81") == std::string_view::npos) {
      __builtin_trap();
    }
  }
#endif
  return 0;
}
