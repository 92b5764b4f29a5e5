#include "runtime/hal/device.h"

#include <cstring>
#include <vector>

namespace ember::hal {

namespace {
thread_local int defer_submissions_depth = 0;
}  // namespace

ScopedDeferSubmissions::ScopedDeferSubmissions() { ++defer_submissions_depth; }
ScopedDeferSubmissions::~ScopedDeferSubmissions() { --defer_submissions_depth; }
bool ScopedDeferSubmissions::active() { return defer_submissions_depth > 0; }

Status Device::WriteBuffer(const Ref<Buffer>& target, uint64_t offset,
                           std::span<const uint8_t> bytes) {
  if (!allocator().IsCompatible(*target)) {
    return InvalidArgumentError("buffer does not belong to device '" +
                                std::string(id()) + "'");
  }
  EMBER_ASSIGN_OR_RETURN(BufferMapping mapping,
                         target->Map(MappingMode::kScoped, MemoryAccess::kWrite,
                                     offset, bytes.size()));
  if (!bytes.empty()) std::memcpy(mapping.data(), bytes.data(), bytes.size());
  return target->Flush(offset, bytes.size());
}

Status Device::ReadBuffer(const Ref<Buffer>& source, uint64_t offset,
                          std::span<uint8_t> bytes) {
  if (!allocator().IsCompatible(*source)) {
    return InvalidArgumentError("buffer does not belong to device '" +
                                std::string(id()) + "'");
  }
  EMBER_RETURN_IF_ERROR(source->Invalidate(offset, bytes.size()));
  EMBER_ASSIGN_OR_RETURN(BufferMapping mapping,
                         source->Map(MappingMode::kScoped, MemoryAccess::kRead,
                                     offset, bytes.size()));
  if (!bytes.empty()) std::memcpy(bytes.data(), mapping.data(), bytes.size());
  return Status::Ok();
}

bool MatchesGlob(std::string_view pattern, std::string_view text) {
  // Iterative matching with one backtrack point: linear in practice and
  // O(pattern x text) at worst, never exponential for hostile patterns.
  size_t p = 0, t = 0;
  size_t star = std::string_view::npos, star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace ember::hal
