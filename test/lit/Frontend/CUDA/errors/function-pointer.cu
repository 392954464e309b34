// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A call through a function pointer.

typedef int (*op_t)(int);
__global__ void k(op_t f, int *out) {
  // CHECK: function-pointer.cu:[[@LINE+1]]:12: error: indirect calls (through function pointers) are not supported
  out[0] = f(out[1]);
}
