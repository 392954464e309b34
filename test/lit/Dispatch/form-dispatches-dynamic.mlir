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
