// RUN: tessel-opt %s --tessel-form-dispatches --cse | FileCheck %s

// A dispatch takes the dynamic dimensions of its operands, then of its
// results, as host values (tessel.dispatch's dims); the results' extents
// are computed on the host from the operands' (reified shapes), so the host
// keeps the tensor.dims, and shape checks stay host ops.
// CHECK-LABEL: func.func private @main_dispatch_0
// CHECK-SAME: (%{{.+}}: tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK-LABEL: func.func @main
// CHECK: %[[M:.+]] = tensor.dim %arg0, %c0
// CHECK: tessel.assert
// CHECK: %[[R:.+]] = tessel.dispatch @main_dispatch_0(%arg0) [%[[M]], %[[M]]] : (tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK: return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x8xf32>
  %ok = arith.cmpi sge, %m, %c0 : index
  tessel.assert %ok, "never fails"
  %e = tensor.empty(%m) : tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// One tensor.empty (CSE'd) is the init of a later dispatch and, reshaped,
// an operand of an earlier one; the later dispatch's operand extents come
// from the earlier dispatch's result, which the host knows without looking
// at that dispatch's operands (BERT's residual adds after CSE).
// CHECK-LABEL: func.func @shared_empty
// CHECK: %[[D0:.+]] = tessel.dispatch @shared_empty_dispatch_0
// CHECK: %[[M:.+]] = tensor.dim %[[D0]], %c0
// CHECK: %[[Q:.+]] = arith.divui %[[M]]
// CHECK: tessel.dispatch @shared_empty_dispatch_1({{.+}}) [{{.+}}, %[[Q]], {{.+}}]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1) -> (d0)>
func.func @shared_empty(%a: tensor<?x?x8xf32>, %v: tensor<?xf32>) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %a, %c0 : tensor<?x?x8xf32>
  %s = tensor.dim %a, %c1 : tensor<?x?x8xf32>
  %e = tensor.empty(%b, %s) : tensor<?x?x8xf32>
  %ce = tensor.collapse_shape %e [[0, 1], [2]] : tensor<?x?x8xf32> into tensor<?x8xf32>
  %ca = tensor.collapse_shape %a [[0, 1], [2]] : tensor<?x?x8xf32> into tensor<?x8xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #rows, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ca, %v : tensor<?x8xf32>, tensor<?xf32>) outs(%ce : tensor<?x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.addf %x, %y : f32
    linalg.yield %t : f32
  } -> tensor<?x8xf32>
  %m = tensor.dim %r1, %c0 : tensor<?x8xf32>
  %q = arith.divui %m, %s : index
  %x1 = tensor.expand_shape %r1 [[0, 1], [2]] output_shape [%q, %s, 8] : tensor<?x8xf32> into tensor<?x?x8xf32>
  %r2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x1 : tensor<?x?x8xf32>) outs(%e : tensor<?x?x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<?x?x8xf32>
  return %r2 : tensor<?x?x8xf32>
}
