// WorkerPool: the threads that spread one dispatch's workgroups.
//
// `local-task` runs the workgroups of a dispatch on several cores. The pool
// is deliberately simple: N-1 sleeping threads plus the calling thread, one
// job at a time, workgroups handed out in chunks from an atomic counter so
// fast workers take more. The caller always participates, so a dispatch too
// small to share (a handful of workgroups) runs inline with no wake-up or
// hand-off at all -- the cost IREE's task system pays on small models.
//
// Thread safety: ParallelFor may be called from any thread; calls are
// serialised (one job runs at a time).
#pragma once

#include <atomic>
#include <condition_variable>
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

 private:
  void WorkerMain(uint32_t worker_id);
  void RunChunks(uint32_t worker_id);

  const uint32_t worker_count_;
  std::vector<std::thread> threads_;
  std::mutex submit_mutex_;  // one job at a time

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  uint64_t generation_ = 0;
  bool stopping_ = false;
  uint32_t active_ = 0;  // helper threads still in the current job

  // The current job (valid while a generation runs).
  const Body* body_ = nullptr;
  uint64_t total_ = 0;
  uint64_t chunk_ = 1;
  std::atomic<uint64_t> next_{0};
  std::atomic<bool> failed_{false};
  Status first_error_;
  std::mutex error_mutex_;
};

}  // namespace ember::hal::cpu
