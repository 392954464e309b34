// The cuda driver against the fake device of fake_cuda/fake_cuda_device.c
// (no GPU needed): TMA tensor maps encoded at record time and passed after
// the binding pointers, the checks around them (alignment, extent, driver
// errors), and the choice among several cuda executables (sm_90a and not,
// TESSEL_CUDA_ARCH). The fake's compute capability comes from FAKE_CUDA_CC,
// read when a device is created.
#include "fake_cuda.h"
#include "hal/cuda/cuda_executable.h"
#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/executable.h"
#include "module/kernel_module.h"
#include "tessel/runtime/module.h"
#include "module_generated.h"
#include "test_module_builder.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

using namespace tessel::rt;
using namespace tessel::rt::testutil;
namespace fb = tessel::fb;

namespace {

#define EXPECT_CONTAINS(haystack, needle)                                                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

// Points the runtime at the fake driver before any test creates a device
// (the driver library is opened once per process).
class FakeDriverEnvironment : public ::testing::Environment {
public:
  void SetUp() override {
    ::setenv("TESSEL_CUDA_LIBRARY", TESSEL_FAKE_CUDA_DEVICE, 1);
    ::unsetenv("TESSEL_CUDA_ARCH");
    ::unsetenv("FAKE_CUDA_ALLOC_OFFSET");
  }
};
const auto *const kEnvironment = ::testing::AddGlobalTestEnvironment(new FakeDriverEnvironment);

const FakeCudaLaunch &lastLaunch() {
  static const FakeCudaLaunch *launch = [] {
    void *lib = ::dlopen(TESSEL_FAKE_CUDA_DEVICE, RTLD_NOW);
    auto get = lib ? reinterpret_cast<const FakeCudaLaunch *(*)()>(
                         ::dlsym(lib, "fake_cuda_last_launch"))
                   : nullptr;
    return get ? get() : nullptr;
  }();
  if (!launch)
    std::abort();
  return *launch;
}

// The last CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES the fake was given.
int lastFakeDynamicShared() {
  void *lib = ::dlopen(TESSEL_FAKE_CUDA_DEVICE, RTLD_NOW);
  auto get = lib ? reinterpret_cast<int (*)()>(::dlsym(lib, "fake_cuda_max_dynamic_shared"))
                 : nullptr;
  if (!get)
    std::abort();
  return get();
}

// A fake image declaring kernels with their parameter sizes.
std::vector<uint8_t> fakeImage(const std::string &kernels) {
  std::string text = "fake-cuda-module\n" + kernels;
  return std::vector<uint8_t>(text.begin(), text.end());
}

constexpr int64_t kN = 64;                 // a, b: 64x64xf16; c: 64x64xf32
constexpr uint64_t kHalfBytes = kN * kN * 2;

// mm(a, b) -> c through one dispatch of 3 bindings; executable 0 is cuda
// "mm_tma" for sm_90a with a map of a (binding 0) and of b (binding 1).
ModuleDesc tmaModule() {
  ModuleDesc m;
  ExecutableDesc cuda;
  cuda.target = "cuda";
  ExportDesc x{"mm_tma", {1, 1, 1}, 3, {128, 1, 1}, 0, {}};
  TensorMapDesc mapA, mapB;
  mapB.binding = 1;
  x.tensorMaps = {mapA, mapB};
  cuda.exports = {x};
  cuda.binaries.push_back(
      {"ptx", "sm_90a", {}, fakeImage("kernel mm_tma 8 8 8 128 128\n"), std::nullopt});
  m.executables.push_back(cuda);
  TensorType half{ElementType::f16, {kN, kN}}, f32{ElementType::f32, {kN, kN}};
  m.functions.push_back({"mm",
                         {half, half},
                         {f32},
                         {argumentSlot(0, kHalfBytes), argumentSlot(1, kHalfBytes),
                          transientSlot(f32.byteSize())},
                         {{0, {0, 1, 2}}},
                         {2}});
  return m;
}

// tmaModule plus executable 1: cuda "mm_simt" for sm_80 (PTX), no maps.
ModuleDesc twoArchModule() {
  ModuleDesc m = tmaModule();
  ExecutableDesc simt;
  simt.target = "cuda";
  simt.exports = {ExportDesc{"mm_simt", {1, 1, 1}, 3, {128, 1, 1}, 0, {}}};
  simt.binaries.push_back(
      {"ptx", "sm_80", {}, fakeImage("kernel mm_simt 8 8 8\n"), std::nullopt});
  m.executables.push_back(simt);
  return m;
}

class FakeCudaTest : public ::testing::Test {
protected:
  void TearDown() override {
    ::unsetenv("TESSEL_CUDA_ARCH");
    ::unsetenv("FAKE_CUDA_ALLOC_OFFSET");
  }
  // A stream-mode device of compute capability `cc` (e.g. 90).
  std::shared_ptr<Device> device(int cc = 90) {
    ::setenv("FAKE_CUDA_CC", std::to_string(cc).c_str(), 1);
    DeviceOptions options;
    options.cudaCommandBuffer = "stream"; // the fake has no graphs
    auto d = createDevice("cuda", options);
    EXPECT_TRUE(d.ok()) << d.status().toString();
    return d.ok() ? *d : nullptr;
  }
  // Loads `desc` on `dev` and calls mm once with zero inputs; the error
  // message, or "" on success.
  std::string call(const ModuleDesc &desc, const std::shared_ptr<Device> &dev) {
    auto m = Module::loadBytes(dev, buildModule(desc), "tma.tmod");
    if (!m.ok())
      return "load: " + m.status().message();
    HostTensor a = HostTensor::zeros(TensorType{ElementType::f16, {kN, kN}});
    auto out = (*m)->call("mm", {a, a});
    return out.ok() ? "" : out.status().message();
  }
};

uint64_t paramWord(const FakeCudaLaunch &l, int param, int word) {
  uint64_t v;
  std::memcpy(&v, l.param[param] + 8 * word, 8);
  return v;
}

} // namespace

TEST(TensorMapExtentTest, IsTheFarthestByte) {
  hal::TensorMapInfo m;
  m.dataType = 6; // f16
  m.globalDims = {64, 32};
  m.globalStrides = {256}; // padded rows
  uint64_t extent = 0;
  ASSERT_TRUE(hal::tensorMapExtent(m, &extent));
  EXPECT_EQ(extent, 31u * 256 + 63 * 2 + 2);
  m.globalDims = {100};
  m.globalStrides = {};
  ASSERT_TRUE(hal::tensorMapExtent(m, &extent));
  EXPECT_EQ(extent, 200u);
  m.globalDims = {uint64_t(1) << 32, uint64_t(1) << 32, uint64_t(1) << 32};
  m.globalStrides = {uint64_t(1) << 39, uint64_t(1) << 39};
  EXPECT_FALSE(hal::tensorMapExtent(m, &extent)) << "past 2^64";
  m.dataType = 13;
  m.globalDims = {1};
  m.globalStrides = {};
  EXPECT_FALSE(hal::tensorMapExtent(m, &extent)) << "unknown data type";
}

TEST_F(FakeCudaTest, MapsFollowTheBindingPointers) {
  auto dev = device(90);
  ASSERT_TRUE(dev);
  ASSERT_EQ(call(tmaModule(), dev), "");
  const FakeCudaLaunch &l = lastLaunch();
  EXPECT_STREQ(l.kernel, "mm_tma");
  ASSERT_EQ(l.numParams, 5u);
  EXPECT_EQ(l.block[0], 128u);
  for (int i = 3; i < 5; ++i) {
    SCOPED_TRACE("param " + std::to_string(i));
    EXPECT_EQ(l.paramAddress[i] % 128, 0u) << "map storage must be 128-byte aligned";
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_MAGIC), FAKE_CUDA_MAP_MAGIC);
    // Map i-3 describes binding i-3: its address is that pointer parameter.
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_ADDRESS), paramWord(l, i - 3, 0));
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_RANK), 2u);
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_DATA_TYPE), 6u);
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_DIMS), 64u);
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_DIMS + 1), 64u);
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_STRIDES), 128u);
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_BOX), 64u | 64u << 16);
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_ENUMS), 3u << 8); // swizzle 128B
  }
  EXPECT_NE(paramWord(l, 0, 0), paramWord(l, 1, 0));
  EXPECT_NE(paramWord(l, 2, 0), 0u);
}

// On a graph-mode device: a call of a program without Reads replays a
// recording kept by the function, so it builds a graph (which the fake
// lacks: the capture fails); a program that reads the device submits each
// segment once, on the stream (no graph: it works on the fake).
TEST_F(FakeCudaTest, GraphsOnlyForRecordedCalls) {
  ::setenv("FAKE_CUDA_CC", "90", 1);
  DeviceOptions options;
  options.cudaCommandBuffer = "graph";
  auto dev = createDevice("cuda", options);
  ASSERT_TRUE(dev.ok()) << dev.status().toString();
  EXPECT_NE(call(tmaModule(), *dev).find("cuStreamBeginCapture failed"), std::string::npos);

  ModuleDesc m = tmaModule();
  FunctionDesc &mm = m.functions[0];
  ProgramDesc p;
  p.intRegisters = 2;
  p.bufferRegisters = 4;
  auto op = [](fb::Opcode o, std::vector<int64_t> operands) {
    return InstructionDesc{static_cast<uint8_t>(o), std::move(operands)};
  };
  p.instructions = {op(fb::Opcode_Argument, {0, 0}), op(fb::Opcode_Argument, {1, 1}),
                    op(fb::Opcode_Int, {0, kN * kN * 4}), op(fb::Opcode_Alloc, {2, 0}),
                    op(fb::Opcode_Dispatch, {0, 0, 1, 2}),
                    op(fb::Opcode_Store, {3, 0, fb::ElementType_i8}),
                    op(fb::Opcode_Int, {1, 0}),
                    op(fb::Opcode_Read, {1, 3, 1, fb::ElementType_i8}),
                    op(fb::Opcode_Return, {2})};
  mm.program = p;
  mm.slots.clear();
  mm.dispatches.clear();
  mm.resultSlots.clear();
  EXPECT_EQ(call(m, *dev), "") << "a program with a Read runs its segments on the stream";
}

// tmaModule with mm as a host program that passes `pushConstants` to its
// one dispatch (int registers 1..n); the kernel takes them after the three
// binding pointers, then its two maps.
static ModuleDesc pushConstantModule(const std::vector<int64_t> &pushConstants) {
  ModuleDesc m = tmaModule();
  size_t n = pushConstants.size();
  m.executables[0].exports[0].pushConstantCount = static_cast<uint32_t>(n);
  std::string params = "kernel mm_tma 8 8 8";
  for (size_t i = 0; i < n; ++i)
    params += " 8";
  m.executables[0].binaries[0].data = fakeImage(params + " 128 128\n");
  auto op = [](fb::Opcode o, std::vector<int64_t> operands) {
    return InstructionDesc{static_cast<uint8_t>(o), std::move(operands)};
  };
  ProgramDesc p;
  p.intRegisters = static_cast<uint32_t>(n + 1);
  p.bufferRegisters = 3;
  p.instructions = {op(fb::Opcode_Argument, {0, 0}), op(fb::Opcode_Argument, {1, 1}),
                    op(fb::Opcode_Int, {0, kN * kN * 4}), op(fb::Opcode_Alloc, {2, 0})};
  std::vector<int64_t> dispatch = {0, 0, 1, 2};
  for (size_t i = 0; i < n; ++i) {
    p.instructions.push_back(op(fb::Opcode_Int, {int64_t(i + 1), pushConstants[i]}));
    dispatch.push_back(int64_t(i + 1));
  }
  p.instructions.push_back(op(fb::Opcode_Dispatch, dispatch));
  p.instructions.push_back(op(fb::Opcode_Return, {2}));
  FunctionDesc &mm = m.functions[0];
  mm.program = p;
  mm.slots.clear();
  mm.dispatches.clear();
  mm.resultSlots.clear();
  return m;
}

// Schema version 7: push constants are int64 parameters after the binding
// pointers and before the tensor maps.
TEST_F(FakeCudaTest, PushConstantsFollowTheBindingPointers) {
  ModuleDesc m = pushConstantModule({77, -5});
  ASSERT_EQ(call(m, device(90)), "");
  const FakeCudaLaunch &l = lastLaunch();
  ASSERT_EQ(l.numParams, 7u);
  EXPECT_EQ(paramWord(l, 3, 0), 77u);
  EXPECT_EQ(paramWord(l, 4, 0), uint64_t(-5));
  for (int i = 5; i < 7; ++i) {
    SCOPED_TRACE("param " + std::to_string(i));
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_MAGIC), FAKE_CUDA_MAP_MAGIC);
    EXPECT_EQ(paramWord(l, i, FAKE_MAP_ADDRESS), paramWord(l, i - 5, 0));
  }
  EXPECT_NE(paramWord(l, 2, 0), 0u);
}

// Schema version 8: a tensor map dimension taken from a push constant is
// that dispatch's value when the map is encoded; one out of TMA's range is
// an error naming the map, the dimension and the push constant.
TEST_F(FakeCudaTest, MapDimensionsFromPushConstants) {
  auto run = [&](int64_t rows) {
    ModuleDesc m = pushConstantModule({rows});
    TensorMapDesc &a = m.executables[0].exports[0].tensorMaps[0];
    a.globalDimPushConstants = {-1, 0}; // a's rows
    a.globalDims = {64, 1};
    return call(m, device(90));
  };
  ASSERT_EQ(run(37), "");
  const FakeCudaLaunch &l = lastLaunch();
  ASSERT_EQ(l.numParams, 6u);
  EXPECT_EQ(paramWord(l, 4, FAKE_MAP_DIMS + 0), uint64_t(kN));
  EXPECT_EQ(paramWord(l, 4, FAKE_MAP_DIMS + 1), 37u);
  EXPECT_EQ(paramWord(l, 5, FAKE_MAP_DIMS + 1), uint64_t(kN));
  EXPECT_EQ(run(-3), "function 'mm': dispatch 0: dispatch of 'mm_tma' tensor map 0: dimension 1 "
                     "is -3 (push constant 0), not in 1 to 2^32");
}

TEST_F(FakeCudaTest, MapOfTheResultBinding) {
  ModuleDesc desc = tmaModule();
  TensorMapDesc c;
  c.binding = 2;
  c.dataType = 7; // f32
  c.globalStrides = {256};
  c.boxDims = {32, 64};
  desc.executables[0].exports[0].tensorMaps = {c};
  desc.executables[0].binaries[0].data = fakeImage("kernel mm_tma 8 8 8 128\n");
  ASSERT_EQ(call(desc, device(90)), "");
  const FakeCudaLaunch &l = lastLaunch();
  ASSERT_EQ(l.numParams, 4u);
  EXPECT_EQ(paramWord(l, 3, FAKE_MAP_ADDRESS), paramWord(l, 2, 0));
  EXPECT_EQ(paramWord(l, 3, FAKE_MAP_STRIDES), 256u);
}

TEST_F(FakeCudaTest, MapLargerThanItsBufferIsRefused) {
  ModuleDesc desc = tmaModule();
  desc.executables[0].exports[0].tensorMaps[0].globalDims = {64, 128};
  EXPECT_EQ(call(desc, device(90)),
            "function 'mm': dispatch 0: dispatch of 'mm_tma' tensor map 0 spans 16384 bytes of binding 0 but its buffer "
            "has 8192 bytes");
}

TEST_F(FakeCudaTest, DriverErrorNamesKernelAndMap) {
  // A 128-element f16 row (256 bytes) does not fit the 128-byte swizzle.
  ModuleDesc desc = tmaModule();
  desc.executables[0].exports[0].tensorMaps[1].boxDims = {128, 64};
  EXPECT_EQ(call(desc, device(90)),
            "function 'mm': dispatch 0: cuda: cuTensorMapEncodeTiled for tensor map 1 of "
            "'mm_tma' (binding 1) failed: "
            "CUDA_ERROR_INVALID_VALUE (invalid argument)");
}

TEST_F(FakeCudaTest, MisalignedAddressIsRefused) {
  auto dev = device(90);
  ::setenv("FAKE_CUDA_ALLOC_OFFSET", "8", 1);
  EXPECT_EQ(call(tmaModule(), dev),
            "function 'mm': dispatch 0: dispatch of 'mm_tma' binding 0: address not 16-byte "
            "aligned for TMA (tensor map 0)");
}

TEST_F(FakeCudaTest, Sm90aExecutableFirstOnHopper) {
  ASSERT_EQ(call(twoArchModule(), device(90)), "");
  EXPECT_STREQ(lastLaunch().kernel, "mm_tma");
  auto text = Module::describeBytes(buildModule(twoArchModule()), "tma.tmod", device(90).get());
  ASSERT_TRUE(text.ok()) << text.status().toString();
  EXPECT_CONTAINS(*text, "  export 0: mm_tma, workgroups 1x1x1, 3 bindings, workgroup size "
                         "128x1x1, 2 tensor maps\n");
  EXPECT_CONTAINS(*text, "cuda device: cuda (Fake CUDA device, sm_90, stream command buffers)\n"
                         "  would load: executable 0 (ptx sm_90a (JIT for sm_90))\n");
}

TEST_F(FakeCudaTest, OtherArchsSkipTheSm90aExecutable) {
  for (int cc : {80, 89, 100}) {
    SCOPED_TRACE("cc " + std::to_string(cc));
    auto dev = device(cc);
    ASSERT_EQ(call(twoArchModule(), dev), "");
    EXPECT_STREQ(lastLaunch().kernel, "mm_simt");
    auto text = Module::describeBytes(buildModule(twoArchModule()), "tma.tmod", dev.get());
    ASSERT_TRUE(text.ok()) << text.status().toString();
    std::string arch = "sm_" + std::to_string(cc);
    EXPECT_CONTAINS(*text, "  would load: executable 1 (ptx sm_80 (JIT for " + arch + "))\n");
    EXPECT_CONTAINS(*text, "  skipped executable 0 (cuda): ");
  }
}

TEST_F(FakeCudaTest, Sm90aOnlyModuleIsRefusedElsewhere) {
  ModuleDesc desc = tmaModule();
  desc.executables[0].exports[0].tensorMaps.clear();
  desc.executables[0].binaries[0].data = fakeImage("kernel mm_tma 8 8 8\n");
  desc.executables[0].binaries.push_back(
      {"cubin", "sm_90a", {}, fakeImage("kernel mm_tma 8 8 8\n"), std::nullopt});
  EXPECT_EQ(call(desc, device(100)),
            "load: module file 'tma.tmod': executable '0 (cuda)': built only for sm_90a: arch-specific code runs only on "
            "that exact compute capability, and this device is sm_100 (binaries: ptx sm_90a, "
            "cubin sm_90a)");
  // With tensor maps the reason is the missing TMA.
  EXPECT_EQ(call(tmaModule(), device(80)),
            "load: module file 'tma.tmod': executable '0 (cuda)': export 'mm_tma' takes TMA tensor maps, which need "
            "compute capability 9.0 or newer, and this device is sm_80");
}

TEST_F(FakeCudaTest, ArchOverrideSelectsTheExecutable) {
  auto dev = device(90);
  ::setenv("TESSEL_CUDA_ARCH", "sm_80", 1);
  ASSERT_EQ(call(twoArchModule(), dev), "");
  EXPECT_STREQ(lastLaunch().kernel, "mm_simt");
  auto text = Module::describeBytes(buildModule(twoArchModule()), "tma.tmod", dev.get());
  ASSERT_TRUE(text.ok());
  EXPECT_CONTAINS(*text, "  skipped executable 0 (cuda): no binary for "
                         "TESSEL_CUDA_ARCH=sm_80 (binaries: ptx sm_90a)\n"
                         "  would load: executable 1 (ptx sm_80 (JIT for sm_90))\n");

  ::setenv("TESSEL_CUDA_ARCH", "sm_90a", 1);
  ASSERT_EQ(call(twoArchModule(), dev), "");
  EXPECT_STREQ(lastLaunch().kernel, "mm_tma");

  ::setenv("TESSEL_CUDA_ARCH", "sm_100", 1);
  EXPECT_EQ(call(twoArchModule(), dev),
            "load: module file 'tma.tmod': none of its 2 cuda executables loads: executable '0 "
            "(cuda)': TESSEL_CUDA_ARCH=sm_100 is newer than this sm_90 device: its code cannot "
            "run here; executable '1 (cuda)': TESSEL_CUDA_ARCH=sm_100 is newer than this sm_90 "
            "device: its code cannot run here");

  ::setenv("TESSEL_CUDA_ARCH", "sm_75", 1);
  EXPECT_CONTAINS(call(twoArchModule(), dev),
                  "executable '1 (cuda)': no binary for TESSEL_CUDA_ARCH=sm_75 "
                  "(binaries: ptx sm_80)");

  ::setenv("TESSEL_CUDA_ARCH", "ampere", 1);
  auto bad = Module::loadBytes(dev, buildModule(twoArchModule()), "tma.tmod");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_CONTAINS(bad.status().message(),
                  "TESSEL_CUDA_ARCH='ampere' is not a CUDA arch like sm_80 or sm_90a");
}

// The choice itself, without a device: cubin for the exact arch first, PTX
// not newer than the device, sm_90a only on 9.0.
// CUDA C kernels (abi CudaC): CommandBuffer::launch passes the grid, block,
// dynamic shared memory and a pointer to each recorded parameter value to
// cuLaunchKernel, and opts in above 48 KiB of shared memory.
TEST_F(FakeCudaTest, CudaCLaunchPassesTheParameterValues) {
  auto dev = device(90);
  ASSERT_TRUE(dev);
  ModuleDesc m;
  ExecutableDesc cuda;
  cuda.target = "cuda";
  cuda.exports = {cudaCExport("_Z4axpbPfPKfifx", {8, 8, 4, 4, 8}), cudaCExport("_Z5emptyv", {})};
  cuda.binaries.push_back(
      {"ptx", "sm_80", {}, fakeImage("kernel _Z4axpbPfPKfifx 8 8 4 4 8\nkernel _Z5emptyv\n"),
       std::nullopt});
  m.executables = {cuda};
  auto exe = detail::loadKernelExecutable(*dev, buildModule(m), "cuda_c.tmod");
  ASSERT_TRUE(exe.ok()) << exe.status().toString();
  auto out = dev->hal().allocate(64), in = dev->hal().allocate(64);
  ASSERT_TRUE(out.ok() && in.ok());
  auto bytes = [](auto v) {
    std::vector<uint8_t> b(sizeof(v));
    std::memcpy(b.data(), &v, sizeof(v));
    return b;
  };
  std::vector<std::vector<uint8_t>> params = {bytes((*out)->deviceAddress()),
                                              bytes((*in)->deviceAddress()), bytes(int32_t(-3)),
                                              bytes(0.5f), bytes(int64_t(1) << 40)};
  auto cb = dev->hal().createCommandBuffer();
  hal::LaunchConfig config{{7, 2, 3}, {32, 4, 2}, 100 * 1024};
  ASSERT_TRUE(cb->launch(**exe, 0, config, params).ok());
  params[2] = bytes(int32_t(99)); // recorded values are copies
  EXPECT_EQ(lastFakeDynamicShared(), 100 * 1024) << "above 48 KiB the kernel must opt in";
  ASSERT_TRUE(dev->hal().submitAndWait(*cb).ok());
  const FakeCudaLaunch &l = lastLaunch();
  EXPECT_STREQ(l.kernel, "_Z4axpbPfPKfifx");
  EXPECT_EQ(std::vector<unsigned>(l.grid, l.grid + 3), (std::vector<unsigned>{7, 2, 3}));
  EXPECT_EQ(std::vector<unsigned>(l.block, l.block + 3), (std::vector<unsigned>{32, 4, 2}));
  EXPECT_EQ(l.sharedBytes, 100u * 1024);
  ASSERT_EQ(l.numParams, 5u);
  EXPECT_EQ(paramWord(l, 0, 0), (*out)->deviceAddress());
  EXPECT_EQ(paramWord(l, 1, 0), (*in)->deviceAddress());
  int32_t a;
  float b;
  std::memcpy(&a, l.param[2], 4);
  std::memcpy(&b, l.param[3], 4);
  EXPECT_EQ(a, -3);
  EXPECT_EQ(b, 0.5f);
  EXPECT_EQ(paramWord(l, 4, 0), uint64_t(1) << 40);

  // No parameters: kernelParams may be empty.
  auto cb2 = dev->hal().createCommandBuffer();
  ASSERT_TRUE(cb2->launch(**exe, 1, {{1, 1, 1}, {1, 1, 1}, 0}, {}).ok());
  ASSERT_TRUE(dev->hal().submitAndWait(*cb2).ok());
  EXPECT_STREQ(lastLaunch().kernel, "_Z5emptyv");

  // More shared memory than the device's opt-in limit (227 KiB on the fake).
  Status s = cb2->launch(**exe, 1, {{1, 1, 1}, {1, 1, 1}, 240000}, {});
  EXPECT_CONTAINS(s.message(), "launch of '_Z5emptyv': 240000 bytes of dynamic shared memory "
                               "(+0 static) but Fake CUDA device allows 232448 per block");
}

// A persistent grid (resident_blocks_per_sm) is launched no larger than the
// device holds at once: the fake's 108 SMs times the smaller of the blocks
// per SM the kernel asks for and the driver's occupancy, at most
// TESSEL_CUDA_SM_LIMIT SMs; a kernel no SM holds is refused when loaded.
TEST_F(FakeCudaTest, PersistentGridsFitTheDevice) {
  auto launchedGrid = [&](uint32_t compiled, uint32_t perSm) -> std::string {
    auto dev = device(90);
    if (!dev)
      return "no device";
    ModuleDesc m;
    ExecutableDesc cuda;
    cuda.target = "cuda";
    ExportDesc persistent{"persistent", {compiled, 1, 1}, 0, {256, 1, 1}, 0, {}};
    persistent.residentBlocksPerSm = perSm;
    cuda.exports = {persistent};
    cuda.binaries.push_back(
        {"ptx", "sm_90a", {}, fakeImage("kernel persistent\n"), std::nullopt});
    m.executables = {cuda};
    auto exe = detail::loadKernelExecutable(*dev, buildModule(m), "persistent.tmod");
    if (!exe.ok())
      return exe.status().message();
    auto cb = dev->hal().createCommandBuffer();
    Status s = cb->dispatch(**exe, 0, {compiled, 1, 1}, {}, {});
    if (s.ok())
      s = dev->hal().submitAndWait(*cb);
    return s.ok() ? std::to_string(lastLaunch().grid[0]) : s.message();
  };
  EXPECT_EQ(launchedGrid(528, 4), "432") << "108 SMs x 4";
  EXPECT_EQ(launchedGrid(300, 4), "300") << "never more than compiled";
  EXPECT_EQ(launchedGrid(528, 0), "528") << "not persistent: as compiled";
  ::setenv("FAKE_CUDA_OCCUPANCY", "3", 1);
  EXPECT_EQ(launchedGrid(528, 4), "324") << "the SM holds 3";
  ::setenv("TESSEL_CUDA_SM_LIMIT", "5", 1);
  EXPECT_EQ(launchedGrid(528, 4), "15") << "5 SMs x 3";
  ::setenv("TESSEL_CUDA_SM_LIMIT", "500", 1);
  EXPECT_EQ(launchedGrid(528, 1), "108") << "the limit only lowers";
  ::unsetenv("TESSEL_CUDA_SM_LIMIT");
  ::setenv("FAKE_CUDA_OCCUPANCY", "0", 1);
  EXPECT_CONTAINS(launchedGrid(528, 4),
                  "export 'persistent': a persistent grid of 256-thread blocks with 0 bytes "
                  "of dynamic shared memory, but Fake CUDA device holds no such block on an SM");
  ::unsetenv("FAKE_CUDA_OCCUPANCY");

  ::setenv("TESSEL_CUDA_SM_LIMIT", "0", 1);
  DeviceOptions options;
  options.cudaCommandBuffer = "stream";
  auto bad = createDevice("cuda", options);
  ::unsetenv("TESSEL_CUDA_SM_LIMIT");
  ASSERT_FALSE(bad.ok());
  EXPECT_CONTAINS(bad.status().message(),
                  "TESSEL_CUDA_SM_LIMIT must be a positive number of SMs, got '0'");
}

TEST_F(FakeCudaTest, AttributesAndMemoryInfoComeFromTheDriver) {
  auto dev = device(86);
  ASSERT_TRUE(dev);
  const hal::Device &d = dev->hal();
  // cuDeviceGetAttribute, by cudaDeviceAttr number (the fake's A100-like
  // values; the compute capability from FAKE_CUDA_CC).
  EXPECT_EQ(d.cudaAttribute(16), std::optional<int>(108)); // multiprocessors
  EXPECT_EQ(d.cudaAttribute(10), std::optional<int>(32));  // warp size
  EXPECT_EQ(d.cudaAttribute(38), std::optional<int>(40 << 20)); // L2
  EXPECT_EQ(d.cudaAttribute(75), std::optional<int>(8));
  EXPECT_EQ(d.cudaAttribute(76), std::optional<int>(6));
  EXPECT_EQ(d.cudaAttribute(9999), std::nullopt) << "the driver refuses it";
  EXPECT_EQ(d.cudaAttribute(0), std::nullopt);

  // cuMemGetInfo: 80 GiB, less what is allocated.
  uint64_t free = 0, total = 0, freeAfter = 0;
  ASSERT_TRUE(d.memoryInfo(&free, &total).ok());
  EXPECT_EQ(total, uint64_t(80) << 30);
  EXPECT_LE(free, total);
  uint64_t address = 0;
  {
    auto b = dev->hal().allocate(5 << 20);
    ASSERT_TRUE(b.ok());
    address = (*b)->deviceAddress();
    ASSERT_TRUE(d.memoryInfo(&freeAfter, &total).ok());
    EXPECT_EQ(free - freeAfter, uint64_t(5) << 20);
  }
  // The freed block is kept for reuse and counts as free.
  ASSERT_TRUE(d.memoryInfo(&freeAfter, &total).ok());
  EXPECT_EQ(freeAfter, free);
  {
    auto again = dev->hal().allocate((5 << 20) - 1000); // the same size class
    ASSERT_TRUE(again.ok());
    EXPECT_EQ((*again)->deviceAddress(), address) << "no new cuMemAlloc";
    EXPECT_EQ((*again)->size(), size_t(5 << 20) - 1000);
  }

  // Within a memory limit.
  ::setenv("FAKE_CUDA_CC", "90", 1);
  DeviceOptions options;
  options.cudaCommandBuffer = "stream";
  options.memoryLimit = 3 << 20;
  auto limited = createDevice("cuda", options);
  ASSERT_TRUE(limited.ok()) << limited.status().toString();
  auto b = (*limited)->hal().allocate(1 << 20);
  ASSERT_TRUE(b.ok());
  ASSERT_TRUE((*limited)->hal().memoryInfo(&free, &total).ok());
  EXPECT_EQ(total, uint64_t(3) << 20);
  EXPECT_EQ(free, uint64_t(2) << 20);
}

TEST(ChooseBinariesTest, Rules) {
  auto spec = [](std::vector<std::pair<std::string, std::string>> binaries) {
    hal::ExecutableSpec s;
    s.name = "0 (cuda)";
    s.target = "cuda";
    for (auto &[format, arch] : binaries) {
      hal::BinaryInfo b;
      b.format = format;
      b.arch = arch;
      s.binaries.push_back(b);
    }
    return s;
  };
  auto choose = [](const hal::ExecutableSpec &s, int major, int minor,
                   const std::string &override = "") {
    auto c = hal::cuda::describeChoice(s, major, minor, override);
    return c.ok() ? *c : "error: " + c.status().message();
  };
  auto both = spec({{"ptx", "sm_80"}, {"cubin", "sm_90a"}, {"cubin", "sm_80"}});
  EXPECT_EQ(choose(both, 9, 0), "cubin sm_90a");
  EXPECT_EQ(choose(both, 8, 0), "cubin sm_80");
  EXPECT_EQ(choose(both, 8, 6), "ptx sm_80 (JIT for sm_86)");
  EXPECT_EQ(choose(both, 9, 0, "sm_80"), "ptx sm_80 (JIT for sm_90)");
  EXPECT_EQ(choose(both, 7, 5), "error: no cubin for sm_75 and no ptx for sm_75 or older "
                                "(binaries: ptx sm_80, cubin sm_90a, cubin sm_80)");
  EXPECT_EQ(choose(spec({{"ptx", "sm_90a"}}), 9, 0), "ptx sm_90a (JIT for sm_90)");
  EXPECT_EQ(choose(spec({{"ptx", "sm_90"}, {"ptx", "sm_90a"}}), 9, 0),
            "ptx sm_90a (JIT for sm_90)");
  EXPECT_EQ(choose(spec({{"ptx", "sm_90"}, {"ptx", "sm_90a"}}), 12, 0),
            "ptx sm_90 (JIT for sm_120)");
  EXPECT_EQ(choose(spec({{"cubin", "sm_80"}}), 9, 0, "sm_80"),
            "error: no sm_80 binary runs on this sm_90 device (a cubin must match the device's "
            "arch exactly) (binaries: cubin sm_80)");
  EXPECT_EQ(choose(spec({{"ptx", "sm_80"}}), 9, 0, "compute_80"),
            "error: TESSEL_CUDA_ARCH='compute_80' is not a CUDA arch like sm_80 or sm_90a");
  EXPECT_EQ(choose(spec({{"ptx", "sm_80"}}), 9, 0, "sm_8\n0\x1b"),
            "error: TESSEL_CUDA_ARCH='sm_8?0?' is not a CUDA arch like sm_80 or sm_90a");
}
