// Module-level conformance: a .tmod holding an executable for every target
// (the CTS kernels) is loaded on each driver and its functions are called
// through the public API, so the host-program interpreter is exercised over
// every HAL (upload of arguments and constants, chained dispatches through a
// transient slot, results read back as copies even when they share a slot
// with an argument or a constant).
#include "cts_test_util.h"
#include "test_module_builder.h"
#include "tessel/runtime/module.h"

#include <atomic>
#include <set>
#include <thread>

namespace tessel::rt::cts {
namespace {

using namespace tessel::rt::testutil;

constexpr int64_t kN = 1001;
constexpr float kFactor = -1.75f;

ExecutableDesc executableFor(const CtsDriver &driver) {
  ExecutableDesc e;
  e.target = driver.target;
  uint32_t wg = static_cast<uint32_t>((kN + kKernelWorkgroupSize - 1) / kKernelWorkgroupSize);
  for (auto [name, bindings] : {std::pair<const char *, uint32_t>{"add_f32", 4},
                                std::pair<const char *, uint32_t>{"scale_f32", 4}}) {
    ExportDesc x;
    x.name = name;
    x.workgroupCount = {wg, 1, 1};
    x.workgroupSize = {kKernelWorkgroupSize, 1, 1};
    x.bindingCount = bindings;
    e.exports.push_back(x);
  }
  for (const hal::BinaryInfo &b : driver.kernelBinaries) {
    BinaryDesc bin;
    bin.format = b.format;
    bin.arch = b.arch;
    bin.data.assign(b.data, b.data + b.size);
    e.binaries.push_back(std::move(bin));
  }
  return e;
}

// f(a, b) -> ((a + b) * factor, a + b, a, factor) and g(a) -> a (no dispatch).
ModuleDesc moduleFor(const std::vector<const CtsDriver *> &targets) {
  ModuleDesc m;
  std::set<std::string> seen;
  for (const CtsDriver *d : targets)
    if (seen.insert(d->target).second)
      m.executables.push_back(executableFor(*d));
  TensorType vec{ElementType::f32, {kN}}, scalar{ElementType::f32, {}};
  FunctionDesc f;
  f.name = "add_scale";
  f.arguments = {vec, vec};
  f.results = {vec, vec, vec, scalar};
  f.slots = {argumentSlot(0, kN * 4),  argumentSlot(1, kN * 4),
             constantSlotOf(std::vector<int64_t>{kN}), constantSlotOf(std::vector<float>{kFactor}),
             transientSlot(kN * 4),    transientSlot(kN * 4)};
  f.dispatches = {{0, {2, 0, 1, 4}}, {1, {2, 3, 4, 5}}};
  f.resultSlots = {5, 4, 0, 3};
  m.functions.push_back(f);
  FunctionDesc g;
  g.name = "identity";
  g.arguments = {vec};
  g.results = {vec};
  g.slots = {argumentSlot(0, kN * 4)};
  g.resultSlots = {0};
  m.functions.push_back(g);
  return m;
}

HostTensor randomVector(std::mt19937 &r) {
  std::uniform_real_distribution<float> dist(-5, 5);
  std::vector<float> v(kN);
  for (auto &x : v)
    x = dist(r);
  HostTensor t = HostTensor::zeros(TensorType{ElementType::f32, {kN}});
  std::memcpy(t.bytes.data(), v.data(), kN * 4);
  return t;
}

std::vector<float> floats(const HostTensor &t) {
  std::vector<float> v(t.bytes.size() / 4);
  std::memcpy(v.data(), t.bytes.data(), t.bytes.size());
  return v;
}

class ModuleCts : public DriverTest {};

TEST_P(ModuleCts, FunctionsRunThroughTheHal) {
  auto dev = std::make_shared<Device>(device_);
  std::vector<uint8_t> bytes = buildModule(moduleFor(allDrivers()));
  CTS_ASSERT_OK_AND_ASSIGN(auto module, Module::loadBytes(dev, bytes, "cts.tmod"));
  std::mt19937 r = rng();
  for (int call = 0; call < 3; ++call) {
    SCOPED_TRACE("call " + std::to_string(call));
    HostTensor a = randomVector(r), b = randomVector(r);
    const HostTensor aCopy = a;
    CTS_ASSERT_OK_AND_ASSIGN(auto results, module->call("add_scale", {a, b}));
    ASSERT_EQ(results.size(), 4u);
    std::vector<float> av = floats(a), bv = floats(b), sum(kN), scaled(kN);
    for (int64_t i = 0; i < kN; ++i) {
      sum[i] = av[i] + bv[i];
      scaled[i] = sum[i] * kFactor;
    }
    EXPECT_EQ(firstMismatch(floats(results[0]), scaled), -1);
    EXPECT_EQ(firstMismatch(floats(results[1]), sum), -1);
    EXPECT_EQ(firstMismatch(floats(results[2]), av), -1) << "result in an argument slot";
    EXPECT_EQ(floats(results[3]), std::vector<float>{kFactor}) << "result in a constant slot";
    EXPECT_EQ(a.bytes, aCopy.bytes) << "the caller's input changed";
    // Results are copies: changing one leaves the others and the module alone.
    results[3].bytes.assign(4, 0);
    CTS_ASSERT_OK_AND_ASSIGN(auto again, module->call("add_scale", {a, b}));
    EXPECT_EQ(floats(again[3]), std::vector<float>{kFactor});
  }
  HostTensor a = randomVector(r);
  CTS_ASSERT_OK_AND_ASSIGN(auto id, module->call("identity", {a}));
  EXPECT_EQ(id[0].bytes, a.bytes);
}

TEST_P(ModuleCts, ConcurrentCallsFromManyThreads) {
  // 8 host threads x 50 calls of one module's functions on one device, each
  // call on inputs of its own; every result is compared with the values
  // computed here. Calls share the device, the executable and the constant
  // slots; argument and transient slots are per call.
  constexpr int kThreads = 8, kCalls = 50;
  auto dev = std::make_shared<Device>(device_);
  CTS_ASSERT_OK_AND_ASSIGN(auto module,
                           Module::loadBytes(dev, buildModule(moduleFor(allDrivers())), "cts.tmod"));
  std::atomic<int> failures{0}, done{0};
  std::vector<std::string> firstError(kThreads);
  auto worker = [&](int t) {
    std::mt19937 r(1000 + t);
    for (int c = 0; c < kCalls; ++c) {
      HostTensor a = randomVector(r), b = randomVector(r);
      std::string where = "thread " + std::to_string(t) + " call " + std::to_string(c);
      auto fail = [&](const std::string &why) {
        failures.fetch_add(1);
        if (firstError[t].empty()) // each thread writes only its own entry
          firstError[t] = where + ": " + why;
      };
      if (c % 5 == 4) { // the other function now and then
        auto id = module->call("identity", {a});
        if (!id.ok())
          fail(id.status().toString());
        else if ((*id)[0].bytes != a.bytes)
          fail("identity returned other values");
        continue;
      }
      auto results = module->call("add_scale", {a, b});
      if (!results.ok()) {
        fail(results.status().toString());
        continue;
      }
      std::vector<float> av = floats(a), bv = floats(b), sum(kN), scaled(kN);
      for (int64_t i = 0; i < kN; ++i) {
        sum[i] = av[i] + bv[i];
        scaled[i] = sum[i] * kFactor;
      }
      if (results->size() != 4)
        fail(std::to_string(results->size()) + " results");
      else if (long bad = firstMismatch(floats((*results)[0]), scaled); bad >= 0)
        fail("result 0 differs at element " + std::to_string(bad));
      else if (long bad = firstMismatch(floats((*results)[1]), sum); bad >= 0)
        fail("result 1 differs at element " + std::to_string(bad));
      else if ((*results)[2].bytes != a.bytes)
        fail("result 2 is not argument 0");
      else if (floats((*results)[3]) != std::vector<float>{kFactor})
        fail("result 3 is not the constant");
      else
        done.fetch_add(1);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(worker, t);
  for (std::thread &th : threads)
    th.join();
  for (const std::string &e : firstError)
    EXPECT_TRUE(e.empty()) << e;
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(done.load(), kThreads * (kCalls - kCalls / 5));
}

TEST_P(ModuleCts, MissingTargetNamesTheAvailableOnes) {
  std::vector<const CtsDriver *> others;
  for (const CtsDriver *d : allDrivers())
    if (d->target != driver().target)
      others.push_back(d);
  if (others.empty())
    GTEST_SKIP() << "no other target registered";
  auto dev = std::make_shared<Device>(device_);
  auto module = Module::loadBytes(dev, buildModule(moduleFor(others)), "other.tmod");
  ASSERT_FALSE(module.ok());
  std::string want = "no executable for target '" + driver().target + "' (module has: ";
  EXPECT_NE(module.status().message().find(want), std::string::npos) << module.status().message();
}

INSTANTIATE_TEST_SUITE_P(Drivers, ModuleCts, ::testing::ValuesIn(allDrivers()), driverName);

} // namespace
} // namespace tessel::rt::cts
