// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A class with virtual functions.

struct Shape {
  virtual __device__ float area() const { return 0.0f; }
  float w;
};
__global__ void k(Shape *s, float *out) {
  // CHECK: virtual.cu:[[@LINE+1]]:15: error: class 'struct Shape' has base classes or virtual functions, which are not supported
  out[0] = s->w;
}
