// libFuzzer target for tiktoken rank files and the stream encoder
// (runtime/tokenizer/tiktoken.cc, encode_stream.cc). The first input byte
// picks the encoding, the rest is the rank file. A file that loads is then
// used: a few texts (one from the input) are encoded one-shot and as a
// stream cut every 1, 2, 3 and 7 bytes, which must give the same ids, and
// the ids are decoded. Every rejection must carry a message. Seed it with
// rank files such as tests/python/test_tokenizer_tiktoken.py makes
// (`rank_file_from_trained_bpe`), prefixed by one byte.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#ifdef EMBER_HAVE_TOKENIZER
#include "runtime/tokenizer/tokenizer.h"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
#ifdef EMBER_HAVE_TOKENIZER
  using ember::tokenizer::EncodeOptions;
  using ember::tokenizer::Tokenizer;
  if (size == 0) return 0;
  static constexpr std::string_view kNames[] = {
      "cl100k_base", "o200k_base", "o200k_harmony", "r50k_base",
      "gpt2",        "p50k_base",  "p50k_edit",     "unknown"};
  std::string_view name = kNames[data[0] % 8];
  std::string_view file(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto tokenizer = Tokenizer::FromTiktoken(file, name);
  if (!tokenizer.ok()) {
    if (tokenizer.status().message().empty()) __builtin_trap();
    return 0;
  }
  const Tokenizer& t = **tokenizer;
  for (std::string_view text :
       {std::string_view("hello world's   \n\n x<|endoftext|>y"),
        std::string_view("  a\n\n b\xC3\xA9\xF0\x9F\x99\x82 123456 <|end"),
        file.substr(0, 128)}) {
    EncodeOptions options;
    auto ids = t.Encode(text, options);
    if (!ids.ok()) continue;  // text from the input may be invalid UTF-8
    for (size_t step : {1, 2, 3, 7}) {
      auto stream = t.NewEncodeStream(options);
      std::vector<int32_t> streamed;
      for (size_t i = 0; i < text.size(); i += step) {
        if (!stream->Feed(text.substr(i, step), &streamed).ok()) {
          __builtin_trap();
        }
      }
      if (!stream->Finalize(&streamed).ok()) __builtin_trap();
      if (streamed != *ids) __builtin_trap();  // stream != one-shot
    }
    if (!t.Decode(*ids, false).ok()) __builtin_trap();
  }
#endif
  return 0;
}
