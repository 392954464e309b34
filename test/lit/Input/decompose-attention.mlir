// RUN: tessel-opt %s --tessel-decompose-attention --split-input-file | FileCheck %s

// f16 attention with a mask broadcast over the batch, a score region and an
// output in another layout: S = Q K^T in f32, then scale (a computed scale
// enters as a rank-0 tensor), mask and region in one elementwise op,
// softmax over K2, P rounded to f16, P V in f32, and the output permuted
// and rounded.
// CHECK-DAG: #[[Q:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[K:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[S:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[MASK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[SCALAR:.+]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-DAG: #[[V:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// CHECK-LABEL: func.func @f16_masked
// CHECK: %[[QK:.+]] = linalg.generic {indexing_maps = [#[[Q]], #[[K]], #[[S]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<4x8x16xf16>, tensor<4x9x16xf16>) outs(%{{.+}} : tensor<4x8x9xf32>)
// CHECK: %[[SCALE:.+]] = tensor.from_elements %arg3 : tensor<f16>
// CHECK: %[[SC:.+]] = linalg.generic {indexing_maps = [#[[ID3]], #[[MASK]], #[[SCALAR]], #[[ID3]]], {{.+}}} ins(%[[QK]], %arg4, %[[SCALE]] : tensor<4x8x9xf32>, tensor<8x9xf16>, tensor<f16>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: %[[P:.+]] = linalg.softmax dimension(2) ins(%[[SC]] : tensor<4x8x9xf32>)
// CHECK: %[[P16:.+]] = linalg.generic {{.+}} ins(%[[P]] : tensor<4x8x9xf32>) outs(%{{.+}} : tensor<4x8x9xf16>)
// CHECK: arith.truncf
// CHECK: %[[PV:.+]] = linalg.generic {indexing_maps = [#[[Q]], #[[V]], #[[S]]], {{.+}}} ins(%[[P16]], %arg2 : tensor<4x8x9xf16>, tensor<4x9x5xf16>) outs(%{{.+}} : tensor<4x8x5xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID3]], #[[OUT]]], {{.+}}} ins(%[[PV]] : tensor<4x8x5xf32>) outs(%{{.+}} : tensor<8x4x5xf16>)
// CHECK: arith.truncf
// CHECK-NOT: tessel.attention
#q = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#k = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#v = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#s = affine_map<(b, m, n, k1, k2) -> ()>
#mask = affine_map<(b, m, n, k1, k2) -> (m, k2)>
#o = affine_map<(b, m, n, k1, k2) -> (m, b, n)>
func.func @f16_masked(%q: tensor<4x8x16xf16>, %k: tensor<4x9x16xf16>, %v: tensor<4x9x5xf16>, %scale: f16, %mask: tensor<8x9xf16>) -> tensor<8x4x5xf16> {
  %e = tensor.empty() : tensor<8x4x5xf16>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #mask, #o]}
      ins(%q, %k, %v, %scale, %mask : tensor<4x8x16xf16>, tensor<4x9x16xf16>, tensor<4x9x5xf16>, f16, tensor<8x9xf16>)
      outs(%e : tensor<8x4x5xf16>) {
    ^bb0(%score: f32):
      %c = arith.constant 0.5 : f32
      %d = arith.mulf %score, %c : f32
      tessel.yield %d : f32
  } -> tensor<8x4x5xf16>
  return %r : tensor<8x4x5xf16>
}

// -----

// Dynamic batch, query and key lengths: every intermediate is sized from
// the operands (tensor.dim of the query for batch and M, of the key for K2).
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[B:.+]] = tensor.dim %arg0, %c0 : tensor<?x?x16xf16>
// CHECK: %[[M:.+]] = tensor.dim %arg0, %c1 : tensor<?x?x16xf16>
// CHECK: %[[K2:.+]] = tensor.dim %arg1, %{{.+}} : tensor<?x?x16xf16>
// CHECK: tensor.empty(%[[B]], %[[M]], %[[K2]]) : tensor<?x?x?xf32>
// CHECK: linalg.softmax dimension(2) ins(%{{.+}} : tensor<?x?x?xf32>)
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<?x?x8xf32>)
// CHECK-NOT: tessel.attention
#qd = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#kd = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#vd = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#sd = affine_map<(b, m, n, k1, k2) -> ()>
#od = affine_map<(b, m, n, k1, k2) -> (b, m, n)>
func.func @dynamic(%q: tensor<?x?x16xf16>, %k: tensor<?x?x16xf16>, %v: tensor<?x?x8xf16>, %out: tensor<?x?x8xf32>) -> tensor<?x?x8xf32> {
  %scale = arith.constant 0.25 : f32
  %r = tessel.attention {indexing_maps = [#qd, #kd, #vd, #sd, #od]}
      ins(%q, %k, %v, %scale : tensor<?x?x16xf16>, tensor<?x?x16xf16>, tensor<?x?x8xf16>, f32)
      outs(%out : tensor<?x?x8xf32>) {
    ^bb0(%s: f32):
      tessel.yield %s : f32
  } -> tensor<?x?x8xf32>
  return %r : tensor<?x?x8xf32>
}
