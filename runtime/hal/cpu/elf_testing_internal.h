// Test helper: pulls the embedded ELFs out of compiled .vmfb files, so the
// loader tests run on real compiler output without committed binaries.
#pragma once

#include <string.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ember::hal::cpu::testing {

inline constexpr char kElfMagic[4] = {0x7f, 'E', 'L', 'F'};

struct CorpusElf {
  std::string name;  // e.g. "matmul.embedded#0"
  std::vector<uint8_t> bytes;
};

// Every ELF stored in `vmfb`: each starts at the ELF magic and ends where its
// own section header table (the last thing lld writes) ends.
inline std::vector<std::vector<uint8_t>> ExtractElfs(
    const std::vector<uint8_t>& vmfb) {
  std::vector<std::vector<uint8_t>> elfs;
  size_t pos = 0;
  while (pos + 64 <= vmfb.size()) {
    const uint8_t* at = static_cast<const uint8_t*>(
        memmem(vmfb.data() + pos, vmfb.size() - pos, kElfMagic, 4));
    if (at == nullptr) break;
    size_t start = static_cast<size_t>(at - vmfb.data());
    if (start + 64 > vmfb.size()) break;
    uint64_t shoff;
    uint16_t shentsize, shnum;
    std::memcpy(&shoff, at + 0x28, 8);
    std::memcpy(&shentsize, at + 0x3a, 2);
    std::memcpy(&shnum, at + 0x3c, 2);
    uint64_t end = shoff + uint64_t{shentsize} * shnum;
    if (end < 64 || end > vmfb.size() - start) {
      pos = start + 1;
      continue;
    }
    elfs.emplace_back(at, at + end);
    pos = start + end;
  }
  return elfs;
}

// The ELFs of those `files` (ember::testing::LoadCorpus entries) whose name
// starts with `filter`.
template <typename Files>
std::vector<CorpusElf> ElfsOf(const Files& files,
                              const std::string& filter = "") {
  std::vector<CorpusElf> result;
  for (const auto& file : files) {
    if (!filter.empty() && file.name.rfind(filter, 0) != 0) continue;
    auto elfs = ExtractElfs(file.bytes);
    for (size_t i = 0; i < elfs.size(); ++i) {
      result.push_back(
          {file.name + "#" + std::to_string(i), std::move(elfs[i])});
    }
  }
  return result;
}

}  // namespace ember::hal::cpu::testing
