// linalg.depthwise_conv_2d_nhwc_hwc:
//  * "same" convolution: tensor.pad by 1 (zero) on H and W, then 3x3 stride 1
//    -> 1x15x13x11;
//  * unpadded, stride 2, dilation 2 -> 1x6x5x11.
func.func @dw(%in: tensor<1x15x13x11xf32>, %f: tensor<3x3x11xf32>)
    -> (tensor<1x15x13x11xf32>, tensor<1x6x5x11xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x15x13x11xf32> to tensor<1x17x15x11xf32>
  %e0 = tensor.empty() : tensor<1x15x13x11xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x15x13x11xf32>) -> tensor<1x15x13x11xf32>
  %r0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%padded, %f : tensor<1x17x15x11xf32>, tensor<3x3x11xf32>)
          outs(%z0 : tensor<1x15x13x11xf32>) -> tensor<1x15x13x11xf32>
  %e1 = tensor.empty() : tensor<1x6x5x11xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x6x5x11xf32>) -> tensor<1x6x5x11xf32>
  %r1 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
          ins(%in, %f : tensor<1x15x13x11xf32>, tensor<3x3x11xf32>)
          outs(%z1 : tensor<1x6x5x11xf32>) -> tensor<1x6x5x11xf32>
  return %r0, %r1 : tensor<1x15x13x11xf32>, tensor<1x6x5x11xf32>
}
