// Thread pool implementation. A loop's items are split into one contiguous
// range per thread (Schedule::kRanges, the default) or left as one range
// (kDynamic); each range has a counter on a cache line of its own, from
// which threads claim chunks of count / (8 threads) consecutive items (at
// least one). A thread starts on its own range and then takes chunks from
// the others' (work stealing), so uniform loops touch no shared counter and
// give each thread the same items every time (its caches keep them between
// the launches of a transpiled CUDA program), and uneven ones still
// balance. Before issue 16 every claim went to one shared counter: with 16
// threads an empty launch of 1024 blocks cost 13-17 us, mostly that line
// moving between cores.
//
// A loop costs little when it is small: the caller publishes it and bumps a
// generation counter; workers that finished a loop spin on that counter for
// the pool's spin time (kDefaultSpin, TESSEL_CPU_SPIN_US; with a pause
// instruction) before sleeping on a condition variable, so back-to-back
// dispatches find them awake. Only min(count, size()) - 1
// workers join a loop (tickets_), and the caller never waits for a worker
// that has not joined: once it runs out of items it closes the tickets and
// waits only for the workers that are still running items (active_).
#include "hal/cpu/thread_pool.h"

#include "hal/cpu/cpu_topology.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <system_error>

namespace tessel::rt::hal::cpu {

namespace {

// The pool whose loop body this thread is running, and its thread index
// there: nested loops of that pool run inline with that index.
thread_local const ThreadPool *tLoopPool = nullptr;
thread_local unsigned tLoopIndex = 0;

// Marks the calling thread as running bodies of `pool` with `index` while
// it lives.
class LoopScope {
public:
  LoopScope(const ThreadPool *pool, unsigned index) : pool_(tLoopPool), index_(tLoopIndex) {
    tLoopPool = pool;
    tLoopIndex = index;
  }
  ~LoopScope() {
    tLoopPool = pool_;
    tLoopIndex = index_;
  }

private:
  const ThreadPool *pool_;
  unsigned index_;
};

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Spins until done() or `spin` has passed; returns done(). Now and then it
// also yields: the thread it waits for may share its CPU (the caller is not
// pinned and can sit on a worker's core), and without the yield the spin
// would hold that thread off for all of `spin`.
template <typename Done> bool spinUntil(std::chrono::microseconds spin, Done done) {
  if (spin.count() == 0)
    return done();
  auto deadline = std::chrono::steady_clock::now() + spin;
  for (unsigned i = 1;; ++i) {
    if (done())
      return true;
    cpuRelax();
    if (i % 64 == 0) {
      if (std::chrono::steady_clock::now() >= deadline)
        return done();
      sched_yield();
    }
  }
}

// Printable, bounded form of an environment value for error messages.
std::string shown(const std::string &s) {
  std::string out;
  for (char c : s.substr(0, 64))
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out;
}

// `s` as a decimal integer of at most `maxDigits` digits and nothing else,
// or std::nullopt.
std::optional<unsigned long> decimal(const std::string &s, size_t maxDigits) {
  if (s.empty() || s.size() > maxDigits || s.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoul(s);
}

bool pinToCpu(std::thread &t, int cpu) {
  if (cpu < 0)
    return false;
  cpu_set_t *set = CPU_ALLOC(cpu + 1);
  if (!set)
    return false;
  size_t bytes = CPU_ALLOC_SIZE(cpu + 1);
  CPU_ZERO_S(bytes, set);
  CPU_SET_S(cpu, bytes, set);
  bool ok = pthread_setaffinity_np(t.native_handle(), bytes, set) == 0;
  CPU_FREE(set);
  return ok;
}

} // namespace

StatusOr<std::optional<unsigned>> parseThreadCount(const char *value) {
  if (!value || !*value)
    return std::optional<unsigned>();
  std::string s(value);
  std::optional<unsigned long> n = decimal(s, 6);
  if (!n || *n == 0 || *n > kMaxThreads)
    return invalidArgument("TESSEL_CPU_THREADS='" + shown(s) +
                           "' is not a positive integer between 1 and " +
                           std::to_string(kMaxThreads));
  return std::optional<unsigned>(static_cast<unsigned>(*n));
}

StatusOr<std::optional<bool>> parsePinning(const char *value) {
  if (!value || !*value)
    return std::optional<bool>();
  std::string s(value);
  if (s == "0" || s == "1")
    return std::optional<bool>(s == "1");
  return invalidArgument("TESSEL_CPU_PIN='" + shown(s) +
                         "' is not 0 or 1 (1, the default: pin each cpu worker thread to "
                         "a core; 0: let the scheduler place them)");
}

StatusOr<std::optional<Schedule>> parseSchedule(const char *value) {
  if (!value || !*value)
    return std::optional<Schedule>();
  std::string s(value);
  if (s == "ranges")
    return std::optional<Schedule>(Schedule::kRanges);
  if (s == "dynamic")
    return std::optional<Schedule>(Schedule::kDynamic);
  return invalidArgument("TESSEL_CPU_SCHEDULE='" + shown(s) +
                         "' is not 'ranges' (the default: each cpu thread starts on a "
                         "contiguous range of the workgroups and steals from the others when "
                         "done) or 'dynamic' (all threads claim chunks from one counter)");
}

StatusOr<std::optional<std::chrono::microseconds>> parseSpin(const char *value) {
  using Result = std::optional<std::chrono::microseconds>;
  if (!value || !*value)
    return Result();
  std::string s(value);
  std::optional<unsigned long> n = decimal(s, 7);
  if (!n || *n > kMaxSpinMicroseconds)
    return invalidArgument("TESSEL_CPU_SPIN_US='" + shown(s) +
                           "' is not a whole number of microseconds from 0 to " +
                           std::to_string(kMaxSpinMicroseconds) +
                           " (how long idle cpu worker threads spin before they sleep; "
                           "default " + std::to_string(kDefaultSpin.count()) + ")");
  return Result(std::chrono::microseconds(*n));
}

StatusOr<std::chrono::microseconds> defaultSpin() {
  TESSEL_ASSIGN_OR_RETURN(std::optional<std::chrono::microseconds> fromEnv,
                          parseSpin(std::getenv("TESSEL_CPU_SPIN_US")));
  return fromEnv.value_or(kDefaultSpin);
}

StatusOr<Schedule> defaultSchedule() {
  TESSEL_ASSIGN_OR_RETURN(std::optional<Schedule> fromEnv,
                          parseSchedule(std::getenv("TESSEL_CPU_SCHEDULE")));
  return fromEnv.value_or(Schedule::kRanges);
}

StatusOr<unsigned> defaultThreadCount() {
  TESSEL_ASSIGN_OR_RETURN(std::optional<unsigned> fromEnv,
                          parseThreadCount(std::getenv("TESSEL_CPU_THREADS")));
  if (fromEnv)
    return *fromEnv;
  return std::min(defaultThreadCountFor(hostCpuTopology()), kMaxThreads);
}

StatusOr<bool> defaultPinning() {
  TESSEL_ASSIGN_OR_RETURN(std::optional<bool> fromEnv, parsePinning(std::getenv("TESSEL_CPU_PIN")));
  return fromEnv.value_or(true);
}

ThreadPool::ThreadPool(unsigned threads, Schedule schedule, std::chrono::microseconds spin)
    : ThreadPool(threads, CpuTopology(), schedule, spin) {}

ThreadPool::ThreadPool(unsigned threads, const CpuTopology &topology, Schedule schedule,
                       std::chrono::microseconds spin)
    : spin_(spin), schedule_(schedule), range_(new Range[std::max(threads, 1u)]) {
  // More threads than CPUs: a spinning worker would take time from the
  // threads with work, so workers sleep at once.
  std::vector<int> cpus = affinityCpus();
  unsigned available =
      cpus.empty() ? std::thread::hardware_concurrency() : static_cast<unsigned>(cpus.size());
  workersSpin_ = available == 0 || threads <= available;
  // Worker i goes to core i (workerCpusFor), core 0 stays free.
  std::vector<int> workerCpus = workerCpusFor(topology, threads, true);
  std::vector<unsigned> coreWorker(topology.physicalCores(), 0);
  for (unsigned i = 1; i < threads; ++i) {
    try {
      workers_.emplace_back([this, i] { workerLoop(i); });
    } catch (const std::system_error &) {
      break; // the system refuses more threads: run with fewer
    }
    if (i - 1 < workerCpus.size() && pinToCpu(workers_.back(), workerCpus[i - 1])) {
      ++pinned_;
      coreWorker[i] = i;
    }
  }
  if (pinned_ && topology.coreOf.size() == topology.cpus.size()) {
    coreWorker_ = std::move(coreWorker);
    coreCpu_ = topology.coreCpus;
    cpuCore_.assign(static_cast<size_t>(topology.cpus.back()) + 1, -1);
    for (size_t j = 0; j < topology.cpus.size(); ++j)
      cpuCore_[topology.cpus[j]] = static_cast<int>(topology.coreOf[j]);
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_.store(true);
    generation_.fetch_add(1);
  }
  wake_.notify_all();
  for (std::thread &t : workers_)
    t.join();
}

uint64_t ThreadPool::waitForLoop(uint64_t seen) {
  uint64_t g = seen;
  if (workersSpin_ &&
      spinUntil(spin_, [&] { return (g = generation_.load(std::memory_order_acquire)) != seen; }))
    return g;
  std::unique_lock<std::mutex> lock(mutex_);
  // sleepers_ before generation_, and the caller the other way round (both
  // seq_cst): either the caller sees this sleeper and notifies it, or this
  // check sees the new generation.
  sleepers_.fetch_add(1);
  wake_.wait(lock, [&] { return (g = generation_.load()) != seen; });
  sleepers_.fetch_sub(1);
  return g;
}

bool ThreadPool::takeTicket() {
  int64_t t = tickets_.load();
  while (t > 0)
    if (tickets_.compare_exchange_weak(t, t - 1))
      return true;
  return false;
}

void ThreadPool::runItems(unsigned index) {
  Body body = body_;
  void *context = context_;
  uint64_t chunk = chunk_;
  unsigned ranges = ranges_;
  unsigned r = index % ranges;
  for (unsigned visited = 0; visited < ranges; ++visited, r = r + 1 == ranges ? 0 : r + 1) {
    Range &range = range_[r];
    uint64_t end = range.end;
    // A plain read first: a used-up range costs a thief no write to a line
    // its owner may still be claiming from.
    if (range.next.load(std::memory_order_relaxed) >= end)
      continue;
    for (uint64_t first; (first = range.next.fetch_add(chunk, std::memory_order_relaxed)) < end;)
      for (uint64_t i = first, last = std::min(end, first + chunk); i < last; ++i)
        body(context, i, index);
  }
}

void ThreadPool::workerLoop(unsigned index) {
  // A worker only ever runs bodies of this pool, always with its own index.
  LoopScope scope(this, index);
  uint64_t seen = 0;
  while (true) {
    seen = waitForLoop(seen);
    if (stopping_.load())
      return;
    // active_ before the ticket, and the caller closes the tickets before
    // reading active_ (both seq_cst): a worker the caller does not wait for
    // cannot get a ticket of its loop, so it never reads body_ or the ranges late.
    // Its increment may let it take a ticket of the next loop instead, which
    // is just as good.
    active_.fetch_add(1);
    if (takeTicket())
      runItems(index);
    if (active_.fetch_sub(1) == 1 && callerWaiting_.load()) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

void ThreadPool::keepCallerCoreFree() {
  int cpu = sched_getcpu();
  if (cpu < 0 || static_cast<size_t>(cpu) >= cpuCore_.size() || cpuCore_[cpu] < 0)
    return;
  unsigned core = static_cast<unsigned>(cpuCore_[cpu]);
  unsigned worker = coreWorker_[core];
  if (worker == 0)
    return;
  // A caller that keeps moving (or several callers on different cores)
  // would make every loop move a worker: once per millisecond at most.
  auto now = std::chrono::steady_clock::now();
  if (now - lastMove_ < std::chrono::milliseconds(1))
    return;
  for (unsigned free = 0; free < coreWorker_.size(); ++free) {
    if (free == core || coreWorker_[free] != 0)
      continue;
    if (pinToCpu(workers_[worker - 1], coreCpu_[free])) {
      coreWorker_[free] = worker;
      coreWorker_[core] = 0;
      lastMove_ = now;
    }
    return;
  }
}

void ThreadPool::parallelFor(uint64_t count, Body body, void *context) {
  if (count == 0)
    return;
  if (tLoopPool == this) {
    for (uint64_t i = 0; i < count; ++i)
      body(context, i, tLoopIndex);
    return;
  }
  // Held for inline loops too: thread index 0 belongs to one caller at a time.
  std::lock_guard<std::mutex> call(callMutex_);
  LoopScope scope(this, 0);
  uint64_t helpers = std::min<uint64_t>(count, size()) - 1;
  if (helpers == 0) {
    for (uint64_t i = 0; i < count; ++i)
      body(context, i, 0);
    return;
  }
  if (!coreWorker_.empty())
    keepCallerCoreFree();
  body_ = body;
  context_ = context;
  chunk_ = std::max<uint64_t>(1, count / (uint64_t(size()) * 8));
  // Range t: items [t q + min(t, rem), ...), q = count / ranges.
  ranges_ = schedule_ == Schedule::kRanges ? static_cast<unsigned>(helpers) + 1 : 1;
  uint64_t q = count / ranges_, rem = count % ranges_, start = 0;
  for (unsigned t = 0; t < ranges_; ++t) {
    range_[t].next.store(start, std::memory_order_relaxed);
    start += q + (t < rem ? 1 : 0);
    range_[t].end = start;
  }
  tickets_.store(static_cast<int64_t>(helpers)); // publishes the loop
  generation_.fetch_add(1);
  if (unsigned sleeping = sleepers_.load()) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (helpers >= sleeping)
      wake_.notify_all();
    else
      for (uint64_t i = 0; i < helpers; ++i)
        wake_.notify_one();
  }
  runItems(0);
  // Out of items: no worker may join any more; wait for those that did.
  tickets_.store(0);
  auto idle = [&] { return active_.load() == 0; };
  if (!spinUntil(spin_, idle)) {
    std::unique_lock<std::mutex> lock(mutex_);
    callerWaiting_.store(true);
    done_.wait(lock, idle);
    callerWaiting_.store(false);
  }
}

StatusOr<std::shared_ptr<ThreadPool>> sharedThreadPool(unsigned threads) {
  if (threads == 0) {
    TESSEL_ASSIGN_OR_RETURN(threads, defaultThreadCount());
  } else if (threads > kMaxThreads) {
    return invalidArgument("a cpu thread pool of " + std::to_string(threads) +
                           " threads (at most " + std::to_string(kMaxThreads) + ")");
  }
  TESSEL_ASSIGN_OR_RETURN(bool pin, defaultPinning());
  TESSEL_ASSIGN_OR_RETURN(Schedule schedule, defaultSchedule());
  TESSEL_ASSIGN_OR_RETURN(std::chrono::microseconds spin, defaultSpin());

  struct Entry {
    unsigned threads;
    bool pin;
    Schedule schedule;
    std::chrono::microseconds spin;
    std::weak_ptr<ThreadPool> pool;
  };
  static std::mutex mutex;
  static std::vector<Entry> pools;
  std::lock_guard<std::mutex> lock(mutex);
  pools.erase(
      std::remove_if(pools.begin(), pools.end(), [](const Entry &e) { return e.pool.expired(); }),
      pools.end());
  for (const Entry &e : pools)
    if (e.threads == threads && e.pin == pin && e.schedule == schedule && e.spin == spin)
      if (std::shared_ptr<ThreadPool> pool = e.pool.lock())
        return pool;
  auto pool = pin ? std::make_shared<ThreadPool>(threads, hostCpuTopology(), schedule, spin)
                  : std::make_shared<ThreadPool>(threads, schedule, spin);
  pools.push_back(Entry{threads, pin, schedule, spin, pool});
  return pool;
}

} // namespace tessel::rt::hal::cpu
