#include "runtime/hal/semaphore.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

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

// NotifyAt's listener runs once: at once when reached, else on the thread
// that signals (only when its value is reached), fails or destroys it.
TEST(SemaphoreTest, NotifyAtRunsEachListenerOnce) {
  Ref<Semaphore> semaphore = Semaphore::Create(2);
  std::vector<std::string> log;
  auto record = [&log](std::string name) {
    return [&log, name](const Status& status) {
      log.push_back(name + ":" +
                    std::to_string(static_cast<int>(status.code())));
    };
  };
  semaphore->NotifyAt(2, record("now"));
  EXPECT_EQ(log, (std::vector<std::string>{"now:0"}));
  semaphore->NotifyAt(4, record("four"));
  semaphore->NotifyAt(3, record("three"));
  ASSERT_TRUE(semaphore->Signal(3).ok());
  EXPECT_EQ(log, (std::vector<std::string>{"now:0", "three:0"}));
  ASSERT_TRUE(semaphore->SignalAtLeast(5).ok());
  EXPECT_EQ(log, (std::vector<std::string>{"now:0", "three:0", "four:0"}));
  ASSERT_TRUE(semaphore->Signal(6).ok());
  EXPECT_EQ(log.size(), 3u) << "no listener runs twice";

  log.clear();
  semaphore->NotifyAt(9, record("failed"));
  semaphore->Fail(Status(StatusCode::kDataLoss, "lost"));
  EXPECT_EQ(log, (std::vector<std::string>{
                     "failed:" +
                     std::to_string(static_cast<int>(StatusCode::kDataLoss))}));
  log.clear();
  semaphore->NotifyAt(1, record("after"));
  EXPECT_EQ(
      log, (std::vector<std::string>{"after:" + std::to_string(static_cast<int>(
                                                    StatusCode::kDataLoss))}))
      << "a failed semaphore answers a new listener at once";

  log.clear();
  {
    Ref<Semaphore> dropped = Semaphore::Create(0);
    dropped->NotifyAt(1, record("dropped"));
    EXPECT_TRUE(log.empty());
  }
  EXPECT_EQ(log, (std::vector<std::string>{"dropped:" +
                                           std::to_string(static_cast<int>(
                                               StatusCode::kCancelled))}));
}

TEST(SemaphoreTest, NotifyAtRunsOnTheSignallingThread) {
  Ref<Semaphore> semaphore = Semaphore::Create(0);
  std::thread::id ran_on;
  semaphore->NotifyAt(1, [&](const Status& status) {
    EXPECT_TRUE(status.ok());
    ran_on = std::this_thread::get_id();
  });
  std::thread::id signaller_id;
  std::thread signaller([&] {
    signaller_id = std::this_thread::get_id();
    EXPECT_TRUE(semaphore->Signal(1).ok());
  });
  signaller.join();
  EXPECT_EQ(ran_on, signaller_id);
}

}  // namespace
}  // namespace ember::hal
