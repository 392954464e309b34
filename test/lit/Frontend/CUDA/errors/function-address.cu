// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// Taking the address of a function.

__device__ int one(int x) { return x + 1; }
__global__ void k(int *out) {
  // CHECK: function-address.cu:[[@LINE+1]]:19: error: cast 'FunctionToPointerDecay' is not supported
  int (*f)(int) = one;
  out[0] = f(out[1]);
}
