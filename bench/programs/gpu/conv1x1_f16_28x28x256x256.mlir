// Tensor-core benchmark: a MobileNet 1x1 convolution, NHWC 28x28x256 -> 256 channels,
// batch 1, f16 -> f32 (a 784x256x256 matmul after tessel-collapse-contraction-dims).
func.func @matmul(%x: tensor<1x28x28x256xf16>, %w: tensor<1x1x256x256xf16>) -> tensor<1x28x28x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x28x28x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x256xf32>) -> tensor<1x28x28x256xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x28x28x256xf16>, tensor<1x1x256x256xf16>) outs(%z : tensor<1x28x28x256xf32>) -> tensor<1x28x28x256xf32>
  return %r : tensor<1x28x28x256xf32>
}
