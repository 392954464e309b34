// Contractions for tensor-cores.test: f16 (aligned, 128x128 blocks),
// a 3x3 convolution (implicit GEMM),
// bf16 x @ W^T with a bias epilogue cast to f16, and an f32 matmul (no
// tensor cores: exact f32 is the default).
func.func @f16(%a: tensor<2048x1024xf16>, %b: tensor<1024x2048xf16>) -> tensor<2048x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x2048xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%z : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
func.func @bf16_linear(%x: tensor<100x64xbf16>, %w: tensor<48x64xbf16>, %bias: tensor<48xf32>) -> tensor<100x48xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<100x48xf32>) -> tensor<100x48xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<100x64xbf16>, tensor<48x64xbf16>) outs(%z : tensor<100x48xf32>) -> tensor<100x48xf32>
  %o = tensor.empty() : tensor<100x48xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<100x48xf32>, tensor<48xf32>) outs(%o : tensor<100x48xf16>) {
  ^bb0(%v: f32, %bv: f32, %out: f16):
    %s = arith.addf %v, %bv : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } -> tensor<100x48xf16>
  return %r : tensor<100x48xf16>
}
func.func @f32(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
func.func @conv3x3(%x: tensor<1x10x10x16xf16>, %w: tensor<3x3x16x32xf16>) -> tensor<1x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x16xf16>, tensor<3x3x16x32xf16>) outs(%z : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}
