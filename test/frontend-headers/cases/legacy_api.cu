// Pre-CUDA-13 sources: cudaThread* and the CUDA 12 cudaDeviceProp fields
// (Tessel keeps them unless TESSEL_CUDA_NO_LEGACY_API is defined).
#include <cuda_runtime.h>
#include <cstdio>

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("%d kHz, overlap %d, mode %d\n", p.clockRate, p.deviceOverlap,
         p.computeMode);
  cudaThreadSetLimit(cudaLimitStackSize, 4096);
  cudaThreadSynchronize();
  cudaThreadExit();
  return 0;
}
