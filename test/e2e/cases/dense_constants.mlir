// Non-splat arith.constant dense<...> tensors used in computation: a
// constant 5x4 weight matrix (matmul), a constant bias vector, a constant
// 3x3x1x2 conv filter, and an i32 constant combined with an input.
func.func @consts(%x: tensor<13x5xf32>, %img: tensor<1x9x11x1xf32>, %k: tensor<4xi32>)
    -> (tensor<13x4xf32>, tensor<1x7x9x2xf32>, tensor<4xi32>) {
  %w = arith.constant dense<[[1.0, -1.0, 0.5, 2.0],
                             [0.25, 3.0, -2.0, 1.0],
                             [-1.5, 0.0, 1.0, -0.5],
                             [2.0, 0.75, -0.25, 1.0],
                             [0.0, -3.0, 1.25, 0.5]]> : tensor<5x4xf32>
  %bias = arith.constant dense<[0.5, -1.0, 2.0, -0.125]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<13x4xf32>) -> tensor<13x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<13x5xf32>, tensor<5x4xf32>) outs(%z : tensor<13x4xf32>) -> tensor<13x4xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<13x4xf32>, tensor<4xf32>) outs(%e : tensor<13x4xf32>) {
  ^bb0(%m: f32, %b: f32, %o: f32):
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<13x4xf32>
  // Sobel-x and a blur as two output channels.
  %f = arith.constant dense<[[[[-1.0, 0.0625]], [[0.0, 0.125]], [[1.0, 0.0625]]],
                             [[[-2.0, 0.125]], [[0.0, 0.25]], [[2.0, 0.125]]],
                             [[[-1.0, 0.0625]], [[0.0, 0.125]], [[1.0, 0.0625]]]]> : tensor<3x3x1x2xf32>
  %ec = tensor.empty() : tensor<1x7x9x2xf32>
  %zc = linalg.fill ins(%zero : f32) outs(%ec : tensor<1x7x9x2xf32>) -> tensor<1x7x9x2xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%img, %f : tensor<1x9x11x1xf32>, tensor<3x3x1x2xf32>) outs(%zc : tensor<1x7x9x2xf32>) -> tensor<1x7x9x2xf32>
  %ci = arith.constant dense<[3, -7, 100, 0]> : tensor<4xi32>
  %ki = arith.muli %k, %ci : tensor<4xi32>
  return %out, %conv, %ki : tensor<13x4xf32>, tensor<1x7x9x2xf32>, tensor<4xi32>
}
