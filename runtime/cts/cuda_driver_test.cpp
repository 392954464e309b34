// cuda-specific driver tests that the generic suite cannot express: binary
// selection (exact cubin over PTX, PTX JIT, no usable binary), the JIT log in
// errors, cubin header checks, launch limits, command buffer mode parsing,
// TMA tensor maps on real hardware (sm_90), and the error when no driver is
// present. Tests needing a GPU skip with the reason where none is usable.
#include "cts_driver.h"
#include "hal/cuda/cuda_device.h"
#include "hal/cuda/cuda_executable.h"
#include "hal/driver_registry.h"
#include "tma_box_sm90a_ptx.h" // cts/kernels/tma_box.sm_90a.ptx

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
  Status s = cb->dispatch(**exe, 1, {1, 70000, 1}, {buffer->get(), buffer->get()}, {});
  EXPECT_NE(s.message().find("exceeds the grid limit"), std::string::npos) << s.message();
}

// The prebuilt sm_90a kernel tma_box_f32 (kernels/tma_box.sm_90a.ptx,
// bindings: source, result; 32 threads) with `map`, an f32 map of binding
// 0, as its one tensor map.
hal::ExecutableSpec tmaBoxSpec(hal::TensorMapInfo map) {
  map.binding = 0;
  map.dataType = 7; // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
  map.elementStrides.assign(map.globalDims.size(), 1);
  hal::ExportInfo e;
  e.name = "tma_box_f32";
  e.workgroupSize = {32, 1, 1};
  e.bindingCount = 2;
  e.tensorMaps = {map};
  hal::ExecutableSpec spec;
  spec.name = "tma (cuda)";
  spec.target = "cuda";
  spec.exports = {e};
  spec.binaries = {hal::BinaryInfo{"ptx", "sm_90a", {}, tma_box_sm90a_ptx, tma_box_sm90a_ptx_size}};
  return spec;
}

// A tensor map encoded at record time reaches the kernel as its by-value
// parameter, in both command buffer modes (graph capture copies it): the
// kernel's one TMA load of a 16x8 box at (24, 12) of a 32x16 f32 tensor
// must return those elements, zeros where the box leaves the tensor.
TEST_F(CudaDriverTest, TensorMapReachesTheKernel) {
  if (arch() != "sm_90")
    GTEST_SKIP() << "the TMA kernel is sm_90a PTX, this device is " << arch();
  constexpr uint64_t kW = 32, kH = 16, kBoxW = 16, kBoxH = 8, kX = 24, kY = 12;
  hal::TensorMapInfo map;
  map.globalDims = {kW, kH};
  map.globalStrides = {kW * 4};
  map.boxDims = {kBoxW, kBoxH};
  hal::ExecutableSpec spec = tmaBoxSpec(map);

  std::vector<float> src(kW * kH), expected(kBoxW * kBoxH, 0.0f);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = static_cast<float>(i + 1);
  for (uint64_t r = 0; r < kBoxH; ++r)
    for (uint64_t c = 0; c < kBoxW; ++c)
      if (kY + r < kH && kX + c < kW)
        expected[r * kBoxW + c] = src[(kY + r) * kW + kX + c];

  for (const char *mode : {"graph", "stream"}) {
    SCOPED_TRACE(mode);
    auto device = hal::createCudaDevice(DeviceOptions{mode});
    ASSERT_TRUE(device.ok()) << device.status().toString();
    auto exe = (*device)->prepareExecutable(spec);
    ASSERT_TRUE(exe.ok()) << exe.status().toString();
    auto in = (*device)->allocate(src.size() * 4);
    auto out = (*device)->allocate(expected.size() * 4);
    ASSERT_TRUE(in.ok() && out.ok());
    ASSERT_TRUE((*in)->write(0, src.data(), src.size() * 4).ok());
    auto cb = (*device)->createCommandBuffer();
    ASSERT_TRUE(cb->fill(**out, 0, expected.size() * 4, 0xff).ok());
    Status s = cb->dispatch(**exe, 0, {1, 1, 1}, {in->get(), out->get()}, {});
    ASSERT_TRUE(s.ok()) << s.toString();
    for (int run = 0; run < 2; ++run) { // a graph replay reuses the captured map
      s = (*device)->submitAndWait(*cb);
      ASSERT_TRUE(s.ok()) << s.toString();
      std::vector<float> got(expected.size());
      ASSERT_TRUE((*out)->read(0, got.data(), got.size() * 4).ok());
      EXPECT_EQ(got, expected) << "run " << run;
    }
    // The extent check at record time: the map needs all 2048 bytes.
    auto small = (*device)->allocate(1024);
    ASSERT_TRUE(small.ok());
    s = (*device)->createCommandBuffer()->dispatch(**exe, 0, {1, 1, 1},
                                                   {small->get(), out->get()}, {});
    EXPECT_EQ(s.message(), "dispatch of 'tma_box_f32' tensor map 0 spans 2048 bytes of binding "
                           "0 but its buffer has 1024 bytes");
  }
}

// The real driver rejects what the loader cannot know is wrong: a box row
// wider than the 128-byte swizzle span.
TEST_F(CudaDriverTest, EncodeErrorNamesTheMap) {
  if (arch() != "sm_90")
    GTEST_SKIP() << "the TMA kernel is sm_90a PTX, this device is " << arch();
  hal::TensorMapInfo map;
  map.globalDims = {256, 16};
  map.globalStrides = {1024};
  map.boxDims = {64, 8}; // 256 bytes a row
  map.swizzle = 3;       // CU_TENSOR_MAP_SWIZZLE_128B
  auto exe = device_->prepareExecutable(tmaBoxSpec(map));
  ASSERT_TRUE(exe.ok()) << exe.status().toString();
  auto in = device_->allocate(256 * 16 * 4), out = device_->allocate(512);
  ASSERT_TRUE(in.ok() && out.ok());
  Status s = device_->createCommandBuffer()->dispatch(**exe, 0, {1, 1, 1},
                                                       {in->get(), out->get()}, {});
  EXPECT_EQ(s.message().rfind("cuda: cuTensorMapEncodeTiled for tensor map 0 of 'tma_box_f32' "
                              "(binding 0) failed: CUDA_ERROR_INVALID_VALUE",
                              0),
            0u)
      << s.message();
}

} // namespace
} // namespace tessel::rt::cts
