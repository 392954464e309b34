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
// A TOSA op in custom form whose attribute dictionary has something other
// than `name = value` (found by the compiler fuzzer: MLIR 22's TOSA parsers
// fail on it without a message): a stray token, a quoted name, an extra
// comma.
// CHECK: tessel-compile-parser-hazards.mlir:48:88: error: malformed attribute dictionary of 'tosa.rescale': expected an attribute name (a bare identifier) followed by '='
// CHECK: tessel-compile-parser-hazards.mlir:49:25: error: malformed attribute dictionary of 'tosa.add'
// CHECK: tessel-compile-parser-hazards.mlir:50:64: error: malformed attribute dictionary of 'tosa.clamp'
// CHECK-NOT: error
func.func @tosa(%x: tensor<23x41xi8>, %f: tensor<4xf32>, %m: tensor<1xi32>, %s: tensor<1xi8>) -> (tensor<23x41xi8>, tensor<4xf32>, tensor<4xf32>) {
  %r = tosa.rescale %x, %m, %s, %s, %s {input_unsigned = true, output_unsigned = false,( per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<23x41xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<23x41xi8>
  %a = tosa.add %f, %f {"foo" = 1} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = tosa.clamp %f {min_val = 0.0 : f32, max_val = 1.0 : f32,} : (tensor<4xf32>) -> tensor<4xf32>
  return %r, %a, %c : tensor<23x41xi8>, tensor<4xf32>, tensor<4xf32>
}
