// 1x1 convolutions (NHWC input, HWCF filter): with unit strides they are
// matmuls of the input viewed as [N*H*W, C] (tessel-collapse-contraction-
// dims) and take tensor cores on cuda, here f16 with a bias and relu
// epilogue at batch 2 and odd spatial sizes; a strided 1x1 convolution is
// not a matmul view and keeps the convolution strategy.
#id = affine_map<(n, h, w, f) -> (n, h, w, f)>
#bias = affine_map<(n, h, w, f) -> (f)>
func.func @conv1x1_bias_relu(%x: tensor<2x13x11x64xf16>, %w: tensor<1x1x64x40xf16>, %b: tensor<40xf32>) -> tensor<2x13x11x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x13x11x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x13x11x40xf32>) -> tensor<2x13x11x40xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x13x11x64xf16>, tensor<1x1x64x40xf16>) outs(%z : tensor<2x13x11x40xf32>) -> tensor<2x13x11x40xf32>
  %r = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<2x13x11x40xf32>, tensor<40xf32>) outs(%e : tensor<2x13x11x40xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    %c0 = arith.constant 0.0 : f32
    %m = arith.maximumf %s, %c0 : f32
    linalg.yield %m : f32
  } -> tensor<2x13x11x40xf32>
  return %r : tensor<2x13x11x40xf32>
}
func.func @conv1x1_stride2(%x: tensor<1x9x9x16xf16>, %w: tensor<1x1x16x24xf16>) -> tensor<1x5x5x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x24xf32>) -> tensor<1x5x5x24xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x16xf16>, tensor<1x1x16x24xf16>) outs(%z : tensor<1x5x5x24xf32>) -> tensor<1x5x5x24xf32>
  return %c : tensor<1x5x5x24xf32>
}
