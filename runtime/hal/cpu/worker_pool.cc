#include "runtime/hal/cpu/worker_pool.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "runtime/base/trace.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ember::hal::cpu {
namespace {

// How long a hand-off spins before sleeping: longer than the gap between two
// dispatches of a program, far shorter than a scheduler tick.
constexpr auto kSpinTime = std::chrono::microseconds(50);

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Waits until `value` differs from `old`: spins for kSpinTime, then sleeps
// on the atomic (a futex). Returns the new value.
template <typename T>
T AwaitChange(const std::atomic<T>& value, T old) {
  T now = value.load(std::memory_order_acquire);
  if (now != old) return now;
  const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
  for (uint32_t spins = 1;; ++spins) {
    CpuRelax();
    now = value.load(std::memory_order_acquire);
    if (now != old) return now;
    // Reading the clock costs ~20 ns; look at it every 64 pauses.
    if (spins % 64 == 0 && std::chrono::steady_clock::now() >= deadline) {
      break;
    }
  }
  while ((now = value.load(std::memory_order_acquire)) == old) {
    value.wait(old, std::memory_order_acquire);
  }
  return now;
}

}  // namespace

WorkerPool::WorkerPool(uint32_t worker_count)
    : worker_count_(std::max<uint32_t>(worker_count, 1)) {
  for (uint32_t id = 1; id < worker_count_; ++id) {
    threads_.emplace_back([this, id] { WorkerMain(id); });
  }
}

WorkerPool::~WorkerPool() {
  stopping_.store(true, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void WorkerPool::RunChunks(uint32_t worker_id) {
  // Guided self-scheduling: each grab takes a share of what is left
  // (1 / (2 x workers)), so chunks are large while there is much to do and
  // shrink to single workgroups at the end, where a fixed chunk size left
  // one worker running a whole chunk while the others idled.
  const uint64_t divisor = uint64_t{2} * worker_count_;
  uint64_t begin = next_.load(std::memory_order_relaxed);
  while (!failed_.load(std::memory_order_relaxed)) {
    if (begin >= total_) break;
    const uint64_t chunk = std::max<uint64_t>(1, (total_ - begin) / divisor);
    if (!next_.compare_exchange_weak(begin, begin + chunk,
                                     std::memory_order_relaxed)) {
      continue;  // `begin` now holds the counter's value
    }
    const uint64_t end = begin + chunk;
    Status status = (*body_)(worker_id, begin, end);
    if (!status.ok()) {
      std::lock_guard lock(error_mutex_);
      if (first_error_.ok()) first_error_ = std::move(status);
      failed_.store(true, std::memory_order_relaxed);
    }
    begin = next_.load(std::memory_order_relaxed);
  }
}

void WorkerPool::WorkerMain(uint32_t worker_id) {
  trace::SetThreadName("worker " + std::to_string(worker_id));
  uint64_t seen = 0;
  while (true) {
    seen = AwaitChange(generation_, seen);
    if (stopping_.load(std::memory_order_relaxed)) return;
    // Enter the job unless the caller has closed it (it finished every
    // chunk before this thread got a core); only entered helpers are
    // waited for.
    uint32_t entry = entry_.load(std::memory_order_acquire);
    bool entered = false;
    while (!(entry & kClosed)) {
      if (entry_.compare_exchange_weak(entry, entry + 1,
                                       std::memory_order_acq_rel)) {
        entered = true;
        break;
      }
    }
    if (!entered) continue;
    RunChunks(worker_id);
    done_.fetch_add(1, std::memory_order_acq_rel);
    done_.notify_one();
  }
}

Status WorkerPool::ParallelFor(uint64_t total, const Body& body) {
  if (total == 0) return Status::Ok();
  // Few workgroups, or no helpers: run inline, no hand-off.
  if (threads_.empty() || total == 1) return body(0, 0, total);
  std::unique_lock submit(submit_mutex_);
  return RunJob(total, body);
}

Status WorkerPool::ParallelForOrInline(uint64_t total, const Body& body) {
  if (total == 0) return Status::Ok();
  if (threads_.empty() || total == 1) return body(0, 0, total);
  std::unique_lock submit(submit_mutex_, std::try_to_lock);
  if (!submit.owns_lock()) return body(0, 0, total);
  return RunJob(total, body);
}

Status WorkerPool::RunJob(uint64_t total, const Body& body) {
  body_ = &body;
  total_ = total;
  next_.store(0, std::memory_order_relaxed);
  failed_.store(false, std::memory_order_relaxed);
  first_error_ = Status::Ok();
  done_.store(0, std::memory_order_relaxed);
  // Opening the entry (release) publishes the job's fields to helpers that
  // enter it; the generation bump wakes them.
  entry_.store(0, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  RunChunks(0);
  // Every chunk is taken: close the job and wait for the helpers in it.
  const uint32_t entered =
      entry_.fetch_or(kClosed, std::memory_order_acq_rel) & ~kClosed;
  for (uint32_t done = done_.load(std::memory_order_acquire); done != entered;
       done = done_.load(std::memory_order_acquire)) {
    AwaitChange(done_, done);
  }
  body_ = nullptr;
  return std::move(first_error_);
}

}  // namespace ember::hal::cpu
