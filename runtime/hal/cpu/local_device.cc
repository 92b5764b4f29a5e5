#include "runtime/hal/cpu/local_device.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/base/trace.h"
#include "runtime/hal/cpu/cpu_executable.h"
#include "runtime/hal/cpu/cpu_info.h"

namespace ember::hal::cpu {
namespace {

// The host bytes of a buffer the CPU devices run on: host memory only. A
// buffer of another device's memory is refused even where the host could
// map it (nothing would order the two devices' accesses).
Result<std::span<uint8_t>> HostBytes(Buffer* buffer, uint64_t offset,
                                     uint64_t length) {
  if (buffer->memory_domain() != kHostMemoryDomain) [[unlikely]] {
    return InvalidArgumentError(
        "buffer belongs to another device's memory; a local device uses "
        "host memory only");
  }
  return buffer->HostRange(offset, length);
}

// Whether this thread is one of a device's queue threads.
thread_local bool in_queue_thread = false;

// Per-thread workgroup-local memory, grown on demand and kept for the next
// dispatch (IREE allocates it per dispatch; reuse saves the malloc).
std::span<uint8_t> LocalMemory(size_t size) {
  struct Scratch {
    void* data = nullptr;
    size_t size = 0;
    ~Scratch() { std::free(data); }
  };
  thread_local Scratch scratch;
  if (size == 0) return {};
  if (scratch.size < size) {
    std::free(scratch.data);
    size_t rounded = (size + 63) / 64 * 64;
    scratch.data = std::aligned_alloc(64, rounded);
    scratch.size = scratch.data ? rounded : 0;
  }
  if (!scratch.data) return {};
  std::memset(scratch.data, 0, size);
  return {static_cast<uint8_t*>(scratch.data), size};
}

void FillPattern(uint8_t* target, uint64_t length, uint64_t pattern,
                 uint32_t pattern_length) {
  switch (pattern_length) {
    case 1:
      std::memset(target, static_cast<int>(pattern & 0xFF), length);
      break;
    case 2:
      for (uint64_t i = 0; i < length; i += 2) {
        auto value = static_cast<uint16_t>(pattern);
        std::memcpy(target + i, &value, 2);
      }
      break;
    case 4:
      for (uint64_t i = 0; i < length; i += 4) {
        auto value = static_cast<uint32_t>(pattern);
        std::memcpy(target + i, &value, 4);
      }
      break;
  }
}

[[gnu::cold, gnu::noinline]] void TraceQueueOperation(const char* operation,
                                                      uint64_t bytes,
                                                      bool waited,
                                                      uint64_t begin) {
  trace::Complete(trace::Category::kQueue, operation, begin,
                  {trace::Arg::Int("bytes", static_cast<int64_t>(bytes)),
                   trace::Arg::Int("has_wait_fence", waited ? 1 : 0)});
}

// A queue operation run as a trace slice; out of line so an untraced
// submission pays only the Enabled() check.
template <typename Work>
[[gnu::cold, gnu::noinline]] Status RunTracedQueueOperation(
    const char* operation, uint64_t bytes, bool waited, const Work& work) {
  const uint64_t begin = trace::BeginNs();
  Status status = work();
  TraceQueueOperation(operation, bytes, waited, begin);
  return status;
}

}  // namespace

Ref<LocalDevice> LocalDevice::Create(const LocalDeviceOptions& options) {
  Ref<LocalDevice> device = Ref<LocalDevice>::Adopt(new LocalDevice());
  device->id_ = options.id;
  device->allocator_ = Allocator::CreateHeap();
  device->loaders_ = options.loaders;
  if (options.use_workers) {
    uint32_t workers = options.worker_count;
    if (workers == 0)
      workers = std::max(1u, std::thread::hardware_concurrency());
    device->pool_ = std::make_unique<WorkerPool>(workers);
    device->async_ = true;
  }
  return device;
}

LocalDevice::~LocalDevice() {
  {
    std::lock_guard lock(pending_mutex_);
    stopping_ = true;
  }
  wake_->Wake();  // the queue threads see stopping_
  for (std::thread& thread : queue_threads_) thread.join();
}

Status LocalDevice::Defer(Deferred deferred) {
  const Ref<Fence> wait = deferred.wait;
  {
    std::lock_guard lock(pending_mutex_);
    if (queue_threads_.empty()) {
      const uint32_t count = worker_count();
      queue_threads_.reserve(count);
      for (uint32_t i = 0; i < count; ++i) {
        queue_threads_.emplace_back([this] {
          trace::SetThreadName("queue");
          QueueThreadMain();
        });
      }
    }
    pending_.push_back(std::move(deferred));
  }
  // The queue threads are woken when the fence is reached (or fails), and
  // now, to take the submission if it already is.
  if (wait) WakeWhenDone(*wait, wake_);
  wake_->Wake();
  return Status::Ok();
}

void LocalDevice::QueueThreadMain() {
  in_queue_thread = true;
  while (true) {
    // Read before looking, so that a change made while looking is seen.
    const uint64_t seen = wake_->count();
    std::optional<Deferred> ready;
    Status reached;
    bool stopping = false;
    {
      std::lock_guard lock(pending_mutex_);
      stopping = stopping_;
      // The first submission whose fence is reached (or, when stopping,
      // the first one at all: its fence will never be waited for now).
      for (size_t i = 0; i < pending_.size(); ++i) {
        Status status =
            pending_[i].wait ? pending_[i].wait->Query() : Status::Ok();
        if (status.code() == StatusCode::kDeferred) {
          if (!stopping) continue;
          status = Status(StatusCode::kAborted,
                          "the device was destroyed before the submission's "
                          "wait fence was reached");
        }
        ready.emplace(std::move(pending_[i]));
        reached = std::move(status);
        pending_.erase(pending_.begin() + static_cast<ptrdiff_t>(i));
        break;
      }
      if (!ready && stopping) return;  // nothing left
    }
    if (!ready) {
      wake_->Wait(seen);
      continue;
    }
    Status status = std::move(reached);
    if (status.ok()) {
      const uint64_t trace_begin = trace::BeginNs();
      running_deferred_.fetch_add(1, std::memory_order_relaxed);
      status = ready->work();
      running_deferred_.fetch_sub(1, std::memory_order_relaxed);
      if (trace_begin != 0) [[unlikely]] {
        TraceQueueOperation(ready->operation, ready->bytes, true, trace_begin);
      }
    }
    if (ready->signal) {
      if (status.ok()) status = ready->signal->Signal();
      if (!status.ok()) ready->signal->Fail(std::move(status));
    }
  }
}

uint32_t LocalDevice::worker_count() const {
  return pool_ ? pool_->worker_count() : 1;
}

Result<int64_t> LocalDevice::QueryI64(std::string_view category,
                                      std::string_view key) {
  if (category == "hal.device.id") return MatchesGlob(key, id_) ? 1 : 0;
  if (category == "hal.executable.format") {
    if (CpuExecutable::SupportsFormat(key)) return 1;
    for (const Ref<ExecutableLoader>& loader : loaders_) {
      if (loader->SupportsFormat(key)) return 1;
    }
    return 0;
  }
  if (category == "hal.device" && key == "concurrency") return 1;
  if (category == "hal.dispatch" && key == "concurrency") {
    return static_cast<int64_t>(worker_count());
  }
  if (category == "hal.cpu") return LookupCpuFeature(HostProcessorData(), key);
  return NotFoundError("device query '" + std::string(category) + "' :: '" +
                       std::string(key) + "' is not answered by " + id_);
}

Result<Ref<Executable>> LocalDevice::CreateExecutable(
    std::string_view format, std::span<const uint8_t> data,
    std::span<const uint32_t> constants) {
  if (!CpuExecutable::SupportsFormat(format)) {
    for (const Ref<ExecutableLoader>& loader : loaders_) {
      if (!loader->SupportsFormat(format)) continue;
      EMBER_ASSIGN_OR_RETURN(Ref<LocalExecutable> executable,
                             loader->Load(format, data, constants));
      return Ref<Executable>(std::move(executable));
    }
  }
  EMBER_ASSIGN_OR_RETURN(Ref<CpuExecutable> executable,
                         CpuExecutable::Load(format, data, constants));
  return Ref<Executable>(std::move(executable));
}

template <typename Work, typename MakeDeferred>
Status LocalDevice::Submit(const char* operation, uint64_t bytes,
                           const Ref<Fence>& wait, const Ref<Fence>& signal,
                           Work&& work, MakeDeferred&& make_deferred) {
  Status status = Status::Ok();
  if (async_ && ScopedDeferSubmissions::active()) {
    return Defer({wait, signal, make_deferred(), operation, bytes});
  }
  if (wait && async_) {
    status = wait->Query();
    if (status.code() == StatusCode::kDeferred) {
      if (trace::Enabled()) [[unlikely]] {
        trace::Complete(trace::Category::kQueue, "deferred", trace::BeginNs(),
                        {trace::Arg::Text("operation", operation)});
      }
      return Defer({wait, signal, make_deferred(), operation, bytes});
    }
  } else if (wait) {
    // Wait before taking the queue: the wait fence may be signalled by a
    // submission another thread is about to make on this device.
    status = wait->Wait(Timeout::Infinite());  // traced if it blocks
  }
  if (status.ok()) {
    auto locked_work = [&] {
      std::lock_guard lock(queue_mutex_);
      return work();
    };
    if (trace::Enabled()) [[unlikely]] {
      status = RunTracedQueueOperation(operation, bytes, wait.get() != nullptr,
                                       locked_work);
    } else {
      status = locked_work();
    }
  }
  if (!status.ok()) {
    if (signal) signal->Fail(status);
    return status;
  }
  if (signal) return signal->Signal();
  return Status::Ok();
}

Result<Ref<Buffer>> LocalDevice::QueueAlloca(const Ref<Fence>& wait,
                                             const Ref<Fence>& signal,
                                             const BufferParams& params,
                                             uint64_t size) {
  // The memory is taken now (the buffer is returned now); the signal fence
  // says when it may be used, after the wait fence.
  Result<Ref<Buffer>> buffer = allocator_->Allocate(params, size);
  if (!buffer.ok()) {
    if (signal) signal->Fail(buffer.status());
    return buffer;
  }
  EMBER_RETURN_IF_ERROR(
      Submit("alloca", size, wait, signal, [] { return Status::Ok(); }));
  return buffer;
}

Status LocalDevice::QueueDealloca(const Ref<Fence>& wait,
                                  const Ref<Fence>& signal,
                                  const Ref<Buffer>& buffer) {
  // Memory goes back when the last reference does; this orders only.
  return Submit("dealloca", buffer ? buffer->byte_length() : 0, wait, signal,
                [] { return Status::Ok(); });
}

Status LocalDevice::QueueFill(const Ref<Fence>& wait, const Ref<Fence>& signal,
                              const Ref<Buffer>& target, uint64_t offset,
                              uint64_t length, uint64_t pattern,
                              uint32_t pattern_length) {
  return Submit("fill", length, wait, signal, [=, this]() -> Status {
    EMBER_ASSIGN_OR_RETURN(
        Ref<CommandBuffer> commands,
        CommandBuffer::Create(CommandBufferMode::kOneShot,
                              CommandCategory::kTransfer, 0));
    EMBER_RETURN_IF_ERROR(
        commands->Fill({{target, 0, offset, length}, pattern, pattern_length}));
    return ExecuteCommands(*commands, {});
  });
}

Status LocalDevice::QueueCopy(const Ref<Fence>& wait, const Ref<Fence>& signal,
                              const Ref<Buffer>& source, uint64_t source_offset,
                              const Ref<Buffer>& target, uint64_t target_offset,
                              uint64_t length) {
  return Submit("copy", length, wait, signal, [=, this]() -> Status {
    EMBER_ASSIGN_OR_RETURN(
        Ref<CommandBuffer> commands,
        CommandBuffer::Create(CommandBufferMode::kOneShot,
                              CommandCategory::kTransfer, 0));
    EMBER_RETURN_IF_ERROR(commands->Copy({{source, 0, source_offset, length},
                                          {target, 0, target_offset, length},
                                          length}));
    return ExecuteCommands(*commands, {});
  });
}

Status LocalDevice::QueueReadToHost(const Ref<Fence>& wait,
                                    const Ref<Fence>& signal,
                                    const Ref<Buffer>& source,
                                    uint64_t source_offset,
                                    std::span<uint8_t> target,
                                    Ref<RefCounted> keep_alive) {
  return Submit("read", target.size(), wait, signal,
                [source, source_offset, target,
                 keep_alive = std::move(keep_alive)]() -> Status {
                  EMBER_RETURN_IF_ERROR(
                      source->ValidateUsage(BufferUsage::kTransferSource));
                  EMBER_ASSIGN_OR_RETURN(
                      std::span<uint8_t> bytes,
                      HostBytes(source.get(), source_offset, target.size()));
                  if (!bytes.empty()) {
                    std::memmove(target.data(), bytes.data(), bytes.size());
                  }
                  return Status::Ok();
                });
}

Status LocalDevice::QueueUpdate(const Ref<Fence>& wait,
                                const Ref<Fence>& signal,
                                std::span<const uint8_t> source,
                                const Ref<Buffer>& target,
                                uint64_t target_offset, uint64_t length) {
  if (length > source.size()) {
    Status status = OutOfRangeError("update of " + std::to_string(length) +
                                    " bytes from a source of " +
                                    std::to_string(source.size()));
    if (signal) signal->Fail(status);
    return status;
  }
  auto update = [target, target_offset,
                 length](std::span<const uint8_t> bytes) -> Status {
    EMBER_RETURN_IF_ERROR(target->ValidateUsage(BufferUsage::kTransferTarget));
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> range,
                           HostBytes(target.get(), target_offset, length));
    if (!range.empty()) std::memcpy(range.data(), bytes.data(), range.size());
    return Status::Ok();
  };
  return Submit(
      "update", length, wait, signal, [&] { return update(source); },
      [&] {
        // The source belongs to the caller: a deferred update keeps a copy.
        return std::function<Status()>(
            [update, bytes = std::vector<uint8_t>(source.begin(),
                                                  source.begin() + length)] {
              return update(bytes);
            });
      });
}

Status LocalDevice::QueueBarrier(const Ref<Fence>& wait,
                                 const Ref<Fence>& signal) {
  return Submit("barrier", 0, wait, signal, [] { return Status::Ok(); });
}

Status LocalDevice::QueueExecute(const Ref<Fence>& wait,
                                 const Ref<Fence>& signal,
                                 const Ref<CommandBuffer>& command_buffer,
                                 std::span<const Binding> binding_table) {
  auto execute = [this](const Ref<CommandBuffer>& commands,
                        std::span<const Binding> bindings) -> Status {
    if (!commands) return Status::Ok();  // a barrier
    if (!commands->finalized()) {
      return FailedPreconditionError(
          "command buffer submitted before it was finalized");
    }
    EMBER_RETURN_IF_ERROR(commands->ValidateBindingTable(bindings));
    return ExecuteCommands(*commands, bindings);
  };
  return Submit(
      "execute", 0, wait, signal,
      [&] { return execute(command_buffer, binding_table); },
      [&] {
        // The binding table belongs to the caller: a deferred execution
        // keeps a copy (and so references to the buffers).
        return std::function<Status()>(
            [execute, command_buffer,
             bindings = std::vector<Binding>(binding_table.begin(),
                                             binding_table.end())] {
              return execute(command_buffer, bindings);
            });
      });
}

Status LocalDevice::ExecuteCommands(const CommandBuffer& command_buffer,
                                    std::span<const Binding> binding_table) {
  for (const Command& command : command_buffer.commands()) {
    if (const auto* dispatch = std::get_if<DispatchCommand>(&command)) {
      EMBER_RETURN_IF_ERROR(ExecuteDispatch(*dispatch, binding_table));
    } else if (const auto* fill = std::get_if<FillCommand>(&command)) {
      EMBER_ASSIGN_OR_RETURN(ResolvedBuffer target,
                             ResolveBufferRef(fill->target, binding_table),
                             "fill target");
      if (!target.buffer)
        return FailedPreconditionError("fill of a null buffer");
      EMBER_ASSIGN_OR_RETURN(
          std::span<uint8_t> bytes,
          HostBytes(target.buffer, target.offset, target.length));
      if (bytes.size() % fill->pattern_length != 0) {
        return InvalidArgumentError(
            "fill length is not a multiple of the pattern length");
      }
      FillPattern(bytes.data(), bytes.size(), fill->pattern,
                  fill->pattern_length);
    } else if (const auto* copy = std::get_if<CopyCommand>(&command)) {
      EMBER_ASSIGN_OR_RETURN(ResolvedBuffer source,
                             ResolveBufferRef(copy->source, binding_table),
                             "copy source");
      EMBER_ASSIGN_OR_RETURN(ResolvedBuffer target,
                             ResolveBufferRef(copy->target, binding_table),
                             "copy target");
      if (!source.buffer || !target.buffer) {
        return FailedPreconditionError("copy from or to a null buffer");
      }
      EMBER_ASSIGN_OR_RETURN(
          std::span<uint8_t> from,
          HostBytes(source.buffer, source.offset, copy->length));
      EMBER_ASSIGN_OR_RETURN(
          std::span<uint8_t> to,
          HostBytes(target.buffer, target.offset, copy->length));
      // Slots can make ranges alias that recording could not see.
      if (!from.empty()) std::memmove(to.data(), from.data(), from.size());
    } else if (const auto* update = std::get_if<UpdateCommand>(&command)) {
      EMBER_ASSIGN_OR_RETURN(ResolvedBuffer target,
                             ResolveBufferRef(update->target, binding_table),
                             "update target");
      if (!target.buffer) {
        return FailedPreconditionError("update of a null buffer");
      }
      EMBER_ASSIGN_OR_RETURN(
          std::span<uint8_t> to,
          HostBytes(target.buffer, target.offset, update->data.size()));
      if (!to.empty()) std::memcpy(to.data(), update->data.data(), to.size());
    }
    // Barriers and debug groups: commands run in order on one thread.
  }
  return Status::Ok();
}

Status LocalDevice::ExecuteDispatch(const DispatchCommand& command,
                                    std::span<const Binding> binding_table) {
  const auto* executable =
      dynamic_cast<const LocalExecutable*>(command.executable.get());
  if (!executable) {
    return InvalidArgumentError(
        "dispatch of an executable made by another "
        "kind of device");
  }
  DispatchArguments arguments;
  arguments.export_ordinal = command.export_ordinal;
  std::copy(std::begin(command.workgroup_count),
            std::end(command.workgroup_count), arguments.workgroup_count);
  if (command.indirect) {
    EMBER_ASSIGN_OR_RETURN(
        ResolvedBuffer counts,
        ResolveBufferRef(command.workgroups_ref, binding_table),
        "workgroup count buffer");
    if (!counts.buffer) {
      return FailedPreconditionError("workgroup count buffer is NULL");
    }
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> bytes,
                           HostBytes(counts.buffer, counts.offset, 12));
    std::memcpy(arguments.workgroup_count, bytes.data(), 12);
  }
  arguments.constants = command.constants;
  // The ABI allows 64 bindings per dispatch; more is refused below by
  // ValidateDispatch, after the count is known to exceed the export's.
  constexpr size_t kInlineBindings = 64;
  if (command.bindings.size() > kInlineBindings) {
    return InvalidArgumentError("dispatch with " +
                                std::to_string(command.bindings.size()) +
                                " bindings exceeds the ABI's 64");
  }
  void* pointers_storage[kInlineBindings];
  size_t lengths_storage[kInlineBindings];
  std::span<void*> pointers(pointers_storage, command.bindings.size());
  std::span<size_t> lengths(lengths_storage, command.bindings.size());
  for (size_t i = 0; i < command.bindings.size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(ResolvedBuffer binding,
                           ResolveBufferRef(command.bindings[i], binding_table),
                           "dispatch binding %zu", i);
    if (!binding.buffer) {  // reported by ValidateDispatch
      pointers[i] = nullptr;
      lengths[i] = 0;
      continue;
    }
    EMBER_ASSIGN_OR_RETURN(
        std::span<uint8_t> bytes,
        HostBytes(binding.buffer, binding.offset, binding.length),
        "dispatch binding %zu", i);
    // A zero-length binding is present, so it still gets a valid pointer.
    alignas(64) static uint8_t empty_binding[64];
    pointers[i] = bytes.empty() ? empty_binding : bytes.data();
    lengths[i] = bytes.size();
  }
  arguments.binding_pointers = pointers;
  arguments.binding_lengths = lengths;
  EMBER_RETURN_IF_ERROR(executable->ValidateDispatch(arguments));

  const uint64_t total = uint64_t{arguments.workgroup_count[0]} *
                         arguments.workgroup_count[1] *
                         arguments.workgroup_count[2];
  if (total == 0) return Status::Ok();
  const size_t local_size = executable->LocalMemorySize(command.export_ordinal);
  auto run = [&](uint32_t worker, uint64_t begin, uint64_t end) -> Status {
    std::span<uint8_t> local = LocalMemory(local_size);
    if (local_size != 0 && local.empty()) {
      return ResourceExhaustedError("cannot allocate workgroup local memory");
    }
    return executable->RunWorkgroups(arguments, {begin, end, worker}, local,
                                     worker_count());
  };
  const bool parallel =
      pool_ && !executable->IsSequential(command.export_ordinal);
  if (trace::Enabled()) [[unlikely]] {
    return RunDispatchTraced(*executable, arguments, total, parallel, run);
  }
  if (!parallel) return run(0, 0, total);
  // On a queue thread, other queue threads may be running submissions too.
  // Then each runs its dispatches inline (the cores are busy already, and
  // pool helpers spinning for work would only take time from them);
  // otherwise the pool is used when it is free.
  if (in_queue_thread) {
    if (running_deferred_.load(std::memory_order_relaxed) > 1) {
      return run(0, 0, total);
    }
    return pool_->ParallelForOrInline(total, run);
  }
  return pool_->ParallelFor(total, run);
}

// The traced twin of ExecuteDispatch's last lines, kept out of line so the
// untraced path pays only the Enabled() check: a slice for the dispatch on
// the caller's thread, and one per chunk of workgroups on the thread (worker)
// that ran it.
Status LocalDevice::RunDispatchTraced(const LocalExecutable& executable,
                                      const DispatchArguments& arguments,
                                      uint64_t total, bool parallel,
                                      const WorkerPool::Body& run) {
  const uint64_t trace_begin = trace::BeginNs();
  auto traced = [&](uint32_t worker, uint64_t begin, uint64_t end) -> Status {
    const uint64_t share_begin = trace::BeginNs();
    Status status = run(worker, begin, end);
    TraceWorkgroups(executable, arguments.export_ordinal, worker, begin, end,
                    share_begin);
    return status;
  };
  Status status =
      parallel ? pool_->ParallelFor(total, traced) : traced(0, 0, total);
  TraceDispatch(executable, arguments, trace_begin);
  return status;
}

void LocalDevice::TraceDispatch(const LocalExecutable& executable,
                                const DispatchArguments& arguments,
                                uint64_t begin) const {
  const std::string export_name =
      executable.export_info(arguments.export_ordinal).name;
  trace::Complete(
      trace::Category::kDispatch,
      export_name.empty() ? executable.debug_name()
                          : std::string_view(export_name),
      begin,
      {trace::Arg::Text("executable", executable.debug_name()),
       trace::Arg::Text("export", export_name),
       trace::Arg::Int("ordinal", arguments.export_ordinal),
       trace::Arg::Int("workgroups_x", arguments.workgroup_count[0]),
       trace::Arg::Int("workgroups_y", arguments.workgroup_count[1]),
       trace::Arg::Int("workgroups_z", arguments.workgroup_count[2])});
}

void LocalDevice::TraceWorkgroups(const LocalExecutable& executable,
                                  uint32_t export_ordinal, uint32_t worker,
                                  uint64_t first, uint64_t end,
                                  uint64_t begin) const {
  const std::string export_name = executable.export_info(export_ordinal).name;
  trace::Complete(
      trace::Category::kWorkgroups,
      export_name.empty() ? executable.debug_name()
                          : std::string_view(export_name),
      begin,
      {trace::Arg::Int("worker", worker),
       trace::Arg::Int("first_workgroup", static_cast<int64_t>(first)),
       trace::Arg::Int("workgroup_count", static_cast<int64_t>(end - first))});
}

Status RegisterLocalDrivers(DriverRegistry& registry,
                            std::vector<Ref<ExecutableLoader>> loaders) {
  EMBER_RETURN_IF_ERROR(registry.Register(
      {"local-sync", "CPU, every dispatch inline on the calling thread"},
      [loaders](const DeviceUri&) -> Result<Ref<Device>> {
        return Ref<Device>(
            LocalDevice::Create({"local-sync", 0, false, loaders}));
      }));
  return registry.Register(
      {"local-task", "CPU, dispatches spread over a pool of workers"},
      [loaders](const DeviceUri& uri) -> Result<Ref<Device>> {
        LocalDeviceOptions options{"local-task", 0, true, loaders};
        auto it = uri.parameters.find("worker_count");
        if (it != uri.parameters.end()) {
          const std::string& text = it->second;
          auto [end, error] = std::from_chars(
              text.data(), text.data() + text.size(), options.worker_count);
          if (error != std::errc() || end != text.data() + text.size() ||
              options.worker_count == 0 || options.worker_count > 1024) {
            return InvalidArgumentError("local-task worker_count '" + text +
                                        "' is not a number in [1, 1024]");
          }
        }
        return Ref<Device>(LocalDevice::Create(options));
      });
}

}  // namespace ember::hal::cpu
