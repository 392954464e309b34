// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// goto and labels (the label is reached first).

__global__ void k(int *out) {
  int i = 0;
// CHECK: goto.cu:[[@LINE+1]]:1: error: 'goto' and labels are not supported
again:
  if (++i < 4)
    goto again;
  out[0] = i;
}
