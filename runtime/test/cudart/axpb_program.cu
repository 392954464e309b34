// An ordinary CUDA program (no Tessel headers), the end-to-end test of
// libtessel_cudart.a: its host code is compiled by clang with
// --cuda-host-only and a Tessel module embedded as the GPU binary (built by
// make_cudart_blob from the cpu kernel in test/kernels/test_kernels.c and
// the PTX next to this file), then linked with libtessel_cudart.a. It runs
// on the device the library picks (TESSEL_DEVICE=cpu|cuda forces one) and
// exits 0 only if every result and every expected error is right.
//
// Regenerate the PTX with
//   nvcc -arch=sm_80 -ptx axpb_program.cu -o axpb_program.sm_80.ptx
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

__global__ void axpb(float *out, const float *in, int a, float b, long long n) {
  long long threads = (long long)blockDim.x * blockDim.y * blockDim.z;
  long long block = blockIdx.x + (long long)gridDim.x * (blockIdx.y + (long long)gridDim.y * blockIdx.z);
  long long t = threadIdx.x + (long long)blockDim.x * (threadIdx.y + (long long)blockDim.y * threadIdx.z);
  long long i = block * threads + t;
  if (i < n)
    out[i] = (float)a * in[i] + b;
}

static int failures = 0;
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "axpb_program:%d: check failed: %s\n", __LINE__, #cond);                \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)
#define CUDA_OK(call)                                                                              \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "axpb_program:%d: %s: %s (%s)\n", __LINE__, #call,                     \
                   cudaGetErrorName(e_), cudaGetErrorString(e_));                                  \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

// Runs axpb over `grid` x `block` on n elements and checks every element
// (and that the one after the end stays untouched).
static void run(dim3 grid, dim3 block, long long n, uint32_t seed) {
  std::vector<float> in(n), out(n + 1);
  uint32_t x = seed;
  for (float &v : in) {
    x = x * 1664525u + 1013904223u;
    v = (float)((int)(x >> 12) % 2001 - 1000); // integers: a * v + b is exact
  }
  const int a = (int)(seed % 17) - 8;
  const float b = 0.25f;
  float *dIn = nullptr, *dOut = nullptr;
  CUDA_OK(cudaMalloc(&dIn, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&dOut, (n + 1) * sizeof(float)));
  CUDA_OK(cudaMemcpy(dIn, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(dOut, 0xFF, (n + 1) * sizeof(float)));
  axpb<<<grid, block>>>(dOut, dIn, a, b, n);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(out.data(), dOut, (n + 1) * sizeof(float), cudaMemcpyDeviceToHost));
  long long bad = -1;
  for (long long i = 0; i < n && bad < 0; ++i)
    if (out[i] != (float)a * in[i] + b)
      bad = i;
  uint32_t tail;
  std::memcpy(&tail, &out[n], 4);
  if (bad >= 0)
    std::fprintf(stderr, "axpb_program: element %lld of %lld: got %g, want %g\n", bad, n,
                 out[bad], (float)a * in[bad] + b);
  CHECK(bad < 0);
  CHECK(tail == 0xFFFFFFFFu);
  CUDA_OK(cudaFree(dIn));
  CUDA_OK(cudaFree(dOut));
}

int main() {
  int count = 0;
  CUDA_OK(cudaGetDeviceCount(&count));
  CHECK(count == 1);

  // Device properties, read as programs read them (launch sizes from
  // maxThreadsPerBlock and maxGridSize, free memory before allocating).
  cudaDeviceProp prop;
  std::memset(&prop, 0xAB, sizeof(prop));
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  CHECK(prop.name[0] != 0 && std::strlen(prop.name) < sizeof(prop.name));
  CHECK(prop.warpSize == 32);
  CHECK(prop.maxThreadsPerBlock == 1024);
  CHECK(prop.maxGridSize[0] == 2147483647 && prop.maxGridSize[1] == 65535);
  CHECK(prop.major >= 8 && prop.multiProcessorCount > 0 && prop.totalGlobalMem > 0);
  int value = -1;
  CUDA_OK(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0));
  CHECK(value == prop.multiProcessorCount);
  CUDA_OK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlock, 0));
  CHECK(value == (int)prop.sharedMemPerBlock && value >= 48 * 1024);
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_OK(cudaMemGetInfo(&freeBytes, &totalBytes));
  CHECK(totalBytes == prop.totalGlobalMem && freeBytes <= totalBytes);
  CHECK(cudaGetDeviceProperties(&prop, 1) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  run(dim3(3), dim3(prop.maxThreadsPerBlock), 3 * 1024 - 5, 4);

  cudaEvent_t start, stop;
  CUDA_OK(cudaEventCreate(&start));
  CUDA_OK(cudaEventCreate(&stop));
  CUDA_OK(cudaEventRecord(start));
  run(dim3(10310), dim3(97), 1000003, 1);          // odd sizes, a partial last block
  run(dim3(7, 3, 2), dim3(5, 3, 2), 7 * 3 * 2 * 30 - 11, 2);
  run(dim3(1), dim3(1024), 1000, 3);
  CUDA_OK(cudaEventRecord(stop));
  CUDA_OK(cudaEventSynchronize(stop));
  float ms = -1;
  CUDA_OK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(ms >= 0);

  // Errors: reported, not fatal.
  float *d = nullptr;
  CUDA_OK(cudaMalloc(&d, 64));
  axpb<<<1, 2048>>>(d, d, 1, 1.0f, 16); // too many threads per block
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  CHECK(cudaGetLastError() == cudaSuccess);
  float host[32] = {};
  CHECK(cudaMemcpy(host, d + 8, 32 * sizeof(float), cudaMemcpyDeviceToHost) ==
        cudaErrorInvalidValue); // past the end of the allocation
  CHECK(cudaMemcpy(d, host, 4, cudaMemcpyDefault) == cudaSuccess);
  CUDA_OK(cudaFree(d));
  CUDA_OK(cudaEventDestroy(start));
  CUDA_OK(cudaEventDestroy(stop));
  if (failures) {
    std::fprintf(stderr, "axpb_program: %d failures\n", failures);
    return 1;
  }
  std::printf("axpb_program: ok (%.3f ms)\n", ms);
  return 0;
}
