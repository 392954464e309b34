// RUN: tessel-opt %s --tessel-raise-attention --split-input-file --mlir-print-local-scope | FileCheck %s

// torch.onnx.export of BERT's SDPA (f16), as tessel-import-onnx writes it:
// Q and K^T each scaled by sqrt(1/sqrt(d)), K^T through reshape /
// transpose / reshape, a [b, m, k2] mask, S accumulated in f32 and rounded,
// the softmax's NaN guard, P V in f32 and rounded, heads transposed back.
// The maps read Q, K, V where the projections stored them ([b, s, h, d]),
// the output is written in the transpose's layout, the scale is the
// product of the two f16 factors (0.353515625^2).
// CHECK-LABEL: func.func @torch_sdpa
// CHECK-SAME: (%[[QL:.*]]: tensor<2x9x3x16xf16>, %[[KL:.*]]: tensor<2x9x3x16xf16>, %[[VL:.*]]: tensor<2x9x3x16xf16>, %[[M:.*]]: tensor<2x9x9xf16>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x9x3x16xf16>
// CHECK: %[[S:.*]] = arith.constant 0.124973297 : f32
// CHECK: %[[A:.*]] = tessel.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d1, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1, d3)>]}
// CHECK-SAME: ins(%[[QL]], %[[KL]], %[[VL]], %[[S]], %[[M]] :
// CHECK-SAME: outs(%[[E]] : tensor<2x9x3x16xf16>)
// CHECK: tessel.yield
// CHECK-NOT: linalg.softmax
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.transpose
// CHECK: tensor.collapse_shape %[[A]] {{\[\[}}0], [1], [2, 3]]
func.func @torch_sdpa(%q: tensor<2x9x3x16xf16>, %k: tensor<2x9x3x16xf16>, %v: tensor<2x9x3x16xf16>, %mask: tensor<2x9x9xf16>) -> tensor<2x9x48xf16> {
  %eq = tensor.empty() : tensor<2x3x9x16xf16>
  %qh = linalg.transpose ins(%q : tensor<2x9x3x16xf16>) outs(%eq : tensor<2x3x9x16xf16>) permutation = [0, 2, 1, 3]
  %kh = linalg.transpose ins(%k : tensor<2x9x3x16xf16>) outs(%eq : tensor<2x3x9x16xf16>) permutation = [0, 2, 1, 3]
  %vh = linalg.transpose ins(%v : tensor<2x9x3x16xf16>) outs(%eq : tensor<2x3x9x16xf16>) permutation = [0, 2, 1, 3]
  %k3 = tensor.collapse_shape %kh [[0, 1], [2], [3]] : tensor<2x3x9x16xf16> into tensor<6x9x16xf16>
  %ekt = tensor.empty() : tensor<6x16x9xf16>
  %kt3 = linalg.transpose ins(%k3 : tensor<6x9x16xf16>) outs(%ekt : tensor<6x16x9xf16>) permutation = [0, 2, 1]
  %kt = tensor.expand_shape %kt3 [[0, 1], [2], [3]] output_shape [2, 3, 16, 9] : tensor<6x16x9xf16> into tensor<2x3x16x9xf16>
  %qs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qh : tensor<2x3x9x16xf16>) outs(%eq : tensor<2x3x9x16xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.constant 0.353515625 : f16
    %m = arith.mulf %a, %c : f16
    linalg.yield %m : f16
  } -> tensor<2x3x9x16xf16>
  %ekt4 = tensor.empty() : tensor<2x3x16x9xf16>
  %kts = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%kt : tensor<2x3x16x9xf16>) outs(%ekt4 : tensor<2x3x16x9xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.constant 0.353515625 : f16
    %m = arith.mulf %a, %c : f16
    linalg.yield %m : f16
  } -> tensor<2x3x16x9xf16>
  %qb = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<2x3x9x16xf16> into tensor<6x9x16xf16>
  %kb = tensor.collapse_shape %kts [[0, 1], [2], [3]] : tensor<2x3x16x9xf16> into tensor<6x16x9xf16>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<6x9x9xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<6x9x9xf32>) -> tensor<6x9x9xf32>
  %s32 = linalg.batch_matmul ins(%qb, %kb : tensor<6x9x16xf16>, tensor<6x16x9xf16>) outs(%fs : tensor<6x9x9xf32>) -> tensor<6x9x9xf32>
  %es16 = tensor.empty() : tensor<6x9x9xf16>
  %s16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s32 : tensor<6x9x9xf32>) outs(%es16 : tensor<6x9x9xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<6x9x9xf16>
  %s4 = tensor.expand_shape %s16 [[0, 1], [2], [3]] output_shape [2, 3, 9, 9] : tensor<6x9x9xf16> into tensor<2x3x9x9xf16>
  %em = tensor.empty() : tensor<2x3x9x9xf16>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %mask : tensor<2x3x9x9xf16>, tensor<2x9x9xf16>) outs(%em : tensor<2x3x9x9xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %r = arith.addf %a, %b : f16
    linalg.yield %r : f16
  } -> tensor<2x3x9x9xf16>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x3x9x9xf16>) outs(%em : tensor<2x3x9x9xf16>) -> tensor<2x3x9x9xf16>
  %eb = tensor.empty() : tensor<2x3x9x9xi1>
  %nan = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<2x3x9x9xf16>) outs(%eb : tensor<2x3x9x9xi1>) {
  ^bb0(%a: f16, %o: i1):
    %u = arith.cmpf uno, %a, %a : f16
    linalg.yield %u : i1
  } -> tensor<2x3x9x9xi1>
  %pg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%nan, %p : tensor<2x3x9x9xi1>, tensor<2x3x9x9xf16>) outs(%em : tensor<2x3x9x9xf16>) {
  ^bb0(%c: i1, %a: f16, %o: f16):
    %z = arith.constant 0.0 : f16
    %r = arith.select %c, %z, %a : f16
    linalg.yield %r : f16
  } -> tensor<2x3x9x9xf16>
  %pb = tensor.collapse_shape %pg [[0, 1], [2], [3]] : tensor<2x3x9x9xf16> into tensor<6x9x9xf16>
  %vb = tensor.collapse_shape %vh [[0, 1], [2], [3]] : tensor<2x3x9x16xf16> into tensor<6x9x16xf16>
  %eo = tensor.empty() : tensor<6x9x16xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x9x16xf32>) -> tensor<6x9x16xf32>
  %o32 = linalg.batch_matmul ins(%pb, %vb : tensor<6x9x9xf16>, tensor<6x9x16xf16>) outs(%fo : tensor<6x9x16xf32>) -> tensor<6x9x16xf32>
  %eo16 = tensor.empty() : tensor<6x9x16xf16>
  %o16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o32 : tensor<6x9x16xf32>) outs(%eo16 : tensor<6x9x16xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<6x9x16xf16>
  %o4 = tensor.expand_shape %o16 [[0, 1], [2], [3]] output_shape [2, 3, 9, 16] : tensor<6x9x16xf16> into tensor<2x3x9x16xf16>
  %et = tensor.empty() : tensor<2x9x3x16xf16>
  %ot = linalg.transpose ins(%o4 : tensor<2x3x9x16xf16>) outs(%et : tensor<2x9x3x16xf16>) permutation = [0, 2, 1, 3]
  %out = tensor.collapse_shape %ot [[0], [1], [2, 3]] : tensor<2x9x3x16xf16> into tensor<2x9x48xf16>
  return %out : tensor<2x9x48xf16>
}

// -----

// The importer's f32 form (tessel-import-onnx of MatMul, Div, Add, Softmax,
// MatMul): scale 1 / 4, a [b, k2] padding mask broadcast over heads and
// queries; the transpose back stays (its result is also returned).
// CHECK-LABEL: func.func @importer_f32
// CHECK: arith.constant 2.500000e-01 : f32
// CHECK: tessel.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>]}
// CHECK: } -> tensor<2x4x7x8xf32>
// CHECK: linalg.transpose
// CHECK-NOT: linalg.softmax
func.func @importer_f32(%q: tensor<2x4x7x8xf32>, %k: tensor<2x4x11x8xf32>, %v: tensor<2x4x11x8xf32>, %pad: tensor<2x11xf32>) -> (tensor<2x7x4x8xf32>, tensor<2x4x7x8xf32>) {
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x7x8xf32> into tensor<8x7x8xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<8x7x11xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<8x7x11xf32>) -> tensor<8x7x11xf32>
  %kt0 = tensor.empty() : tensor<2x4x8x11xf32>
  %ktt = linalg.transpose ins(%k : tensor<2x4x11x8xf32>) outs(%kt0 : tensor<2x4x8x11xf32>) permutation = [0, 1, 3, 2]
  %k3 = tensor.collapse_shape %ktt [[0, 1], [2], [3]] : tensor<2x4x8x11xf32> into tensor<8x8x11xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<8x7x8xf32>, tensor<8x8x11xf32>) outs(%fs : tensor<8x7x11xf32>) -> tensor<8x7x11xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 7, 11] : tensor<8x7x11xf32> into tensor<2x4x7x11xf32>
  %e = tensor.empty() : tensor<2x4x7x11xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x7x11xf32>) outs(%e : tensor<2x4x7x11xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 4.0 : f32
    %r = arith.divf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x7x11xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %pad : tensor<2x4x7x11xf32>, tensor<2x11xf32>) outs(%e : tensor<2x4x7x11xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4x7x11xf32>
  %p = linalg.softmax dimension(3) ins(%m : tensor<2x4x7x11xf32>) outs(%e : tensor<2x4x7x11xf32>) -> tensor<2x4x7x11xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x7x11xf32> into tensor<8x7x11xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x4x11x8xf32> into tensor<8x11x8xf32>
  %eo = tensor.empty() : tensor<8x7x8xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x7x8xf32>) -> tensor<8x7x8xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x7x11xf32>, tensor<8x11x8xf32>) outs(%fo : tensor<8x7x8xf32>) -> tensor<8x7x8xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 7, 8] : tensor<8x7x8xf32> into tensor<2x4x7x8xf32>
  %et = tensor.empty() : tensor<2x7x4x8xf32>
  %ot = linalg.transpose ins(%o : tensor<2x4x7x8xf32>) outs(%et : tensor<2x7x4x8xf32>) permutation = [0, 2, 1, 3]
  return %ot, %o : tensor<2x7x4x8xf32>, tensor<2x4x7x8xf32>
}

// -----

// The same with dynamic batch, query and key lengths (heads and head
// dimensions static): a reshape group may merge one dynamic dimension with
// static ones; the attention's result is sized from Q and V.
// CHECK-LABEL: func.func @importer_dynamic
// CHECK-SAME: (%[[Q:.+]]: tensor<?x4x?x8xf32>, %[[K:.+]]: tensor<?x4x?x8xf32>, %[[V:.+]]: tensor<?x4x?x8xf32>
// CHECK: %[[B:.+]] = tensor.dim %[[Q]], %c0
// CHECK: %[[M:.+]] = tensor.dim %[[Q]], %c2
// CHECK: %[[INIT:.+]] = tensor.empty(%[[B]], %[[M]]) : tensor<?x4x?x8xf32>
// CHECK: tessel.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>]}
// CHECK-SAME: ins(%[[Q]], %[[K]], %[[V]], %{{.+}}, %{{.+}} : tensor<?x4x?x8xf32>, tensor<?x4x?x8xf32>, tensor<?x4x?x8xf32>, f32, tensor<?x?xf32>) outs(%[[INIT]] : tensor<?x4x?x8xf32>)
// CHECK-NOT: linalg.softmax
func.func @importer_dynamic(%q: tensor<?x4x?x8xf32>, %k: tensor<?x4x?x8xf32>, %v: tensor<?x4x?x8xf32>, %pad: tensor<?x?xf32>) -> tensor<?x4x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %b = tensor.dim %q, %c0 : tensor<?x4x?x8xf32>
  %m = tensor.dim %q, %c2 : tensor<?x4x?x8xf32>
  %n = tensor.dim %k, %c2 : tensor<?x4x?x8xf32>
  %bh = arith.muli %b, %c4 : index
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<?x4x?x8xf32> into tensor<?x?x8xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty(%bh, %m, %n) : tensor<?x?x?xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %kt0 = tensor.empty(%b, %n) : tensor<?x4x8x?xf32>
  %ktt = linalg.transpose ins(%k : tensor<?x4x?x8xf32>) outs(%kt0 : tensor<?x4x8x?xf32>) permutation = [0, 1, 3, 2]
  %k3 = tensor.collapse_shape %ktt [[0, 1], [2], [3]] : tensor<?x4x8x?xf32> into tensor<?x8x?xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<?x?x8xf32>, tensor<?x8x?xf32>) outs(%fs : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [%b, 4, %m, %n] : tensor<?x?x?xf32> into tensor<?x4x?x?xf32>
  %e = tensor.empty(%b, %m, %n) : tensor<?x4x?x?xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<?x4x?x?xf32>) outs(%e : tensor<?x4x?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 4.0 : f32
    %r = arith.divf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x4x?x?xf32>
  %mk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %pad : tensor<?x4x?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x4x?x?xf32>) {
  ^bb0(%a: f32, %pb: f32, %o: f32):
    %r = arith.addf %a, %pb : f32
    linalg.yield %r : f32
  } -> tensor<?x4x?x?xf32>
  %p = linalg.softmax dimension(3) ins(%mk : tensor<?x4x?x?xf32>) outs(%e : tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<?x4x?x?xf32> into tensor<?x?x?xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<?x4x?x8xf32> into tensor<?x?x8xf32>
  %eo = tensor.empty(%bh, %m) : tensor<?x?x8xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<?x?x?xf32>, tensor<?x?x8xf32>) outs(%fo : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [%b, 4, %m, 8] : tensor<?x?x8xf32> into tensor<?x4x?x8xf32>
  return %o : tensor<?x4x?x8xf32>
}

// -----

// Left alone: the scores are also returned (raising would compute them
// twice), and a softmax that is not over the last dimension.
// CHECK-LABEL: func.func @not_attention
// CHECK-NOT: tessel.attention
// CHECK: linalg.softmax dimension(1)
// CHECK: linalg.softmax dimension(0)
func.func @not_attention(%q: tensor<7x8xf32>, %k: tensor<8x11xf32>, %v: tensor<11x8xf32>) -> (tensor<7x8xf32>, tensor<7x11xf32>, tensor<7x11xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<7x11xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<7x11xf32>) -> tensor<7x11xf32>
  %s = linalg.matmul ins(%q, %k : tensor<7x8xf32>, tensor<8x11xf32>) outs(%fs : tensor<7x11xf32>) -> tensor<7x11xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<7x11xf32>) outs(%es : tensor<7x11xf32>) -> tensor<7x11xf32>
  %eo = tensor.empty() : tensor<7x8xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<7x8xf32>) -> tensor<7x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<7x11xf32>, tensor<11x8xf32>) outs(%fo : tensor<7x8xf32>) -> tensor<7x8xf32>
  %p2 = linalg.softmax dimension(0) ins(%s : tensor<7x11xf32>) outs(%es : tensor<7x11xf32>) -> tensor<7x11xf32>
  return %o, %s, %p2 : tensor<7x8xf32>, tensor<7x11xf32>, tensor<7x11xf32>
}
