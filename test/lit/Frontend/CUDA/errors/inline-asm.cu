// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// Inline PTX assembly.

__global__ void k(int *out) {
  int v;
  // CHECK: inline-asm.cu:[[@LINE+1]]:3: error: inline assembly is not supported
  asm("mov.u32 %0, 7;" : "=r"(v));
  out[0] = v;
}
