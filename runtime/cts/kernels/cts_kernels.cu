// CUDA versions of the runtime's test kernels (test/kernels/test_kernels.c),
// for the HAL conformance suite. They follow the cuda kernel ABI: one device
// pointer parameter per binding, in binding order; element counts arrive in a
// binding, since the ABI has no push constants. Each workgroup (block) covers
// 64 elements along x, like the cpu kernels; launch with 64 threads.
//
// The PTX and cubin next to this file are generated from it and committed, so
// that building the suite needs no CUDA toolkit. Regenerate with
//   nvcc -arch=sm_80 -ptx   cts_kernels.cu -o cts_kernels.sm_80.ptx
//   nvcc -arch=sm_90 -cubin cts_kernels.cu -o cts_kernels.sm_90.cubin
#include <stdint.h>

#define TESSEL_TEST_WG 64

__device__ static long long element() {
  return (long long)blockIdx.x * TESSEL_TEST_WG + threadIdx.x;
}

// bindings: n (i64), a, b, out (f32[n])
extern "C" __global__ void add_f32(const long long *n, const float *a, const float *b,
                                   float *out) {
  long long i = element();
  if (threadIdx.x < TESSEL_TEST_WG && i < *n)
    out[i] = a[i] + b[i];
}

// bindings: n (i64), factor (f32 scalar), a, out (f32[n])
extern "C" __global__ void scale_f32(const long long *n, const float *factor, const float *in,
                                     float *out) {
  long long i = element();
  if (threadIdx.x < TESSEL_TEST_WG && i < *n)
    out[i] = in[i] * *factor;
}

// bindings: n (i64), a, out (f32[n])
extern "C" __global__ void exp_f32(const long long *n, const float *in, float *out) {
  long long i = element();
  if (threadIdx.x < TESSEL_TEST_WG && i < *n)
    out[i] = expf(in[i]);
}

// bindings: dims (i64[3], the workgroup count), inout (i32[x*y*z]). Thread 0
// of each block adds a value encoding the block id to its own element.
extern "C" __global__ void wg_ids_i32(const long long *dims, int32_t *inout) {
  if (threadIdx.x != 0)
    return;
  long long x = blockIdx.x, y = blockIdx.y, z = blockIdx.z;
  long long lin = (z * dims[1] + y) * dims[0] + x;
  inout[lin] += (int32_t)(1 + x + 100 * y + 10000 * z);
}

// bindings: n (i64), inout (u32[n]); x -> 3x + 1 (mod 2^32).
extern "C" __global__ void step_u32(const long long *n, uint32_t *inout) {
  long long i = element();
  if (threadIdx.x < TESSEL_TEST_WG && i < *n)
    inout[i] = inout[i] * 3u + 1u;
}

// bindings: one (ignored) buffer. Stores through an unmapped address, so the
// launch fails with CUDA_ERROR_ILLEGAL_ADDRESS: checks that a kernel fault
// is reported as an error naming the kernel, not a crash or a hang.
extern "C" __global__ void fault_write(int32_t *unused) {
  (void)unused;
  *(volatile int32_t *)(uintptr_t)16 = 1;
}

// ---- CUDA C ABI kernels (abi CudaC) -----------------------------------------
// Launched with CommandBuffer::launch: grid, block, dynamic shared memory and
// parameter values per launch. The cpu versions are in test/kernels/
// test_kernels.c (same names, same results).

__device__ static long long blockLinear() {
  return blockIdx.x + (long long)gridDim.x * (blockIdx.y + (long long)gridDim.y * blockIdx.z);
}

// out[i] = a * in[i] + b for i = block * threadsPerBlock + thread < n.
extern "C" __global__ void axpb_cuda_c(float *out, const float *in, int a, float b,
                                       long long n) {
  long long threads = (long long)blockDim.x * blockDim.y * blockDim.z;
  long long t = threadIdx.x + (long long)blockDim.x * (threadIdx.y + (long long)blockDim.y * threadIdx.z);
  long long i = blockLinear() * threads + t;
  if (i < n)
    out[i] = (float)a * in[i] + b;
}

// out[7 * block ..]: grid x, y, z, block x, y, z, dynamic shared bytes +
// 1000 * tag. Every thread also writes and reads back its own bytes of the
// dynamic shared memory, so a launch with less than it asked for faults.
extern "C" __global__ void launch_info_cuda_c(long long *out, char tag) {
  extern __shared__ unsigned char dynamicShared[];
  unsigned dynamicBytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dynamicBytes));
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  for (unsigned j = t; j < dynamicBytes; j += threads)
    dynamicShared[j] = (unsigned char)j;
  __syncthreads();
  bool ok = true;
  for (unsigned j = t; j < dynamicBytes; j += threads)
    ok &= dynamicShared[j] == (unsigned char)j;
  if (!__syncthreads_and(ok) || t != 0)
    return;
  long long *o = out + 7 * blockLinear();
  o[0] = gridDim.x, o[1] = gridDim.y, o[2] = gridDim.z;
  o[3] = blockDim.x, o[4] = blockDim.y, o[5] = blockDim.z;
  o[6] = dynamicBytes + 1000LL * tag;
}
