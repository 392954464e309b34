// Tensor-core benchmark: C = A @ B, 512x32x512 f16 -> f32.
func.func @matmul(%a: tensor<512x512xf16>, %b: tensor<512x32xf16>) -> tensor<512x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x32xf32>) -> tensor<512x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf16>, tensor<512x32xf16>) outs(%z : tensor<512x32xf32>) -> tensor<512x32xf32>
  return %r : tensor<512x32xf32>
}
