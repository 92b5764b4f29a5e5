// LocalDevice: the CPU device, `local-sync` and `local-task`.
//
// `local-sync` runs queue operations on the calling thread, in submission
// order: wait for the wait fence (blocking, as IREE's local-sync does), do
// the work, signal the signal fence (or fail it with the error), and runs
// every workgroup of a dispatch inline.
//
// `local-task` spreads a dispatch's workgroups over a WorkerPool (the caller
// is one of the workers, and a dispatch of a single workgroup never leaves
// the caller's thread), and its submissions are asynchronous: one whose wait
// fence is already reached runs at once on the submitting thread (the
// common case: a program's queue operations chain through fences the
// previous one signalled, and nothing pays for a hand-off), and one whose
// fence is not yet reached -- or any, while the submitter holds a
// ScopedDeferSubmissions (device.h) -- returns immediately and is run by
// one of the device's queue threads as soon as the fence is reached, in
// whatever order fences allow (ordering is by semaphores only, as in IREE).
// Its errors then fail its signal fence. A device destroyed with
// submissions still waiting fails their signal fences with ABORTED.
//
// There are as many queue threads as workers, started with the first
// deferred submission, and each runs one ready submission at a time, so
// independent submissions (calls issued together from an asyncio loop) run
// side by side on the cores. A dispatch on a queue thread uses the worker
// pool when it is free and runs inline when another dispatch holds it, so
// neither waits for the other.
//
// Executables: the device loads embedded and system ELF libraries itself
// (CpuExecutable) and hands other formats to the ExecutableLoaders it was
// made with (local_executable.h; e.g. VMVX from runtime/modules/vmvx); a
// dispatch runs either kind through the LocalExecutable interface.
//
// Command buffers are replayed from their recorded commands; every buffer
// reference is resolved against the submission's binding table and range
// checked before the command runs (command_buffer.h).
//
// Thread safety: thread-safe. Each submission waits for its wait fence
// without holding the device, so a submission may wait for a fence another
// thread's submission signals. Inline submissions run under the device's
// queue lock (work from several submitting threads is serialised); queued
// ones run on the queue threads, concurrently with each other.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/hal/cpu/cpu_executable.h"
#include "runtime/hal/cpu/local_executable.h"
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
  // Loaders of executable formats beyond the ELF ones (e.g. VMVX from
  // runtime/modules/vmvx), asked in order.
  std::vector<Ref<ExecutableLoader>> loaders = {};
};

class LocalDevice final : public Device {
 public:
  static Ref<LocalDevice> Create(const LocalDeviceOptions& options);
  ~LocalDevice() override;

  std::string_view id() const override { return id_; }
  Allocator& allocator() override { return *allocator_; }
  bool queues_asynchronously() const override { return async_; }
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
  Status QueueReadToHost(const Ref<Fence>& wait, const Ref<Fence>& signal,
                         const Ref<Buffer>& source, uint64_t source_offset,
                         std::span<uint8_t> target,
                         Ref<RefCounted> keep_alive) override;
  Status QueueFlush() override { return Status::Ok(); }

  // Runs the recorded commands of `command_buffer` now, on this thread.
  Status ExecuteCommands(const CommandBuffer& command_buffer,
                         std::span<const Binding> binding_table);

 private:
  LocalDevice() = default;
  // Waits, runs `work`, then signals or fails `signal`. On local-task, a
  // submission whose wait fence is not reached yet is deferred instead:
  // `make_deferred()` returns the work as a self-contained function (owning
  // copies of what `work` only borrows).
  // `operation` and `bytes` name the submission in traces (trace.h).
  template <typename Work, typename MakeDeferred>
  Status Submit(const char* operation, uint64_t bytes, const Ref<Fence>& wait,
                const Ref<Fence>& signal, Work&& work,
                MakeDeferred&& make_deferred);
  // For work that owns everything it uses.
  template <typename Work>
  Status Submit(const char* operation, uint64_t bytes, const Ref<Fence>& wait,
                const Ref<Fence>& signal, Work work) {
    return Submit(operation, bytes, wait, signal, work,
                  [&] { return std::function<Status()>(work); });
  }
  struct Deferred {
    Ref<Fence> wait;
    Ref<Fence> signal;
    std::function<Status()> work;
    const char* operation = "";
    uint64_t bytes = 0;
  };
  Status Defer(Deferred deferred);
  void QueueThreadMain();
  Status ExecuteDispatch(const DispatchCommand& command,
                         std::span<const Binding> binding_table);
  [[gnu::cold, gnu::noinline]] Status RunDispatchTraced(
      const LocalExecutable& executable, const DispatchArguments& arguments,
      uint64_t total, bool parallel, const WorkerPool::Body& run);
  [[gnu::cold, gnu::noinline]] void TraceDispatch(
      const LocalExecutable& executable, const DispatchArguments& arguments,
      uint64_t begin) const;
  [[gnu::cold, gnu::noinline]] void TraceWorkgroups(
      const LocalExecutable& executable, uint32_t export_ordinal,
      uint32_t worker, uint64_t first, uint64_t end, uint64_t begin) const;

  std::string id_;
  Ref<Allocator> allocator_;
  std::vector<Ref<ExecutableLoader>> loaders_;
  std::unique_ptr<WorkerPool> pool_;  // local-task only
  std::mutex queue_mutex_;
  bool async_ = false;  // local-task
  // Deferred submissions (local-task), run by queue_threads_, which start
  // with the first one.
  std::mutex pending_mutex_;
  std::vector<Deferred> pending_;
  bool stopping_ = false;
  std::vector<std::thread> queue_threads_;
  // Wakes the queue threads: a new submission, a wait fence of one reached
  // or failed, or the device stopping.
  std::shared_ptr<WakeSignal> wake_ = std::make_shared<WakeSignal>();
  std::atomic<uint32_t> running_deferred_{0};  // submissions queue threads run
};

// Adds the `local-sync` and `local-task` drivers to `registry`.
// `local-task` takes `?worker_count=N` (default: the number of cores).
// Devices they make are given `loaders` (LocalDeviceOptions::loaders).
Status RegisterLocalDrivers(DriverRegistry& registry,
                            std::vector<Ref<ExecutableLoader>> loaders = {});

}  // namespace ember::hal::cpu
