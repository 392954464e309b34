// HAL conformance tests, written once and run against every registered
// driver configuration (cpu, cuda_stream, cuda_graph): buffers, fill, copy,
// update, dispatch, many workgroups, command buffer reuse, long dispatch
// chains, ordering between commands, recording errors and fault reporting.
// Outputs are poisoned (0xFF) before every dispatch and inputs are random,
// so unwritten or misplaced results fail.
#include "cts_test_util.h"

#include <cmath>
#include <cstdint>

namespace tessel::rt::cts {
namespace {

constexpr uint8_t kPoison = 0xFF;

// The standard kernel set; ordinals are positions in this list.
enum Kernel : uint32_t { kAdd, kScale, kExp, kWgIds, kStep };
const std::vector<std::string> kKernels = {"add_f32", "scale_f32", "exp_f32", "wg_ids_i32",
                                           "step_u32"};

uint32_t workgroupsFor(int64_t n) {
  return static_cast<uint32_t>((n + kKernelWorkgroupSize - 1) / kKernelWorkgroupSize);
}

uint32_t step(uint32_t x) { return x * 3u + 1u; }

class HalCts : public DriverTest {
protected:
  StatusOr<std::shared_ptr<hal::Buffer>> allocate(size_t size) { return device().allocate(size); }

  template <typename T> StatusOr<std::shared_ptr<hal::Buffer>> upload(const std::vector<T> &v) {
    TESSEL_ASSIGN_OR_RETURN(auto b, device().allocate(v.size() * sizeof(T)));
    TESSEL_RETURN_IF_ERROR(b->write(0, v.data(), v.size() * sizeof(T)));
    return b;
  }

  template <typename T> StatusOr<std::vector<T>> download(const hal::Buffer &b, size_t count) {
    std::vector<T> v(count);
    TESSEL_RETURN_IF_ERROR(b.read(0, v.data(), count * sizeof(T)));
    return v;
  }

  /// The standard kernels, prepared once per driver.
  StatusOr<std::shared_ptr<hal::Executable>> kernels() {
    static std::map<std::string, std::shared_ptr<hal::Executable>> cache;
    auto it = cache.find(driver().name);
    if (it != cache.end())
      return it->second;
    TESSEL_ASSIGN_OR_RETURN(auto exe, device().prepareExecutable(kernelSpec(driver(), kKernels)));
    cache[driver().name] = exe;
    return exe;
  }

  Status submit(hal::CommandBuffer &cb) { return device().submitAndWait(cb); }
};

TEST_P(HalCts, BufferSizesAndRoundTrip) {
  std::mt19937 r = rng();
  for (size_t size : {size_t(1), size_t(3), size_t(255), size_t(256), size_t(4097),
                      size_t(1 << 20) + 3}) {
    CTS_ASSERT_OK_AND_ASSIGN(auto b, allocate(size));
    EXPECT_EQ(b->size(), size);
    std::vector<uint8_t> data = randomBytes(r, size);
    CTS_ASSERT_OK(b->write(0, data.data(), size));
    std::vector<uint8_t> back(size);
    CTS_ASSERT_OK(b->read(0, back.data(), size));
    EXPECT_EQ(firstMismatch(back, data), -1) << "size " << size;
    // A partial write at an odd offset leaves the rest alone.
    if (size > 10) {
      std::vector<uint8_t> patch = randomBytes(r, size / 3);
      CTS_ASSERT_OK(b->write(7, patch.data(), patch.size()));
      std::copy(patch.begin(), patch.end(), data.begin() + 7);
      CTS_ASSERT_OK(b->read(0, back.data(), size));
      EXPECT_EQ(firstMismatch(back, data), -1) << "size " << size;
      std::vector<uint8_t> middle(5);
      CTS_ASSERT_OK(b->read(size - 6, middle.data(), 5));
      EXPECT_EQ(firstMismatch(middle, std::vector<uint8_t>(data.end() - 6, data.end() - 1)), -1);
    }
  }
}

TEST_P(HalCts, ZeroSizedBuffer) {
  CTS_ASSERT_OK_AND_ASSIGN(auto b, allocate(0));
  EXPECT_EQ(b->size(), 0u);
  uint8_t byte = 0;
  CTS_ASSERT_OK(b->write(0, &byte, 0));
  CTS_ASSERT_OK(b->read(0, &byte, 0));
  EXPECT_FALSE(b->read(0, &byte, 1).ok());
}

TEST_P(HalCts, BufferRangeChecks) {
  CTS_ASSERT_OK_AND_ASSIGN(auto b, allocate(16));
  uint8_t data[32] = {};
  CTS_ASSERT_OK(b->write(8, data, 8));
  Status s = b->write(9, data, 8);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("outside a buffer of 16 bytes"), std::string::npos) << s.message();
  EXPECT_FALSE(b->read(17, data, 0).ok());
  EXPECT_FALSE(b->read(0, data, 17).ok());
  EXPECT_FALSE(b->write(SIZE_MAX, data, 2).ok());
}

// Runs step_u32 over 1000 random values on `dev` and checks the result:
// after an allocation failure the device must still run work.
void expectDispatchWorks(hal::Device &dev, hal::Executable &exe, std::mt19937 &r) {
  const int64_t n = 1000;
  std::vector<uint32_t> init(n);
  for (auto &v : init)
    v = r();
  auto count = dev.allocate(sizeof(int64_t));
  auto acc = dev.allocate(n * sizeof(uint32_t));
  CTS_ASSERT_OK(count);
  CTS_ASSERT_OK(acc);
  CTS_ASSERT_OK((*count)->write(0, &n, sizeof(n)));
  CTS_ASSERT_OK((*acc)->write(0, init.data(), n * sizeof(uint32_t)));
  auto cb = dev.createCommandBuffer();
  CTS_ASSERT_OK(cb->dispatch(exe, kStep, {workgroupsFor(n), 1, 1}, {count->get(), acc->get()}, {}));
  CTS_ASSERT_OK(dev.submitAndWait(*cb));
  std::vector<uint32_t> got(n), want = init;
  for (auto &v : want)
    v = step(v);
  CTS_ASSERT_OK((*acc)->read(0, got.data(), n * sizeof(uint32_t)));
  EXPECT_EQ(firstMismatch(got, want), -1);
}

// Checks an allocation failure: kResourceExhausted, and the message names
// the size and the device.
void expectOutOfMemory(const CtsDriver &driver, const Status &s, uint64_t size) {
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.toString();
  EXPECT_NE(s.message().find("cannot allocate " + std::to_string(size) + " bytes") ,
            std::string::npos) << s.message();
  EXPECT_NE(s.message().find(driver.target), std::string::npos) << s.message();
  if (driver.target == "cuda") {
    EXPECT_NE(s.message().find("cuda device "), std::string::npos) << s.message();
  }
}

TEST_P(HalCts, OutOfMemoryIsAClearError) {
  // 2^60 bytes: more than any device or host has, refused without
  // touching real memory.
  const uint64_t huge = uint64_t(1) << 60;
  auto b = allocate(huge);
  ASSERT_FALSE(b.ok());
  expectOutOfMemory(driver(), b.status(), huge);
  EXPECT_NE(b.status().message().find("1 EiB"), std::string::npos) << b.status().message();
  std::printf("2^60 bytes: %s\n", b.status().message().c_str());
  // The device is still usable afterwards: an allocation and a dispatch.
  CTS_ASSERT_OK(allocate(64));
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, kernels());
  std::mt19937 r = rng();
  expectDispatchWorks(device(), *exe, r);
}

TEST_P(HalCts, MemoryLimitIsEnforced) {
  // A device of its own with a 64 MiB cap (DeviceOptions::memoryLimit, or
  // TESSEL_DEVICE_MEMORY_LIMIT): allocate 4 MiB chunks until one fails.
  const uint64_t limit = 64 << 20, chunk = 4 << 20;
  DeviceOptions options;
  options.memoryLimit = limit;
  CTS_ASSERT_OK_AND_ASSIGN(auto dev, driver().createWith(options));
  EXPECT_NE(dev->description().find("memory limit 64 MiB"), std::string::npos)
      << dev->description();
  std::vector<std::shared_ptr<hal::Buffer>> held;
  Status failure;
  for (int i = 0; i < 100 && failure.ok(); ++i) {
    auto b = dev->allocate(chunk);
    if (b.ok())
      held.push_back(*b);
    else
      failure = b.status();
  }
  EXPECT_EQ(held.size(), limit / chunk);
  ASSERT_FALSE(failure.ok());
  expectOutOfMemory(driver(), failure, chunk);
  EXPECT_NE(failure.message().find("memory limit of 67108864 bytes (64 MiB) would be exceeded "
                                   "(64 MiB in use"),
            std::string::npos) << failure.message();
  std::printf("limit: %s\n", failure.message().c_str());
  // Freeing makes room again; work still runs.
  held.pop_back();
  CTS_ASSERT_OK(dev->allocate(chunk));
  held.clear();
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, dev->prepareExecutable(kernelSpec(driver(), kKernels)));
  std::mt19937 r = rng();
  expectDispatchWorks(*dev, *exe, r);
  CTS_ASSERT_OK_AND_ASSIGN(auto all, dev->allocate(limit - 64 * 1024));
}

TEST_P(HalCts, ExhaustDeviceMemory) {
  CTS_REQUIRE("exhaust_memory");
  // Real exhaustion: 1 GiB chunks until the driver refuses one (at most
  // 1 TiB), then free them and check that the device still allocates and
  // runs a dispatch.
  const uint64_t chunk = uint64_t(1) << 30;
  std::vector<std::shared_ptr<hal::Buffer>> held;
  Status failure;
  for (int i = 0; i < 1024 && failure.ok(); ++i) {
    auto b = allocate(chunk);
    if (b.ok())
      held.push_back(*b);
    else
      failure = b.status();
  }
  ASSERT_FALSE(failure.ok()) << "1 TiB allocated without a failure";
  EXPECT_GT(held.size(), 0u) << failure.message();
  expectOutOfMemory(driver(), failure, chunk);
  std::printf("failed after %zu GiB: %s\n", held.size(), failure.message().c_str());
  held.clear();
  CTS_ASSERT_OK(allocate(chunk));
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, kernels());
  std::mt19937 r = rng();
  expectDispatchWorks(device(), *exe, r);
}

TEST_P(HalCts, MapGivesAlignedHostPointer) {
  CTS_REQUIRE("host_mapping");
  for (size_t size : {0, 1, 63, 65, 1000}) {
    CTS_ASSERT_OK_AND_ASSIGN(auto b, allocate(size));
    CTS_ASSERT_OK_AND_ASSIGN(void *p, b->map());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % hal::kBufferAlignment, 0u);
  }
}

TEST_P(HalCts, FillPatternsAndOddRanges) {
  struct Case {
    size_t size, offset, length;
    uint8_t value;
  };
  const Case cases[] = {{1, 0, 1, 0xFF},          {7, 3, 4, 0x00},        {1000, 1, 997, 0xA5},
                        {4096, 0, 4096, 0x5A},    {4099, 4095, 3, 0x01},  {256, 17, 0, 0x77},
                        {(1 << 20) + 13, 12345, 777777, 0xC3}};
  std::mt19937 r = rng();
  for (const Case &c : cases) {
    SCOPED_TRACE("fill of " + std::to_string(c.length) + " bytes at " + std::to_string(c.offset) +
                 " in " + std::to_string(c.size));
    std::vector<uint8_t> expected = randomBytes(r, c.size);
    CTS_ASSERT_OK_AND_ASSIGN(auto b, upload(expected));
    auto cb = device().createCommandBuffer();
    CTS_ASSERT_OK(cb->fill(*b, c.offset, c.length, c.value));
    CTS_ASSERT_OK(submit(*cb));
    std::fill(expected.begin() + c.offset, expected.begin() + c.offset + c.length, c.value);
    CTS_ASSERT_OK_AND_ASSIGN(auto got, download<uint8_t>(*b, c.size));
    EXPECT_EQ(firstMismatch(got, expected), -1);
  }
}

TEST_P(HalCts, OverlappingFillsApplyInOrder) {
  std::mt19937 r = rng();
  std::vector<uint8_t> expected = randomBytes(r, 333);
  CTS_ASSERT_OK_AND_ASSIGN(auto b, upload(expected));
  auto cb = device().createCommandBuffer();
  CTS_ASSERT_OK(cb->fill(*b, 10, 300, 0x11));
  CTS_ASSERT_OK(cb->fill(*b, 50, 51, 0x22));
  CTS_ASSERT_OK(cb->fill(*b, 99, 3, 0x33));
  CTS_ASSERT_OK(submit(*cb));
  std::fill(expected.begin() + 10, expected.begin() + 310, 0x11);
  std::fill(expected.begin() + 50, expected.begin() + 101, 0x22);
  std::fill(expected.begin() + 99, expected.begin() + 102, 0x33);
  CTS_ASSERT_OK_AND_ASSIGN(auto got, download<uint8_t>(*b, 333));
  EXPECT_EQ(firstMismatch(got, expected), -1);
}

TEST_P(HalCts, CopyOddRanges) {
  struct Case {
    size_t srcOffset, dstOffset, length;
  };
  const Case cases[] = {{0, 0, 777}, {1, 3, 500}, {999, 0, 1}, {13, 700, 77}, {5, 5, 0}};
  std::mt19937 r = rng();
  for (const Case &c : cases) {
    SCOPED_TRACE("copy of " + std::to_string(c.length) + " bytes " + std::to_string(c.srcOffset) +
                 " -> " + std::to_string(c.dstOffset));
    std::vector<uint8_t> src = randomBytes(r, 1000), dst = randomBytes(r, 777);
    CTS_ASSERT_OK_AND_ASSIGN(auto s, upload(src));
    CTS_ASSERT_OK_AND_ASSIGN(auto d, upload(dst));
    auto cb = device().createCommandBuffer();
    CTS_ASSERT_OK(cb->copy(*s, c.srcOffset, *d, c.dstOffset, c.length));
    CTS_ASSERT_OK(submit(*cb));
    std::copy(src.begin() + c.srcOffset, src.begin() + c.srcOffset + c.length,
              dst.begin() + c.dstOffset);
    CTS_ASSERT_OK_AND_ASSIGN(auto got, download<uint8_t>(*d, 777));
    EXPECT_EQ(firstMismatch(got, dst), -1);
    CTS_ASSERT_OK_AND_ASSIGN(auto srcAfter, download<uint8_t>(*s, 1000));
    EXPECT_EQ(firstMismatch(srcAfter, src), -1) << "the source changed";
  }
}

TEST_P(HalCts, CopyWithinOneBuffer) {
  std::mt19937 r = rng();
  std::vector<uint8_t> data = randomBytes(r, 1001);
  CTS_ASSERT_OK_AND_ASSIGN(auto b, upload(data));
  auto cb = device().createCommandBuffer();
  CTS_ASSERT_OK(cb->copy(*b, 0, *b, 501, 500));
  CTS_ASSERT_OK(submit(*cb));
  std::copy(data.begin(), data.begin() + 500, data.begin() + 501);
  CTS_ASSERT_OK_AND_ASSIGN(auto got, download<uint8_t>(*b, 1001));
  EXPECT_EQ(firstMismatch(got, data), -1);
}

TEST_P(HalCts, UpdateCopiesHostDataAtRecordTime) {
  std::mt19937 r = rng();
  std::vector<uint8_t> expected = randomBytes(r, 1001);
  CTS_ASSERT_OK_AND_ASSIGN(auto b, upload(expected));
  std::vector<uint8_t> host = randomBytes(r, 64), host2 = randomBytes(r, 300);
  auto cb = device().createCommandBuffer();
  CTS_ASSERT_OK(cb->update(host.data() + 5, *b, 3, 11));
  CTS_ASSERT_OK(cb->update(host2.data(), *b, 700, 300));
  CTS_ASSERT_OK(cb->update(host2.data() + 1, *b, 699, 2)); // overlaps the previous one
  CTS_ASSERT_OK(cb->update(host.data(), *b, 1000, 0));
  std::copy(host.begin() + 5, host.begin() + 16, expected.begin() + 3);
  std::copy(host2.begin(), host2.end(), expected.begin() + 700);
  std::copy(host2.begin() + 1, host2.begin() + 3, expected.begin() + 699);
  // Changing the host memory after recording must not matter.
  std::fill(host.begin(), host.end(), 0);
  std::fill(host2.begin(), host2.end(), 0);
  CTS_ASSERT_OK(submit(*cb));
  CTS_ASSERT_OK_AND_ASSIGN(auto got, download<uint8_t>(*b, 1001));
  EXPECT_EQ(firstMismatch(got, expected), -1);
}

TEST_P(HalCts, DispatchElementwise) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, kernels());
  const int64_t n = 1001;
  std::mt19937 r = rng();
  std::uniform_real_distribution<float> dist(-3, 3);
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i)
    a[i] = dist(r), b[i] = dist(r);
  CTS_ASSERT_OK_AND_ASSIGN(auto count, upload(std::vector<int64_t>{n}));
  CTS_ASSERT_OK_AND_ASSIGN(auto ab, upload(a));
  CTS_ASSERT_OK_AND_ASSIGN(auto bb, upload(b));
  CTS_ASSERT_OK_AND_ASSIGN(auto sum, allocate(n * 4));
  CTS_ASSERT_OK_AND_ASSIGN(auto ex, allocate(n * 4));
  uint32_t wg = workgroupsFor(n);
  auto cb = device().createCommandBuffer();
  CTS_ASSERT_OK(cb->fill(*sum, 0, n * 4, kPoison));
  CTS_ASSERT_OK(cb->fill(*ex, 0, n * 4, kPoison));
  CTS_ASSERT_OK(cb->dispatch(*exe, kAdd, {wg, 1, 1}, {count.get(), ab.get(), bb.get(), sum.get()}, {}));
  // Chained: exp of the sum the previous dispatch wrote.
  CTS_ASSERT_OK(cb->dispatch(*exe, kExp, {wg, 1, 1}, {count.get(), sum.get(), ex.get()}, {}));
  CTS_ASSERT_OK(submit(*cb));
  CTS_ASSERT_OK_AND_ASSIGN(auto s, download<float>(*sum, n));
  CTS_ASSERT_OK_AND_ASSIGN(auto e, download<float>(*ex, n));
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(s[i], a[i] + b[i]) << "element " << i;
    float want = std::exp(a[i] + b[i]);
    ASSERT_NEAR(e[i], want, 1e-6f * want) << "element " << i;
  }
}

TEST_P(HalCts, WorkgroupIds3D) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, kernels());
  // x and y share a factor so that a wrong id decomposition cannot
  // accidentally be a permutation; the large shape has 100000 workgroups.
  for (std::array<uint32_t, 3> dims : {std::array<uint32_t, 3>{4, 6, 3},
                                       std::array<uint32_t, 3>{100, 50, 20}}) {
    size_t total = size_t(dims[0]) * dims[1] * dims[2];
    SCOPED_TRACE(std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" +
                 std::to_string(dims[2]) + " workgroups");
    std::mt19937 r = rng();
    std::vector<int32_t> init(total);
    for (auto &v : init)
      v = static_cast<int32_t>(r() % 1000000);
    CTS_ASSERT_OK_AND_ASSIGN(auto dimBuf, upload(std::vector<int64_t>{dims[0], dims[1], dims[2]}));
    CTS_ASSERT_OK_AND_ASSIGN(auto ids, upload(init));
    auto cb = device().createCommandBuffer();
    CTS_ASSERT_OK(cb->dispatch(*exe, kWgIds, dims, {dimBuf.get(), ids.get()}, {}));
    CTS_ASSERT_OK(submit(*cb));
    CTS_ASSERT_OK_AND_ASSIGN(auto got, download<int32_t>(*ids, total));
    std::vector<int32_t> want(total);
    for (uint32_t z = 0; z < dims[2]; ++z)
      for (uint32_t y = 0; y < dims[1]; ++y)
        for (uint32_t x = 0; x < dims[0]; ++x) {
          size_t i = (size_t(z) * dims[1] + y) * dims[0] + x;
          want[i] = init[i] + int32_t(1 + x + 100 * y + 10000 * z);
        }
    long bad = firstMismatch(got, want);
    EXPECT_EQ(bad, -1) << "workgroup element " << bad << ": got " << (bad >= 0 ? got[bad] : 0)
                       << ", want " << (bad >= 0 ? want[bad] : 0);
  }
}

TEST_P(HalCts, ManyWorkgroups) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, kernels());
  const int64_t n = int64_t(kKernelWorkgroupSize) * 100003 - 37;
  const uint32_t wg = workgroupsFor(n);
  ASSERT_EQ(wg, 100003u);
  std::mt19937 r = rng();
  std::uniform_real_distribution<float> dist(-100, 100);
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i)
    a[i] = dist(r), b[i] = dist(r);
  CTS_ASSERT_OK_AND_ASSIGN(auto count, upload(std::vector<int64_t>{n}));
  CTS_ASSERT_OK_AND_ASSIGN(auto ab, upload(a));
  CTS_ASSERT_OK_AND_ASSIGN(auto bb, upload(b));
  // One element more than n, to catch a write past the end.
  CTS_ASSERT_OK_AND_ASSIGN(auto out, allocate((n + 1) * 4));
  auto cb = device().createCommandBuffer();
  CTS_ASSERT_OK(cb->fill(*out, 0, (n + 1) * 4, kPoison));
  CTS_ASSERT_OK(cb->dispatch(*exe, kAdd, {wg, 1, 1}, {count.get(), ab.get(), bb.get(), out.get()}, {}));
  CTS_ASSERT_OK(submit(*cb));
  CTS_ASSERT_OK_AND_ASSIGN(auto got, download<float>(*out, n + 1));
  std::vector<float> want(n + 1);
  for (int64_t i = 0; i < n; ++i)
    want[i] = a[i] + b[i];
  std::memset(&want[n], kPoison, 4);
  long bad = firstMismatch(got, want);
  EXPECT_EQ(bad, -1) << "element " << bad;
}

TEST_P(HalCts, CommandBufferReuse) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, kernels());
  const int64_t n = 517;
  std::mt19937 r = rng();
  std::vector<uint32_t> init(n);
  for (auto &v : init)
    v = r();
  CTS_ASSERT_OK_AND_ASSIGN(auto count, upload(std::vector<int64_t>{n}));
  CTS_ASSERT_OK_AND_ASSIGN(auto acc, upload(init));
  CTS_ASSERT_OK_AND_ASSIGN(auto reset, allocate(n * 4));
  const uint32_t wg = workgroupsFor(n);

  // Without a reset: every submit advances the state by one step.
  auto advance = device().createCommandBuffer();
  CTS_ASSERT_OK(advance->dispatch(*exe, kStep, {wg, 1, 1}, {count.get(), acc.get()}, {}));
  // With a reset (update + two steps): every submit gives the same result.
  auto fresh = device().createCommandBuffer();
  CTS_ASSERT_OK(fresh->fill(*reset, 0, n * 4, kPoison));
  CTS_ASSERT_OK(fresh->update(init.data(), *reset, 0, n * 4));
  CTS_ASSERT_OK(fresh->dispatch(*exe, kStep, {wg, 1, 1}, {count.get(), reset.get()}, {}));
  CTS_ASSERT_OK(fresh->dispatch(*exe, kStep, {wg, 1, 1}, {count.get(), reset.get()}, {}));

  std::vector<uint32_t> state = init, twice(n);
  for (int64_t i = 0; i < n; ++i)
    twice[i] = step(step(init[i]));
  for (int submitIndex = 1; submitIndex <= 5; ++submitIndex) {
    SCOPED_TRACE("submit " + std::to_string(submitIndex));
    CTS_ASSERT_OK(submit(*advance));
    for (auto &v : state)
      v = step(v);
    CTS_ASSERT_OK_AND_ASSIGN(auto got, download<uint32_t>(*acc, n));
    EXPECT_EQ(firstMismatch(got, state), -1);
    // Host writes between submits are seen by the next submit.
    CTS_ASSERT_OK(reset->write(0, std::vector<uint32_t>(n, 7).data(), n * 4));
    CTS_ASSERT_OK(submit(*fresh));
    CTS_ASSERT_OK_AND_ASSIGN(auto gotFresh, download<uint32_t>(*reset, n));
    EXPECT_EQ(firstMismatch(gotFresh, twice), -1);
  }
}

TEST_P(HalCts, RecordingAfterSubmitIsIncluded) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, kernels());
  const int64_t n = 99;
  std::mt19937 r = rng();
  std::vector<uint32_t> init(n);
  for (auto &v : init)
    v = r();
  CTS_ASSERT_OK_AND_ASSIGN(auto count, upload(std::vector<int64_t>{n}));
  CTS_ASSERT_OK_AND_ASSIGN(auto acc, upload(init));
  auto cb = device().createCommandBuffer();
  CTS_ASSERT_OK(cb->dispatch(*exe, kStep, {2, 1, 1}, {count.get(), acc.get()}, {}));
  CTS_ASSERT_OK(submit(*cb));
  CTS_ASSERT_OK(cb->dispatch(*exe, kStep, {2, 1, 1}, {count.get(), acc.get()}, {}));
  CTS_ASSERT_OK(submit(*cb)); // both dispatches: 3 steps in all
  CTS_ASSERT_OK_AND_ASSIGN(auto got, download<uint32_t>(*acc, n));
  std::vector<uint32_t> want(n);
  for (int64_t i = 0; i < n; ++i)
    want[i] = step(step(step(init[i])));
  EXPECT_EQ(firstMismatch(got, want), -1);
}

TEST_P(HalCts, ThousandChainedDispatches) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, kernels());
  const int64_t n = 999;
  const int chain = 1000;
  std::mt19937 r = rng();
  std::vector<uint32_t> init(n);
  for (auto &v : init)
    v = r();
  CTS_ASSERT_OK_AND_ASSIGN(auto count, upload(std::vector<int64_t>{n}));
  CTS_ASSERT_OK_AND_ASSIGN(auto acc, upload(init));
  auto cb = device().createCommandBuffer();
  for (int i = 0; i < chain; ++i)
    CTS_ASSERT_OK(cb->dispatch(*exe, kStep, {workgroupsFor(n), 1, 1}, {count.get(), acc.get()}, {}));
  CTS_ASSERT_OK(submit(*cb));
  std::vector<uint32_t> want = init;
  for (auto &v : want)
    for (int i = 0; i < chain; ++i)
      v = step(v);
  CTS_ASSERT_OK_AND_ASSIGN(auto got, download<uint32_t>(*acc, n));
  long bad = firstMismatch(got, want);
  EXPECT_EQ(bad, -1) << "element " << bad;
}

TEST_P(HalCts, OrderingFillUpdateDispatchCopy) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, kernels());
  const int64_t n = 777;
  const float factor = 2.5f;
  std::mt19937 r = rng();
  std::uniform_real_distribution<float> dist(-10, 10);
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i)
    a[i] = dist(r), b[i] = dist(r);
  CTS_ASSERT_OK_AND_ASSIGN(auto count, upload(std::vector<int64_t>{n}));
  CTS_ASSERT_OK_AND_ASSIGN(auto factorBuf, upload(std::vector<float>{factor}));
  CTS_ASSERT_OK_AND_ASSIGN(auto ab, allocate(n * 4));
  CTS_ASSERT_OK_AND_ASSIGN(auto bb, upload(b));
  CTS_ASSERT_OK_AND_ASSIGN(auto out, allocate(n * 4));
  CTS_ASSERT_OK_AND_ASSIGN(auto c, allocate(n * 4));
  CTS_ASSERT_OK_AND_ASSIGN(auto d, allocate(n * 4));
  const uint32_t wg = workgroupsFor(n);
  auto cb = device().createCommandBuffer();
  // Every step reads what the step before it wrote.
  CTS_ASSERT_OK(cb->fill(*ab, 0, n * 4, kPoison));
  CTS_ASSERT_OK(cb->fill(*out, 0, n * 4, kPoison));
  CTS_ASSERT_OK(cb->fill(*c, 0, n * 4, kPoison));
  CTS_ASSERT_OK(cb->fill(*d, 0, n * 4, kPoison));
  CTS_ASSERT_OK(cb->update(a.data(), *ab, 0, n * 4));
  CTS_ASSERT_OK(cb->dispatch(*exe, kAdd, {wg, 1, 1}, {count.get(), ab.get(), bb.get(), out.get()}, {}));
  CTS_ASSERT_OK(cb->copy(*out, 0, *c, 0, n * 4));
  CTS_ASSERT_OK(cb->fill(*out, 0, n * 4, 0x00));
  CTS_ASSERT_OK(cb->dispatch(*exe, kScale, {wg, 1, 1},
                             {count.get(), factorBuf.get(), c.get(), d.get()}, {}));
  CTS_ASSERT_OK(cb->fill(*out, 4, 8, kPoison));
  CTS_ASSERT_OK(cb->dispatch(*exe, kAdd, {wg, 1, 1}, {count.get(), d.get(), c.get(), out.get()}, {}));
  CTS_ASSERT_OK(submit(*cb));

  CTS_ASSERT_OK_AND_ASSIGN(auto gotC, download<float>(*c, n));
  CTS_ASSERT_OK_AND_ASSIGN(auto gotD, download<float>(*d, n));
  CTS_ASSERT_OK_AND_ASSIGN(auto gotOut, download<float>(*out, n));
  std::vector<float> wantC(n), wantD(n), wantOut(n);
  for (int64_t i = 0; i < n; ++i) {
    wantC[i] = a[i] + b[i];
    wantD[i] = wantC[i] * factor;
    wantOut[i] = wantD[i] + wantC[i];
  }
  EXPECT_EQ(firstMismatch(gotC, wantC), -1);
  EXPECT_EQ(firstMismatch(gotD, wantD), -1);
  EXPECT_EQ(firstMismatch(gotOut, wantOut), -1);
}

TEST_P(HalCts, EmptyCommandBuffer) {
  auto cb = device().createCommandBuffer();
  CTS_ASSERT_OK(submit(*cb));
  CTS_ASSERT_OK(submit(*cb));
}

TEST_P(HalCts, RecordingErrorsNameTheProblem) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, kernels());
  CTS_ASSERT_OK_AND_ASSIGN(auto b, allocate(100));
  CTS_ASSERT_OK_AND_ASSIGN(auto small, allocate(10));
  auto cb = device().createCommandBuffer();
  Status s = cb->dispatch(*exe, kAdd, {1, 1, 1}, {b.get()}, {});
  EXPECT_NE(s.message().find("'add_f32' with 1 bindings, expected 4"), std::string::npos)
      << s.message();
  s = cb->dispatch(*exe, 99, {1, 1, 1}, {}, {});
  EXPECT_NE(s.message().find("export 99"), std::string::npos) << s.message();
  s = cb->fill(*b, 90, 20, 1);
  EXPECT_NE(s.message().find("outside a buffer of 100 bytes"), std::string::npos) << s.message();
  s = cb->copy(*b, 0, *small, 5, 6);
  EXPECT_NE(s.message().find("copy destination"), std::string::npos) << s.message();
  s = cb->copy(*small, 8, *b, 0, 3);
  EXPECT_NE(s.message().find("copy source"), std::string::npos) << s.message();
  uint8_t host[8] = {};
  s = cb->update(host, *small, 4, 8);
  EXPECT_NE(s.message().find("update"), std::string::npos) << s.message();
  // Nothing was recorded, so submitting is harmless.
  CTS_ASSERT_OK(submit(*cb));
}

// ---- CUDA C kernels (abi CudaC): CommandBuffer::launch ----------------------

enum CudaCKernel : uint32_t { kAxpb, kLaunchInfo, kNotCudaC };
const std::vector<std::string> kCudaCKernels = {"axpb_cuda_c", "launch_info_cuda_c", "add_f32"};

// A parameter value: the bytes of `v`.
template <typename T> std::vector<uint8_t> param(const T &v) {
  std::vector<uint8_t> out(sizeof(T));
  std::memcpy(out.data(), &v, sizeof(T));
  return out;
}

class HalCtsLaunch : public HalCts {
protected:
  StatusOr<std::shared_ptr<hal::Executable>> cudaCKernels() {
    static std::map<std::string, std::shared_ptr<hal::Executable>> cache;
    auto it = cache.find(driver().name);
    if (it != cache.end())
      return it->second;
    TESSEL_ASSIGN_OR_RETURN(auto exe,
                            device().prepareExecutable(kernelSpec(driver(), kCudaCKernels)));
    cache[driver().name] = exe;
    return exe;
  }

  /// axpb_cuda_c's parameters: out, in (device addresses), a, b, n.
  static std::vector<std::vector<uint8_t>> axpbParams(const hal::Buffer &out,
                                                      const hal::Buffer &in, int a, float b,
                                                      long long n) {
    return {param(out.deviceAddress()), param(in.deviceAddress()), param(a), param(b), param(n)};
  }
};

TEST_P(HalCtsLaunch, AxpbOverOddGridsAndBlocks) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, cudaCKernels());
  struct Case {
    hal::LaunchConfig config;
    long long short_; // threads of the grid that have no element
  };
  const Case cases[] = {
      {{{7, 1, 1}, {33, 1, 1}, 0}, 5},      {{{3, 5, 2}, {5, 3, 7}, 0}, 0},
      {{{1, 1, 1}, {1, 1, 1}, 0}, 0},       {{{1001, 1, 1}, {1, 1, 1}, 0}, 1},
      {{{2, 3, 1}, {1024, 1, 1}, 0}, 1023}, {{{5, 1, 3}, {1, 1, 64}, 0}, 77},
      {{{1, 65535, 1}, {3, 1, 1}, 0}, 2},
  };
  std::mt19937 r = rng();
  std::uniform_int_distribution<int> dist(-1000, 1000);
  for (const Case &c : cases) {
    SCOPED_TRACE(hal::describeLaunch(c.config));
    const hal::LaunchConfig &l = c.config;
    long long threads = (long long)l.grid[0] * l.grid[1] * l.grid[2] * l.block[0] * l.block[1] *
                        l.block[2];
    long long n = threads - c.short_;
    // Integer-valued inputs: a * in + b is exact however the kernel rounds
    // (a GPU contracts it into an fma).
    std::vector<float> in(n);
    for (float &v : in)
      v = static_cast<float>(dist(r));
    const int a = dist(r);
    const float b = 0.25f;
    CTS_ASSERT_OK_AND_ASSIGN(auto inBuf, upload(in));
    // One element more than n, to catch a write past the end.
    CTS_ASSERT_OK_AND_ASSIGN(auto outBuf, allocate((n + 1) * 4));
    auto cb = device().createCommandBuffer();
    CTS_ASSERT_OK(cb->fill(*outBuf, 0, (n + 1) * 4, kPoison));
    CTS_ASSERT_OK(cb->launch(*exe, kAxpb, l, axpbParams(*outBuf, *inBuf, a, b, n)));
    CTS_ASSERT_OK(submit(*cb));
    CTS_ASSERT_OK_AND_ASSIGN(auto got, download<float>(*outBuf, n + 1));
    std::vector<float> want(n + 1);
    for (long long i = 0; i < n; ++i)
      want[i] = static_cast<float>(a) * in[i] + b;
    std::memset(&want[n], kPoison, 4);
    long bad = firstMismatch(got, want);
    EXPECT_EQ(bad, -1) << "element " << bad << " of " << n << ": got "
                       << (bad >= 0 ? got[bad] : 0) << ", want " << (bad >= 0 ? want[bad] : 0);
  }
}

TEST_P(HalCtsLaunch, EveryBlockSeesItsLaunch) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, cudaCKernels());
  // 100 KiB of dynamic shared memory needs the opt-in attribute on cuda.
  for (hal::LaunchConfig l : {hal::LaunchConfig{{3, 2, 2}, {4, 3, 2}, 100},
                              hal::LaunchConfig{{5, 1, 1}, {32, 1, 1}, 0},
                              hal::LaunchConfig{{2, 1, 3}, {256, 1, 1}, 100 * 1024}}) {
    SCOPED_TRACE(hal::describeLaunch(l));
    const size_t blocks = size_t(l.grid[0]) * l.grid[1] * l.grid[2];
    const char tag = 5;
    CTS_ASSERT_OK_AND_ASSIGN(auto out, allocate(blocks * 7 * 8));
    auto cb = device().createCommandBuffer();
    CTS_ASSERT_OK(cb->fill(*out, 0, blocks * 7 * 8, kPoison));
    CTS_ASSERT_OK(cb->launch(*exe, kLaunchInfo, l, {param(out->deviceAddress()), param(tag)}));
    CTS_ASSERT_OK(submit(*cb));
    CTS_ASSERT_OK_AND_ASSIGN(auto got, download<int64_t>(*out, blocks * 7));
    std::vector<int64_t> want;
    for (size_t b = 0; b < blocks; ++b)
      want.insert(want.end(), {l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1],
                               l.block[2], int64_t(l.dynamicSharedBytes) + 1000 * tag});
    long bad = firstMismatch(got, want);
    EXPECT_EQ(bad, -1) << "block " << bad / 7 << " field " << bad % 7 << ": got "
                       << (bad >= 0 ? got[bad] : 0) << ", want " << (bad >= 0 ? want[bad] : 0);
  }
}

TEST_P(HalCtsLaunch, ValuesAreCopiedAtRecordTimeAndMixWithOtherCommands) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, cudaCKernels());
  CTS_ASSERT_OK_AND_ASSIGN(auto standard, kernels());
  const long long n = 333;
  std::mt19937 r = rng();
  std::vector<float> in(n);
  for (float &v : in)
    v = static_cast<float>(r() % 2000) - 1000.0f;
  CTS_ASSERT_OK_AND_ASSIGN(auto inBuf, upload(in));
  CTS_ASSERT_OK_AND_ASSIGN(auto mid, allocate(n * 4));
  CTS_ASSERT_OK_AND_ASSIGN(auto out, allocate(n * 4));
  CTS_ASSERT_OK_AND_ASSIGN(auto count, upload(std::vector<int64_t>{n}));
  CTS_ASSERT_OK_AND_ASSIGN(auto sum, allocate(n * 4));
  hal::LaunchConfig l{{11, 1, 1}, {32, 1, 1}, 0};
  auto cb = device().createCommandBuffer();
  CTS_ASSERT_OK(cb->fill(*mid, 0, n * 4, kPoison));
  CTS_ASSERT_OK(cb->fill(*out, 0, n * 4, kPoison));
  auto params = axpbParams(*mid, *inBuf, 3, 1.0f, n);
  CTS_ASSERT_OK(cb->launch(*exe, kAxpb, l, params));
  // The recorded values, not these, must be used.
  params[2] = param(100);
  // mid = 3 in + 1; out = -2 mid + 0.5; sum = mid + out (a dispatch).
  CTS_ASSERT_OK(cb->launch(*exe, kAxpb, l, axpbParams(*out, *mid, -2, 0.5f, n)));
  CTS_ASSERT_OK(cb->dispatch(*standard, kAdd, {workgroupsFor(n), 1, 1},
                             {count.get(), mid.get(), out.get(), sum.get()}, {}));
  std::vector<float> wantMid(n), wantOut(n), wantSum(n);
  for (long long i = 0; i < n; ++i) {
    wantMid[i] = 3.0f * in[i] + 1.0f;
    wantOut[i] = -2.0f * wantMid[i] + 0.5f;
    wantSum[i] = wantMid[i] + wantOut[i];
  }
  for (int run = 0; run < 3; ++run) {
    SCOPED_TRACE("submit " + std::to_string(run));
    CTS_ASSERT_OK(submit(*cb));
    CTS_ASSERT_OK_AND_ASSIGN(auto gotMid, download<float>(*mid, n));
    CTS_ASSERT_OK_AND_ASSIGN(auto gotOut, download<float>(*out, n));
    CTS_ASSERT_OK_AND_ASSIGN(auto gotSum, download<float>(*sum, n));
    EXPECT_EQ(firstMismatch(gotMid, wantMid), -1);
    EXPECT_EQ(firstMismatch(gotOut, wantOut), -1);
    EXPECT_EQ(firstMismatch(gotSum, wantSum), -1);
    CTS_ASSERT_OK(mid->write(0, std::vector<float>(n, 7.0f).data(), n * 4));
  }
}

TEST_P(HalCtsLaunch, LaunchErrorsNameTheProblem) {
  CTS_ASSERT_OK_AND_ASSIGN(auto exe, cudaCKernels());
  CTS_ASSERT_OK_AND_ASSIGN(auto b, allocate(64));
  auto cb = device().createCommandBuffer();
  auto ok = axpbParams(*b, *b, 1, 1.0f, 16);
  hal::LaunchConfig one{{1, 1, 1}, {16, 1, 1}, 0};
  struct Case {
    const char *what;
    uint32_t ordinal;
    hal::LaunchConfig config;
    std::vector<std::vector<uint8_t>> params;
    std::string needle;
  } cases[] = {
      {"not CUDA C", kNotCudaC, one, {}, "launch of 'add_f32': not a CUDA C kernel (abi Bindings): "
                                         "record it with dispatch()"},
      {"ordinal", 7, one, ok, "launch of export 7 but the executable has 3"},
      {"parameter count", kAxpb, one, {ok[0], ok[1]},
       "launch of 'axpb_cuda_c' with 2 parameter values, expected 5"},
      {"parameter size", kAxpb, one, {ok[0], ok[1], ok[2], param(1.0), ok[4]},
       "launch of 'axpb_cuda_c': parameter 3 has 8 bytes, expected 4"},
      {"zero grid", kAxpb, {{1, 0, 1}, {16, 1, 1}, 0}, ok,
       "launch of 'axpb_cuda_c' (grid 1x0x1, block 16x1x1): every grid and block dimension must "
       "be at least 1"},
      {"zero block", kAxpb, {{1, 1, 1}, {0, 1, 1}, 0}, ok, "must be at least 1"},
      {"block too large", kAxpb, {{1, 1, 1}, {33, 33, 1}, 0}, ok,
       "(grid 1x1x1, block 33x33x1): 1089 threads per block (at most 1024)"},
      {"block z", kAxpb, {{1, 1, 1}, {1, 1, 65}, 0}, ok, "block z is 65 (at most 64)"},
      {"grid y", kAxpb, {{1, 65536, 1}, {1, 1, 1}, 0}, ok, "grid y is 65536 (at most 65535)"},
      {"grid z", kAxpb, {{1, 1, 70000}, {1, 1, 1}, 0}, ok, "grid z is 70000 (at most 65535)"},
      {"grid x", kAxpb, {{0x80000000u, 1, 1}, {1, 1, 1}, 0}, ok,
       "grid x is 2147483648 (at most 2147483647)"},
  };
  for (const Case &c : cases) {
    Status s = cb->launch(*exe, c.ordinal, c.config, c.params);
    EXPECT_NE(s.message().find(c.needle), std::string::npos) << c.what << ": " << s.toString();
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.what << ": " << s.toString();
  }
  // A CUDA C kernel is not dispatched.
  Status s = cb->dispatch(*exe, kAxpb, {1, 1, 1}, {}, {});
  EXPECT_NE(s.message().find("dispatch of 'axpb_cuda_c': a CUDA C kernel (abi CudaC) takes "
                             "parameters and a grid: record it with launch()"),
            std::string::npos)
      << s.toString();
  // Nothing was recorded, so submitting is harmless.
  CTS_ASSERT_OK(submit(*cb));
}

INSTANTIATE_TEST_SUITE_P(Drivers, HalCtsLaunch, ::testing::ValuesIn(allDrivers()), driverName);

// Runs fault_write on a new device and prints what the driver reported;
// exits 0 only if both the fault and the next call failed as expected.
[[noreturn]] void runFaultingKernel(const CtsDriver &driver) {
  auto fail = [](const std::string &why) {
    std::fprintf(stderr, "unexpected: %s\n", why.c_str());
    std::exit(1);
  };
  auto dev = driver.create();
  if (!dev.ok())
    fail("device: " + dev.status().toString());
  auto exe = (*dev)->prepareExecutable(kernelSpec(driver, {"fault_write"}));
  if (!exe.ok())
    fail("executable: " + exe.status().toString());
  auto b = (*dev)->allocate(64);
  if (!b.ok())
    fail("allocate: " + b.status().toString());
  auto cb = (*dev)->createCommandBuffer();
  Status s = cb->dispatch(**exe, 0, {1, 1, 1}, {b->get()}, {});
  if (!s.ok())
    fail("dispatch: " + s.toString());
  s = (*dev)->submitAndWait(*cb);
  if (s.ok())
    fail("the faulting kernel reported success");
  auto again = (*dev)->allocate(16);
  if (again.ok())
    fail("a call after the fault succeeded");
  // stdout is the parent's (shown in its log); stderr is what EXPECT_EXIT matches.
  std::printf("fault reported as: %s\n", s.message().c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "fault: %s | next call: %s\n", s.message().c_str(),
               again.status().message().c_str());
  std::exit(0);
}

TEST_P(HalCts, KernelFaultIsReported) {
  CTS_REQUIRE("fault_reporting");
  // A kernel fault leaves CUDA unusable for the whole process, so it runs in
  // a child process: "threadsafe" death tests re-execute this binary for it
  // (no fork of a process that has initialized CUDA).
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(runFaultingKernel(driver()), ::testing::ExitedWithCode(0),
              "fault: .*CUDA_ERROR_ILLEGAL_ADDRESS.*'fault_write'.* \\| next call: .*unusable in "
              "this process after an earlier error");
}

INSTANTIATE_TEST_SUITE_P(Drivers, HalCts, ::testing::ValuesIn(allDrivers()), driverName);

} // namespace
} // namespace tessel::rt::cts
