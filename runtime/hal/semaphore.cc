#include "runtime/hal/semaphore.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include "runtime/base/trace.h"

namespace ember::hal {
void WakeAt(const Ref<Semaphore>& semaphore, uint64_t value,
            std::shared_ptr<WakeSignal> signal) {
  semaphore->NotifyAt(
      value, [signal = std::move(signal)](const Status&) { signal->Wake(); });
}

void WakeWhenDone(const Fence& fence,
                  const std::shared_ptr<WakeSignal>& signal) {
  for (const Fence::Timepoint& timepoint : fence.timepoints()) {
    WakeAt(timepoint.semaphore, timepoint.value, signal);
  }
}

Timeout Timeout::After(std::chrono::nanoseconds duration) {
  return Timeout(Clock::now() + duration);
}

Timeout Timeout::FromMilliseconds(uint32_t milliseconds) {
  if (milliseconds == 0xFFFFFFFFu) return Infinite();
  if (milliseconds == 0) return Immediate();
  return After(std::chrono::milliseconds(milliseconds));
}

Ref<Semaphore> Semaphore::Create(uint64_t initial_value) {
  return Ref<Semaphore>::Adopt(
      new Semaphore(std::min(initial_value, kSemaphoreMaxValue)));
}

Result<uint64_t> Semaphore::Query() const {
  const uint64_t value = value_.load(std::memory_order_acquire);
  if (value != kSemaphoreFailureValue) [[likely]]
    return value;
  std::lock_guard lock(mutex_);
  return failure_;
}

void Semaphore::ChangedLocked() {
  if (waiters_ != 0) changed_.notify_all();
}

Semaphore::~Semaphore() {
  if (listeners_.empty()) [[likely]]
    return;
  const Status cancelled(StatusCode::kCancelled,
                         "the semaphore was destroyed before the timepoint "
                         "was reached");
  for (auto& [value, listener] : listeners_) listener(cancelled);
}

void Semaphore::TakeReadyListenersLocked(std::vector<Listener>& ready) {
  if (listeners_.empty()) [[likely]]
    return;
  const uint64_t now = value_.load(std::memory_order_relaxed);
  for (size_t i = 0; i < listeners_.size();) {
    if (now >= listeners_[i].first) {  // includes the failure value
      ready.push_back(std::move(listeners_[i].second));
      listeners_[i] = std::move(listeners_.back());
      listeners_.pop_back();
    } else {
      ++i;
    }
  }
}

void Semaphore::RunListeners(std::vector<Listener>& ready,
                             const Status& outcome) {
  for (Listener& listener : ready) listener(outcome);
}

void Semaphore::NotifyAt(uint64_t value, Listener listener) {
  std::vector<Listener> ready;
  Status outcome = Status::Ok();
  {
    std::lock_guard lock(mutex_);
    listeners_.emplace_back(value, std::move(listener));
    TakeReadyListenersLocked(ready);
    if (!ready.empty()) outcome = failure_;
  }
  RunListeners(ready, outcome);
}

Status Semaphore::Signal(uint64_t value) {
  std::vector<Listener> ready;
  {
    std::lock_guard lock(mutex_);
    if (!failure_.ok()) return failure_;
    if (value > kSemaphoreMaxValue) {
      return OutOfRangeError("semaphore value " + std::to_string(value) +
                             " is above the maximum " +
                             std::to_string(kSemaphoreMaxValue));
    }
    const uint64_t current = value_.load(std::memory_order_relaxed);
    if (value <= current) {
      return FailedPreconditionError(
          "semaphore signalled to " + std::to_string(value) +
          ", not above its current value " + std::to_string(current));
    }
    value_.store(value, std::memory_order_release);
    ChangedLocked();
    TakeReadyListenersLocked(ready);
  }
  RunListeners(ready, Status::Ok());
  return Status::Ok();
}

Status Semaphore::SignalAtLeast(uint64_t value) {
  std::vector<Listener> ready;
  {
    std::lock_guard lock(mutex_);
    if (!failure_.ok()) return failure_;
    if (value <= value_.load(std::memory_order_relaxed)) return Status::Ok();
    if (value > kSemaphoreMaxValue) {
      return OutOfRangeError("semaphore value " + std::to_string(value) +
                             " is above the maximum " +
                             std::to_string(kSemaphoreMaxValue));
    }
    value_.store(value, std::memory_order_release);
    ChangedLocked();
    TakeReadyListenersLocked(ready);
  }
  RunListeners(ready, Status::Ok());
  return Status::Ok();
}

void Semaphore::Fail(Status status) {
  if (status.ok()) status = Status(StatusCode::kAborted, "semaphore failed");
  std::vector<Listener> ready;
  Status outcome = Status::Ok();
  {
    std::lock_guard lock(mutex_);
    if (!failure_.ok()) return;
    failure_ = std::move(status);
    value_.store(kSemaphoreFailureValue, std::memory_order_release);
    ChangedLocked();
    TakeReadyListenersLocked(ready);
    if (!ready.empty()) outcome = failure_;
  }
  RunListeners(ready, outcome);
}

Status Semaphore::Wait(uint64_t value, Timeout timeout) const {
  // Reached already (the common case for a queue operation): no lock.
  const uint64_t now = value_.load(std::memory_order_acquire);
  if (now != kSemaphoreFailureValue && now >= value) return Status::Ok();
  // Only a wait that may block is traced: how long the caller was held.
  const uint64_t trace_begin = trace::BeginNs();
  struct TraceWait {
    uint64_t begin;
    uint64_t value;
    ~TraceWait() {
      if (begin != 0) [[unlikely]] {
        trace::Complete(
            trace::Category::kWait, "semaphore wait", begin,
            {trace::Arg::Int("value", static_cast<int64_t>(value))});
      }
    }
  } trace_wait{trace_begin, value};
  std::unique_lock lock(mutex_);
  auto ready = [&] {
    return !failure_.ok() || value_.load(std::memory_order_relaxed) >= value;
  };
  ++waiters_;
  bool reached = true;
  if (timeout.infinite()) {
    changed_.wait(lock, ready);
  } else {
    reached = changed_.wait_until(lock, timeout.deadline(), ready);
  }
  --waiters_;
  if (!reached) {
    return Status(
        StatusCode::kDeadlineExceeded,
        "timed out waiting for semaphore value " + std::to_string(value));
  }
  if (!failure_.ok()) return failure_;
  return Status::Ok();
}

Ref<Fence> Fence::Create() { return Ref<Fence>::Adopt(new Fence); }

Ref<Fence> Fence::CreateWithNewSemaphore() {
  Ref<Fence> fence = Create();
  // Nobody else has the fence yet: no lock, and the new semaphore's only
  // reference moves in.
  fence->timepoints_.push_back({Semaphore::Create(0), 1});
  return fence;
}

Ref<Fence> Fence::Join(std::span<const Ref<Fence>> fences) {
  Ref<Fence> joined = Create();
  for (const Ref<Fence>& fence : fences) {
    if (!fence) continue;
    for (const Timepoint& timepoint : fence->timepoints()) {
      joined->Insert(timepoint.semaphore, timepoint.value);
    }
  }
  if (joined->size() == 0) return nullptr;
  return joined;
}

void Fence::Insert(const Ref<Semaphore>& semaphore, uint64_t value) {
  std::lock_guard lock(mutex_);
  for (Timepoint& timepoint : timepoints_) {
    if (timepoint.semaphore == semaphore) {
      timepoint.value = std::max(timepoint.value, value);
      return;
    }
  }
  timepoints_.push_back({semaphore, value});
}

Fence::Timepoints Fence::timepoints() const {
  std::lock_guard lock(mutex_);
  return timepoints_;
}

size_t Fence::size() const {
  std::lock_guard lock(mutex_);
  return timepoints_.size();
}

Status Fence::Query() const {
  // Semaphores never take a fence's lock, so holding it here is safe.
  std::lock_guard lock(mutex_);
  for (const Timepoint& timepoint : timepoints_) {
    EMBER_ASSIGN_OR_RETURN(uint64_t value, timepoint.semaphore->Query());
    if (value < timepoint.value) {
      return Status(StatusCode::kDeferred, "fence not yet reached");
    }
  }
  return Status::Ok();
}

Status Fence::Signal() {
  std::lock_guard lock(mutex_);
  for (const Timepoint& timepoint : timepoints_) {
    EMBER_RETURN_IF_ERROR(timepoint.semaphore->SignalAtLeast(timepoint.value));
  }
  return Status::Ok();
}

void Fence::Fail(Status status) {
  for (const Timepoint& timepoint : timepoints()) {
    timepoint.semaphore->Fail(status);
  }
}

Status Fence::Wait(Timeout timeout) const {
  // Reached already (a fence of work that ran inline): no copy of the
  // timepoints and no references counted.
  {
    std::lock_guard lock(mutex_);
    bool reached = true;
    for (const Timepoint& timepoint : timepoints_) {
      if (!timepoint.semaphore->Reached(timepoint.value)) {
        reached = false;
        break;
      }
    }
    if (reached) return Status::Ok();
  }
  for (const Timepoint& timepoint : timepoints()) {
    EMBER_RETURN_IF_ERROR(timepoint.semaphore->Wait(timepoint.value, timeout));
  }
  return Status::Ok();
}

Status WaitAll(std::span<const Ref<Fence>> fences, Timeout timeout) {
  for (const Ref<Fence>& fence : fences) {
    if (fence) EMBER_RETURN_IF_ERROR(fence->Wait(timeout));
  }
  return Status::Ok();
}

}  // namespace ember::hal
