// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// printf in device code (declared by the CUDA headers).

__global__ void k(int *out) {
  // CHECK: printf.cu:[[@LINE+1]]:3: error: printf in device code is not supported yet
  printf("%d\n", out[0]);
}
