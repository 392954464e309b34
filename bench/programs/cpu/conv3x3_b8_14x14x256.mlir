// ResNet-50 3x3 convolution, NHWC, batch 8, 256 -> 256 channels on 14x14,
// stride 1, padding 1 (the pad is part of the program, as in a model), f32.
func.func @conv(%x: tensor<8x14x14x256xf32>, %w: tensor<3x3x256x256xf32>) -> tensor<8x14x14x256xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<8x14x14x256xf32> to tensor<8x16x16x256xf32>
  %e = tensor.empty() : tensor<8x14x14x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x14x14x256xf32>) -> tensor<8x14x14x256xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<8x16x16x256xf32>, tensor<3x3x256x256xf32>) outs(%z : tensor<8x14x14x256xf32>) -> tensor<8x14x14x256xf32>
  return %r : tensor<8x14x14x256xf32>
}
