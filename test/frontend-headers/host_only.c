/* A host-only C (or C++) file of a CUDA program: the runtime and driver API
 * headers also work outside CUDA mode (compiled as C and as C++). */
#include <cuda.h>
#include <cuda_runtime.h>

int main(void) {
  float *p = 0;
  struct cudaDeviceProp prop;
  dim3 grid = {1, 1, 1};
  float4 f = make_float4(1, 2, 3, 4);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  if (cudaMalloc((void **)&p, sizeof(float)) != cudaSuccess)
    return 1;
  cudaGetDeviceProperties(&prop, 0);
  cudaMemcpy(p, &f, sizeof(float), cudaMemcpyHostToDevice);
  cudaFree(p);
  return (int)f.x + prop.major + (int)grid.x;
}
