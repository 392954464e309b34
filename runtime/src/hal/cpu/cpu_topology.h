// Which logical CPUs this process may run on, grouped into physical cores:
// the cpu driver's default thread count (one thread per core) and the CPUs
// its workers are pinned to. Linux reads the affinity mask and sysfs; a
// sysfs root is a parameter so that tests can describe any machine with a
// fake tree.
#pragma once

#include <string>
#include <vector>

namespace tessel::rt::hal::cpu {

/// Logical CPUs grouped into physical cores.
struct CpuTopology {
  /// The logical CPUs considered (the affinity mask), ascending.
  std::vector<int> cpus;
  /// One logical CPU per physical core: the lowest-numbered CPU of `cpus`
  /// on that core (its first SMT sibling in the mask), ascending.
  std::vector<int> coreCpus;
  /// For each entry of `cpus`, the index in `coreCpus` of its core.
  std::vector<unsigned> coreOf;
  /// True when the cores come from sysfs; false when a topology file was
  /// missing or unreadable and every logical CPU counts as one core.
  bool fromSysfs = false;

  unsigned physicalCores() const { return static_cast<unsigned>(coreCpus.size()); }
};

/// Groups `cpus` into physical cores by the (physical_package_id, die_id,
/// core_id) in `sysfsRoot`/cpuN/topology/ (die_id is optional: 0 where the
/// file does not exist). `sysfsRoot` is normally "/sys/devices/system/cpu".
/// If any other file is missing or not a number, the grouping falls back to
/// one core per logical CPU (fromSysfs false). Duplicates in `cpus` are
/// ignored.
CpuTopology readCpuTopology(const std::string &sysfsRoot, std::vector<int> cpus);

/// The logical CPUs in this process's affinity mask (sched_getaffinity),
/// ascending; empty if it cannot be read.
std::vector<int> affinityCpus();

/// This process's topology: readCpuTopology of the real sysfs over
/// affinityCpus(). The mask is read on every call (it can change); sysfs
/// only when the mask differs from the last call's.
CpuTopology hostCpuTopology();

/// The cpu driver's default thread count: the physical cores of `topology`,
/// else (no CPUs) std::thread::hardware_concurrency(), at least 1.
unsigned defaultThreadCountFor(const CpuTopology &topology);

/// The CPUs to pin a pool's workers to: with pinning on and `threads` at
/// most the physical cores, the cores after the first (workers 1..threads-1
/// on coreCpus[1..threads-1]; the caller, thread 0, stays unpinned and the
/// first core is left for it); otherwise empty (no pinning).
std::vector<int> workerCpusFor(const CpuTopology &topology, unsigned threads, bool pin);

} // namespace tessel::rt::hal::cpu
