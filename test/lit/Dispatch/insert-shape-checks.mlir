// RUN: tessel-opt %s --tessel-insert-shape-checks --cse --canonicalize --split-input-file | FileCheck %s

// Dimensions one loop indexes are checked on the host when either is
// dynamic; a static one is the reference. Arguments are named by number,
// other operands by the op that reads them; a dimension against itself
// (the init built from the same extent) needs no check.
// CHECK-LABEL: func.func @add
// CHECK-DAG: %[[A0:.+]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[B0:.+]] = tensor.dim %arg1, %c0
// CHECK: %[[EQ:.+]] = arith.cmpi eq, %[[B0]], %[[A0]]
// CHECK: tessel.assert %[[EQ]], "argument 1 dimension 0 is {} but argument 0 dimension 0 is {} (they must be equal)"[%[[B0]], %[[A0]]]
// CHECK-NOT: tessel.assert
// CHECK: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%m) : tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x8xf32>, tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// A matmul's K: the static extent of B is the reference for A's dynamic
// one; M and N are checked against the init.
// CHECK-LABEL: func.func @matmul
// CHECK: tessel.assert %{{.+}}, "argument 0 dimension 1 is {} but argument 1 dimension 0 is {} (they must be equal)"
// CHECK-NOT: tessel.assert
// CHECK: linalg.matmul
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<16x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<16x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<16x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Static shapes need no checks.
// CHECK-LABEL: func.func @static
// CHECK-NOT: tessel.assert
func.func @static(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
