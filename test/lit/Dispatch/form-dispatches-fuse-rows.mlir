// RUN: tessel-opt %s --tessel-form-dispatches="fuse-rows=true" --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-form-dispatches --split-input-file | FileCheck %s --check-prefix=NOFUSE

// Softmax as decomposed by tessel-legalize-input (row max, exp(x - max),
// row sum, divide) is one dispatch with fuse-rows, four without.
// CHECK-LABEL: func.func private @softmax_dispatch_0
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: func.func private @softmax_dispatch_1
// CHECK-LABEL: func.func @softmax
// CHECK-COUNT-1: tessel.dispatch
// CHECK-NEXT: return
// NOFUSE-LABEL: func.func @softmax
// NOFUSE-COUNT-4: tessel.dispatch
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x1000xf32>
  %er = tensor.empty() : tensor<64xf32>
  %zm = linalg.fill ins(%ninf : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1000xf32>) outs(%zm : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maxnumf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<64x1000xf32>, tensor<64xf32>) outs(%e : tensor<64x1000xf32>) {
  ^bb0(%in: f32, %mm: f32, %o: f32):
    %d = arith.subf %in, %mm : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<64x1000xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<64x1000xf32>) outs(%zs : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<64x1000xf32>, tensor<64xf32>) outs(%e : tensor<64x1000xf32>) {
  ^bb0(%in: f32, %ss: f32, %o: f32):
    %r = arith.divf %in, %ss : f32
    linalg.yield %r : f32
  } -> tensor<64x1000xf32>
  return %y : tensor<64x1000xf32>
}

// -----

// Not fused: a broadcast of the row sums along the other dim (it reads
// other rows' sums); an op that depends on the group through an op outside
// it (outlining both together would need the transpose's result before it
// exists); rows longer than 4096, column reductions and f64 reductions
// (they start no group).
// CHECK-LABEL: func.func @not_fused
// CHECK-COUNT-7: tessel.dispatch
// CHECK-NEXT: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @not_fused(%x: tensor<64x64xf32>, %long: tensor<4x4100xf32>, %d: tensor<8x16xf64>)
    -> (tensor<64x64xf32>, tensor<4xf32>, tensor<64xf32>, tensor<8xf64>) {
  %zero = arith.constant 0.0 : f32
  %zd = arith.constant 0.0 : f64
  %er = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %bt = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<64x64xf32>
  %tt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bt : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %tt : tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %u: f32, %o: f32):
    %a = arith.subf %in, %ss : f32
    %r = arith.addf %a, %u : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %ls = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%long : tensor<4x4100xf32>) outs(%z4 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %cs = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e8 = tensor.empty() : tensor<8xf64>
  %z8 = linalg.fill ins(%zd : f64) outs(%e8 : tensor<8xf64>) -> tensor<8xf64>
  %ds = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%d : tensor<8x16xf64>) outs(%z8 : tensor<8xf64>) {
  ^bb0(%in: f64, %acc: f64):
    %r = arith.addf %in, %acc : f64
    linalg.yield %r : f64
  } -> tensor<8xf64>
  return %y, %ls, %cs, %ds : tensor<64x64xf32>, tensor<4xf32>, tensor<64xf32>, tensor<8xf64>
}
