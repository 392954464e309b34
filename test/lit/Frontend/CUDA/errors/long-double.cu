// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// long double, which has no translation.

__global__ void k(long double *out) {
  // CHECK: long-double.cu:[[@LINE+1]]:12: error: type 'long double' is not supported
  out[0] = 1.0L;
}
