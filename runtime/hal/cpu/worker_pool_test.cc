// WorkerPool: every index of every job runs exactly once, on a valid worker
// id, whether helpers are spinning, asleep or late; errors come back; jobs
// from several threads all complete.
#include "runtime/hal/cpu/worker_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace ember::hal::cpu {
namespace {

TEST(WorkerPoolTest, EveryIndexRunsOnceInManyJobs) {
  WorkerPool pool(3);
  ASSERT_EQ(pool.worker_count(), 3u);
  for (int job = 0; job < 3000; ++job) {
    const uint64_t total = 1 + job % 97;
    std::vector<std::atomic<int>> hits(total);
    std::atomic<bool> bad_worker{false};
    Status status = pool.ParallelFor(
        total, [&](uint32_t worker, uint64_t begin, uint64_t end) {
          if (worker >= 3) bad_worker = true;
          for (uint64_t i = begin; i < end; ++i) hits[i].fetch_add(1);
          return Status::Ok();
        });
    ASSERT_TRUE(status.ok()) << status.ToString();
    ASSERT_FALSE(bad_worker.load());
    for (uint64_t i = 0; i < total; ++i) {
      ASSERT_EQ(hits[i].load(), 1) << "job " << job << " index " << i;
    }
    // Now and then let the helpers fall asleep between jobs.
    if (job % 500 == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

TEST(WorkerPoolTest, ChunksShrinkToSingleWorkgroupsAtTheEnd) {
  // Guided scheduling: no chunk is more than a 1/(2 x workers) share of the
  // job, and the job always ends with single-workgroup chunks, so workers
  // finish within about one workgroup of each other.
  WorkerPool pool(2);
  for (uint64_t total : {2u, 5u, 64u, 1000u, 100000u}) {
    std::mutex mutex;
    std::vector<std::pair<uint64_t, uint64_t>> chunks;
    Status status =
        pool.ParallelFor(total, [&](uint32_t, uint64_t begin, uint64_t end) {
          std::lock_guard lock(mutex);
          chunks.emplace_back(begin, end);
          return Status::Ok();
        });
    ASSERT_TRUE(status.ok()) << status.ToString();
    std::sort(chunks.begin(), chunks.end());
    uint64_t covered = 0;
    for (const auto& [begin, end] : chunks) {
      ASSERT_EQ(begin, covered) << "total " << total;
      ASSERT_GT(end, begin);
      EXPECT_LE(end - begin, std::max<uint64_t>(1, total / 4))
          << "total " << total;
      covered = end;
    }
    EXPECT_EQ(covered, total);
    EXPECT_EQ(chunks.back().second - chunks.back().first, 1u)
        << "total " << total;
  }
}

TEST(WorkerPoolTest, TheFirstErrorComesBackAndLaterChunksAreSkipped) {
  WorkerPool pool(2);
  std::atomic<int> ran{0};
  Status status =
      pool.ParallelFor(1000, [&](uint32_t, uint64_t begin, uint64_t) {
        ran.fetch_add(1);
        if (begin == 0) return InvalidArgumentError("chunk 0 failed");
        return Status::Ok();
      });
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.ToString().find("chunk 0 failed"), std::string::npos);
  // The pool still works after a failed job.
  std::atomic<uint64_t> sum{0};
  ASSERT_TRUE(pool.ParallelFor(100,
                               [&](uint32_t, uint64_t begin, uint64_t end) {
                                 for (uint64_t i = begin; i < end; ++i)
                                   sum += i;
                                 return Status::Ok();
                               })
                  .ok());
  EXPECT_EQ(sum.load(), 4950u);
}

TEST(WorkerPoolTest, JobsFromSeveralThreadsAllComplete) {
  WorkerPool pool(2);
  std::atomic<bool> overlapped{false};
  std::atomic<uint64_t> total{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int job = 0; job < 200; ++job) {
        Status status =
            pool.ParallelFor(16, [&](uint32_t, uint64_t begin, uint64_t end) {
              total += end - begin;
              return Status::Ok();
            });
        if (!status.ok()) overlapped = true;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_FALSE(overlapped.load());
  EXPECT_EQ(total.load(), 4u * 200u * 16u);
}

TEST(WorkerPoolTest, OneWorkerRunsInlineAndIdlePoolsShutDown) {
  WorkerPool single(1);
  std::thread::id ran_on;
  ASSERT_TRUE(single
                  .ParallelFor(10,
                               [&](uint32_t worker, uint64_t, uint64_t) {
                                 EXPECT_EQ(worker, 0u);
                                 ran_on = std::this_thread::get_id();
                                 return Status::Ok();
                               })
                  .ok());
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  // A pool whose helpers are asleep is destroyed without hanging.
  auto idle = std::make_unique<WorkerPool>(4);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  idle.reset();
}

}  // namespace
}  // namespace ember::hal::cpu
