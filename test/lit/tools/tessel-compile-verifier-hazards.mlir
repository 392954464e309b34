// Parsed IR that crashes upstream MLIR 22's verifier gets a located error
// from tessel-compile before the verifier runs: a linalg.broadcast listing
// a dimension twice (found by the compiler fuzzer; mlir-opt-22 reads past
// the input's shape and segfaults). Custom and generic forms.
// RUN: not tessel-compile %s -o %t.tmod 2>&1 | FileCheck %s
// RUN: not test -e %t.tmod
// CHECK: tessel-compile-verifier-hazards.mlir:13:8: error: 'linalg.broadcast' lists dimension 1 twice in 'dimensions' array<i64: 1, 1>: each added dimension of the result is listed once
// CHECK: tessel-compile-verifier-hazards.mlir:14:8: error: 'linalg.broadcast' lists dimension 0 twice in 'dimensions' array<i64: 0, 2, 0>
// CHECK-NOT: error
func.func @f(%a: tensor<f32>, %b: tensor<4x5xf32>, %v: tensor<7xf32>,
             %c: tensor<3x7x2x5xf32>, %d: tensor<3x7x2xf32>)
    -> (tensor<4x5xf32>, tensor<3x7x2x5xf32>, tensor<3x7x2xf32>) {
  %r = linalg.broadcast ins(%a : tensor<f32>) outs(%b : tensor<4x5xf32>) dimensions = [1, 1]
  %s = "linalg.broadcast"(%v, %c) <{dimensions = array<i64: 0, 2, 0>}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }) : (tensor<7xf32>, tensor<3x7x2x5xf32>) -> tensor<3x7x2x5xf32>
  // Distinct dimensions pass the check (and verify).
  %t = linalg.broadcast ins(%v : tensor<7xf32>) outs(%d : tensor<3x7x2xf32>) dimensions = [0, 2]
  return %r, %s, %t : tensor<4x5xf32>, tensor<3x7x2x5xf32>, tensor<3x7x2xf32>
}
