#include "python/bindings/loop_waiter.h"

#include <nanobind/nanobind.h>

#include <utility>

#include "runtime/hal/semaphore.h"

namespace nb = nanobind;

namespace ember::python {

LoopWaiter::~LoopWaiter() { Stop(); }

bool LoopWaiter::stopped() const {
  std::lock_guard lock(mutex_);
  return stopping_;
}

void LoopWaiter::Add(Ref<hal::Semaphore> semaphore, uint64_t value,
                     Deliver deliver) {
  bool added = false;
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      incoming_.push_back({semaphore, value, std::move(deliver)});
      if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
      added = true;
    }
  }
  if (!added) {  // stopped: never watched
    deliver(Status(StatusCode::kCancelled, "the waiter was stopped"));
    return;
  }
  hal::WakeAt(semaphore, value, wake_);
  wake_->Wake();  // the thread looks at the new entry
}

void LoopWaiter::Stop() {
  std::thread thread;
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
    thread = std::move(thread_);
  }
  wake_->Wake();
  if (thread.joinable()) {
    // The thread may be waiting for the GIL to deliver.
    nb::gil_scoped_release release;
    thread.join();
  }
  std::vector<Entry> left;
  {
    std::lock_guard lock(mutex_);
    left = std::move(left_);
    for (Entry& entry : incoming_) left.push_back(std::move(entry));
    incoming_.clear();
  }
  const Status cancelled(StatusCode::kCancelled,
                         "the waiter was stopped before the timepoint was "
                         "reached");
  for (Entry& entry : left) entry.deliver(cancelled);
  left.clear();  // with the GIL, as the entries hold Python objects
}

void LoopWaiter::Run() {
  std::vector<Entry> pending;
  std::vector<std::pair<Entry, Status>> done;
  while (true) {
    // Read before looking, so that a change made while looking is seen.
    const uint64_t seen = wake_->count();
    {
      std::lock_guard lock(mutex_);
      for (Entry& entry : incoming_) pending.push_back(std::move(entry));
      incoming_.clear();
      if (stopping_) {
        left_ = std::move(pending);
        return;
      }
    }
    for (size_t i = 0; i < pending.size();) {
      Status status = Status::Ok();
      Result<uint64_t> current = pending[i].semaphore->Query();
      if (!current.ok()) {
        status = current.status();
      } else if (*current < pending[i].value) {
        ++i;
        continue;
      }
      done.emplace_back(std::move(pending[i]), std::move(status));
      pending[i] = std::move(pending.back());
      pending.pop_back();
    }
    if (done.empty()) {
      wake_->Wait(seen);
      continue;
    }
    nb::gil_scoped_acquire acquire;
    for (auto& [entry, status] : done) entry.deliver(status);
    done.clear();
  }
}

}  // namespace ember::python
