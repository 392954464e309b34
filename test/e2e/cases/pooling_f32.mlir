// linalg.pooling_nhwc_max (3x3 window, stride 2, -inf init) and
// linalg.pooling_nhwc_sum (2x3 window, stride 1, zero init) on 2x15x17x3.
func.func @pool(%in: tensor<2x15x17x3xf32>) -> (tensor<2x7x8x3xf32>, tensor<2x14x15x3xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %w0 = tensor.empty() : tensor<3x3xf32>
  %e0 = tensor.empty() : tensor<2x7x8x3xf32>
  %i0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<2x7x8x3xf32>) -> tensor<2x7x8x3xf32>
  %max = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
           ins(%in, %w0 : tensor<2x15x17x3xf32>, tensor<3x3xf32>)
           outs(%i0 : tensor<2x7x8x3xf32>) -> tensor<2x7x8x3xf32>
  %w1 = tensor.empty() : tensor<2x3xf32>
  %e1 = tensor.empty() : tensor<2x14x15x3xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x14x15x3xf32>) -> tensor<2x14x15x3xf32>
  %sum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
           ins(%in, %w1 : tensor<2x15x17x3xf32>, tensor<2x3xf32>)
           outs(%i1 : tensor<2x14x15x3xf32>) -> tensor<2x14x15x3xf32>
  return %max, %sum : tensor<2x7x8x3xf32>, tensor<2x14x15x3xf32>
}
