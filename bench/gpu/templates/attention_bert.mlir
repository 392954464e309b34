// BERT-base self-attention, f16, [batch, seq, 12 heads, 64] (torch's
// layout) with a padding mask [batch, key]: BS is ?x? or BxS, DIMS %b, %m
// or nothing.
#q = affine_map<(b, h, m, n, k1, k2) -> (b, m, h, k1)>
#k = affine_map<(b, h, m, n, k1, k2) -> (b, k2, h, k1)>
#v = affine_map<(b, h, m, n, k1, k2) -> (b, k2, h, n)>
#s = affine_map<(b, h, m, n, k1, k2) -> ()>
#pad = affine_map<(b, h, m, n, k1, k2) -> (b, k2)>
#o = affine_map<(b, h, m, n, k1, k2) -> (b, m, h, n)>
func.func @attn(%q: tensor<BSx12x64xf16>, %k: tensor<BSx12x64xf16>, %v: tensor<BSx12x64xf16>, %pad: tensor<BSxf32>) -> tensor<BSx12x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %q, %c0 : tensor<BSx12x64xf16>
  %m = tensor.dim %q, %c1 : tensor<BSx12x64xf16>
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty(DIMS) : tensor<BSx12x64xf16>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #pad, #o]}
      ins(%q, %k, %v, %scale, %pad : tensor<BSx12x64xf16>, tensor<BSx12x64xf16>, tensor<BSx12x64xf16>, f16, tensor<BSxf32>)
      outs(%e : tensor<BSx12x64xf16>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<BSx12x64xf16>
  return %r : tensor<BSx12x64xf16>
}
