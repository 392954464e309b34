// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// An initialized __shared__ variable (clang rejects it).

__global__ void k(int *out) {
  // CHECK: shared-initializer.cu:[[@LINE+1]]:18: error: initialization is not supported for __shared__ variables
  __shared__ int s = 3;
  out[0] = s;
}
