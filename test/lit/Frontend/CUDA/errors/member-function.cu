// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A call of a non-static member function.

struct Counter {
  int n;
  __device__ int get() const { return n; }
};
__global__ void k(Counter *c, int *out) {
  // CHECK: member-function.cu:[[@LINE+1]]:15: error: call of member function 'Counter::get' is not supported (only static members)
  out[0] = c->get();
}
