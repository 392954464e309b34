// Tests of the cpu thread pool: exact coverage of every index, thread
// indices (in range, the caller as 0, one thread per index at a time), how
// many workers join a loop, the schedules (own ranges first, stealing),
// sleeping and waking, pinning, nesting, concurrent callers, shared pools,
// the environment variables, and the cost of an empty loop (printed, not
// checked).
#include "hal/cpu/cpu_topology.h"
#include "hal/cpu/thread_pool.h"

#include <gtest/gtest.h>

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <set>

using namespace tessel::rt;
using tessel::rt::hal::cpu::Schedule;
using tessel::rt::hal::cpu::ThreadPool;

namespace {

// Busy work of about `ns` nanoseconds, so that bodies overlap in time.
void spinFor(int ns) {
  auto end = std::chrono::steady_clock::now() + std::chrono::nanoseconds(ns);
  while (std::chrono::steady_clock::now() < end) {
  }
}

// Checks the thread-index contract from inside bodies: the index is in
// range, the caller runs as 0 and workers never do, a worker index always
// belongs to the same thread, and no two threads hold one index at once.
class IndexChecker {
public:
  IndexChecker(unsigned size, std::thread::id caller)
      : size_(size), caller_(caller), inUse_(size) {}

  void enter(unsigned t) {
    if (t >= size_) {
      ++errors_;
      return;
    }
    if (inUse_[t].exchange(true))
      ++errors_; // another thread runs with this index right now
    std::thread::id self = std::this_thread::get_id();
    if ((self == caller_) != (t == 0))
      ++errors_;
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, inserted] = owners_.emplace(t, self);
    if (t != 0 && !inserted && it->second != self)
      ++errors_; // a worker index moved to another thread
  }
  void leave(unsigned t) {
    if (t < size_)
      inUse_[t].store(false);
  }
  int errors() const { return errors_.load(); }
  size_t indicesSeen() {
    std::lock_guard<std::mutex> lock(mutex_);
    return owners_.size();
  }

private:
  unsigned size_;
  std::thread::id caller_;
  std::vector<std::atomic<bool>> inUse_;
  std::atomic<int> errors_{0};
  std::mutex mutex_;
  std::map<unsigned, std::thread::id> owners_;
};

} // namespace

TEST(ThreadPoolTest, CoversEveryIndexExactlyOnce) {
  for (Schedule schedule : {Schedule::kRanges, Schedule::kDynamic})
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    ThreadPool pool(threads, schedule);
    EXPECT_EQ(pool.size(), threads);
    EXPECT_EQ(pool.schedule(), schedule);
    IndexChecker check(threads, std::this_thread::get_id());
    for (uint64_t count : {0u, 1u, 2u, 7u, 1001u, 4099u}) {
      std::vector<std::atomic<int>> hits(count);
      pool.parallelFor(count, [&](uint64_t i, unsigned t) {
        check.enter(t);
        hits[i].fetch_add(1);
        spinFor(i % 3 * 200);
        check.leave(t);
      });
      for (uint64_t i = 0; i < count; ++i)
        ASSERT_EQ(hits[i].load(), 1) << "threads " << threads << " count " << count << " i " << i;
    }
    EXPECT_EQ(check.errors(), 0) << "threads " << threads;
  }
}

namespace {
struct Sum {
  std::atomic<uint64_t> total{0};
  std::atomic<unsigned> maxIndex{0};
};
void addItem(void *context, uint64_t item, unsigned threadIndex) {
  auto *sum = static_cast<Sum *>(context);
  sum->total.fetch_add(item + 1);
  unsigned m = sum->maxIndex.load();
  while (threadIndex > m && !sum->maxIndex.compare_exchange_weak(m, threadIndex)) {
  }
}
} // namespace

namespace {
// Spins (yielding) until pred() or 20 s have passed; returns pred().
template <typename Pred> bool waitUntil(Pred pred) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline)
      return pred();
    std::this_thread::yield();
  }
  return true;
}
} // namespace

TEST(ThreadPoolTest, EachThreadStartsOnItsOwnRange) {
  // kRanges: thread t's first item is the first of the t-th contiguous
  // range (count / threads items each, the remainder to the first ranges).
  // No body returns before every thread has entered one, so no thread can
  // have finished its range and stolen from another's before it started.
  constexpr unsigned kThreads = 4;
  ThreadPool pool(kThreads, Schedule::kRanges);
  for (uint64_t count : {64u, 1001u}) {
    std::vector<std::atomic<int64_t>> first(kThreads);
    for (auto &f : first)
      f.store(-1);
    std::atomic<unsigned> entered{0};
    std::atomic<bool> timedOut{false};
    pool.parallelFor(count, [&](uint64_t i, unsigned t) {
      int64_t none = -1;
      if (first[t].compare_exchange_strong(none, static_cast<int64_t>(i))) {
        entered.fetch_add(1);
        if (!waitUntil([&] { return entered.load() == kThreads; }))
          timedOut.store(true);
      }
    });
    ASSERT_FALSE(timedOut.load()) << "not every thread joined a loop of " << count;
    uint64_t q = count / kThreads, rem = count % kThreads, start = 0;
    for (unsigned t = 0; t < kThreads; ++t) {
      EXPECT_EQ(first[t].load(), static_cast<int64_t>(start)) << "count " << count << " thread " << t;
      start += q + (t < rem ? 1 : 0);
    }
  }
}

TEST(ThreadPoolTest, ThreadsStealFromABusyRange) {
  // Item 0 (the caller's range) waits until every item outside the
  // caller's first chunk has run: with no stealing, the rest of the
  // caller's range would wait behind it forever (20 s, then a failure).
  for (Schedule schedule : {Schedule::kRanges, Schedule::kDynamic}) {
    ThreadPool pool(4, schedule);
    constexpr uint64_t kCount = 64; // chunks of 64 / (8 * 4) = 2
    std::vector<std::atomic<int>> hits(kCount);
    std::atomic<uint64_t> done{0};
    std::atomic<bool> timedOut{false};
    pool.parallelFor(kCount, [&](uint64_t i) {
      if (i == 0 && !waitUntil([&] { return done.load() == kCount - 2; }))
        timedOut.store(true);
      hits[i].fetch_add(1);
      if (i >= 2)
        done.fetch_add(1);
    });
    EXPECT_FALSE(timedOut.load()) << "schedule " << static_cast<int>(schedule);
    for (uint64_t i = 0; i < kCount; ++i)
      EXPECT_EQ(hits[i].load(), 1) << i;
  }
}

TEST(ThreadPoolTest, FunctionPointerAndContext) {
  ThreadPool pool(3);
  Sum sum;
  pool.parallelFor(1000, addItem, &sum);
  EXPECT_EQ(sum.total.load(), 1000u * 1001 / 2);
  EXPECT_LT(sum.maxIndex.load(), 3u);
  // A const callable taking the item only.
  std::atomic<uint64_t> n{0};
  const auto body = [&](uint64_t) { n.fetch_add(1); };
  pool.parallelFor(10, body);
  EXPECT_EQ(n.load(), 10u);
}

TEST(ThreadPoolTest, ManySmallLoopsInARow) {
  // Back to back, workers are still spinning when the next loop comes.
  for (unsigned threads : {2u, 4u}) {
    ThreadPool pool(threads);
    IndexChecker check(threads, std::this_thread::get_id());
    std::atomic<uint64_t> sum{0};
    uint64_t expected = 0;
    for (int iter = 0; iter < 5000; ++iter) {
      uint64_t n = iter % 9; // 0 and 1 run inline
      expected += n * (n + 1) / 2;
      pool.parallelFor(n, [&](uint64_t i, unsigned t) {
        check.enter(t);
        sum.fetch_add(i + 1);
        check.leave(t);
      });
    }
    EXPECT_EQ(sum.load(), expected);
    EXPECT_EQ(check.errors(), 0);
  }
}

TEST(ThreadPoolTest, OnlyTheNeededWorkersJoin) {
  // A loop of n items asks min(n, size()) - 1 workers; no other runs items.
  ThreadPool pool(6);
  for (uint64_t count : {2u, 3u}) {
    for (int iter = 0; iter < 300; ++iter) {
      std::mutex m;
      std::set<unsigned> indices;
      pool.parallelFor(count, [&](uint64_t, unsigned t) {
        spinFor(20000); // long enough for every awake worker to try
        std::lock_guard<std::mutex> lock(m);
        indices.insert(t);
      });
      ASSERT_LE(indices.size(), count) << "iteration " << iter;
    }
  }
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

TEST(ThreadPoolTest, SleepingWorkersWakeUp) {
  // After a pause far longer than the spin, workers sleep on the condition
  // variable; a long loop must still reach them.
  ThreadPool pool(2);
  for (int round = 0; round < 3; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::mutex m;
    std::set<unsigned> indices;
    std::atomic<int> items{0};
    pool.parallelFor(16, [&](uint64_t, unsigned t) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      items.fetch_add(1);
      std::lock_guard<std::mutex> lock(m);
      indices.insert(t);
    });
    EXPECT_EQ(items.load(), 16);
    EXPECT_EQ(indices, (std::set<unsigned>{0, 1})) << "round " << round;
  }
}

TEST(ThreadPoolTest, SingleItemRunsInline) {
  ThreadPool pool(4);
  std::thread::id ran;
  unsigned index = 99;
  pool.parallelFor(1, [&](uint64_t, unsigned t) {
    ran = std::this_thread::get_id();
    index = t;
  });
  EXPECT_EQ(ran, std::this_thread::get_id());
  EXPECT_EQ(index, 0u);
}

TEST(ThreadPoolTest, NestedLoopsRunInlineWithTheEnclosingIndex) {
  ThreadPool pool(3);
  std::vector<std::atomic<int>> hits(5 * 7);
  std::atomic<int> errors{0};
  pool.parallelFor(5, [&](uint64_t i, unsigned outer) {
    std::thread::id self = std::this_thread::get_id();
    pool.parallelFor(7, [&](uint64_t j, unsigned inner) {
      if (inner != outer || std::this_thread::get_id() != self)
        ++errors;
      hits[i * 7 + j].fetch_add(1);
    });
  });
  for (auto &h : hits)
    EXPECT_EQ(h.load(), 1);
  EXPECT_EQ(errors.load(), 0);
}

TEST(ThreadPoolTest, ConcurrentCallersFromEightThreads) {
  // Callers are serialized; thread indices stay exclusive across callers
  // (index 0 goes to one caller at a time, inline loops included).
  ThreadPool pool(3);
  constexpr int kCallers = 8, kRounds = 100;
  std::vector<std::vector<std::atomic<int>>> hits;
  for (int c = 0; c < kCallers; ++c)
    hits.emplace_back(64 + 37 * c);
  std::atomic<int> errors{0};
  std::vector<std::atomic<bool>> inUse(pool.size());
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c)
    callers.emplace_back([&, c] {
      for (int r = 0; r < kRounds; ++r) {
        uint64_t n = r % 10 == 0 ? r % 3 : hits[c].size(); // some empty and 1-item loops
        pool.parallelFor(n, [&](uint64_t i, unsigned t) {
          if (t >= pool.size() || inUse[t].exchange(true)) {
            ++errors;
            return;
          }
          hits[c][i].fetch_add(1);
          inUse[t].store(false);
        });
      }
    });
  for (std::thread &t : callers)
    t.join();
  EXPECT_EQ(errors.load(), 0);
  for (int c = 0; c < kCallers; ++c)
    for (size_t i = 0; i < hits[c].size(); ++i) {
      int expected = 0;
      for (int r = 0; r < kRounds; ++r)
        expected += r % 10 == 0 ? (i < uint64_t(r % 3)) : 1;
      ASSERT_EQ(hits[c][i].load(), expected) << "caller " << c << " item " << i;
    }
}

namespace {
// Which CPUs each thread index ran on (its affinity mask), from a loop long
// enough for every worker to join.
std::map<unsigned, std::vector<int>> masksByThread(ThreadPool &pool) {
  std::mutex m;
  std::map<unsigned, std::vector<int>> masks;
  pool.parallelFor(pool.size() * 8, [&](uint64_t, unsigned t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::vector<int> mask = hal::cpu::affinityCpus(); // this thread's mask
    std::lock_guard<std::mutex> lock(m);
    masks[t] = mask;
  });
  return masks;
}

// Restricts the calling thread to `cpus` while it lives.
class ScopedAffinity {
public:
  explicit ScopedAffinity(const std::vector<int> &cpus) : saved_(hal::cpu::affinityCpus()) {
    set(cpus);
  }
  ~ScopedAffinity() { set(saved_); }

private:
  static void set(const std::vector<int> &cpus) {
    cpu_set_t s;
    CPU_ZERO(&s);
    for (int c : cpus)
      CPU_SET(c, &s);
    EXPECT_EQ(pthread_setaffinity_np(pthread_self(), sizeof(s), &s), 0);
  }
  std::vector<int> saved_;
};
} // namespace

TEST(ThreadPoolTest, PinsEachWorkerToItsCoreAndNotTheCaller) {
  using namespace hal::cpu;
  CpuTopology host = hostCpuTopology();
  unsigned threads = host.physicalCores();
  std::vector<int> cpus = workerCpusFor(host, threads, true);
  if (cpus.empty())
    GTEST_SKIP() << "one core, or no sysfs topology: nothing to pin";
  ThreadPool pool(threads, host);
  EXPECT_EQ(pool.pinnedWorkers(), threads - 1);
  std::map<unsigned, std::vector<int>> masks = masksByThread(pool);
  EXPECT_GE(masks.size(), 2u);
  std::set<int> used;
  for (const auto &[t, mask] : masks) {
    if (t == 0) {
      EXPECT_EQ(mask, host.cpus) << "the caller keeps the process's mask";
      continue;
    }
    // Worker t starts on cpus[t - 1]; one may have moved to core 0 if this
    // thread ran on its core.
    ASSERT_EQ(mask.size(), 1u) << "worker " << t;
    EXPECT_TRUE(mask[0] == cpus[t - 1] || mask[0] == host.coreCpus[0]) << "worker " << t;
    EXPECT_TRUE(used.insert(mask[0]).second) << "two workers on CPU " << mask[0];
  }

  // Pinning is best effort: a CPU this process cannot use leaves the worker
  // unpinned and working.
  CpuTopology absent;
  absent.cpus = absent.coreCpus = {4094, 4095};
  absent.coreOf = {0, 1};
  absent.fromSysfs = true;
  ThreadPool unpinnable(2, absent);
  EXPECT_EQ(unpinnable.pinnedWorkers(), 0u);
  std::atomic<int> n{0};
  unpinnable.parallelFor(100, [&](uint64_t) { n.fetch_add(1); });
  EXPECT_EQ(n.load(), 100);
}

TEST(ThreadPoolTest, WorkerLeavesTheCallersCore) {
  // The caller is not pinned; a loop started on a worker's core moves that
  // worker to the free core, so the two do not share one core.
  using namespace hal::cpu;
  CpuTopology host = hostCpuTopology();
  if (workerCpusFor(host, 2, true).empty())
    GTEST_SKIP() << "one core, or no sysfs topology: nothing to pin";
  int core0 = host.coreCpus[0], core1 = host.coreCpus[1];
  ThreadPool pool(2, host);
  ASSERT_EQ(pool.pinnedWorkers(), 1u);
  {
    ScopedAffinity onWorkersCore({core1});
    EXPECT_EQ(masksByThread(pool)[1], std::vector<int>{core0});
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2)); // past the rate limit
  {
    ScopedAffinity onCore0({core0});
    EXPECT_EQ(masksByThread(pool)[1], std::vector<int>{core1});
  }
}

TEST(ThreadPoolTest, SharedPoolsByThreadCountAndPinning) {
  using hal::cpu::sharedThreadPool;
  ::unsetenv("TESSEL_CPU_PIN");
  ::setenv("TESSEL_CPU_THREADS", "2", 1);
  auto a = sharedThreadPool();
  auto b = sharedThreadPool(2);
  auto c = sharedThreadPool(3);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok()) << a.status().toString();
  EXPECT_EQ((*a)->size(), 2u);
  EXPECT_EQ(a->get(), b->get()) << "the default count and the same explicit count share";
  EXPECT_NE(a->get(), c->get());
  EXPECT_EQ((*c)->size(), 3u);
  EXPECT_EQ((*a)->pinnedWorkers(),
            hal::cpu::workerCpusFor(hal::cpu::hostCpuTopology(), 2, true).size());

  ::setenv("TESSEL_CPU_PIN", "0", 1);
  auto unpinned = sharedThreadPool(2);
  ASSERT_TRUE(unpinned.ok());
  EXPECT_NE(unpinned->get(), a->get());
  EXPECT_EQ((*unpinned)->pinnedWorkers(), 0u);

  ::setenv("TESSEL_CPU_PIN", "yes", 1);
  auto bad = sharedThreadPool(2);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("TESSEL_CPU_PIN='yes' is not 0 or 1"), std::string::npos)
      << bad.status().message();
  ::unsetenv("TESSEL_CPU_PIN");

  ::setenv("TESSEL_CPU_THREADS", "many", 1);
  EXPECT_FALSE(sharedThreadPool().ok());
  EXPECT_TRUE(sharedThreadPool(2).ok()) << "an explicit count does not read the variable";
  ::unsetenv("TESSEL_CPU_THREADS");
  auto tooMany = sharedThreadPool(hal::cpu::kMaxThreads + 1);
  ASSERT_FALSE(tooMany.ok());
  EXPECT_NE(tooMany.status().message().find("at most 1024"), std::string::npos);

  // A pool lives while someone holds it; then a new one is made.
  std::weak_ptr<ThreadPool> three = *c;
  c = sharedThreadPool(1); // drops the only reference to the 3-thread pool
  EXPECT_TRUE(three.expired());
  auto again = sharedThreadPool(3);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->size(), 3u);
}

TEST(ThreadPoolTest, EmptyLoopOverhead) {
  // Prints the cost of an empty 16-item loop on a warm pool (the target is
  // <= 5 us with 16 threads); checks only that every item ran.
  std::vector<unsigned> sizes = {2};
  if (auto n = hal::cpu::defaultThreadCount(); n.ok() && *n != 2)
    sizes.push_back(*n);
  for (unsigned threads : sizes)
  for (Schedule schedule : {Schedule::kRanges, Schedule::kDynamic})
  for (uint64_t items : {16u, 1024u}) {
    ThreadPool pool(threads, hal::cpu::hostCpuTopology(), schedule);
    std::vector<uint64_t> perThread(threads * 16); // one cache line apart
    constexpr int kLoops = 2000;
    std::vector<double> us;
    for (int rep = 0; rep < 5; ++rep) {
      auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < kLoops; ++i)
        pool.parallelFor(items, [&](uint64_t, unsigned t) { ++perThread[t * 16]; });
      us.push_back(
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
              .count() /
          kLoops);
    }
    uint64_t total = 0;
    for (uint64_t v : perThread)
      total += v;
    EXPECT_EQ(total, 5u * kLoops * items);
    std::sort(us.begin(), us.end());
    std::cout << "[ overhead ] empty " << items << "-item loop, " << threads << " threads ("
              << pool.pinnedWorkers() << " workers pinned), schedule "
              << (schedule == Schedule::kRanges ? "ranges" : "dynamic") << ": median " << us[2]
              << " us\n";
  }
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

TEST(ThreadCountTest, ParsesPinning) {
  using hal::cpu::parsePinning;
  EXPECT_FALSE(parsePinning(nullptr)->has_value());
  EXPECT_FALSE(parsePinning("")->has_value());
  EXPECT_EQ(parsePinning("0")->value(), false);
  EXPECT_EQ(parsePinning("1")->value(), true);
  for (const char *bad : {"2", "yes", "true", "off", "01", " 1", "1 ", "-0"}) {
    auto r = parsePinning(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("TESSEL_CPU_PIN='" + std::string(bad) + "' is not 0 or 1"),
              std::string::npos)
        << r.status().message();
  }
  // Unprintable bytes are shown as '?'.
  auto unprintable = parsePinning("\x01\x7f");
  ASSERT_FALSE(unprintable.ok());
  std::string shown = std::string("TESSEL_CPU_PIN='") + "??" + "'";
  EXPECT_NE(unprintable.status().message().find(shown), std::string::npos)
      << unprintable.status().message();
}

TEST(ThreadCountTest, ParsesSchedule) {
  using hal::cpu::parseSchedule;
  EXPECT_FALSE(parseSchedule(nullptr)->has_value());
  EXPECT_FALSE(parseSchedule("")->has_value());
  EXPECT_EQ(parseSchedule("ranges")->value(), Schedule::kRanges);
  EXPECT_EQ(parseSchedule("dynamic")->value(), Schedule::kDynamic);
  for (const char *bad : {"static", "Ranges", "ranges ", "1", "guided"}) {
    auto r = parseSchedule(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("TESSEL_CPU_SCHEDULE='" + std::string(bad) +
                                        "' is not 'ranges'"),
              std::string::npos)
        << r.status().message();
  }
  EXPECT_EQ(*hal::cpu::defaultSchedule(), Schedule::kRanges);
  ::setenv("TESSEL_CPU_SCHEDULE", "dynamic", 1);
  EXPECT_EQ(*hal::cpu::defaultSchedule(), Schedule::kDynamic);
  auto pool = hal::cpu::sharedThreadPool(2);
  ASSERT_TRUE(pool.ok());
  EXPECT_EQ((*pool)->schedule(), Schedule::kDynamic);
  ::setenv("TESSEL_CPU_SCHEDULE", "fast", 1);
  EXPECT_FALSE(hal::cpu::defaultSchedule().ok());
  EXPECT_FALSE(hal::cpu::sharedThreadPool(2).ok());
  ::unsetenv("TESSEL_CPU_SCHEDULE");
  auto ranges = hal::cpu::sharedThreadPool(2);
  ASSERT_TRUE(ranges.ok());
  EXPECT_EQ((*ranges)->schedule(), Schedule::kRanges);
  EXPECT_NE(ranges->get(), pool->get()); // pools are shared per schedule too
}

TEST(ThreadCountTest, ParsesSpin) {
  using hal::cpu::parseSpin;
  using std::chrono::microseconds;
  EXPECT_FALSE(parseSpin(nullptr)->has_value());
  EXPECT_FALSE(parseSpin("")->has_value());
  EXPECT_EQ(parseSpin("0")->value(), microseconds(0));
  EXPECT_EQ(parseSpin("750")->value(), microseconds(750));
  EXPECT_EQ(parseSpin("1000000")->value(), microseconds(1000000));
  for (const char *bad : {"1000001", "-1", "50us", " 5", "1e3", "99999999999"}) {
    auto r = parseSpin(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("TESSEL_CPU_SPIN_US='" + std::string(bad) +
                                        "' is not a whole number of microseconds"),
              std::string::npos)
        << r.status().message();
  }
  EXPECT_EQ(*hal::cpu::defaultSpin(), hal::cpu::kDefaultSpin);
  ::setenv("TESSEL_CPU_SPIN_US", "400", 1);
  EXPECT_EQ(*hal::cpu::defaultSpin(), microseconds(400));
  auto pool = hal::cpu::sharedThreadPool(2);
  ASSERT_TRUE(pool.ok());
  EXPECT_EQ((*pool)->spin(), microseconds(400));
  ::setenv("TESSEL_CPU_SPIN_US", "long", 1);
  EXPECT_FALSE(hal::cpu::sharedThreadPool(2).ok());
  ::unsetenv("TESSEL_CPU_SPIN_US");
  auto usual = hal::cpu::sharedThreadPool(2);
  ASSERT_TRUE(usual.ok());
  EXPECT_EQ((*usual)->spin(), hal::cpu::kDefaultSpin);
  EXPECT_NE(usual->get(), pool->get()); // pools are shared per spin time too
}

TEST(ThreadPoolTest, LoopsRunWithoutSpinning) {
  // Spin 0: workers and caller sleep as soon as they are idle; every item
  // still runs exactly once, loop after loop.
  ThreadPool pool(4, hal::cpu::Schedule::kRanges, std::chrono::microseconds(0));
  for (uint64_t count : {1u, 3u, 4u, 97u, 1000u}) {
    for (int round = 0; round < 50; ++round) {
      std::vector<std::atomic<int>> hits(count);
      pool.parallelFor(count, [&](uint64_t i) { hits[i].fetch_add(1); });
      for (uint64_t i = 0; i < count; ++i)
        ASSERT_EQ(hits[i].load(), 1) << count << " " << i;
    }
  }
}

TEST(ThreadCountTest, DefaultUsesEnvironmentElsePhysicalCores) {
  ::setenv("TESSEL_CPU_THREADS", "3", 1);
  EXPECT_EQ(*hal::cpu::defaultThreadCount(), 3u);
  ::setenv("TESSEL_CPU_THREADS", "zero", 1);
  EXPECT_FALSE(hal::cpu::defaultThreadCount().ok());
  ::unsetenv("TESSEL_CPU_THREADS");
  EXPECT_EQ(*hal::cpu::defaultThreadCount(),
            hal::cpu::defaultThreadCountFor(hal::cpu::hostCpuTopology()));

  EXPECT_EQ(*hal::cpu::defaultPinning(), true);
  ::setenv("TESSEL_CPU_PIN", "0", 1);
  EXPECT_EQ(*hal::cpu::defaultPinning(), false);
  ::setenv("TESSEL_CPU_PIN", "no", 1);
  EXPECT_FALSE(hal::cpu::defaultPinning().ok());
  ::unsetenv("TESSEL_CPU_PIN");
}
