// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A class with a base class.

struct Base {
  int a;
};
struct Derived : Base {
  int b;
};
__global__ void k(Derived *d, int *out) {
  // CHECK: base-class.cu:[[@LINE+1]]:15: error: class 'struct Derived' has base classes or virtual functions, which are not supported
  out[0] = d->b;
}
