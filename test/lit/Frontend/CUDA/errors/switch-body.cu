// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A switch whose body is not a compound statement.

__global__ void k(int *out, int n) {
  // CHECK: switch-body.cu:[[@LINE+1]]:3: error: a switch whose body is not a compound statement is not supported
  switch (n)
  case 1:
    out[0] = 1;
}
