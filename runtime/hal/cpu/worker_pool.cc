#include "runtime/hal/cpu/worker_pool.h"

#include <algorithm>
#include <utility>

namespace ember::hal::cpu {

WorkerPool::WorkerPool(uint32_t worker_count)
    : worker_count_(std::max<uint32_t>(worker_count, 1)) {
  for (uint32_t id = 1; id < worker_count_; ++id) {
    threads_.emplace_back([this, id] { WorkerMain(id); });
  }
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void WorkerPool::RunChunks(uint32_t worker_id) {
  while (!failed_.load(std::memory_order_relaxed)) {
    uint64_t begin = next_.fetch_add(chunk_, std::memory_order_relaxed);
    if (begin >= total_) break;
    uint64_t end = std::min(total_, begin + chunk_);
    Status status = (*body_)(worker_id, begin, end);
    if (!status.ok()) {
      std::lock_guard lock(error_mutex_);
      if (first_error_.ok()) first_error_ = std::move(status);
      failed_.store(true, std::memory_order_relaxed);
    }
  }
}

void WorkerPool::WorkerMain(uint32_t worker_id) {
  uint64_t seen = 0;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    RunChunks(worker_id);
    {
      std::lock_guard lock(mutex_);
      if (--active_ == 0) done_.notify_one();
    }
  }
}

Status WorkerPool::ParallelFor(uint64_t total, const Body& body) {
  if (total == 0) return Status::Ok();
  // Few workgroups, or no helpers: run inline, no hand-off.
  if (threads_.empty() || total == 1) return body(0, 0, total);
  std::lock_guard submit(submit_mutex_);
  body_ = &body;
  total_ = total;
  // About four chunks per worker balances uneven workgroups without making
  // the counter hot.
  chunk_ = std::max<uint64_t>(1, total / (uint64_t{worker_count_} * 4));
  next_.store(0, std::memory_order_relaxed);
  failed_.store(false, std::memory_order_relaxed);
  first_error_ = Status::Ok();
  {
    std::lock_guard lock(mutex_);
    active_ = static_cast<uint32_t>(threads_.size());
    ++generation_;
  }
  wake_.notify_all();
  RunChunks(0);
  {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return active_ == 0; });
  }
  body_ = nullptr;
  return std::move(first_error_);
}

}  // namespace ember::hal::cpu
