// Thread pool implementation: workers sleep on a condition variable and wake
// for each loop; work is handed out one index at a time from an atomic
// counter, which balances uneven workgroups without any tuning.
#include "hal/cpu/thread_pool.h"

#include <cstdlib>
#include <string>

namespace tessel::rt::hal::cpu {

namespace {
// Set while a thread runs a loop body, so that nested loops run inline
// instead of deadlocking on callMutex_.
thread_local bool tInsideLoop = false;
constexpr unsigned kMaxThreads = 1024;
} // namespace

StatusOr<std::optional<unsigned>> parseThreadCount(const char *value) {
  if (!value || !*value)
    return std::optional<unsigned>();
  std::string s(value);
  bool digits = s.size() <= 6 && s.find_first_not_of("0123456789") == std::string::npos;
  unsigned long n = digits ? std::stoul(s) : 0;
  if (!digits || n == 0 || n > kMaxThreads)
    return invalidArgument("TESSEL_CPU_THREADS='" + s +
                           "' is not a positive integer between 1 and " +
                           std::to_string(kMaxThreads));
  return std::optional<unsigned>(static_cast<unsigned>(n));
}

StatusOr<unsigned> defaultThreadCount() {
  TESSEL_ASSIGN_OR_RETURN(std::optional<unsigned> fromEnv,
                          parseThreadCount(std::getenv("TESSEL_CPU_THREADS")));
  if (fromEnv)
    return *fromEnv;
  unsigned hw = std::thread::hardware_concurrency();
  return hw ? hw : 1u;
}

ThreadPool::ThreadPool(unsigned threads) {
  for (unsigned i = 1; i < threads; ++i)
    workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : workers_)
    t.join();
}

void ThreadPool::runItems() {
  bool wasInside = tInsideLoop;
  tInsideLoop = true;
  for (uint64_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < count_;)
    (*body_)(i);
  tInsideLoop = wasInside;
}

void ThreadPool::workerLoop() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_)
      return;
    seen = generation_;
    lock.unlock();
    runItems();
    lock.lock();
    if (--busyWorkers_ == 0)
      done_.notify_one();
  }
}

void ThreadPool::parallelFor(uint64_t count, const std::function<void(uint64_t)> &body) {
  if (count <= 1 || workers_.empty() || tInsideLoop) {
    for (uint64_t i = 0; i < count; ++i)
      body(i);
    return;
  }
  std::lock_guard<std::mutex> call(callMutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    body_ = &body;
    count_ = count;
    next_.store(0, std::memory_order_relaxed);
    busyWorkers_ = static_cast<unsigned>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  runItems();
  // Workers that woke late find the counter exhausted and finish at once;
  // waiting for all of them keeps body_/count_ stable until nobody reads them.
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return busyWorkers_ == 0; });
}

} // namespace tessel::rt::hal::cpu
