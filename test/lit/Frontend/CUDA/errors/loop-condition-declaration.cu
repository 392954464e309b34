// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A declaration as a loop condition.

__global__ void k(int *out) {
  int i = 3;
  // CHECK: loop-condition-declaration.cu:[[@LINE+1]]:3: error: a declaration in a loop condition is not supported
  while (int left = i--)
    out[left] = 0;
}
