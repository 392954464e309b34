// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A __device__ global variable.

__device__ int counter;
__global__ void k(int *out) {
  // CHECK: device-global.cu:[[@LINE+1]]:12: error: global variable 'counter' is not supported in device code yet (__device__/__constant__ globals)
  out[0] = counter;
}
