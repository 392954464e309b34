// Tests of the cpu topology: physical cores from fake sysfs trees (SMT
// pairs, two packages, dies, missing or damaged files), the default thread
// count and the CPUs workers are pinned to.
#include "hal/cpu/cpu_topology.h"

#include <gtest/gtest.h>

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

using namespace tessel::rt::hal::cpu;
namespace fs = std::filesystem;

namespace {

// A temporary sysfs root (…/cpu) holding cpuN/topology/ files.
class FakeSysfs {
public:
  FakeSysfs() {
    std::string pattern = (fs::temp_directory_path() / "tessel-sysfs-XXXXXX").string();
    root_ = ::mkdtemp(pattern.data()) ? pattern : "";
  }
  ~FakeSysfs() {
    std::error_code ec;
    if (!root_.empty())
      fs::remove_all(root_, ec);
  }
  const std::string &root() const { return root_; }

  // Writes cpuN/topology/{physical_package_id,core_id[,die_id]}; die < 0:
  // no die_id file.
  void cpu(int n, long package, long core, long die = -1) {
    write(n, "physical_package_id", std::to_string(package));
    write(n, "core_id", std::to_string(core));
    if (die >= 0)
      write(n, "die_id", std::to_string(die));
  }
  void write(int n, const std::string &file, const std::string &text) {
    fs::path dir = fs::path(root_) / ("cpu" + std::to_string(n)) / "topology";
    fs::create_directories(dir);
    std::ofstream(dir / file) << text << "\n";
  }
  void remove(int n, const std::string &file) {
    fs::remove(fs::path(root_) / ("cpu" + std::to_string(n)) / "topology" / file);
  }

private:
  std::string root_;
};

} // namespace

TEST(CpuTopologyTest, SmtPairsCountOnceAndKeepTheFirstSibling) {
  // 4 cores, 2 threads each; siblings are n and n + 4 (the usual numbering).
  FakeSysfs sys;
  ASSERT_FALSE(sys.root().empty());
  for (int n = 0; n < 8; ++n)
    sys.cpu(n, 0, n % 4);
  CpuTopology all = readCpuTopology(sys.root(), {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_TRUE(all.fromSysfs);
  EXPECT_EQ(all.physicalCores(), 4u);
  EXPECT_EQ(all.coreCpus, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(defaultThreadCountFor(all), 4u);

  // An affinity mask with only some siblings, unsorted and with a duplicate:
  // core 0 via cpu 4, core 1 via cpu 1 (its first sibling in the mask).
  CpuTopology part = readCpuTopology(sys.root(), {7, 5, 4, 1, 6, 5});
  EXPECT_EQ(part.cpus, (std::vector<int>{1, 4, 5, 6, 7}));
  EXPECT_EQ(part.coreCpus, (std::vector<int>{1, 4, 6, 7}));
  EXPECT_EQ(part.physicalCores(), 4u);
  // cpu 5 shares core 1 with cpu 1 (core index 0 here).
  EXPECT_EQ(part.coreOf, (std::vector<unsigned>{0, 1, 0, 2, 3}));

  // Adjacent numbering (siblings 2k and 2k + 1).
  FakeSysfs adjacent;
  for (int n = 0; n < 8; ++n)
    adjacent.cpu(n, 0, n / 2);
  EXPECT_EQ(readCpuTopology(adjacent.root(), {0, 1, 2, 3, 4, 5, 6, 7}).coreCpus,
            (std::vector<int>{0, 2, 4, 6}));
}

TEST(CpuTopologyTest, TwoPackagesWithTheSameCoreIds) {
  // core_id restarts in each package: (package, core) identifies a core.
  FakeSysfs sys;
  for (int n = 0; n < 8; ++n)
    sys.cpu(n, n / 4, n % 2); // 2 packages x 2 cores x 2 threads
  CpuTopology t = readCpuTopology(sys.root(), {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_TRUE(t.fromSysfs);
  EXPECT_EQ(t.coreCpus, (std::vector<int>{0, 1, 4, 5}));
  EXPECT_EQ(t.coreOf, (std::vector<unsigned>{0, 1, 0, 1, 2, 3, 2, 3}));

  // Dies of one package may repeat core ids too.
  FakeSysfs dies;
  for (int n = 0; n < 4; ++n)
    dies.cpu(n, 0, 0, n / 2); // 2 dies x 1 core x 2 threads
  EXPECT_EQ(readCpuTopology(dies.root(), {0, 1, 2, 3}).coreCpus, (std::vector<int>{0, 2}));

  // Some platforms report a package id of -1.
  FakeSysfs unknownPackage;
  for (int n = 0; n < 4; ++n)
    unknownPackage.cpu(n, -1, n);
  EXPECT_EQ(readCpuTopology(unknownPackage.root(), {0, 1, 2, 3}).physicalCores(), 4u);
}

TEST(CpuTopologyTest, MissingOrDamagedFilesFallBackToLogicalCpus) {
  FakeSysfs sys;
  for (int n = 0; n < 4; ++n)
    sys.cpu(n, 0, n / 2);
  ASSERT_EQ(readCpuTopology(sys.root(), {0, 1, 2, 3}).physicalCores(), 2u);

  // A CPU of the mask without a topology directory.
  CpuTopology missingCpu = readCpuTopology(sys.root(), {0, 1, 2, 3, 9});
  EXPECT_FALSE(missingCpu.fromSysfs);
  EXPECT_EQ(missingCpu.coreCpus, (std::vector<int>{0, 1, 2, 3, 9}));
  EXPECT_EQ(missingCpu.coreOf, (std::vector<unsigned>{0, 1, 2, 3, 4}));
  EXPECT_EQ(defaultThreadCountFor(missingCpu), 5u);

  sys.remove(2, "core_id");
  CpuTopology missingFile = readCpuTopology(sys.root(), {0, 1, 2, 3});
  EXPECT_FALSE(missingFile.fromSysfs);
  EXPECT_EQ(missingFile.physicalCores(), 4u);

  sys.write(2, "core_id", "banana");
  EXPECT_FALSE(readCpuTopology(sys.root(), {0, 1, 2, 3}).fromSysfs);

  // No sysfs at all.
  CpuTopology none = readCpuTopology(sys.root() + "/does-not-exist", {0, 1});
  EXPECT_FALSE(none.fromSysfs);
  EXPECT_EQ(none.physicalCores(), 2u);

  // No CPUs (the affinity mask could not be read): hardware_concurrency.
  CpuTopology empty = readCpuTopology(sys.root(), {});
  EXPECT_EQ(empty.physicalCores(), 0u);
  unsigned hw = std::thread::hardware_concurrency();
  EXPECT_EQ(defaultThreadCountFor(empty), hw ? hw : 1u);
}

TEST(CpuTopologyTest, WorkersGoToTheCoresAfterTheFirst) {
  FakeSysfs sys;
  for (int n = 0; n < 8; ++n)
    sys.cpu(n, 0, n % 4);
  CpuTopology t = readCpuTopology(sys.root(), {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(workerCpusFor(t, 4, true), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(workerCpusFor(t, 2, true), (std::vector<int>{1}));
  EXPECT_TRUE(workerCpusFor(t, 4, false).empty()) << "TESSEL_CPU_PIN=0";
  EXPECT_TRUE(workerCpusFor(t, 5, true).empty()) << "more threads than cores";
  EXPECT_TRUE(workerCpusFor(t, 1, true).empty()) << "no workers";

  // Without sysfs the logical CPUs may be siblings: no pinning.
  CpuTopology flat = readCpuTopology(sys.root() + "/none", {0, 1, 2, 3});
  EXPECT_TRUE(workerCpusFor(flat, 2, true).empty());
}

TEST(CpuTopologyTest, ThisHost) {
  std::vector<int> cpus = affinityCpus();
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  EXPECT_EQ(cpus.size(), static_cast<size_t>(CPU_COUNT(&set)));
  for (int cpu : cpus)
    EXPECT_TRUE(CPU_ISSET(cpu, &set)) << cpu;

  CpuTopology t = hostCpuTopology();
  EXPECT_EQ(t.cpus, cpus);
  EXPECT_GE(t.physicalCores(), 1u);
  EXPECT_LE(t.physicalCores(), cpus.size());
  ASSERT_EQ(t.coreOf.size(), cpus.size());
  for (size_t i = 0; i < cpus.size(); ++i)
    EXPECT_LT(t.coreOf[i], t.physicalCores());
  for (int cpu : t.coreCpus)
    EXPECT_TRUE(CPU_ISSET(cpu, &set)) << cpu;
  std::cout << "[ host     ] " << cpus.size() << " logical CPUs in the affinity mask, "
            << t.physicalCores() << " physical cores" << (t.fromSysfs ? "" : " (no sysfs)") << "\n";
}
