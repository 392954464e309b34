// Tensor-core benchmark: C = A @ B, 3000x5120x2048 f16 -> f32 (a twin of 3000x5000x2000 for issue 38: M unaligned, N and K aligned).
func.func @matmul(%a: tensor<3000x2048xf16>, %b: tensor<2048x5120xf16>) -> tensor<3000x5120xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3000x5120xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3000x5120xf32>) -> tensor<3000x5120xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3000x2048xf16>, tensor<2048x5120xf16>) outs(%z : tensor<3000x5120xf32>) -> tensor<3000x5120xf32>
  return %r : tensor<3000x5120xf32>
}
