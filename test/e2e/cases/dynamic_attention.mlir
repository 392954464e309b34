// tessel.attention with dynamic batch and sequence lengths: one module for
// every shape. On cuda the flash-attention kernel takes the extents as push
// constants (grid, key tiles and edges computed per call); the cpu runs the
// decomposed form over dynamic tensors.
// - bert_like: [batch, seq, heads, dim] (torch's layout), f16, a padding
//   mask [batch, key] broadcast over heads and queries, batch and seq
//   dynamic (queries and keys the same length);
// - decode: [batch, heads, queries, dim] queries against a cache of any
//   length [batch, heads, keys, dim], f16 in, f32 out, queries and keys of
//   independent dynamic lengths (one query, a generation step).
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

func.func @bert_like(%q: tensor<?x?x5x64xf16>, %k: tensor<?x?x5x64xf16>, %v: tensor<?x?x5x64xf16>, %pad: tensor<?x?xf32>) -> tensor<?x?x5x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x5x64xf16>
  %m = tensor.dim %q, %c1 : tensor<?x?x5x64xf16>
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty(%b, %m) : tensor<?x?x5x64xf16>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #pad, #o]}
      ins(%q, %k, %v, %scale, %pad : tensor<?x?x5x64xf16>, tensor<?x?x5x64xf16>, tensor<?x?x5x64xf16>, f16, tensor<?x?xf32>)
      outs(%e : tensor<?x?x5x64xf16>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<?x?x5x64xf16>
  return %r : tensor<?x?x5x64xf16>
}

func.func @decode(%q: tensor<?x4x?x32xf16>, %k: tensor<?x4x?x32xf16>, %v: tensor<?x4x?x32xf16>) -> tensor<?x4x?x32xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %q, %c0 : tensor<?x4x?x32xf16>
  %m = tensor.dim %q, %c2 : tensor<?x4x?x32xf16>
  %scale = arith.constant 0.17677669 : f32
  %e = tensor.empty(%b, %m) : tensor<?x4x?x32xf32>
  %r = tessel.attention {indexing_maps = [#qh, #kh, #vh, #s, #oh]}
      ins(%q, %k, %v, %scale : tensor<?x4x?x32xf16>, tensor<?x4x?x32xf16>, tensor<?x4x?x32xf16>, f32)
      outs(%e : tensor<?x4x?x32xf32>) {
    ^bb0(%score: f32):
      tessel.yield %score : f32
  } -> tensor<?x4x?x32xf32>
  return %r : tensor<?x4x?x32xf32>
}
