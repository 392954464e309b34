// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A char array initialized from a string literal.

__global__ void k(char *out) {
  // CHECK: array-initializer.cu:[[@LINE+1]]:14: error: array initializer is not supported
  char s[] = "hi";
  out[0] = s[0];
}
