// Tests of the cpu thread pool: exact coverage of every index, caller
// participation, nesting, concurrent callers and TESSEL_CPU_THREADS parsing.
#include "hal/cpu/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>

using namespace tessel::rt;
using tessel::rt::hal::cpu::ThreadPool;

TEST(ThreadPoolTest, CoversEveryIndexExactlyOnce) {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.size(), threads);
    for (uint64_t count : {0u, 1u, 2u, 7u, 1001u, 4099u}) {
      std::vector<std::atomic<int>> hits(count);
      pool.parallelFor(count, [&](uint64_t i) { hits[i].fetch_add(1); });
      for (uint64_t i = 0; i < count; ++i)
        ASSERT_EQ(hits[i].load(), 1) << "threads " << threads << " count " << count << " i " << i;
    }
  }
}

TEST(ThreadPoolTest, ManySmallLoopsInARow) {
  ThreadPool pool(4);
  std::atomic<uint64_t> sum{0};
  for (int iter = 0; iter < 2000; ++iter)
    pool.parallelFor(3 + iter % 5, [&](uint64_t i) { sum.fetch_add(i + 1); });
  uint64_t expected = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    uint64_t n = 3 + iter % 5;
    expected += n * (n + 1) / 2;
  }
  EXPECT_EQ(sum.load(), expected);
}

TEST(ThreadPoolTest, SpreadsWorkAndCallerParticipates) {
  ThreadPool pool(4);
  std::mutex m;
  std::set<std::thread::id> ids;
  pool.parallelFor(64, [&](uint64_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::lock_guard<std::mutex> lock(m);
    ids.insert(std::this_thread::get_id());
  });
  EXPECT_GE(ids.size(), 2u);
  EXPECT_TRUE(ids.count(std::this_thread::get_id()));
}

TEST(ThreadPoolTest, SingleItemRunsInline) {
  ThreadPool pool(4);
  std::thread::id ran;
  pool.parallelFor(1, [&](uint64_t) { ran = std::this_thread::get_id(); });
  EXPECT_EQ(ran, std::this_thread::get_id());
}

TEST(ThreadPoolTest, NestedLoopsRunInline) {
  ThreadPool pool(3);
  std::vector<std::atomic<int>> hits(5 * 7);
  pool.parallelFor(5, [&](uint64_t i) {
    pool.parallelFor(7, [&](uint64_t j) { hits[i * 7 + j].fetch_add(1); });
  });
  for (auto &h : hits)
    EXPECT_EQ(h.load(), 1);
}

TEST(ThreadPoolTest, ConcurrentCallers) {
  ThreadPool pool(3);
  std::vector<std::atomic<int>> a(501), b(333);
  std::thread other([&] {
    for (int r = 0; r < 50; ++r)
      pool.parallelFor(b.size(), [&](uint64_t i) { b[i].fetch_add(1); });
  });
  for (int r = 0; r < 50; ++r)
    pool.parallelFor(a.size(), [&](uint64_t i) { a[i].fetch_add(1); });
  other.join();
  for (auto &h : a)
    EXPECT_EQ(h.load(), 50);
  for (auto &h : b)
    EXPECT_EQ(h.load(), 50);
}

TEST(ThreadCountTest, ParsesEnvironmentValue) {
  using hal::cpu::parseThreadCount;
  EXPECT_FALSE(parseThreadCount(nullptr)->has_value());
  EXPECT_FALSE(parseThreadCount("")->has_value());
  EXPECT_EQ(parseThreadCount("4")->value(), 4u);
  EXPECT_EQ(parseThreadCount("1")->value(), 1u);
  for (const char *bad : {"0", "-1", "abc", "4x", " 4", "1025", "99999999999999999999", "2.5"}) {
    auto r = parseThreadCount(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("TESSEL_CPU_THREADS='" + std::string(bad) + "'"),
              std::string::npos)
        << r.status().message();
  }
}

TEST(ThreadCountTest, DefaultUsesEnvironment) {
  ::setenv("TESSEL_CPU_THREADS", "3", 1);
  EXPECT_EQ(*hal::cpu::defaultThreadCount(), 3u);
  ::setenv("TESSEL_CPU_THREADS", "zero", 1);
  EXPECT_FALSE(hal::cpu::defaultThreadCount().ok());
  ::unsetenv("TESSEL_CPU_THREADS");
  EXPECT_GE(*hal::cpu::defaultThreadCount(), 1u);
}
