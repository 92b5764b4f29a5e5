// Test helper: a minimal synchronous device over host memory, for tests of
// the layers above the HAL (the `hal` and `io_parameters` modules) that need
// a device but not a real one's threads or executables.
//
// Every queue operation waits for its wait fence on the calling thread, does
// its work at once and signals; executables and command-buffer execution are
// UNIMPLEMENTED. Counters say which operations ran, so a test can tell a
// zero-copy path from a copying one.
#pragma once

#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/device.h"
#include "runtime/hal/semaphore.h"

namespace ember::testing {

class FakeHostDevice final : public hal::Device {
 public:
  explicit FakeHostDevice(std::string id = "fake") : id_(std::move(id)) {}

  std::string_view id() const override { return id_; }
  hal::Allocator& allocator() override { return *allocator_; }
  Result<int64_t> QueryI64(std::string_view category,
                           std::string_view key) override {
    if (category == "hal.device.id") return hal::MatchesGlob(key, id_);
    return NotFoundError("no such query");
  }
  Result<Ref<hal::Executable>> CreateExecutable(
      std::string_view, std::span<const uint8_t>,
      std::span<const uint32_t>) override {
    return UnimplementedError("executables on the fake test device");
  }
  Result<Ref<hal::Buffer>> QueueAlloca(const Ref<hal::Fence>& wait,
                                       const Ref<hal::Fence>& signal,
                                       const hal::BufferParams& params,
                                       uint64_t size) override {
    EMBER_RETURN_IF_ERROR(Wait(wait));
    EMBER_ASSIGN_OR_RETURN(Ref<hal::Buffer> buffer,
                           allocator_->Allocate(params, size));
    EMBER_RETURN_IF_ERROR(Signal(signal));
    return buffer;
  }
  Status QueueDealloca(const Ref<hal::Fence>& wait,
                       const Ref<hal::Fence>& signal,
                       const Ref<hal::Buffer>&) override {
    EMBER_RETURN_IF_ERROR(Wait(wait));
    return Signal(signal);
  }
  Status QueueFill(const Ref<hal::Fence>& wait, const Ref<hal::Fence>& signal,
                   const Ref<hal::Buffer>& target, uint64_t offset,
                   uint64_t length, uint64_t pattern,
                   uint32_t pattern_length) override {
    EMBER_RETURN_IF_ERROR(Wait(wait));
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> to,
                           target->HostRange(offset, length));
    for (size_t i = 0; i < to.size(); ++i) {
      to[i] = static_cast<uint8_t>(pattern >> (8 * (i % pattern_length)));
    }
    ++fills;
    return Signal(signal);
  }
  Status QueueCopy(const Ref<hal::Fence>& wait, const Ref<hal::Fence>& signal,
                   const Ref<hal::Buffer>& source, uint64_t source_offset,
                   const Ref<hal::Buffer>& target, uint64_t target_offset,
                   uint64_t length) override {
    EMBER_RETURN_IF_ERROR(Wait(wait));
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> from,
                           source->HostRange(source_offset, length));
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> to,
                           target->HostRange(target_offset, length));
    if (length != 0) std::memmove(to.data(), from.data(), length);
    ++copies;
    return Signal(signal);
  }
  Status QueueUpdate(const Ref<hal::Fence>& wait, const Ref<hal::Fence>& signal,
                     std::span<const uint8_t> source,
                     const Ref<hal::Buffer>& target, uint64_t target_offset,
                     uint64_t length) override {
    if (length > source.size()) return OutOfRangeError("update past source");
    EMBER_RETURN_IF_ERROR(Wait(wait));
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> to,
                           target->HostRange(target_offset, length));
    if (length != 0) std::memcpy(to.data(), source.data(), length);
    return Signal(signal);
  }
  Status QueueBarrier(const Ref<hal::Fence>& wait,
                      const Ref<hal::Fence>& signal) override {
    EMBER_RETURN_IF_ERROR(Wait(wait));
    return Signal(signal);
  }
  Status QueueExecute(const Ref<hal::Fence>&, const Ref<hal::Fence>&,
                      const Ref<hal::CommandBuffer>&,
                      std::span<const hal::Binding>) override {
    return UnimplementedError("command buffers on the fake test device");
  }
  Status QueueReadToHost(const Ref<hal::Fence>& wait,
                         const Ref<hal::Fence>& signal,
                         const Ref<hal::Buffer>& source, uint64_t source_offset,
                         std::span<uint8_t> target, Ref<RefCounted>) override {
    EMBER_RETURN_IF_ERROR(Wait(wait));
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> from,
                           source->HostRange(source_offset, target.size()));
    if (!from.empty()) std::memmove(target.data(), from.data(), from.size());
    ++reads;
    return Signal(signal);
  }
  Status QueueFlush() override { return Status::Ok(); }

  int fills = 0;
  int copies = 0;
  int reads = 0;

 private:
  static Status Wait(const Ref<hal::Fence>& fence) {
    return fence ? fence->Wait(hal::Timeout::Infinite()) : Status::Ok();
  }
  static Status Signal(const Ref<hal::Fence>& fence) {
    return fence ? fence->Signal() : Status::Ok();
  }

  std::string id_;
  Ref<hal::Allocator> allocator_ = hal::Allocator::CreateHeap();
};

}  // namespace ember::testing
