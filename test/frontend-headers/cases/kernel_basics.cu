// Kernel-language basics: execution/memory spaces, launch bounds, built-in
// variables, dim3/uint3, launches with every configuration form.
// (No __managed__ variables: clang ignores the attribute for CUDA; with the
// toolkit too.)
#include <cuda_runtime.h>
#include <device_launch_parameters.h>

__constant__ float c_coeffs[16];
__device__ int d_counter;

__device__ __forceinline__ float twice(float x) { return 2.0f * x; }
__device__ __noinline__ float thrice(float x) { return 3.0f * x; }
__host__ __device__ inline int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

struct Params {
  int n;
  float scale;
};

__global__ void __launch_bounds__(256, 2)
    scale_kernel(const float *__restrict__ in, float *__restrict__ out,
                 Params p) {
  __shared__ float tile[256];
  extern __shared__ float dyn[];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = gid; i < (unsigned)p.n; i += stride) {
    tile[tid] = in[i];
    dyn[tid] = twice(tile[tid]) + thrice(c_coeffs[tid % 16]);
    out[i] = dyn[tid] * p.scale + (float)clampi((int)i, 0, 7) + warpSize;
  }
  if (gid == 0)
    d_counter = p.n;
}

__global__ void idx3d(int *out) {
  uint3 t = threadIdx;
  dim3 b = blockIdx;
  dim3 bd = blockDim;
  uint3 gd = gridDim;
  out[0] = t.x + t.y + t.z + b.x + b.y + b.z + bd.x * bd.y * bd.z + gd.x +
           gd.y + gd.z;
}

template <typename T, int N> __global__ void fill(T *p, T v) {
  int i = blockIdx.x * N + threadIdx.x;
  p[i] = v;
}

__global__ void __grid_constant_param(const __grid_constant__ Params p,
                                      int *out) {
  out[threadIdx.x] = p.n;
}

int main() {
  float *in = nullptr, *out = nullptr;
  int *ip = nullptr;
  cudaStream_t s;
  cudaStreamCreate(&s);
  Params p = {1024, 0.5f};
  dim3 grid(4), block(256);
  scale_kernel<<<grid, block>>>(in, out, p);
  scale_kernel<<<4, 256, 256 * sizeof(float)>>>(in, out, p);
  scale_kernel<<<grid, block, 1024, s>>>(in, out, p);
  idx3d<<<dim3(2, 2, 2), dim3(4, 4, 4)>>>(ip);
  fill<float, 32><<<8, 32, 0, s>>>(out, 1.0f);
  fill<int, 64><<<1, 64>>>(ip, 3);
  __grid_constant_param<<<1, 32>>>(p, ip);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
