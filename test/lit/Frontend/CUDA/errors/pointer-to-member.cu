// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A pointer to a data member.

struct S {
  int a, b;
};
__global__ void k(S *s, int *out) {
  // CHECK: pointer-to-member.cu:[[@LINE+1]]:11: error: type 'int S::*' is not supported
  int S::*m = &S::b;
  out[0] = s->*m;
}
