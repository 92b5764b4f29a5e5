// VulkanDevice: hal::Device on a Vulkan 1.3 physical device.
//
// Objects, from the bottom up:
//   VulkanInstance   the VkInstance (vulkan_instance.h)
//   VulkanContext    the logical device: VkDevice, its entry points, one
//                    compute queue, what the physical device offers. Every
//                    object made on the device (buffers, executables, the
//                    allocator) holds a ref to it, so the VkDevice lives
//                    until the last of them is gone, whatever order a
//                    program drops them in.
//   VulkanBuffer     a VkBuffer bound to its own VkDeviceMemory
//   VulkanAllocator  picks the memory type for a request, maps host-visible
//                    memory persistently, imports host memory
//                    (VK_EXT_external_memory_host)
//   VulkanDevice     the queue: turns queue operations and recorded
//                    hal::CommandBuffers into VkCommandBuffers
//
// Memory types. A request is honoured as Vulkan's memory types allow: a
// HOST_VISIBLE request (or one whose usage needs mapping) gets a
// host-visible type, preferring DEVICE_LOCAL when asked for and HOST_CACHED
// when asked for; a request without HOST_VISIBLE prefers a type the host
// cannot see, and its buffer is not mapped (host_data null) when it got one.
// Devices whose every type is host visible (lavapipe: one type, DEVICE_LOCAL
// | HOST_VISIBLE | HOST_COHERENT | HOST_CACHED) map such buffers too, as
// IREE does, unless `strict_device_local` is set: then a request without
// HOST_VISIBLE is never mapped and reports DEVICE_LOCAL only, which makes
// the staging paths (WriteBuffer / ReadBuffer / AllocateCopy through a
// transfer) run on such devices as they would on a discrete GPU.
//
// The queue. Queue operations return once their work is *recorded* (into a
// VkCommandBuffer, on the caller's thread, so that operand errors come back
// from the call as the CPU devices' do); a submission thread submits each
// recording once its wait fence is reached (host semaphores; the caller
// never blocks), and a completion thread waits for each submission's
// VkFence, runs its host-side completion (QueueReadToHost's copy out of a
// staging buffer), and signals -- or on any error fails -- its signal fence.
// Submissions go to the GPU in the order they were made among those whose
// wait fences are reached (a later operation never waits behind an earlier
// one whose fence is still pending; operations with no fence between them
// are unordered, as in IREE), and complete in GPU submission order. A wait
// fence that work already on the queue will signal counts as reached: the
// queue runs that work first, so chains of dependent operations go to the
// GPU without a round trip through the host for each link (the completion
// thread fails such a submission's signal fence if its wait fence failed).
// Every command buffer starts with a full memory barrier (its first scope
// covers all earlier submissions to the queue) and ends with one that makes
// device writes visible to the host, so that a fence signalled here means
// "done and visible" to the host and to later submissions. The device needs
// no timeline semaphores or synchronization2: the host semaphores order the
// work, one VkFence per submission says when it is done, and plain pipeline
// barriers order the commands.
//
// Inside a hal::CommandBuffer every command is separated from the next by a
// full memory barrier (so an explicit ExecutionBarrier costs nothing more).
// Fills: vkCmdFillBuffer for the 4-byte-aligned middle of the range with the
// pattern expanded to a 32-bit word, the unaligned ends through a small
// staging copy; a 64-bit pattern whose halves differ is staged whole (up to
// 64 MiB; beyond that UNIMPLEMENTED). Updates: vkCmdUpdateBuffer when 4-byte
// aligned and at most 64 KiB, else a staging copy (either way the caller's
// bytes are copied during the call). Copies within one
// buffer whose ranges overlap go through staging (vkCmdCopyBuffer forbids
// overlap). Dispatch: the export's pipeline, its bindings as push
// descriptors (VK_KHR_push_descriptor) when the executable was made for
// them, else sets from a descriptor pool per dispatch, freed with the
// submission; constants as push constants at byte 0; workgroup counts
// checked against maxComputeWorkGroupCount (indirect counts are read by the
// GPU and cannot be checked on the host); binding offsets against
// min{Storage,Uniform}BufferOffsetAlignment and lengths against
// max{Storage,Uniform}BufferRange (INVALID_ARGUMENT naming the limit).
//
// Every buffer an operation names must be this device's (its memory domain,
// VulkanContext::memory_domain()); another device's or host-heap buffer is
// INVALID_ARGUMENT.
//
// Thread safety: as hal::Device, fully thread-safe.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/command_buffer.h"
#include "runtime/hal/device.h"
#include "runtime/hal/semaphore.h"
#include "runtime/hal/vulkan/vulkan_api.h"
#include "runtime/hal/vulkan/vulkan_executable.h"
#include "runtime/hal/vulkan/vulkan_instance.h"

namespace ember::hal::vulkan {

struct VulkanDeviceOptions {
  VulkanInstanceOptions instance;
  // Which physical device (VulkanInstance::SelectPhysicalDevice).
  std::string path;
  // Never map buffers requested without HOST_VISIBLE (see the top).
  bool strict_device_local = false;
  // Use descriptor pools even where push descriptors exist (tests).
  bool disable_push_descriptors = false;
};

// The logical device (see the top of this file).
class VulkanContext : public RefCounted {
 public:
  static Result<Ref<VulkanContext>> Create(Ref<VulkanInstance> instance,
                                           const VulkanPhysicalDeviceInfo& info,
                                           const VulkanDeviceOptions& options);
  ~VulkanContext() override;

  const VulkanApi& api() const { return api_; }
  VkDevice device() const { return device_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VulkanInstance& instance() const { return *instance_; }
  const VulkanPhysicalDeviceInfo& info() const { return info_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const {
    return memory_properties_;
  }
  uint32_t queue_family() const { return queue_family_; }
  bool has_push_descriptors() const { return has_push_descriptors_; }
  uint32_t max_push_descriptors() const { return max_push_descriptors_; }
  // Subgroup size control (Vulkan 1.3) for the compute stage, and its range.
  bool subgroup_size_control() const { return subgroup_size_control_; }
  uint32_t min_subgroup_size() const { return min_subgroup_size_; }
  uint32_t max_subgroup_size() const { return max_subgroup_size_; }
  bool has_external_memory_host() const { return has_external_memory_host_; }
  uint64_t min_imported_host_pointer_alignment() const {
    return min_imported_host_pointer_alignment_;
  }
  // A tag unique to this logical device: the memory domain of its buffers.
  const void* memory_domain() const { return this; }

  // vkQueueSubmit on the device's queue (externally synchronized here).
  Status Submit(VkCommandBuffer command_buffer, VkFence fence);
  // Records with `record` into a one-time command buffer, submits it and
  // waits for it (the allocator's zero fills, WriteBuffer / ReadBuffer
  // staging). Bounded by kImmediateTimeout.
  Status SubmitAndWait(const std::function<Status(VkCommandBuffer)>& record);

  // The full barriers at the start and the end of every command buffer and
  // between commands (see vulkan_device.h's top).
  void RecordFullBarrier(VkCommandBuffer command_buffer) const;
  void RecordHostVisibilityBarrier(VkCommandBuffer command_buffer) const;

 private:
  VulkanContext() = default;

  Ref<VulkanInstance> instance_;
  VulkanApi api_;
  VulkanPhysicalDeviceInfo info_;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_ = {};
  VkPhysicalDeviceMemoryProperties memory_properties_ = {};
  uint32_t queue_family_ = 0;
  bool has_push_descriptors_ = false;
  uint32_t max_push_descriptors_ = 0;
  bool subgroup_size_control_ = false;
  uint32_t min_subgroup_size_ = 0;
  uint32_t max_subgroup_size_ = 0;
  bool has_external_memory_host_ = false;
  uint64_t min_imported_host_pointer_alignment_ = 0;

  std::mutex queue_mutex_;  // the VkQueue
  VkQueue queue_ = VK_NULL_HANDLE;
  std::mutex immediate_mutex_;  // the immediate pool, buffer and fence
  VkCommandPool immediate_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer immediate_command_buffer_ = VK_NULL_HANDLE;
  VkFence immediate_fence_ = VK_NULL_HANDLE;
};

class VulkanAllocator;

// The allocator's statistics counters, shared with its buffers (which may
// outlive it).
struct VulkanAllocatorCounters {
  std::atomic<uint64_t> bytes_allocated{0};
  std::atomic<uint64_t> bytes_peak{0};
  std::atomic<uint64_t> allocation_count{0};
  std::atomic<uint64_t> bytes_imported{0};
  std::atomic<uint64_t> import_count{0};
  struct Heap {
    std::atomic<uint64_t> allocated{0};
    std::atomic<uint64_t> freed{0};
    std::atomic<uint64_t> peak{0};
  };
  std::array<Heap, 2> heaps;  // [0] host, [1] device (allocator.h)
};

// A VkBuffer with its own VkDeviceMemory.
class VulkanBuffer final : public Buffer {
 public:
  ~VulkanBuffer() override;
  VkBuffer handle() const { return buffer_; }
  // The VkBuffer's size (the byte length rounded up to a multiple of 4, at
  // least 4: Vulkan has no empty buffers, and fills work in words).
  uint64_t vk_size() const { return vk_size_; }

 protected:
  Status FlushAllocation(uint64_t offset, uint64_t length) override;
  Status InvalidateAllocation(uint64_t offset, uint64_t length) override;

 private:
  friend class VulkanAllocator;
  VulkanBuffer(const BufferParams& params, uint64_t size, uint8_t* host_data,
               Ref<VulkanContext> context);

  Ref<VulkanContext> context_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint64_t vk_size_ = 0;
  bool mapped_ = false;
  bool coherent_ = true;
  // Statistics: the counters to update on death (null for staging).
  std::shared_ptr<VulkanAllocatorCounters> counters_;
  int heap_ = -1;                         // 0 host, 1 device; -1 an import
  uint64_t counted_ = 0;                  // bytes counted
  std::function<void()> import_release_;  // imports: the owner's release
};

// The device's allocator (see the top of this file).
class VulkanAllocator final : public Allocator {
 public:
  VulkanAllocator(Ref<VulkanContext> context, bool strict_device_local);
  ~VulkanAllocator() override;

  Result<Ref<Buffer>> Allocate(const BufferParams& params,
                               uint64_t size) override;
  Result<Ref<Buffer>> AllocateCopy(const BufferParams& params,
                                   std::span<const uint8_t> bytes) override;
  Result<Ref<Buffer>> Import(const BufferParams& params,
                             std::span<uint8_t> bytes,
                             std::function<void()> release) override;
  // VK_EXT_external_memory_host, with the pointer and size aligned to
  // minImportedHostPointerAlignment, and writable memory only: the device
  // may write any buffer a dispatch binds, and a write to read-only pages
  // would fault (on lavapipe, in this process) instead of failing.
  bool CanImport(const BufferParams& params,
                 std::span<const uint8_t> bytes) const override;
  const void* memory_domain() const override {
    return context_->memory_domain();
  }
  AllocatorStatistics statistics() const override;

  // Synchronous copies between the host and [offset, offset + size) of an
  // allocation (absolute offsets into `buffer`, already range-checked):
  // directly where mapped, else through a staging buffer and a transfer
  // that is waited for.
  Status CopyIn(VulkanBuffer& buffer, uint64_t offset,
                std::span<const uint8_t> bytes);
  Status CopyOut(VulkanBuffer& buffer, uint64_t offset,
                 std::span<uint8_t> bytes);

  // A host-visible transfer buffer (staging), not zeroed, not counted in
  // the statistics.
  Result<Ref<VulkanBuffer>> AllocateStaging(uint64_t size);
  // The memory type index a request gets, and the HAL memory type and
  // mapping it results in (exposed for tests).
  struct Placement {
    uint32_t type_index = 0;
    MemoryType memory_type = MemoryType::kNone;
    bool mapped = false;
  };
  Result<Placement> Place(const BufferParams& params,
                          uint32_t allowed_type_bits) const;
  // The same choice among `memory`'s types (tests give other devices'
  // tables: lavapipe has one type).
  static Result<Placement> PlaceIn(
      const VkPhysicalDeviceMemoryProperties& memory,
      const BufferParams& params, uint32_t allowed_type_bits,
      bool strict_device_local);

 private:
  // A buffer of `size` bytes placed for `params`; counted in the
  // statistics when `count`; zero-filled when `zero`.
  Result<Ref<VulkanBuffer>> AllocateBuffer(const BufferParams& params,
                                           uint64_t size, bool count,
                                           bool zero);
  Ref<VulkanContext> context_;
  bool strict_device_local_ = false;
  std::shared_ptr<VulkanAllocatorCounters> counters_ =
      std::make_shared<VulkanAllocatorCounters>();
};

class VulkanDevice final : public Device {
 public:
  static Result<Ref<VulkanDevice>> Create(const VulkanDeviceOptions& options);
  ~VulkanDevice() override;

  std::string_view id() const override { return "vulkan"; }
  Allocator& allocator() override { return *allocator_; }
  VulkanAllocator& vulkan_allocator() { return *allocator_; }
  bool queues_asynchronously() const override { return true; }
  const Ref<VulkanContext>& context() const { return context_; }

  Result<int64_t> QueryI64(std::string_view category,
                           std::string_view key) override;
  Result<Ref<Executable>> CreateExecutable(
      std::string_view format, std::span<const uint8_t> data,
      std::span<const uint32_t> constants) override;

  Result<Ref<Buffer>> QueueAlloca(const Ref<Fence>& wait,
                                  const Ref<Fence>& signal,
                                  const BufferParams& params,
                                  uint64_t size) override;
  Status QueueDealloca(const Ref<Fence>& wait, const Ref<Fence>& signal,
                       const Ref<Buffer>& buffer) override;
  Status QueueFill(const Ref<Fence>& wait, const Ref<Fence>& signal,
                   const Ref<Buffer>& target, uint64_t offset, uint64_t length,
                   uint64_t pattern, uint32_t pattern_length) override;
  Status QueueCopy(const Ref<Fence>& wait, const Ref<Fence>& signal,
                   const Ref<Buffer>& source, uint64_t source_offset,
                   const Ref<Buffer>& target, uint64_t target_offset,
                   uint64_t length) override;
  Status QueueUpdate(const Ref<Fence>& wait, const Ref<Fence>& signal,
                     std::span<const uint8_t> source, const Ref<Buffer>& target,
                     uint64_t target_offset, uint64_t length) override;
  Status QueueBarrier(const Ref<Fence>& wait,
                      const Ref<Fence>& signal) override;
  Status QueueExecute(const Ref<Fence>& wait, const Ref<Fence>& signal,
                      const Ref<CommandBuffer>& command_buffer,
                      std::span<const Binding> binding_table) override;
  Status QueueReadToHost(const Ref<Fence>& wait, const Ref<Fence>& signal,
                         const Ref<Buffer>& source, uint64_t source_offset,
                         std::span<uint8_t> target,
                         Ref<RefCounted> keep_alive) override;
  Status QueueFlush() override;

  Status WriteBuffer(const Ref<Buffer>& target, uint64_t offset,
                     std::span<const uint8_t> bytes) override;
  Status ReadBuffer(const Ref<Buffer>& source, uint64_t offset,
                    std::span<uint8_t> bytes) override;

  // Blocks until every queue operation submitted so far has completed
  // (tests, shutdown).
  Status WaitIdle(Timeout timeout);
  // How many submissions went to the GPU before their wait fence was
  // reached, because work already queued signals it (tests).
  uint64_t pipelined_submissions() {
    std::lock_guard lock(mutex_);
    return pipelined_submissions_;
  }

 private:
  struct Recording;
  struct Pending;
  class Recorder;

  VulkanDevice() = default;
  // Takes a recycled (or new) command buffer + fence, begun and past the
  // leading barrier.
  Result<std::unique_ptr<Recording>> BeginRecording();
  // Ends it and queues it for the submission thread; on error, fails
  // `signal` and recycles the recording.
  Status Enqueue(const char* operation, const Ref<Fence>& wait,
                 const Ref<Fence>& signal,
                 Result<std::unique_ptr<Recording>> recording);
  // A queue operation with no device work (alloca, dealloca, barrier):
  // signals `signal` once `wait` is reached -- at once when it already is,
  // else from the thread that reaches it -- without a submission, and
  // holds `keep` until then. A failed wait fence fails `signal`.
  static void CompleteOnHost(const Ref<Fence>& wait, const Ref<Fence>& signal,
                             Ref<RefCounted> keep);
  template <typename Fn>
  Status RecordAndEnqueue(const char* operation, const Ref<Fence>& wait,
                          const Ref<Fence>& signal, Fn&& fn);
  void Recycle(std::unique_ptr<Recording> recording);
  void SubmitThreadMain();
  void CompletionThreadMain();
  // Whether every timepoint of `wait` is reached or will be signalled by a
  // submission already on the queue (promised_). Called with mutex_ held.
  bool CoveredByPromisesLocked(const Fence& wait) const;
  void PromiseLocked(const Ref<Semaphore>& semaphore, uint64_t value);
  void ForgetReachedPromisesLocked();

  Ref<VulkanContext> context_;
  Ref<VulkanAllocator> allocator_;
  bool use_push_descriptors_ = false;
  VulkanExecutableLimits executable_limits_;
  VkPipelineCache pipeline_cache_ = VK_NULL_HANDLE;

  // Recording: the command pool and the recycled command buffers.
  std::mutex record_mutex_;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  std::vector<std::unique_ptr<Recording>> free_recordings_;  // record_mutex_

  // Submission and completion.
  std::mutex mutex_;
  std::condition_variable changed_;
  // Wakes the submission thread when a wait fence of a pending submission
  // is reached or fails, or new work arrives (semaphore.h).
  std::shared_ptr<WakeSignal> wake_ = std::make_shared<WakeSignal>();
  std::deque<Pending> pending_;    // recorded, waiting for their fences
  std::deque<Pending> in_flight_;  // submitted, waiting for the GPU
  uint64_t enqueued_ = 0;          // ever queued
  uint64_t retired_ = 0;           // ever completed (or failed)
  // Timepoints that submissions on the queue will signal when they
  // complete: a submission waiting only for these is submitted at once.
  struct Promise {
    Ref<Semaphore> semaphore;
    uint64_t value = 0;
  };
  std::vector<Promise> promised_;
  uint64_t pipelined_submissions_ = 0;
  bool stopping_ = false;
  bool completion_stopping_ = false;
  std::thread submit_thread_;
  std::thread completion_thread_;
};

// The physical devices as IREE lists them (vulkan_instance.h); UNAVAILABLE
// with the reason when there is no loader.
Result<std::vector<VulkanPhysicalDeviceInfo>> QueryVulkanDevices(
    const VulkanInstanceOptions& options = {});

}  // namespace ember::hal::vulkan
