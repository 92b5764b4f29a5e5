// Test helper: finds the compiled test corpus (tools/ember_corpus.py build).
//
// Tests that need real modules read them from $EMBER_CORPUS_DIR, falling back
// to <source>/build/corpus. A missing corpus is a test failure, not a skip:
// the loader tests mean nothing without real compiler output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ember::testing {

struct CorpusFile {
  std::string name;  // e.g. "matmul.embedded"
  std::string path;
  std::vector<uint8_t> bytes;
};

// The directory holding the compiled corpus, or "" when there is none.
std::string CorpusDirectory();

// Every `*.vmfb` in the corpus directory whose name contains `filter`,
// sorted by name. Empty when the directory is missing.
std::vector<CorpusFile> LoadCorpus(const std::string& filter = "");

std::vector<uint8_t> ReadFileBytes(const std::string& path);

}  // namespace ember::testing
