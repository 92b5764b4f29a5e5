#include "runtime/testing/corpus.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#ifndef EMBER_SOURCE_DIR
#define EMBER_SOURCE_DIR "."
#endif

namespace ember::testing {

std::string CorpusDirectory() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("EMBER_CORPUS_DIR"); env && *env) {
    return fs::is_directory(env) ? std::string(env) : std::string();
  }
  fs::path fallback = fs::path(EMBER_SOURCE_DIR) / "build" / "corpus";
  return fs::is_directory(fallback) ? fallback.string() : std::string();
}

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(stream),
                              std::istreambuf_iterator<char>());
}

std::vector<CorpusFile> LoadCorpus(const std::string& filter) {
  namespace fs = std::filesystem;
  std::vector<CorpusFile> files;
  std::string directory = CorpusDirectory();
  if (directory.empty()) return files;
  for (const auto& entry : fs::directory_iterator(directory)) {
    if (entry.path().extension() != ".vmfb") continue;
    std::string name = entry.path().stem().string();
    if (!filter.empty() && name.find(filter) == std::string::npos) continue;
    files.push_back(
        {name, entry.path().string(), ReadFileBytes(entry.path().string())});
  }
  std::sort(
      files.begin(), files.end(),
      [](const CorpusFile& a, const CorpusFile& b) { return a.name < b.name; });
  return files;
}

}  // namespace ember::testing
