// RUN: tessel-opt %s --tessel-fuse-elementwise --split-input-file | FileCheck %s

// Elementwise producers fuse into elementwise consumers as upstream does.
// CHECK-LABEL: func.func @elementwise_chain
// CHECK-COUNT-1: linalg.generic
// CHECK: math.exp
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise_chain(%x: tensor<7x9xf32>, %y: tensor<7x9xf32>) -> tensor<7x9xf32> {
  %e = tensor.empty() : tensor<7x9xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<7x9xf32>) outs(%e : tensor<7x9xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = math.exp %i : f32
    linalg.yield %r : f32
  } -> tensor<7x9xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %y : tensor<7x9xf32>, tensor<7x9xf32>) outs(%e : tensor<7x9xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %r = arith.addf %i, %j : f32
    linalg.yield %r : f32
  } -> tensor<7x9xf32>
  return %b : tensor<7x9xf32>
}

// -----

// Into a contraction only same-layout casts fuse: the extf of A fuses (the
// matmul strategies fold it); the exp of B stays a producer (it would be
// recomputed for every row of A), and so does the transpose of C's operand
// (its permuted map would leave loops the matmul strategies cannot take).
// CHECK-LABEL: func.func @into_contraction
// CHECK: %[[EXP:.+]] = linalg.generic {{.+}} ins(%arg1 : tensor<5x6xf32>)
// CHECK: math.exp
// CHECK: %[[T:.+]] = linalg.generic {{.+}} ins(%arg2 : tensor<6x5xf32>)
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %[[EXP]] : tensor<4x5xf16>, tensor<5x6xf32>)
// CHECK: arith.extf
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %[[T]] : tensor<4x5xf16>, tensor<5x6xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @into_contraction(%a: tensor<4x5xf16>, %b: tensor<5x6xf32>, %c: tensor<6x5xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %z = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<4x5xf32>
  %a32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x5xf16>) outs(%ea : tensor<4x5xf32>) {
  ^bb0(%i: f16, %o: f32):
    %r = arith.extf %i : f16 to f32
    linalg.yield %r : f32
  } -> tensor<4x5xf32>
  %eb = tensor.empty() : tensor<5x6xf32>
  %bexp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<5x6xf32>) outs(%eb : tensor<5x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = math.exp %i : f32
    linalg.yield %r : f32
  } -> tensor<5x6xf32>
  %ct = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<6x5xf32>) outs(%eb : tensor<5x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<5x6xf32>
  %eo = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%eo : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m1 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a32, %bexp : tensor<4x5xf32>, tensor<5x6xf32>) outs(%f : tensor<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %a32b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x5xf16>) outs(%ea : tensor<4x5xf32>) {
  ^bb0(%i: f16, %o: f32):
    %r = arith.extf %i : f16 to f32
    linalg.yield %r : f32
  } -> tensor<4x5xf32>
  %m2 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a32b, %ct : tensor<4x5xf32>, tensor<5x6xf32>) outs(%f : tensor<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %m1, %m2 : tensor<4x6xf32>, tensor<4x6xf32>
}
