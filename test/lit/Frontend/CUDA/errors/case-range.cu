// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A GNU case range.

__global__ void k(int *out, int n) {
  switch (n) {
  // CHECK: case-range.cu:[[@LINE+1]]:3: error: case ranges are not supported
  case 1 ... 4:
    out[0] = 1;
    break;
  }
}
