// C[4096x3072] = A[4096x768] * B[768x3072], f32 (reference: numpy and PyTorch CPU).
func.func @matmul(%a: tensor<4096x768xf32>, %b: tensor<768x3072xf32>) -> tensor<4096x3072xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x3072xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4096x768xf32>, tensor<768x3072xf32>) outs(%f : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  return %c : tensor<4096x3072xf32>
}
