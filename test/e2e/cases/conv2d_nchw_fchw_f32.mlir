// linalg.conv_2d_nchw_fchw with asymmetric strides [1, 2] and dilations
// [2, 1]: input 2x3x23x21, filter 6x3x5x3 -> 2x6x15x10, accumulating into a
// caller-provided bias-like init tensor.
func.func @conv(%in: tensor<2x3x23x21xf32>, %f: tensor<6x3x5x3xf32>, %init: tensor<2x6x15x10xf32>)
    -> tensor<2x6x15x10xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}
         ins(%in, %f : tensor<2x3x23x21xf32>, tensor<6x3x5x3xf32>)
         outs(%init : tensor<2x6x15x10xf32>) -> tensor<2x6x15x10xf32>
  return %r : tensor<2x6x15x10xf32>
}
