// Two functions whose CUDA kernels call no libdevice function (so they
// compile to PTX without a CUDA toolkit): an elementwise add and a matmul.
func.func @add(%a: tensor<37x53xf32>, %b: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %0 = arith.addf %a, %b : tensor<37x53xf32>
  return %0 : tensor<37x53xf32>
}
func.func @mm(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
