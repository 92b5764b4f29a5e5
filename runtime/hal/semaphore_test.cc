#include "runtime/hal/semaphore.h"

#include <gtest/gtest.h>

#include <thread>

namespace ember::hal {
namespace {

TEST(SemaphoreTest, SignalQueryAndBounds) {
  Ref<Semaphore> semaphore = Semaphore::Create(2);
  EXPECT_EQ(*semaphore->Query(), 2u);
  EXPECT_TRUE(semaphore->Signal(5).ok());
  EXPECT_EQ(*semaphore->Query(), 5u);
  EXPECT_EQ(semaphore->Signal(5).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(semaphore->Signal(kSemaphoreFailureValue).code(),
            StatusCode::kOutOfRange);
  EXPECT_TRUE(semaphore->Wait(5, Timeout::Immediate()).ok());
  EXPECT_EQ(semaphore->Wait(6, Timeout::Immediate()).code(),
            StatusCode::kDeadlineExceeded);
}

TEST(SemaphoreTest, FailureReachesWaiters) {
  Ref<Semaphore> semaphore = Semaphore::Create(0);
  std::thread waiter([&] {
    Status status = semaphore->Wait(1, Timeout::Infinite());
    EXPECT_EQ(status.code(), StatusCode::kInternal);
  });
  semaphore->Fail(InternalError("device lost"));
  waiter.join();
  EXPECT_EQ(semaphore->Query().status().code(), StatusCode::kInternal);
  EXPECT_EQ(semaphore->Signal(1).code(), StatusCode::kInternal);
  semaphore->Fail(InvalidArgumentError("second"));
  EXPECT_EQ(semaphore->Query().status().code(), StatusCode::kInternal)
      << "the first failure wins";
}

TEST(SemaphoreTest, WaitWakesOnSignalFromAnotherThread) {
  Ref<Semaphore> semaphore = Semaphore::Create(0);
  std::thread signaller([&] { EXPECT_TRUE(semaphore->Signal(3).ok()); });
  EXPECT_TRUE(
      semaphore->Wait(3, Timeout::After(std::chrono::seconds(10))).ok());
  signaller.join();
}

TEST(FenceTest, JoinQuerySignalAndFail) {
  Ref<Fence> a = Fence::CreateWithNewSemaphore();
  Ref<Fence> b = Fence::CreateWithNewSemaphore();
  Ref<Semaphore> shared = a->timepoints()[0].semaphore;
  b->Insert(shared, 4);
  b->Insert(shared, 2);  // the higher value stays
  ASSERT_EQ(b->size(), 2u);
  EXPECT_EQ(b->timepoints()[1].value, 4u);

  const Ref<Fence> both[] = {a, nullptr, b};
  Ref<Fence> joined = Fence::Join(both);
  ASSERT_TRUE(joined);
  EXPECT_EQ(joined->size(), 2u);
  EXPECT_EQ(joined->Query().code(), StatusCode::kDeferred);
  EXPECT_TRUE(a->Signal().ok());
  EXPECT_EQ(joined->Query().code(), StatusCode::kDeferred);
  EXPECT_TRUE(b->Signal().ok());
  EXPECT_TRUE(joined->Query().ok());
  EXPECT_TRUE(joined->Wait(Timeout::Immediate()).ok());

  const Ref<Fence> nothing[] = {nullptr, Fence::Create()};
  EXPECT_FALSE(Fence::Join(nothing)) << "no timepoints: a null fence";

  Ref<Fence> failing = Fence::CreateWithNewSemaphore();
  failing->Fail(DataLossError("bad"));
  EXPECT_EQ(failing->Query().code(), StatusCode::kDataLoss);
  EXPECT_EQ(failing->Wait(Timeout::Infinite()).code(), StatusCode::kDataLoss);
  const Ref<Fence> list[] = {joined, failing};
  EXPECT_EQ(WaitAll(list, Timeout::Immediate()).code(), StatusCode::kDataLoss);
}

TEST(TimeoutTest, MillisecondConvention) {
  EXPECT_TRUE(Timeout::FromMilliseconds(0xFFFFFFFFu).infinite());
  EXPECT_FALSE(Timeout::FromMilliseconds(0).infinite());
  Ref<Semaphore> semaphore = Semaphore::Create(0);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(semaphore->Wait(1, Timeout::FromMilliseconds(20)).code(),
            StatusCode::kDeadlineExceeded);
  EXPECT_GE(std::chrono::steady_clock::now() - start,
            std::chrono::milliseconds(20));
}

}  // namespace
}  // namespace ember::hal
