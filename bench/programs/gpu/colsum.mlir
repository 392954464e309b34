// column sums (over the outer dim) of 8192x8192 f32.
#id = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (j)>
func.func @colsum(%x: tensor<8192x8192xf32>) -> tensor<8192xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8192xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8192xf32>) -> tensor<8192xf32>
  %r = linalg.generic {indexing_maps = [#id, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<8192x8192xf32>) outs(%z : tensor<8192xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8192xf32>
  return %r : tensor<8192xf32>
}
