#include "runtime/hal/buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer_view.h"

namespace ember::hal {
namespace {

TEST(CalculateRangeTest, BoundsAndWholeBuffer) {
  EXPECT_EQ(*CalculateRange(100, 0, kWholeBuffer), 100u);
  EXPECT_EQ(*CalculateRange(100, 40, kWholeBuffer), 60u);
  EXPECT_EQ(*CalculateRange(100, 100, 0), 0u);
  EXPECT_EQ(*CalculateRange(100, 10, 90), 90u);
  EXPECT_EQ(CalculateRange(100, 10, 91).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(CalculateRange(100, 101, 0).status().code(),
            StatusCode::kOutOfRange);
  // offset + length wraps around 2^64: still out of range, never a clamp.
  EXPECT_EQ(CalculateRange(100, 10, ~uint64_t{0} - 5).status().code(),
            StatusCode::kOutOfRange);
}

TEST(AllocatorTest, AllocateIsAlignedZeroedAndCounted) {
  auto allocator = Allocator::CreateHeap();
  {
    auto buffer = allocator->Allocate(BufferParams{}, 1000);
    ASSERT_TRUE(buffer.ok());
    EXPECT_EQ((*buffer)->byte_length(), 1000u);
    auto mapping = (*buffer)->Map(MappingMode::kScoped, MemoryAccess::kRead, 0,
                                  kWholeBuffer);
    ASSERT_TRUE(mapping.ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(mapping->data()) % kBufferAlignment,
              0u);
    for (uint8_t byte : mapping->contents()) ASSERT_EQ(byte, 0);
    EXPECT_EQ(allocator->statistics().bytes_allocated, 1000u);
    EXPECT_EQ(allocator->statistics().bytes_peak, 1000u);
  }
  AllocatorStatistics stats = allocator->statistics();
  EXPECT_EQ(stats.bytes_allocated, 0u);
  EXPECT_EQ(stats.bytes_peak, 1000u);
  EXPECT_EQ(stats.allocation_count, 1u);
  EXPECT_EQ(
      allocator->Allocate(BufferParams{}, uint64_t{1} << 62).status().code(),
      StatusCode::kResourceExhausted);
}

TEST(AllocatorTest, CopiesAndReusedBlocksHoldExactlyTheirBytes) {
  auto allocator = Allocator::CreateHeap();
  std::vector<uint8_t> source(1000);
  for (size_t i = 0; i < source.size(); ++i) {
    source[i] = static_cast<uint8_t>(i * 7 + 1);
  }
  for (int round = 0; round < 3; ++round) {
    // A copy (filled as it is allocated) and, in its reused block, a plain
    // allocation: the copy's bytes must not show through.
    {
      Ref<Buffer> copy = *allocator->AllocateCopy(BufferParams{}, source);
      auto mapping =
          copy->Map(MappingMode::kScoped, MemoryAccess::kRead, 0, kWholeBuffer);
      ASSERT_TRUE(mapping.ok());
      ASSERT_EQ(mapping->contents().size(), source.size());
      EXPECT_TRUE(std::equal(source.begin(), source.end(),
                             mapping->contents().begin()));
    }
    Ref<Buffer> fresh = *allocator->Allocate(BufferParams{}, 1000);
    auto mapping =
        fresh->Map(MappingMode::kScoped, MemoryAccess::kRead, 0, kWholeBuffer);
    ASSERT_TRUE(mapping.ok());
    for (uint8_t byte : mapping->contents()) ASSERT_EQ(byte, 0) << round;
  }
  EXPECT_EQ(allocator->statistics().allocation_count, 6u);
  Ref<Buffer> empty = *allocator->AllocateCopy(BufferParams{}, {});
  EXPECT_EQ(empty->byte_length(), 0u);
}

TEST(AllocatorTest, ImportKeepsOwnerUntilLastReference) {
  auto allocator = Allocator::CreateHeap();
  std::vector<uint8_t> host(64, 7);
  int released = 0;
  Ref<Buffer> subspan;
  {
    auto buffer =
        allocator->Import(BufferParams{}, host, [&released] { ++released; });
    ASSERT_TRUE(buffer.ok());
    EXPECT_EQ(allocator->statistics().bytes_imported, 64u);
    EXPECT_EQ(allocator->statistics().bytes_allocated, 0u);
    auto cut = Buffer::Subspan(*buffer, 8, 16);
    ASSERT_TRUE(cut.ok());
    subspan = *cut;
  }
  EXPECT_EQ(released, 0) << "the subspan keeps the import alive";
  auto mapping =
      subspan->Map(MappingMode::kScoped, MemoryAccess::kWrite, 0, 16);
  ASSERT_TRUE(mapping.ok());
  EXPECT_EQ(mapping->data(), host.data() + 8) << "no copy";
  std::memset(mapping->data(), 9, 16);
  EXPECT_EQ(host[8], 9);
  EXPECT_EQ(host[24], 7);
  mapping = BufferMapping();
  subspan = nullptr;
  EXPECT_EQ(released, 1);
  EXPECT_EQ(allocator->statistics().bytes_imported, 0u);
}

TEST(AllocatorTest, PerHeapTotalsFollowIreesRule) {
  auto allocator = Allocator::CreateHeap();
  BufferParams host_params;
  host_params.type = MemoryType::kHostLocal | MemoryType::kDeviceVisible;
  BufferParams device_params;  // DEVICE_LOCAL | HOST_VISIBLE
  {
    Ref<Buffer> a = *allocator->Allocate(device_params, 100);
    Ref<Buffer> b = *allocator->Allocate(host_params, 30);
    {
      Ref<Buffer> c = *allocator->Allocate(device_params, 50);
      AllocatorStatistics stats = allocator->statistics();
      EXPECT_EQ(stats.device_bytes_allocated, 150u);
      EXPECT_EQ(stats.device_bytes_peak, 150u);
      EXPECT_EQ(stats.device_bytes_freed, 0u);
      EXPECT_EQ(stats.host_bytes_allocated, 30u);
      EXPECT_EQ(stats.host_bytes_peak, 30u);
    }
    // A new allocation smaller than the freed one leaves the peak alone.
    Ref<Buffer> d = *allocator->Allocate(device_params, 20);
    AllocatorStatistics stats = allocator->statistics();
    EXPECT_EQ(stats.device_bytes_allocated, 170u);
    EXPECT_EQ(stats.device_bytes_freed, 50u);
    EXPECT_EQ(stats.device_bytes_peak, 150u);
  }
  // An import is counted apart, in neither heap.
  std::vector<uint8_t> host(64);
  auto imported = allocator->Import(host_params, host, nullptr);
  ASSERT_TRUE(imported.ok());
  AllocatorStatistics stats = allocator->statistics();
  EXPECT_EQ(stats.device_bytes_allocated, 170u);
  EXPECT_EQ(stats.device_bytes_freed, 170u);
  EXPECT_EQ(stats.host_bytes_allocated, 30u);
  EXPECT_EQ(stats.host_bytes_freed, 30u);
  EXPECT_EQ(stats.host_bytes_peak, 30u);
  EXPECT_EQ(stats.bytes_allocated, 0u);
}

TEST(BufferTest, SubspansAreCheckedAndFlat) {
  auto allocator = Allocator::CreateHeap();
  Ref<Buffer> buffer = *allocator->Allocate(BufferParams{}, 256);
  auto whole = Buffer::Subspan(buffer, 0, kWholeBuffer);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->get(), buffer.get());
  Ref<Buffer> a = *Buffer::Subspan(buffer, 64, 128);
  Ref<Buffer> b = *Buffer::Subspan(a, 32, 32);
  EXPECT_EQ(b->byte_offset(), 96u);
  EXPECT_EQ(&b->allocated_buffer(), buffer.get());
  EXPECT_EQ(b->allocation_size(), 256u);
  EXPECT_EQ(Buffer::Subspan(a, 100, 29).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(Buffer::Subspan(a, 129, kWholeBuffer).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_TRUE(a->Overlaps(*b, 0, 128, 0, 32));
  EXPECT_FALSE(a->Overlaps(*b, 0, 32, 0, 32));
  EXPECT_FALSE(a->Overlaps(*b, 0, 128, 0, 0));
}

// As IREE's heap allocator: every buffer it makes or imports is host
// visible, not "optimal", mappable (scoped, persistent, random access) and
// usable for transfers; access bits are kept as asked.
TEST(BufferTest, TheHeapAllocatorWidensParametersAsIreeDoes) {
  auto allocator = Allocator::CreateHeap();
  BufferParams asked;
  asked.type = MemoryType::kDeviceLocal | MemoryType::kOptimal;
  asked.usage = BufferUsage::kDispatchStorage;
  asked.access = MemoryAccess::kRead;
  for (int imported = 0; imported < 2; ++imported) {
    std::vector<uint8_t> host(16);
    Ref<Buffer> buffer = imported ? *allocator->Import(asked, host, nullptr)
                                  : *allocator->Allocate(asked, 16);
    EXPECT_EQ(buffer->memory_type(),
              MemoryType::kDeviceLocal | MemoryType::kHostVisible);
    EXPECT_EQ(buffer->allowed_usage(), BufferUsage::kDispatchStorage |
                                           BufferUsage::kTransfer |
                                           BufferUsage::kMappingScoped |
                                           BufferUsage::kMappingPersistent |
                                           BufferUsage::kMappingAccessRandom);
    EXPECT_EQ(buffer->allowed_access(), MemoryAccess::kRead);
  }
  EXPECT_EQ(static_cast<uint32_t>(BufferUsage::kMapping), 0x09000000u);
}

TEST(BufferTest, AccessAndUsageAreValidated) {
  auto allocator = Allocator::CreateHeap();
  std::vector<uint8_t> host(16);
  BufferParams read_only;
  read_only.access = MemoryAccess::kRead;
  read_only.usage = BufferUsage::kTransferSource | BufferUsage::kMappingScoped;
  // Wrapped directly: the heap allocator would widen the usage (below).
  Ref<Buffer> buffer = Buffer::WrapAllocation(host.data(), 16, read_only,
                                              std::function<void()>());
  EXPECT_TRUE(
      buffer->Map(MappingMode::kScoped, MemoryAccess::kRead, 0, 16).ok());
  auto write = buffer->Map(MappingMode::kScoped, MemoryAccess::kWrite, 0, 16);
  EXPECT_EQ(write.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(write.status().ToString().find("buffer allows READ"),
            std::string::npos)
      << write.status().ToString();
  EXPECT_EQ(buffer->Map(MappingMode::kPersistent, MemoryAccess::kRead, 0, 16)
                .status()
                .code(),
            StatusCode::kPermissionDenied)
      << "persistent mapping needs MAPPING_PERSISTENT usage";
  EXPECT_EQ(buffer->Map(MappingMode::kScoped, MemoryAccess::kNone, 0, 16)
                .status()
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(buffer->ValidateUsage(BufferUsage::kDispatchStorageWrite).code(),
            StatusCode::kPermissionDenied);
  EXPECT_TRUE(buffer->ValidateUsage(BufferUsage::kTransferSource).ok());
  EXPECT_EQ(buffer->Map(MappingMode::kScoped, MemoryAccess::kRead, 8, 9)
                .status()
                .code(),
            StatusCode::kOutOfRange);
}

TEST(BufferViewTest, ShapeMustFitTheBuffer) {
  auto allocator = Allocator::CreateHeap();
  Ref<Buffer> buffer = *allocator->Allocate(BufferParams{}, 24);
  const int64_t shape[] = {2, 3};
  auto view = BufferView::Create(buffer, shape, ElementType::kFloat32,
                                 EncodingType::kDenseRowMajor);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ((*view)->element_count(), 6u);
  EXPECT_EQ((*view)->ShapeAndTypeString(), "2x3xf32");
  const int64_t too_big[] = {2, 4};
  EXPECT_EQ(BufferView::Create(buffer, too_big, ElementType::kFloat32,
                               EncodingType::kDenseRowMajor)
                .status()
                .code(),
            StatusCode::kOutOfRange);
  const int64_t negative[] = {2, -1};
  EXPECT_EQ(BufferView::Create(buffer, negative, ElementType::kFloat32,
                               EncodingType::kDenseRowMajor)
                .status()
                .code(),
            StatusCode::kInvalidArgument);
  const int64_t overflow[] = {int64_t{1} << 40, int64_t{1} << 40};
  EXPECT_EQ(BufferView::Create(buffer, overflow, ElementType::kFloat32,
                               EncodingType::kDenseRowMajor)
                .status()
                .code(),
            StatusCode::kOutOfRange);
  std::vector<int64_t> deep(kMaxRank + 1, 1);
  EXPECT_EQ(BufferView::Create(buffer, deep, ElementType::kInt8,
                               EncodingType::kDenseRowMajor)
                .status()
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(DenseByteLength(shape, ElementType::kInt4).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ember::hal
