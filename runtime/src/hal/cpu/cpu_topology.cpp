// CPU topology from sched_getaffinity and sysfs. Any failure degrades to a
// simpler answer (one core per logical CPU, then hardware_concurrency), never
// to an error: the topology only tunes the thread count and pinning.
#include "hal/cpu/cpu_topology.h"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

namespace tessel::rt::hal::cpu {

namespace {

// Reads a file holding one decimal number (and a newline). Some platforms
// write -1 (e.g. physical_package_id on some arm64 machines): still an id.
bool readNumber(const std::string &path, long *value) {
  std::ifstream in(path);
  long v = 0;
  if (!(in >> v))
    return false;
  *value = v;
  return true;
}

} // namespace

CpuTopology readCpuTopology(const std::string &sysfsRoot, std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  CpuTopology t;
  t.cpus = cpus;
  // (package, die, core) -> first CPU; cpus are visited in ascending order.
  using Key = std::tuple<long, long, long>;
  std::map<Key, int> cores;
  std::vector<Key> keys;
  for (int cpu : cpus) {
    std::string dir = sysfsRoot + "/cpu" + std::to_string(cpu) + "/topology/";
    long package = 0, die = 0, core = 0;
    if (!readNumber(dir + "physical_package_id", &package) || !readNumber(dir + "core_id", &core)) {
      t.coreCpus = cpus;
      for (size_t i = 0; i < cpus.size(); ++i)
        t.coreOf.push_back(static_cast<unsigned>(i));
      return t;
    }
    // Optional: kernels before 5.7 have no die_id; core_id may repeat across
    // the dies of one package.
    if (!readNumber(dir + "die_id", &die))
      die = 0;
    keys.emplace_back(package, die, core);
    cores.emplace(keys.back(), cpu);
  }
  for (const auto &entry : cores)
    t.coreCpus.push_back(entry.second);
  std::sort(t.coreCpus.begin(), t.coreCpus.end());
  for (const Key &key : keys) {
    int first = cores[key];
    auto at = std::lower_bound(t.coreCpus.begin(), t.coreCpus.end(), first);
    t.coreOf.push_back(static_cast<unsigned>(at - t.coreCpus.begin()));
  }
  t.fromSysfs = true;
  return t;
}

std::vector<int> affinityCpus() {
  // The mask may be larger than cpu_set_t's 1024 bits: grow until the
  // kernel's fits.
  for (int n = CPU_SETSIZE; n <= (1 << 20); n *= 2) {
    cpu_set_t *set = CPU_ALLOC(n);
    if (!set)
      return {};
    size_t bytes = CPU_ALLOC_SIZE(n);
    CPU_ZERO_S(bytes, set);
    if (sched_getaffinity(0, bytes, set) != 0) {
      CPU_FREE(set);
      if (errno == EINVAL)
        continue;
      return {};
    }
    std::vector<int> cpus;
    for (int cpu = 0; cpu < n; ++cpu)
      if (CPU_ISSET_S(cpu, bytes, set))
        cpus.push_back(cpu);
    CPU_FREE(set);
    return cpus;
  }
  return {};
}

CpuTopology hostCpuTopology() {
  // sysfs costs a few file reads per CPU (milliseconds on a large machine)
  // and does not change: read it again only when the mask has changed.
  static std::mutex mutex;
  static CpuTopology cached;
  static bool valid = false;
  std::vector<int> cpus = affinityCpus();
  std::lock_guard<std::mutex> lock(mutex);
  if (!valid || cached.cpus != cpus) {
    cached = readCpuTopology("/sys/devices/system/cpu", std::move(cpus));
    valid = true;
  }
  return cached;
}

unsigned defaultThreadCountFor(const CpuTopology &topology) {
  if (unsigned cores = topology.physicalCores())
    return cores;
  unsigned hw = std::thread::hardware_concurrency();
  return hw ? hw : 1u;
}

std::vector<int> workerCpusFor(const CpuTopology &topology, unsigned threads, bool pin) {
  // Without sysfs, logical CPUs may be SMT siblings: pinning two workers to
  // one core would be worse than letting the scheduler spread them.
  if (!pin || !topology.fromSysfs || threads < 2 || threads > topology.physicalCores())
    return {};
  return std::vector<int>(topology.coreCpus.begin() + 1, topology.coreCpus.begin() + threads);
}

} // namespace tessel::rt::hal::cpu
