// A persistent pool of worker threads running parallel-for loops over
// workgroups; the calling thread takes part in every loop. Devices share
// pools (sharedThreadPool), so that several cpu devices in one process do
// not oversubscribe the cores.
#pragma once

#include "hal/cpu/cpu_topology.h"
#include "tessel/runtime/status.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

namespace tessel::rt::hal::cpu {

/// The most threads a pool may have.
constexpr unsigned kMaxThreads = 1024;

/// Parses a TESSEL_CPU_THREADS value: a positive decimal integer (at most
/// kMaxThreads). nullptr or "" means "not set" and yields std::nullopt.
StatusOr<std::optional<unsigned>> parseThreadCount(const char *value);

/// Parses a TESSEL_CPU_PIN value: "1" (pin workers to cores) or "0" (do
/// not). nullptr or "" means "not set" and yields std::nullopt.
StatusOr<std::optional<bool>> parsePinning(const char *value);

/// Thread count from TESSEL_CPU_THREADS, else the physical cores in this
/// process's affinity mask (cpu_topology.h), at least 1. An invalid variable
/// is an error naming it.
StatusOr<unsigned> defaultThreadCount();

/// Whether pools pin their workers: TESSEL_CPU_PIN, else true. An invalid
/// variable is an error naming it.
StatusOr<bool> defaultPinning();

/// How a loop's items are handed to its threads.
enum class Schedule {
  /// Each of the loop's n threads owns a contiguous range of count / n
  /// items (thread t the t-th range, so repeated loops of one size give
  /// item i to the same thread and core) and claims chunks of it from a
  /// counter of its own; a thread that has finished its range takes
  /// chunks from the others' (work stealing). Uniform items never cross
  /// ranges; uneven ones are balanced by the stealing. The default.
  kRanges,
  /// One counter for all threads, from which they claim chunks in turn
  /// (the schedule before issue 16: every claim is a shared cache line).
  kDynamic,
};

/// Parses a TESSEL_CPU_SCHEDULE value: "ranges" or "dynamic". nullptr or ""
/// means "not set" and yields std::nullopt.
StatusOr<std::optional<Schedule>> parseSchedule(const char *value);

/// TESSEL_CPU_SCHEDULE, else Schedule::kRanges. An invalid variable is an
/// error naming it.
StatusOr<Schedule> defaultSchedule();

/// How long an idle worker spins (and a caller waiting for workers) before
/// it sleeps, unless TESSEL_CPU_SPIN_US says otherwise.
constexpr std::chrono::microseconds kDefaultSpin{50};

/// The most TESSEL_CPU_SPIN_US may ask for (one second).
constexpr unsigned kMaxSpinMicroseconds = 1000000;

/// Parses a TESSEL_CPU_SPIN_US value: microseconds, a decimal integer from 0
/// (sleep at once) to kMaxSpinMicroseconds. nullptr or "" means "not set"
/// and yields std::nullopt.
StatusOr<std::optional<std::chrono::microseconds>> parseSpin(const char *value);

/// TESSEL_CPU_SPIN_US, else kDefaultSpin. An invalid variable is an error
/// naming it.
StatusOr<std::chrono::microseconds> defaultSpin();

class ThreadPool {
public:
  /// A loop body: called as body(context, item, threadIndex). threadIndex is
  /// in [0, size()); the caller of parallelFor runs as thread 0. While a
  /// body runs with index t, no other thread runs a body of this pool with
  /// index t, so t can select per-thread scratch memory.
  using Body = void (*)(void *context, uint64_t item, unsigned threadIndex);

  /// Starts `threads - 1` workers, unpinned (fewer if the system refuses
  /// to create more threads; size() tells).
  /// `spin`: how long a worker with nothing to do spins before it sleeps
  /// (and the caller before it sleeps waiting for workers); 0 sleeps at once.
  explicit ThreadPool(unsigned threads, Schedule schedule = Schedule::kRanges,
                      std::chrono::microseconds spin = kDefaultSpin);
  /// Starts `threads - 1` workers and pins worker i (thread index i >= 1)
  /// to CPU workerCpusFor(topology, threads, true)[i - 1] where that exists
  /// (cpu_topology.h). Pinning is best effort: a CPU the process may not use
  /// leaves the worker unpinned. The caller is not pinned and may run on a
  /// worker's core; a loop that starts there first moves that worker to a
  /// core no worker uses (at most once per millisecond), so the two do not
  /// take turns on one core.
  ThreadPool(unsigned threads, const CpuTopology &topology,
             Schedule schedule = Schedule::kRanges,
             std::chrono::microseconds spin = kDefaultSpin);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Threads that run a loop, the caller included.
  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
  /// Workers pinned to one CPU each.
  unsigned pinnedWorkers() const { return pinned_; }
  Schedule schedule() const { return schedule_; }
  /// How long idle threads spin before sleeping (workers sleep at once when
  /// there are more threads than CPUs).
  std::chrono::microseconds spin() const { return spin_; }

  /// Calls body(context, i, threadIndex) exactly once for every i in
  /// [0, count) and returns when all calls are done. Only min(count,
  /// size()) - 1 workers are asked to help; the caller runs items too.
  /// Threads claim consecutive items in chunks of count / (8 size()) (at
  /// least 1): one shared counter update per item made loops of many
  /// sub-microsecond items (transpiled CUDA blocks) scale badly. Which
  /// thread starts where is the pool's Schedule.
  /// Concurrent callers are serialized. Called from inside a body of this
  /// pool, the loop runs inline on that thread with the body's thread index
  /// (no nested parallelism, no deadlock). Called from inside a body of
  /// another pool, it is an ordinary (serialized) call of this one: two pools
  /// whose bodies call each other's loops at the same time can deadlock, and
  /// Tessel never nests loops across pools (kernels do not call back).
  void parallelFor(uint64_t count, Body body, void *context);

  /// parallelFor over a callable: f(item, threadIndex) or f(item).
  template <typename F> void parallelFor(uint64_t count, F &&f) {
    using Fn = std::remove_reference_t<F>;
    parallelFor(
        count,
        [](void *context, uint64_t item, unsigned threadIndex) {
          Fn &fn = *static_cast<Fn *>(context);
          if constexpr (std::is_invocable_v<Fn &, uint64_t, unsigned>)
            fn(item, threadIndex);
          else
            fn(item);
        },
        const_cast<void *>(static_cast<const void *>(std::addressof(f))));
  }

private:
  void workerLoop(unsigned index);
  // Waits (spinning, then sleeping) until generation_ differs from `seen`.
  uint64_t waitForLoop(uint64_t seen);
  // Takes one of the current loop's helper tickets, if any is left.
  bool takeTicket();
  // Claims and runs items until every range of the loop is used up: its
  // own range first (index modulo the ranges), then the following ones.
  void runItems(unsigned index);
  // Moves the worker pinned to the caller's core, if any, to a free core.
  void keepCallerCoreFree();

  std::vector<std::thread> workers_;
  unsigned pinned_ = 0;
  // Pinning state, used under callMutex_ (empty when nothing is pinned):
  // logical CPU -> core index (-1: not in the mask), core index -> the CPU
  // a worker there is pinned to, core index -> thread index of the worker
  // pinned there (0: none).
  std::vector<int> cpuCore_;
  std::vector<int> coreCpu_;
  std::vector<unsigned> coreWorker_;
  std::chrono::steady_clock::time_point lastMove_{};
  std::chrono::microseconds spin_;
  bool workersSpin_ = true; // off when there are more threads than CPUs
  std::mutex callMutex_; // one loop at a time

  Schedule schedule_;

  // The current loop. Written by the caller only while no worker can read
  // it (no ticket left and no worker active), published by tickets_.
  Body body_ = nullptr;
  void *context_ = nullptr;
  uint64_t chunk_ = 1;  // items claimed at a time
  unsigned ranges_ = 1; // ranges in use: 1 (kDynamic) or the loop's threads
  // The items [next, end) of one range not yet claimed; a cache line each,
  // so that a thread claiming from its own range touches no other's line.
  struct alignas(64) Range {
    std::atomic<uint64_t> next{0};
    uint64_t end = 0;
  };
  std::unique_ptr<Range[]> range_; // size() of them

  // Bumped for every loop handed to the workers (and to stop them).
  alignas(64) std::atomic<uint64_t> generation_{0};
  // Workers still wanted for the current loop; closed (0) when the caller
  // has run out of items.
  alignas(64) std::atomic<int64_t> tickets_{0};
  // Workers between seeing a new generation and finishing its items: the
  // caller returns only when this is 0 (after closing the tickets).
  std::atomic<unsigned> active_{0};
  std::atomic<bool> callerWaiting_{false};
  std::atomic<unsigned> sleepers_{0};
  std::atomic<bool> stopping_{false};

  // For sleeping only: workers on wake_ after spinning, the caller on done_.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
};

/// A pool of `threads` threads (0: defaultThreadCount()), pinned to this
/// process's cores (hostCpuTopology()) unless defaultPinning() says not to,
/// with defaultSchedule() and defaultSpin(). Pools are shared: every caller
/// asking for the same thread count, pinning, schedule and spin while such
/// a pool is alive gets that pool, so all cpu devices created with the
/// defaults share one pool. A pool lives as long as its last holder. An
/// invalid TESSEL_CPU_THREADS, TESSEL_CPU_PIN, TESSEL_CPU_SCHEDULE or
/// TESSEL_CPU_SPIN_US, or a count above kMaxThreads, is an error.
StatusOr<std::shared_ptr<ThreadPool>> sharedThreadPool(unsigned threads = 0);

} // namespace tessel::rt::hal::cpu
