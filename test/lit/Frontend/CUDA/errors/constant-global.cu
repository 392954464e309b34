// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A __constant__ global array.

__constant__ float coeffs[4];
__global__ void k(float *out) {
  // CHECK: constant-global.cu:[[@LINE+1]]:12: error: global variable 'coeffs' is not supported in device code yet (__device__/__constant__ globals)
  out[0] = coeffs[threadIdx.x];
}
