// Semaphores and fences: how the host and the device agree on "done".
//
// A Semaphore is a timeline: a 64-bit value that only grows. Work waits for
// the value to reach a point and signals a higher one when it finishes; a
// failure poisons the timeline with a status that every present and future
// waiter receives. A Fence is a set of such timepoints (at most one per
// semaphore, the highest wins) treated as one event: it is reached when all
// its timepoints are, and failed when any of them fails. Programs compiled
// by IREE create, join, signal and await fences through the `hal` module.
//
// Values are bounded as in IREE: the largest signalable value is 2^31 - 2
// and the failure value is the next one, so a program cannot signal a
// semaphore into the failed state by picking a large number.
//
// Thread safety: Semaphores and Fences are fully thread-safe. Waits block
// with the timeout the caller gives; a timeout is DEADLINE_EXCEEDED.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "runtime/base/object_cache.h"
#include "runtime/base/ref_counted.h"
#include "runtime/base/small_vector.h"
#include "runtime/base/status.h"

namespace ember::hal {

inline constexpr uint64_t kSemaphoreMaxValue = 2147483647ull - 1;
inline constexpr uint64_t kSemaphoreFailureValue = kSemaphoreMaxValue + 1;

// A point in time to wait until; `Infinite()` never expires and `Immediate()`
// only polls.
class Timeout {
 public:
  using Clock = std::chrono::steady_clock;
  static Timeout Infinite() { return Timeout(std::nullopt); }
  static Timeout Immediate() { return Timeout(Clock::time_point::min()); }
  static Timeout After(std::chrono::nanoseconds duration);
  // IREE's convention for `fence.await`: milliseconds, 0xFFFFFFFF infinite.
  static Timeout FromMilliseconds(uint32_t milliseconds);

  bool infinite() const { return !deadline_; }
  Clock::time_point deadline() const { return *deadline_; }

 private:
  explicit Timeout(std::optional<Clock::time_point> deadline)
      : deadline_(deadline) {}
  std::optional<Clock::time_point> deadline_;
};

class Semaphore final : public RefCounted, public CachedAllocation<Semaphore> {
 public:
  static Ref<Semaphore> Create(uint64_t initial_value);

  // The current value, or the failure status.
  Result<uint64_t> Query() const;
  // Raises the value to `value` (must be above the current one and at most
  // kSemaphoreMaxValue) and wakes the waiters it satisfies.
  Status Signal(uint64_t value);
  // Raises the value to `value` unless it is already there or above (a
  // fence's timepoint being reached); an error only on a failed semaphore
  // or a value above the maximum.
  Status SignalAtLeast(uint64_t value);
  // Poisons the timeline with `status` (not OK). A second failure keeps the
  // first status.
  void Fail(Status status);
  // Whether the value is at `value` or above, without a lock; false on a
  // failed semaphore.
  bool Reached(uint64_t value) const {
    const uint64_t now = value_.load(std::memory_order_acquire);
    return now != kSemaphoreFailureValue && now >= value;
  }
  // Blocks until the value reaches `value`, the semaphore fails (its status)
  // or the timeout passes (DEADLINE_EXCEEDED).
  Status Wait(uint64_t value, Timeout timeout) const;

  // Calls `listener` exactly once: with OK when the value reaches `value`,
  // with the failure status if the semaphore fails first, or with
  // CANCELLED if it is destroyed first. It runs at once on this thread when
  // that is already decided, else on the thread that decides it (one that
  // signals, fails or drops the last reference), outside the semaphore's
  // lock -- so it must be quick and must not block: hand the news to
  // another thread (what an asyncio loop waiting for a call does, through
  // an eventfd, with no thread in between).
  using Listener = std::function<void(const Status&)>;
  void NotifyAt(uint64_t value, Listener listener);

  ~Semaphore() override;

 private:
  explicit Semaphore(uint64_t value) : value_(value) {}
  // Wakes waiters after a change; called with the mutex held.
  void ChangedLocked();
  // Moves the listeners the current value (or failure) satisfies into
  // `ready`; called with the mutex held.
  void TakeReadyListenersLocked(std::vector<Listener>& ready);
  // Runs `ready` with `outcome`; called without the mutex.
  static void RunListeners(std::vector<Listener>& ready, const Status& outcome);

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  // Written under mutex_, read without it by Query and Wait's fast path
  // (every queue operation queries or waits); kSemaphoreFailureValue once
  // failed.
  std::atomic<uint64_t> value_;
  mutable uint32_t waiters_ = 0;  // threads in changed_.wait (under mutex_)
  Status failure_;                // OK unless failed (under mutex_)
  // NotifyAt's pending listeners and their values (under mutex_).
  std::vector<std::pair<uint64_t, Listener>> listeners_;
};

class Fence final : public RefCounted, public CachedAllocation<Fence> {
 public:
  struct Timepoint {
    Ref<Semaphore> semaphore;
    uint64_t value = 0;
  };

  // Most fences have one timepoint; two fit without an allocation.
  using Timepoints = SmallVector<Timepoint, 2>;

  static Ref<Fence> Create();
  // A fence on a new semaphore at 0 with one timepoint at 1, as
  // `hal.fence.create` makes.
  static Ref<Fence> CreateWithNewSemaphore();
  // The union of `fences` (null entries allowed); null when there is no
  // timepoint at all, as IREE's `fence.join` returns.
  static Ref<Fence> Join(std::span<const Ref<Fence>> fences);

  // Adds a timepoint, keeping the higher value for a semaphore it has.
  void Insert(const Ref<Semaphore>& semaphore, uint64_t value);
  Timepoints timepoints() const;
  size_t size() const;

  // OK when every timepoint is reached, DEFERRED while one is pending, or
  // the failure status of a failed semaphore.
  Status Query() const;
  Status Signal();
  void Fail(Status status);
  Status Wait(Timeout timeout) const;

 private:
  Fence() = default;
  mutable std::mutex mutex_;
  Timepoints timepoints_;
};

// Waits for every fence in `fences` (null entries count as reached).
Status WaitAll(std::span<const Ref<Fence>> fences, Timeout timeout);

// A wake-up channel for one thread that waits for any of many timepoints
// (a device's queue thread with deferred submissions, an asyncio waiter):
// read count(), look at what is pending, and if nothing is ready Wait(seen)
// until someone calls Wake(). The timepoints wake it through WakeAt /
// WakeWhenDone (semaphore listeners), so a signal wakes only the threads
// that wait for that semaphore, never every waiter of the process. Held by
// shared_ptr: a listener may outlive the thread that armed it.
class WakeSignal {
 public:
  uint64_t count() const { return count_.load(std::memory_order_acquire); }
  // Returns once count() differs from `seen`.
  void Wait(uint64_t seen) const {
    count_.wait(seen, std::memory_order_acquire);
  }
  void Wake() {
    count_.fetch_add(1, std::memory_order_acq_rel);
    count_.notify_all();
  }

 private:
  std::atomic<uint64_t> count_{0};
};

// Wakes `signal` once `semaphore` reaches `value` or fails (at once if it
// already has).
void WakeAt(const Ref<Semaphore>& semaphore, uint64_t value,
            std::shared_ptr<WakeSignal> signal);
// Wakes `signal` as each timepoint of `fence` is reached or fails.
void WakeWhenDone(const Fence& fence,
                  const std::shared_ptr<WakeSignal>& signal);

}  // namespace ember::hal
