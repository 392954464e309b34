// A barrier under a condition on threadIdx is undefined in CUDA unless every
// thread of the block goes the same way: tessel-cc warns (and compiles it).
// Barriers in uniform control flow get no warning.
// RUN: tessel-cc %s --emit=mlir 2>&1 >/dev/null | FileCheck %s --implicit-check-not=warning:

__global__ void divergent(float *a) {
  if (threadIdx.x < 16) {
    a[threadIdx.x] = 1;
    // CHECK: divergent-barrier.cu:[[@LINE+1]]:5: warning: __syncthreads() under a condition that depends on threadIdx
    __syncthreads();
  }
  // CHECK-NEXT: divergent-barrier.cu:7:7: note: the condition
}

__global__ void loop(float *a, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    a[i] += 1;
    // CHECK: divergent-barrier.cu:[[@LINE+1]]:5: warning: __syncthreads() under a condition that depends on threadIdx
    __syncthreads();
  }
  // CHECK-NEXT: divergent-barrier.cu:16:8: note: the condition
}

__global__ void uniform(float *a) {
  __shared__ float s[64];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (blockIdx.x == 0) {
    __syncthreads();
  }
  a[threadIdx.x] = s[0];
}
