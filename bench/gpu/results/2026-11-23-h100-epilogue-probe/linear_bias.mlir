// relu(x @ W^T + bias): a linear layer with its activation, 4096x3072x768.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @linear_relu(%x: tensor<4096x768xf32>, %w: tensor<3072x768xf32>, %bias: tensor<3072xf32>) -> tensor<4096x3072xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x3072xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<4096x768xf32>, tensor<3072x768xf32>) outs(%f : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<4096x3072xf32>, tensor<3072xf32>) outs(%e : tensor<4096x3072xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<4096x3072xf32>
  return %r : tensor<4096x3072xf32>
}
