// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// tessel.attention prints in IREE LinalgExt's attention format (with
// tessel.) and parses back, with and without a mask.

#q = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#k = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#v = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#s = affine_map<(b, m, n, k1, k2) -> ()>
#mask = affine_map<(b, m, n, k1, k2) -> (b, m, k2)>
#o = affine_map<(b, m, n, k1, k2) -> (b, m, n)>

// CHECK-LABEL: func.func @plain
// CHECK: tessel.attention {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}]} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x8x16xf16>, tensor<4x9x16xf16>, tensor<4x9x5xf16>, f16) outs(%{{.+}} : tensor<4x8x5xf16>) {
// CHECK-NEXT: ^bb0(%[[S:.+]]: f32):
// CHECK-NEXT: tessel.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<4x8x5xf16>
func.func @plain(%q: tensor<4x8x16xf16>, %k: tensor<4x9x16xf16>, %v: tensor<4x9x5xf16>, %scale: f16, %e: tensor<4x8x5xf16>) -> tensor<4x8x5xf16> {
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<4x8x16xf16>, tensor<4x9x16xf16>, tensor<4x9x5xf16>, f16)
      outs(%e : tensor<4x8x5xf16>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<4x8x5xf16>
  return %r : tensor<4x8x5xf16>
}

// CHECK-LABEL: func.func @masked
// CHECK: tessel.attention {indexing_maps = [{{.+}}]} ins({{.+}} : tensor<4x8x16xf32>, tensor<4x9x16xf32>, tensor<4x9x5xf32>, f32, tensor<4x8x9xf32>) outs
// CHECK: arith.mulf
func.func @masked(%q: tensor<4x8x16xf32>, %k: tensor<4x9x16xf32>, %v: tensor<4x9x5xf32>, %scale: f32, %mask: tensor<4x8x9xf32>, %e: tensor<4x8x5xf32>) -> tensor<4x8x5xf32> {
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #mask, #o]}
      ins(%q, %k, %v, %scale, %mask : tensor<4x8x16xf32>, tensor<4x9x16xf32>, tensor<4x9x5xf32>, f32, tensor<4x8x9xf32>)
      outs(%e : tensor<4x8x5xf32>) {
    ^bb0(%score: f32):
      %two = arith.constant 2.0 : f32
      %d = arith.mulf %score, %two : f32
      tessel.yield %d : f32
  } -> tensor<4x8x5xf32>
  return %r : tensor<4x8x5xf32>
}
