// A small f16 matmul for tessel-tune.test, and a bf16 one it cannot draw
// inputs for.
func.func @matmul(%a: tensor<512x128xf16>, %b: tensor<128x256xf16>) -> tensor<512x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x256xf32>) -> tensor<512x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x256xf16>) outs(%z : tensor<512x256xf32>) -> tensor<512x256xf32>
  return %r : tensor<512x256xf32>
}
func.func @matmul_bf16(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
