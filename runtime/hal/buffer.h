// Buffer: a range of device memory, the thing every tensor lives in.
//
// A program sees buffers through refs: it allocates them, cuts subspans,
// binds them to dispatches and copies between them, passing offsets and
// lengths that come straight from a (possibly hostile) module. So a Buffer
// carries everything needed to check each use before it happens, as IREE
// does: the memory type it lives in, the access it allows (an imported
// read-only array allows only reads), the usages it was allocated for, and
// its byte range inside the allocation. Every range a caller names goes
// through CalculateRange, which rejects out-of-range ends as OUT_OF_RANGE --
// never a clamp -- with overflow-safe arithmetic (IREE's own check can wrap).
//
// Ownership: an allocated buffer owns its memory. A subspan refers to the
// allocated buffer it was cut from, never to another subspan, so chains stay
// one deep.
//
// Where the memory lives is the allocator's business, not the buffer's
// users': host memory (the heap allocator, or a caller's memory imported
// without a copy, whose owner a release callback keeps alive) or memory of a
// device the host may not be able to touch at all (a Vulkan device-local
// heap). Device kinds subclass Buffer for their allocations and say which
// *memory domain* they belong to, so an allocator can tell whether its
// device can use a buffer (Allocator::IsCompatible). The host reaches the
// bytes only by mapping, which needs HOST_VISIBLE memory and the MAPPING
// usage; memory that is host visible but not HOST_COHERENT needs Flush after
// host writes and Invalidate before host reads (both no-ops otherwise).
// Memory the host cannot map is read and written through the device's
// transfers (Device::ReadBuffer / WriteBuffer).
//
// Thread safety: a Buffer's description is immutable; its contents are
// ordered by the program's semaphores, not by the buffer.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "runtime/base/object_cache.h"
#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"

namespace ember::hal {

// Bit-field enums get |, & and a HasAll test.
#define EMBER_HAL_BITFIELD(Type)                                              \
  constexpr Type operator|(Type a, Type b) {                                  \
    return static_cast<Type>(static_cast<uint32_t>(a) |                       \
                             static_cast<uint32_t>(b));                       \
  }                                                                           \
  constexpr Type operator&(Type a, Type b) {                                  \
    return static_cast<Type>(static_cast<uint32_t>(a) &                       \
                             static_cast<uint32_t>(b));                       \
  }                                                                           \
  constexpr Type operator~(Type a) {                                          \
    return static_cast<Type>(~static_cast<uint32_t>(a));                      \
  }                                                                           \
  constexpr bool HasAll(Type value, Type bits) {                              \
    return (static_cast<uint32_t>(value) & static_cast<uint32_t>(bits)) ==    \
           static_cast<uint32_t>(bits);                                       \
  }                                                                           \
  constexpr bool HasAny(Type value, Type bits) {                              \
    return (static_cast<uint32_t>(value) & static_cast<uint32_t>(bits)) != 0; \
  }

enum class MemoryType : uint32_t {
  kNone = 0,
  kOptimal = 1u << 0,
  kHostVisible = 1u << 1,
  kHostCoherent = 1u << 2,
  kHostCached = 1u << 3,
  kDeviceVisible = 1u << 4,
  kDeviceLocal = kDeviceVisible | (1u << 5),
  kHostLocal = kHostVisible | kHostCoherent | (1u << 6),
};
EMBER_HAL_BITFIELD(MemoryType)

enum class MemoryAccess : uint32_t {
  kNone = 0,
  kRead = 1u << 0,
  kWrite = 1u << 1,
  kDiscard = 1u << 2,
  kDiscardWrite = kDiscard | kWrite,
  kMayAlias = 1u << 3,
  kUnaligned = 1u << 4,
  kAny = 1u << 5,
  kAll = kRead | kWrite | kDiscard,
};
EMBER_HAL_BITFIELD(MemoryAccess)

enum class BufferUsage : uint32_t {
  kNone = 0,
  kTransferSource = 1u << 0,
  kTransferTarget = 1u << 1,
  kTransfer = kTransferSource | kTransferTarget,
  kDispatchIndirectParameters = 1u << 8,
  kDispatchUniformRead = 1u << 9,
  kDispatchStorageRead = 1u << 10,
  kDispatchStorageWrite = 1u << 11,
  kDispatchStorage = kDispatchStorageRead | kDispatchStorageWrite,
  kDispatchImageRead = 1u << 12,
  kDispatchImageWrite = 1u << 13,
  kSharingExport = 1u << 16,
  kSharingReplicate = 1u << 17,
  kSharingConcurrent = 1u << 18,
  kSharingImmutable = 1u << 19,
  kMappingScoped = 1u << 24,
  kMappingPersistent = 1u << 25,
  kMappingOptional = 1u << 26,
  kMappingAccessRandom = 1u << 27,
  kMappingAccessSequentialWrite = 1u << 28,
  kMapping = kMappingScoped | kMappingAccessRandom,  // as IREE defines it
  kDefault = kTransfer | kDispatchStorage,
};
EMBER_HAL_BITFIELD(BufferUsage)

enum class MappingMode : uint32_t {
  kScoped = 1u << 0,
  kPersistent = 1u << 1,
};

// "Up to the end of the buffer", as a length (IREE_HAL_WHOLE_BUFFER).
inline constexpr uint64_t kWholeBuffer = ~uint64_t{0};

// A range [offset, offset + length) inside a buffer of `max_length` bytes,
// with `length` kWholeBuffer meaning "to the end". Returns the length
// (resolved), or OUT_OF_RANGE naming the numbers.
// Inline: every binding of every dispatch goes through it a few times.
[[gnu::cold, gnu::noinline]] Status RangeError(uint64_t max_length,
                                               uint64_t offset,
                                               uint64_t length);
inline Result<uint64_t> CalculateRange(uint64_t max_length, uint64_t offset,
                                       uint64_t length) {
  if (offset > max_length) [[unlikely]]
    return RangeError(max_length, offset, length);
  if (length == kWholeBuffer) return max_length - offset;
  if (length > max_length - offset) [[unlikely]]
    return RangeError(max_length, offset, length);
  return length;
}

// Human names of the bit fields, e.g. "HOST_VISIBLE|HOST_COHERENT".
std::string MemoryTypeToString(MemoryType type);
std::string MemoryAccessToString(MemoryAccess access);
std::string BufferUsageToString(BufferUsage usage);

struct BufferParams {
  MemoryType type = MemoryType::kDeviceLocal | MemoryType::kHostVisible;
  MemoryAccess access = MemoryAccess::kAll;
  BufferUsage usage = BufferUsage::kDefault | BufferUsage::kMapping;
};

class Buffer;

// A host view of part of a buffer. A scoped mapping keeps its buffer alive
// until it is destroyed.
class BufferMapping {
 public:
  BufferMapping() = default;
  std::span<uint8_t> contents() const { return contents_; }
  uint8_t* data() const { return contents_.data(); }
  size_t size() const { return contents_.size(); }

 private:
  friend class Buffer;
  Ref<Buffer> buffer_;  // null for persistent mappings
  std::span<uint8_t> contents_;
};

// The memory domain of host memory: the heap allocator's buffers and
// imported host memory. Every device that runs on the host's memory (the CPU
// devices) accepts buffers of this domain.
extern const char kHostMemoryDomain[];

class Buffer : public RefCounted, public CachedAllocation<Buffer> {
 public:
  // Takes ownership of `size` bytes at `data` (host memory); `release` runs
  // once when the buffer dies (also when this call fails).
  static Ref<Buffer> WrapAllocation(uint8_t* data, uint64_t size,
                                    const BufferParams& params,
                                    std::function<void()> release);
  // The same with a plain function instead of a std::function (which
  // allocates): `owner` is kept alive by the buffer and
  // `release(owner, data, size)` runs when the buffer dies. The allocator's
  // own allocations, made on every call of a program, use this.
  using ReleaseFn = void (*)(RefCounted* owner, uint8_t* data, uint64_t size);
  static Ref<Buffer> WrapAllocation(uint8_t* data, uint64_t size,
                                    const BufferParams& params,
                                    Ref<RefCounted> owner, ReleaseFn release);

  // The range [offset, offset + length) of `buffer` as a buffer of its own
  // (checked; kWholeBuffer allowed). Returns `buffer` itself for the whole.
  static Result<Ref<Buffer>> Subspan(const Ref<Buffer>& buffer, uint64_t offset,
                                     uint64_t length);

  ~Buffer() override;

  MemoryType memory_type() const { return memory_type_; }
  MemoryAccess allowed_access() const { return allowed_access_; }
  BufferUsage allowed_usage() const { return allowed_usage_; }
  // Which memory this buffer lives in (kHostMemoryDomain, or a device's own
  // tag); compared by address.
  const void* memory_domain() const { return memory_domain_; }
  // Whether the host can map it (its memory has a host address).
  bool host_mappable() const { return host_data_ != nullptr; }
  // The buffer that owns the memory: this one, or the one a subspan was cut
  // from.
  const Buffer& allocated_buffer() const { return parent_ ? *parent_ : *this; }
  // Size of the whole allocation.
  uint64_t allocation_size() const { return allocated_buffer().byte_length_; }
  // This buffer's range inside the allocation.
  uint64_t byte_offset() const { return byte_offset_; }
  uint64_t byte_length() const { return byte_length_; }

  // Checks that this buffer has all of `type`, `access` and `usage`;
  // PERMISSION_DENIED otherwise (as IREE's validate_* calls).
  Status ValidateMemoryType(MemoryType required) const;
  Status ValidateAccess(MemoryAccess required) const;
  Status ValidateUsage(BufferUsage required) const;

  // Maps [offset, offset + length) (checked) for `access`: a host view of
  // HOST_VISIBLE memory. FAILED_PRECONDITION for memory the host cannot map
  // (read and write it through the device's transfers instead).
  Result<BufferMapping> Map(MappingMode mode, MemoryAccess access,
                            uint64_t offset, uint64_t length);
  // Makes host writes to [offset, offset + length) visible to the device /
  // device writes visible to the host; needed only for memory without
  // HOST_COHERENT (no-ops otherwise). Range-checked.
  Status Flush(uint64_t offset, uint64_t length);
  Status Invalidate(uint64_t offset, uint64_t length);

  // Host pointer to the range [offset, offset + length) after the range
  // check, without access checks: for devices that run on host memory (the
  // CPU devices' dispatch bindings and queue transfers, whose usage bits the
  // caller has already validated). FAILED_PRECONDITION on memory the host
  // cannot map. Nothing above the devices uses it: they map.
  Result<std::span<uint8_t>> HostRange(uint64_t offset, uint64_t length);

  // Ownership of the allocation as programs track it (`hal.buffer.
  // allocation.*`): a count of owners that starts at 1. Discard returns
  // whether the caller was the last owner.
  void AllocationPreserve();
  bool AllocationDiscard();
  bool AllocationIsTerminal() const;

  // Whether this buffer's and `other`'s ranges (resolved lengths, not
  // kWholeBuffer) share bytes of one allocation.
  bool Overlaps(const Buffer& other, uint64_t offset, uint64_t length,
                uint64_t other_offset, uint64_t other_length) const;

 protected:
  // An allocated buffer of `size` bytes in `memory_domain`, for a device's
  // own buffer class; `host_data` is the start of its host mapping (kept
  // mapped for the buffer's life) or null when the host cannot map it.
  Buffer(const BufferParams& params, uint64_t size, uint8_t* host_data,
         const void* memory_domain);

  // Flush / Invalidate of the allocation's bytes [offset, offset + length),
  // called on the allocated buffer for non-coherent memory.
  virtual Status FlushAllocation(uint64_t offset, uint64_t length);
  virtual Status InvalidateAllocation(uint64_t offset, uint64_t length);

 private:
  Buffer() = default;
  // An allocated host buffer over `data` without a release hook yet.
  static Ref<Buffer> NewAllocation(uint8_t* data, uint64_t size,
                                   const BufferParams& params);

  MemoryType memory_type_ = MemoryType::kNone;
  MemoryAccess allowed_access_ = MemoryAccess::kNone;
  BufferUsage allowed_usage_ = BufferUsage::kNone;
  uint64_t byte_offset_ = 0;
  uint64_t byte_length_ = 0;
  uint8_t* host_data_ = nullptr;  // start of the allocation; null: unmappable
  const void* memory_domain_ = kHostMemoryDomain;
  Ref<Buffer> parent_;  // the allocated buffer, for subspans
  mutable std::atomic<uint32_t> preserve_count_{1};  // allocated buffer only
  std::function<void()> release_;
  Ref<RefCounted> owner_;  // with release_fn_
  ReleaseFn release_fn_ = nullptr;
};

}  // namespace ember::hal
