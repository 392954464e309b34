// Tessel's CUDA runtime library (cudart/cudart.cpp) as a CUDA program's host
// code sees it: a BLOB around a module of CUDA C cpu kernels (the test kernel
// library) is registered with __cudaRegisterFatBinary and
// __cudaRegisterFunction against fake host stubs, exactly as clang's module
// constructor does, and kernels are launched as clang's stubs launch them
// (__cudaPushCallConfiguration, __cudaPopCallConfiguration,
// cudaLaunchKernel). Results are checked against host computations on
// random data of odd sizes; errors against their codes and the message
// printed on stderr. Registration is process-wide, so the tests that break
// it (bad blobs, bad TESSEL_DEVICE) run in a child process (death tests).
#include "cudart_api.h"
#include "fake_cuda.h"
#include "hal/cpu/thread_pool.h"
#include "tessel/runtime/device.h"
#include "test_module_builder.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <vector>

using namespace tessel::rt::testutil;
using namespace tessel::cudart;

namespace {

#define EXPECT_CONTAINS(haystack, needle)                                                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

// Host stubs: only their addresses matter (clang registers the address of
// each kernel's __device_stub__ function).
char stubAxpb, stubInfo, stubMissing, stubUnregistered;
char hostVariable[16];

const char *kAxpb = "_Z4axpbPfPKfifx"; // axpb(float*, float const*, int, float, long long)

ModuleDesc kernelModule() {
  ModuleDesc m = testModule();
  m.executables[0].exports = {cudaCExport(kAxpb, {8, 8, 4, 4, 8}),
                              cudaCExport("launch_info_cuda_c", {8, 1})};
  return m;
}

std::vector<uint8_t> &goodBlob() {
  static std::vector<uint8_t> blob = cudaBlob(buildModule(kernelModule()));
  return blob;
}

// Registers a fat binary whose data is `blob` (wrapper fields overridable).
void **registerBlob(const void *data, int32_t magic = kFatBinaryWrapperMagic,
                    int32_t version = kFatBinaryWrapperVersion) {
  // Static storage: the library keeps nothing but reads it at registration;
  // the host code's wrapper is a constant of the program anyway.
  static std::vector<FatBinaryWrapper> *wrappers = new std::vector<FatBinaryWrapper>();
  wrappers->reserve(16);
  wrappers->push_back(FatBinaryWrapper{magic, version, data, nullptr});
  return __cudaRegisterFatBinary(&wrappers->back());
}

void registerKernel(void **handle, const void *stub, const char *name) {
  std::string copy = name;
  __cudaRegisterFunction(handle, static_cast<const char *>(stub), copy.data(), copy.data(), -1,
                         nullptr, nullptr, nullptr, nullptr, nullptr);
}

// What clang's module constructor does for this "program": one fat binary,
// three kernels (one of them missing from the module) and a variable.
class Registration : public ::testing::Environment {
public:
  void SetUp() override {
    ::unsetenv("TESSEL_DEVICE");
    void **handle = registerBlob(goodBlob().data());
    registerKernel(handle, &stubAxpb, kAxpb);
    registerKernel(handle, &stubInfo, "launch_info_cuda_c");
    registerKernel(handle, &stubMissing, "_Z7missingv");
    std::string name = "table";
    __cudaRegisterVar(handle, hostVariable, name.data(), name.data(), 0, sizeof(hostVariable), 0,
                      0);
    __cudaRegisterFatBinaryEnd(handle);
  }
};
const auto *const kRegistration = ::testing::AddGlobalTestEnvironment(new Registration);

// `kernel<<<grid, block, shared, stream>>>(args...)` as clang compiles it.
Error launch(const void *stub, Dim3 grid, Dim3 block, std::vector<void *> args,
             size_t shared = 0, Stream stream = nullptr) {
  if (__cudaPushCallConfiguration(grid, block, shared, stream) != 0)
    return -1;
  Dim3 g, b;
  size_t s;
  void *st;
  __cudaPopCallConfiguration(&g, &b, &s, &st);
  return cudaLaunchKernel(stub, g, b, args.data(), s, static_cast<Stream>(st));
}

template <typename T> T *deviceAlloc(size_t count) {
  void *p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, count * sizeof(T)), kSuccess);
  return static_cast<T *>(p);
}

// Runs `body` and returns what it printed on stderr.
template <typename F> std::string stderrOf(F body) {
  ::testing::internal::CaptureStderr();
  body();
  return ::testing::internal::GetCapturedStderr();
}

std::vector<float> randomIntegers(std::mt19937 &rng, size_t n) {
  std::uniform_int_distribution<int> dist(-1000, 1000);
  std::vector<float> v(n);
  for (float &x : v)
    x = static_cast<float>(dist(rng));
  return v;
}

} // namespace

TEST(Cudart, AxpbMatchesTheHost) {
  std::mt19937 rng(7);
  struct Case {
    Dim3 grid, block;
    long long missing; // threads without an element
  } cases[] = {{{7, 1, 1}, {33, 1, 1}, 5},
               {{3, 5, 2}, {5, 3, 7}, 0},
               {{1001, 1, 1}, {1, 1, 1}, 1},
               {{2, 3, 1}, {1024, 1, 1}, 1000},
               {{1, 1, 1}, {1, 1, 1}, 0}};
  for (const Case &c : cases) {
    long long n = (long long)c.grid.x * c.grid.y * c.grid.z * c.block.x * c.block.y * c.block.z -
                  c.missing;
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<float> in = randomIntegers(rng, n), out(n + 1);
    int a = static_cast<int>(rng() % 17) - 8;
    float b = 0.25f;
    float *dIn = deviceAlloc<float>(n), *dOut = deviceAlloc<float>(n + 1);
    ASSERT_EQ(cudaMemcpy(dIn, in.data(), n * 4, kMemcpyHostToDevice), kSuccess);
    ASSERT_EQ(cudaMemset(dOut, 0xFF, (n + 1) * 4), kSuccess);
    ASSERT_EQ(launch(&stubAxpb, c.grid, c.block, {&dOut, &dIn, &a, &b, &n}), kSuccess);
    ASSERT_EQ(cudaGetLastError(), kSuccess);
    ASSERT_EQ(cudaMemcpy(out.data(), dOut, (n + 1) * 4, kMemcpyDeviceToHost), kSuccess);
    for (long long i = 0; i < n; ++i)
      ASSERT_EQ(out[i], static_cast<float>(a) * in[i] + b) << "element " << i;
    uint32_t tail;
    std::memcpy(&tail, &out[n], 4);
    EXPECT_EQ(tail, 0xFFFFFFFFu) << "written past n";
    EXPECT_EQ(cudaFree(dIn), kSuccess);
    EXPECT_EQ(cudaFree(dOut), kSuccess);
  }
}

TEST(Cudart, EveryBlockSeesItsLaunch) {
  Dim3 grid{3, 2, 5}, block{4, 3, 2};
  const size_t blocks = 30, shared = 12345;
  int64_t *out = deviceAlloc<int64_t>(blocks * 7);
  char tag = 3;
  Stream stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), kSuccess);
  ASSERT_EQ(launch(&stubInfo, grid, block, {&out, &tag}, shared, stream), kSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), kSuccess);
  std::vector<int64_t> got(blocks * 7);
  ASSERT_EQ(cudaMemcpyAsync(got.data(), out, got.size() * 8, kMemcpyDefault, stream), kSuccess);
  for (size_t b = 0; b < blocks; ++b) {
    std::vector<int64_t> want = {3, 2, 5, 4, 3, 2, int64_t(shared) + 3000};
    EXPECT_EQ(std::vector<int64_t>(got.begin() + 7 * b, got.begin() + 7 * b + 7), want)
        << "block " << b;
  }
  EXPECT_EQ(cudaStreamDestroy(stream), kSuccess);
  EXPECT_EQ(cudaFree(out), kSuccess);
}

TEST(Cudart, CopiesOfEveryKind) {
  std::mt19937 rng(11);
  std::vector<uint8_t> data(1001);
  for (uint8_t &x : data)
    x = static_cast<uint8_t>(rng());
  uint8_t *a = deviceAlloc<uint8_t>(1001), *b = deviceAlloc<uint8_t>(777);
  ASSERT_EQ(cudaMemcpy(a, data.data(), 1001, kMemcpyHostToDevice), kSuccess);
  // Device to device between allocations, at odd offsets.
  ASSERT_EQ(cudaMemcpy(b + 3, a + 100, 700, kMemcpyDeviceToDevice), kSuccess);
  ASSERT_EQ(cudaMemset(b, 0x5A, 3), kSuccess);
  ASSERT_EQ(cudaMemsetAsync(b + 703, 0xA5, 74, nullptr), kSuccess);
  std::vector<uint8_t> got(777), want(777);
  std::fill(want.begin(), want.begin() + 3, 0x5A);
  std::copy(data.begin() + 100, data.begin() + 800, want.begin() + 3);
  std::fill(want.begin() + 703, want.end(), 0xA5);
  // cudaMemcpyDefault infers the direction from the addresses.
  ASSERT_EQ(cudaMemcpy(got.data(), b, 777, kMemcpyDefault), kSuccess);
  EXPECT_EQ(got, want);
  // Pinned host memory is host memory.
  void *pinned = nullptr;
  ASSERT_EQ(cudaMallocHost(&pinned, 777), kSuccess);
  ASSERT_EQ(cudaMemcpyAsync(pinned, b, 777, kMemcpyDeviceToHost, nullptr), kSuccess);
  std::vector<uint8_t> copy(777);
  ASSERT_EQ(cudaMemcpy(copy.data(), pinned, 777, kMemcpyHostToHost), kSuccess);
  EXPECT_EQ(copy, want);
  EXPECT_EQ(cudaFreeHost(pinned), kSuccess);
  void *alloc = nullptr;
  ASSERT_EQ(cudaHostAlloc(&alloc, 10, 0), kSuccess);
  EXPECT_EQ(cudaFreeHost(alloc), kSuccess);
  EXPECT_EQ(cudaMemcpy(got.data(), b, 0, kMemcpyDeviceToHost), kSuccess) << "zero bytes";
  EXPECT_EQ(cudaFree(a), kSuccess);
  EXPECT_EQ(cudaFree(b), kSuccess);
  EXPECT_EQ(cudaFree(nullptr), kSuccess);
}

TEST(Cudart, DevicesStreamsAndEvents) {
  int count = 0, device = -1;
  EXPECT_EQ(cudaGetDeviceCount(&count), kSuccess);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(cudaSetDevice(0), kSuccess);
  EXPECT_EQ(cudaGetDevice(&device), kSuccess);
  EXPECT_EQ(device, 0);
  EXPECT_EQ(cudaFuncSetCacheConfig(&stubAxpb, 1), kSuccess);
  EXPECT_EQ(cudaDeviceSetCacheConfig(2), kSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), kSuccess);
  EXPECT_EQ(cudaThreadSynchronize(), kSuccess);
  Event start, stop, untimed, never;
  ASSERT_EQ(cudaEventCreate(&start), kSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&stop, 0), kSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&untimed, kEventDisableTiming), kSuccess);
  ASSERT_EQ(cudaEventCreate(&never), kSuccess);
  Stream s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, kStreamNonBlocking), kSuccess);
  ASSERT_EQ(cudaEventRecord(start, s), kSuccess);
  ASSERT_EQ(cudaEventRecord(untimed, s), kSuccess);
  float *d = deviceAlloc<float>(1000);
  int a = 1;
  float b = 2;
  long long n = 1000;
  ASSERT_EQ(launch(&stubAxpb, {10, 1, 1}, {100, 1, 1}, {&d, &d, &a, &b, &n}, 0, s), kSuccess);
  ASSERT_EQ(cudaEventRecord(stop, reinterpret_cast<Stream>(kStreamPerThread)), kSuccess);
  ASSERT_EQ(cudaEventSynchronize(stop), kSuccess);
  float ms = -1;
  ASSERT_EQ(cudaEventElapsedTime(&ms, start, stop), kSuccess);
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, never), kErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, untimed), kErrorInvalidResourceHandle);
  EXPECT_EQ(cudaGetLastError(), kErrorInvalidResourceHandle);
  for (Event e : {start, stop, untimed, never})
    EXPECT_EQ(cudaEventDestroy(e), kSuccess);
  EXPECT_EQ(cudaEventDestroy(start), kErrorInvalidResourceHandle) << "destroyed twice";
  EXPECT_EQ(cudaStreamSynchronize(s), kSuccess);
  EXPECT_EQ(cudaStreamDestroy(s), kSuccess);
  EXPECT_EQ(cudaStreamDestroy(s), kErrorInvalidResourceHandle);
  EXPECT_EQ(cudaFree(d), kSuccess);
  EXPECT_STREQ(cudaGetErrorName(kErrorInvalidConfiguration), "cudaErrorInvalidConfiguration");
  EXPECT_STREQ(cudaGetErrorString(kErrorInvalidConfiguration), "invalid configuration argument");
  EXPECT_STREQ(cudaGetErrorString(kSuccess), "no error");
  EXPECT_STREQ(cudaGetErrorString(12345), "unrecognized error code");
  EXPECT_EQ(cudaGetLastError(), kErrorInvalidResourceHandle) << "the stream destroyed twice";
  EXPECT_EQ(cudaGetLastError(), kSuccess);
}

TEST(Cudart, LaunchErrorsNameTheKernel) {
  float *d = deviceAlloc<float>(64);
  int a = 1;
  float b = 2;
  long long n = 64;
  std::vector<void *> args = {&d, &d, &a, &b, &n};
  std::string err = stderrOf([&] {
    EXPECT_EQ(launch(&stubAxpb, {1, 1, 1}, {2048, 1, 1}, args), kErrorInvalidConfiguration);
  });
  EXPECT_CONTAINS(err, "tessel-cudart: cudaLaunchKernel of kernel 'axpb(float*, float const*, "
                       "int, float, long long) (_Z4axpbPfPKfifx)': launch of '_Z4axpbPfPKfifx' "
                       "(grid 1x1x1, block 2048x1x1): 2048 threads per block (at most 1024)");
  // The error is the thread's last error until read.
  EXPECT_EQ(cudaPeekAtLastError(), kErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), kErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), kSuccess);
  // Printed once: the same failure again is silent.
  err = stderrOf([&] {
    EXPECT_EQ(launch(&stubAxpb, {1, 1, 1}, {2048, 1, 1}, args), kErrorInvalidConfiguration);
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(launch(&stubAxpb, {1, 70000, 1}, {1, 1, 1}, args), kErrorInvalidConfiguration);
  EXPECT_EQ(launch(&stubAxpb, {1, 1, 1}, {1, 1, 65}, args), kErrorInvalidConfiguration);

  // Registered by the host code, absent from the module.
  err = stderrOf([&] {
    EXPECT_EQ(launch(&stubMissing, {1, 1, 1}, {1, 1, 1}, {}), kErrorInvalidDeviceFunction);
  });
  EXPECT_CONTAINS(err, "kernel 'missing() (_Z7missingv)' is registered by the host code but "
                       "embedded module 1 has no such kernel (it has '_Z4axpbPfPKfifx', "
                       "'launch_info_cuda_c')");
  // Not registered at all.
  err = stderrOf([&] {
    EXPECT_EQ(launch(&stubUnregistered, {1, 1, 1}, {1, 1, 1}, {}), kErrorInvalidDeviceFunction);
  });
  EXPECT_CONTAINS(err, "no kernel is registered for host function");
  // A stub called without <<<>>>: nothing to pop, so a zero grid.
  Dim3 g{9, 9, 9}, bl{9, 9, 9};
  size_t s = 9;
  void *st = &s;
  EXPECT_EQ(__cudaPopCallConfiguration(&g, &bl, &s, &st), kErrorMissingConfiguration);
  EXPECT_EQ(g.x, 0u);
  EXPECT_EQ(cudaLaunchKernel(&stubAxpb, g, bl, args.data(), s, static_cast<Stream>(st)),
            kErrorInvalidConfiguration);
  // Null arguments.
  EXPECT_EQ(cudaLaunchKernel(&stubAxpb, {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr),
            kErrorInvalidValue);
  // An unknown stream.
  EXPECT_EQ(launch(&stubAxpb, {1, 1, 1}, {1, 1, 1}, args, 0, reinterpret_cast<Stream>(&a)),
            kErrorInvalidResourceHandle);
  EXPECT_EQ(cudaGetLastError(), kErrorInvalidResourceHandle);
  EXPECT_EQ(cudaFree(d), kSuccess);
}

TEST(Cudart, MemoryErrorsNameTheCall) {
  uint8_t *d = deviceAlloc<uint8_t>(64);
  std::vector<uint8_t> host(128);
  std::string err = stderrOf([&] {
    EXPECT_EQ(cudaMemcpy(host.data(), d + 16, 49, kMemcpyDeviceToHost), kErrorInvalidValue);
  });
  EXPECT_CONTAINS(err, "cudaMemcpy (cudaMemcpyDeviceToHost): source 49 bytes at ");
  EXPECT_CONTAINS(err, "(byte 16 of the 64-byte allocation at ");
  EXPECT_CONTAINS(err, ") run past the end of the allocation");
  err = stderrOf([&] {
    EXPECT_EQ(cudaMemcpy(host.data(), host.data() + 64, 8, kMemcpyHostToDevice),
              kErrorInvalidValue);
  });
  EXPECT_CONTAINS(err, "cudaMemcpy (cudaMemcpyHostToDevice): destination 0x");
  EXPECT_CONTAINS(err, " is not inside a device allocation");
  err = stderrOf([&] {
    EXPECT_EQ(cudaMemcpy(host.data(), d, 8, kMemcpyHostToHost), kErrorInvalidValue);
  });
  EXPECT_CONTAINS(err, "is device memory (cudaMalloc) but the kind says host memory");
  EXPECT_EQ(cudaMemcpy(d, host.data(), 8, 7), kErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaMemcpy(nullptr, host.data(), 8, kMemcpyHostToDevice), kErrorInvalidValue);
  EXPECT_EQ(cudaMemset(d + 60, 0, 5), kErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyAsync(d, host.data(), 8, kMemcpyHostToDevice, reinterpret_cast<Stream>(d)),
            kErrorInvalidResourceHandle);
  err = stderrOf([&] { EXPECT_EQ(cudaFree(d + 1), kErrorInvalidValue); });
  EXPECT_CONTAINS(err, "cudaFree: 0x");
  EXPECT_CONTAINS(err, "is not the start of a cudaMalloc allocation");
  EXPECT_EQ(cudaFree(d), kSuccess);
  EXPECT_EQ(cudaFree(d), kErrorInvalidValue) << "freed twice";
  EXPECT_EQ(cudaFreeHost(host.data()), kErrorInvalidValue);
  void *managed = nullptr;
  err = stderrOf([&] { EXPECT_EQ(cudaMallocManaged(&managed, 64, 1), kErrorNotSupported); });
  EXPECT_CONTAINS(err, "cudaMallocManaged: managed memory is not supported");
  err = stderrOf([&] {
    EXPECT_EQ(cudaMemcpyToSymbol(hostVariable, host.data(), 4, 0, kMemcpyHostToDevice),
              kErrorNotSupported);
  });
  EXPECT_CONTAINS(err, "cudaMemcpyToSymbol: device variable 'table' (16 bytes): __device__ and "
                       "__constant__ variables are not supported");
  EXPECT_EQ(cudaMemcpyFromSymbol(host.data(), host.data(), 4, 0, kMemcpyDeviceToHost),
            kErrorInvalidSymbol);
  EXPECT_EQ(cudaSetDevice(1), kErrorInvalidDevice);
  void *big = nullptr;
  EXPECT_EQ(cudaMalloc(&big, size_t(1) << 62), kErrorMemoryAllocation);
  EXPECT_EQ(cudaMalloc(nullptr, 4), kErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), kErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), kSuccess);
}

TEST(Cudart, AllocationsHaveZeroedGuardSpace) {
  // On the cpu device a device pointer is a host pointer. Reads just
  // outside an allocation (Rodinia's srad_v2 reads a row before and after
  // its arrays) find zeros instead of an unmapped page: 64 KiB on each
  // side, or the size rounded up to 256 bytes for smaller allocations.
  // The API still refuses copies that leave the allocation.
  for (size_t size : {size_t(100), size_t(1) << 20 | 3}) {
    void *p = nullptr;
    ASSERT_EQ(cudaMalloc(&p, size), kSuccess);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u) << size;
    std::vector<uint8_t> ones(size, 1);
    ASSERT_EQ(cudaMemcpy(p, ones.data(), size, kMemcpyHostToDevice), kSuccess);
    size_t guard = std::min<size_t>(64 * 1024, (size + 255) / 256 * 256);
    const auto *bytes = static_cast<const uint8_t *>(p);
    size_t nonzero = 0;
    for (size_t i = 1; i <= guard; ++i)
      nonzero += (bytes[-static_cast<ptrdiff_t>(i)] != 0) + (bytes[size - 1 + i] != 0);
    EXPECT_EQ(nonzero, 0u) << size;
    EXPECT_EQ(bytes[0], 1);
    EXPECT_EQ(bytes[size - 1], 1);
    std::vector<uint8_t> host(size + 1);
    EXPECT_EQ(cudaMemcpy(host.data(), p, size + 1, kMemcpyDeviceToHost), kErrorInvalidValue);
    EXPECT_EQ(cudaMemcpy(host.data(), static_cast<uint8_t *>(p) - 1, 1, kMemcpyDeviceToHost),
              kErrorInvalidValue);
    EXPECT_EQ(cudaFree(p), kSuccess);
  }
  EXPECT_EQ(cudaGetLastError(), kErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), kSuccess);
}

TEST(Cudart, ConcurrentThreads) {
  // Calls from several threads are serialized; each thread has its own
  // call configuration stack and last error.
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &ok] {
      std::mt19937 rng(100 + t);
      long long n = 5000 + t;
      std::vector<float> in = randomIntegers(rng, n), out(n);
      float *dIn = nullptr, *dOut = nullptr;
      if (cudaMalloc(reinterpret_cast<void **>(&dIn), n * 4) != kSuccess ||
          cudaMalloc(reinterpret_cast<void **>(&dOut), n * 4) != kSuccess)
        return;
      int a = t + 1;
      float b = 0.5f;
      bool good = true;
      for (int rep = 0; rep < 20 && good; ++rep) {
        good &= cudaMemcpy(dIn, in.data(), n * 4, kMemcpyHostToDevice) == kSuccess;
        good &= launch(&stubAxpb, {unsigned(n + 63) / 64, 1, 1}, {64, 1, 1},
                       {&dOut, &dIn, &a, &b, &n}) == kSuccess;
        good &= cudaMemcpy(out.data(), dOut, n * 4, kMemcpyDeviceToHost) == kSuccess;
        for (long long i = 0; i < n && good; ++i)
          good &= out[i] == static_cast<float>(a) * in[i] + b;
      }
      good &= cudaGetLastError() == kSuccess;
      good &= cudaFree(dIn) == kSuccess && cudaFree(dOut) == kSuccess;
      ok[t] = good;
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(ok, std::vector<int>(4, 1));
}

namespace {

// cudaGetDeviceProperties into a buffer with guard bytes around the struct
// and garbage in it, so that a field left unwritten or a write past the
// struct shows.
struct GuardedProp {
  uint8_t before[64];
  DeviceProp prop;
  uint8_t after[64];
};
Error getProperties(GuardedProp &g, int device = 0) {
  std::memset(&g, 0xAB, sizeof(g));
  return cudaGetDeviceProperties(&g.prop, device);
}
bool guardsIntact(const GuardedProp &g) {
  for (int i = 0; i < 64; ++i)
    if (g.before[i] != 0xAB || g.after[i] != 0xAB)
      return false;
  return true;
}

int attribute(DeviceAttr attr) {
  int v = -12345;
  EXPECT_EQ(cudaDeviceGetAttribute(&v, attr, 0), kSuccess) << "attribute " << attr;
  return v;
}

// Checks that every field of `p` with a cudaDeviceAttr holds that
// attribute's value (names the first that does not). On the fake driver,
// which answers a distinct value for each attribute, this pins down which
// attribute fills which field.
std::string fieldsDisagreeingWithAttributes(const DeviceProp &p) {
  struct Field {
    const char *name;
    long long value;
    DeviceAttr attr;
  };
#define F(field, attr) {#field, (long long)p.field, kDevAttr##attr}
  const Field fields[] = {
      F(sharedMemPerBlock, MaxSharedMemoryPerBlock),
      F(regsPerBlock, MaxRegistersPerBlock),
      F(warpSize, WarpSize),
      F(memPitch, MaxPitch),
      F(maxThreadsPerBlock, MaxThreadsPerBlock),
      F(maxThreadsDim[0], MaxBlockDimX),
      F(maxThreadsDim[1], MaxBlockDimY),
      F(maxThreadsDim[2], MaxBlockDimZ),
      F(maxGridSize[0], MaxGridDimX),
      F(maxGridSize[1], MaxGridDimY),
      F(maxGridSize[2], MaxGridDimZ),
      F(totalConstMem, TotalConstantMemory),
      F(major, ComputeCapabilityMajor),
      F(minor, ComputeCapabilityMinor),
      F(textureAlignment, TextureAlignment),
      F(texturePitchAlignment, TexturePitchAlignment),
      F(multiProcessorCount, MultiProcessorCount),
      F(integrated, Integrated),
      F(canMapHostMemory, CanMapHostMemory),
      F(maxTexture1D, MaxTexture1DWidth),
      F(maxTexture1DMipmap, MaxTexture1DMipmappedWidth),
      F(maxTexture2D[0], MaxTexture2DWidth),
      F(maxTexture2D[1], MaxTexture2DHeight),
      F(maxTexture2DMipmap[0], MaxTexture2DMipmappedWidth),
      F(maxTexture2DMipmap[1], MaxTexture2DMipmappedHeight),
      F(maxTexture2DLinear[0], MaxTexture2DLinearWidth),
      F(maxTexture2DLinear[1], MaxTexture2DLinearHeight),
      F(maxTexture2DLinear[2], MaxTexture2DLinearPitch),
      F(maxTexture2DGather[0], MaxTexture2DGatherWidth),
      F(maxTexture2DGather[1], MaxTexture2DGatherHeight),
      F(maxTexture3D[0], MaxTexture3DWidth),
      F(maxTexture3D[1], MaxTexture3DHeight),
      F(maxTexture3D[2], MaxTexture3DDepth),
      F(maxTexture3DAlt[0], MaxTexture3DWidthAlt),
      F(maxTexture3DAlt[1], MaxTexture3DHeightAlt),
      F(maxTexture3DAlt[2], MaxTexture3DDepthAlt),
      F(maxTextureCubemap, MaxTextureCubemapWidth),
      F(maxTexture1DLayered[0], MaxTexture1DLayeredWidth),
      F(maxTexture1DLayered[1], MaxTexture1DLayeredLayers),
      F(maxTexture2DLayered[0], MaxTexture2DLayeredWidth),
      F(maxTexture2DLayered[1], MaxTexture2DLayeredHeight),
      F(maxTexture2DLayered[2], MaxTexture2DLayeredLayers),
      F(maxTextureCubemapLayered[0], MaxTextureCubemapLayeredWidth),
      F(maxTextureCubemapLayered[1], MaxTextureCubemapLayeredLayers),
      F(maxSurface1D, MaxSurface1DWidth),
      F(maxSurface2D[0], MaxSurface2DWidth),
      F(maxSurface2D[1], MaxSurface2DHeight),
      F(maxSurface3D[0], MaxSurface3DWidth),
      F(maxSurface3D[1], MaxSurface3DHeight),
      F(maxSurface3D[2], MaxSurface3DDepth),
      F(maxSurface1DLayered[0], MaxSurface1DLayeredWidth),
      F(maxSurface1DLayered[1], MaxSurface1DLayeredLayers),
      F(maxSurface2DLayered[0], MaxSurface2DLayeredWidth),
      F(maxSurface2DLayered[1], MaxSurface2DLayeredHeight),
      F(maxSurface2DLayered[2], MaxSurface2DLayeredLayers),
      F(maxSurfaceCubemap, MaxSurfaceCubemapWidth),
      F(maxSurfaceCubemapLayered[0], MaxSurfaceCubemapLayeredWidth),
      F(maxSurfaceCubemapLayered[1], MaxSurfaceCubemapLayeredLayers),
      F(surfaceAlignment, SurfaceAlignment),
      F(concurrentKernels, ConcurrentKernels),
      F(ECCEnabled, EccEnabled),
      F(pciBusID, PciBusId),
      F(pciDeviceID, PciDeviceId),
      F(pciDomainID, PciDomainId),
      F(tccDriver, TccDriver),
      F(asyncEngineCount, AsyncEngineCount),
      F(unifiedAddressing, UnifiedAddressing),
      F(memoryBusWidth, GlobalMemoryBusWidth),
      F(l2CacheSize, L2CacheSize),
      F(persistingL2CacheMaxSize, MaxPersistingL2CacheSize),
      F(maxThreadsPerMultiProcessor, MaxThreadsPerMultiProcessor),
      F(streamPrioritiesSupported, StreamPrioritiesSupported),
      F(globalL1CacheSupported, GlobalL1CacheSupported),
      F(localL1CacheSupported, LocalL1CacheSupported),
      F(sharedMemPerMultiprocessor, MaxSharedMemoryPerMultiprocessor),
      F(regsPerMultiprocessor, MaxRegistersPerMultiprocessor),
      F(managedMemory, ManagedMemory),
      F(isMultiGpuBoard, IsMultiGpuBoard),
      F(multiGpuBoardGroupID, MultiGpuBoardGroupID),
      F(hostNativeAtomicSupported, HostNativeAtomicSupported),
      F(pageableMemoryAccess, PageableMemoryAccess),
      F(concurrentManagedAccess, ConcurrentManagedAccess),
      F(computePreemptionSupported, ComputePreemptionSupported),
      F(canUseHostPointerForRegisteredMem, CanUseHostPointerForRegisteredMem),
      F(cooperativeLaunch, CooperativeLaunch),
      F(sharedMemPerBlockOptin, MaxSharedMemoryPerBlockOptin),
      F(pageableMemoryAccessUsesHostPageTables, PageableMemoryAccessUsesHostPageTables),
      F(directManagedMemAccessFromHost, DirectManagedMemAccessFromHost),
      F(maxBlocksPerMultiProcessor, MaxBlocksPerMultiprocessor),
      F(accessPolicyMaxWindowSize, MaxAccessPolicyWindowSize),
      F(reservedSharedMemPerBlock, ReservedSharedMemoryPerBlock),
      F(hostRegisterSupported, HostRegisterSupported),
      F(sparseCudaArraySupported, SparseCudaArraySupported),
      F(hostRegisterReadOnlySupported, HostRegisterReadOnlySupported),
      F(timelineSemaphoreInteropSupported, TimelineSemaphoreInteropSupported),
      F(memoryPoolsSupported, MemoryPoolsSupported),
      F(gpuDirectRDMASupported, GPUDirectRDMASupported),
      F(gpuDirectRDMAFlushWritesOptions, GPUDirectRDMAFlushWritesOptions),
      F(gpuDirectRDMAWritesOrdering, GPUDirectRDMAWritesOrdering),
      F(memoryPoolSupportedHandleTypes, MemoryPoolSupportedHandleTypes),
      F(deferredMappingCudaArraySupported, DeferredMappingCudaArraySupported),
      F(ipcEventSupported, IpcEventSupport),
      F(clusterLaunch, ClusterLaunch),
      F(deviceNumaConfig, NumaConfig),
      F(deviceNumaId, NumaId),
      F(mpsEnabled, MpsEnabled),
      F(hostNumaId, HostNumaId),
      F(gpuPciDeviceID, GpuPciDeviceId),
      F(gpuPciSubsystemID, GpuPciSubsystemId),
      F(hostNumaMultinodeIpcSupported, HostNumaMultinodeIpcSupported),
  };
#undef F
  for (const Field &f : fields) {
    int v = -12345;
    if (cudaDeviceGetAttribute(&v, f.attr, 0) != kSuccess)
      return std::string(f.name) + ": attribute " + std::to_string(f.attr) + " fails";
    if (v != f.value)
      return std::string(f.name) + " is " + std::to_string(f.value) + ", attribute " +
             std::to_string(f.attr) + " is " + std::to_string(v);
  }
  return "";
}

} // namespace

TEST(Cudart, DevicePropertiesOnTheCpu) {
  GuardedProp g;
  ASSERT_EQ(getProperties(g), kSuccess);
  const DeviceProp &p = g.prop;
  EXPECT_TRUE(guardsIntact(g)) << "wrote outside the 1008 bytes of cudaDeviceProp";
  unsigned threads = *tessel::rt::hal::cpu::defaultThreadCount();
  EXPECT_EQ(std::string(p.name),
            "Tessel CPU (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)"));
  EXPECT_EQ(p.multiProcessorCount, int(threads));
  EXPECT_EQ(p.warpSize, 32);
  EXPECT_EQ(p.major, 8);
  EXPECT_EQ(p.minor, 0);
  EXPECT_EQ(p.maxThreadsPerBlock, 1024);
  EXPECT_EQ(std::vector<int>(p.maxThreadsDim, p.maxThreadsDim + 3),
            (std::vector<int>{1024, 1024, 64}));
  EXPECT_EQ(std::vector<int>(p.maxGridSize, p.maxGridSize + 3),
            (std::vector<int>{2147483647, 65535, 65535}));
  EXPECT_EQ(p.sharedMemPerBlock, 48u * 1024);
  EXPECT_GT(p.sharedMemPerBlockOptin, p.sharedMemPerBlock);
  EXPECT_GE(p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin);
  EXPECT_EQ(p.totalConstMem, 65536u);
  EXPECT_EQ(p.regsPerBlock, 65536);
  EXPECT_EQ(p.memPitch, 2147483647u);
  EXPECT_EQ(p.textureAlignment, 512u);
  EXPECT_EQ(p.maxThreadsPerMultiProcessor, 2048);
  EXPECT_EQ(p.concurrentKernels, 0);
  EXPECT_EQ(p.integrated, 1);
  EXPECT_EQ(p.canMapHostMemory, 0);
  EXPECT_EQ(p.unifiedAddressing, 1);
  EXPECT_EQ(p.managedMemory, 0);
  EXPECT_EQ(p.maxTexture2D[0], 0) << "no textures";
  EXPECT_GT(p.totalGlobalMem, 0u);
  // Fields without an answer are zeroed, the reserved tail included.
  EXPECT_EQ(std::vector<char>(p.uuid, p.uuid + 16), std::vector<char>(16, 0));
  EXPECT_EQ(std::vector<int>(p.reserved, p.reserved + 56), std::vector<int>(56, 0));
  EXPECT_EQ(fieldsDisagreeingWithAttributes(p), "");

  size_t free = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free, &total), kSuccess);
  EXPECT_EQ(total, p.totalGlobalMem);
  EXPECT_GT(free, 0u);
  EXPECT_LE(free, total);
  EXPECT_EQ(cudaGetLastError(), kSuccess);
}

TEST(Cudart, EveryDeviceAttributeOnTheCpu) {
  // Every CUDA 13 cudaDeviceAttr has an answer on the cpu device, among them
  // the seven that Tessel's cuda_runtime_api.h asks after
  // cudaGetDeviceProperties for CUDA 12's fields (so no error is left).
  std::vector<int> missing;
#define TESSEL_TEST_ATTR(name, value)                                                              \
  {                                                                                                \
    int v = -12345;                                                                                \
    if (cudaDeviceGetAttribute(&v, value, 0) != kSuccess || v == -12345)                           \
      missing.push_back(value);                                                                    \
  }
  TESSEL_CUDART_DEVICE_ATTRS(TESSEL_TEST_ATTR)
#undef TESSEL_TEST_ATTR
  EXPECT_EQ(missing, std::vector<int>());
  EXPECT_EQ(cudaGetLastError(), kSuccess);
  EXPECT_EQ(attribute(kDevAttrClockRate), 1000000);
  EXPECT_EQ(attribute(kDevAttrComputeMode), 0);
  EXPECT_EQ(attribute(kDevAttrGpuOverlap), 0);
  EXPECT_EQ(attribute(kDevAttrMaxSharedMemoryPerBlockOptin), 163 * 1024);
  EXPECT_GT(attribute(kDevAttrMemoryClockRate), 0);
}

TEST(Cudart, DevicePropertyErrors) {
  GuardedProp g;
  std::string err = stderrOf([&] { EXPECT_EQ(getProperties(g, 1), kErrorInvalidDevice); });
  EXPECT_CONTAINS(err, "tessel-cudart: cudaGetDeviceProperties(device 1): Tessel's CUDA runtime "
                       "has one device, 0");
  EXPECT_EQ(g.prop.warpSize, int(0xABABABAB)) << "left alone on error";
  EXPECT_EQ(cudaGetLastError(), kErrorInvalidDevice);
  EXPECT_EQ(cudaGetDeviceProperties(nullptr, 0), kErrorInvalidValue);
  EXPECT_EQ(getProperties(g, -1), kErrorInvalidDevice);

  int v = 77;
  err = stderrOf([&] { EXPECT_EQ(cudaDeviceGetAttribute(&v, 9999, 0), kErrorInvalidValue); });
  EXPECT_CONTAINS(err, "tessel-cudart: cudaDeviceGetAttribute: attribute 9999 is not a device "
                       "attribute (cudaDeviceAttr) that cpu (");
  EXPECT_EQ(v, 77);
  EXPECT_EQ(cudaGetLastError(), kErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), kSuccess);
  // Not cudaDeviceAttr numbers: gaps, Reserved* entries, past the end.
  for (int attr : {0, -1, 44, 92, 96, 102, 122, 132, 141, 146, 148})
    EXPECT_EQ(cudaDeviceGetAttribute(&v, attr, 0), kErrorInvalidValue) << "attribute " << attr;
  EXPECT_EQ(v, 77);
  err = stderrOf([&] {
    EXPECT_EQ(cudaDeviceGetAttribute(&v, kDevAttrWarpSize, 1), kErrorInvalidDevice);
  });
  EXPECT_CONTAINS(err, "cudaDeviceGetAttribute(device 1): Tessel's CUDA runtime has one device");
  EXPECT_EQ(cudaDeviceGetAttribute(nullptr, kDevAttrWarpSize, 0), kErrorInvalidValue);

  size_t free = 0, total = 0;
  err = stderrOf([&] { EXPECT_EQ(cudaMemGetInfo(nullptr, &total), kErrorInvalidValue); });
  EXPECT_CONTAINS(err, "cudaMemGetInfo: free is a null pointer");
  EXPECT_EQ(cudaMemGetInfo(&free, nullptr), kErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), kErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), kSuccess);
}

// ---- In a child process: registrations that fail, device selection ----------

namespace {

// Registers `data` (wrapper fields as given), then checks that the message
// was printed and that CUDA calls fail with cudaErrorInvalidKernelImage.
[[noreturn]] void registerBadBlob(const void *data, int32_t magic = kFatBinaryWrapperMagic,
                                  int32_t version = kFatBinaryWrapperVersion) {
  void **handle = registerBlob(data, magic, version);
  registerKernel(handle, &stubAxpb, kAxpb); // must be harmless
  void *p = nullptr;
  Error malloc = cudaMalloc(&p, 16);
  Error last = cudaGetLastError();
  std::fprintf(stderr, "| cudaMalloc: %d, cudaGetLastError: %d, again: %d\n", malloc, last,
               cudaGetLastError());
  std::exit(malloc == kErrorInvalidKernelImage && last == kErrorInvalidKernelImage ? 0 : 1);
}

std::vector<uint8_t> blobWith(size_t offset, std::vector<uint8_t> bytes) {
  std::vector<uint8_t> blob = goodBlob();
  std::copy(bytes.begin(), bytes.end(), blob.begin() + offset);
  return blob;
}

} // namespace

TEST(CudartDeathTest, BadBlobsFailEveryCall) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string every = ".*every CUDA call will fail.*\\| cudaMalloc: 200, cudaGetLastError: "
                            "200, again: 200";
  EXPECT_EXIT(registerBadBlob(blobWith(0, {'T', 'S', 'L', 'C', 'U', 'D', 'A', '2'}).data()),
              ::testing::ExitedWithCode(0),
              "embedded module 2\\): the embedded GPU binary starts with 'TSLCUDA2', not the "
              "magic 'TSLCUDA1' of a Tessel module" + every);
  EXPECT_EXIT(registerBadBlob(blobWith(0, {0x50, 0xed, 0x55, 0xba}).data()),
              ::testing::ExitedWithCode(0),
              "the embedded GPU binary is an NVIDIA fat binary, not a Tessel module: compile "
              "the program with tessel-cc" + every);
  EXPECT_EXIT(registerBadBlob(blobWith(8, {0, 0, 0, 0, 0, 0, 0, 0}).data()),
              ::testing::ExitedWithCode(0), "the embedded module is empty" + every);
  EXPECT_EXIT(registerBadBlob(blobWith(8, {0, 0, 0, 0, 0, 0, 0, 1}).data()),
              ::testing::ExitedWithCode(0),
              "header claims 72057594037927936 bytes \\(damaged header\\)" + every);
  // A damaged module: the checksum catches it.
  std::vector<uint8_t> flipped = goodBlob();
  flipped[flipped.size() / 2] ^= 0x10;
  EXPECT_EXIT(registerBadBlob(flipped.data()), ::testing::ExitedWithCode(0),
              "module file 'embedded module 2': module checksum mismatch: the file is "
              "damaged" + every);
  // One byte short: the module's trailer is not where its header says.
  std::vector<uint8_t> shorter = goodBlob();
  uint64_t length = shorter.size() - 16 - 1;
  for (int i = 0; i < 8; ++i)
    shorter[8 + i] = static_cast<uint8_t>(length >> (8 * i));
  EXPECT_EXIT(registerBadBlob(shorter.data()), ::testing::ExitedWithCode(0),
              "embedded module 2.*trailer" + every);
  EXPECT_EXIT(registerBadBlob(nullptr, kFatBinaryWrapperMagic), ::testing::ExitedWithCode(0),
              "the fat binary wrapper points at no data" + every);
  EXPECT_EXIT(registerBadBlob(goodBlob().data(), 0x12345678), ::testing::ExitedWithCode(0),
              "the fat binary wrapper has magic 0x12345678, expected 0x466243b1" + every);
  EXPECT_EXIT(registerBadBlob(goodBlob().data(), kFatBinaryWrapperMagic, 2),
              ::testing::ExitedWithCode(0),
              "the fat binary wrapper has version 2, expected 1" + every);
}

TEST(CudartDeathTest, LengthPastTheEndOfMemoryIsRefused) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // The header is at the end of a mapped page and claims more bytes than
  // follow it before an unmapped page.
  EXPECT_EXIT(
      {
        const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
        auto *p = static_cast<uint8_t *>(::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE,
                                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        ::munmap(p + page, page);
        uint8_t *header = p + page - 32;
        std::memcpy(header, goodBlob().data(), 16); // "TSLCUDA1" + the real length
        registerBadBlob(header);
      },
      ::testing::ExitedWithCode(0),
      "bytes but they lie outside the program's memory \\(damaged header\\)" +
          std::string(".*\\| cudaMalloc: 200"));
}

TEST(CudartDeathTest, DeviceChoice) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto run = [](const char *device, const char *verbose) {
    if (device)
      ::setenv("TESSEL_DEVICE", device, 1);
    if (verbose)
      ::setenv("TESSEL_CUDART_VERBOSE", verbose, 1);
    void *p = nullptr;
    Error e = cudaMalloc(&p, 16);
    std::fprintf(stderr, "| cudaMalloc: %d, then %d\n", e, cudaMalloc(&p, 16));
    std::exit(0);
  };
  // The module has only a cpu executable: cpu, and verbose says why.
  EXPECT_EXIT(run(nullptr, "1"), ::testing::ExitedWithCode(0),
              "tessel-cudart: device cpu \\([0-9]+ threads?(, pinned)?\\) .* embedded module 1 has no cuda "
              "executable\n.*\\| cudaMalloc: 0, then 0");
  EXPECT_EXIT(run("cpu", "1"), ::testing::ExitedWithCode(0),
              "tessel-cudart: device cpu \\([0-9]+ threads?(, pinned)?\\) \\(TESSEL_DEVICE=cpu\\)");
  EXPECT_EXIT(run("tpu", nullptr), ::testing::ExitedWithCode(0),
              "tessel-cudart: cudaMalloc: TESSEL_DEVICE='tpu' is not a device \\(cpu or "
              "cuda\\)\n.*\\| cudaMalloc: 3, then 3");
  // Quiet on the normal path.
  EXPECT_EXIT(run("cpu", nullptr), ::testing::ExitedWithCode(0), "^\\| cudaMalloc: 0, then 0");
}

TEST(CudartDeathTest, ForcedCudaWithoutDevice) {
  if (tessel::rt::createDevice("cuda").ok())
    GTEST_SKIP() << "this machine has a CUDA device";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("TESSEL_DEVICE", "cuda", 1);
        void *p = nullptr;
        Error e = cudaMalloc(&p, 16);
        std::fprintf(stderr, "| cudaMalloc: %d\n", e);
        std::exit(e == kErrorNoDevice ? 0 : 1);
      },
      ::testing::ExitedWithCode(0),
      "tessel-cudart: cudaMalloc: TESSEL_DEVICE=cuda: cuda: no CUDA driver/device available");
}

namespace {
// Registers a module whose only executable is cuda (a fake-driver image of
// axpb) and its kernel under a host stub of its own; returns the stub.
const void *registerFakeDriverAxpb() {
  ModuleDesc m;
  ExecutableDesc cuda;
  cuda.target = "cuda";
  cuda.exports = {cudaCExport(kAxpb, {8, 8, 4, 4, 8})};
  std::string image = "fake-cuda-module\nkernel _Z4axpbPfPKfifx 8 8 4 4 8\n";
  cuda.binaries.push_back(
      {"ptx", "sm_80", {}, std::vector<uint8_t>(image.begin(), image.end()), std::nullopt});
  m.executables = {cuda};
  static std::vector<uint8_t> blob = cudaBlob(buildModule(m));
  static char stub;
  registerKernel(registerBlob(blob.data()), &stub, kAxpb);
  return &stub;
}

// The checks of runOnTheFakeDriver; returns the number that failed. Its
// locals are gone before the child exits (LeakSanitizer would report
// heap memory that a live frame still owns at exit).
int fakeDriverFailures() {
  ::setenv("TESSEL_CUDA_LIBRARY", TESSEL_FAKE_CUDA_DEVICE, 1);
  ::setenv("TESSEL_CUDA_COMMAND_BUFFER", "stream", 1); // the fake has no graphs
  ::setenv("TESSEL_DEVICE", "cuda", 1);
  ::setenv("TESSEL_CUDART_VERBOSE", "1", 1);
  ::setenv("FAKE_CUDA_CC", "90", 1);
  const void *stub = registerFakeDriverAxpb();

  int failures = 0;
  auto check = [&](bool ok, const char *what) {
    if (!ok) {
      std::fprintf(stderr, "| failed: %s\n", what);
      ++failures;
    }
  };
  std::vector<float> host(100);
  for (int i = 0; i < 100; ++i)
    host[i] = float(i) * 1.5f;
  float *in = nullptr, *out = nullptr;
  check(cudaMalloc(reinterpret_cast<void **>(&in), 400) == kSuccess, "cudaMalloc");
  check(cudaMalloc(reinterpret_cast<void **>(&out), 400) == kSuccess, "cudaMalloc");
  check(cudaMemcpy(in, host.data(), 400, kMemcpyHostToDevice) == kSuccess, "H2D");
  check(cudaMemcpy(out, in, 400, kMemcpyDefault) == kSuccess, "D2D");
  int a = -7;
  float b = 0.5f;
  long long n = 100;
  check(launch(stub, {3, 2, 1}, {32, 2, 1}, {&out, &in, &a, &b, &n}, 999) == kSuccess,
        "launch");
  void *lib = ::dlopen(TESSEL_FAKE_CUDA_DEVICE, RTLD_NOW);
  auto last = reinterpret_cast<const FakeCudaLaunch *(*)()>(
      lib ? ::dlsym(lib, "fake_cuda_last_launch") : nullptr);
  check(last != nullptr, "fake_cuda_last_launch");
  if (last) {
    const FakeCudaLaunch &l = *last();
    check(std::string(l.kernel) == kAxpb, "kernel name");
    check(l.grid[0] == 3 && l.grid[1] == 2 && l.grid[2] == 1, "grid");
    check(l.block[0] == 32 && l.block[1] == 2 && l.block[2] == 1, "block");
    check(l.sharedBytes == 999, "shared bytes");
    check(l.numParams == 5 && std::memcmp(l.param[0], &out, 8) == 0 &&
              std::memcmp(l.param[1], &in, 8) == 0 && std::memcmp(l.param[2], &a, 4) == 0 &&
              std::memcmp(l.param[3], &b, 4) == 0 && std::memcmp(l.param[4], &n, 8) == 0,
          "parameter values");
  }
  std::vector<float> back(100);
  check(cudaMemcpy(back.data(), out, 400, kMemcpyDeviceToHost) == kSuccess, "D2H");
  check(back == host, "round trip");
  // Device properties and memory come from the driver (fake_cuda_device.c).
  GuardedProp g;
  check(getProperties(g) == kSuccess, "cudaGetDeviceProperties");
  const DeviceProp &p = g.prop;
  check(guardsIntact(g), "guard bytes");
  check(std::string(p.name) == "Fake CUDA device", "name");
  check(p.major == 9 && p.minor == 0, "compute capability");
  check(p.multiProcessorCount == 108, "multiprocessors");
  check(p.l2CacheSize == 40 << 20 && p.sharedMemPerMultiprocessor == 164u << 10 &&
            p.sharedMemPerBlockOptin == 227u << 10 && p.memoryBusWidth == 5120,
        "L2, shared memory, bus width");
  check(p.concurrentKernels == 1 && p.managedMemory == 1 && p.integrated == 0,
        "the driver's feature flags, not the cpu's");
  check(p.totalGlobalMem == size_t(80) << 30, "totalGlobalMem");
  std::string disagreeing = fieldsDisagreeingWithAttributes(p);
  check(disagreeing.empty(), disagreeing.c_str());
  check(p.maxSurface2DLayered[2] == 1065 && p.hostNumaMultinodeIpcSupported == 1143 &&
            p.gpuPciDeviceID == 1139u,
        "the fake's distinct values of other attributes");
  int clock = 0, cpuOnly = 0;
  check(cudaDeviceGetAttribute(&clock, kDevAttrClockRate, 0) == kSuccess && clock == 1410000,
        "clock rate");
  check(cudaDeviceGetAttribute(&cpuOnly, 9999, 0) == kErrorInvalidValue,
        "unknown attribute refused by the driver");
  size_t free = 0, total = 0, freeAfter = 0;
  check(cudaMemGetInfo(&free, &total) == kSuccess && total == size_t(80) << 30 && free <= total,
        "cudaMemGetInfo");
  void *block = nullptr;
  check(cudaMalloc(&block, 3 << 20) == kSuccess, "cudaMalloc");
  // The allocation, 64 KiB of guard space on each side and 192 bytes to
  // align it to 256 bytes (cudaMalloc), in a block of its size class
  // (hal/block_cache.h: a multiple of 256 KiB between 2 and 4 MiB).
  size_t asked = (size_t(3) << 20) + 2 * 65536 + 192;
  check(cudaMemGetInfo(&freeAfter, &total) == kSuccess &&
            free - freeAfter == (asked + (256 << 10) - 1) / (256 << 10) * (256 << 10),
        "cudaMemGetInfo after cudaMalloc");
  check(cudaFree(block) == kSuccess, "cudaFree");
  check(cudaGetLastError() == kErrorInvalidValue, "the last error");
  // Module 1 (the environment's) has no cuda executable.
  int one = 1;
  Error e = launch(&stubAxpb, {1, 1, 1}, {1, 1, 1}, {&out, &in, &one, &b, &n});
  check(e == kErrorNoKernelImageForDevice, "module without a cuda executable");
  return failures;
}

[[noreturn]] void runOnTheFakeDriver() {
  int failures = fakeDriverFailures();
  std::fprintf(stderr, "| failures: %d\n", failures);
  std::exit(failures ? 1 : 0);
}
} // namespace

namespace {
// Sets the cpu device's thread count and memory limit before the device is
// created, then prints what the properties and cudaMemGetInfo say.
[[noreturn]] void cpuSettingsChild() {
  ::setenv("TESSEL_DEVICE", "cpu", 1);
  ::setenv("TESSEL_CPU_THREADS", "3", 1);
  ::setenv("TESSEL_DEVICE_MEMORY_LIMIT", "64M", 1);
  GuardedProp g;
  Error e = getProperties(g);
  size_t free = 0, total = 0, freeAfter = 0;
  Error e2 = cudaMemGetInfo(&free, &total);
  void *p = nullptr;
  Error e3 = cudaMalloc(&p, 5 << 20);
  cudaMemGetInfo(&freeAfter, &total);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, kDevAttrMultiProcessorCount, 0);
  std::fprintf(stderr, "| %d %d %d name '%s' sms %d/%d total %zu/%zu free %zu after %zu\n", e, e2,
               e3, g.prop.name, g.prop.multiProcessorCount, sms, size_t(g.prop.totalGlobalMem),
               total, free, freeAfter);
  std::exit(0);
}
} // namespace

// In a fresh process, so that the settings apply to the device it creates:
// one multiprocessor per pool thread, the memory limit as the memory.
TEST(CudartDeathTest, DevicePropertiesFollowTheCpuSettings) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(cpuSettingsChild(), ::testing::ExitedWithCode(0),
              "\\| 0 0 0 name 'Tessel CPU \\(3 threads\\)' sms 3/3 total 67108864/67108864 free "
              "67108864 after 61734720\n"); // 64M - 5M - 2 x 64 KiB of guard - 192
}

// The cuda branch without a GPU: the fake driver of fake_cuda/ (host memory,
// records launches) behind TESSEL_CUDA_LIBRARY. Device addresses are its
// CUdeviceptrs; copies go through the cuda buffers; a launch reaches
// cuLaunchKernel with the grid, block, dynamic shared memory and a pointer
// to each parameter value.
TEST(CudartDeathTest, CudaDeviceThroughTheFakeDriver) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(runOnTheFakeDriver(), ::testing::ExitedWithCode(0),
      "tessel-cudart: device cuda \\(Fake CUDA device, sm_90, stream command buffers\\) "
      "\\(TESSEL_DEVICE=cuda\\).*embedded module 2: loaded its cuda executable \\(1 kernels\\)"
      ".*cudaDeviceGetAttribute: attribute 9999 is not a device attribute \\(cudaDeviceAttr\\) "
      "that cuda \\(Fake CUDA device, sm_90, stream command buffers\\) knows"
      ".*cannot load the kernels of embedded module 1 on cuda \\(Fake CUDA device.*\\): .*no "
      "executable for target 'cuda' \\(module has: cpu\\).*\\| failures: 0");
}

namespace {
// Launches are queued (the fake counts launches since its last stream
// synchronize); the calls that must wait do; a fault found when waiting is
// returned by that call, names the queued kernel and is sticky. The cudart
// chooses stream command buffers itself (TESSEL_CUDA_COMMAND_BUFFER unset).
// With CUDA_LAUNCH_BLOCKING=1 (`blocking`) every launch waits, and the
// fault is the launch's error.
// (Returns the number of failed checks; see fakeDriverFailures.)
int queuedLaunchFailures(bool blocking) {
  if (blocking)
    ::setenv("CUDA_LAUNCH_BLOCKING", "1", 1);
  ::setenv("TESSEL_CUDA_LIBRARY", TESSEL_FAKE_CUDA_DEVICE, 1);
  ::unsetenv("TESSEL_CUDA_COMMAND_BUFFER");
  ::setenv("TESSEL_DEVICE", "cuda", 1);
  ::setenv("TESSEL_CUDART_VERBOSE", "1", 1);
  const void *stub = registerFakeDriverAxpb();
  void *lib = ::dlopen(TESSEL_FAKE_CUDA_DEVICE, RTLD_NOW);
  auto unsynced =
      reinterpret_cast<int (*)()>(lib ? ::dlsym(lib, "fake_cuda_unsynced_launches") : nullptr);
  auto failSyncs =
      reinterpret_cast<void (*)(int)>(lib ? ::dlsym(lib, "fake_cuda_fail_syncs") : nullptr);
  if (!unsynced || !failSyncs) {
    std::fprintf(stderr, "| the fake driver lacks its test hooks\n");
    return 1;
  }
  int failures = 0;
  auto check = [&](bool ok, const char *what) {
    if (!ok) {
      std::fprintf(stderr, "| failed: %s\n", what);
      ++failures;
    }
  };
  float *d = nullptr, *spare = nullptr;
  check(cudaMalloc(reinterpret_cast<void **>(&d), 400) == kSuccess, "cudaMalloc");
  check(cudaMalloc(reinterpret_cast<void **>(&spare), 400) == kSuccess, "cudaMalloc");
  int a = 2;
  float b = 1;
  long long n = 100;
  auto go = [&] { return launch(stub, {1, 1, 1}, {100, 1, 1}, {&d, &d, &a, &b, &n}); };
  for (int i = 0; i < 3; ++i)
    check(go() == kSuccess, "launch");
  check(cudaMemset(d, 0, 400) == kSuccess && cudaMemcpy(spare, d, 400, kMemcpyDefault) == kSuccess,
        "a fill and a device-to-device copy, queued");
  check(unsynced() == (blocking ? 0 : 3), blocking ? "every launch waited for"
                                                   : "three launches queued, none waited for");
  check(cudaDeviceSynchronize() == kSuccess && unsynced() == 0, "cudaDeviceSynchronize waits");
  std::vector<float> host(100, 1.0f);
  check(go() == kSuccess && cudaMemcpy(host.data(), d, 400, kMemcpyDeviceToHost) == kSuccess &&
            unsynced() == 0,
        "a copy to the host waits");
  check(go() == kSuccess && cudaMemcpy(d, host.data(), 400, kMemcpyHostToDevice) == kSuccess &&
            unsynced() == 0,
        "a copy from the host waits");
  check(go() == kSuccess && cudaStreamSynchronize(nullptr) == kSuccess && unsynced() == 0,
        "cudaStreamSynchronize waits");
  Event ev = nullptr;
  check(cudaEventCreate(&ev) == kSuccess && go() == kSuccess &&
            cudaEventRecord(ev, nullptr) == kSuccess && unsynced() == 0,
        "cudaEventRecord waits (host clock)");
  check(go() == kSuccess && cudaFree(spare) == kSuccess && unsynced() == 0, "cudaFree waits");
  // A fault in queued work: the launch succeeds, the wait fails.
  failSyncs(700);
  if (blocking) {
    check(go() == kErrorIllegalAddress, "the faulting launch returns the fault");
  } else {
    check(go() == kSuccess, "the faulting launch is queued");
    check(cudaDeviceSynchronize() == kErrorIllegalAddress, "the wait returns the fault");
  }
  check(go() == kErrorIllegalAddress && cudaMemset(d, 0, 4) == kErrorIllegalAddress,
        "sticky afterwards");
  return failures;
}

[[noreturn]] void queuedLaunchesChild(bool blocking) {
  int failures = queuedLaunchFailures(blocking);
  std::fprintf(stderr, "| failures: %d\n", failures);
  std::exit(failures ? 1 : 0);
}
} // namespace

TEST(CudartDeathTest, LaunchesAreQueuedUntilACallWaits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(queuedLaunchesChild(false), ::testing::ExitedWithCode(0),
              "device cuda \\(Fake CUDA device, sm_90, stream command buffers\\)"
              ".*cudaDeviceSynchronize: queued work failed: .*CUDA_ERROR_ILLEGAL_ADDRESS.* in "
              "launch 0 '_Z4axpbPfPKfifx' \\(grid 1x1x1, block 100x1x1\\), the only dispatch"
              ".*\\| failures: 0");
  EXPECT_EXIT(queuedLaunchesChild(true), ::testing::ExitedWithCode(0),
              "cudaLaunchKernel of kernel 'axpb.*: queued work failed: "
              ".*CUDA_ERROR_ILLEGAL_ADDRESS.*\\| failures: 0");
}

namespace {
// Three launches (and one refused launch, which is not counted) on the cpu
// under TESSEL_CUDART_TIMING=`setting`, then exit: the totals are printed
// at exit.
[[noreturn]] void timedLaunchesChild(const char *setting) {
  ::setenv("TESSEL_DEVICE", "cpu", 1);
  if (setting)
    ::setenv("TESSEL_CUDART_TIMING", setting, 1);
  long long n = 1000;
  float *d = deviceAlloc<float>(n);
  int a = 1;
  float b = 2;
  int ok = 0;
  for (int i = 0; i < 3; ++i)
    ok += launch(&stubAxpb, {10, 1, 1}, {100, 1, 1}, {&d, &d, &a, &b, &n}) == kSuccess;
  ok += launch(&stubAxpb, {1, 1, 1}, {2048, 1, 1}, {&d, &d, &a, &b, &n}) == kSuccess;
  std::fprintf(stderr, "| %d launches succeeded\n", ok);
  std::exit(0);
}
} // namespace

// TESSEL_CUDART_TIMING: launches counted and timed, totals printed at exit
// (to stderr, or appended to a file); nothing without it.
TEST(CudartDeathTest, LaunchTiming) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string line =
      "tessel-cudart: timing device=cpu launches=3 kernel_ms=[0-9]+\\.[0-9]{3} "
      "wall_ms=[0-9]+\\.[0-9]{3}\n";
  EXPECT_EXIT(timedLaunchesChild("1"), ::testing::ExitedWithCode(0),
              "\\| 3 launches succeeded\n" + line);
  EXPECT_EXIT(timedLaunchesChild(nullptr), ::testing::ExitedWithCode(0),
              "\\| 3 launches succeeded\n$");
  // A death test's child runs the test body again up to its statement (the
  // "threadsafe" style): the file is rewritten there too, then appended to.
  std::string path = ::testing::TempDir() + "cudart_launch_timing.txt";
  if (FILE *f = std::fopen(path.c_str(), "w")) {
    std::fputs("an earlier line\n", f);
    std::fclose(f);
  }
  EXPECT_EXIT(timedLaunchesChild(path.c_str()), ::testing::ExitedWithCode(0),
              "\\| 3 launches succeeded\n$");
  std::string text;
  if (FILE *f = std::fopen(path.c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof(buf), f))
      text += buf;
    std::fclose(f);
  }
  std::remove(path.c_str());
  EXPECT_TRUE(std::regex_match(text, std::regex("an earlier line\n" + line))) << text;
}
