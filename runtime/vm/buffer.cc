#include "runtime/vm/buffer.h"

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <new>

namespace ember::vm {

namespace {

bool IsValidAlignment(uint64_t alignment) {
  return alignment == 0 || std::has_single_bit(alignment);
}

// Checks `alignment` and `length` against the allocation limits and returns
// the alignment actually used.
Result<uint64_t> CheckAllocationRequest(uint64_t length, uint64_t alignment) {
  if (!IsValidAlignment(alignment)) {
    return MakeStatus(
        StatusCode::kInvalidArgument,
        "buffer alignment must be 0 or a power of two (got %" PRIu64 ")",
        alignment);
  }
  uint64_t effective = std::max<uint64_t>(alignment, alignof(std::max_align_t));
  if (length > Buffer::kMaxAllocationLength ||
      effective > Buffer::kMaxAllocationLength - length) {
    return MakeStatus(StatusCode::kResourceExhausted,
                      "buffer of %" PRIu64 " bytes aligned to %" PRIu64
                      " exceeds the %" PRIu64 "-byte allocation limit",
                      length, alignment, Buffer::kMaxAllocationLength);
  }
  return effective;
}

// Zeroed aligned memory, or null when the host is out of memory. Never
// returns null for a zero length, so data pointers are always valid.
uint8_t* AllocateZeroed(uint64_t length, uint64_t alignment) {
  size_t size = std::max<uint64_t>(length, 1);
  void* memory =
      ::operator new(size, std::align_val_t(alignment), std::nothrow);
  if (memory) std::memset(memory, 0, size);
  return static_cast<uint8_t*>(memory);
}

// [offset, offset + length) within `buffer_length`, without overflow.
bool RangeFits(uint64_t offset, uint64_t length, uint64_t buffer_length) {
  return offset <= buffer_length && length <= buffer_length - offset;
}

Status OutOfRange(uint64_t offset, uint64_t length, uint64_t buffer_length) {
  return MakeStatus(StatusCode::kOutOfRange,
                    "out-of-bounds buffer access (offset=%" PRIu64
                    ", length=%" PRIu64 ", buffer length=%" PRIu64 ")",
                    offset, length, buffer_length);
}

Status ReadOnlyError() {
  return MakeStatus(StatusCode::kPermissionDenied,
                    "buffer is read-only and cannot be mapped for mutation");
}

}  // namespace

Buffer::Buffer(ConstructionKey, uint8_t* data, uint64_t length,
               BufferAccess access, uint64_t owned_alignment,
               ExternalMemoryOwner owner)
    : data_(data),
      length_(length),
      access_(access),
      owned_alignment_(owned_alignment),
      owner_(std::move(owner)) {}

Buffer::~Buffer() {
  if (owned_alignment_ != 0) {
    ::operator delete(data_, std::align_val_t(owned_alignment_));
  }
}

Result<Ref<Buffer>> Buffer::Allocate(uint64_t length, uint64_t alignment,
                                     BufferAccess access) {
  EMBER_ASSIGN_OR_RETURN(uint64_t effective_alignment,
                         CheckAllocationRequest(length, alignment));
  uint8_t* data = AllocateZeroed(length, effective_alignment);
  if (!data) {
    return MakeStatus(StatusCode::kResourceExhausted,
                      "out of memory allocating a %" PRIu64 "-byte buffer",
                      length);
  }
  return MakeRef<Buffer>(ConstructionKey(), data, length, access,
                         effective_alignment, ExternalMemoryOwner());
}

Result<Ref<Buffer>> Buffer::WrapExternal(std::span<const uint8_t> bytes,
                                         BufferAccess access,
                                         ExternalMemoryOwner owner) {
  if (AllBitsSet(access, BufferAccess::kMutable)) {
    return InvalidArgumentError(
        "read-only external memory cannot be wrapped as a mutable buffer");
  }
  // Never written through: every write path checks kMutable first.
  uint8_t* data = const_cast<uint8_t*>(bytes.data());
  return MakeRef<Buffer>(ConstructionKey(), data, bytes.size(), access,
                         uint64_t{0}, std::move(owner));
}

Result<Ref<Buffer>> Buffer::WrapExternalMutable(std::span<uint8_t> bytes,
                                                BufferAccess access,
                                                ExternalMemoryOwner owner) {
  return MakeRef<Buffer>(ConstructionKey(), bytes.data(), bytes.size(), access,
                         uint64_t{0}, std::move(owner));
}

Result<Ref<Buffer>> Buffer::Clone(const Buffer& source, uint64_t offset,
                                  uint64_t length, uint64_t alignment,
                                  BufferAccess access) {
  // Like IREE, the source range is checked before anything is allocated.
  EMBER_ASSIGN_OR_RETURN(std::span<const uint8_t> source_bytes,
                         source.MapReadOnly(offset, length));
  EMBER_ASSIGN_OR_RETURN(Ref<Buffer> clone,
                         Allocate(length, alignment, access));
  if (length != 0) std::memcpy(clone->data_, source_bytes.data(), length);
  return clone;
}

Result<std::span<const uint8_t>> Buffer::MapReadOnly(uint64_t offset,
                                                     uint64_t length) const {
  if (!RangeFits(offset, length, length_)) {
    return OutOfRange(offset, length, length_);
  }
  return std::span<const uint8_t>(data_ + offset, length);
}

Result<std::span<uint8_t>> Buffer::MapMutable(uint64_t offset,
                                              uint64_t length) {
  if (!is_mutable()) return ReadOnlyError();
  if (!RangeFits(offset, length, length_)) {
    return OutOfRange(offset, length, length_);
  }
  return std::span<uint8_t>(data_ + offset, length);
}

Status Buffer::Copy(const Buffer& source, uint64_t source_offset,
                    Buffer& target, uint64_t target_offset, uint64_t length) {
  EMBER_ASSIGN_OR_RETURN(std::span<const uint8_t> from,
                         source.MapReadOnly(source_offset, length));
  EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> to,
                         target.MapMutable(target_offset, length));
  // IREE uses memcpy; memmove keeps a copy within one buffer well defined.
  if (length != 0) std::memmove(to.data(), from.data(), length);
  return Status::Ok();
}

Result<bool> Buffer::Compare(const Buffer& lhs, uint64_t lhs_offset,
                             const Buffer& rhs, uint64_t rhs_offset,
                             uint64_t length) {
  EMBER_ASSIGN_OR_RETURN(std::span<const uint8_t> a,
                         lhs.MapReadOnly(lhs_offset, length));
  EMBER_ASSIGN_OR_RETURN(std::span<const uint8_t> b,
                         rhs.MapReadOnly(rhs_offset, length));
  return length == 0 || std::memcmp(a.data(), b.data(), length) == 0;
}

Status Buffer::FillBytes(uint64_t offset, uint64_t length, uint8_t value) {
  return FillElements<uint8_t>(offset, length, value);
}

Result<const uint8_t*> Buffer::ElementsForRead(uint64_t element_offset,
                                               uint64_t element_count,
                                               size_t element_size) const {
  uint64_t byte_offset = 0;
  uint64_t byte_length = 0;
  if (__builtin_mul_overflow(element_offset, element_size, &byte_offset) ||
      __builtin_mul_overflow(element_count, element_size, &byte_length) ||
      !RangeFits(byte_offset, byte_length, length_)) {
    return MakeStatus(StatusCode::kOutOfRange,
                      "out-of-bounds buffer access (element offset=%" PRIu64
                      ", element count=%" PRIu64
                      ", element size=%zu, "
                      "buffer length=%" PRIu64 ")",
                      element_offset, element_count, element_size, length_);
  }
  return data_ + byte_offset;
}

Result<uint8_t*> Buffer::ElementsForWrite(uint64_t element_offset,
                                          uint64_t element_count,
                                          size_t element_size) {
  if (!is_mutable()) return ReadOnlyError();
  EMBER_ASSIGN_OR_RETURN(
      const uint8_t* bytes,
      ElementsForRead(element_offset, element_count, element_size));
  return const_cast<uint8_t*>(bytes);
}

void Buffer::WritePattern(uint8_t* bytes, uint64_t count, const void* element,
                          size_t element_size) {
  if (count == 0) return;
  if (element_size == 1) {
    std::memset(bytes, *static_cast<const uint8_t*>(element), count);
    return;
  }
  for (uint64_t i = 0; i < count; ++i) {
    std::memcpy(bytes + i * element_size, element, element_size);
  }
}

// SipHash-2-4 (Aumasson and Bernstein), written from the paper's description.
// The key is fixed to the bytes 00 01 .. 0f because that is what IREE's
// vm.buffer.hash computes and programs may compare hashes with constants
// folded by the compiler.
Result<int64_t> Buffer::Hash(uint64_t offset, uint64_t length) const {
  EMBER_ASSIGN_OR_RETURN(std::span<const uint8_t> message,
                         MapReadOnly(offset, length));
  const uint64_t key0 = 0x0706050403020100ull;
  const uint64_t key1 = 0x0f0e0d0c0b0a0908ull;
  uint64_t v0 = 0x736f6d6570736575ull ^ key0;
  uint64_t v1 = 0x646f72616e646f6dull ^ key1;
  uint64_t v2 = 0x6c7967656e657261ull ^ key0;
  uint64_t v3 = 0x7465646279746573ull ^ key1;
  auto sip_round = [&] {
    v0 += v1;
    v1 = std::rotl(v1, 13);
    v1 ^= v0;
    v0 = std::rotl(v0, 32);
    v2 += v3;
    v3 = std::rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = std::rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = std::rotl(v1, 17);
    v1 ^= v2;
    v2 = std::rotl(v2, 32);
  };
  auto compress = [&](uint64_t word) {
    v3 ^= word;
    sip_round();
    sip_round();
    v0 ^= word;
  };
  auto load_le64 = [](const uint8_t* p) {
    uint64_t word = 0;
    for (int i = 7; i >= 0; --i) word = (word << 8) | p[i];
    return word;
  };

  const size_t whole_words = message.size() / 8;
  for (size_t i = 0; i < whole_words; ++i) {
    compress(load_le64(message.data() + i * 8));
  }
  // The last word holds the remaining 0-7 bytes and, in its top byte, the
  // message length mod 256.
  uint64_t last = static_cast<uint64_t>(message.size()) << 56;
  const size_t tail = message.size() % 8;
  for (size_t i = 0; i < tail; ++i) {
    last |= static_cast<uint64_t>(message[whole_words * 8 + i]) << (8 * i);
  }
  compress(last);
  v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) sip_round();
  return static_cast<int64_t>(v0 ^ v1 ^ v2 ^ v3);
}

}  // namespace ember::vm
