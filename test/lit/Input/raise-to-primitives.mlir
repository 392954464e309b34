// RUN: tessel-opt %s --tessel-raise-to-primitives --split-input-file | FileCheck %s

// An embedding lookup written as a generic with tensor.extract becomes
// tessel.gather (indices out of range then clamp).
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[T:.+]]: tensor<50x13xf32>, %[[IDS:.+]]: tensor<37xi32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<37x13xf32>
// CHECK: tessel.gather dimension_map = [0] ins(%[[T]], %[[IDS]] : tensor<50x13xf32>, tensor<37xi32>) outs(%[[E]] : tensor<37x13xf32>)
// CHECK-NOT: linalg.generic
func.func @embedding(%table: tensor<50x13xf32>, %ids: tensor<37xi32>) -> tensor<37x13xf32> {
  %e = tensor.empty() : tensor<37x13xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<37xi32>) outs(%e : tensor<37x13xf32>) {
  ^bb0(%id: i32, %o: f32):
    %r = arith.index_cast %id : i32 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%r, %j] : tensor<50x13xf32>
    linalg.yield %v : f32
  } -> tensor<37x13xf32>
  return %g : tensor<37x13xf32>
}

// -----

// Columns selected by index-typed indices (no cast), 2-D batch: the
// indexed dimension is the table's last.
// CHECK-LABEL: func.func @columns
// CHECK: tessel.gather dimension_map = [1] ins(%{{.+}}, %{{.+}} : tensor<8x100xi8>, tensor<3x5xindex>) outs(%{{.+}} : tensor<3x5x8xi8>)
func.func @columns(%t: tensor<8x100xi8>, %cols: tensor<3x5xindex>) -> tensor<3x5x8xi8> {
  %e = tensor.empty() : tensor<3x5x8xi8>
  %g = linalg.generic {indexing_maps = [affine_map<(a, b, r) -> (a, b)>, affine_map<(a, b, r) -> (a, b, r)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%cols : tensor<3x5xindex>) outs(%e : tensor<3x5x8xi8>) {
  ^bb0(%c: index, %o: i8):
    %r = linalg.index 2 : index
    %v = tensor.extract %t[%r, %c] : tensor<8x100xi8>
    linalg.yield %v : i8
  } -> tensor<3x5x8xi8>
  return %g : tensor<3x5x8xi8>
}

// -----

// Not gathers: a lookup fused with its consumer (stays one generic), a
// partial slice, and slice loops out of order.
// CHECK-LABEL: func.func @not_gathers
// CHECK-NOT: tessel.gather
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: tessel.gather
func.func @not_gathers(%table: tensor<50x13xf32>, %ids: tensor<37xi32>, %sq: tensor<13x13xf32>, %i13: tensor<13xi32>) -> (tensor<37x13xf32>, tensor<37x7xf32>, tensor<13x13xf32>) {
  %e = tensor.empty() : tensor<37x13xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<37xi32>) outs(%e : tensor<37x13xf32>) {
  ^bb0(%id: i32, %o: f32):
    %r = arith.index_cast %id : i32 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%r, %j] : tensor<50x13xf32>
    %w = arith.mulf %v, %v : f32
    linalg.yield %w : f32
  } -> tensor<37x13xf32>
  %e7 = tensor.empty() : tensor<37x7xf32>
  %part = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<37xi32>) outs(%e7 : tensor<37x7xf32>) {
  ^bb0(%id: i32, %o: f32):
    %r = arith.index_cast %id : i32 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%r, %j] : tensor<50x13xf32>
    linalg.yield %v : f32
  } -> tensor<37x7xf32>
  %e13 = tensor.empty() : tensor<13x13xf32>
  %swap = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%i13 : tensor<13xi32>) outs(%e13 : tensor<13x13xf32>) {
  ^bb0(%id: i32, %o: f32):
    %r = arith.index_cast %id : i32 to index
    %i = linalg.index 0 : index
    %v = tensor.extract %sq[%r, %i] : tensor<13x13xf32>
    linalg.yield %v : f32
  } -> tensor<13x13xf32>
  return %scaled, %part, %swap : tensor<37x13xf32>, tensor<37x7xf32>, tensor<13x13xf32>
}

// -----

// argmax as a two-result reduction (the first maximum kept: ogt) becomes
// tessel.arg_compare along the reduction loop, its comparison the region;
// the inits stay the starting best.
// CHECK-LABEL: func.func @argmax
// CHECK-SAME: (%[[X:.+]]: tensor<29x515xf32>, %[[V:.+]]: tensor<29xf32>, %[[I:.+]]: tensor<29xi64>)
// CHECK: %[[R:.+]]:2 = tessel.arg_compare dimension(1) ins(%[[X]] : tensor<29x515xf32>) outs(%[[V]], %[[I]] : tensor<29xf32>, tensor<29xi64>) {
// CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32):
// CHECK:   %[[C:.+]] = arith.cmpf ogt, %[[A]], %[[B]] : f32
// CHECK:   tessel.yield %[[C]] : i1
// CHECK: return %[[R]]#1
func.func @argmax(%x: tensor<29x515xf32>, %v: tensor<29xf32>, %i: tensor<29xi64>) -> tensor<29xi64> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<29x515xf32>) outs(%v, %i : tensor<29xf32>, tensor<29xi64>) {
  ^bb0(%a: f32, %best: f32, %bi: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %best : f32
    %nv = arith.select %gt, %a, %best : f32
    %ni = arith.select %gt, %ji, %bi : i64
    linalg.yield %nv, %ni : f32, i64
  } -> (tensor<29xf32>, tensor<29xi64>)
  return %r#1 : tensor<29xi64>
}

// -----

// Not arg_compare: the position of another loop, and a best value that is
// not the element itself.
// CHECK-LABEL: func.func @not_argmax
// CHECK-NOT: tessel.arg_compare
// CHECK-COUNT-2: linalg.generic
func.func @not_argmax(%x: tensor<29x515xf32>, %v: tensor<29xf32>, %i: tensor<29xi64>) -> (tensor<29xi64>, tensor<29xi64>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<29x515xf32>) outs(%v, %i : tensor<29xf32>, tensor<29xi64>) {
  ^bb0(%a: f32, %best: f32, %bi: i64):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %best : f32
    %nv = arith.select %gt, %a, %best : f32
    %ni = arith.select %gt, %ji, %bi : i64
    linalg.yield %nv, %ni : f32, i64
  } -> (tensor<29xf32>, tensor<29xi64>)
  %s:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<29x515xf32>) outs(%v, %i : tensor<29xf32>, tensor<29xi64>) {
  ^bb0(%a: f32, %best: f32, %bi: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %aa = math.absf %a : f32
    %gt = arith.cmpf ogt, %aa, %best : f32
    %nv = arith.select %gt, %aa, %best : f32
    %ni = arith.select %gt, %ji, %bi : i64
    linalg.yield %nv, %ni : f32, i64
  } -> (tensor<29xf32>, tensor<29xi64>)
  return %r#1, %s#1 : tensor<29xi64>, tensor<29xi64>
}
