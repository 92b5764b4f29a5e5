#include "runtime/vm/buffer.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace ember::vm {
namespace {

constexpr BufferAccess kGuestMutable =
    BufferAccess::kMutable | BufferAccess::kOriginGuest;
constexpr uint64_t kHuge = std::numeric_limits<uint64_t>::max();

Ref<Buffer> MakeBuffer(uint64_t length, uint64_t alignment = 0) {
  Result<Ref<Buffer>> buffer =
      Buffer::Allocate(length, alignment, kGuestMutable);
  EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
  return std::move(buffer).value();
}

// A buffer holding 0, 1, 2, ... length-1.
Ref<Buffer> MakeCounting(uint64_t length) {
  Ref<Buffer> buffer = MakeBuffer(length);
  for (uint64_t i = 0; i < length; ++i) {
    EXPECT_TRUE(buffer->StoreElement<uint8_t>(i, static_cast<uint8_t>(i)).ok());
  }
  return buffer;
}

class Owner : public RefCounted {
 public:
  explicit Owner(int* destroyed) : destroyed_(destroyed) {}
  ~Owner() override { ++*destroyed_; }

 private:
  int* destroyed_;
};

TEST(BufferTest, TypeIsVmBuffer) {
  EXPECT_EQ(Buffer::Type().name(), "vm.buffer");
  EXPECT_EQ(&Buffer::Type(), &Buffer::Type());  // one descriptor
}

TEST(BufferTest, AllocateIsZeroedAndAligned) {
  for (uint64_t alignment : {0u, 1u, 16u, 64u, 4096u}) {
    Ref<Buffer> buffer = MakeBuffer(100, alignment);
    EXPECT_EQ(buffer->length(), 100u);
    EXPECT_EQ(buffer->access(), kGuestMutable);
    EXPECT_TRUE(buffer->is_mutable());
    uintptr_t address = reinterpret_cast<uintptr_t>(buffer->bytes().data());
    EXPECT_EQ(
        address % std::max<uint64_t>(alignment, alignof(std::max_align_t)), 0u);
    for (uint8_t byte : buffer->bytes()) EXPECT_EQ(byte, 0);
  }
}

TEST(BufferTest, AllocateEmpty) {
  Ref<Buffer> buffer = MakeBuffer(0);
  EXPECT_EQ(buffer->length(), 0u);
  EXPECT_TRUE(buffer->MapReadOnly(0, 0).ok());
  EXPECT_EQ(buffer->MapReadOnly(1, 0).status().code(), StatusCode::kOutOfRange);
}

TEST(BufferTest, AllocateRejectsBadAlignment) {
  EXPECT_EQ(Buffer::Allocate(8, 3, kGuestMutable).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Buffer::Allocate(8, 48, kGuestMutable).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(BufferTest, AllocateRejectsHostileSizes) {
  EXPECT_EQ(Buffer::Allocate(kHuge, 0, kGuestMutable).status().code(),
            StatusCode::kResourceExhausted);
  // A negative i64 length as the VM would pass it.
  EXPECT_EQ(
      Buffer::Allocate(static_cast<uint64_t>(int64_t{-1}), 0, kGuestMutable)
          .status()
          .code(),
      StatusCode::kResourceExhausted);
  EXPECT_EQ(Buffer::Allocate(Buffer::kMaxAllocationLength, 0, kGuestMutable)
                .status()
                .code(),
            StatusCode::kResourceExhausted);
  // Length and alignment together must fit.
  EXPECT_EQ(Buffer::Allocate(Buffer::kMaxAllocationLength - 64, 1u << 20,
                             kGuestMutable)
                .status()
                .code(),
            StatusCode::kResourceExhausted);
  // 1 << 63 is a power of two but absurd.
  EXPECT_EQ(
      Buffer::Allocate(1, uint64_t{1} << 63, kGuestMutable).status().code(),
      StatusCode::kResourceExhausted);
}

TEST(BufferTest, WrapExternalReadOnlyKeepsRefOwnerAlive) {
  static const uint8_t kRodata[] = {1, 2, 3, 4, 5, 6, 7, 8};
  int destroyed = 0;
  Ref<Owner> owner = MakeRef<Owner>(&destroyed);
  Result<Ref<Buffer>> wrapped =
      Buffer::WrapExternal(kRodata, BufferAccess::kOriginModule, owner);
  ASSERT_TRUE(wrapped.ok()) << wrapped.status().ToString();
  Ref<Buffer> buffer = std::move(wrapped).value();
  EXPECT_EQ(buffer->bytes().data(), kRodata);
  EXPECT_EQ(buffer->length(), 8u);
  EXPECT_FALSE(buffer->is_mutable());
  EXPECT_EQ(owner->reference_count_for_testing(), 2u);
  owner.reset();
  EXPECT_EQ(destroyed, 0);
  buffer.reset();
  EXPECT_EQ(destroyed, 1);
}

TEST(BufferTest, WrapExternalKeepsSharedOwnerAlive) {
  auto storage = std::make_shared<std::vector<uint8_t>>(16, 0xAB);
  std::weak_ptr<std::vector<uint8_t>> watch = storage;
  std::span<const uint8_t> bytes(*storage);
  Result<Ref<Buffer>> buffer = Buffer::WrapExternal(
      bytes, BufferAccess::kOriginHost, std::move(storage));
  ASSERT_TRUE(buffer.ok());
  EXPECT_FALSE(watch.expired());
  EXPECT_EQ(buffer.value()->LoadElement<uint8_t>(15).value(), 0xAB);
  buffer.value().reset();
  EXPECT_TRUE(watch.expired());
}

TEST(BufferTest, WrapExternalRunsReleaseCallbackOnce) {
  static const uint8_t kBytes[4] = {};
  int released = 0;
  {
    Result<Ref<Buffer>> buffer = Buffer::WrapExternal(
        kBytes, BufferAccess::kOriginHost,
        std::function<void()>([&released] { ++released; }));
    ASSERT_TRUE(buffer.ok());
    Ref<Buffer> copy = buffer.value();
    EXPECT_EQ(released, 0);
  }
  EXPECT_EQ(released, 1);
}

TEST(BufferTest, WrapExternalReadOnlyCannotBeMutable) {
  static const uint8_t kBytes[4] = {};
  EXPECT_EQ(
      Buffer::WrapExternal(kBytes, BufferAccess::kMutable, {}).status().code(),
      StatusCode::kInvalidArgument);
}

TEST(BufferTest, WrapExternalMutableWritesThrough) {
  std::array<uint8_t, 8> memory{};
  Result<Ref<Buffer>> buffer = Buffer::WrapExternalMutable(
      memory, BufferAccess::kMutable | BufferAccess::kOriginHost, {});
  ASSERT_TRUE(buffer.ok());
  ASSERT_TRUE(buffer.value()->StoreElement<uint16_t>(3, 0xBEEF).ok());
  EXPECT_EQ(memory[6], 0xEF);
  EXPECT_EQ(memory[7], 0xBE);
}

TEST(BufferTest, ImmutableBufferRejectsEveryWrite) {
  static const uint8_t kBytes[16] = {};
  Ref<Buffer> rodata =
      Buffer::WrapExternal(kBytes, BufferAccess::kOriginModule, {}).value();
  Ref<Buffer> other = MakeBuffer(16);
  const StatusCode kDenied = StatusCode::kPermissionDenied;
  EXPECT_EQ(rodata->StoreElement<int32_t>(0, 1).code(), kDenied);
  EXPECT_EQ(rodata->FillElements<float>(0, 1, 1.0f).code(), kDenied);
  EXPECT_EQ(rodata->FillBytes(0, 1, 1).code(), kDenied);
  EXPECT_EQ(rodata->MapMutable(0, 1).status().code(), kDenied);
  EXPECT_EQ(Buffer::Copy(*other, 0, *rodata, 0, 4).code(), kDenied);
  // Permission is checked before the range, as in IREE.
  EXPECT_EQ(rodata->StoreElement<int32_t>(kHuge, 1).code(), kDenied);
  // Reading is fine.
  EXPECT_TRUE(rodata->LoadElement<int32_t>(3).ok());
  EXPECT_TRUE(Buffer::Copy(*rodata, 0, *other, 0, 16).ok());
  EXPECT_TRUE(Buffer::Compare(*rodata, 0, *other, 0, 16).value());
}

TEST(BufferTest, ElementAccessIsElementIndexed) {
  Ref<Buffer> buffer = MakeBuffer(16);
  ASSERT_TRUE(buffer->StoreElement<uint32_t>(1, 0x11223344).ok());
  // Element 1 of i32 is bytes 4..7, little-endian.
  EXPECT_EQ(buffer->LoadElement<uint8_t>(4).value(), 0x44);
  EXPECT_EQ(buffer->LoadElement<uint8_t>(7).value(), 0x11);
  EXPECT_EQ(buffer->LoadElement<uint16_t>(2).value(), 0x3344);
  EXPECT_EQ(buffer->LoadElement<uint16_t>(3).value(), 0x1122);
  EXPECT_EQ(buffer->LoadElement<int32_t>(1).value(), 0x11223344);
  EXPECT_EQ(buffer->LoadElement<int64_t>(0).value(), int64_t{0x11223344} << 32);

  ASSERT_TRUE(buffer->StoreElement<double>(1, 2.5).ok());
  EXPECT_EQ(buffer->LoadElement<double>(1).value(), 2.5);
  ASSERT_TRUE(buffer->StoreElement<float>(0, -1.0f).ok());
  EXPECT_EQ(buffer->LoadElement<float>(0).value(), -1.0f);
}

TEST(BufferTest, SignedAndUnsignedLoads) {
  Ref<Buffer> buffer = MakeBuffer(4);
  ASSERT_TRUE(buffer->StoreElement<uint8_t>(0, 0xFF).ok());
  ASSERT_TRUE(buffer->StoreElement<uint16_t>(1, 0x8001).ok());
  EXPECT_EQ(buffer->LoadElement<int8_t>(0).value(), -1);
  EXPECT_EQ(buffer->LoadElement<uint8_t>(0).value(), 255);
  EXPECT_EQ(buffer->LoadElement<int16_t>(1).value(), -32767);
  EXPECT_EQ(buffer->LoadElement<uint16_t>(1).value(), 0x8001);
}

TEST(BufferTest, ElementBoundsAreExact) {
  Ref<Buffer> buffer = MakeBuffer(16);
  EXPECT_TRUE(buffer->LoadElement<int32_t>(3).ok());
  EXPECT_EQ(buffer->LoadElement<int32_t>(4).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_TRUE(buffer->LoadElement<int64_t>(1).ok());
  EXPECT_EQ(buffer->LoadElement<int64_t>(2).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(buffer->StoreElement<int16_t>(8, 1).code(),
            StatusCode::kOutOfRange);
  EXPECT_TRUE(buffer->FillElements<int32_t>(0, 4, 7).ok());
  EXPECT_EQ(buffer->FillElements<int32_t>(1, 4, 7).code(),
            StatusCode::kOutOfRange);
  // An empty fill at the very end is valid; one past it is not.
  EXPECT_TRUE(buffer->FillElements<int32_t>(4, 0, 7).ok());
  EXPECT_EQ(buffer->FillElements<int32_t>(5, 0, 7).code(),
            StatusCode::kOutOfRange);
}

TEST(BufferTest, ElementOffsetsThatOverflowAreOutOfRange) {
  Ref<Buffer> buffer = MakeBuffer(64);
  // offset * 8 wraps to a small number; a naive check would accept it.
  const uint64_t wraps_to_zero = uint64_t{1} << 61;
  EXPECT_EQ(buffer->LoadElement<int64_t>(wraps_to_zero).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(buffer->StoreElement<int32_t>(uint64_t{1} << 62, 1).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(buffer->FillElements<int64_t>(0, wraps_to_zero, 1).code(),
            StatusCode::kOutOfRange);
  // offset + count wraps.
  EXPECT_EQ(buffer->FillElements<uint8_t>(1, kHuge, 1).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(buffer->FillElements<uint16_t>(kHuge / 2, 2, 1).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(buffer->LoadElement<uint8_t>(kHuge).status().code(),
            StatusCode::kOutOfRange);
  for (uint8_t byte : buffer->bytes()) EXPECT_EQ(byte, 0);
}

TEST(BufferTest, FillElementsWritesOnlyTheRange) {
  Ref<Buffer> buffer = MakeBuffer(16);
  ASSERT_TRUE(buffer->FillElements<uint16_t>(2, 3, 0xA1B2).ok());
  const uint8_t expected[16] = {0,    0,    0, 0, 0xB2, 0xA1, 0xB2, 0xA1,
                                0xB2, 0xA1, 0, 0, 0,    0,    0,    0};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(buffer->bytes()[i], expected[i]) << i;

  ASSERT_TRUE(buffer->FillElements<double>(1, 1, 1.0).ok());
  EXPECT_EQ(buffer->LoadElement<double>(1).value(), 1.0);
  EXPECT_EQ(buffer->LoadElement<uint16_t>(2).value(), 0xA1B2);

  ASSERT_TRUE(buffer->FillBytes(1, 2, 0x7F).ok());
  EXPECT_EQ(buffer->bytes()[0], 0);
  EXPECT_EQ(buffer->bytes()[1], 0x7F);
  EXPECT_EQ(buffer->bytes()[2], 0x7F);
  EXPECT_EQ(buffer->bytes()[3], 0);
}

TEST(BufferTest, UnalignedExternalMemoryIsReadSafely) {
  // Element offsets are aligned to the buffer start, but a wrapped span need
  // not be aligned in memory.
  alignas(8) uint8_t memory[17] = {};
  Ref<Buffer> buffer =
      Buffer::WrapExternalMutable(std::span<uint8_t>(memory + 1, 16),
                                  BufferAccess::kMutable, {})
          .value();
  ASSERT_TRUE(buffer->StoreElement<int64_t>(1, -2).ok());
  EXPECT_EQ(buffer->LoadElement<int64_t>(1).value(), -2);
  EXPECT_EQ(memory[9], 0xFE);
}

TEST(BufferTest, CloneCopiesAByteRange) {
  Ref<Buffer> source = MakeCounting(32);
  Result<Ref<Buffer>> clone = Buffer::Clone(*source, 5, 10, 64, kGuestMutable);
  ASSERT_TRUE(clone.ok()) << clone.status().ToString();
  EXPECT_EQ(clone.value()->length(), 10u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(clone.value()->bytes().data()) % 64,
            0u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(clone.value()->bytes()[i], 5 + i);
  // The clone is independent of its source.
  ASSERT_TRUE(clone.value()->StoreElement<uint8_t>(0, 99).ok());
  EXPECT_EQ(source->LoadElement<uint8_t>(5).value(), 5);
}

TEST(BufferTest, CloneOfRodataIsMutableAndAccessIsAsGiven) {
  static const uint8_t kBytes[4] = {9, 8, 7, 6};
  Ref<Buffer> rodata =
      Buffer::WrapExternal(kBytes, BufferAccess::kOriginModule, {}).value();
  Ref<Buffer> clone = Buffer::Clone(*rodata, 0, 4, 0, kGuestMutable).value();
  EXPECT_TRUE(clone->is_mutable());
  EXPECT_TRUE(clone->StoreElement<uint8_t>(0, 1).ok());
  EXPECT_EQ(kBytes[0], 9);
  Ref<Buffer> read_only =
      Buffer::Clone(*rodata, 1, 2, 0, BufferAccess::kOriginGuest).value();
  EXPECT_EQ(read_only->StoreElement<uint8_t>(0, 1).code(),
            StatusCode::kPermissionDenied);
}

TEST(BufferTest, CloneRangeErrors) {
  Ref<Buffer> source = MakeCounting(8);
  EXPECT_EQ(Buffer::Clone(*source, 4, 5, 0, kGuestMutable).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(Buffer::Clone(*source, kHuge, 2, 0, kGuestMutable).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(Buffer::Clone(*source, 2, kHuge, 0, kGuestMutable).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(Buffer::Clone(*source, 0, 8, 5, kGuestMutable).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_TRUE(Buffer::Clone(*source, 8, 0, 0, kGuestMutable).ok());
}

TEST(BufferTest, CopyIsByteIndexed) {
  Ref<Buffer> source = MakeCounting(16);
  Ref<Buffer> target = MakeBuffer(16);
  ASSERT_TRUE(Buffer::Copy(*source, 3, *target, 10, 6).ok());
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(target->bytes()[i], (i >= 10) ? 3 + (i - 10) : 0) << i;
  }
  EXPECT_EQ(Buffer::Copy(*source, 3, *target, 11, 6).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(Buffer::Copy(*source, 11, *target, 0, 6).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(Buffer::Copy(*source, 0, *target, 1, kHuge).code(),
            StatusCode::kOutOfRange);
  EXPECT_TRUE(Buffer::Copy(*source, 16, *target, 16, 0).ok());
}

TEST(BufferTest, CopyWithinOneBufferHandlesOverlap) {
  Ref<Buffer> buffer = MakeCounting(10);
  ASSERT_TRUE(Buffer::Copy(*buffer, 0, *buffer, 2, 8).ok());
  const uint8_t forward[10] = {0, 1, 0, 1, 2, 3, 4, 5, 6, 7};
  for (int i = 0; i < 10; ++i) EXPECT_EQ(buffer->bytes()[i], forward[i]) << i;

  buffer = MakeCounting(10);
  ASSERT_TRUE(Buffer::Copy(*buffer, 2, *buffer, 0, 8).ok());
  const uint8_t backward[10] = {2, 3, 4, 5, 6, 7, 8, 9, 8, 9};
  for (int i = 0; i < 10; ++i) EXPECT_EQ(buffer->bytes()[i], backward[i]) << i;
}

TEST(BufferTest, CompareByteRanges) {
  Ref<Buffer> a = MakeCounting(16);
  Ref<Buffer> b = MakeBuffer(16);
  ASSERT_TRUE(Buffer::Copy(*a, 4, *b, 0, 8).ok());
  EXPECT_TRUE(Buffer::Compare(*a, 4, *b, 0, 8).value());
  EXPECT_FALSE(Buffer::Compare(*a, 4, *b, 0, 9).value());
  EXPECT_FALSE(Buffer::Compare(*a, 0, *b, 0, 1).value());  // 0 vs 4
  EXPECT_TRUE(Buffer::Compare(*a, 0, *b, 8, 1).value());   // 0 vs 0
  EXPECT_TRUE(Buffer::Compare(*a, 16, *b, 16, 0).value());
  EXPECT_EQ(Buffer::Compare(*a, 10, *b, 0, 7).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(Buffer::Compare(*a, 0, *b, kHuge, 1).status().code(),
            StatusCode::kOutOfRange);
}

TEST(BufferTest, MapChecksRanges) {
  Ref<Buffer> buffer = MakeCounting(8);
  Result<std::span<const uint8_t>> span = buffer->MapReadOnly(2, 3);
  ASSERT_TRUE(span.ok());
  EXPECT_EQ(span.value().size(), 3u);
  EXPECT_EQ(span.value()[0], 2);
  EXPECT_EQ(buffer->MapReadOnly(2, 7).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(buffer->MapMutable(kHuge, 2).status().code(),
            StatusCode::kOutOfRange);
  Result<std::span<uint8_t>> writable = buffer->MapMutable(7, 1);
  ASSERT_TRUE(writable.ok());
  writable.value()[0] = 42;
  EXPECT_EQ(buffer->LoadElement<uint8_t>(7).value(), 42);
}

// SipHash-2-4 reference outputs for key 00..0f and the message 00 01 .. (n-1)
// from the SipHash paper and its reference test vectors.
TEST(BufferTest, HashIsSipHash24WithIreesKey) {
  Ref<Buffer> buffer = MakeCounting(64);
  EXPECT_EQ(static_cast<uint64_t>(buffer->Hash(0, 0).value()),
            0x726fdb47dd0e0e31ull);
  EXPECT_EQ(static_cast<uint64_t>(buffer->Hash(0, 1).value()),
            0x74f839c593dc67fdull);
  EXPECT_EQ(static_cast<uint64_t>(buffer->Hash(0, 15).value()),
            0xa129ca6149be45e5ull);
}

TEST(BufferTest, HashDependsOnlyOnTheRangeBytes) {
  Ref<Buffer> a = MakeCounting(64);
  Ref<Buffer> b = MakeBuffer(32);
  ASSERT_TRUE(Buffer::Copy(*a, 0, *b, 7, 20).ok());
  EXPECT_EQ(a->Hash(0, 20).value(), b->Hash(7, 20).value());
  EXPECT_NE(a->Hash(0, 20).value(), a->Hash(0, 21).value());
  // The empty range hashes the same wherever it is.
  EXPECT_EQ(a->Hash(64, 0).value(), b->Hash(3, 0).value());
  EXPECT_EQ(a->Hash(60, 5).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(a->Hash(1, kHuge).status().code(), StatusCode::kOutOfRange);
}

}  // namespace
}  // namespace ember::vm
