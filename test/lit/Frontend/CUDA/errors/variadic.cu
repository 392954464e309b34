// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A variadic __device__ function.

// CHECK: variadic.cu:[[@LINE+1]]:16: error: variadic function 'first' is not supported
__device__ int first(int n, ...) { return n; }
__global__ void k(int *out) { out[0] = first(1, 2, 3); }
