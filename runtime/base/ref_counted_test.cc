#include "runtime/base/ref_counted.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace ember {
namespace {

// Counts destructions so tests can see exactly when an object dies.
class Tracked : public RefCounted {
 public:
  explicit Tracked(int* destroyed, int value = 0)
      : destroyed_(destroyed), value_(value) {}
  int value() const { return value_; }

 protected:
  ~Tracked() override { ++*destroyed_; }

 private:
  int* destroyed_;
  int value_;
};

class DerivedTracked final : public Tracked {
 public:
  using Tracked::Tracked;
};

TEST(RefCountedTest, MakeRefAdoptsTheBirthReference) {
  int destroyed = 0;
  {
    Ref<Tracked> ref = MakeRef<Tracked>(&destroyed, 7);
    EXPECT_EQ(ref->reference_count_for_testing(), 1u);
    EXPECT_EQ(ref->value(), 7);
    EXPECT_EQ((*ref).value(), 7);
  }
  EXPECT_EQ(destroyed, 1);
}

TEST(RefCountedTest, DefaultAndNullRefsAreEmpty) {
  Ref<Tracked> a;
  Ref<Tracked> b = nullptr;
  EXPECT_FALSE(a);
  EXPECT_EQ(a.get(), nullptr);
  EXPECT_TRUE(a == nullptr);
  EXPECT_TRUE(a == b);
  EXPECT_EQ(Ref<Tracked>::Adopt(nullptr).get(), nullptr);
  EXPECT_EQ(Ref<Tracked>::Retain(nullptr).get(), nullptr);
}

TEST(RefCountedTest, RetainAddsAReferenceAdoptDoesNot) {
  int destroyed = 0;
  Ref<Tracked> owner = MakeRef<Tracked>(&destroyed);
  Tracked* raw = owner.get();
  {
    Ref<Tracked> retained = Ref<Tracked>::Retain(raw);
    EXPECT_EQ(raw->reference_count_for_testing(), 2u);
  }
  EXPECT_EQ(raw->reference_count_for_testing(), 1u);
  EXPECT_EQ(destroyed, 0);

  // Hand the reference out as a raw pointer and take it back.
  Tracked* released = owner.release();
  EXPECT_FALSE(owner);
  EXPECT_EQ(released->reference_count_for_testing(), 1u);
  EXPECT_EQ(destroyed, 0);
  {
    Ref<Tracked> adopted = Ref<Tracked>::Adopt(released);
    EXPECT_EQ(adopted->reference_count_for_testing(), 1u);
  }
  EXPECT_EQ(destroyed, 1);
}

TEST(RefCountedTest, CopyAndMoveCountCorrectly) {
  int destroyed = 0;
  Ref<Tracked> a = MakeRef<Tracked>(&destroyed);
  Ref<Tracked> b = a;
  EXPECT_EQ(a->reference_count_for_testing(), 2u);
  EXPECT_TRUE(a == b);
  Ref<Tracked> c = std::move(b);
  EXPECT_FALSE(b);  // NOLINT(bugprone-use-after-move): checking moved-from
  EXPECT_EQ(a->reference_count_for_testing(), 2u);

  Ref<Tracked> d;
  d = c;
  EXPECT_EQ(a->reference_count_for_testing(), 3u);
  d = std::move(c);
  EXPECT_EQ(a->reference_count_for_testing(), 2u);
  d = nullptr;
  EXPECT_EQ(a->reference_count_for_testing(), 1u);
  a.reset();
  EXPECT_EQ(destroyed, 1);
}

TEST(RefCountedTest, SelfAssignmentKeepsTheObject) {
  int destroyed = 0;
  Ref<Tracked> a = MakeRef<Tracked>(&destroyed);
  Ref<Tracked>& alias = a;
  a = alias;
  EXPECT_EQ(a->reference_count_for_testing(), 1u);
  a = std::move(alias);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->reference_count_for_testing(), 1u);
  EXPECT_EQ(destroyed, 0);
}

TEST(RefCountedTest, AssignmentReleasesThePreviousObject) {
  int destroyed_first = 0;
  int destroyed_second = 0;
  Ref<Tracked> a = MakeRef<Tracked>(&destroyed_first);
  a = MakeRef<Tracked>(&destroyed_second);
  EXPECT_EQ(destroyed_first, 1);
  EXPECT_EQ(destroyed_second, 0);
}

TEST(RefCountedTest, UpcastAndStaticDowncast) {
  int destroyed = 0;
  Ref<DerivedTracked> derived = MakeRef<DerivedTracked>(&destroyed, 3);
  Ref<RefCounted> base = derived;  // copy upcast
  EXPECT_EQ(derived->reference_count_for_testing(), 2u);
  EXPECT_TRUE(base == derived);

  Ref<Tracked> middle = StaticRefCast<Tracked>(base);  // copy downcast
  EXPECT_EQ(middle->value(), 3);
  EXPECT_EQ(derived->reference_count_for_testing(), 3u);
  Ref<DerivedTracked> back = StaticRefCast<DerivedTracked>(std::move(base));
  EXPECT_FALSE(base);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(derived->reference_count_for_testing(), 3u);

  Ref<const RefCounted> read_only = std::move(middle);  // move upcast
  EXPECT_EQ(derived->reference_count_for_testing(), 3u);
  derived.reset();
  back.reset();
  EXPECT_EQ(destroyed, 0);
  read_only.reset();  // destroyed through the virtual destructor
  EXPECT_EQ(destroyed, 1);
}

TEST(RefCountedTest, OrderingFollowsAddresses) {
  int destroyed = 0;
  Ref<Tracked> a = MakeRef<Tracked>(&destroyed);
  Ref<Tracked> b = MakeRef<Tracked>(&destroyed);
  EXPECT_NE(a, b);
  EXPECT_EQ((a < b), (a.get() < b.get()));
  EXPECT_TRUE((a <=> a) == 0);
}

TEST(RefCountedTest, ConcurrentCopiesBalance) {
  int destroyed = 0;
  Ref<Tracked> shared = MakeRef<Tracked>(&destroyed);
  constexpr int kThreads = 8;
  constexpr int kIterations = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&shared] {
      for (int i = 0; i < kIterations; ++i) {
        Ref<Tracked> copy = shared;
        Ref<Tracked> moved = std::move(copy);
        Ref<Tracked> retained = Ref<Tracked>::Retain(moved.get());
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(shared->reference_count_for_testing(), 1u);
  EXPECT_EQ(destroyed, 0);
  shared.reset();
  EXPECT_EQ(destroyed, 1);
}

TEST(RefCountedTest, LastReleaseOnAnotherThreadDestroys) {
  int destroyed = 0;
  std::vector<Ref<Tracked>> copies(16, MakeRef<Tracked>(&destroyed));
  std::vector<std::thread> threads;
  for (Ref<Tracked>& copy : copies) {
    threads.emplace_back([ref = std::move(copy)]() mutable { ref.reset(); });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
}  // namespace ember
