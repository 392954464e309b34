// Tensor-core benchmark: C = A @ B, 512x512x8192 f16 -> f32 (16 output tiles: split-K).
func.func @matmul(%a: tensor<512x8192xf16>, %b: tensor<8192x512xf16>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x8192xf16>, tensor<8192x512xf16>) outs(%z : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
