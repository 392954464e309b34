// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// try in device code (clang rejects it).

__global__ void k(int *out) {
  // CHECK: try.cu:[[@LINE+1]]:3: error: cannot use 'try' in __global__ function
  try {
    out[0] = 1;
  } catch (...) {
  }
}
