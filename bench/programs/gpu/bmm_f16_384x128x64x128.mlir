// Tensor-core benchmark: C = A @ B, batch 384 x 128x64x128 f16 -> f32.
func.func @matmul(%a: tensor<384x128x128xf16>, %b: tensor<384x128x64xf16>) -> tensor<384x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<384x128x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<384x128x64xf32>) -> tensor<384x128x64xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<384x128x128xf16>, tensor<384x128x64xf16>) outs(%z : tensor<384x128x64xf32>) -> tensor<384x128x64xf32>
  return %r : tensor<384x128x64xf32>
}
