// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A case label nested inside a statement of its switch (Duff's device style).

__global__ void k(int *out, int n) {
  switch (n) {
  case 0:
    out[0] = 1;
    if (out[1]) {
    // CHECK: case-nested.cu:[[@LINE+1]]:5: error: case label outside the top level of its switch body is not supported
    case 1:
      out[0] = 2;
    }
  }
}
