// Tests of the cpu HAL driver: buffers, command buffers, executable loading
// (arch/format/feature selection, ELF checks, symbols, libm) and device
// creation by name.
#include "hal/cpu/cpu_device.h"
#include "hal/cpu/cpu_executable.h"
#include "hal/cpu/cpu_features.h"
#include "tessel/runtime/device.h"
#include "test_module_builder.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace tessel::rt;
using namespace tessel::rt::hal;

namespace {

ExecutableSpec kernelSpec(const std::vector<uint8_t> &library, std::vector<ExportInfo> exports) {
  ExecutableSpec spec;
  spec.name = "test";
  spec.target = "cpu";
  spec.exports = std::move(exports);
  spec.binaries.push_back(
      BinaryInfo{"elf-shared-object", cpu::hostArch(), {}, library.data(), library.size()});
  return spec;
}

ExportInfo exportOf(const std::string &name, uint32_t wgX, uint32_t bindings) {
  ExportInfo e;
  e.name = name;
  e.workgroupCount = {wgX, 1, 1};
  e.bindingCount = bindings;
  return e;
}

template <typename T> std::shared_ptr<Buffer> upload(hal::Device &d, const std::vector<T> &v) {
  auto b = d.allocate(v.size() * sizeof(T));
  EXPECT_TRUE(b.ok());
  EXPECT_TRUE((*b)->write(0, v.data(), v.size() * sizeof(T)).ok());
  return *b;
}

std::string errorOf(const ExecutableSpec &spec) {
  auto exe = cpu::CpuExecutable::load(spec);
  return exe.ok() ? "" : exe.status().message();
}

} // namespace

TEST(CpuBufferTest, AlignedAndRangeChecked) {
  cpu::CpuDevice device(2);
  for (size_t size : {0, 1, 63, 65, 1000}) {
    auto b = device.allocate(size);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ((*b)->size(), size);
    auto p = (*b)->map();
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(*p) % kBufferAlignment, 0u);
  }
  auto b = *device.allocate(16);
  uint8_t data[16] = {};
  EXPECT_TRUE(b->write(8, data, 8).ok());
  Status s = b->write(9, data, 8);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("outside a buffer of 16 bytes"), std::string::npos) << s.message();
  EXPECT_FALSE(b->read(17, data, 0).ok());
  EXPECT_FALSE(device.allocate(SIZE_MAX).ok());
}

TEST(CpuDeviceTest, MemoryInfoIsTheHostMemoryWithinTheLimit) {
  uint64_t free = 0, total = 0;
  cpu::CpuDevice device(3);
  ASSERT_TRUE(device.memoryInfo(&free, &total).ok());
  EXPECT_EQ(total, uint64_t(::sysconf(_SC_PHYS_PAGES)) * uint64_t(::sysconf(_SC_PAGESIZE)));
  EXPECT_GT(free, 0u);
  EXPECT_LE(free, total);
  // The cpu device has no CUDA attributes of its own (cudart answers them).
  EXPECT_FALSE(device.cudaAttribute(1).has_value());
  EXPECT_EQ(device.threads(), 3u);

  // With a limit: the limit, less what the device's buffers hold.
  cpu::CpuDevice limited(1, 1 << 20);
  ASSERT_TRUE(limited.memoryInfo(&free, &total).ok());
  EXPECT_EQ(total, 1u << 20);
  EXPECT_EQ(free, 1u << 20);
  {
    auto b = limited.allocate(300000);
    ASSERT_TRUE(b.ok());
    ASSERT_TRUE(limited.memoryInfo(&free, &total).ok());
    EXPECT_EQ(total, 1u << 20);
    EXPECT_EQ(free, (1u << 20) - 300000);
  }
  ASSERT_TRUE(limited.memoryInfo(&free, &total).ok());
  EXPECT_EQ(free, 1u << 20) << "freed with the buffer";
}

TEST(CpuCommandBufferTest, FillAndCopyRunInOrder) {
  cpu::CpuDevice device(2);
  auto a = *device.allocate(100), b = *device.allocate(100);
  auto cb = device.createCommandBuffer();
  ASSERT_TRUE(cb->fill(*a, 0, 100, 7).ok());
  ASSERT_TRUE(cb->fill(*a, 10, 5, 9).ok());
  ASSERT_TRUE(cb->copy(*a, 0, *b, 50, 50).ok());
  EXPECT_FALSE(cb->fill(*a, 90, 20, 1).ok());
  EXPECT_FALSE(cb->copy(*a, 0, *b, 60, 50).ok());
  ASSERT_TRUE(device.submitAndWait(*cb).ok());
  uint8_t out[100];
  ASSERT_TRUE(b->read(0, out, 100).ok());
  EXPECT_EQ(out[50], 7);
  EXPECT_EQ(out[60], 9);
  EXPECT_EQ(out[64], 9);
  EXPECT_EQ(out[65], 7);
}

TEST(CpuExecutableTest, DispatchesEveryWorkgroup) {
  std::vector<uint8_t> lib = testutil::testKernelLibrary();
  for (unsigned threads : {1u, 3u}) {
    cpu::CpuDevice device(threads);
    const int64_t n = 1001;
    uint32_t wg = testutil::workgroupsFor(n);
    auto exe = device.prepareExecutable(kernelSpec(
        lib, {exportOf("add_f32", wg, 4), exportOf("exp_f32", wg, 3), exportOf("wg_ids_i32", 1, 2)}));
    ASSERT_TRUE(exe.ok()) << exe.status().toString();

    std::mt19937 rng(threads);
    std::uniform_real_distribution<float> dist(-3, 3);
    std::vector<float> a(n), b(n);
    for (int64_t i = 0; i < n; ++i)
      a[i] = dist(rng), b[i] = dist(rng);
    auto count = upload(device, std::vector<int64_t>{n});
    auto ab = upload(device, a), bb = upload(device, b);
    auto sum = *device.allocate(n * 4), ex = *device.allocate(n * 4);
    // x and y share a factor so that a wrong id decomposition cannot
    // accidentally be a permutation.
    std::array<uint32_t, 3> wg3d{4, 6, 3};
    auto dims = upload(device, std::vector<int64_t>{4, 6, 3});
    auto ids = upload(device, std::vector<int32_t>(72, 1000000));

    auto cb = device.createCommandBuffer();
    ASSERT_TRUE(cb->dispatch(**exe, 0, {wg, 1, 1}, {count.get(), ab.get(), bb.get(), sum.get()}, {}).ok());
    // Chained: exp of the sum written by the previous dispatch.
    ASSERT_TRUE(cb->dispatch(**exe, 1, {wg, 1, 1}, {count.get(), sum.get(), ex.get()}, {}).ok());
    ASSERT_TRUE(cb->dispatch(**exe, 2, wg3d, {dims.get(), ids.get()}, {}).ok());
    Status bad = cb->dispatch(**exe, 0, {wg, 1, 1}, {count.get()}, {});
    EXPECT_NE(bad.message().find("with 1 bindings, expected 4"), std::string::npos) << bad.message();
    ASSERT_TRUE(device.submitAndWait(*cb).ok());

    std::vector<float> s(n), e(n);
    ASSERT_TRUE(sum->read(0, s.data(), n * 4).ok());
    ASSERT_TRUE(ex->read(0, e.data(), n * 4).ok());
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(s[i], a[i] + b[i]) << i;
      ASSERT_NEAR(e[i], std::exp(a[i] + b[i]), 1e-5 * std::exp(a[i] + b[i])) << i;
    }
    std::vector<int32_t> id(72);
    ASSERT_TRUE(ids->read(0, id.data(), 72 * 4).ok());
    for (int z = 0; z < 3; ++z)
      for (int y = 0; y < 6; ++y)
        for (int x = 0; x < 4; ++x)
          EXPECT_EQ(id[(z * 6 + y) * 4 + x], 1000000 + 1 + x + 100 * y + 10000 * z);
  }
}

// Dispatch scratch: entry bindingCount of the table, 64-byte aligned, as
// large as the export asks, its zeroed prefix zero at every dispatch (two
// dispatches of one command buffer, submitted twice: the count is the
// workgroups of one dispatch each time, not a sum); the buffer goes back to
// the device's cache with the command buffer and is reused.
TEST(CpuExecutableTest, DispatchScratchIsZeroedPerDispatch) {
  std::vector<uint8_t> lib = testutil::testKernelLibrary();
  for (unsigned threads : {1u, 4u}) {
    cpu::CpuDevice device(threads);
    ExportInfo small = exportOf("count_in_scratch", 37, 1);
    small.scratchBytes = 100;
    small.scratchZeroedBytes = 8;
    ExportInfo large = small;
    large.workgroupCount = {203, 1, 1};
    large.scratchBytes = 1 << 20;
    auto exe = device.prepareExecutable(kernelSpec(lib, {small, large}));
    ASSERT_TRUE(exe.ok()) << exe.status().toString();
    auto first = upload(device, std::vector<int64_t>{37, 100, -1, -1});
    auto second = upload(device, std::vector<int64_t>{203, 1 << 20, -1, -1});
    {
      auto cb = device.createCommandBuffer();
      ASSERT_TRUE(cb->dispatch(**exe, 0, {37, 1, 1}, {first.get()}, {}).ok());
      ASSERT_TRUE(cb->dispatch(**exe, 1, {203, 1, 1}, {second.get()}, {}).ok());
      for (int run = 0; run < 2; ++run) {
        ASSERT_TRUE(device.submitAndWait(*cb).ok());
        std::vector<int64_t> a(4), b(4);
        ASSERT_TRUE(first->read(0, a.data(), 32).ok());
        ASSERT_TRUE(second->read(0, b.data(), 32).ok());
        EXPECT_EQ(a[2], 37) << "run " << run;
        EXPECT_EQ(b[2], 203) << "run " << run;
        EXPECT_EQ(a[3], 1);
        EXPECT_EQ(b[3], 1);
      }
      EXPECT_LT(device.scratch()->freeBytes(), size_t(1) << 20) << "in use but cached";
    }
    EXPECT_GE(device.scratch()->freeBytes(), size_t(1) << 20);
    size_t cached = device.scratch()->freeBytes();
    auto again = device.createCommandBuffer();
    ASSERT_TRUE(again->dispatch(**exe, 1, {203, 1, 1}, {second.get()}, {}).ok());
    EXPECT_EQ(device.scratch()->freeBytes(), cached - (size_t(1) << 20)) << "not reused";
  }
}

// TESSEL_CPU_EXECUTABLE_DIR keeps each loaded image as a file (for
// profilers); a directory that cannot be written is an error naming it.
TEST(CpuExecutableTest, KeepsImagesForProfilers) {
  std::vector<uint8_t> lib = testutil::testKernelLibrary();
  char dirTemplate[] = "/tmp/tessel-keep-XXXXXX";
  ASSERT_NE(::mkdtemp(dirTemplate), nullptr);
  std::string dir = dirTemplate;
  ASSERT_EQ(::setenv("TESSEL_CPU_EXECUTABLE_DIR", dir.c_str(), 1), 0);
  {
    auto exe = cpu::CpuExecutable::load(kernelSpec(lib, {exportOf("add_f32", 1, 4)}));
    ASSERT_TRUE(exe.ok()) << exe.status().toString();
    std::string kept = dir + "/tessel-cpu-" + std::to_string(::getpid()) + "-0.so";
    FILE *f = std::fopen(kept.c_str(), "rb");
    ASSERT_NE(f, nullptr) << kept;
    std::vector<uint8_t> bytes(lib.size() + 1);
    size_t n = std::fread(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
    EXPECT_EQ(n, lib.size());
    EXPECT_TRUE(std::equal(lib.begin(), lib.end(), bytes.begin()));
    std::remove(kept.c_str());
  }
  ASSERT_EQ(::setenv("TESSEL_CPU_EXECUTABLE_DIR", (dir + "/missing").c_str(), 1), 0);
  std::string error = errorOf(kernelSpec(lib, {exportOf("add_f32", 1, 4)}));
  EXPECT_NE(error.find("TESSEL_CPU_EXECUTABLE_DIR: cannot create"), std::string::npos) << error;
  EXPECT_NE(error.find("/missing/"), std::string::npos) << error;
  ::unsetenv("TESSEL_CPU_EXECUTABLE_DIR");
  ::rmdir(dir.c_str());
}

TEST(CpuExecutableTest, SelectionErrors) {
  std::vector<uint8_t> lib = testutil::testKernelLibrary();
  ExecutableSpec spec = kernelSpec(lib, {exportOf("add_f32", 1, 4)});

  ExecutableSpec missing = kernelSpec(lib, {exportOf("add_f32", 1, 4), exportOf("nope", 1, 1)});
  EXPECT_NE(errorOf(missing).find("no symbol 'nope'"), std::string::npos) << errorOf(missing);

  ExecutableSpec arch = spec;
  arch.binaries[0].arch = "riscv64";
  EXPECT_NE(errorOf(arch).find("available archs: riscv64"), std::string::npos) << errorOf(arch);

  ExecutableSpec format = spec;
  format.binaries[0].format = "ptx";
  EXPECT_NE(errorOf(format).find("binary formats: ptx"), std::string::npos) << errorOf(format);

  // The first binary for another arch is skipped, the second one is used.
  ExecutableSpec second = spec;
  second.binaries.insert(second.binaries.begin(), arch.binaries[0]);
  EXPECT_EQ(errorOf(second), "");

  ExecutableSpec unknownFeature = spec;
  unknownFeature.binaries[0].features = {"+some-future-feature"};
  EXPECT_EQ(errorOf(unknownFeature), "");

  std::vector<uint8_t> truncated(lib.begin(), lib.begin() + lib.size() / 2);
  ExecutableSpec cut = spec;
  cut.binaries[0].data = truncated.data();
  cut.binaries[0].size = truncated.size();
  EXPECT_NE(errorOf(cut).find("truncated"), std::string::npos) << errorOf(cut);

  std::vector<uint8_t> garbage(4096, 0x5a);
  ExecutableSpec notElf = spec;
  notElf.binaries[0].data = garbage.data();
  notElf.binaries[0].size = garbage.size();
  EXPECT_NE(errorOf(notElf).find("not an ELF file"), std::string::npos) << errorOf(notElf);
}

#if defined(__x86_64__)
TEST(CpuExecutableTest, RefusesMissingCpuFeature) {
  EXPECT_TRUE(cpu::checkHostFeatures({"sse2", "+sse4.2"}).ok() ||
              !__builtin_cpu_supports("sse4.2"));
  // AMD-only and Xeon Phi-era features: no host has all of them.
  std::string lacking;
  if (!__builtin_cpu_supports("xop"))
    lacking = "xop";
  else if (!__builtin_cpu_supports("avx512vbmi"))
    lacking = "avx512vbmi";
  if (lacking.empty())
    GTEST_SKIP() << "this host has every feature the test could ask for";
  std::vector<uint8_t> lib = testutil::testKernelLibrary();
  ExecutableSpec spec = kernelSpec(lib, {exportOf("add_f32", 1, 4)});
  spec.binaries[0].features = {"avx2", lacking};
  std::string err = errorOf(spec);
  EXPECT_NE(err.find("lacks: " + lacking), std::string::npos) << err;
}
#endif

TEST(DeviceTest, CreateByName) {
  auto cpu = createDevice("cpu");
  ASSERT_TRUE(cpu.ok()) << cpu.status().toString();
  EXPECT_EQ((*cpu)->name(), "cpu");
  EXPECT_NE((*cpu)->description().find("cpu ("), std::string::npos);

  // "best" is cuda where a CUDA device is usable, else cpu.
  auto cuda = createDevice("cuda");
  auto best = createDevice();
  ASSERT_TRUE(best.ok());
  EXPECT_EQ((*best)->name(), cuda.ok() ? "cuda" : "cpu");
  if (!cuda.ok()) {
    EXPECT_EQ(cuda.status().message().rfind("cuda: no CUDA driver/device available (", 0), 0u)
        << cuda.status().message();
  }

  DeviceOptions bad;
  bad.cudaCommandBuffer = "bogus";
  auto badCuda = createDevice("cuda", bad);
  ASSERT_FALSE(badCuda.ok());
  EXPECT_NE(badCuda.status().message().find("unknown command buffer mode 'bogus'"),
            std::string::npos)
      << badCuda.status().message();

  auto unknown = createDevice("tpu");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("unknown device 'tpu' (known: cuda, cpu)"),
            std::string::npos)
      << unknown.status().message();
}

TEST(DeviceTest, CpuDevicesSharePoolsByThreadCount) {
  // Devices created with the defaults share one pool (no oversubscription);
  // DeviceOptions::cpuThreads picks another size, shared by its askers.
  auto poolOf = [](const std::shared_ptr<tessel::rt::Device> &d) {
    return static_cast<cpu::CpuDevice &>(d->hal()).pool().get();
  };
  auto a = createDevice("cpu"), b = createDevice("cpu");
  ASSERT_TRUE(a.ok() && b.ok()) << a.status().toString();
  EXPECT_EQ(poolOf(*a), poolOf(*b));

  DeviceOptions three;
  three.cpuThreads = 3;
  auto c = createDevice("cpu", three), d = createDevice("cpu", three);
  ASSERT_TRUE(c.ok() && d.ok()) << c.status().toString();
  EXPECT_EQ(poolOf(*c), poolOf(*d));
  EXPECT_EQ(poolOf(*c)->size(), 3u);
  EXPECT_EQ((*c)->description().rfind("cpu (3 threads", 0), 0u) << (*c)->description();

  DeviceOptions same;
  same.cpuThreads = poolOf(*a)->size();
  auto e = createDevice("cpu", same);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(poolOf(*e), poolOf(*a)) << "an explicit count equal to the default shares its pool";

  DeviceOptions tooMany;
  tooMany.cpuThreads = 1025;
  auto bad = createDevice("cpu", tooMany);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("DeviceOptions::cpuThreads is 1025 (at most 1024)"),
            std::string::npos)
      << bad.status().message();

  ::setenv("TESSEL_CPU_PIN", "maybe", 1);
  auto badPin = createDevice("cpu");
  ::unsetenv("TESSEL_CPU_PIN");
  ASSERT_FALSE(badPin.ok());
  EXPECT_NE(badPin.status().message().find("TESSEL_CPU_PIN='maybe'"), std::string::npos)
      << badPin.status().message();
}
