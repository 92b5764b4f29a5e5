#include "runtime/hal/vulkan/vulkan_device.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "runtime/base/trace.h"

namespace ember::hal::vulkan {

// One submission's command buffer and everything it needs until the GPU is
// done with it.
struct VulkanDevice::Recording {
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  // Dispatches' descriptor pools, where sets are not pushed.
  std::vector<VkDescriptorPool> descriptor_pools;
  std::vector<Ref<RefCounted>> keep_alive;
  std::vector<Binding> binding_table;  // QueueExecute's, kept alive
  // Host work after the GPU finished (QueueReadToHost's copy out).
  std::function<Status()> on_complete;
};

struct VulkanDevice::Pending {
  const char* operation = "";
  Ref<Fence> wait;
  Ref<Fence> signal;
  std::unique_ptr<Recording> recording;
  // Submitted before its wait fence was reached (SubmitThreadMain).
  bool pipelined = false;
};

namespace {

// A buffer operand resolved to its VkBuffer and absolute range.
struct VkRange {
  VulkanBuffer* buffer = nullptr;
  VkBuffer handle = VK_NULL_HANDLE;
  uint64_t offset = 0;  // into the VkBuffer
  uint64_t length = 0;
};

uint8_t PatternByte(uint64_t pattern, uint32_t pattern_length, uint64_t i) {
  return static_cast<uint8_t>(pattern >> (8 * (i % pattern_length)));
}

}  // namespace

// Records the commands of one submission (the caller holds record_mutex_).
class VulkanDevice::Recorder {
 public:
  Recorder(VulkanDevice& device, Recording& recording)
      : device_(device),
        vk_(device.context_->api()),
        recording_(recording),
        cb_(recording.command_buffer) {}

  // `buffer`'s [offset, offset + length) (kWholeBuffer allowed) on this
  // device: INVALID_ARGUMENT for another device's buffer, OUT_OF_RANGE
  // outside the buffer.
  Result<VkRange> Resolve(Buffer* buffer, uint64_t offset, uint64_t length,
                          const char* what) {
    if (buffer == nullptr) {
      return FailedPreconditionError(std::string(what) + " is a null buffer");
    }
    if (buffer->memory_domain() != device_.context_->memory_domain()) {
      return InvalidArgumentError(
          std::string(what) +
          " belongs to another device's memory (not this Vulkan device's)");
    }
    // A buffer of this domain is always one of our VulkanBuffers (the
    // domain tag is this context's address).
    auto* allocated = const_cast<VulkanBuffer*>(
        static_cast<const VulkanBuffer*>(&buffer->allocated_buffer()));
    EMBER_ASSIGN_OR_RETURN(
        uint64_t resolved,
        CalculateRange(buffer->byte_length(), offset, length), "%s", what);
    VkRange range;
    range.buffer = allocated;
    range.handle = allocated->handle();
    range.offset = buffer->byte_offset() + offset;
    range.length = resolved;
    return range;
  }
  Result<VkRange> Resolve(const ResolvedBuffer& resolved, const char* what) {
    return Resolve(resolved.buffer, resolved.offset, resolved.length, what);
  }

  void Keep(Ref<RefCounted> object) {
    recording_.keep_alive.push_back(std::move(object));
  }

  void Barrier() { device_.context_->RecordFullBarrier(cb_); }

  // Copies `bytes` through a new staging buffer into `target`.
  Status StageIn(const VkRange& target, std::span<const uint8_t> bytes) {
    if (bytes.empty()) return Status::Ok();
    EMBER_ASSIGN_OR_RETURN(Ref<VulkanBuffer> staging,
                           device_.allocator_->AllocateStaging(bytes.size()));
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> host,
                           staging->HostRange(0, bytes.size()));
    std::memcpy(host.data(), bytes.data(), bytes.size());
    EMBER_RETURN_IF_ERROR(staging->Flush(0, bytes.size()));
    VkBufferCopy region = {0, target.offset, bytes.size()};
    vk_.vkCmdCopyBuffer(cb_, staging->handle(), target.handle, 1, &region);
    Keep(std::move(staging));
    return Status::Ok();
  }

  Status Fill(const VkRange& target, uint64_t pattern,
              uint32_t pattern_length) {
    if (pattern_length != 1 && pattern_length != 2 && pattern_length != 4 &&
        pattern_length != 8) {
      return InvalidArgumentError(StringPrintf(
          "fill pattern length %u is not 1, 2, 4 or 8", pattern_length));
    }
    if (target.length % pattern_length != 0) {
      return InvalidArgumentError(
          "fill length is not a multiple of the pattern length");
    }
    if (target.length == 0) return Status::Ok();
    if (pattern_length == 8) {
      if (static_cast<uint32_t>(pattern) ==
          static_cast<uint32_t>(pattern >> 32)) {
        pattern_length = 4;  // a 32-bit pattern twice
      } else {
        // vkCmdFillBuffer repeats 32 bits only: stage the bytes, bounded.
        constexpr uint64_t kMaxStagedFill = uint64_t{64} << 20;
        if (target.length > kMaxStagedFill) {
          return UnimplementedError(
              "Vulkan fill with a 64-bit pattern whose halves differ over "
              "more than 64 MiB");
        }
        std::vector<uint8_t> bytes(target.length);
        for (uint64_t i = 0; i < bytes.size(); ++i) {
          bytes[i] = PatternByte(pattern, 8, i);
        }
        return StageIn(target, bytes);
      }
    }
    // The unaligned head and tail (< 4 bytes each) through staging, the
    // aligned middle with vkCmdFillBuffer and the pattern as the word the
    // middle's first byte starts (patterns of 1, 2, 4 bytes tile words).
    const uint64_t head =
        std::min<uint64_t>((4 - target.offset % 4) % 4, target.length);
    const uint64_t middle = (target.length - head) & ~uint64_t{3};
    const uint64_t tail = target.length - head - middle;
    if (head != 0) {
      uint8_t bytes[4];
      for (uint64_t i = 0; i < head; ++i) {
        bytes[i] = PatternByte(pattern, pattern_length, i);
      }
      EMBER_RETURN_IF_ERROR(StageIn(target, std::span(bytes, head)));
    }
    if (middle != 0) {
      uint32_t word = 0;
      for (uint64_t i = 0; i < 4; ++i) {
        word |= uint32_t{PatternByte(pattern, pattern_length, head + i)}
                << (8 * i);
      }
      vk_.vkCmdFillBuffer(cb_, target.handle, target.offset + head, middle,
                          word);
    }
    if (tail != 0) {
      uint8_t bytes[4];
      for (uint64_t i = 0; i < tail; ++i) {
        bytes[i] = PatternByte(pattern, pattern_length, head + middle + i);
      }
      VkRange tail_range = target;
      tail_range.offset += head + middle;
      tail_range.length = tail;
      EMBER_RETURN_IF_ERROR(StageIn(tail_range, std::span(bytes, tail)));
    }
    return Status::Ok();
  }

  Status Copy(const VkRange& source, const VkRange& target, uint64_t length) {
    if (length == 0) return Status::Ok();
    if (source.handle == target.handle &&
        source.offset < target.offset + length &&
        target.offset < source.offset + length) {
      // vkCmdCopyBuffer forbids overlapping regions; go through staging.
      EMBER_ASSIGN_OR_RETURN(Ref<VulkanBuffer> staging,
                             device_.allocator_->AllocateStaging(length));
      VkBufferCopy in = {source.offset, 0, length};
      vk_.vkCmdCopyBuffer(cb_, source.handle, staging->handle(), 1, &in);
      Barrier();
      VkBufferCopy out = {0, target.offset, length};
      vk_.vkCmdCopyBuffer(cb_, staging->handle(), target.handle, 1, &out);
      Keep(std::move(staging));
      return Status::Ok();
    }
    VkBufferCopy region = {source.offset, target.offset, length};
    vk_.vkCmdCopyBuffer(cb_, source.handle, target.handle, 1, &region);
    return Status::Ok();
  }

  Status Update(const VkRange& target, std::span<const uint8_t> bytes) {
    if (bytes.empty()) return Status::Ok();
    // vkCmdUpdateBuffer: 4-byte aligned offset and size, at most 64 KiB.
    if (target.offset % 4 == 0 && bytes.size() % 4 == 0 &&
        bytes.size() <= 65536) {
      vk_.vkCmdUpdateBuffer(cb_, target.handle, target.offset, bytes.size(),
                            bytes.data());
      return Status::Ok();
    }
    return StageIn(target, bytes);
  }

  Status Dispatch(const DispatchCommand& command,
                  std::span<const Binding> table);

  Status Execute(const CommandBuffer& command_buffer,
                 std::span<const Binding> table) {
    bool first = true;
    for (const Command& command : command_buffer.commands()) {
      if (std::holds_alternative<BarrierCommand>(command) ||
          std::holds_alternative<DebugGroupCommand>(command)) {
        continue;  // every command is already barriered from the next
      }
      if (!first) Barrier();
      first = false;
      if (const auto* dispatch = std::get_if<DispatchCommand>(&command)) {
        EMBER_RETURN_IF_ERROR(Dispatch(*dispatch, table));
      } else if (const auto* fill = std::get_if<FillCommand>(&command)) {
        EMBER_ASSIGN_OR_RETURN(ResolvedBuffer resolved,
                               ResolveBufferRef(fill->target, table),
                               "fill target");
        EMBER_ASSIGN_OR_RETURN(VkRange target,
                               Resolve(resolved, "fill target"));
        EMBER_RETURN_IF_ERROR(
            Fill(target, fill->pattern, fill->pattern_length));
      } else if (const auto* copy = std::get_if<CopyCommand>(&command)) {
        EMBER_ASSIGN_OR_RETURN(ResolvedBuffer source_ref,
                               ResolveBufferRef(copy->source, table),
                               "copy source");
        EMBER_ASSIGN_OR_RETURN(ResolvedBuffer target_ref,
                               ResolveBufferRef(copy->target, table),
                               "copy target");
        EMBER_ASSIGN_OR_RETURN(VkRange source,
                               Resolve(source_ref.buffer, source_ref.offset,
                                       copy->length, "copy source"));
        // The source's resolved length (kWholeBuffer: to its end) must fit
        // the target.
        EMBER_ASSIGN_OR_RETURN(VkRange target,
                               Resolve(target_ref.buffer, target_ref.offset,
                                       source.length, "copy target"));
        EMBER_RETURN_IF_ERROR(Copy(source, target, source.length));
      } else if (const auto* update = std::get_if<UpdateCommand>(&command)) {
        EMBER_ASSIGN_OR_RETURN(ResolvedBuffer target_ref,
                               ResolveBufferRef(update->target, table),
                               "update target");
        EMBER_ASSIGN_OR_RETURN(VkRange target,
                               Resolve(target_ref.buffer, target_ref.offset,
                                       update->data.size(), "update target"));
        EMBER_RETURN_IF_ERROR(Update(target, update->data));
      }
    }
    return Status::Ok();
  }

 private:
  VulkanDevice& device_;
  const VulkanApi& vk_;
  Recording& recording_;
  VkCommandBuffer cb_;
};

// ---- creation ---------------------------------------------------------------

Result<std::vector<VulkanPhysicalDeviceInfo>> QueryVulkanDevices(
    const VulkanInstanceOptions& options) {
  EMBER_ASSIGN_OR_RETURN(Ref<VulkanInstance> instance,
                         VulkanInstance::Create(options));
  return instance->physical_devices();
}

Result<Ref<VulkanDevice>> VulkanDevice::Create(
    const VulkanDeviceOptions& options) {
  EMBER_ASSIGN_OR_RETURN(Ref<VulkanInstance> instance,
                         VulkanInstance::Create(options.instance));
  EMBER_ASSIGN_OR_RETURN(VulkanPhysicalDeviceInfo info,
                         instance->SelectPhysicalDevice(options.path));
  EMBER_ASSIGN_OR_RETURN(
      Ref<VulkanContext> context,
      VulkanContext::Create(std::move(instance), info, options));
  Ref<VulkanDevice> device = Ref<VulkanDevice>::Adopt(new VulkanDevice());
  device->context_ = context;
  device->allocator_ =
      MakeRef<VulkanAllocator>(context, options.strict_device_local);
  device->use_push_descriptors_ =
      context->has_push_descriptors() && !options.disable_push_descriptors;
  VkCommandPoolCreateInfo pool_info = {};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = context->queue_family();
  EMBER_VK_RETURN_IF_ERROR(
      context->api().vkCreateCommandPool(context->device(), &pool_info, nullptr,
                                         &device->command_pool_),
      "vkCreateCommandPool");
  device->executable_limits_ =
      VulkanExecutableLimits::FromDeviceLimits(context->properties().limits);
  device->executable_limits_.subgroup_size_control =
      context->subgroup_size_control();
  device->executable_limits_.min_subgroup_size = context->min_subgroup_size();
  device->executable_limits_.max_subgroup_size = context->max_subgroup_size();
  device->executable_limits_.max_push_descriptors =
      device->use_push_descriptors_ ? context->max_push_descriptors() : 0;
  VkPipelineCacheCreateInfo cache_info = {};
  cache_info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  EMBER_VK_RETURN_IF_ERROR(
      context->api().vkCreatePipelineCache(context->device(), &cache_info,
                                           nullptr, &device->pipeline_cache_),
      "vkCreatePipelineCache");
  device->executable_limits_.pipeline_cache = device->pipeline_cache_;
  VulkanDevice* raw = device.get();
  device->submit_thread_ = std::thread([raw] {
    trace::SetThreadName("vulkan-submit");
    raw->SubmitThreadMain();
  });
  device->completion_thread_ = std::thread([raw] {
    trace::SetThreadName("vulkan-complete");
    raw->CompletionThreadMain();
  });
  return device;
}

VulkanDevice::~VulkanDevice() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  wake_->Wake();  // the submission thread may wait on fences
  if (submit_thread_.joinable()) submit_thread_.join();
  {
    std::lock_guard lock(mutex_);
    completion_stopping_ = true;
  }
  changed_.notify_all();
  if (completion_thread_.joinable()) completion_thread_.join();
  if (!context_) return;
  const VulkanApi& vk = context_->api();
  VkDevice device = context_->device();
  vk.vkDeviceWaitIdle(device);
  for (std::unique_ptr<Recording>& recording : free_recordings_) {
    if (recording->fence != VK_NULL_HANDLE) {
      vk.vkDestroyFence(device, recording->fence, nullptr);
    }
  }
  free_recordings_.clear();
  if (command_pool_ != VK_NULL_HANDLE) {
    vk.vkDestroyCommandPool(device, command_pool_, nullptr);
  }
  // Executables made with the cache may outlive this object; the cache is
  // only used while their pipelines are made (CreateExecutable, while the
  // device is alive), so it can go now.
  if (pipeline_cache_ != VK_NULL_HANDLE) {
    vk.vkDestroyPipelineCache(device, pipeline_cache_, nullptr);
  }
}

// ---- queries and executables ------------------------------------------------

Result<int64_t> VulkanDevice::QueryI64(std::string_view category,
                                       std::string_view key) {
  if (category == "hal.device.id") return MatchesGlob(key, id()) ? 1 : 0;
  if (category == "hal.executable.format") {
    return key == "vulkan-spirv-fb" ? 1 : 0;
  }
  if (category == "hal.device" && key == "concurrency") return 1;
  if (category == "hal.dispatch" && key == "concurrency") return 1;
  return NotFoundError("device query '" + std::string(category) + "' :: '" +
                       std::string(key) + "' is not answered by vulkan");
}

// ---- recording and submission -----------------------------------------------

Result<std::unique_ptr<VulkanDevice::Recording>>
VulkanDevice::BeginRecording() {
  const VulkanApi& vk = context_->api();
  VkDevice device = context_->device();
  std::unique_ptr<Recording> recording;
  if (!free_recordings_.empty()) {
    // On failure the recording stays in the list, so that the destructor
    // still destroys its fence.
    Recording& reused = *free_recordings_.back();
    EMBER_VK_RETURN_IF_ERROR(vk.vkResetCommandBuffer(reused.command_buffer, 0),
                             "vkResetCommandBuffer");
    EMBER_VK_RETURN_IF_ERROR(vk.vkResetFences(device, 1, &reused.fence),
                             "vkResetFences");
    recording = std::move(free_recordings_.back());
    free_recordings_.pop_back();
  } else {
    recording = std::make_unique<Recording>();
    VkCommandBufferAllocateInfo allocate_info = {};
    allocate_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    allocate_info.commandPool = command_pool_;
    allocate_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate_info.commandBufferCount = 1;
    EMBER_VK_RETURN_IF_ERROR(
        vk.vkAllocateCommandBuffers(device, &allocate_info,
                                    &recording->command_buffer),
        "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence_info = {};
    fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    const VkResult result =
        vk.vkCreateFence(device, &fence_info, nullptr, &recording->fence);
    if (result != VK_SUCCESS) {
      vk.vkFreeCommandBuffers(device, command_pool_, 1,
                              &recording->command_buffer);
      return VkResultToStatus(result, "vkCreateFence");
    }
  }
  VkCommandBufferBeginInfo begin = {};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VkResult result = vk.vkBeginCommandBuffer(recording->command_buffer, &begin);
  if (result != VK_SUCCESS) {
    free_recordings_.push_back(std::move(recording));
    return VkResultToStatus(result, "vkBeginCommandBuffer");
  }
  context_->RecordFullBarrier(recording->command_buffer);
  return recording;
}

void VulkanDevice::Recycle(std::unique_ptr<Recording> recording) {
  for (VkDescriptorPool pool : recording->descriptor_pools) {
    context_->api().vkDestroyDescriptorPool(context_->device(), pool, nullptr);
  }
  recording->descriptor_pools.clear();
  // Dropping the references may free buffers (vkDestroyBuffer): outside
  // any lock of ours.
  std::vector<Ref<RefCounted>> keep_alive = std::move(recording->keep_alive);
  std::vector<Binding> table = std::move(recording->binding_table);
  recording->keep_alive.clear();
  recording->binding_table.clear();
  recording->on_complete = nullptr;
  {
    std::lock_guard lock(record_mutex_);
    free_recordings_.push_back(std::move(recording));
  }
}

template <typename Fn>
Status VulkanDevice::RecordAndEnqueue(const char* operation,
                                      const Ref<Fence>& wait,
                                      const Ref<Fence>& signal, Fn&& fn) {
  std::unique_ptr<Recording> recording;
  Status status;
  {
    std::lock_guard lock(record_mutex_);
    Result<std::unique_ptr<Recording>> begun = BeginRecording();
    if (begun.ok()) {
      recording = std::move(begun).value();
      Recorder recorder(*this, *recording);
      status = fn(recorder, *recording);
      context_->RecordHostVisibilityBarrier(recording->command_buffer);
      Status ended = VkResultToStatus(
          context_->api().vkEndCommandBuffer(recording->command_buffer),
          "vkEndCommandBuffer");
      if (status.ok()) status = std::move(ended);
    } else {
      status = std::move(begun).status();
    }
  }
  if (!status.ok()) {
    if (recording) Recycle(std::move(recording));
    if (signal) signal->Fail(status);
    return status;
  }
  {
    std::lock_guard lock(mutex_);
    if (stopping_) {
      status = Status(StatusCode::kAborted, "the Vulkan device is closing");
    } else {
      pending_.push_back({operation, wait, signal, std::move(recording)});
      ++enqueued_;
    }
  }
  if (!status.ok()) {
    if (recording) Recycle(std::move(recording));
    if (signal) signal->Fail(status);
    return status;
  }
  changed_.notify_all();
  // The submission thread looks again now (the new work may be ready, or
  // cover another's wait), and when this one's wait fence is reached.
  if (wait) WakeWhenDone(*wait, wake_);
  wake_->Wake();
  return Status::Ok();
}

void VulkanDevice::SubmitThreadMain() {
  std::unique_lock lock(mutex_);
  while (true) {
    // Read before looking, so that a change made while looking is seen.
    const uint64_t seen = wake_->count();
    int ready = -1;
    Status reached;
    for (size_t i = 0; i < pending_.size(); ++i) {
      Status status =
          pending_[i].wait ? pending_[i].wait->Query() : Status::Ok();
      if (status.code() == StatusCode::kDeferred &&
          CoveredByPromisesLocked(*pending_[i].wait)) {
        // What it waits for is signalled by work already on the queue,
        // which runs first (see the top of vulkan_device.h).
        status = Status::Ok();
        pending_[i].pipelined = true;
        ++pipelined_submissions_;
      }
      if (status.code() == StatusCode::kDeferred) {
        if (!stopping_) continue;
        status = Status(StatusCode::kAborted,
                        "the Vulkan device was destroyed before the "
                        "submission's wait fence was reached");
      }
      ready = static_cast<int>(i);
      reached = std::move(status);
      break;
    }
    if (ready < 0) {
      if (stopping_ && pending_.empty()) return;
      if (pending_.empty()) {
        changed_.wait(lock);
      } else {
        lock.unlock();
        wake_->Wait(seen);
        lock.lock();
      }
      continue;
    }
    Pending pending = std::move(pending_[ready]);
    pending_.erase(pending_.begin() + ready);
    lock.unlock();
    Status status = std::move(reached);
    const bool reached_ok = status.ok();
    if (status.ok()) {
      status = context_->Submit(pending.recording->command_buffer,
                                pending.recording->fence);
    }
    if (status.ok()) {
      lock.lock();
      // Its signal fence's timepoints are now promised by queued work --
      // unless host work (on_complete) must run first, which a later GPU
      // submission could not wait for.
      if (pending.signal && !pending.recording->on_complete) {
        for (const Fence::Timepoint& timepoint : pending.signal->timepoints()) {
          PromiseLocked(timepoint.semaphore, timepoint.value);
        }
      }
      in_flight_.push_back(std::move(pending));
      changed_.notify_all();
      continue;
    }
    if (reached_ok) {
      status.Annotate(std::string("submitting Vulkan queue operation '") +
                      pending.operation + "'");
    }
    Recycle(std::move(pending.recording));
    if (pending.signal) pending.signal->Fail(std::move(status));
    lock.lock();
    ++retired_;
    changed_.notify_all();
  }
}

void VulkanDevice::CompletionThreadMain() {
  const VulkanApi& vk = context_->api();
  VkDevice device = context_->device();
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock,
                  [&] { return !in_flight_.empty() || completion_stopping_; });
    if (in_flight_.empty()) return;  // stopping, and nothing left
    Pending pending = std::move(in_flight_.front());
    in_flight_.pop_front();
    lock.unlock();
    // The work is bounded (transfers, dispatches of bounded grids); only a
    // lost device ends the wait with an error.
    Status status = VkResultToStatus(
        vk.vkWaitForFences(device, 1, &pending.recording->fence, VK_TRUE,
                           UINT64_MAX),
        "vkWaitForFences");
    if (!status.ok()) {
      status.Annotate(std::string("completing Vulkan queue operation '") +
                      pending.operation + "'");
    }
    if (status.ok() && pending.recording->on_complete) {
      status = pending.recording->on_complete();
    }
    // A submission made early because its wait fence was promised by
    // earlier work (SubmitThreadMain) inherits that work's failure: the
    // earlier work completed first, so the fence is reached or failed now.
    if (status.ok() && pending.pipelined) {
      Status waited = pending.wait->Query();
      if (waited.code() == StatusCode::kDeferred) {
        status = InternalError(
            "a Vulkan submission completed before the fence it waited for");
      } else if (!waited.ok()) {
        status = std::move(waited);
      }
    }
    // The submission's references go before its fence is signalled, so a
    // waiter that then drops its own sees the memory (and an import's
    // release) go at once.
    Recycle(std::move(pending.recording));
    if (pending.signal) {
      if (status.ok()) status = pending.signal->Signal();
      if (!status.ok()) pending.signal->Fail(std::move(status));
    }
    lock.lock();
    ++retired_;
    ForgetReachedPromisesLocked();
    changed_.notify_all();
  }
}

bool VulkanDevice::CoveredByPromisesLocked(const Fence& wait) const {
  for (const Fence::Timepoint& timepoint : wait.timepoints()) {
    if (timepoint.semaphore->Reached(timepoint.value)) continue;
    bool promised = false;
    for (const Promise& promise : promised_) {
      if (promise.semaphore.get() == timepoint.semaphore.get() &&
          promise.value >= timepoint.value) {
        promised = true;
        break;
      }
    }
    if (!promised) return false;
  }
  return true;
}

void VulkanDevice::PromiseLocked(const Ref<Semaphore>& semaphore,
                                 uint64_t value) {
  for (Promise& promise : promised_) {
    if (promise.semaphore.get() == semaphore.get()) {
      promise.value = std::max(promise.value, value);
      return;
    }
  }
  promised_.push_back({semaphore, value});
}

void VulkanDevice::ForgetReachedPromisesLocked() {
  // A promise is kept until its value is reached or its semaphore fails:
  // then a waiter's own Query answers.
  std::erase_if(promised_, [](const Promise& promise) {
    Result<uint64_t> value = promise.semaphore->Query();
    return !value.ok() || *value >= promise.value;
  });
}

Status VulkanDevice::WaitIdle(Timeout timeout) {
  std::unique_lock lock(mutex_);
  const uint64_t target = enqueued_;
  auto done = [&] { return retired_ >= target; };
  if (timeout.infinite()) {
    changed_.wait(lock, done);
    return Status::Ok();
  }
  if (!changed_.wait_until(lock, timeout.deadline(), done)) {
    return Status(StatusCode::kDeadlineExceeded,
                  "the Vulkan queue did not drain in time");
  }
  return Status::Ok();
}

// ---- queue operations -------------------------------------------------------

Result<Ref<Buffer>> VulkanDevice::QueueAlloca(const Ref<Fence>& wait,
                                              const Ref<Fence>& signal,
                                              const BufferParams& params,
                                              uint64_t size) {
  // The memory is taken now; the signal fence says when it may be used.
  Result<Ref<Buffer>> buffer = allocator_->Allocate(params, size);
  if (!buffer.ok()) {
    if (signal) signal->Fail(buffer.status());
    return buffer;
  }
  CompleteOnHost(wait, signal, nullptr);
  return buffer;
}

Status VulkanDevice::QueueDealloca(const Ref<Fence>& wait,
                                   const Ref<Fence>& signal,
                                   const Ref<Buffer>& buffer) {
  // The memory goes back with the last reference, held until the wait
  // fence -- which orders every queued use of the buffer -- is reached.
  CompleteOnHost(wait, signal, buffer);
  return Status::Ok();
}

Status VulkanDevice::QueueFill(const Ref<Fence>& wait, const Ref<Fence>& signal,
                               const Ref<Buffer>& target, uint64_t offset,
                               uint64_t length, uint64_t pattern,
                               uint32_t pattern_length) {
  return RecordAndEnqueue(
      "fill", wait, signal, [&](Recorder& recorder, Recording&) -> Status {
        EMBER_ASSIGN_OR_RETURN(
            VkRange range,
            recorder.Resolve(target.get(), offset, length, "fill target"));
        recorder.Keep(target);
        return recorder.Fill(range, pattern, pattern_length);
      });
}

Status VulkanDevice::QueueCopy(const Ref<Fence>& wait, const Ref<Fence>& signal,
                               const Ref<Buffer>& source,
                               uint64_t source_offset,
                               const Ref<Buffer>& target,
                               uint64_t target_offset, uint64_t length) {
  return RecordAndEnqueue(
      "copy", wait, signal, [&](Recorder& recorder, Recording&) -> Status {
        EMBER_ASSIGN_OR_RETURN(
            VkRange from, recorder.Resolve(source.get(), source_offset, length,
                                           "copy source"));
        EMBER_ASSIGN_OR_RETURN(VkRange to,
                               recorder.Resolve(target.get(), target_offset,
                                                from.length, "copy target"));
        recorder.Keep(source);
        recorder.Keep(target);
        return recorder.Copy(from, to, from.length);
      });
}

Status VulkanDevice::QueueUpdate(const Ref<Fence>& wait,
                                 const Ref<Fence>& signal,
                                 std::span<const uint8_t> source,
                                 const Ref<Buffer>& target,
                                 uint64_t target_offset, uint64_t length) {
  return RecordAndEnqueue(
      "update", wait, signal, [&](Recorder& recorder, Recording&) -> Status {
        if (length > source.size()) {
          return OutOfRangeError(StringPrintf(
              "update of %llu bytes from a source of %zu",
              static_cast<unsigned long long>(length), source.size()));
        }
        EMBER_ASSIGN_OR_RETURN(
            VkRange to, recorder.Resolve(target.get(), target_offset, length,
                                         "update target"));
        recorder.Keep(target);
        // The caller's bytes are copied now (into the command buffer or a
        // staging buffer), so the caller may reuse them once this returns.
        return recorder.Update(to, source.first(length));
      });
}

Status VulkanDevice::QueueBarrier(const Ref<Fence>& wait,
                                  const Ref<Fence>& signal) {
  CompleteOnHost(wait, signal, nullptr);
  return Status::Ok();
}

void VulkanDevice::CompleteOnHost(const Ref<Fence>& wait,
                                  const Ref<Fence>& signal,
                                  Ref<RefCounted> keep) {
  Fence::Timepoints timepoints;
  if (wait) timepoints = wait->timepoints();
  if (timepoints.empty()) {
    if (signal) {
      Status status = signal->Signal();
      if (!status.ok()) signal->Fail(std::move(status));
    }
    return;
  }
  // Shared by one listener per timepoint; the last to run signals (unless
  // one failed first) and, going, releases `keep`.
  struct Pending {
    Ref<Fence> signal;
    Ref<RefCounted> keep;
    std::atomic<size_t> remaining{0};
    std::atomic<bool> failed{false};
  };
  auto pending = std::make_shared<Pending>();
  pending->signal = signal;
  pending->keep = std::move(keep);
  pending->remaining.store(timepoints.size(), std::memory_order_relaxed);
  for (const Fence::Timepoint& timepoint : timepoints) {
    timepoint.semaphore->NotifyAt(
        timepoint.value, [pending](const Status& status) {
          if (!status.ok() && !pending->failed.exchange(true)) {
            if (pending->signal) pending->signal->Fail(status);
          }
          if (pending->remaining.fetch_sub(1) == 1 && !pending->failed &&
              pending->signal) {
            Status signalled = pending->signal->Signal();
            if (!signalled.ok()) pending->signal->Fail(std::move(signalled));
          }
        });
  }
}

Status VulkanDevice::QueueExecute(const Ref<Fence>& wait,
                                  const Ref<Fence>& signal,
                                  const Ref<CommandBuffer>& command_buffer,
                                  std::span<const Binding> binding_table) {
  return RecordAndEnqueue(
      "execute", wait, signal,
      [&](Recorder& recorder, Recording& recording) -> Status {
        if (!command_buffer) return Status::Ok();  // a barrier
        if (!command_buffer->finalized()) {
          return FailedPreconditionError(
              "command buffer submitted before it was finalized");
        }
        EMBER_RETURN_IF_ERROR(
            command_buffer->ValidateBindingTable(binding_table));
        // The table's buffers stay alive with the submission.
        recording.binding_table.assign(binding_table.begin(),
                                       binding_table.end());
        recorder.Keep(command_buffer);
        return recorder.Execute(*command_buffer, recording.binding_table);
      });
}

Status VulkanDevice::QueueReadToHost(const Ref<Fence>& wait,
                                     const Ref<Fence>& signal,
                                     const Ref<Buffer>& source,
                                     uint64_t source_offset,
                                     std::span<uint8_t> target,
                                     Ref<RefCounted> keep_alive) {
  return RecordAndEnqueue(
      "read", wait, signal,
      [&](Recorder& recorder, Recording& recording) -> Status {
        if (!source) return FailedPreconditionError("read of a null buffer");
        EMBER_RETURN_IF_ERROR(
            source->ValidateUsage(BufferUsage::kTransferSource));
        EMBER_ASSIGN_OR_RETURN(VkRange from,
                               recorder.Resolve(source.get(), source_offset,
                                                target.size(), "read source"));
        recorder.Keep(source);
        if (keep_alive) recorder.Keep(keep_alive);
        if (target.empty()) return Status::Ok();
        EMBER_ASSIGN_OR_RETURN(Ref<VulkanBuffer> staging,
                               allocator_->AllocateStaging(target.size()));
        VkBufferCopy region = {from.offset, 0, target.size()};
        context_->api().vkCmdCopyBuffer(recording.command_buffer, from.handle,
                                        staging->handle(), 1, &region);
        VulkanBuffer* staged = staging.get();
        recorder.Keep(std::move(staging));
        recording.on_complete = [staged, target]() -> Status {
          EMBER_RETURN_IF_ERROR(staged->Invalidate(0, target.size()));
          EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> bytes,
                                 staged->HostRange(0, target.size()));
          std::memcpy(target.data(), bytes.data(), bytes.size());
          return Status::Ok();
        };
        return Status::Ok();
      });
}

Status VulkanDevice::QueueFlush() {
  // Every operation is submitted as soon as its wait fence is reached.
  return Status::Ok();
}

// ---- host transfers ---------------------------------------------------------

Status VulkanDevice::WriteBuffer(const Ref<Buffer>& target, uint64_t offset,
                                 std::span<const uint8_t> bytes) {
  if (!target) return InvalidArgumentError("write to a null buffer");
  if (!allocator_->IsCompatible(*target)) {
    return InvalidArgumentError("buffer does not belong to device 'vulkan'");
  }
  // Mapped memory is written directly and other memory through staging,
  // whatever mapping usage the buffer was made with: this is the device's
  // own transfer, not a host mapping.
  EMBER_RETURN_IF_ERROR(target->ValidateAccess(MemoryAccess::kWrite));
  EMBER_RETURN_IF_ERROR(
      CalculateRange(target->byte_length(), offset, bytes.size()).status());
  auto* allocated = const_cast<VulkanBuffer*>(
      static_cast<const VulkanBuffer*>(&target->allocated_buffer()));
  return allocator_->CopyIn(*allocated, target->byte_offset() + offset, bytes);
}

Status VulkanDevice::ReadBuffer(const Ref<Buffer>& source, uint64_t offset,
                                std::span<uint8_t> bytes) {
  if (!source) return InvalidArgumentError("read of a null buffer");
  if (!allocator_->IsCompatible(*source)) {
    return InvalidArgumentError("buffer does not belong to device 'vulkan'");
  }
  EMBER_RETURN_IF_ERROR(source->ValidateAccess(MemoryAccess::kRead));
  EMBER_RETURN_IF_ERROR(
      CalculateRange(source->byte_length(), offset, bytes.size()).status());
  auto* allocated = const_cast<VulkanBuffer*>(
      static_cast<const VulkanBuffer*>(&source->allocated_buffer()));
  return allocator_->CopyOut(*allocated, source->byte_offset() + offset, bytes);
}

// ---- dispatch ---------------------------------------------------------------

Result<Ref<Executable>> VulkanDevice::CreateExecutable(
    std::string_view format, std::span<const uint8_t> data,
    std::span<const uint32_t> constants) {
  if (format != kVulkanSpirvFormat) {
    return UnimplementedError("the Vulkan device runs executables of format '" +
                              std::string(kVulkanSpirvFormat) + "', not '" +
                              std::string(format) + "'");
  }
  EMBER_ASSIGN_OR_RETURN(
      Ref<VulkanExecutable> executable,
      VulkanExecutable::Load(context_->api(), context_->device(), context_,
                             executable_limits_, data, constants));
  return Ref<Executable>(std::move(executable));
}

Status VulkanDevice::Recorder::Dispatch(const DispatchCommand& command,
                                        std::span<const Binding> table) {
  const auto* executable =
      dynamic_cast<const VulkanExecutable*>(command.executable.get());
  if (executable == nullptr) {
    return InvalidArgumentError(
        "dispatch of an executable made by another kind of device");
  }
  if (command.export_ordinal >= executable->export_count()) {
    return InvalidArgumentError(
        StringPrintf("dispatch of export %u of an executable with %zu exports",
                     command.export_ordinal, executable->export_count()));
  }
  const VulkanExecutable::ExportRecord& export_record =
      executable->export_record(command.export_ordinal);
  if (export_record.layout == nullptr) {
    return InternalError("Vulkan export without a pipeline layout record");
  }
  const VulkanExecutable::LayoutRecord& layout = *export_record.layout;
  const VkPhysicalDeviceLimits& limits = device_.context_->properties().limits;
  if (command.constants.size() * 4 != layout.push_constant_bytes) {
    return InvalidArgumentError(StringPrintf(
        "dispatch of '%s' passes %zu constants; the export takes %u",
        export_record.entry_point.c_str(), command.constants.size(),
        layout.push_constant_bytes / 4));
  }
  if (command.bindings.size() != layout.bindings.size()) {
    return InvalidArgumentError(StringPrintf(
        "dispatch of '%s' passes %zu bindings; the export takes %zu",
        export_record.entry_point.c_str(), command.bindings.size(),
        layout.bindings.size()));
  }

  // Resolve every operand before recording anything.
  VkRange indirect;
  if (command.indirect) {
    EMBER_ASSIGN_OR_RETURN(ResolvedBuffer counts,
                           ResolveBufferRef(command.workgroups_ref, table),
                           "workgroup count buffer");
    EMBER_ASSIGN_OR_RETURN(indirect, Resolve(counts.buffer, counts.offset, 12,
                                             "workgroup count buffer"));
    if (indirect.offset % 4 != 0) {
      return InvalidArgumentError(
          "the workgroup count buffer's offset is not a multiple of 4 "
          "(vkCmdDispatchIndirect)");
    }
  } else {
    for (int i = 0; i < 3; ++i) {
      if (command.workgroup_count[i] > limits.maxComputeWorkGroupCount[i]) {
        return InvalidArgumentError(StringPrintf(
            "dispatch of '%s' with workgroup count %u in dimension %d "
            "exceeds the device's maxComputeWorkGroupCount of %u",
            export_record.entry_point.c_str(), command.workgroup_count[i], i,
            limits.maxComputeWorkGroupCount[i]));
      }
    }
  }
  std::vector<VkDescriptorBufferInfo> infos(command.bindings.size());
  for (size_t i = 0; i < command.bindings.size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(ResolvedBuffer resolved,
                           ResolveBufferRef(command.bindings[i], table),
                           "dispatch binding %zu", i);
    if (resolved.buffer == nullptr) {
      return FailedPreconditionError(
          StringPrintf("dispatch of '%s': required binding %zu is NULL",
                       export_record.entry_point.c_str(), i));
    }
    EMBER_ASSIGN_OR_RETURN(VkRange range, Resolve(resolved, "dispatch binding"),
                           "dispatch binding %zu", i);
    const bool uniform =
        layout.bindings[i].descriptor_type == kVulkanDescriptorUniformBuffer;
    const uint64_t alignment =
        std::max<uint64_t>(1, uniform ? limits.minUniformBufferOffsetAlignment
                                      : limits.minStorageBufferOffsetAlignment);
    const uint64_t max_range =
        uniform ? limits.maxUniformBufferRange : limits.maxStorageBufferRange;
    if (range.offset % alignment != 0) {
      return InvalidArgumentError(StringPrintf(
          "dispatch binding %zu at byte %llu is not aligned to the device's "
          "min%sBufferOffsetAlignment of %llu",
          i, static_cast<unsigned long long>(range.offset),
          uniform ? "Uniform" : "Storage",
          static_cast<unsigned long long>(alignment)));
    }
    if (range.length > max_range) {
      return InvalidArgumentError(StringPrintf(
          "dispatch binding %zu of %llu bytes exceeds the device's "
          "max%sBufferRange of %llu",
          i, static_cast<unsigned long long>(range.length),
          uniform ? "Uniform" : "Storage",
          static_cast<unsigned long long>(max_range)));
    }
    // Vulkan has no empty descriptor range; a zero-length binding is bound
    // to the whole (at least 4-byte) buffer, which the shader must not
    // read past the binding's length anyway.
    if (range.length == 0) {
      infos[i] = {range.handle, 0, VK_WHOLE_SIZE};
    } else {
      infos[i] = {range.handle, range.offset, range.length};
    }
  }

  // One write per HAL binding, grouped by set number.
  const size_t set_count = layout.set_layouts.size();
  std::vector<std::vector<VkWriteDescriptorSet>> writes(set_count);
  for (size_t i = 0; i < infos.size(); ++i) {
    const VulkanHalBinding& target = layout.bindings[i];
    if (target.set >= set_count) {
      return InternalError("dispatch binding maps to a set past the layout");
    }
    VkWriteDescriptorSet write = {};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstBinding = target.binding;
    write.dstArrayElement = target.array_element;
    write.descriptorCount = 1;
    write.descriptorType =
        static_cast<VkDescriptorType>(target.descriptor_type);
    write.pBufferInfo = &infos[i];
    writes[target.set].push_back(write);
  }

  vk_.vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_COMPUTE,
                        export_record.pipeline);
  if (executable->uses_push_descriptors()) {
    for (size_t s = 0; s < set_count; ++s) {
      if (writes[s].empty()) continue;
      vk_.vkCmdPushDescriptorSetKHR(
          cb_, VK_PIPELINE_BIND_POINT_COMPUTE, layout.pipeline_layout,
          static_cast<uint32_t>(s), static_cast<uint32_t>(writes[s].size()),
          writes[s].data());
    }
  } else if (set_count != 0) {
    // A pool for exactly this dispatch's sets, freed with the submission.
    uint32_t storage = 0, uniform = 0;
    for (size_t s = 0; s < set_count; ++s) {
      storage += layout.set_storage_buffers[s];
      uniform += layout.set_uniform_buffers[s];
    }
    VkDescriptorPoolSize sizes[2];
    uint32_t size_count = 0;
    if (storage != 0) {
      sizes[size_count++] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storage};
    }
    if (uniform != 0) {
      sizes[size_count++] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniform};
    }
    VkDescriptorPoolCreateInfo pool_info = {};
    pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool_info.maxSets = static_cast<uint32_t>(set_count);
    pool_info.poolSizeCount = size_count;
    pool_info.pPoolSizes = sizes;
    VkDevice device = device_.context_->device();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    EMBER_VK_RETURN_IF_ERROR(
        vk_.vkCreateDescriptorPool(device, &pool_info, nullptr, &pool),
        "vkCreateDescriptorPool");
    recording_.descriptor_pools.push_back(pool);
    std::vector<VkDescriptorSet> sets(set_count);
    VkDescriptorSetAllocateInfo allocate_info = {};
    allocate_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate_info.descriptorPool = pool;
    allocate_info.descriptorSetCount = static_cast<uint32_t>(set_count);
    allocate_info.pSetLayouts = layout.set_layouts.data();
    EMBER_VK_RETURN_IF_ERROR(
        vk_.vkAllocateDescriptorSets(device, &allocate_info, sets.data()),
        "vkAllocateDescriptorSets");
    std::vector<VkWriteDescriptorSet> all;
    for (size_t s = 0; s < set_count; ++s) {
      for (VkWriteDescriptorSet write : writes[s]) {
        write.dstSet = sets[s];
        all.push_back(write);
      }
    }
    vk_.vkUpdateDescriptorSets(device, static_cast<uint32_t>(all.size()),
                               all.data(), 0, nullptr);
    vk_.vkCmdBindDescriptorSets(
        cb_, VK_PIPELINE_BIND_POINT_COMPUTE, layout.pipeline_layout, 0,
        static_cast<uint32_t>(set_count), sets.data(), 0, nullptr);
  }
  if (layout.push_constant_bytes != 0) {
    vk_.vkCmdPushConstants(
        cb_, layout.pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
        layout.push_constant_bytes, command.constants.data());
  }
  if (command.indirect) {
    vk_.vkCmdDispatchIndirect(cb_, indirect.handle, indirect.offset);
  } else {
    vk_.vkCmdDispatch(cb_, command.workgroup_count[0],
                      command.workgroup_count[1], command.workgroup_count[2]);
  }
  return Status::Ok();
}

}  // namespace ember::hal::vulkan
