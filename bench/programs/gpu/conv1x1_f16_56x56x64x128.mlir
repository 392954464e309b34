// Tensor-core benchmark: a MobileNet 1x1 convolution, NHWC 56x56x64 -> 128 channels,
// batch 1, f16 -> f32 (a 3136x128x64 matmul after tessel-collapse-contraction-dims).
func.func @matmul(%x: tensor<1x56x56x64xf16>, %w: tensor<1x1x64x128xf16>) -> tensor<1x56x56x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x128xf32>) -> tensor<1x56x56x128xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x56x56x64xf16>, tensor<1x1x64x128xf16>) outs(%z : tensor<1x56x56x128xf32>) -> tensor<1x56x56x128xf32>
  return %r : tensor<1x56x56x128xf32>
}
