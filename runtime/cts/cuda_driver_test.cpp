// cuda-specific driver tests that the generic suite cannot express: binary
// selection (exact cubin over PTX, PTX JIT, no usable binary), the JIT log in
// errors, cubin header checks, launch limits, command buffer mode parsing,
// and the error when no driver is present. Tests needing a GPU skip with the
// reason where none is usable.
#include "cts_driver.h"
#include "hal/cuda/cuda_device.h"
#include "hal/cuda/cuda_executable.h"
#include "hal/driver_registry.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace tessel::rt::cts {
namespace {

using hal::cuda::CommandBufferMode;
using hal::cuda::parseCommandBufferMode;

const CtsDriver &cudaDriver() {
  for (const CtsDriver &d : ctsDrivers())
    if (d.name == "cuda_graph")
      return d;
  std::abort(); // registered in cts_drivers.cpp
}

const hal::BinaryInfo &binary(const std::string &format) {
  for (const hal::BinaryInfo &b : cudaDriver().kernelBinaries)
    if (b.format == format)
      return b;
  std::abort();
}

class CudaDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto device = sharedDevice(cudaDriver());
    if (!device.ok())
      GTEST_SKIP() << "no usable CUDA device: " << device.status().message();
    device_ = std::static_pointer_cast<hal::cuda::CudaDevice>(*device);
  }
  StatusOr<std::shared_ptr<hal::Executable>> load(std::vector<hal::BinaryInfo> binaries) {
    hal::ExecutableSpec spec = kernelSpec(cudaDriver(), {"add_f32", "step_u32"});
    spec.binaries = std::move(binaries);
    return device_->prepareExecutable(spec);
  }
  std::string loaded(const StatusOr<std::shared_ptr<hal::Executable>> &exe) {
    if (!exe.ok())
      return "error: " + exe.status().message();
    return static_cast<const hal::cuda::CudaExecutable &>(**exe).loadedBinary();
  }
  std::string arch() const { return device_->context().arch(); }
  std::shared_ptr<hal::cuda::CudaDevice> device_;
};

TEST(CudaOptionsTest, CommandBufferModeParsing) {
  ::unsetenv("TESSEL_CUDA_COMMAND_BUFFER");
  EXPECT_EQ(*parseCommandBufferMode(""), CommandBufferMode::kGraph);
  EXPECT_EQ(*parseCommandBufferMode("graph"), CommandBufferMode::kGraph);
  EXPECT_EQ(*parseCommandBufferMode("stream"), CommandBufferMode::kStream);
  auto bad = parseCommandBufferMode("streams");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("unknown command buffer mode 'streams'"),
            std::string::npos);
  ::setenv("TESSEL_CUDA_COMMAND_BUFFER", "stream", 1);
  EXPECT_EQ(*parseCommandBufferMode(""), CommandBufferMode::kStream);
  EXPECT_EQ(*parseCommandBufferMode("graph"), CommandBufferMode::kGraph) << "option beats env";
  ::setenv("TESSEL_CUDA_COMMAND_BUFFER", "bogus", 1);
  auto env = parseCommandBufferMode("");
  ASSERT_FALSE(env.ok());
  EXPECT_NE(env.status().message().find("TESSEL_CUDA_COMMAND_BUFFER"), std::string::npos);
  // A bad option is reported before the driver is even looked for.
  auto device = hal::createCudaDevice(DeviceOptions{"bogus"});
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().code(), StatusCode::kInvalidArgument);
  ::unsetenv("TESSEL_CUDA_COMMAND_BUFFER");
}

TEST(CudaAvailabilityTest, MissingDriverIsAClearError) {
  auto device = hal::createCudaDevice(DeviceOptions{});
  if (device.ok())
    GTEST_SKIP() << "a CUDA device is usable here: " << (*device)->description();
  EXPECT_EQ(device.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(device.status().message().rfind("cuda: no CUDA driver/device available (", 0), 0u)
      << device.status().message();
}

TEST_F(CudaDriverTest, DescriptionNamesDeviceArchAndMode) {
  std::string d = device_->description();
  EXPECT_EQ(d.rfind("cuda (", 0), 0u) << d;
  EXPECT_NE(d.find(", " + arch() + ", graph command buffers)"), std::string::npos) << d;
  std::printf("device: %s\n", d.c_str());
}

TEST_F(CudaDriverTest, PrefersTheExactCubin) {
  auto exe = load({binary("ptx"), binary("cubin")});
  if (arch() == "sm_90")
    EXPECT_EQ(loaded(exe), "cubin sm_90");
  else
    EXPECT_EQ(loaded(exe), "ptx sm_80 (JIT for " + arch() + ")");
}

TEST_F(CudaDriverTest, JitsPtxWithoutNulTerminator) {
  // The embedded PTX has no trailing NUL; the loader must add one.
  const hal::BinaryInfo &ptx = binary("ptx");
  ASSERT_NE(ptx.data[ptx.size - 1], 0);
  EXPECT_EQ(loaded(load({ptx})), "ptx sm_80 (JIT for " + arch() + ")");
}

TEST_F(CudaDriverTest, NoUsableBinaryListsWhatThereIs) {
  hal::BinaryInfo cubin = binary("cubin");
  cubin.arch = "sm_10"; // no device has this arch
  hal::BinaryInfo ptx = binary("ptx");
  ptx.arch = "sm_999";
  std::string e = loaded(load({cubin, ptx}));
  EXPECT_NE(e.find("no cubin for " + arch()), std::string::npos) << e;
  EXPECT_NE(e.find("binaries: cubin sm_10, ptx sm_999"), std::string::npos) << e;
}

TEST_F(CudaDriverTest, BadPtxErrorCarriesTheJitLog) {
  std::string text(reinterpret_cast<const char *>(binary("ptx").data), binary("ptx").size);
  size_t at = text.find("add.f32");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 7, "add.q99");
  hal::BinaryInfo ptx = binary("ptx");
  ptx.data = reinterpret_cast<const uint8_t *>(text.data());
  ptx.size = text.size();
  std::string e = loaded(load({ptx}));
  EXPECT_NE(e.find("JIT-compiling the ptx for sm_80"), std::string::npos) << e;
  EXPECT_NE(e.find("JIT log:"), std::string::npos) << e;
  std::printf("%s\n", e.c_str());
}

TEST_F(CudaDriverTest, TruncatedCubinFallsBackToPtx) {
  if (arch() != "sm_90")
    GTEST_SKIP() << "the test cubin is for sm_90, this device is " << arch();
  hal::BinaryInfo cubin = binary("cubin");
  cubin.size /= 2;
  EXPECT_EQ(loaded(load({cubin, binary("ptx")})), "ptx sm_80 (JIT for sm_90)");
  std::string e = loaded(load({cubin}));
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;
}

TEST_F(CudaDriverTest, MissingKernelAndBadBlockSize) {
  hal::ExecutableSpec spec = kernelSpec(cudaDriver(), {"add_f32", "no_such_kernel"});
  auto exe = device_->prepareExecutable(spec);
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.status().message().find("'no_such_kernel'"), std::string::npos)
      << exe.status().message();
  spec = kernelSpec(cudaDriver(), {"add_f32"});
  spec.exports[0].workgroupSize = {64, 64, 1};
  exe = device_->prepareExecutable(spec);
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.status().message().find("4096 threads"), std::string::npos)
      << exe.status().message();
}

TEST_F(CudaDriverTest, GridLimitIsCheckedAtRecordTime) {
  auto exe = load({binary("ptx"), binary("cubin")});
  ASSERT_TRUE(exe.ok()) << exe.status().toString();
  auto buffer = device_->allocate(8);
  ASSERT_TRUE(buffer.ok());
  auto cb = device_->createCommandBuffer();
  Status s = cb->dispatch(**exe, 1, {1, 70000, 1}, {buffer->get(), buffer->get()});
  EXPECT_NE(s.message().find("exceeds the grid limit"), std::string::npos) << s.message();
}

} // namespace
} // namespace tessel::rt::cts
