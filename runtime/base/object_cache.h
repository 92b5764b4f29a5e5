// CachedAllocation: class-level operator new/delete backed by small
// per-thread caches of freed blocks.
//
// A call of a compiled program makes and drops a handful of small objects
// (two fences and their semaphores, a buffer, a buffer view), each one a
// malloc and a free: about 130 instructions a pair with glibc, a tenth of
// a small call. A class that derives from CachedAllocation<Self> takes its
// blocks from a per-thread stack of blocks of its size class instead, and
// gives them back there: about 15 instructions.
//
// Bounds: up to kMaxCachedBytes per block (larger ones go to the global
// heap), kDepth blocks per size class and thread; a thread's blocks are
// freed when it exits. A block freed on another thread than the one that
// made it joins that thread's cache (blocks are plain heap memory).
//
// Sanitizer builds bypass the caches, so that AddressSanitizer still sees
// every use after free.
#pragma once

#include <cstddef>
#include <new>

namespace ember {
namespace object_cache_internal {

inline constexpr size_t kSizeClassBytes = 64;
inline constexpr size_t kSizeClasses = 8;
inline constexpr size_t kMaxCachedBytes = kSizeClassBytes * kSizeClasses;
inline constexpr size_t kDepth = 32;

void* Allocate(size_t size);
void Free(void* block, size_t size) noexcept;

}  // namespace object_cache_internal

template <typename Self>
class CachedAllocation {
 public:
  static void* operator new(size_t size) {
    return object_cache_internal::Allocate(size);
  }
  static void operator delete(void* block, size_t size) noexcept {
    object_cache_internal::Free(block, size);
  }
};

}  // namespace ember
