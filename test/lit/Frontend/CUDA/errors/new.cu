// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// new in device code.

__global__ void k(int *out) {
  // CHECK: new.cu:[[@LINE+1]]:12: error: expression 'CXXNewExpr' is not supported
  int *p = new int(3);
  out[0] = *p;
}
