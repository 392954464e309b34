// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A lambda.

__global__ void k(int *out) {
  // CHECK: lambda.cu:[[@LINE+1]]:14: error: expression 'LambdaExpr' is not supported
  auto add = [](int a, int b) { return a + b; };
  out[0] = add(out[1], out[2]);
}
