#include "runtime/base/small_vector.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ember {
namespace {

// Counts live instances, so a leak or a double destruction shows.
struct Counted {
  static inline int live = 0;
  explicit Counted(int v) : value(v) { ++live; }
  Counted(const Counted& other) : value(other.value) { ++live; }
  Counted(Counted&& other) noexcept : value(other.value) {
    other.value = -1;
    ++live;
  }
  Counted& operator=(const Counted&) = default;
  Counted& operator=(Counted&&) = default;
  ~Counted() { --live; }
  int value;
};

template <size_t N>
std::vector<int> Values(const SmallVector<Counted, N>& v) {
  std::vector<int> out;
  for (const Counted& c : v) out.push_back(c.value);
  return out;
}

TEST(SmallVectorTest, OnlyElementsInUseAreConstructed) {
  {
    SmallVector<Counted, 4> v;
    EXPECT_EQ(Counted::live, 0);  // no inline room is constructed
    v.push_back(Counted(1));
    v.push_back(Counted(2));
    EXPECT_EQ(Counted::live, 2);
    EXPECT_EQ(Values(v), (std::vector<int>{1, 2}));
  }
  EXPECT_EQ(Counted::live, 0);
}

TEST(SmallVectorTest, SpillsToTheHeapAndBackAfterClear) {
  {
    SmallVector<Counted, 2> v;
    for (int i = 0; i < 5; ++i) v.push_back(Counted(i));
    EXPECT_EQ(v.size(), 5u);
    EXPECT_EQ(Values(v), (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_EQ(Counted::live, 5);  // the inline ones were moved, then freed
    v.clear();
    EXPECT_TRUE(v.empty());
    EXPECT_EQ(Counted::live, 0);
    v.push_back(Counted(9));
    EXPECT_EQ(Values(v), (std::vector<int>{9}));
    EXPECT_EQ(Counted::live, 1);
  }
  EXPECT_EQ(Counted::live, 0);
}

TEST(SmallVectorTest, CopiesAndMovesInlineAndOnTheHeap) {
  for (int count : {0, 1, 3, 7}) {
    {
      SmallVector<Counted, 3> a;
      for (int i = 0; i < count; ++i) a.push_back(Counted(10 + i));
      const std::vector<int> expected = Values(a);

      SmallVector<Counted, 3> copy(a);
      EXPECT_EQ(Values(copy), expected);
      EXPECT_EQ(Values(a), expected);

      SmallVector<Counted, 3> moved(std::move(a));
      EXPECT_EQ(Values(moved), expected);
      EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move)

      SmallVector<Counted, 3> assigned;
      assigned.push_back(Counted(99));
      assigned = copy;
      EXPECT_EQ(Values(assigned), expected);
      assigned = std::move(moved);
      EXPECT_EQ(Values(assigned), expected);
      EXPECT_TRUE(moved.empty());  // NOLINT(bugprone-use-after-move)
      auto& self = assigned;
      assigned = self;
      EXPECT_EQ(Values(assigned), expected);
      EXPECT_EQ(Counted::live, 2 * count);  // copy and assigned
    }
    EXPECT_EQ(Counted::live, 0) << count;
  }
}

TEST(SmallVectorTest, HoldsOwningTypes) {
  auto shared = std::make_shared<int>(5);
  {
    SmallVector<std::shared_ptr<int>, 2> v;
    for (int i = 0; i < 4; ++i) v.push_back(shared);
    EXPECT_EQ(shared.use_count(), 5);
    SmallVector<std::shared_ptr<int>, 2> w = v;
    EXPECT_EQ(shared.use_count(), 9);
  }
  EXPECT_EQ(shared.use_count(), 1);
  SmallVector<std::string, 2> strings;
  strings.push_back(std::string(100, 'x'));  // a heap-owning element
  strings.push_back("y");
  EXPECT_EQ(strings[0].size(), 100u);
  EXPECT_EQ(strings[1], "y");
}

}  // namespace
}  // namespace ember
