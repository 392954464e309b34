// Writes the .tmod files used by the tessel-run tests (tessel_run_test.py):
//   OUTDIR/add.tmod    one function: add(2x3xf32, 2x3xf32) -> 2x3xf32
//   OUTDIR/multi.tmod  add(2x3xf32, 2x3xf32) -> 2x3xf32 and
//                      add_scale(7xf32, 7xf32) -> (7xf32 (a+b)*2, 7xf32 a+b)
//   OUTDIR/dual.tmod   add(2x3xf32, 2x3xf32) -> 2x3xf32 with a cpu and a cuda
//                      executable (the CTS kernels' PTX), so that
//                      tessel-run's default device tries cuda first
//   OUTDIR/big.tmod    add(4194304xf32, 4194304xf32): a call takes
//                      milliseconds (16 MiB per tensor), for tests that
//                      signal a running tessel-run
//   OUTDIR/tma.tmod    mm(64x64xf16, 64x64xf16) -> 64x64xf32 with two cuda
//                      executables for the fake device of
//                      fake_cuda/fake_cuda_device.c: 0 for sm_90a with two
//                      tensor maps, 1 for sm_80 without
//   OUTDIR/variants.tmod add(2x3xf32, 2x3xf32) -> 2x3xf32 with two cpu
//                      executables as --cpu=x86-64-v4,x86-64-v3 orders
//                      them: 0 needs avx512f and adds; 1 needs sse4.2 and
//                      runs scale_f32 on the same bindings (b * a[0]), so
//                      that the result shows which one loaded
#include "test_module_builder.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <exception>

using namespace tessel::rt::testutil;

static bool write(const std::string &path, const std::vector<uint8_t> &bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = f && std::fclose(f) == 0 && ok;
  if (!ok)
    std::fprintf(stderr, "make_test_module: cannot write '%s'\n", path.c_str());
  return ok;
}

// The cpu executable of `m` plus a cuda one with the same exports, holding
// the CTS kernels as PTX (same names, bindings and 64 elements per workgroup).
static void addCudaExecutable(ModuleDesc &m) {
  std::ifstream in(TESSEL_CTS_PTX_PATH, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot open " TESSEL_CTS_PTX_PATH);
  ExecutableDesc cuda;
  cuda.target = "cuda";
  cuda.exports = m.executables.at(0).exports;
  for (ExportDesc &x : cuda.exports)
    x.workgroupSize = {static_cast<uint32_t>(kKernelWorkgroupSize), 1, 1};
  BinaryDesc ptx;
  ptx.format = "ptx";
  ptx.arch = "sm_80";
  ptx.data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  cuda.binaries.push_back(std::move(ptx));
  m.executables.push_back(std::move(cuda));
}

// A text image for fake_cuda_device.c: kernel NAME and its parameter sizes.
static std::vector<uint8_t> fakeImage(const std::string &kernel) {
  std::string text = "fake-cuda-module\nkernel " + kernel + "\n";
  return std::vector<uint8_t>(text.begin(), text.end());
}

static ModuleDesc tmaModule() {
  ModuleDesc m;
  ExecutableDesc hopper, other;
  hopper.target = other.target = "cuda";
  TensorMapDesc a, b; // 64x64 f16, 64x64 boxes, 128B swizzle
  b.binding = 1;
  hopper.exports = {ExportDesc{"mm_tma", {1, 1, 1}, 3, {128, 1, 1}, 0, {a, b}}};
  hopper.binaries.push_back(
      {"ptx", "sm_90a", {}, fakeImage("mm_tma 8 8 8 128 128"), std::nullopt});
  other.exports = {ExportDesc{"mm_simt", {1, 1, 1}, 3, {128, 1, 1}, 0, {}}};
  other.binaries.push_back({"ptx", "sm_80", {}, fakeImage("mm_simt 8 8 8"), std::nullopt});
  m.executables = {hopper, other};
  tessel::rt::TensorType half{tessel::rt::ElementType::f16, {64, 64}},
      f32{tessel::rt::ElementType::f32, {64, 64}};
  m.functions.push_back({"mm",
                         {half, half},
                         {f32},
                         {argumentSlot(0, half.byteSize()), argumentSlot(1, half.byteSize()),
                          transientSlot(f32.byteSize())},
                         {{0, {0, 1, 2}}},
                         {2}});
  return m;
}

static ModuleDesc variantsModule() {
  ModuleDesc m = testModule();
  addAddFunction(m, "add", {2, 3});
  ExecutableDesc v3 = m.executables.at(0);
  BinaryDesc &v4Binary = m.executables[0].binaries.at(0);
  v4Binary.cpu = "x86-64-v4";
  v4Binary.features = {"avx2", "avx512f"};
  v3.exports.at(0).name = "scale_f32";
  v3.binaries.at(0).cpu = "x86-64-v3";
  v3.binaries.at(0).features = {"sse4.2"};
  m.executables.push_back(std::move(v3));
  return m;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_test_module OUTDIR\n");
    return 2;
  }
  try {
    std::string dir = argv[1];
    ModuleDesc single = testModule();
    addAddFunction(single, "add", {2, 3});
    ModuleDesc multi = testModule();
    addAddFunction(multi, "add", {2, 3});
    addAddScaleFunction(multi, "add_scale", 7, 2.0f);
    ModuleDesc dual = testModule();
    addAddFunction(dual, "add", {2, 3});
    addCudaExecutable(dual);
    ModuleDesc big = testModule();
    addAddFunction(big, "add", {4194304});
    return write(dir + "/add.tmod", buildModule(single)) &&
                   write(dir + "/multi.tmod", buildModule(multi)) &&
                   write(dir + "/dual.tmod", buildModule(dual)) &&
                   write(dir + "/big.tmod", buildModule(big)) &&
                   write(dir + "/tma.tmod", buildModule(tmaModule())) &&
                   write(dir + "/variants.tmod", buildModule(variantsModule()))
               ? 0
               : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "make_test_module: %s\n", e.what());
    return 1;
  }
}
