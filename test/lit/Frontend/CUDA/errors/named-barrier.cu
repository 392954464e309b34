// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A barrier other than barrier 0.

__global__ void k(int *out) {
  out[threadIdx.x] = 1;
  // CHECK: named-barrier.cu:[[@LINE+1]]:3: error: named barriers other than 0 are not supported
  __nvvm_bar_sync(1);
}
