// Tensor-core benchmark: C = A @ B, 3072x5000x2048 f16 -> f32 (a twin of 3000x5000x2000 for issue 38: N unaligned (rows of B and C not 128-byte multiples), M and K aligned).
func.func @matmul(%a: tensor<3072x2048xf16>, %b: tensor<2048x5000xf16>) -> tensor<3072x5000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3072x5000xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3072x5000xf32>) -> tensor<3072x5000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3072x2048xf16>, tensor<2048x5000xf16>) outs(%z : tensor<3072x5000xf32>) -> tensor<3072x5000xf32>
  return %r : tensor<3072x5000xf32>
}
