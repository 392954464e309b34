// Host side of the runtime API: memory, streams, events, errors, device
// queries, symbols, function attributes, occupancy, launch API.
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <cstdio>
#include <cstdlib>

__constant__ float c_table[64];
__device__ int d_value;

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + c_table[i % 64] + d_value;
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s: %s (%s)\n", #call, cudaGetErrorString(err_),        \
              cudaGetErrorName(err_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

int main() {
  int count = 0, dev = 0, driver = 0, runtime = 0;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  printf("%s sm_%d%d %d SMs, %zu bytes, warp %d\n", prop.name, prop.major,
         prop.minor, prop.multiProcessorCount, prop.totalGlobalMem,
         prop.warpSize);

  const int n = 1 << 20;
  float *x, *y, *h, *pinned, *managed;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&y, n * sizeof(float)));
  CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
  CHECK(cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocDefault));
  CHECK(cudaMallocManaged(&managed, n * sizeof(float)));
  size_t pitch;
  float *pitched;
  CHECK(cudaMallocPitch(&pitched, &pitch, 256 * sizeof(float), 256));
  CHECK(cudaMemset(y, 0, n * sizeof(float)));
  CHECK(cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2D(pitched, pitch, h, 256 * sizeof(float),
                     256 * sizeof(float), 256, cudaMemcpyDefault));
  float table[64] = {0};
  int one = 1;
  CHECK(cudaMemcpyToSymbol(c_table, table, sizeof(table)));
  CHECK(cudaMemcpyToSymbol(d_value, &one, sizeof(int), 0,
                           cudaMemcpyHostToDevice));
  void *sym = nullptr;
  CHECK(cudaGetSymbolAddress(&sym, d_value));

  cudaStream_t s;
  cudaEvent_t start, stop;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop, cudaEventBlockingSync));
  CHECK(cudaEventRecord(start, s));
  CHECK(cudaMemcpyAsync(y, pinned, n * sizeof(float), cudaMemcpyHostToDevice,
                        s));

  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, saxpy));
  CHECK(cudaFuncSetCacheConfig(saxpy, cudaFuncCachePreferL1));
  CHECK(cudaFuncSetAttribute(saxpy, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             0));
  int minGrid = 0, blockSize = 0, blocksPerSM = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, saxpy));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSM, saxpy,
                                                      blockSize, 0));
  saxpy<<<(n + 255) / 256, 256, 0, s>>>(n, 2.0f, x, y);
  CHECK(cudaGetLastError());
  float a = 3.0f;
  int nn = n;
  void *args[] = {&nn, &a, &x, &y};
  CHECK(cudaLaunchKernel((const void *)saxpy, dim3(n / 256), dim3(256), args,
                         0, s));
  CHECK(cudaLaunchKernel(saxpy, dim3(n / 256), dim3(256), args));
  CHECK(cudaEventRecord(stop, s));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost));
  size_t freeB, totalB;
  CHECK(cudaMemGetInfo(&freeB, &totalB));
  cudaPointerAttributes pa;
  CHECK(cudaPointerGetAttributes(&pa, x));
  cudaMemLocation loc = {cudaMemLocationTypeDevice, dev};
  CHECK(cudaMemPrefetchAsync(managed, n * sizeof(float), loc, 0, s));
  CHECK(cudaMemAdvise(managed, n * sizeof(float), cudaMemAdviseSetReadMostly,
                      loc));
  CHECK(cudaProfilerStart());
  CHECK(cudaProfilerStop());

  switch (cudaPeekAtLastError()) {
  case cudaErrorMemoryAllocation:
  case cudaErrorInvalidValue:
  case cudaErrorLaunchFailure:
  case cudaErrorIllegalAddress:
    return 2;
  default:
    break;
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(pitched));
  CHECK(cudaFree(managed));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFreeHost(h));
  printf("%f ms\n", ms);
  return 0;
}
