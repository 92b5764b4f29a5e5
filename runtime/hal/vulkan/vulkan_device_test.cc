// The Vulkan device on whatever Vulkan driver the machine has (Mesa's
// lavapipe in CI), always under the Khronos validation layer: any warning or
// error the layer reports fails the test. Skipped only where there is no
// Vulkan loader or no device that meets the baseline.
#include "runtime/hal/vulkan/vulkan_device.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "runtime/hal/driver.h"
#include "runtime/hal/vulkan/vulkan_driver.h"

namespace ember::hal::vulkan {
namespace {

constexpr auto kWait = std::chrono::seconds(20);

class VulkanDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Status available = VulkanAvailability();
    if (!available.ok()) GTEST_SKIP() << available.ToString();
  }
  void TearDown() override {
    device_.reset();
    if (instance_) {
      for (const std::string& message : instance_->validation_messages()) {
        ADD_FAILURE() << "Vulkan validation: " << message;
      }
    }
  }

  Ref<VulkanDevice> MakeDevice(VulkanDeviceOptions options = {}) {
    options.instance.validation = true;
    Result<Ref<VulkanDevice>> device = VulkanDevice::Create(options);
    EXPECT_TRUE(device.ok()) << device.status().ToString();
    if (!device.ok()) return nullptr;
    if (!instance_) {
      instance_ =
          Ref<VulkanInstance>::Retain(&(*device)->context()->instance());
    }
    return *device;
  }

  std::vector<uint8_t> Read(const Ref<Buffer>& buffer) {
    std::vector<uint8_t> bytes(buffer->byte_length());
    Status status = device_->ReadBuffer(buffer, 0, bytes);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return bytes;
  }

  static void ExpectOk(const Status& status) {
    EXPECT_TRUE(status.ok()) << status.ToString();
  }

  Ref<VulkanInstance> instance_;
  Ref<VulkanDevice> device_;
};

TEST_F(VulkanDeviceTest, ListsDevicesAsIree) {
  Result<std::vector<VulkanPhysicalDeviceInfo>> devices =
      QueryVulkanDevices({true});
  ASSERT_TRUE(devices.ok()) << devices.status().ToString();
  ASSERT_FALSE(devices->empty());
  for (size_t i = 0; i < devices->size(); ++i) {
    const VulkanPhysicalDeviceInfo& info = (*devices)[i];
    EXPECT_EQ(info.device_id, i + 1);
    ASSERT_EQ(info.path.size(), 4u + 32u) << info.path;
    EXPECT_EQ(info.path.substr(0, 4), "GPU-");
    for (char c : info.path.substr(4)) {
      EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << c;
    }
    EXPECT_FALSE(info.name.empty());
  }
}

TEST_F(VulkanDeviceTest, DeviceUrisSelectAsIree) {
  Result<std::vector<VulkanPhysicalDeviceInfo>> devices = QueryVulkanDevices();
  ASSERT_TRUE(devices.ok());
  DriverRegistry registry;
  ExpectOk(RegisterVulkanDriver(registry));
  ASSERT_TRUE(registry.Has("vulkan"));
  Result<std::vector<DeviceInfo>> listed = registry.EnumerateDevices("vulkan");
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), devices->size());
  EXPECT_EQ((*listed)[0].path, (*devices)[0].path);
  for (std::string uri : {std::string("vulkan?validation=1"),
                          std::string("vulkan://0?validation=1"),
                          "vulkan://" + (*devices)[0].path + "?validation=1"}) {
    Result<Ref<Device>> device = registry.CreateDevice(uri);
    ASSERT_TRUE(device.ok()) << uri << ": " << device.status().ToString();
    EXPECT_EQ((*device)->id(), "vulkan");
    auto* vulkan = static_cast<VulkanDevice*>(device->get());
    EXPECT_EQ(vulkan->context()->info().path, (*devices)[0].path);
    for (const std::string& message :
         vulkan->context()->instance().validation_messages()) {
      ADD_FAILURE() << "Vulkan validation: " << message;
    }
  }
  EXPECT_EQ(
      registry.CreateDevice("vulkan://GPU-00000000000000000000000000000000")
          .status()
          .code(),
      StatusCode::kNotFound);
  EXPECT_EQ(registry.CreateDevice("vulkan://99").status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(registry.CreateDevice("vulkan://nonsense").status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.CreateDevice("vulkan?bogus=1").status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.CreateDevice("vulkan?validation=maybe").status().code(),
            StatusCode::kInvalidArgument);
}

// The messenger sees the layer's reports (else every other test here
// proves nothing about validation).
TEST_F(VulkanDeviceTest, ValidationLayerReportsMisuse) {
  device_ = MakeDevice();
  ASSERT_TRUE(device_);
  const VulkanContext& context = *device_->context();
  EXPECT_TRUE(context.instance().validation_enabled());
  VkBufferCreateInfo info = {};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = 0;  // invalid: VUID-VkBufferCreateInfo-size-00912
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult result =
      context.api().vkCreateBuffer(context.device(), &info, nullptr, &buffer);
  if (result == VK_SUCCESS) {
    context.api().vkDestroyBuffer(context.device(), buffer, nullptr);
  }
  std::vector<std::string> messages = instance_->validation_messages();
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages[0].find("00912"), std::string::npos) << messages[0];
  instance_->ClearValidationMessages();

  // Synchronization validation is on too: two fills of one buffer with no
  // barrier between them are a write-after-write hazard.
  Result<Ref<Buffer>> target =
      device_->allocator().Allocate(BufferParams{}, 64);
  ASSERT_TRUE(target.ok());
  VkBuffer handle =
      static_cast<const VulkanBuffer&>((*target)->allocated_buffer()).handle();
  Status status = device_->context()->SubmitAndWait([&](VkCommandBuffer cb) {
    context.api().vkCmdFillBuffer(cb, handle, 0, 64, 1);
    context.api().vkCmdFillBuffer(cb, handle, 0, 64, 2);
    return Status::Ok();
  });
  EXPECT_TRUE(status.ok()) << status.ToString();
  messages = instance_->validation_messages();
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages[0].find("WRITE_AFTER_WRITE"), std::string::npos)
      << messages[0];
  instance_->ClearValidationMessages();
}

TEST_F(VulkanDeviceTest, QueriesAnswerAsIree) {
  device_ = MakeDevice();
  ASSERT_TRUE(device_);
  EXPECT_EQ(*device_->QueryI64("hal.device.id", "vulkan"), 1);
  EXPECT_EQ(*device_->QueryI64("hal.device.id", "vulk*"), 1);
  EXPECT_EQ(*device_->QueryI64("hal.device.id", "local-task"), 0);
  EXPECT_EQ(*device_->QueryI64("hal.executable.format", "vulkan-spirv-fb"), 1);
  EXPECT_EQ(*device_->QueryI64("hal.executable.format", "embedded-elf-x86_64"),
            0);
  EXPECT_EQ(*device_->QueryI64("hal.device", "concurrency"), 1);
  EXPECT_EQ(device_->QueryI64("hal.nothing", "x").status().code(),
            StatusCode::kNotFound);
}

TEST_F(VulkanDeviceTest, AllocatesMapsAndCounts) {
  device_ = MakeDevice();
  ASSERT_TRUE(device_);
  Allocator& allocator = device_->allocator();
  const AllocatorStatistics before = allocator.statistics();
  {
    Result<Ref<Buffer>> buffer = allocator.Allocate(BufferParams{}, 1000);
    ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
    EXPECT_EQ((*buffer)->byte_length(), 1000u);
    EXPECT_TRUE((*buffer)->host_mappable());
    EXPECT_TRUE(HasAll((*buffer)->memory_type(), MemoryType::kHostVisible));
    EXPECT_EQ((*buffer)->memory_domain(), allocator.memory_domain());
    EXPECT_TRUE(allocator.IsCompatible(**buffer));
    // Zero-filled.
    EXPECT_EQ(Read(*buffer), std::vector<uint8_t>(1000, 0));
    Result<BufferMapping> mapping =
        (*buffer)->Map(MappingMode::kScoped, MemoryAccess::kWrite, 100, 200);
    ASSERT_TRUE(mapping.ok()) << mapping.status().ToString();
    std::memset(mapping->data(), 0x5A, mapping->size());
    ExpectOk((*buffer)->Flush(100, 200));
    std::vector<uint8_t> bytes = Read(*buffer);
    EXPECT_EQ(bytes[99], 0);
    EXPECT_EQ(bytes[100], 0x5A);
    EXPECT_EQ(bytes[299], 0x5A);
    EXPECT_EQ(bytes[300], 0);
    const AllocatorStatistics during = allocator.statistics();
    EXPECT_EQ(during.bytes_allocated, before.bytes_allocated + 1000);
    EXPECT_EQ(during.allocation_count, before.allocation_count + 1);
    // A subspan maps at its own offset.
    Result<Ref<Buffer>> span = Buffer::Subspan(*buffer, 100, 50);
    ASSERT_TRUE(span.ok());
    std::vector<uint8_t> part(50);
    ExpectOk(device_->ReadBuffer(*span, 0, part));
    EXPECT_EQ(part, std::vector<uint8_t>(50, 0x5A));
    // Ranges are checked.
    EXPECT_EQ(device_->ReadBuffer(*span, 10, part).code(),
              StatusCode::kOutOfRange);
  }
  {
    // Host-visible memory without mapping usage: the device's own
    // transfers reach it whatever the usage says.
    BufferParams params;
    params.usage = BufferUsage::kDefault;
    Result<Ref<Buffer>> buffer = allocator.Allocate(params, 8);
    ASSERT_TRUE(buffer.ok());
    ExpectOk(device_->WriteBuffer(*buffer, 2, std::vector<uint8_t>{1, 2, 3}));
    EXPECT_EQ(Read(*buffer), (std::vector<uint8_t>{0, 0, 1, 2, 3, 0, 0, 0}));
  }
  const AllocatorStatistics after = allocator.statistics();
  EXPECT_EQ(after.bytes_allocated, before.bytes_allocated);
  EXPECT_EQ(after.host_bytes_freed + after.device_bytes_freed,
            before.host_bytes_freed + before.device_bytes_freed + 1008);
  EXPECT_GE(after.bytes_peak, 1000u);
  // Hostile sizes fail without touching memory.
  EXPECT_EQ(
      allocator.Allocate(BufferParams{}, uint64_t{1} << 60).status().code(),
      StatusCode::kResourceExhausted);
}

// Memory type choice on a discrete GPU's table (no device needed).
TEST(VulkanMemoryPlacement, DiscreteGpuTypes) {
  VkPhysicalDeviceMemoryProperties memory = {};
  const VkMemoryPropertyFlags kDevice = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  const VkMemoryPropertyFlags kVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  const VkMemoryPropertyFlags kCoherent = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  const VkMemoryPropertyFlags types[] = {
      kDevice,                          // 0: VRAM
      kVisible | kCached,               // 1: non-coherent readback
      kVisible | kCoherent,             // 2: upload
      kVisible | kCoherent | kCached,   // 3: coherent readback
      kDevice | kVisible | kCoherent};  // 4: BAR
  memory.memoryTypeCount = 5;
  for (uint32_t i = 0; i < 5; ++i)
    memory.memoryTypes[i].propertyFlags = types[i];
  auto place = [&](MemoryType type, BufferUsage usage, uint32_t bits = 0x1F,
                   bool strict = false) {
    BufferParams params;
    params.type = type;
    params.usage = usage;
    Result<VulkanAllocator::Placement> placement =
        VulkanAllocator::PlaceIn(memory, params, bits, strict);
    EXPECT_TRUE(placement.ok()) << placement.status().ToString();
    return placement.ok() ? *placement : VulkanAllocator::Placement{};
  };
  // Device-only: VRAM, unmapped, no host bits.
  VulkanAllocator::Placement p =
      place(MemoryType::kDeviceLocal, BufferUsage::kDefault);
  EXPECT_EQ(p.type_index, 0u);
  EXPECT_FALSE(p.mapped);
  EXPECT_FALSE(HasAny(p.memory_type, MemoryType::kHostVisible));
  EXPECT_TRUE(HasAll(p.memory_type, MemoryType::kDeviceLocal));
  // The default (device local, host visible, mappable): the BAR.
  p = place(BufferParams{}.type, BufferParams{}.usage);
  EXPECT_EQ(p.type_index, 4u);
  EXPECT_TRUE(p.mapped);
  // Host local: coherent system memory; cached when asked for, coherent
  // before cached.
  p = place(MemoryType::kHostLocal, BufferUsage::kDefault);
  EXPECT_EQ(p.type_index, 2u);
  EXPECT_TRUE(HasAll(p.memory_type, MemoryType::kHostLocal));
  p = place(MemoryType::kHostLocal | MemoryType::kHostCached,
            BufferUsage::kDefault);
  EXPECT_EQ(p.type_index, 3u);
  // Device local without host visibility but with mapping usage: mapped.
  p = place(MemoryType::kDeviceLocal,
            BufferUsage::kDefault | BufferUsage::kMapping);
  EXPECT_EQ(p.type_index, 4u);
  EXPECT_TRUE(p.mapped);
  // Only non-coherent memory allowed: used, and says so.
  p = place(MemoryType::kHostVisible, BufferUsage::kDefault, 0x2);
  EXPECT_EQ(p.type_index, 1u);
  EXPECT_FALSE(HasAny(p.memory_type, MemoryType::kHostCoherent));
  // Device-only request where the buffer allows only host-visible types:
  // mapped, unless strict.
  p = place(MemoryType::kDeviceLocal, BufferUsage::kDefault, 0x10);
  EXPECT_TRUE(p.mapped);
  p = place(MemoryType::kDeviceLocal, BufferUsage::kDefault, 0x10, true);
  EXPECT_FALSE(p.mapped);
  EXPECT_FALSE(HasAny(p.memory_type, MemoryType::kHostVisible));
  // Nothing fits: RESOURCE_EXHAUSTED.
  BufferParams coherent;
  coherent.type = MemoryType::kHostVisible | MemoryType::kHostCoherent;
  EXPECT_EQ(
      VulkanAllocator::PlaceIn(memory, coherent, 0x3, false).status().code(),
      StatusCode::kResourceExhausted);
}

TEST_F(VulkanDeviceTest, DeviceOnlyMemoryGoesThroughStaging) {
  VulkanDeviceOptions options;
  options.strict_device_local = true;
  device_ = MakeDevice(options);
  ASSERT_TRUE(device_);
  BufferParams params;
  params.type = MemoryType::kDeviceLocal;
  params.usage = BufferUsage::kDefault;
  Result<Ref<Buffer>> buffer = device_->allocator().Allocate(params, 4099);
  ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
  EXPECT_FALSE((*buffer)->host_mappable());
  EXPECT_FALSE(HasAny((*buffer)->memory_type(), MemoryType::kHostVisible));
  // Unmapped memory drops the mapping usage, so Map is refused up front.
  EXPECT_FALSE(HasAny((*buffer)->allowed_usage(), BufferUsage::kMapping));
  EXPECT_FALSE(
      (*buffer)->Map(MappingMode::kScoped, MemoryAccess::kRead, 0, 4).ok());
  EXPECT_EQ(Read(*buffer), std::vector<uint8_t>(4099, 0));
  std::vector<uint8_t> pattern(1000);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = uint8_t(i * 7 + 1);
  ExpectOk(device_->WriteBuffer(*buffer, 3, pattern));
  std::vector<uint8_t> expected(4099, 0);
  std::memcpy(expected.data() + 3, pattern.data(), pattern.size());
  EXPECT_EQ(Read(*buffer), expected);
  EXPECT_EQ(device_->WriteBuffer(*buffer, 4000, pattern).code(),
            StatusCode::kOutOfRange);
  // AllocateCopy through staging.
  Result<Ref<Buffer>> copy = device_->allocator().AllocateCopy(params, pattern);
  ASSERT_TRUE(copy.ok());
  EXPECT_FALSE((*copy)->host_mappable());
  EXPECT_EQ(Read(*copy), pattern);
  // A host-visible request on the same device is still mapped.
  Result<Ref<Buffer>> visible =
      device_->allocator().Allocate(BufferParams{}, 16);
  ASSERT_TRUE(visible.ok());
  EXPECT_TRUE((*visible)->host_mappable());
}

// Fills of every pattern size at unaligned offsets and lengths, copies and
// updates, each ordered by fences, through the queue.
TEST_F(VulkanDeviceTest, QueueTransfersMatchTheHost) {
  for (bool strict : {false, true}) {
    VulkanDeviceOptions options;
    options.strict_device_local = strict;
    device_ = MakeDevice(options);
    ASSERT_TRUE(device_);
    BufferParams params;
    if (strict) {
      params.type = MemoryType::kDeviceLocal;
      params.usage = BufferUsage::kDefault;
    }
    constexpr size_t kSize = 301;
    Ref<Fence> allocated = Fence::CreateWithNewSemaphore();
    Result<Ref<Buffer>> a =
        device_->QueueAlloca(nullptr, allocated, params, kSize);
    ASSERT_TRUE(a.ok());
    Result<Ref<Buffer>> b = device_->allocator().Allocate(params, kSize);
    ASSERT_TRUE(b.ok());
    std::vector<uint8_t> expected_a(kSize, 0), expected_b(kSize, 0);

    struct FillCase {
      uint64_t offset, length, pattern;
      uint32_t pattern_length;
    };
    Ref<Fence> previous = allocated;
    for (const FillCase& fill : std::vector<FillCase>{
             {0, 301, 0x11, 1},
             {1, 6, 0xA1B2, 2},
             {3, 17, 0xEE, 1},
             {7, 2, 0xC3D4, 2},
             {8, 40, 0x01020304, 4},
             {50, 12, 0x0A0B0C0D, 4},
             {101, 24, 0x1122334455667788ull, 8},
             {200, 16, 0x9999999999999999ull, 8},
             {255, 46, 0x77, 1},
         }) {
      Ref<Fence> next = Fence::CreateWithNewSemaphore();
      ExpectOk(device_->QueueFill(previous, next, *a, fill.offset, fill.length,
                                  fill.pattern, fill.pattern_length));
      for (uint64_t i = 0; i < fill.length; ++i) {
        expected_a[fill.offset + i] = static_cast<uint8_t>(
            fill.pattern >> (8 * (i % fill.pattern_length)));
      }
      previous = next;
    }
    // Copy part of a into b at an unaligned offset, then update b.
    Ref<Fence> copied = Fence::CreateWithNewSemaphore();
    ExpectOk(device_->QueueCopy(previous, copied, *a, 5, *b, 9, 250));
    std::memcpy(expected_b.data() + 9, expected_a.data() + 5, 250);
    std::vector<uint8_t> update(13);
    for (size_t i = 0; i < update.size(); ++i) update[i] = uint8_t(0xF0 + i);
    Ref<Fence> updated = Fence::CreateWithNewSemaphore();
    ExpectOk(device_->QueueUpdate(copied, updated, update, *b, 31, 13));
    std::memcpy(expected_b.data() + 31, update.data(), 13);
    // An aligned update (vkCmdUpdateBuffer rather than staging).
    Ref<Fence> updated_aligned = Fence::CreateWithNewSemaphore();
    ExpectOk(
        device_->QueueUpdate(updated, updated_aligned, update, *b, 100, 12));
    std::memcpy(expected_b.data() + 100, update.data(), 12);
    // Read back through the queue into host memory.
    std::vector<uint8_t> host(100, 0);
    Ref<Fence> read = Fence::CreateWithNewSemaphore();
    ExpectOk(
        device_->QueueReadToHost(updated_aligned, read, *b, 20, host, nullptr));
    ExpectOk(read->Wait(Timeout::After(kWait)));
    EXPECT_EQ(Read(*a), expected_a) << "strict=" << strict;
    EXPECT_EQ(Read(*b), expected_b) << "strict=" << strict;
    EXPECT_EQ(host, std::vector<uint8_t>(expected_b.begin() + 20,
                                         expected_b.begin() + 120));
    // An overlapping copy inside one buffer behaves like memmove.
    Ref<Fence> moved = Fence::CreateWithNewSemaphore();
    ExpectOk(device_->QueueCopy(nullptr, moved, *b, 0, *b, 3, 100));
    ExpectOk(moved->Wait(Timeout::After(kWait)));
    std::memmove(expected_b.data() + 3, expected_b.data(), 100);
    EXPECT_EQ(Read(*b), expected_b);
    // Dealloca holds the buffer until it is done.
    Ref<Fence> freed = Fence::CreateWithNewSemaphore();
    ExpectOk(device_->QueueDealloca(nullptr, freed, *a));
    ExpectOk(freed->Wait(Timeout::After(kWait)));
    TearDown();
    instance_.reset();
  }
}

TEST_F(VulkanDeviceTest, QueueErrorsFailTheSignalFence) {
  device_ = MakeDevice();
  ASSERT_TRUE(device_);
  Result<Ref<Buffer>> buffer =
      device_->allocator().Allocate(BufferParams{}, 64);
  ASSERT_TRUE(buffer.ok());
  Ref<Fence> out_of_range = Fence::CreateWithNewSemaphore();
  EXPECT_EQ(
      device_->QueueFill(nullptr, out_of_range, *buffer, 60, 8, 0, 1).code(),
      StatusCode::kOutOfRange);
  EXPECT_EQ(out_of_range->Query().code(), StatusCode::kOutOfRange);
  // A buffer of the host heap (another memory domain) is refused.
  Ref<Allocator> heap = Allocator::CreateHeap();
  Result<Ref<Buffer>> foreign = heap->Allocate(BufferParams{}, 64);
  ASSERT_TRUE(foreign.ok());
  Ref<Fence> refused = Fence::CreateWithNewSemaphore();
  EXPECT_EQ(
      device_->QueueCopy(nullptr, refused, *foreign, 0, *buffer, 0, 16).code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(refused->Query().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(device_->allocator().IsCompatible(**foreign));
  EXPECT_EQ(device_->WriteBuffer(*foreign, 0, std::vector<uint8_t>(4)).code(),
            StatusCode::kInvalidArgument);
  // Another Vulkan device's buffer is foreign too.
  Ref<VulkanDevice> other = MakeDevice();
  ASSERT_TRUE(other);
  Result<Ref<Buffer>> others = other->allocator().Allocate(BufferParams{}, 64);
  ASSERT_TRUE(others.ok());
  EXPECT_EQ(device_->QueueFill(nullptr, nullptr, *others, 0, 4, 0, 1).code(),
            StatusCode::kInvalidArgument);
  // A whole-buffer copy is the source's rest, and must fit the target.
  Result<Ref<Buffer>> second =
      device_->allocator().Allocate(BufferParams{}, 64);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(
      device_->QueueCopy(nullptr, nullptr, *buffer, 0, *second, 8, kWholeBuffer)
          .code(),
      StatusCode::kOutOfRange);
  ExpectOk(device_->QueueFill(nullptr, nullptr, *buffer, 0, 64, 0x66, 1));
  ExpectOk(device_->QueueCopy(nullptr, nullptr, *buffer, 8, *second, 0,
                              kWholeBuffer));
  ExpectOk(device_->WaitIdle(Timeout::After(kWait)));
  std::vector<uint8_t> expected(64, 0);
  std::fill(expected.begin(), expected.begin() + 56, 0x66);
  EXPECT_EQ(Read(*second), expected);
  ExpectOk(device_->QueueFill(nullptr, nullptr, *buffer, 0, 64, 0, 1));
  // A fill whose length is not a multiple of the pattern.
  EXPECT_EQ(device_->QueueFill(nullptr, nullptr, *buffer, 0, 3, 0, 2).code(),
            StatusCode::kInvalidArgument);
  // A failed wait fence fails the operation that waits on it.
  Ref<Semaphore> semaphore = Semaphore::Create(0);
  Ref<Fence> wait = Fence::Create();
  wait->Insert(semaphore, 1);
  Ref<Fence> after = Fence::CreateWithNewSemaphore();
  ExpectOk(device_->QueueFill(wait, after, *buffer, 0, 4, 1, 1));
  semaphore->Fail(Status(StatusCode::kAborted, "upstream failure"));
  Status status = after->Wait(Timeout::After(kWait));
  EXPECT_EQ(status.code(), StatusCode::kAborted) << status.ToString();
  ExpectOk(device_->WaitIdle(Timeout::After(kWait)));
  EXPECT_EQ(Read(*buffer), std::vector<uint8_t>(64, 0));
}

// A submission waits for a fence another thread signals later; a second
// submission waits for the first one's signal; neither blocks the caller.
TEST_F(VulkanDeviceTest, WaitFencesOrderSubmissions) {
  device_ = MakeDevice();
  ASSERT_TRUE(device_);
  Result<Ref<Buffer>> buffer =
      device_->allocator().Allocate(BufferParams{}, 16);
  ASSERT_TRUE(buffer.ok());
  Ref<Semaphore> timeline = Semaphore::Create(0);
  Ref<Fence> gate = Fence::Create();
  gate->Insert(timeline, 5);
  Ref<Fence> filled = Fence::CreateWithNewSemaphore();
  Ref<Fence> done = Fence::CreateWithNewSemaphore();
  ExpectOk(device_->QueueFill(gate, filled, *buffer, 0, 16, 0x42, 1));
  ExpectOk(device_->QueueFill(filled, done, *buffer, 4, 4, 0x43, 1));
  // An unrelated operation is not held up by the waiting ones.
  Ref<Fence> unrelated = Fence::CreateWithNewSemaphore();
  ExpectOk(device_->QueueBarrier(nullptr, unrelated));
  ExpectOk(unrelated->Wait(Timeout::After(kWait)));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(filled->Query().code(), StatusCode::kDeferred);
  EXPECT_EQ(done->Query().code(), StatusCode::kDeferred);
  EXPECT_EQ(Read(*buffer), std::vector<uint8_t>(16, 0));
  std::thread signaller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ExpectOk(timeline->Signal(4));  // not enough
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ExpectOk(timeline->Signal(5));
  });
  ExpectOk(done->Wait(Timeout::After(kWait)));
  signaller.join();
  EXPECT_TRUE(filled->Query().ok());
  std::vector<uint8_t> expected(16, 0x42);
  for (int i = 4; i < 8; ++i) expected[i] = 0x43;
  EXPECT_EQ(Read(*buffer), expected);
}

// Threads submit fence-chained work at once; each chain ends with its last
// value, and the device shuts down cleanly with work still queued behind a
// fence that is never signalled (it fails that work with ABORTED).
TEST_F(VulkanDeviceTest, ConcurrentSubmittersAndShutdown) {
  device_ = MakeDevice();
  ASSERT_TRUE(device_);
  constexpr int kThreads = 4;
  constexpr int kSteps = 40;
  std::vector<Ref<Buffer>> buffers;
  for (int t = 0; t < kThreads; ++t) {
    Result<Ref<Buffer>> buffer =
        device_->allocator().Allocate(BufferParams{}, 256);
    ASSERT_TRUE(buffer.ok());
    buffers.push_back(*buffer);
  }
  std::vector<Ref<Fence>> last(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Ref<Fence> previous;
      for (int step = 1; step <= kSteps; ++step) {
        Ref<Fence> next = Fence::CreateWithNewSemaphore();
        // Alternate fills and copies into the same bytes.
        ExpectOk(device_->QueueFill(previous, next, buffers[t], 0, 128,
                                    uint64_t(step), 1));
        Ref<Fence> copied = Fence::CreateWithNewSemaphore();
        ExpectOk(device_->QueueCopy(next, copied, buffers[t], 0, buffers[t],
                                    128, 128));
        previous = copied;
      }
      last[t] = previous;
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    ExpectOk(last[t]->Wait(Timeout::After(kWait)));
    EXPECT_EQ(Read(buffers[t]), std::vector<uint8_t>(256, kSteps));
  }
  // Work behind a fence nobody signals, then the device goes away.
  Ref<Fence> never = Fence::CreateWithNewSemaphore();
  Ref<Fence> orphan = Fence::CreateWithNewSemaphore();
  ExpectOk(device_->QueueFill(never, orphan, buffers[0], 0, 4, 1, 1));
  buffers.clear();
  device_.reset();
  EXPECT_EQ(orphan->Query().code(), StatusCode::kAborted);
}

// A chain of dependent operations goes to the GPU without waiting for each
// link to complete (the queue orders it), and a failure upstream of the
// chain still fails every link.
TEST_F(VulkanDeviceTest, DependentChainsArePipelined) {
  device_ = MakeDevice();
  ASSERT_TRUE(device_);
  constexpr uint64_t kBig = uint64_t{32} << 20;
  Result<Ref<Buffer>> big = device_->allocator().Allocate(BufferParams{}, kBig);
  Result<Ref<Buffer>> small = device_->allocator().Allocate(BufferParams{}, 64);
  ASSERT_TRUE(big.ok() && small.ok());
  const uint64_t before = device_->pipelined_submissions();
  // A slow first link (a large fill), then links that each copy and fill.
  Ref<Fence> previous = Fence::CreateWithNewSemaphore();
  ExpectOk(device_->QueueFill(nullptr, previous, *big, 0, kBig, 0x5D, 1));
  for (int i = 0; i < 10; ++i) {
    Ref<Fence> copied = Fence::CreateWithNewSemaphore();
    ExpectOk(device_->QueueCopy(previous, copied, *big, kBig - 64 - i, *small,
                                0, 64));
    Ref<Fence> filled = Fence::CreateWithNewSemaphore();
    ExpectOk(device_->QueueFill(copied, filled, *small, 60, 4, uint64_t(i), 1));
    previous = filled;
  }
  ExpectOk(previous->Wait(Timeout::After(kWait)));
  std::vector<uint8_t> expected(64, 0x5D);
  for (int i = 60; i < 64; ++i) expected[i] = 9;
  EXPECT_EQ(Read(*small), expected);
  EXPECT_GT(device_->pipelined_submissions(), before);

  // Upstream failure: a host semaphore fails after the chain is queued.
  Ref<Semaphore> gate = Semaphore::Create(0);
  Ref<Fence> gate_fence = Fence::Create();
  gate_fence->Insert(gate, 1);
  Ref<Fence> first = Fence::CreateWithNewSemaphore();
  Ref<Fence> second = Fence::CreateWithNewSemaphore();
  ExpectOk(device_->QueueFill(gate_fence, first, *small, 0, 4, 1, 1));
  ExpectOk(device_->QueueFill(first, second, *small, 0, 4, 2, 1));
  gate->Fail(Status(StatusCode::kDataLoss, "upstream"));
  EXPECT_EQ(second->Wait(Timeout::After(kWait)).code(), StatusCode::kDataLoss);
  EXPECT_EQ(first->Query().code(), StatusCode::kDataLoss);

  // A link submitted early (its wait fence promised by a slow submission
  // still running) fails when the promised timepoint fails instead.
  Ref<Semaphore> timeline = Semaphore::Create(0);
  Ref<Fence> slow_done = Fence::Create();
  slow_done->Insert(timeline, 1);
  Ref<Fence> after = Fence::CreateWithNewSemaphore();
  const uint64_t pipelined = device_->pipelined_submissions();
  // Slow: many large fills in one submission.
  Result<Ref<CommandBuffer>> slow = device_->CreateCommandBuffer(
      CommandBufferMode::kOneShot, CommandCategory::kAny, 0);
  ASSERT_TRUE(slow.ok());
  for (int i = 0; i < 40; ++i) {
    ExpectOk((*slow)->Fill({{*big, 0, 0, kBig}, uint64_t(i), 1}));
  }
  ExpectOk((*slow)->Finalize());
  ExpectOk(device_->QueueExecute(nullptr, slow_done, *slow, {}));
  ExpectOk(device_->QueueFill(slow_done, after, *small, 0, 4, 3, 1));
  // Fail the timepoint once the second fill is on the queue (else it would
  // just see the failure before submitting).
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (device_->pipelined_submissions() == pipelined &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  timeline->Fail(Status(StatusCode::kCancelled, "cancelled by the host"));
  EXPECT_EQ(after->Wait(Timeout::After(kWait)).code(), StatusCode::kCancelled);
  ExpectOk(device_->WaitIdle(Timeout::After(kWait)));
}

TEST_F(VulkanDeviceTest, ReplaysCommandBuffersWithBindingTables) {
  device_ = MakeDevice();
  ASSERT_TRUE(device_);
  Result<Ref<CommandBuffer>> commands = device_->CreateCommandBuffer(
      CommandBufferMode::kNone, CommandCategory::kAny, 2);
  ASSERT_TRUE(commands.ok());
  // slot 0: source, slot 1: target.
  ExpectOk((*commands)->Fill({{nullptr, 0, 0, 32}, 0x01020304, 4}));
  ExpectOk((*commands)->ExecutionBarrier());
  ExpectOk((*commands)->Update({{9, 8, 7}, {nullptr, 0, 1, 3}}));
  ExpectOk((*commands)->Copy({{nullptr, 0, 0, 32}, {nullptr, 1, 2, 32}, 32}));
  ExpectOk((*commands)->Fill({{nullptr, 1, 34, 2}, 0xFF, 1}));
  ExpectOk((*commands)->Finalize());
  for (int round = 0; round < 3; ++round) {
    Result<Ref<Buffer>> source =
        device_->allocator().Allocate(BufferParams{}, 64);
    Result<Ref<Buffer>> target =
        device_->allocator().Allocate(BufferParams{}, 64);
    ASSERT_TRUE(source.ok() && target.ok());
    // The table's entries are ranges: slot 0 starts 8 bytes in.
    std::vector<Binding> table = {{*source, 8, 40}, {*target, 0, 36}};
    Ref<Fence> done = Fence::CreateWithNewSemaphore();
    ExpectOk(device_->QueueExecute(nullptr, done, *commands, table));
    ExpectOk(done->Wait(Timeout::After(kWait)));
    std::vector<uint8_t> expected_source(64, 0);
    for (int i = 0; i < 32; ++i) expected_source[8 + i] = uint8_t(4 - i % 4);
    expected_source[9] = 9;
    expected_source[10] = 8;
    expected_source[11] = 7;
    std::vector<uint8_t> expected_target(64, 0);
    std::memcpy(expected_target.data() + 2, expected_source.data() + 8, 32);
    expected_target[34] = expected_target[35] = 0xFF;
    EXPECT_EQ(Read(*source), expected_source);
    EXPECT_EQ(Read(*target), expected_target);
  }
  // A table too short for the slots, and a range beyond a table entry.
  Result<Ref<Buffer>> small = device_->allocator().Allocate(BufferParams{}, 16);
  ASSERT_TRUE(small.ok());
  std::vector<Binding> one = {{*small, 0, 16}};
  EXPECT_FALSE(device_->QueueExecute(nullptr, nullptr, *commands, one).ok());
  std::vector<Binding> short_ranges = {{*small, 0, 16}, {*small, 0, 16}};
  Ref<Fence> failed = Fence::CreateWithNewSemaphore();
  EXPECT_EQ(
      device_->QueueExecute(nullptr, failed, *commands, short_ranges).code(),
      StatusCode::kOutOfRange);
  EXPECT_EQ(failed->Query().code(), StatusCode::kOutOfRange);
  // An unfinalized command buffer is refused.
  Result<Ref<CommandBuffer>> open = device_->CreateCommandBuffer(
      CommandBufferMode::kNone, CommandCategory::kAny, 0);
  ASSERT_TRUE(open.ok());
  EXPECT_EQ(device_->QueueExecute(nullptr, nullptr, *open, {}).code(),
            StatusCode::kFailedPrecondition);
  // A foreign buffer named directly by a command.
  Ref<Allocator> heap = Allocator::CreateHeap();
  Result<Ref<Buffer>> foreign = heap->Allocate(BufferParams{}, 16);
  Result<Ref<CommandBuffer>> bad = device_->CreateCommandBuffer(
      CommandBufferMode::kNone, CommandCategory::kAny, 0);
  ASSERT_TRUE(bad.ok() && foreign.ok());
  ExpectOk((*bad)->Fill({{*foreign, 0, 0, 16}, 0, 1}));
  ExpectOk((*bad)->Finalize());
  EXPECT_EQ(device_->QueueExecute(nullptr, nullptr, *bad, {}).code(),
            StatusCode::kInvalidArgument);
}

TEST_F(VulkanDeviceTest, ImportsAlignedHostMemory) {
  device_ = MakeDevice();
  ASSERT_TRUE(device_);
  if (!device_->context()->has_external_memory_host()) {
    GTEST_SKIP() << "no VK_EXT_external_memory_host";
  }
  const size_t alignment = std::max<size_t>(
      64, device_->context()->min_imported_host_pointer_alignment());
  const size_t size = alignment * 2;
  auto* memory = static_cast<uint8_t*>(std::aligned_alloc(alignment, size));
  ASSERT_NE(memory, nullptr);
  std::memset(memory, 0, size);
  int released = 0;
  BufferParams params;
  EXPECT_TRUE(device_->allocator().CanImport(params, {memory, size}));
  {
    Result<Ref<Buffer>> imported = device_->allocator().Import(
        params, {memory, size}, [&] { ++released; });
    ASSERT_TRUE(imported.ok()) << imported.status().ToString();
    EXPECT_EQ(device_->allocator().statistics().bytes_imported, size);
    Ref<Fence> done = Fence::CreateWithNewSemaphore();
    ExpectOk(device_->QueueFill(nullptr, done, *imported, 8, 8, 0x3C, 1));
    ExpectOk(done->Wait(Timeout::After(kWait)));
    EXPECT_EQ(memory[7], 0);
    EXPECT_EQ(memory[8], 0x3C);
    EXPECT_EQ(memory[15], 0x3C);
    EXPECT_EQ(memory[16], 0);
    EXPECT_EQ(released, 0);
  }
  EXPECT_EQ(released, 1);
  EXPECT_EQ(device_->allocator().statistics().bytes_imported, 0u);
  // Misaligned memory is UNAVAILABLE (the caller copies), and the release
  // still runs.
  EXPECT_FALSE(device_->allocator().CanImport(params, {memory + 1, 64}));
  Result<Ref<Buffer>> misaligned = device_->allocator().Import(
      params, {memory + 1, 64}, [&] { ++released; });
  EXPECT_EQ(misaligned.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(released, 2);
  std::free(memory);
}

}  // namespace
}  // namespace ember::hal::vulkan
