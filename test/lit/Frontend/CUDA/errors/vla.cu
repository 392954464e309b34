// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A variable-length array (clang rejects it in device code).

__device__ int first(int n) {
  // CHECK: vla.cu:[[@LINE+1]]:10: error: cannot use variable-length arrays in __device__ functions
  int tmp[n];
  tmp[0] = n;
  return tmp[0];
}
__global__ void k(int *out) { out[0] = first(out[1]); }
