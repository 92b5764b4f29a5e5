// LocalDevice: the CPU device, `local-sync` and `local-task`.
//
// Both modes run queue operations on the calling thread, in submission
// order: wait for the wait fence, do the work, signal the signal fence (or
// fail it with the error). They differ in dispatches: `local-sync` runs
// every workgroup inline, `local-task` spreads a dispatch's workgroups over
// a WorkerPool (the caller is one of the workers, and a dispatch of a single
// workgroup never leaves the caller's thread).
//
// Command buffers are replayed from their recorded commands; every buffer
// reference is resolved against the submission's binding table and range
// checked before the command runs (command_buffer.h).
//
// Thread safety: thread-safe. Each submission waits for its wait fence
// without holding the device, then runs under the device's queue lock, so
// work from several threads is serialised and a submission may wait for a
// fence another thread's submission signals.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/hal/cpu/worker_pool.h"
#include "runtime/hal/device.h"
#include "runtime/hal/driver.h"

namespace ember::hal::cpu {

struct LocalDeviceOptions {
  std::string id = "local-sync";
  // Workers for local-task (including the submitting thread); 0 picks the
  // number of cores. Ignored by local-sync.
  uint32_t worker_count = 0;
  bool use_workers = false;
};

class LocalDevice final : public Device {
 public:
  static Ref<LocalDevice> Create(const LocalDeviceOptions& options);

  std::string_view id() const override { return id_; }
  Allocator& allocator() override { return *allocator_; }
  uint32_t worker_count() const;

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
  Status QueueFlush() override { return Status::Ok(); }

  // Runs the recorded commands of `command_buffer` now, on this thread.
  Status ExecuteCommands(const CommandBuffer& command_buffer,
                         std::span<const Binding> binding_table);

 private:
  LocalDevice() = default;
  // Waits, runs `work`, then signals or fails `signal`.
  template <typename Work>
  Status Submit(const Ref<Fence>& wait, const Ref<Fence>& signal, Work&& work);
  Status ExecuteDispatch(const DispatchCommand& command,
                         std::span<const Binding> binding_table);

  std::string id_;
  Ref<Allocator> allocator_;
  std::unique_ptr<WorkerPool> pool_;  // local-task only
  std::mutex queue_mutex_;
};

// Adds the `local-sync` and `local-task` drivers to `registry`.
// `local-task` takes `?worker_count=N` (default: the number of cores).
Status RegisterLocalDrivers(DriverRegistry& registry);

}  // namespace ember::hal::cpu
