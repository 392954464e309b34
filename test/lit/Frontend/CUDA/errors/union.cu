// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A union type used in device code.

union U {
  int i;
  float f;
};
__global__ void k(U *u, int *out) {
  // CHECK: union.cu:[[@LINE+1]]:15: error: union type 'union U' is not supported
  out[0] = u->i;
}
