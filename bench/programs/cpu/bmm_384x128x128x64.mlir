// Attention scores: 384 independent C[128x128] = A[128x64] * B[64x128], f32
// (BERT-base: 32 sequences x 12 heads, head size 64, sequence 128).
func.func @bmm(%a: tensor<384x128x64xf32>, %b: tensor<384x64x128xf32>) -> tensor<384x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<384x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<384x128x128xf32>) -> tensor<384x128x128xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<384x128x64xf32>, tensor<384x64x128xf32>) outs(%f : tensor<384x128x128xf32>) -> tensor<384x128x128xf32>
  return %c : tensor<384x128x128xf32>
}
