// RUN: tessel-opt %s --tessel-form-dispatches="fuse-epilogues=true" --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-form-dispatches --split-input-file | FileCheck %s --check-prefix=NOFUSE

// matmul -> bias add -> relu (separate generics): one dispatch with
// fuse-epilogues, holding the matmul and both consumers; three without.
// CHECK-LABEL: func.func private @mlp_dispatch_0
// CHECK: linalg.matmul
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: func.func private @mlp_dispatch_1
// CHECK-LABEL: func.func @mlp
// CHECK-COUNT-1: tessel.dispatch
// CHECK-NEXT: return
// NOFUSE-LABEL: func.func @mlp
// NOFUSE-COUNT-3: tessel.dispatch
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @mlp(%a: tensor<97x129xf32>, %b: tensor<129x75xf32>, %bias: tensor<75xf32>) -> tensor<97x75xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<97x75xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<97x75xf32>) -> tensor<97x75xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<97x129xf32>, tensor<129x75xf32>) outs(%z : tensor<97x75xf32>) -> tensor<97x75xf32>
  %biased = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<97x75xf32>, tensor<75xf32>) outs(%e : tensor<97x75xf32>) {
  ^bb0(%m: f32, %bv: f32, %out: f32):
    %s = arith.addf %m, %bv : f32
    linalg.yield %s : f32
  } -> tensor<97x75xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<97x75xf32>) outs(%e : tensor<97x75xf32>) {
  ^bb0(%v: f32, %out: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<97x75xf32>
  return %relu : tensor<97x75xf32>
}

// -----

// Not joined: a consumer of a matmul whose result is also returned (two
// uses), a consumer reading the result transposed, and the consumer of an
// i32 matmul.
// CHECK-LABEL: func.func @not_fused
// CHECK-COUNT-6: tessel.dispatch
// CHECK-NEXT: return
#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
func.func @not_fused(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %ai: tensor<16x16xi32>)
    -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xi32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%z : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%v: f32, %out: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x16xf32>
  %mm2 = linalg.matmul ins(%b, %a : tensor<16x16xf32>, tensor<16x16xf32>) outs(%z : tensor<16x16xf32>) -> tensor<16x16xf32>
  %rt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm2 : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%v: f32, %out: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x16xf32>
  %zi = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<16x16xi32>
  %fi = linalg.fill ins(%zi : i32) outs(%ei : tensor<16x16xi32>) -> tensor<16x16xi32>
  %mi = linalg.matmul ins(%ai, %ai : tensor<16x16xi32>, tensor<16x16xi32>) outs(%fi : tensor<16x16xi32>) -> tensor<16x16xi32>
  %ri = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mi : tensor<16x16xi32>) outs(%ei : tensor<16x16xi32>) {
  ^bb0(%v: i32, %out: i32):
    %m = arith.maxsi %v, %zi : i32
    linalg.yield %m : i32
  } -> tensor<16x16xi32>
  return %mm, %r, %rt, %ri : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xi32>
}
