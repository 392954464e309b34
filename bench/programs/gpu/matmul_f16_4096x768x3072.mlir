// Tensor-core benchmark: C = A @ B, 4096x768x3072 f16 -> f32.
func.func @matmul(%a: tensor<4096x3072xf16>, %b: tensor<3072x768xf16>) -> tensor<4096x768xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x768xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x768xf32>) -> tensor<4096x768xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x3072xf16>, tensor<3072x768xf16>) outs(%z : tensor<4096x768xf32>) -> tensor<4096x768xf32>
  return %r : tensor<4096x768xf32>
}
