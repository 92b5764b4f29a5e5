// Device: one place where programs run, with its allocator and queue.
//
// What a compiled program asks of a device is small and fixed by the `hal`
// module (docs/hal-module.md, "Device queries"): answer queries
// (`hal.device.id`, `hal.executable.format`, concurrency), make executables
// from the program's executable data, and run queue operations --
// allocate, free, fill, copy, update, execute command buffers -- each
// ordered by a wait fence and announcing completion through a signal
// fence. Devices differ in where and when the work happens (inline on the
// caller for `local-sync`, on a worker pool for `local-task`), not in what
// they accept, so this interface is the whole contract and the `hal` module
// knows no device kind.
//
// A device owns its objects: buffers come from its allocator, and command
// buffers and semaphores from CreateCommandBuffer / CreateSemaphore. What
// every device shares is kept here, in hal: the recorded command buffer
// (each device replays its commands in its own way -- the CPU devices run
// them, the Vulkan device turns them into Vulkan commands at submission)
// and the host timeline semaphore (a device with its own queue signals it
// when its work completes). Nothing above the devices assumes host memory:
// ReadBuffer / WriteBuffer move bytes between the host and any buffer of
// the device, mapping where the memory allows and staging where it does not.
//
// Queue operations take fences that may be null (nothing to wait for /
// nothing to signal). A failure inside queued work fails the signal fence
// with the error, as IREE does, so a waiter sees it.
//
// Thread safety: devices are thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/command_buffer.h"
#include "runtime/hal/semaphore.h"

namespace ember::hal {

// While one is alive on a thread, devices with their own queue threads
// (local-task) queue that thread's submissions for those threads even when
// their wait fences are already reached, instead of running them inline on
// the submitter. What a caller that must not block (an asyncio event loop
// issuing a call of the coarse-fences model) asks for: the call returns once
// its work is queued, and the signal fences say when it is done. Devices
// without queue threads (local-sync) ignore it. Nests.
class ScopedDeferSubmissions {
 public:
  ScopedDeferSubmissions();
  ~ScopedDeferSubmissions();
  ScopedDeferSubmissions(const ScopedDeferSubmissions&) = delete;
  ScopedDeferSubmissions& operator=(const ScopedDeferSubmissions&) = delete;

  // Whether one is alive on the calling thread.
  static bool active();
};

class Device : public RefCounted {
 public:
  // The driver-visible identifier ("local-sync", "local-task"), matched by
  // `hal.device.id` queries.
  virtual std::string_view id() const = 0;
  virtual Allocator& allocator() = 0;
  // Whether queue operations may complete after they return (the device
  // has threads of its own that run them); then ScopedDeferSubmissions is
  // honoured. False for devices that run everything inline.
  virtual bool queues_asynchronously() const { return false; }

  // IREE's device queries: NOT_FOUND for a category/key the device does not
  // answer (the `hal` module turns that into "not ok", not an error).
  virtual Result<int64_t> QueryI64(std::string_view category,
                                   std::string_view key) = 0;

  // Makes an executable from `data` in `format` ("embedded-elf-x86_64", ...)
  // with the executable-level `constants`.
  virtual Result<Ref<Executable>> CreateExecutable(
      std::string_view format, std::span<const uint8_t> data,
      std::span<const uint32_t> constants) = 0;

  virtual Result<Ref<Buffer>> QueueAlloca(const Ref<Fence>& wait,
                                          const Ref<Fence>& signal,
                                          const BufferParams& params,
                                          uint64_t size) = 0;
  virtual Status QueueDealloca(const Ref<Fence>& wait, const Ref<Fence>& signal,
                               const Ref<Buffer>& buffer) = 0;
  virtual Status QueueFill(const Ref<Fence>& wait, const Ref<Fence>& signal,
                           const Ref<Buffer>& target, uint64_t offset,
                           uint64_t length, uint64_t pattern,
                           uint32_t pattern_length) = 0;
  virtual Status QueueCopy(const Ref<Fence>& wait, const Ref<Fence>& signal,
                           const Ref<Buffer>& source, uint64_t source_offset,
                           const Ref<Buffer>& target, uint64_t target_offset,
                           uint64_t length) = 0;
  virtual Status QueueUpdate(const Ref<Fence>& wait, const Ref<Fence>& signal,
                             std::span<const uint8_t> source,
                             const Ref<Buffer>& target, uint64_t target_offset,
                             uint64_t length) = 0;
  virtual Status QueueBarrier(const Ref<Fence>& wait,
                              const Ref<Fence>& signal) = 0;
  virtual Status QueueExecute(const Ref<Fence>& wait, const Ref<Fence>& signal,
                              const Ref<CommandBuffer>& command_buffer,
                              std::span<const Binding> binding_table) = 0;
  // Copies [source_offset, + target.size()) of `source` into host memory
  // at `target` once `wait` is reached, then signals `signal` (`hal.device.
  // queue.write` into a file). `keep_alive` owns the target memory and is
  // held until the copy is done.
  virtual Status QueueReadToHost(const Ref<Fence>& wait,
                                 const Ref<Fence>& signal,
                                 const Ref<Buffer>& source,
                                 uint64_t source_offset,
                                 std::span<uint8_t> target,
                                 Ref<RefCounted> keep_alive) = 0;
  virtual Status QueueFlush() = 0;

  // A command buffer this device can execute.
  virtual Result<Ref<CommandBuffer>> CreateCommandBuffer(
      CommandBufferMode mode, CommandCategory categories,
      uint32_t binding_capacity) {
    return CommandBuffer::Create(mode, categories, binding_capacity);
  }
  // A timeline semaphore this device can wait on and signal.
  virtual Result<Ref<Semaphore>> CreateSemaphore(uint64_t initial_value) {
    return Semaphore::Create(initial_value);
  }

  // Synchronous transfers between the host and a buffer of this device,
  // outside any queue order (the caller makes sure no queued work uses the
  // range): map and copy for memory the host can map, a staging copy
  // otherwise. Range-checked; `bytes.size()` is the length.
  virtual Status WriteBuffer(const Ref<Buffer>& target, uint64_t offset,
                             std::span<const uint8_t> bytes);
  virtual Status ReadBuffer(const Ref<Buffer>& source, uint64_t offset,
                            std::span<uint8_t> bytes);
};

// Whether `text` matches the glob `pattern` (`*` any run, `?` one
// character), as `hal.device.id` queries match identifiers.
bool MatchesGlob(std::string_view pattern, std::string_view text);

}  // namespace ember::hal
