// Allocator: where a device's buffers come from.
//
// Each device owns one (Device::allocator()), and it alone decides what a
// buffer request becomes: which memory type satisfies the requested type
// and usage, whether a caller's host memory can be imported without a copy,
// and whether a buffer made elsewhere can be used by its device
// (IsCompatible, by memory domain -- docs in buffer.h). Callers above the
// devices (the `hal` module, the Python bindings, the tools) ask; they never
// assume that memory is host memory.
//
// The heap allocator (CreateHeap), used by the CPU devices and for host-side
// staging, allocates from the host heap (64-byte aligned, the alignment IREE
// guarantees and the kernels' vector loads assume) and imports caller-owned
// host memory without a copy: the imported buffer's release callback keeps
// the owner (a numpy array, a mapped file) alive until the last reference to
// the buffer goes. Statistics count live and peak bytes of what an allocator
// allocated (imports are counted separately), so tests and benchmarks can
// prove that a path made no copies, and keep the per-heap totals IREE's
// allocators report (HalAllocator.statistics).
//
// An Allocator is ref-counted because programs hold it (`!hal.allocator`).
//
// Thread safety: an Allocator may be used from any number of threads.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"

namespace ember::hal {

inline constexpr size_t kBufferAlignment = 64;

struct AllocatorStatistics {
  uint64_t bytes_allocated = 0;   // live heap bytes
  uint64_t bytes_peak = 0;        // high-water mark of bytes_allocated
  uint64_t allocation_count = 0;  // heap allocations made, ever
  uint64_t bytes_imported = 0;    // live imported bytes
  uint64_t import_count = 0;      // imports made, ever
  // IREE's per-heap counters (iree_hal_allocator_statistics_t): an
  // allocation whose memory type has every HOST_LOCAL bit counts as host,
  // any other as device. `allocated` and `freed` are totals over the
  // allocator's life (live = allocated - freed); `peak` is the most that was
  // live at once. Imports are not counted, as in IREE.
  uint64_t host_bytes_allocated = 0;
  uint64_t host_bytes_freed = 0;
  uint64_t host_bytes_peak = 0;
  uint64_t device_bytes_allocated = 0;
  uint64_t device_bytes_freed = 0;
  uint64_t device_bytes_peak = 0;
};

// What an allocator can do with buffers of given parameters
// (iree_hal_buffer_compatibility_t; HalAllocator.query_buffer_compatibility).
enum class BufferCompatibility : uint32_t {
  kNone = 0,
  kAllocatable = 1u << 0,
  kImportable = 1u << 1,
  kExportable = 1u << 2,
  kQueueTransfer = 1u << 10,
  kQueueDispatch = 1u << 11,
  kLowPerformance = 1u << 20,
};
EMBER_HAL_BITFIELD(BufferCompatibility)

class Allocator : public RefCounted {
 public:
  // The largest single allocation; bigger requests are RESOURCE_EXHAUSTED
  // without touching memory (sizes come from programs).
  static constexpr uint64_t kMaxAllocationSize = uint64_t{1} << 46;

  // A host-heap allocator (kHostMemoryDomain).
  static Ref<Allocator> CreateHeap();

  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  // A new zero-filled buffer of `size` bytes.
  virtual Result<Ref<Buffer>> Allocate(const BufferParams& params,
                                       uint64_t size) = 0;
  // A new buffer holding a copy of `bytes` (through staging where the
  // memory is not host visible).
  virtual Result<Ref<Buffer>> AllocateCopy(const BufferParams& params,
                                           std::span<const uint8_t> bytes) = 0;
  // Wraps `bytes` (host memory owned by the caller) without a copy.
  // `release` runs once when the buffer dies, or when this call fails.
  // Read-only memory must be imported with an access without kWrite.
  // UNAVAILABLE when this allocator cannot import that memory (CanImport
  // says so beforehand; the caller then copies with AllocateCopy).
  virtual Result<Ref<Buffer>> Import(const BufferParams& params,
                                     std::span<uint8_t> bytes,
                                     std::function<void()> release) = 0;

  // Whether Import of `bytes` with `params` can succeed: the device can
  // reach host memory at that address and size.
  virtual bool CanImport(const BufferParams& params,
                         std::span<const uint8_t> bytes) const = 0;

  // What this allocator can do with buffers of `params` used for
  // `intended` (IREE's heap rule by default: anything can be allocated,
  // imported and exported; queue use needs a DEVICE_VISIBLE type and the
  // matching usage bits).
  virtual BufferCompatibility QueryCompatibility(const BufferParams& params,
                                                 BufferUsage intended,
                                                 uint64_t size) const;

  // The memory domain of this allocator's buffers (buffer.h).
  virtual const void* memory_domain() const = 0;
  // Whether this allocator's device can use `buffer` as it is (no copy).
  virtual bool IsCompatible(const Buffer& buffer) const {
    return buffer.memory_domain() == memory_domain();
  }

  virtual AllocatorStatistics statistics() const = 0;

  // Frees the blocks kept for reuse (live buffers are untouched).
  virtual void Trim() {}

 protected:
  Allocator() = default;
};

// The host-heap allocator (see the top of this file).
class HeapAllocator final : public Allocator {
 public:
  ~HeapAllocator() override;

  Result<Ref<Buffer>> Allocate(const BufferParams& params,
                               uint64_t size) override;
  Result<Ref<Buffer>> AllocateCopy(const BufferParams& params,
                                   std::span<const uint8_t> bytes) override;
  Result<Ref<Buffer>> Import(const BufferParams& params,
                             std::span<uint8_t> bytes,
                             std::function<void()> release) override;
  bool CanImport(const BufferParams&, std::span<const uint8_t>) const override {
    return true;
  }
  const void* memory_domain() const override { return kHostMemoryDomain; }
  AllocatorStatistics statistics() const override;
  void Trim() override;

 private:
  friend class Allocator;
  HeapAllocator() = default;
  // Allocate, with the first `initial.size()` bytes copied from `initial`
  // and only the rest zeroed (a copy touches each page once, not twice).
  Result<Ref<Buffer>> AllocateFilled(const BufferParams& params, uint64_t size,
                                     std::span<const uint8_t> initial);

  struct Counters {
    std::atomic<uint64_t> bytes_allocated{0};
    std::atomic<uint64_t> bytes_peak{0};
    std::atomic<uint64_t> allocation_count{0};
    std::atomic<uint64_t> bytes_imported{0};
    std::atomic<uint64_t> import_count{0};
    // IREE's per-heap totals; [0] host, [1] device.
    struct Heap {
      std::atomic<uint64_t> allocated{0};
      std::atomic<uint64_t> freed{0};
      std::atomic<uint64_t> peak{0};
    };
    std::array<Heap, 2> heaps;
  };
  // What IREE's heap allocator makes of requested parameters: every buffer
  // is host visible (never "optimal"), mappable scoped and persistent with
  // random access, and usable for transfers; programs and Python code see
  // these bits (e.g. a result's memory type) and behave by them.
  static BufferParams HeapParams(BufferParams params);
  // The buffers' release functions, one per heap (the plain function
  // pointer a buffer keeps has no room to say which).
  static void ReleaseHostBlock(RefCounted* owner, uint8_t* data, uint64_t size);
  static void ReleaseDeviceBlock(RefCounted* owner, uint8_t* data,
                                 uint64_t size);
  static void ReleaseBlock(RefCounted* owner, uint8_t* data, uint64_t size,
                           size_t heap);

  // Shared with the buffers' release callbacks, which may outlive us.
  std::shared_ptr<Counters> counters_ = std::make_shared<Counters>();

  // Freed blocks of up to kMaxCachedBytes, kept by power-of-two size class
  // for the next Allocate of that class: a program allocates the same
  // transient sizes on every call, and aligned_alloc + free cost more than
  // the rest of a small call's queue work. At most kBlocksPerClass blocks
  // per class (so at most about 4 MiB) are kept; a reused block is zeroed
  // like a fresh one.
  static constexpr int kMinClassShift = 6;   // 64 bytes
  static constexpr int kMaxClassShift = 18;  // 256 KiB
  static constexpr size_t kMaxCachedBytes = size_t{1} << kMaxClassShift;
  static constexpr size_t kBlocksPerClass = 8;
  std::mutex cache_mutex_;
  std::array<std::vector<void*>, kMaxClassShift - kMinClassShift + 1> cache_;
};

}  // namespace ember::hal
