// Tests of the cpu driver's feature checks: TESSEL_CPU_DISABLE_FEATURES
// (strict parsing, masking in checkHostFeatures) and the choice among the
// binaries of CPU variants that it drives.
#include "hal/cpu/cpu_executable.h"
#include "hal/cpu/cpu_features.h"
#include "test_module_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>

using namespace tessel::rt;
using namespace tessel::rt::hal;

namespace {

/// Sets TESSEL_CPU_DISABLE_FEATURES for one scope (unset: nullopt).
class DisableFeatures {
public:
  explicit DisableFeatures(std::optional<std::string> value) {
    if (const char *old = std::getenv(cpu::kDisableFeaturesEnv))
      old_ = old;
    if (value)
      ::setenv(cpu::kDisableFeaturesEnv, value->c_str(), 1);
    else
      ::unsetenv(cpu::kDisableFeaturesEnv);
  }
  ~DisableFeatures() {
    if (old_)
      ::setenv(cpu::kDisableFeaturesEnv, old_->c_str(), 1);
    else
      ::unsetenv(cpu::kDisableFeaturesEnv);
  }

private:
  std::optional<std::string> old_;
};

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

#if defined(__x86_64__)
TEST(CpuFeaturesTest, ParsesTheMaskStrictly) {
  auto none = cpu::parseDisabledFeatures("");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  auto two = cpu::parseDisabledFeatures("avx512f,avx2");
  ASSERT_TRUE(two.ok()) << two.status().toString();
  EXPECT_EQ(*two, (std::vector<std::string>{"avx512f", "avx2"}));

  struct Bad {
    const char *text, *why;
  } bad[] = {
      {"avx512x", "TESSEL_CPU_DISABLE_FEATURES='avx512x': unknown CPU feature 'avx512x' "
                  "(this runtime queries: sse3, "},
      {"avx2,", "TESSEL_CPU_DISABLE_FEATURES='avx2,' has an empty entry"},
      {",avx2", "has an empty entry"},
      {"avx2,,fma", "has an empty entry"},
      {"avx2, fma", "unknown CPU feature ' fma'"},
      {"+avx2", "unknown CPU feature '+avx2'"},
      {"AVX2", "unknown CPU feature 'AVX2'"},
      {"avx\x01", "unknown CPU feature 'avx?'"},
  };
  for (const Bad &b : bad) {
    auto r = cpu::parseDisabledFeatures(b.text);
    ASSERT_FALSE(r.ok()) << b.text;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_TRUE(contains(r.status().message(), b.why)) << r.status().message();
  }
}

TEST(CpuFeaturesTest, MaskedFeaturesAreMissing) {
  if (!__builtin_cpu_supports("sse4.2") || !__builtin_cpu_supports("popcnt"))
    GTEST_SKIP() << "this host lacks sse4.2 or popcnt";
  {
    DisableFeatures mask(std::nullopt);
    EXPECT_TRUE(cpu::checkHostFeatures({"sse4.2", "+popcnt"}).ok());
    auto host = cpu::hostFeatures();
    ASSERT_TRUE(host.ok());
    EXPECT_NE(std::find(host->begin(), host->end(), "sse4.2"), host->end());
  }
  {
    DisableFeatures mask("popcnt,sse4.2");
    Status s = cpu::checkHostFeatures({"sse4.2", "+popcnt", "some-future-feature"});
    EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
    EXPECT_EQ(s.message(), "the kernels need CPU features this host lacks: sse4.2, popcnt "
                           "(TESSEL_CPU_DISABLE_FEATURES masks sse4.2, popcnt)");
    EXPECT_TRUE(cpu::checkHostFeatures({"some-future-feature"}).ok());
    auto host = cpu::hostFeatures();
    ASSERT_TRUE(host.ok());
    EXPECT_EQ(std::find(host->begin(), host->end(), "sse4.2"), host->end());
    EXPECT_EQ(std::find(host->begin(), host->end(), "popcnt"), host->end());
  }
  {
    DisableFeatures mask("");
    EXPECT_TRUE(cpu::checkHostFeatures({"sse4.2"}).ok());
  }
  {
    DisableFeatures mask("sse4.2,bogus");
    Status s = cpu::checkHostFeatures({"sse4.2"});
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_TRUE(contains(s.message(), "unknown CPU feature 'bogus'")) << s.message();
    EXPECT_FALSE(cpu::hostFeatures().ok());
  }
}

// Two binaries as two variants would have them (the module gives each its
// own executable; the choice within one is the same): the first whose
// features the host has is chosen.
TEST(CpuFeaturesTest, ChoosesTheFirstVariantTheHostRuns) {
  if (!__builtin_cpu_supports("sse4.2") || !__builtin_cpu_supports("avx"))
    GTEST_SKIP() << "this host lacks sse4.2 or avx";
  std::vector<uint8_t> lib = testutil::testKernelLibrary();
  ExecutableSpec spec;
  spec.name = "0 (cpu)";
  spec.target = "cpu";
  BinaryInfo wide{"elf-shared-object", cpu::hostArch(), {"sse4.2", "avx"}, lib.data(),
                  lib.size(), "x86-64-v3"};
  BinaryInfo narrow{"elf-shared-object", cpu::hostArch(), {"sse4.2"}, lib.data(), lib.size(),
                    "x86-64-v2"};
  spec.binaries = {wide, narrow};
  {
    DisableFeatures mask(std::nullopt);
    auto chosen = cpu::chooseBinary(spec);
    ASSERT_TRUE(chosen.ok()) << chosen.status().toString();
    EXPECT_EQ((*chosen)->cpu, "x86-64-v3");
    EXPECT_EQ(cpu::describeBinary(**chosen),
              std::string("elf-shared-object ") + cpu::hostArch() +
                  " for x86-64-v3, features [sse4.2, avx]");
  }
  {
    DisableFeatures mask("avx");
    auto chosen = cpu::chooseBinary(spec);
    ASSERT_TRUE(chosen.ok()) << chosen.status().toString();
    EXPECT_EQ((*chosen)->cpu, "x86-64-v2");
    EXPECT_TRUE(cpu::CpuExecutable::load(spec).ok());
  }
  {
    DisableFeatures mask("sse4.2");
    auto chosen = cpu::chooseBinary(spec);
    ASSERT_FALSE(chosen.ok());
    EXPECT_TRUE(contains(chosen.status().message(), "lacks: sse4.2")) << chosen.status().message();
  }
  {
    // A malformed mask is said as is, not as this executable's fault.
    DisableFeatures mask("avx,");
    auto exe = cpu::CpuExecutable::load(spec);
    ASSERT_FALSE(exe.ok());
    EXPECT_EQ(exe.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(exe.status().message().rfind("TESSEL_CPU_DISABLE_FEATURES=", 0), 0u)
        << exe.status().message();
  }
}
#endif
