// A linear layer without bias: C[4096x3072] = X[4096x768] * W^T with W
// stored [3072x768] (out_features x in_features), f32 (reference: cuBLAS
// with B transposed, CUBLAS_COMPUTE_32F_PEDANTIC).
func.func @linear_relu(%x: tensor<4096x768xf32>, %w: tensor<3072x768xf32>, %bias: tensor<3072xf32>) -> tensor<4096x3072xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x3072xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<4096x768xf32>, tensor<3072x768xf32>) outs(%f : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  return %c : tensor<4096x3072xf32>
}
