#include "runtime/base/object_cache.h"

#include <cstdint>

namespace ember::object_cache_internal {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kBypass = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kBypass = true;
#else
constexpr bool kBypass = false;
#endif
#else
constexpr bool kBypass = false;
#endif

enum class CacheState : uint8_t { kUnused, kLive, kGone };

// Trivially destructible, so it needs no guard on access and stays usable
// after its thread's destructors have run (objects freed by static
// destructors then go straight to the heap).
struct ThreadCache {
  void* blocks[kSizeClasses][kDepth];
  uint8_t counts[kSizeClasses];
  CacheState state;
};
constinit thread_local ThreadCache cache{};

// Frees the thread's blocks when it exits; made on a thread's first use.
struct Reaper {
  ~Reaper() {
    cache.state = CacheState::kGone;
    for (size_t c = 0; c < kSizeClasses; ++c) {
      while (cache.counts[c] != 0) {
        ::operator delete(cache.blocks[c][--cache.counts[c]]);
      }
    }
  }
};
thread_local Reaper reaper;

// The size class of a block of `size` bytes; kSizeClasses when too big.
size_t ClassOf(size_t size) {
  if (size == 0 || size > kMaxCachedBytes) return kSizeClasses;
  return (size - 1) / kSizeClassBytes;
}

}  // namespace

void* Allocate(size_t size) {
  const size_t size_class = ClassOf(size);
  if (kBypass || size_class == kSizeClasses) return ::operator new(size);
  if (cache.counts[size_class] != 0) [[likely]] {
    return cache.blocks[size_class][--cache.counts[size_class]];
  }
  // Every block of a class has the class's full size, so any block of the
  // class fits any object of it.
  return ::operator new((size_class + 1) * kSizeClassBytes);
}

void Free(void* block, size_t size) noexcept {
  if (block == nullptr) return;
  const size_t size_class = ClassOf(size);
  if (kBypass || size_class == kSizeClasses) {
    ::operator delete(block);
    return;
  }
  if (cache.state != CacheState::kLive) [[unlikely]] {
    if (cache.state == CacheState::kGone) {
      ::operator delete(block);
      return;
    }
    cache.state = CacheState::kLive;
    Reaper* volatile registered = &reaper;  // registers the clean-up
    static_cast<void>(registered);
  }
  if (cache.counts[size_class] == kDepth) {
    ::operator delete(block);
    return;
  }
  cache.blocks[size_class][cache.counts[size_class]++] = block;
}

}  // namespace ember::object_cache_internal
