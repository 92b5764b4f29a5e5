#include "runtime/hal/allocator.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace ember::hal {

Ref<Allocator> Allocator::CreateHeap() {
  return Ref<Allocator>::Adopt(new HeapAllocator());
}

BufferCompatibility Allocator::QueryCompatibility(const BufferParams& params,
                                                  BufferUsage intended,
                                                  uint64_t) const {
  BufferCompatibility compatibility = BufferCompatibility::kAllocatable |
                                      BufferCompatibility::kImportable |
                                      BufferCompatibility::kExportable;
  if (HasAll(params.type, MemoryType::kDeviceVisible)) {
    if (HasAny(intended, BufferUsage::kTransfer)) {
      compatibility = compatibility | BufferCompatibility::kQueueTransfer;
    }
    if (HasAny(intended, BufferUsage::kDispatchStorage)) {
      compatibility = compatibility | BufferCompatibility::kQueueDispatch;
    }
  }
  return compatibility;
}

HeapAllocator::~HeapAllocator() {
  for (std::vector<void*>& blocks : cache_) {
    for (void* block : blocks) std::free(block);
  }
}

namespace {

// The size class of a cached block: the smallest power of two >= size.
int ClassShift(size_t size, int min_shift) {
  int shift = min_shift;
  while ((size_t{1} << shift) < size) ++shift;
  return shift;
}

// Indexes into Counters::heaps.
constexpr size_t kHostHeap = 0;
constexpr size_t kDeviceHeap = 1;

}  // namespace

void HeapAllocator::ReleaseHostBlock(RefCounted* owner, uint8_t* data,
                                     uint64_t size) {
  ReleaseBlock(owner, data, size, kHostHeap);
}

void HeapAllocator::ReleaseDeviceBlock(RefCounted* owner, uint8_t* data,
                                       uint64_t size) {
  ReleaseBlock(owner, data, size, kDeviceHeap);
}

void HeapAllocator::ReleaseBlock(RefCounted* owner, uint8_t* data,
                                 uint64_t size, size_t heap) {
  HeapAllocator& self = *static_cast<HeapAllocator*>(owner);
  self.counters_->bytes_allocated.fetch_sub(size);
  self.counters_->heaps[heap].freed.fetch_add(size);
  if (size <= kMaxCachedBytes) {
    const int shift = ClassShift(static_cast<size_t>(size), kMinClassShift);
    std::lock_guard lock(self.cache_mutex_);
    std::vector<void*>& blocks = self.cache_[shift - kMinClassShift];
    if (blocks.size() < kBlocksPerClass) {
      blocks.push_back(data);
      return;
    }
  }
  std::free(data);
}

BufferParams HeapAllocator::HeapParams(BufferParams params) {
  params.type =
      (params.type | MemoryType::kHostVisible) & ~MemoryType::kOptimal;
  params.usage = params.usage | BufferUsage::kMappingScoped |
                 BufferUsage::kMappingPersistent |
                 BufferUsage::kMappingAccessRandom | BufferUsage::kTransfer;
  return params;
}

Result<Ref<Buffer>> HeapAllocator::Allocate(const BufferParams& requested,
                                            uint64_t size) {
  return AllocateFilled(requested, size, {});
}

Result<Ref<Buffer>> HeapAllocator::AllocateFilled(
    const BufferParams& requested, uint64_t size,
    std::span<const uint8_t> initial) {
  const BufferParams params = HeapParams(requested);
  if (size > kMaxAllocationSize) {
    return ResourceExhaustedError("cannot allocate a buffer of " +
                                  std::to_string(size) + " bytes");
  }
  // aligned_alloc needs a multiple of the alignment, and a zero-sized
  // buffer still gets a distinct, valid pointer. Small sizes round up to
  // their cache class, so that the block can be reused.
  size_t rounded = static_cast<size_t>((size + kBufferAlignment - 1) /
                                       kBufferAlignment * kBufferAlignment);
  if (rounded == 0) rounded = kBufferAlignment;
  void* memory = nullptr;
  if (rounded <= kMaxCachedBytes) {
    const int shift = ClassShift(rounded, kMinClassShift);
    rounded = size_t{1} << shift;
    std::lock_guard lock(cache_mutex_);
    std::vector<void*>& blocks = cache_[shift - kMinClassShift];
    if (!blocks.empty()) {
      memory = blocks.back();
      blocks.pop_back();
    }
  }
  if (memory == nullptr) memory = std::aligned_alloc(kBufferAlignment, rounded);
  if (!memory) {
    return ResourceExhaustedError("out of host memory allocating " +
                                  std::to_string(size) + " bytes");
  }
  if (!initial.empty()) std::memcpy(memory, initial.data(), initial.size());
  std::memset(static_cast<uint8_t*>(memory) + initial.size(), 0,
              rounded - initial.size());
  Counters& counters = *counters_;
  uint64_t now = counters.bytes_allocated.fetch_add(size) + size;
  uint64_t peak = counters.bytes_peak.load(std::memory_order_relaxed);
  while (now > peak && !counters.bytes_peak.compare_exchange_weak(peak, now)) {
  }
  counters.allocation_count.fetch_add(1, std::memory_order_relaxed);
  // The heap is chosen by the memory type asked for (HeapParams only adds
  // HOST_VISIBLE, which is part of HOST_LOCAL but not all of it).
  const bool host = HasAll(params.type, MemoryType::kHostLocal);
  Counters::Heap& heap = counters.heaps[host ? kHostHeap : kDeviceHeap];
  const uint64_t total = heap.allocated.fetch_add(size) + size;
  const uint64_t live = total - heap.freed.load();
  uint64_t heap_peak = heap.peak.load(std::memory_order_relaxed);
  while (live > heap_peak &&
         !heap.peak.compare_exchange_weak(heap_peak, live)) {
  }
  return Buffer::WrapAllocation(
      static_cast<uint8_t*>(memory), size, params,
      Ref<RefCounted>(Ref<HeapAllocator>::Retain(this)),
      host ? &HeapAllocator::ReleaseHostBlock
           : &HeapAllocator::ReleaseDeviceBlock);
}

Result<Ref<Buffer>> HeapAllocator::AllocateCopy(
    const BufferParams& params, std::span<const uint8_t> bytes) {
  return AllocateFilled(params, bytes.size(), bytes);
}

Result<Ref<Buffer>> HeapAllocator::Import(const BufferParams& requested,
                                          std::span<uint8_t> bytes,
                                          std::function<void()> release) {
  const BufferParams params = HeapParams(requested);
  counters_->bytes_imported.fetch_add(bytes.size());
  counters_->import_count.fetch_add(1, std::memory_order_relaxed);
  uint64_t size = bytes.size();
  return Buffer::WrapAllocation(
      bytes.data(), size, params,
      [size, keep = counters_, release = std::move(release)] {
        keep->bytes_imported.fetch_sub(size);
        if (release) release();
      });
}

void HeapAllocator::Trim() {
  std::lock_guard lock(cache_mutex_);
  for (std::vector<void*>& blocks : cache_) {
    for (void* block : blocks) std::free(block);
    blocks.clear();
  }
}

AllocatorStatistics HeapAllocator::statistics() const {
  AllocatorStatistics stats;
  stats.bytes_allocated = counters_->bytes_allocated.load();
  stats.bytes_peak = counters_->bytes_peak.load();
  stats.allocation_count = counters_->allocation_count.load();
  stats.bytes_imported = counters_->bytes_imported.load();
  stats.import_count = counters_->import_count.load();
  const Counters::Heap& host = counters_->heaps[kHostHeap];
  const Counters::Heap& device = counters_->heaps[kDeviceHeap];
  // Freed before allocated: a buffer freed between the two loads can then
  // only make `allocated` larger, never leave live bytes negative.
  stats.host_bytes_freed = host.freed.load();
  stats.host_bytes_allocated = host.allocated.load();
  stats.host_bytes_peak = host.peak.load();
  stats.device_bytes_freed = device.freed.load();
  stats.device_bytes_allocated = device.allocated.load();
  stats.device_bytes_peak = device.peak.load();
  return stats;
}

}  // namespace ember::hal
