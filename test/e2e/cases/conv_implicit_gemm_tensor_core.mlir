// NHWC convolutions that take tensor cores on cuda as implicit GEMMs (the
// input read as im2col rows, M = N*OH*OW, K = KH*KW*C): 3x3 stride 2 after
// a zero pad (f16), 3x3 with dilation 2 and 20 output channels (bf16; the
// filter's rows are not 16-byte aligned), 5x5 at batch 3 with 8 input
// channels (f16), and a first layer with 3 input channels, which falls
// back (a 16-byte chunk of K would cross filter taps).
func.func @f16_3x3_s2_pad(%x: tensor<2x17x19x32xf16>, %w: tensor<3x3x32x24xf16>) -> tensor<2x9x10x24xf32> {
  %c0h = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c0h : f16
  } : tensor<2x17x19x32xf16> to tensor<2x19x21x32xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x9x10x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x9x10x24xf32>) -> tensor<2x9x10x24xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<2x19x21x32xf16>, tensor<3x3x32x24xf16>) outs(%z : tensor<2x9x10x24xf32>) -> tensor<2x9x10x24xf32>
  return %r : tensor<2x9x10x24xf32>
}
func.func @bf16_3x3_d2(%x: tensor<1x23x21x16xbf16>, %w: tensor<3x3x16x20xbf16>) -> tensor<1x19x17x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x19x17x20xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x19x17x20xf32>) -> tensor<1x19x17x20xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x23x21x16xbf16>, tensor<3x3x16x20xbf16>) outs(%z : tensor<1x19x17x20xf32>) -> tensor<1x19x17x20xf32>
  return %r : tensor<1x19x17x20xf32>
}
func.func @f16_5x5_batch3(%x: tensor<3x12x13x8xf16>, %w: tensor<5x5x8x40xf16>) -> tensor<3x8x9x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x8x9x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x8x9x40xf32>) -> tensor<3x8x9x40xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<3x12x13x8xf16>, tensor<5x5x8x40xf16>) outs(%z : tensor<3x8x9x40xf32>) -> tensor<3x8x9x40xf32>
  return %r : tensor<3x8x9x40xf32>
}
func.func @f16_rgb(%x: tensor<1x15x15x3xf16>, %w: tensor<3x3x3x16xf16>) -> tensor<1x13x13x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x13x13x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x13x13x16xf32>) -> tensor<1x13x13x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x15x15x3xf16>, tensor<3x3x3x16xf16>) outs(%z : tensor<1x13x13x16xf32>) -> tensor<1x13x13x16xf32>
  return %r : tensor<1x13x13x16xf32>
}
