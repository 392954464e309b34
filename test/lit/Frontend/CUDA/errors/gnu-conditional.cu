// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// The GNU binary conditional a ?: b.

__global__ void k(int *out) {
  // CHECK: gnu-conditional.cu:[[@LINE+1]]:12: error: the GNU '?:' operator is not supported
  out[0] = out[1] ?: 7;
}
