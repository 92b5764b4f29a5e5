#include "runtime/base/trace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace ember::trace {
namespace {

size_t CountOccurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

TEST(TraceTest, OffRecordsNothing) {
  Start();
  Stop();
  EXPECT_FALSE(Enabled());
  EXPECT_EQ(BeginNs(), 0u);
  // A slice begun while recording but completed after Stop is dropped.
  Complete(Category::kInvoke, "late", NowNs());
  EXPECT_EQ(CountOccurrences(ChromeJson(), "\"ph\":\"X\""), 0u);
}

TEST(TraceTest, RecordsSlicesWithArguments) {
  Start();
  const uint64_t begin = BeginNs();
  ASSERT_NE(begin, 0u);
  Complete(Category::kDispatch, "kernel", begin,
           {Arg::Text("executable", "lib"), Arg::Int("workgroups_x", 7),
            Arg::Int("workgroups_y", -1)});
  CompleteQualified(Category::kNative, "hal", "fence.await", BeginNs());
  Stop();
  const std::string json = ChromeJson();
  EXPECT_NE(json.find("\"cat\":\"dispatch\",\"name\":\"kernel\""),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"args\":{\"executable\":\"lib\",\"workgroups_x\":7,"
                      "\"workgroups_y\":-1}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"name\":\"hal.fence.await\""), std::string::npos);
  EXPECT_NE(json.find("\"dropped_events\":0"), std::string::npos);
  // The session is kept after Stop, until the next Start.
  EXPECT_EQ(ChromeJson(), json);
  Start();
  Stop();
  EXPECT_EQ(json.find("kernel") != std::string::npos, true);
  EXPECT_EQ(ChromeJson().find("kernel"), std::string::npos);
}

TEST(TraceTest, NamesAreRightAfterANewSessionResetsTheStringTable) {
  Start();
  Complete(Category::kFrame, "alpha", BeginNs());
  Stop();
  Start();
  // A stale cached id for "alpha" would name this slice "beta".
  Complete(Category::kFrame, "beta", BeginNs());
  Complete(Category::kFrame, "alpha", BeginNs(), {Arg::Text("k", "beta")});
  Stop();
  const std::string json = ChromeJson();
  EXPECT_EQ(CountOccurrences(json, "\"name\":\"alpha\""), 1u) << json;
  EXPECT_EQ(CountOccurrences(json, "\"name\":\"beta\""), 1u) << json;
  EXPECT_NE(json.find("\"args\":{\"k\":\"beta\"}"), std::string::npos);
}

TEST(TraceTest, SliceBegunBeforeStartIsDropped) {
  const uint64_t early = NowNs();
  Start();
  Complete(Category::kFrame, "early", early);
  Stop();
  EXPECT_EQ(ChromeJson().find("early"), std::string::npos);
}

TEST(TraceTest, EscapesNamesIntoValidJson) {
  Start();
  Complete(Category::kFrame, std::string_view("a\"b\\c\n\x01\xff\xc3\xa9", 10),
           BeginNs());
  Stop();
  const std::string json = ChromeJson();
  // Quote, backslash and control bytes escaped; the invalid byte 0xff
  // replaced by U+FFFD; the valid "é" kept.
  EXPECT_NE(json.find("\"a\\\"b\\\\c\\u000a\\u0001\xEF\xBF\xBD\xC3\xA9\""),
            std::string::npos)
      << json;
}

TEST(TraceTest, ThreadsRecordConcurrentlyAndAreNamed) {
  constexpr int kThreads = 8;
  constexpr int kEvents = 10000;  // more than two chunks per thread
  Start();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      SetThreadName("worker " + std::to_string(t));
      for (int i = 0; i < kEvents; ++i) {
        Complete(Category::kWorkgroups, "share", BeginNs(),
                 {Arg::Int("worker", t)});
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  Stop();
  const std::string json = ChromeJson();
  EXPECT_EQ(CountOccurrences(json, "\"name\":\"share\""),
            size_t{kThreads} * kEvents);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_NE(
        json.find("\"args\":{\"name\":\"worker " + std::to_string(t) + "\"}"),
        std::string::npos);
  }
  // Exited threads' buffers are kept until the next session starts.
  Start();
  Stop();
  EXPECT_EQ(CountOccurrences(ChromeJson(), "\"name\":\"share\""), 0u);
}

// Writing and restarting sessions while threads record (run under TSan
// too): no torn events, no stale names, every written slice well formed.
TEST(TraceTest, WritesAndRestartsWhileThreadsRecord) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  Start(8 * kChunkEvents);  // small sessions: the writes stay quick
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&stop, t] {
      const std::string name = "slice" + std::to_string(t);
      while (!stop.load(std::memory_order_relaxed)) {
        Complete(Category::kQueue, name, BeginNs(), {Arg::Int("t", t)});
      }
    });
  }
  // Let every thread get going (and the first session fill) before writing.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  for (int round = 0; round < 20; ++round) {
    const std::string json = ChromeJson();
    EXPECT_EQ(json.find("\"name\":\"?\""), std::string::npos);
    EXPECT_EQ(json.rfind("}}\n"), json.size() - 3);
    if (round % 5 == 4) Start(8 * kChunkEvents);
  }
  stop.store(true);
  for (std::thread& thread : threads) thread.join();
  Stop();
  const std::string json = ChromeJson();
  for (int t = 0; t < 4; ++t) {
    const size_t slices =
        CountOccurrences(json, "\"name\":\"slice" + std::to_string(t) + "\"");
    EXPECT_EQ(slices, CountOccurrences(
                          json, "\"args\":{\"t\":" + std::to_string(t) + "}"));
  }
}

TEST(TraceTest, CapDropsAndCounts) {
  const size_t cap = 3 * kChunkEvents;
  Start(cap);
  const size_t extra = 1000;
  for (size_t i = 0; i < cap + extra; ++i) {
    Complete(Category::kQueue, "op", BeginNs());
  }
  Stop();
  EXPECT_EQ(DroppedEvents(), extra);
  const std::string json = ChromeJson();
  EXPECT_EQ(CountOccurrences(json, "\"name\":\"op\""), cap);
  EXPECT_NE(json.find("\"dropped_events\":" + std::to_string(extra)),
            std::string::npos);
  Start();  // frees the capped session's memory
  Stop();
}

TEST(TraceTest, WritesFileAndReportsUnwritablePath) {
  Start();
  Complete(Category::kInvoke, "main", BeginNs());
  Stop();
  const std::string path = ::testing::TempDir() + "/ember_trace_test.json";
  ASSERT_TRUE(WriteChromeJson(path).ok());
  std::FILE* file = std::fopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr);
  std::string text(1 << 16, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), file));
  std::fclose(file);
  std::remove(path.c_str());
  EXPECT_EQ(text, ChromeJson());
  // Written through a temporary beside it, renamed over the target (and so
  // over an older trace): nothing else is left behind.
  ASSERT_TRUE(WriteChromeJson(path).ok());
  ASSERT_TRUE(WriteChromeJson(path).ok());
  const std::string temporary =
      path + ".tmp." + std::to_string(static_cast<long long>(::getpid()));
  EXPECT_EQ(std::fopen(temporary.c_str(), "rb"), nullptr);
  EXPECT_EQ(std::remove(path.c_str()), 0);
  Status status = WriteChromeJson("/nonexistent-dir/x/trace.json");
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.ToString().find("/nonexistent-dir/x/trace.json"),
            std::string::npos);
}

TEST(TraceTest, EnvironmentPathsExpandTheProcessId) {
  const std::string pid = std::to_string(static_cast<long long>(::getpid()));
  EXPECT_EQ(ExpandTracePath("/t/out.%p.json"), "/t/out." + pid + ".json");
  EXPECT_EQ(ExpandTracePath("%p%p"), pid + pid);
  EXPECT_EQ(ExpandTracePath("plain.json"), "plain.json");
  EXPECT_EQ(ExpandTracePath("100%"), "100%");
  EXPECT_EQ(ExpandTracePath("%d%"), "%d%");
}

}  // namespace
}  // namespace ember::trace
