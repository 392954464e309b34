// Inputs that crash upstream MLIR 22's parser get a located error from
// tessel-compile's source guards instead (a malformed `dimensions` or
// `permutation` list of linalg.reduce / broadcast / transpose).
// RUN: not tessel-compile %s -o %t.tmod 2>&1 | FileCheck %s
// RUN: not test -e %t.tmod
// CHECK: tessel-compile-parser-hazards.mlir:12:73: error: malformed 'dimensions' list: expected '[' integers separated by ',' ']'
// CHECK: tessel-compile-parser-hazards.mlir:18:79: error: malformed 'permutation' list
// CHECK: tessel-compile-parser-hazards.mlir:20:138: error: malformed properties of 'linalg.matmul': expected '<{' (a dictionary)
// Comments and strings are not checked: dimensions = [oops
func.func @f(%h: tensor<3x5xi16>, %t: tensor<3x5xf32>) -> (tensor<3xi16>, tensor<5x3xf32>) {
  %e = tensor.empty() : tensor<3xi16>
  %r = linalg.reduce ins(%h : tensor<3x5xi16>) outs(%e : tensor<3xi16>) dimensions = [1 oops
    (%in: i16, %acc: i16) {
      %m = arith.maxsi %in, %acc : i16
      linalg.yield %m : i16
    }
  %e2 = tensor.empty() : tensor<5x3xf32>
  %p = linalg.transpose ins(%t : tensor<3x5xf32>) outs(%e2 : tensor<5x3xf32>) permutation = [1, ]
  %z = tensor.empty() : tensor<3x3xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] <i64> ins(%t, %t : tensor<3x5xf32>, tensor<3x5xf32>) outs(%z : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r, %p : tensor<3xi16>, tensor<5x3xf32>
}
// CHECK: tessel-compile-parser-hazards.mlir:25:8: error: malformed reassociation of 'tensor.expand_shape': expected groups of consecutive dimensions
func.func @g(%v: tensor<15xf32>) -> tensor<3x5xf32> {
  %e = tensor.expand_shape %v [[]] output_shape [3, 5] : tensor<15xf32> into tensor<3x5xf32>
  return %e : tensor<3x5xf32>
}
// A `<` after linalg.generic's attribute dictionary (found by the compiler
// fuzzer: MLIR 22 aborts casting `f32` to a dictionary).
// CHECK: tessel-compile-parser-hazards.mlir:33:3: error: malformed properties of 'linalg.generic': expected '<{' (a dictionary)
func.func @h(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
  <f32> ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
