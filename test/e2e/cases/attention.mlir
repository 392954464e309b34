// tessel.attention (softmax(Q K^T * scale + mask) V, IREE's LinalgExt
// format): f32 with an additive mask (some keys -inf) and batch x heads
// loops; f16 in the [batch, seq, heads, dim] layout torch exports (maps
// permute the loops), the scale an f16 constant; a region that caps the
// scores (30 * tanh(s / 30)); M != K2 and odd sizes throughout.
#q = affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>
#k = affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>
#v = affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>
#s = affine_map<(b, h, m, n, k1, k2) -> ()>
#mask = affine_map<(b, h, m, n, k1, k2) -> (b, m, k2)>
#o = affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>
#q2 = affine_map<(b, h, m, n, k1, k2) -> (b, m, h, k1)>
#k2m = affine_map<(b, h, m, n, k1, k2) -> (b, k2, h, k1)>
#v2 = affine_map<(b, h, m, n, k1, k2) -> (b, k2, h, n)>
#o2 = affine_map<(b, h, m, n, k1, k2) -> (b, m, h, n)>
func.func @masked_f32(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x53x24xf32>, %v: tensor<2x3x53x20xf32>, %mask: tensor<2x37x53xf32>) -> tensor<2x3x37x20xf32> {
  %scale = arith.constant 0.2041241452 : f32
  %e = tensor.empty() : tensor<2x3x37x20xf32>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #mask, #o]}
      ins(%q, %k, %v, %scale, %mask : tensor<2x3x37x24xf32>, tensor<2x3x53x24xf32>, tensor<2x3x53x20xf32>, f32, tensor<2x37x53xf32>)
      outs(%e : tensor<2x3x37x20xf32>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<2x3x37x20xf32>
  return %r : tensor<2x3x37x20xf32>
}

func.func @bshd_f16_capped(%q: tensor<2x41x3x32xf16>, %k: tensor<2x29x3x32xf16>, %v: tensor<2x29x3x24xf16>) -> tensor<2x41x3x24xf16> {
  %scale = arith.constant 0.1767767 : f16
  %e = tensor.empty() : tensor<2x41x3x24xf16>
  %r = tessel.attention {indexing_maps = [#q2, #k2m, #v2, #s, #o2]}
      ins(%q, %k, %v, %scale : tensor<2x41x3x32xf16>, tensor<2x29x3x32xf16>, tensor<2x29x3x24xf16>, f16)
      outs(%e : tensor<2x41x3x24xf16>) {
    ^bb0(%score: f32):
      %cap = arith.constant 30.0 : f32
      %d = arith.divf %score, %cap : f32
      %t = math.tanh %d : f32
      %c = arith.mulf %t, %cap : f32
      tessel.yield %c : f32
  } -> tensor<2x41x3x24xf16>
  return %r : tensor<2x41x3x24xf16>
}
