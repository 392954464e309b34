// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A non-trivial constructor.

struct Acc {
  float sum;
  __device__ Acc() : sum(1.0f) {}
};
__global__ void k(float *out) {
  // CHECK: constructor.cu:[[@LINE+1]]:7: error: constructor call of 'Acc' is not supported (only trivial constructors)
  Acc a;
  out[0] = a.sum;
}
