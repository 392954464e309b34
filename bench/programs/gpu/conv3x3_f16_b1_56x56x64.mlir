// Tensor-core benchmark: a ResNet-50 stage-2 3x3 convolution, NHWC, batch 1,
// 64 -> 64 channels on 56x56 (input given padded to 58x58), f16 -> f32, as an
// implicit GEMM (3136x64x576). Timed by bench/gpu/conv_bench.py against cuDNN.
func.func @conv(%x: tensor<1x58x58x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<1x56x56x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x58x58x64xf16>, tensor<3x3x64x64xf16>) outs(%z : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}
