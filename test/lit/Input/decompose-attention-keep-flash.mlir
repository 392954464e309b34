// RUN: tessel-opt %s --tessel-decompose-attention=keep-flash | FileCheck %s
// RUN: tessel-opt %s --tessel-decompose-attention | FileCheck %s --check-prefix=ALL

// keep-flash (cuda-only modules): the op the flash-attention kernel takes
// (f16, head sizes multiples of 16 up to 128, K1/N contiguous) stays whole;
// f32 operands and a head size of 24 are decomposed. Without it every op is.
// CHECK-LABEL: func.func @kept
// CHECK: tessel.attention
// CHECK-LABEL: func.func @f32_operands
// CHECK-NOT: tessel.attention
// CHECK: linalg.softmax
// CHECK-LABEL: func.func @head_24
// CHECK-NOT: tessel.attention
// CHECK: linalg.softmax
// ALL-NOT: tessel.attention
#q = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#k = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#v = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#s = affine_map<(b, m, n, k1, k2) -> ()>
#o = affine_map<(b, m, n, k1, k2) -> (b, m, n)>
func.func @kept(%q: tensor<3x77x64xf16>, %k: tensor<3x50x64xf16>, %v: tensor<3x50x64xf16>) -> tensor<3x77x64xf16> {
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<3x77x64xf16>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %c : tensor<3x77x64xf16>, tensor<3x50x64xf16>, tensor<3x50x64xf16>, f32)
      outs(%e : tensor<3x77x64xf16>) {
    ^bb0(%x: f32):
      tessel.yield %x : f32
  } -> tensor<3x77x64xf16>
  return %r : tensor<3x77x64xf16>
}
func.func @f32_operands(%q: tensor<3x77x64xf32>, %k: tensor<3x50x64xf32>, %v: tensor<3x50x64xf32>) -> tensor<3x77x64xf32> {
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<3x77x64xf32>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %c : tensor<3x77x64xf32>, tensor<3x50x64xf32>, tensor<3x50x64xf32>, f32)
      outs(%e : tensor<3x77x64xf32>) {
    ^bb0(%x: f32):
      tessel.yield %x : f32
  } -> tensor<3x77x64xf32>
  return %r : tensor<3x77x64xf32>
}
func.func @head_24(%q: tensor<3x77x24xf16>, %k: tensor<3x50x24xf16>, %v: tensor<3x50x24xf16>) -> tensor<3x77x24xf16> {
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<3x77x24xf16>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %c : tensor<3x77x24xf16>, tensor<3x50x24xf16>, tensor<3x50x24xf16>, f32)
      outs(%e : tensor<3x77x24xf16>) {
    ^bb0(%x: f32):
      tessel.yield %x : f32
  } -> tensor<3x77x24xf16>
  return %r : tensor<3x77x24xf16>
}
