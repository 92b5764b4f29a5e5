// WorkerPool: the threads that spread one dispatch's workgroups.
//
// `local-task` runs the workgroups of a dispatch on several cores. The pool
// is deliberately simple: N-1 sleeping threads plus the calling thread, one
// job at a time, workgroups handed out from an atomic counter in chunks
// that shrink as the job drains (guided self-scheduling), so fast workers
// take more and all finish within about one workgroup of each other. The caller
// always participates, so a dispatch too small to share (a handful of
// workgroups) runs inline with no wake-up or hand-off at all -- the cost IREE's
// task system pays on small models.
//
// Hand-offs spin before they sleep: a helper that finished a job watches for
// the next one for a short while (kSpinMicros) before blocking on a futex,
// and the caller does the same while waiting for helpers to finish. A
// program's dispatches follow each other within microseconds, so in a run of
// dispatches no thread goes to sleep and no wake-up (a futex syscall and a
// scheduler round trip, 5-30 us on a VM) sits between two dispatches; an
// idle pool still sleeps. A helper that is slow to start (its core busy
// with another process) finds the job closed once the others have taken
// every chunk, and the caller does not wait for it.
//
// Thread safety: ParallelFor may be called from any thread; calls are
// serialised (one job runs at a time).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/base/status.h"

namespace ember::hal::cpu {

class WorkerPool {
 public:
  // `worker_count` counts the calling thread; 1 makes no threads.
  explicit WorkerPool(uint32_t worker_count);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  uint32_t worker_count() const { return worker_count_; }

  // Calls `body(worker_id, begin, end)` over disjoint chunks covering
  // [0, total); worker ids are below worker_count(). Returns the first
  // error a chunk returned (the remaining chunks are skipped).
  using Body =
      std::function<Status(uint32_t worker, uint64_t begin, uint64_t end)>;
  Status ParallelFor(uint64_t total, const Body& body);
  // As ParallelFor, but when another thread's job holds the pool, runs
  // every chunk inline on the calling thread (as worker 0) instead of
  // waiting for it: for callers that are themselves one of several threads
  // running work side by side.
  Status ParallelForOrInline(uint64_t total, const Body& body);

 private:
  // Publishes one job and runs it with the helpers; submit_mutex_ held.
  Status RunJob(uint64_t total, const Body& body);
  void WorkerMain(uint32_t worker_id);
  void RunChunks(uint32_t worker_id);

  const uint32_t worker_count_;
  std::vector<std::thread> threads_;
  std::mutex submit_mutex_;  // one job at a time

  // Bumped (release) once a job is published, or to stop; helpers wait on it.
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stopping_{false};
  // Helpers that entered the current job (low bits) and whether the caller
  // has closed it (kClosed: every chunk was taken; no helper may enter
  // after that). The caller waits only for helpers that entered, never for
  // one that had not got a core yet (on a loaded machine that can be
  // milliseconds).
  static constexpr uint32_t kClosed = 0x80000000u;
  std::atomic<uint32_t> entry_{kClosed};
  // Helpers that entered and finished the current job.
  std::atomic<uint32_t> done_{0};

  // The current job (valid while a generation runs).
  const Body* body_ = nullptr;
  uint64_t total_ = 0;
  std::atomic<uint64_t> next_{0};
  std::atomic<bool> failed_{false};
  Status first_error_;
  std::mutex error_mutex_;
};

}  // namespace ember::hal::cpu
