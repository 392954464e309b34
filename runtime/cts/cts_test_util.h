// Shared fixture and helpers of the conformance tests: the per-driver
// parameterization (skipping drivers without a device, with the reason),
// status assertions, transfers, and a comparison that reports the first
// differing element instead of dumping megabytes.
#pragma once

#include "cts_driver.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace tessel::rt::cts {

inline const Status &statusOf(const Status &s) { return s; }
template <typename T> const Status &statusOf(const StatusOr<T> &s) { return s.status(); }

#define CTS_CONCAT_INNER(a, b) a##b
#define CTS_CONCAT(a, b) CTS_CONCAT_INNER(a, b)
/// Fails the test (fatally) with the status text unless `expr` is OK.
#define CTS_ASSERT_OK(expr)                                                                       \
  do {                                                                                            \
    const auto &cts_result_ = (expr);                                                             \
    ASSERT_TRUE(::tessel::rt::cts::statusOf(cts_result_).ok())                                    \
        << #expr << ": " << ::tessel::rt::cts::statusOf(cts_result_).toString();                  \
  } while (0)
/// `CTS_ASSERT_OK_AND_ASSIGN(auto x, f());`
#define CTS_ASSERT_OK_AND_ASSIGN(lhs, expr)                                                       \
  auto CTS_CONCAT(cts_or_, __LINE__) = (expr);                                                    \
  ASSERT_TRUE(CTS_CONCAT(cts_or_, __LINE__).ok())                                                 \
      << #expr << ": " << CTS_CONCAT(cts_or_, __LINE__).status().toString();                      \
  lhs = std::move(CTS_CONCAT(cts_or_, __LINE__)).value()

/// Skips the current test if the driver under test lists `feature` as
/// unsupported; the skip message carries the driver's reason.
#define CTS_REQUIRE(feature)                                                                      \
  do {                                                                                            \
    if (auto cts_why_ = ::tessel::rt::cts::unsupportedReason(driver(), feature))                  \
      GTEST_SKIP() << driver().name << " does not support " << feature << ": " << *cts_why_;      \
  } while (0)

/// Base fixture: GetParam() is the driver configuration under test.
class DriverTest : public ::testing::TestWithParam<const CtsDriver *> {
protected:
  void SetUp() override {
    auto device = sharedDevice(driver());
    if (!device.ok()) {
      if (driver().optional && device.status().code() == StatusCode::kUnavailable)
        GTEST_SKIP() << driver().name << " skipped: " << device.status().message();
      FAIL() << driver().name << ": cannot create the device: " << device.status().toString();
    }
    device_ = *device;
  }
  const CtsDriver &driver() const { return *GetParam(); }
  hal::Device &device() { return *device_; }

  /// A generator seeded from the test's name: random but reproducible data.
  std::mt19937 rng() const {
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    return std::mt19937(
        static_cast<uint32_t>(std::hash<std::string>()(std::string(info->name()))));
  }

  std::shared_ptr<hal::Device> device_;
};

/// Prints a parameter as its name (ctest lists "GetParam() = cuda_graph"
/// rather than an address).
inline void PrintTo(const CtsDriver *driver, std::ostream *os) { *os << driver->name; }

/// Test parameter names ("cpu", "cuda_graph", ...).
inline std::string driverName(const ::testing::TestParamInfo<const CtsDriver *> &info) {
  return info.param->name;
}

inline std::vector<const CtsDriver *> allDrivers() {
  std::vector<const CtsDriver *> out;
  for (const CtsDriver &d : ctsDrivers())
    out.push_back(&d);
  return out;
}

template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  if (!v.empty())
    std::memcpy(out.data(), v.data(), out.size());
  return out;
}

/// Index of the first element where `got` and `want` differ, or -1; sizes
/// must match.
template <typename T> long firstMismatch(const std::vector<T> &got, const std::vector<T> &want) {
  if (got.size() != want.size())
    return 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0)
      return static_cast<long>(i);
  return -1;
}

inline std::vector<uint8_t> randomBytes(std::mt19937 &rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (auto &b : v)
    b = static_cast<uint8_t>(rng());
  return v;
}

} // namespace tessel::rt::cts
