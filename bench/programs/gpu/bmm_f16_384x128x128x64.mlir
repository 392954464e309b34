// Tensor-core benchmark: C = A @ B^T, batch 384 x 128x128x64 f16 -> f32, B transposed (N x K).
func.func @matmul(%a: tensor<384x128x64xf16>, %b: tensor<384x128x64xf16>) -> tensor<384x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<384x128x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<384x128x128xf32>) -> tensor<384x128x128xf32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%a, %b : tensor<384x128x64xf16>, tensor<384x128x64xf16>) outs(%z : tensor<384x128x128xf32>) -> tensor<384x128x128xf32>
  return %r : tensor<384x128x128xf32>
}
