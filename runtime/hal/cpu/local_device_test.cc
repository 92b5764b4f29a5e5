#include "runtime/hal/cpu/local_device.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace ember::hal::cpu {
namespace {

TEST(LocalDeviceTest, QueriesAnswerAsIree) {
  Ref<LocalDevice> device = LocalDevice::Create({"local-task", 3, true});
  EXPECT_EQ(*device->QueryI64("hal.device.id", "local*"), 1);
  EXPECT_EQ(*device->QueryI64("hal.device.id", "cuda"), 0);
  EXPECT_EQ(*device->QueryI64("hal.dispatch", "concurrency"), 3);
  EXPECT_EQ(*device->QueryI64("hal.device", "concurrency"), 1);
#if defined(__x86_64__)
  EXPECT_EQ(*device->QueryI64("hal.executable.format", "embedded-elf-x86_64"),
            1);
  EXPECT_EQ(*device->QueryI64("hal.executable.format", "system-elf-x86_64"), 1);
#endif
  EXPECT_EQ(*device->QueryI64("hal.executable.format", "vmvx-bytecode-fb"), 0);
  EXPECT_EQ(device->QueryI64("hal.nothing", "x").status().code(),
            StatusCode::kNotFound);
}

TEST(LocalDeviceTest, TransfersAreOrderedByFencesAndChecked) {
  Ref<LocalDevice> device = LocalDevice::Create({"local-sync", 0, false});
  Ref<Fence> first = Fence::CreateWithNewSemaphore();
  Ref<Fence> second = Fence::CreateWithNewSemaphore();
  auto buffer = device->QueueAlloca(nullptr, first, BufferParams{}, 16);
  ASSERT_TRUE(buffer.ok());
  EXPECT_TRUE(first->Query().ok());
  ASSERT_TRUE(device->QueueFill(first, second, *buffer, 0, 16, 0xAB, 1).ok());
  EXPECT_TRUE(second->Query().ok());
  auto mapping = (*buffer)->Map(MappingMode::kScoped, MemoryAccess::kRead, 0,
                                kWholeBuffer);
  ASSERT_TRUE(mapping.ok());
  EXPECT_EQ(mapping->data()[15], 0xAB);
  // An out-of-range fill fails its signal fence with the error.
  Ref<Fence> failed = Fence::CreateWithNewSemaphore();
  EXPECT_EQ(device->QueueFill(nullptr, failed, *buffer, 8, 16, 0, 1).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(failed->Query().code(), StatusCode::kOutOfRange);
}

TEST(LocalDeviceTest, ASubmissionMayWaitForAnotherThreadsSubmission) {
  Ref<LocalDevice> device = LocalDevice::Create({"local-task", 2, true});
  Ref<Fence> gate = Fence::CreateWithNewSemaphore();
  Ref<Fence> done = Fence::CreateWithNewSemaphore();
  std::thread waiter(
      [&] { EXPECT_TRUE(device->QueueBarrier(gate, done).ok()); });
  // Signalled through the same device from this thread while the other
  // submission waits (give it time to start waiting): no deadlock.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(device->QueueBarrier(nullptr, gate).ok());
  waiter.join();
  EXPECT_TRUE(done->Query().ok());
}

}  // namespace
}  // namespace ember::hal::cpu
