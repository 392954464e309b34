// Tests of PreparedCall (Function::prepare): buffers and command buffers
// made once and replayed, results poisoned then written, timed runs over
// rotating buffer sets and single dispatches, and the copy timing.
#include "tessel/runtime/module.h"
#include "test_module_builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <tuple>

using namespace tessel::rt;
using namespace tessel::rt::testutil;

namespace {

class PreparedCallTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto d = createDevice("cpu");
    ASSERT_TRUE(d.ok()) << d.status().toString();
    device = *d;
    ModuleDesc desc = testModule();
    addAddFunction(desc, "add", {1001});
    addAddScaleFunction(desc, "add_scale", 131, -1.5f);
    auto m = Module::loadBytes(device, buildModule(desc), "test.tmod");
    ASSERT_TRUE(m.ok()) << m.status().toString();
    module = *m;
  }

  HostTensor randomF32(std::vector<int64_t> shape) {
    HostTensor t = HostTensor::zeros(TensorType{ElementType::f32, std::move(shape)});
    std::uniform_real_distribution<float> dist(-10, 10);
    for (int64_t i = 0; i < t.numElements(); ++i)
      t.data<float>()[i] = dist(rng);
    return t;
  }

  const Function &function(const char *name) {
    auto f = module->lookupFunction(name);
    EXPECT_TRUE(f.ok());
    return **f;
  }

  std::shared_ptr<Device> device;
  std::shared_ptr<Module> module;
  std::mt19937 rng{7};
};

} // namespace

TEST_F(PreparedCallTest, ResultsArePoisonedThenWrittenByRun) {
  HostTensor a = randomF32({1001}), b = randomF32({1001});
  auto call = function("add").prepare({a, b});
  ASSERT_TRUE(call.ok()) << call.status().toString();
  ASSERT_TRUE((*call)->fillResults(0xFF).ok());
  auto poisoned = (*call)->results();
  ASSERT_TRUE(poisoned.ok());
  for (int i = 0; i < 1001; ++i)
    ASSERT_TRUE(std::isnan((*poisoned)[0].data<float>()[i])) << i;
  for (int rep = 0; rep < 3; ++rep) {
    ASSERT_TRUE((*call)->run().ok());
    auto out = (*call)->results();
    ASSERT_TRUE(out.ok());
    for (int i = 0; i < 1001; ++i)
      ASSERT_EQ((*out)[0].data<float>()[i], a.data<float>()[i] + b.data<float>()[i]) << i;
  }
  // The caller's inputs are copies: changing them does not change the call.
  a.data<float>()[0] = 1e30f;
  ASSERT_TRUE((*call)->run().ok());
  EXPECT_NE((*(*call)->results())[0].data<float>()[0], 1e30f + b.data<float>()[0]);
}

TEST_F(PreparedCallTest, ValidatesInputsLikeCall) {
  auto call = function("add").prepare({randomF32({1001})});
  ASSERT_FALSE(call.ok());
  EXPECT_NE(call.status().message().find("expects 2 arguments, got 1"), std::string::npos)
      << call.status().message();
  call = function("add").prepare({randomF32({1001}), randomF32({1000})});
  ASSERT_FALSE(call.ok());
  EXPECT_NE(call.status().message().find("argument 1"), std::string::npos);
}

TEST_F(PreparedCallTest, TimedRunsRotateAndTimeSingleDispatches) {
  HostTensor a1 = randomF32({131}), b1 = randomF32({131});
  HostTensor a2 = randomF32({131}), b2 = randomF32({131});
  const Function &f = function("add_scale");
  auto c1 = f.prepare({a1, b1});
  auto c2 = f.prepare({a2, b2});
  ASSERT_TRUE(c1.ok() && c2.ok());
  EXPECT_EQ((*c1)->dispatchCount(), 2u);
  ASSERT_TRUE((*c1)->fillResults(0xFF).ok());
  ASSERT_TRUE((*c2)->fillResults(0xFF).ok());
  auto ms = PreparedCall::timeRuns({c1->get(), c2->get()}, 5);
  ASSERT_TRUE(ms.ok()) << ms.status().toString();
  ASSERT_EQ(ms->size(), 5u);
  for (double t : *ms)
    EXPECT_GE(t, 0.0);
  // Both buffer sets ran: each holds its own inputs' results.
  for (auto [call, a, b] : {std::tuple{c1->get(), &a1, &b1}, std::tuple{c2->get(), &a2, &b2}}) {
    auto out = call->results();
    ASSERT_TRUE(out.ok());
    for (int i = 0; i < 131; ++i) {
      float sum = a->data<float>()[i] + b->data<float>()[i];
      ASSERT_EQ((*out)[0].data<float>()[i], sum * -1.5f) << i;
      ASSERT_EQ((*out)[1].data<float>()[i], sum) << i;
    }
  }
  auto one = PreparedCall::timeRuns({c1->get()}, 3, 1);
  ASSERT_TRUE(one.ok()) << one.status().toString();
  EXPECT_EQ(one->size(), 3u);
  auto bad = PreparedCall::timeRuns({c1->get()}, 3, 2);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("has 2 dispatches"), std::string::npos);
  auto other = function("add").prepare({randomF32({1001}), randomF32({1001})});
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(PreparedCall::timeRuns({c1->get(), other->get()}, 2).ok());
}

TEST_F(PreparedCallTest, CopyTiming) {
  auto ms = timeDeviceCopy(*device, 1 << 20, 4);
  ASSERT_TRUE(ms.ok()) << ms.status().toString();
  EXPECT_EQ(ms->size(), 4u);
}
