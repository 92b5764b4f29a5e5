// libFuzzer target for the tokenizer.json loader (runtime/tokenizer/): the
// input is the file. A file that loads is then used: a few fixed texts are
// encoded, the ids decoded, and every id of the vocabulary decoded alone,
// so a loader that accepts what the encoder cannot handle is found too.
// Every rejection must carry a message. Seed it with small tokenizer.json
// files (tests/python/test_tokenizer.py trains some: `Tokenizer.to_str()`).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#ifdef EMBER_HAVE_TOKENIZER
#include "runtime/tokenizer/tokenizer.h"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
#ifdef EMBER_HAVE_TOKENIZER
  using ember::tokenizer::Tokenizer;
  std::string_view json(reinterpret_cast<const char*>(data), size);
  auto tokenizer = Tokenizer::FromHuggingFaceJson(json);
  if (!tokenizer.ok()) {
    if (tokenizer.status().message().empty()) __builtin_trap();
    return 0;
  }
  const Tokenizer& t = **tokenizer;
  for (std::string_view text :
       {std::string_view(""), std::string_view("hello world"),
        std::string_view("  a\n\n b\xC3\xA9\xF0\x9F\x99\x82 <s></s> 123"),
        json.substr(0, 256)}) {
    ember::tokenizer::EncodeOptions options;
    options.add_special_tokens = true;
    auto ids = t.Encode(text, options);
    if (!ids.ok()) continue;  // text from the input may be invalid UTF-8
    for (int32_t id : *ids) {
      if (!t.IdToToken(id)) __builtin_trap();  // encode made an unknown id
    }
    // The offsets path carries alignments through every stage of the
    // file's pipeline: it must give Encode's ids (an error only where
    // Encode's own limits would also be reached, e.g. growth).
    std::vector<int32_t> offset_ids;
    std::vector<ember::tokenizer::TokenOffsets> offsets;
    if (t.EncodeWithOffsets(text, options, &offset_ids, &offsets).ok() &&
        (offset_ids != *ids || offsets.size() != ids->size())) {
      __builtin_trap();
    }
    auto back = t.Decode(*ids, false);
    if (!back.ok()) __builtin_trap();
  }
  size_t checked = 0;
  const size_t vocab_size = t.vocab_size();
  for (int32_t id = 0; checked < vocab_size && id < (1 << 22); ++id) {
    if (!t.IdToToken(id)) continue;
    ++checked;
    std::vector<int32_t> one{id};
    if (!t.Decode(one, false).ok()) __builtin_trap();
  }
#endif
  return 0;
}
