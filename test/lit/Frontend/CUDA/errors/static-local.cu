// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A static local variable.

__global__ void k(int *out) {
  // CHECK: static-local.cu:[[@LINE+1]]:14: error: static local variable 'calls' is not supported in device code
  static int calls;
  out[0] = calls;
}
