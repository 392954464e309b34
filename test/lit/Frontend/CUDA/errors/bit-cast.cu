// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// __builtin_bit_cast.

__global__ void k(int *out, float f) {
  // CHECK: bit-cast.cu:[[@LINE+1]]:12: error: cast 'LValueToRValueBitCast' is not supported
  out[0] = __builtin_bit_cast(int, f);
}
