// tessel.attention in the forms the GPU flash-attention kernel takes (f16 /
// bf16 operands, head sizes multiples of 16 up to 128), at sizes that are
// not multiples of its tiles (64 or 128 query rows, 64 keys per step):
// - bert_like: [batch, seq, heads, dim] (torch's layout), f16, a padding
//   mask [batch, key] broadcast over heads and queries, M = K2 = 77;
// - tall: batch x heads = 4 x 130 (enough blocks for 32 query rows per
//   warp), M = 129 (a second, almost empty query block), K2 = 100, f16;
// - bf16_wide: [batch, heads, seq, dim], bf16, head 128 (dynamic shared
//   memory), K1 = 128 and N = 128, an f32 output, a region that caps the
//   scores, M = 200, K2 = 64 (one whole key tile);
// - narrow_masked: one batch loop, K1 = 32, N = 16, M = 16, K2 = 300, an f16
//   mask [m, k2] with -inf entries (every row keeps key 0).
// - f32_transposed_mask: f32 operands (decomposed on cuda, the loop nest on
//   cpu), a mask stored [b, k2, m] (its last index is not K2: read one key
//   at a time), K1 = 24, K2 = 53, N = 32, M = 37.
// The cpu runs each op that its loop nest takes (no region, N a multiple
// of 16) as that loop nest, the others decomposed.
#q = affine_map<(b, h, m, n, k1, k2) -> (b, m, h, k1)>
#k = affine_map<(b, h, m, n, k1, k2) -> (b, k2, h, k1)>
#v = affine_map<(b, h, m, n, k1, k2) -> (b, k2, h, n)>
#s = affine_map<(b, h, m, n, k1, k2) -> ()>
#pad = affine_map<(b, h, m, n, k1, k2) -> (b, k2)>
#o = affine_map<(b, h, m, n, k1, k2) -> (b, m, h, n)>
#qh = affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>
#kh = affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>
#vh = affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>
#oh = affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>
#q3 = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#k3 = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#v3 = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#s3 = affine_map<(b, m, n, k1, k2) -> ()>
#mask3 = affine_map<(b, m, n, k1, k2) -> (m, k2)>
#o3 = affine_map<(b, m, n, k1, k2) -> (b, m, n)>
#maskT = affine_map<(b, h, m, n, k1, k2) -> (b, k2, m)>

func.func @bert_like(%q: tensor<3x77x5x64xf16>, %k: tensor<3x77x5x64xf16>, %v: tensor<3x77x5x64xf16>, %pad: tensor<3x77xf32>) -> tensor<3x77x5x64xf16> {
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<3x77x5x64xf16>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #pad, #o]}
      ins(%q, %k, %v, %scale, %pad : tensor<3x77x5x64xf16>, tensor<3x77x5x64xf16>, tensor<3x77x5x64xf16>, f16, tensor<3x77xf32>)
      outs(%e : tensor<3x77x5x64xf16>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<3x77x5x64xf16>
  return %r : tensor<3x77x5x64xf16>
}

func.func @tall(%q: tensor<4x130x129x64xf16>, %k: tensor<4x130x100x64xf16>, %v: tensor<4x130x100x64xf16>) -> tensor<4x130x129x64xf16> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<4x130x129x64xf16>
  %r = tessel.attention {indexing_maps = [#qh, #kh, #vh, #s, #oh]}
      ins(%q, %k, %v, %scale : tensor<4x130x129x64xf16>, tensor<4x130x100x64xf16>, tensor<4x130x100x64xf16>, f32)
      outs(%e : tensor<4x130x129x64xf16>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<4x130x129x64xf16>
  return %r : tensor<4x130x129x64xf16>
}

func.func @bf16_wide(%q: tensor<2x3x200x128xbf16>, %k: tensor<2x3x64x128xbf16>, %v: tensor<2x3x64x128xbf16>) -> tensor<2x3x200x128xf32> {
  %scale = arith.constant 0.088388 : f32
  %e = tensor.empty() : tensor<2x3x200x128xf32>
  %r = tessel.attention {indexing_maps = [#qh, #kh, #vh, #s, #oh]}
      ins(%q, %k, %v, %scale : tensor<2x3x200x128xbf16>, tensor<2x3x64x128xbf16>, tensor<2x3x64x128xbf16>, f32)
      outs(%e : tensor<2x3x200x128xf32>) {
    ^bb0(%score: f32):
      %cap = arith.constant 5.0 : f32
      %d = arith.divf %score, %cap : f32
      %t = math.tanh %d : f32
      %c = arith.mulf %t, %cap : f32
      tessel.yield %c : f32
  } -> tensor<2x3x200x128xf32>
  return %r : tensor<2x3x200x128xf32>
}

func.func @narrow_masked(%q: tensor<7x16x32xf16>, %k: tensor<7x300x32xf16>, %v: tensor<7x300x16xf16>, %mask: tensor<16x300xf16>) -> tensor<7x16x16xf16> {
  %scale = arith.constant 0.17677669 : f32
  %e = tensor.empty() : tensor<7x16x16xf16>
  %r = tessel.attention {indexing_maps = [#q3, #k3, #v3, #s3, #mask3, #o3]}
      ins(%q, %k, %v, %scale, %mask : tensor<7x16x32xf16>, tensor<7x300x32xf16>, tensor<7x300x16xf16>, f32, tensor<16x300xf16>)
      outs(%e : tensor<7x16x16xf16>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<7x16x16xf16>
  return %r : tensor<7x16x16xf16>
}

func.func @f32_transposed_mask(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x53x24xf32>, %v: tensor<2x3x53x32xf32>, %mask: tensor<2x53x37xf32>) -> tensor<2x3x37x32xf32> {
  %scale = arith.constant 0.2041241452 : f32
  %e = tensor.empty() : tensor<2x3x37x32xf32>
  %r = tessel.attention {indexing_maps = [#qh, #kh, #vh, #s, #maskT, #oh]}
      ins(%q, %k, %v, %scale, %mask : tensor<2x3x37x24xf32>, tensor<2x3x53x24xf32>, tensor<2x3x53x32xf32>, f32, tensor<2x53x37xf32>)
      outs(%e : tensor<2x3x37x32xf32>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<2x3x37x32xf32>
  return %r : tensor<2x3x37x32xf32>
}
