#include "runtime/hal/cpu/local_device.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

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
  // local-sync blocks the waiting submitter; local-task defers it.
  for (bool task : {false, true}) {
    Ref<LocalDevice> device =
        LocalDevice::Create({task ? "local-task" : "local-sync", 2, task});
    Ref<Fence> gate = Fence::CreateWithNewSemaphore();
    Ref<Fence> done = Fence::CreateWithNewSemaphore();
    std::thread waiter(
        [&] { EXPECT_TRUE(device->QueueBarrier(gate, done).ok()); });
    // Signalled through the same device from this thread while the other
    // submission waits (give it time to start waiting): no deadlock.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_TRUE(device->QueueBarrier(nullptr, gate).ok());
    waiter.join();
    EXPECT_TRUE(done->Wait(Timeout::After(std::chrono::seconds(10))).ok());
  }
}

// local-task submissions whose wait fence is not reached return at once and
// run when it is, in the order fences allow (not submission order).
TEST(LocalDeviceTest, TaskSubmissionsWaitingOnAFenceAreDeferred) {
  Ref<LocalDevice> device = LocalDevice::Create({"local-task", 2, true});
  Ref<Semaphore> host = Semaphore::Create(0);
  Ref<Fence> gate = Fence::Create();
  gate->Insert(host, 1);
  Ref<Fence> allocated = Fence::CreateWithNewSemaphore();
  auto buffer = device->QueueAlloca(nullptr, allocated, BufferParams{}, 16);
  ASSERT_TRUE(buffer.ok());
  // Second waits on first's signal, first waits on the host semaphore:
  // submitted in the opposite order of their dependencies.
  Ref<Fence> first = Fence::CreateWithNewSemaphore();
  Ref<Fence> second = Fence::CreateWithNewSemaphore();
  ASSERT_TRUE(device->QueueFill(first, second, *buffer, 8, 8, 0x22, 1).ok());
  ASSERT_TRUE(device->QueueFill(gate, first, *buffer, 0, 16, 0x11, 1).ok());
  // Neither ran: this thread was never blocked, and a deferred update keeps
  // its own copy of the source.
  EXPECT_EQ(second->Query().code(), StatusCode::kDeferred);
  std::vector<uint8_t> source(4, 0x33);
  Ref<Fence> third = Fence::CreateWithNewSemaphore();
  ASSERT_TRUE(device->QueueUpdate(second, third, source, *buffer, 0, 4).ok());
  source.assign(4, 0xEE);
  ASSERT_TRUE(host->Signal(1).ok());
  ASSERT_TRUE(third->Wait(Timeout::After(std::chrono::seconds(10))).ok());
  auto mapping = (*buffer)->Map(MappingMode::kScoped, MemoryAccess::kRead, 0,
                                kWholeBuffer);
  ASSERT_TRUE(mapping.ok());
  const std::vector<uint8_t> expected = {0x33, 0x33, 0x33, 0x33, 0x11, 0x11,
                                         0x11, 0x11, 0x22, 0x22, 0x22, 0x22,
                                         0x22, 0x22, 0x22, 0x22};
  EXPECT_EQ(std::vector<uint8_t>(mapping->data(), mapping->data() + 16),
            expected);
}

TEST(LocalDeviceTest, DeferredFailuresReachTheSignalFence) {
  Ref<LocalDevice> device = LocalDevice::Create({"local-task", 2, true});
  auto buffer = device->QueueAlloca(nullptr, nullptr, BufferParams{}, 16);
  ASSERT_TRUE(buffer.ok());
  // A failed wait semaphore fails the submission without running it.
  Ref<Semaphore> host = Semaphore::Create(0);
  Ref<Fence> gate = Fence::Create();
  gate->Insert(host, 1);
  Ref<Fence> skipped = Fence::CreateWithNewSemaphore();
  ASSERT_TRUE(device->QueueFill(gate, skipped, *buffer, 0, 16, 1, 1).ok());
  host->Fail(Status(StatusCode::kDataLoss, "producer failed"));
  Status status = skipped->Wait(Timeout::After(std::chrono::seconds(10)));
  EXPECT_EQ(status.code(), StatusCode::kDataLoss) << status.ToString();
  // Work that fails when it runs fails its fence with its own error.
  Ref<Semaphore> host2 = Semaphore::Create(0);
  Ref<Fence> gate2 = Fence::Create();
  gate2->Insert(host2, 1);
  Ref<Fence> out_of_range = Fence::CreateWithNewSemaphore();
  ASSERT_TRUE(
      device->QueueFill(gate2, out_of_range, *buffer, 8, 16, 1, 1).ok());
  ASSERT_TRUE(host2->Signal(1).ok());
  status = out_of_range->Wait(Timeout::After(std::chrono::seconds(10)));
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange) << status.ToString();
}

TEST(LocalDeviceTest, DestroyingADeviceAbortsWhatStillWaits) {
  Ref<Fence> never = Fence::CreateWithNewSemaphore();
  Ref<Fence> abandoned = Fence::CreateWithNewSemaphore();
  {
    Ref<LocalDevice> device = LocalDevice::Create({"local-task", 2, true});
    ASSERT_TRUE(device->QueueBarrier(never, abandoned).ok());
    EXPECT_EQ(abandoned->Query().code(), StatusCode::kDeferred);
  }
  EXPECT_EQ(abandoned->Query().code(), StatusCode::kAborted);
}

// Under ScopedDeferSubmissions, local-task queues even ready submissions for
// its queue threads: the submitter returns before the work runs, and the
// work still runs in the order fences give.
TEST(LocalDeviceTest, DeferredSubmissionsRunOnTheQueueThreads) {
  Ref<LocalDevice> device = LocalDevice::Create({"local-task", 2, true});
  EXPECT_TRUE(device->queues_asynchronously());
  EXPECT_FALSE(
      LocalDevice::Create({"local-sync", 0, false})->queues_asynchronously());
  auto buffer = device->QueueAlloca(nullptr, nullptr, BufferParams{}, 64);
  ASSERT_TRUE(buffer.ok());
  // A host gate holds the first fill back, so the deferred chain cannot
  // have run when the submitting calls return, whatever the scheduling.
  Ref<Semaphore> host = Semaphore::Create(0);
  Ref<Fence> gate = Fence::Create();
  gate->Insert(host, 1);
  Ref<Fence> first = Fence::CreateWithNewSemaphore();
  Ref<Fence> second = Fence::CreateWithNewSemaphore();
  Ref<Fence> independent = Fence::CreateWithNewSemaphore();
  {
    ScopedDeferSubmissions defer;
    EXPECT_TRUE(ScopedDeferSubmissions::active());
    ASSERT_TRUE(device->QueueFill(gate, first, *buffer, 0, 64, 0x11, 1).ok());
    ASSERT_TRUE(device->QueueFill(first, second, *buffer, 0, 32, 0x22, 1).ok());
    // Ready at once, but deferred all the same; runs while the chain waits.
    ASSERT_TRUE(device->QueueBarrier(nullptr, independent).ok());
  }
  EXPECT_FALSE(ScopedDeferSubmissions::active());
  EXPECT_TRUE(independent->Wait(Timeout::After(std::chrono::seconds(10))).ok());
  EXPECT_EQ(second->Query().code(), StatusCode::kDeferred);
  ASSERT_TRUE(host->Signal(1).ok());
  ASSERT_TRUE(second->Wait(Timeout::After(std::chrono::seconds(10))).ok());
  auto mapping = (*buffer)->Map(MappingMode::kScoped, MemoryAccess::kRead, 0,
                                kWholeBuffer);
  ASSERT_TRUE(mapping.ok());
  for (size_t i = 0; i < 64; ++i) {
    EXPECT_EQ(mapping->data()[i], i < 32 ? 0x22 : 0x11) << i;
  }
}

// Many deferred chains from several threads all complete, in fence order
// within each chain, with the queue threads running them side by side.
TEST(LocalDeviceTest, ManyDeferredChainsFromManyThreads) {
  Ref<LocalDevice> device = LocalDevice::Create({"local-task", 2, true});
  constexpr int kThreads = 4;
  constexpr int kChains = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int c = 0; c < kChains; ++c) {
        auto buffer = device->QueueAlloca(nullptr, nullptr, BufferParams{}, 8);
        ASSERT_TRUE(buffer.ok());
        Ref<Fence> a = Fence::CreateWithNewSemaphore();
        Ref<Fence> b = Fence::CreateWithNewSemaphore();
        const uint8_t value = static_cast<uint8_t>(t * kChains + c);
        {
          ScopedDeferSubmissions defer;
          ASSERT_TRUE(
              device->QueueFill(nullptr, a, *buffer, 0, 8, 0xFF, 1).ok());
          ASSERT_TRUE(device->QueueFill(a, b, *buffer, 0, 8, value, 1).ok());
        }
        ASSERT_TRUE(b->Wait(Timeout::After(std::chrono::seconds(10))).ok());
        auto mapping = (*buffer)->Map(MappingMode::kScoped, MemoryAccess::kRead,
                                      0, kWholeBuffer);
        ASSERT_TRUE(mapping.ok());
        for (size_t i = 0; i < 8; ++i) ASSERT_EQ(mapping->data()[i], value);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
}

// `hal.device.queue.write` (a buffer into a file's memory) is a queue
// operation like the others: nothing is copied before its wait fence is
// reached, so a later change to the source -- made by work the fence waits
// for -- is what lands in the file. (It used to copy at once on local-task,
// behind a deferred barrier.)
TEST(LocalDeviceTest, ReadsToHostWaitForTheirFence) {
  for (bool task : {false, true}) {
    SCOPED_TRACE(task ? "local-task" : "local-sync");
    Ref<LocalDevice> device =
        LocalDevice::Create({task ? "local-task" : "local-sync", 2, task});
    auto buffer = device->allocator().Allocate(BufferParams{}, 8);
    ASSERT_TRUE(buffer.ok());
    ASSERT_TRUE(
        device->WriteBuffer(*buffer, 0, std::vector<uint8_t>(8, 1)).ok());
    Ref<Semaphore> host = Semaphore::Create(0);
    Ref<Fence> gate = Fence::Create();
    gate->Insert(host, 1);
    Ref<Fence> done = Fence::CreateWithNewSemaphore();
    std::vector<uint8_t> file(8, 0);
    // The source changes while the read waits, then the gate opens.
    std::thread producer([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      EXPECT_EQ(file, std::vector<uint8_t>(8, 0));
      EXPECT_TRUE(
          device->WriteBuffer(*buffer, 0, std::vector<uint8_t>(8, 7)).ok());
      EXPECT_TRUE(host->Signal(1).ok());
    });
    ASSERT_TRUE(
        device->QueueReadToHost(gate, done, *buffer, 0, file, nullptr).ok());
    ASSERT_TRUE(done->Wait(Timeout::After(std::chrono::seconds(10))).ok());
    producer.join();
    EXPECT_EQ(file, std::vector<uint8_t>(8, 7));
    // Ranges are checked, and the failure reaches the signal fence.
    Ref<Fence> failed = Fence::CreateWithNewSemaphore();
    std::vector<uint8_t> big(16);
    Status status =
        device->QueueReadToHost(nullptr, failed, *buffer, 0, big, nullptr);
    if (status.ok()) status = failed->Wait(Timeout::Infinite());
    EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  }
}

// A local device uses host memory only: a buffer of another memory domain
// is refused even where the host could map it.
constexpr char kForeignDomain[] = "foreign";
struct ForeignBuffer : Buffer {
  explicit ForeignBuffer(uint8_t* data)
      : Buffer(BufferParams{}, 16, data, kForeignDomain) {}
};

TEST(LocalDeviceTest, RefusesBuffersOfAnotherDevicesMemory) {
  alignas(64) static uint8_t bytes[16];
  Ref<Buffer> foreign = Ref<Buffer>::Adopt(new ForeignBuffer(bytes));
  Ref<LocalDevice> device = LocalDevice::Create({"local-sync", 0, false});
  EXPECT_FALSE(device->allocator().IsCompatible(*foreign));
  Status status = device->QueueFill(nullptr, nullptr, foreign, 0, 16, 1, 1);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
  EXPECT_EQ(device->WriteBuffer(foreign, 0, std::vector<uint8_t>(4)).code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ember::hal::cpu
