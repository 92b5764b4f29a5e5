// One set of device tests, run on every device this build can create here
// (local-sync, local-task, and vulkan where a Vulkan device exists): what
// the HAL promises its users must hold whatever the device kind. Dispatches
// need executables of each device's own format; compiled programs cover
// them (the Python and conformance suites).
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "runtime/drivers/drivers.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/command_buffer.h"
#include "runtime/hal/device.h"
#include "runtime/hal/semaphore.h"
#if defined(EMBER_HAVE_VULKAN)
#include "runtime/hal/vulkan/vulkan_device.h"
#endif

namespace ember::drivers {
namespace {

using hal::Buffer;
using hal::BufferParams;
using hal::Fence;
using hal::Timeout;

// Every driver the build may have; a test of one this machine cannot run
// skips (the Python tests fail where the official runtime sees a Vulkan
// device and Ember does not). Listed by name rather than enumerated, so
// listing the tests touches no driver.
std::vector<std::string> DeviceUris() {
  return {"local-sync", "local-task", "vulkan"};
}

class DeviceConformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!SharedDrivers().Has(GetParam())) {
      GTEST_SKIP() << "no " << GetParam() << " device on this machine";
    }
    // Vulkan runs under the Khronos validation layer: any message it
    // reports fails the test (TearDown).
    const std::string uri =
        GetParam() == "vulkan" ? "vulkan?validation=1" : GetParam();
    Result<Ref<hal::Device>> device = SharedDrivers().CreateDevice(uri);
    ASSERT_TRUE(device.ok()) << device.status().ToString();
    device_ = *std::move(device);
  }

  void TearDown() override {
#if defined(EMBER_HAVE_VULKAN)
    if (auto* vulkan =
            dynamic_cast<hal::vulkan::VulkanDevice*>(device_.get())) {
      for (const std::string& message :
           vulkan->context()->instance().validation_messages()) {
        ADD_FAILURE() << "validation layer: " << message;
      }
    }
#endif
  }

  Ref<Buffer> Allocate(uint64_t size) {
    BufferParams params;
    params.type = hal::MemoryType::kDeviceLocal;
    params.usage = hal::BufferUsage::kDefault;
    Result<Ref<Buffer>> buffer = device_->allocator().Allocate(params, size);
    EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
    return buffer.ok() ? *buffer : Ref<Buffer>();
  }

  std::vector<uint8_t> Read(const Ref<Buffer>& buffer, uint64_t offset,
                            size_t length) {
    std::vector<uint8_t> bytes(length);
    Status status = device_->ReadBuffer(buffer, offset, bytes);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return bytes;
  }

  static Ref<Fence> Pending(Ref<hal::Semaphore>* semaphore) {
    *semaphore = hal::Semaphore::Create(0);
    Ref<Fence> fence = Fence::Create();
    fence->Insert(*semaphore, 1);
    return fence;
  }

  Ref<hal::Device> device_;
};

TEST_P(DeviceConformance, NewBuffersAreZeroAndRoundTripThroughTheHost) {
  Ref<Buffer> buffer = Allocate(1000);
  ASSERT_TRUE(buffer);
  EXPECT_EQ(Read(buffer, 0, 1000), std::vector<uint8_t>(1000, 0));
  std::vector<uint8_t> data(600);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i);
  ASSERT_TRUE(device_->WriteBuffer(buffer, 200, data).ok());
  EXPECT_EQ(Read(buffer, 200, 600), data);
  EXPECT_EQ(Read(buffer, 0, 200), std::vector<uint8_t>(200, 0));
  // Out of range: an error, never a clamp.
  std::vector<uint8_t> past(10);
  EXPECT_EQ(device_->ReadBuffer(buffer, 995, past).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(device_->WriteBuffer(buffer, 1001, past).code(),
            StatusCode::kOutOfRange);
  // A subspan reads the same bytes.
  Result<Ref<Buffer>> sub = Buffer::Subspan(buffer, 256, 100);
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(Read(*sub, 0, 100),
            std::vector<uint8_t>(data.begin() + 56, data.begin() + 156));
}

TEST_P(DeviceConformance, StatisticsCountLiveBytes) {
  const uint64_t before = device_->allocator().statistics().bytes_allocated;
  {
    Ref<Buffer> buffer = Allocate(4096);
    EXPECT_GE(device_->allocator().statistics().bytes_allocated, before + 4096);
  }
  EXPECT_EQ(device_->allocator().statistics().bytes_allocated, before);
}

TEST_P(DeviceConformance, QueueTransfersFollowTheirFences) {
  Ref<Buffer> a = Allocate(64);
  Ref<Buffer> b = Allocate(64);
  ASSERT_TRUE(a && b);
  Ref<hal::Semaphore> gate_semaphore;
  Ref<Fence> gate = Pending(&gate_semaphore);
  Ref<Fence> filled = Fence::CreateWithNewSemaphore();
  Ref<Fence> updated = Fence::CreateWithNewSemaphore();
  Ref<Fence> copied = Fence::CreateWithNewSemaphore();
  // Submitted in order, each waiting for the one before; the first waits
  // for the host.
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_TRUE(gate_semaphore->Signal(1).ok());
  });
  ASSERT_TRUE(device_->QueueFill(gate, filled, a, 0, 64, 0xA5A5A5A5u, 4).ok());
  const std::vector<uint8_t> update = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_TRUE(device_->QueueUpdate(filled, updated, update, a, 8, 8).ok());
  ASSERT_TRUE(device_->QueueCopy(updated, copied, a, 0, b, 32, 32).ok());
  ASSERT_TRUE(copied->Wait(Timeout::After(std::chrono::seconds(30))).ok());
  opener.join();
  std::vector<uint8_t> expected(64, 0);
  for (size_t i = 32; i < 64; ++i) expected[i] = 0xA5;
  for (size_t i = 0; i < 8; ++i) expected[32 + 8 + i] = update[i];
  EXPECT_EQ(Read(b, 0, 64), expected);
}

TEST_P(DeviceConformance, FillPatternsOfEveryWidth) {
  Ref<Buffer> buffer = Allocate(64);
  ASSERT_TRUE(buffer);
  Ref<Fence> done = Fence::CreateWithNewSemaphore();
  ASSERT_TRUE(
      device_->QueueFill(nullptr, nullptr, buffer, 0, 16, 0x11, 1).ok());
  ASSERT_TRUE(
      device_->QueueFill(nullptr, nullptr, buffer, 16, 16, 0x2233, 2).ok());
  ASSERT_TRUE(
      device_->QueueFill(nullptr, done, buffer, 32, 32, 0x44556677, 4).ok());
  ASSERT_TRUE(done->Wait(Timeout::After(std::chrono::seconds(30))).ok());
  std::vector<uint8_t> bytes = Read(buffer, 0, 64);
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(bytes[i], 0x11) << i;
  for (size_t i = 16; i < 32; ++i) {
    EXPECT_EQ(bytes[i], i % 2 == 0 ? 0x33 : 0x22) << i;
  }
  const uint8_t word[4] = {0x77, 0x66, 0x55, 0x44};
  for (size_t i = 32; i < 64; ++i) EXPECT_EQ(bytes[i], word[i % 4]) << i;
}

TEST_P(DeviceConformance, CommandBuffersRunWithBindingTables) {
  Ref<Buffer> source = Allocate(256);
  Ref<Buffer> target = Allocate(256);
  ASSERT_TRUE(source && target);
  std::vector<uint8_t> data(256);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(~i);
  ASSERT_TRUE(device_->WriteBuffer(source, 0, data).ok());
  Result<Ref<hal::CommandBuffer>> commands = device_->CreateCommandBuffer(
      hal::CommandBufferMode::kNone, hal::CommandCategory::kAny, 2);
  ASSERT_TRUE(commands.ok());
  hal::CommandBuffer& c = **commands;
  // Slot 0 = source, slot 1 = target: copy 128 bytes, then fill the rest.
  ASSERT_TRUE(c.Copy({{nullptr, 0, 0, 128}, {nullptr, 1, 0, 128}, 128}).ok());
  ASSERT_TRUE(c.ExecutionBarrier().ok());
  ASSERT_TRUE(c.Fill({{nullptr, 1, 128, 128}, 0x5A, 1}).ok());
  ASSERT_TRUE(c.Finalize().ok());
  const std::vector<hal::Binding> table = {{source, 0, hal::kWholeBuffer},
                                           {target, 0, hal::kWholeBuffer}};
  for (int round = 0; round < 2; ++round) {  // resubmitted
    Ref<Fence> done = Fence::CreateWithNewSemaphore();
    ASSERT_TRUE(device_->QueueExecute(nullptr, done, *commands, table).ok());
    ASSERT_TRUE(done->Wait(Timeout::After(std::chrono::seconds(30))).ok());
  }
  std::vector<uint8_t> expected(data.begin(), data.begin() + 128);
  expected.resize(256, 0x5A);
  EXPECT_EQ(Read(target, 0, 256), expected);
  // A table entry too short for the command's range fails the submission.
  const std::vector<hal::Binding> short_table = {{source, 0, 64},
                                                 {target, 0, 256}};
  Ref<Fence> failed = Fence::CreateWithNewSemaphore();
  Status status =
      device_->QueueExecute(nullptr, failed, *commands, short_table);
  if (status.ok())
    status = failed->Wait(Timeout::After(std::chrono::seconds(30)));
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange) << status.ToString();
}

TEST_P(DeviceConformance, ReadsToHostWaitForTheirFence) {
  Ref<Buffer> buffer = Allocate(16);
  ASSERT_TRUE(buffer);
  ASSERT_TRUE(
      device_->WriteBuffer(buffer, 0, std::vector<uint8_t>(16, 1)).ok());
  Ref<hal::Semaphore> gate_semaphore;
  Ref<Fence> gate = Pending(&gate_semaphore);
  Ref<Fence> done = Fence::CreateWithNewSemaphore();
  std::vector<uint8_t> host(16, 0);
  std::thread producer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_EQ(host, std::vector<uint8_t>(16, 0));
    EXPECT_TRUE(
        device_->WriteBuffer(buffer, 0, std::vector<uint8_t>(16, 9)).ok());
    EXPECT_TRUE(gate_semaphore->Signal(1).ok());
  });
  ASSERT_TRUE(
      device_->QueueReadToHost(gate, done, buffer, 0, host, nullptr).ok());
  ASSERT_TRUE(done->Wait(Timeout::After(std::chrono::seconds(30))).ok());
  producer.join();
  EXPECT_EQ(host, std::vector<uint8_t>(16, 9));
}

TEST_P(DeviceConformance, FailuresReachTheSignalFence) {
  Ref<Buffer> buffer = Allocate(16);
  ASSERT_TRUE(buffer);
  Ref<Fence> done = Fence::CreateWithNewSemaphore();
  Status status = device_->QueueCopy(nullptr, done, buffer, 0, buffer, 8, 16);
  if (status.ok())
    status = done->Wait(Timeout::After(std::chrono::seconds(30)));
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange) << status.ToString();
  // A failed wait fence fails what waits on it, with its own error.
  Ref<hal::Semaphore> semaphore;
  Ref<Fence> gate = Pending(&semaphore);
  semaphore->Fail(Status(StatusCode::kDataLoss, "upstream failure"));
  Ref<Fence> after = Fence::CreateWithNewSemaphore();
  status = device_->QueueFill(gate, after, buffer, 0, 16, 1, 1);
  if (status.ok())
    status = after->Wait(Timeout::After(std::chrono::seconds(30)));
  EXPECT_EQ(status.code(), StatusCode::kDataLoss) << status.ToString();
}

TEST_P(DeviceConformance, AllocaAndDeallocaAreOrdered) {
  Ref<Fence> made = Fence::CreateWithNewSemaphore();
  BufferParams params;
  Result<Ref<Buffer>> buffer = device_->QueueAlloca(nullptr, made, params, 128);
  ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
  Ref<Fence> filled = Fence::CreateWithNewSemaphore();
  ASSERT_TRUE(device_->QueueFill(made, filled, *buffer, 0, 128, 7, 1).ok());
  Ref<Fence> freed = Fence::CreateWithNewSemaphore();
  ASSERT_TRUE(device_->QueueDealloca(filled, freed, *buffer).ok());
  ASSERT_TRUE(freed->Wait(Timeout::After(std::chrono::seconds(30))).ok());
}

TEST_P(DeviceConformance, SemaphoresComeFromTheDevice) {
  Result<Ref<hal::Semaphore>> semaphore = device_->CreateSemaphore(5);
  ASSERT_TRUE(semaphore.ok());
  EXPECT_EQ(*(*semaphore)->Query(), 5u);
  ASSERT_TRUE((*semaphore)->Signal(6).ok());
  EXPECT_TRUE((*semaphore)->Wait(6, Timeout::Immediate()).ok());
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, DeviceConformance,
                         ::testing::ValuesIn(DeviceUris()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) {
                               c = '_';
                             }
                           }
                           return name;
                         });

}  // namespace
}  // namespace ember::drivers
