// linalg.conv_2d_nhwc_hwcf with stride 2 on odd spatial sizes:
// input 2x17x19x5, filter 3x3x5x7 -> 2x8x9x7. Also a stride-1, dilation-2
// variant on the same input as a second result (5x5 effective window).
func.func @conv(%in: tensor<2x17x19x5xf32>, %f: tensor<3x3x5x7xf32>)
    -> (tensor<2x8x9x7xf32>, tensor<2x13x15x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x8x9x7xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x8x9x7xf32>) -> tensor<2x8x9x7xf32>
  %r0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
          ins(%in, %f : tensor<2x17x19x5xf32>, tensor<3x3x5x7xf32>)
          outs(%z0 : tensor<2x8x9x7xf32>) -> tensor<2x8x9x7xf32>
  %e1 = tensor.empty() : tensor<2x13x15x7xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x13x15x7xf32>) -> tensor<2x13x15x7xf32>
  %r1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%in, %f : tensor<2x17x19x5xf32>, tensor<3x3x5x7xf32>)
          outs(%z1 : tensor<2x13x15x7xf32>) -> tensor<2x13x15x7xf32>
  return %r0, %r1 : tensor<2x8x9x7xf32>, tensor<2x13x15x7xf32>
}
