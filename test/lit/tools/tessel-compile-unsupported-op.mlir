// An op outside the accepted dialects (scf.for) is named at its location;
// its body is not reported, and nothing is written.
// RUN: rm -f %t.tmod
// RUN: not tessel-compile %s -o %t.tmod 2>&1 | FileCheck %s
// RUN: not test -e %t.tmod

// CHECK: {{.*}}tessel-compile-unsupported-op.mlir:[[@LINE+6]]:8: error: unsupported op 'scf.for'
// CHECK-NOT: error: unsupported op 'scf.yield'
func.func @loop(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a) -> tensor<4xf32> {
    %y = arith.addf %x, %x : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// A tensor op Tessel does not lower is named too, in the same run.
// CHECK: {{.*}}tessel-compile-unsupported-op.mlir:[[@LINE+2]]:8: error: unsupported op 'tensor.reshape'
func.func @reshape(%a: tensor<6xf32>, %s: tensor<2xi64>) -> tensor<2x3xf32> {
  %0 = tensor.reshape %a(%s) : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
