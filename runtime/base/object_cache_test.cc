#include "runtime/base/object_cache.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <thread>
#include <vector>

namespace ember {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kCaching = false;  // AddressSanitizer builds bypass caches
#else
constexpr bool kCaching = true;
#endif

template <size_t N>
struct Object : CachedAllocation<Object<N>> {
  explicit Object(char fill) { std::memset(bytes, fill, N); }
  char bytes[N];
};

TEST(ObjectCacheTest, AFreedBlockIsReusedByTheNextObjectOfItsClass) {
  auto* first = new Object<40>('a');
  void* address = first;
  delete first;
  // 40 and 60 bytes are one size class (64): the block fits either.
  auto* second = new Object<60>('b');
  if (kCaching) {
    EXPECT_EQ(static_cast<void*>(second), address);
  }
  for (char byte : second->bytes) EXPECT_EQ(byte, 'b');
  delete second;
}

TEST(ObjectCacheTest, ClassesDoNotMix) {
  auto* small = new Object<16>('a');
  void* address = small;
  delete small;
  auto* large = new Object<200>('b');  // another class: a fresh block
  EXPECT_NE(static_cast<void*>(large), address);
  for (char byte : large->bytes) EXPECT_EQ(byte, 'b');
  delete large;
  delete new Object<16>('c');
}

TEST(ObjectCacheTest, TheCacheKeepsAtMostItsDepthAndLargeObjectsBypassIt) {
  constexpr size_t kMany = object_cache_internal::kDepth * 3;
  // Empties this thread's cache of the class first (earlier tests may have
  // left blocks there).
  std::vector<Object<100>*> drained;
  for (size_t i = 0; i < object_cache_internal::kDepth; ++i) {
    drained.push_back(new Object<100>('d'));
  }
  std::vector<Object<100>*> objects;
  for (size_t i = 0; i < kMany; ++i) objects.push_back(new Object<100>('x'));
  std::set<void*> freed(objects.begin(), objects.end());
  for (auto* object : objects) delete object;
  // The next kDepth objects come from the cache (the last blocks freed).
  std::vector<Object<100>*> again;
  for (size_t i = 0; i < object_cache_internal::kDepth; ++i) {
    again.push_back(new Object<100>('y'));
    if (kCaching) {
      EXPECT_TRUE(freed.count(again.back()) == 1);
    }
  }
  for (auto* object : again) delete object;
  for (auto* object : drained) delete object;

  auto* huge = new Object<object_cache_internal::kMaxCachedBytes + 1>('z');
  EXPECT_EQ(huge->bytes[object_cache_internal::kMaxCachedBytes], 'z');
  delete huge;
}

TEST(ObjectCacheTest, ObjectsMayBeFreedOnAnotherThreadThatThenExits) {
  std::vector<Object<48>*> objects;
  for (int i = 0; i < 100; ++i) objects.push_back(new Object<48>('q'));
  std::thread freer([&] {
    for (auto* object : objects) delete object;
    // This thread's cache is freed when it exits (LeakSanitizer and
    // valgrind would report a block left behind).
  });
  freer.join();
  std::thread maker([] {
    for (int i = 0; i < 1000; ++i) delete new Object<48>('r');
  });
  maker.join();
}

}  // namespace
}  // namespace ember
