// LoopWaiter: hands HAL timepoints to asyncio as they are reached.
//
// An asyncio program must not block its event loop on a fence, yet a fence
// is signalled by a device thread that knows nothing of Python. A LoopWaiter
// is one native thread that watches many timepoints at once, without the
// GIL, through a WakeSignal of its own (runtime/hal/semaphore.h) that each
// watched semaphore wakes when it reaches its value or fails: the thread
// reads the signal, asks each pending entry whether it is done, and when
// none is, sleeps until one of its semaphores changes. An entry that is done --
// reached or failed -- is delivered: its callback runs with the GIL held,
// on the waiter thread, and typically schedules the completion on the
// event loop with `loop.call_soon_threadsafe` (the only thread-safe door
// into a loop). Nothing polls, and a waiter with nothing to do sleeps.
//
// Used by `HalDeviceLoopBridge` (one waiter per bridge, as iree.runtime
// has one thread per bridge) and by `FunctionInvoker.async_call` (one
// process-wide waiter).
//
// Lifetime rules, because entries hold Python objects: an entry's callbacks
// are destroyed only with the GIL held (after delivery, or by Stop). Stop
// must run before the interpreter finalizes (the users register it with
// atexit or call it explicitly): it joins the thread, releasing the GIL
// while it waits, and delivers every entry still pending with CANCELLED.
//
// Thread safety: Add and Stop are called with the GIL held, from any thread.
#pragma once

#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/semaphore.h"

namespace ember::python {

class LoopWaiter {
 public:
  // Called once with the GIL held: OK, the failure, or CANCELLED (Stop).
  using Deliver = std::function<void(const Status&)>;

  LoopWaiter() = default;
  ~LoopWaiter();  // Stop(), if it was not called (GIL held)
  LoopWaiter(const LoopWaiter&) = delete;
  LoopWaiter& operator=(const LoopWaiter&) = delete;

  // Watches `semaphore` reaching `value`; starts the thread with the first
  // entry. After Stop, delivers CANCELLED at once.
  void Add(Ref<hal::Semaphore> semaphore, uint64_t value, Deliver deliver);
  // Joins the thread and cancels what is pending. Idempotent.
  void Stop();
  bool stopped() const;

 private:
  struct Entry {
    Ref<hal::Semaphore> semaphore;
    uint64_t value = 0;
    Deliver deliver;
  };
  void Run();

  mutable std::mutex mutex_;
  std::vector<Entry> incoming_;  // added, not yet taken by the thread
  std::vector<Entry> left_;      // pending when the thread stopped
  bool stopping_ = false;
  std::thread thread_;
  // Woken by the watched semaphores, by Add and by Stop.
  std::shared_ptr<hal::WakeSignal> wake_ = std::make_shared<hal::WakeSignal>();
};

}  // namespace ember::python
