// A call to an external function (no body to inline) is rejected, naming
// the function, at the declaration's location.
// RUN: rm -f %t.tmod
// RUN: not tessel-compile %s -o %t.tmod 2>&1 | FileCheck %s
// RUN: not test -e %t.tmod

// CHECK: {{.*}}tessel-compile-external-call.mlir:[[@LINE+1]]:1: error: external function 'ext' is not supported: Tessel needs a body
func.func private @ext(tensor<4xf32>) -> tensor<4xf32>
func.func @calls_ext(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @ext(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
