// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A __device__ function declared but not defined in this file.

// CHECK: no-definition.cu:[[@LINE+1]]:16: error: 'external' has no definition visible to the device compiler
__device__ int external(int);
__global__ void k(int *out) { out[0] = external(out[1]); }
