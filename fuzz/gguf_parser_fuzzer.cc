// libFuzzer target for the gguf parameter file reader (runtime/io): see
// parameter_fuzz_support.h for what each input must satisfy. Seeds:
// fuzz/make_seed_corpus.sh DIR gguf_parser_fuzzer.
#include <cstddef>
#include <cstdint>

#include "fuzz/parameter_fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ember_fuzz::FuzzParameterFile("gguf", data, size);
}
