// A persistent pool of worker threads running parallel-for loops over
// workgroups; the calling thread takes part in every loop.
#pragma once

#include "tessel/runtime/status.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace tessel::rt::hal::cpu {

/// Parses a TESSEL_CPU_THREADS value: a positive decimal integer (at most
/// 1024). nullptr or "" means "not set" and yields std::nullopt.
StatusOr<std::optional<unsigned>> parseThreadCount(const char *value);

/// Thread count from TESSEL_CPU_THREADS, else hardware_concurrency (at least
/// 1). An invalid variable is an error naming it.
StatusOr<unsigned> defaultThreadCount();

class ThreadPool {
public:
  /// Starts `threads - 1` workers; the caller of parallelFor is the last one.
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Threads that run a loop, the caller included.
  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

  /// Calls body(i) exactly once for every i in [0, count) and returns when
  /// all calls are done. Runs inline when count <= 1, the pool has one
  /// thread, or when called from inside a loop body (no nested parallelism).
  /// Concurrent callers are serialized.
  void parallelFor(uint64_t count, const std::function<void(uint64_t)> &body);

private:
  void workerLoop();
  // Takes indices from the shared counter until it runs past the end.
  void runItems();

  std::vector<std::thread> workers_;
  std::mutex callMutex_; // one loop at a time

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  uint64_t generation_ = 0; // bumped for every loop handed to the workers
  unsigned busyWorkers_ = 0;
  bool stopping_ = false;

  const std::function<void(uint64_t)> *body_ = nullptr;
  uint64_t count_ = 0;
  std::atomic<uint64_t> next_{0};
};

} // namespace tessel::rt::hal::cpu
