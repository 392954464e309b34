// TOSA convolutions (NHWC / NDHWC inputs, OHWI / ODHWI weights, per-output-
// channel bias): conv2d with asymmetric padding, stride and dilation (f32,
// f16 with an f32 accumulator, i8 with zero points -> i32), depthwise_conv2d
// (weights KH x KW x C x M, output channel c * M + m), transpose_conv2d
// (out_pad, stride) and conv3d.

// Output 7x6: H (13 - 1 + 1 + 1 - 2*1) / 2 + 1, W (11 - 1 + 0 + 1 - 3*2) / 1 + 1.
func.func @conv2d_f32(%x: tensor<2x13x11x5xf32>, %w: tensor<7x3x4x5xf32>, %b: tensor<7xf32>)
    -> tensor<2x7x6x7xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 0, 1>, stride = array<i64: 2, 1>, dilation = array<i64: 1, 2>} : (tensor<2x13x11x5xf32>, tensor<7x3x4x5xf32>, tensor<7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x7x6x7xf32>
  return %0 : tensor<2x7x6x7xf32>
}

// A 1x1 convolution and a "same" 3x3 one (bias broadcast from size 1).
func.func @conv2d_f32_simple(%x: tensor<1x9x9x16xf32>, %w1: tensor<13x1x1x16xf32>,
                             %w3: tensor<13x3x3x16xf32>, %b: tensor<1xf32>)
    -> (tensor<1x9x9x13xf32>, tensor<1x9x9x13xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x9x9x16xf32>, tensor<13x1x1x16xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x9x13xf32>
  %1 = tosa.conv2d %x, %w3, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x9x9x16xf32>, tensor<13x3x3x16xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x9x13xf32>
  return %0, %1 : tensor<1x9x9x13xf32>, tensor<1x9x9x13xf32>
}

// Output 8x5: W (9 - 1 + 1 + 1 - 2) / 2 + 1.
func.func @conv2d_f16(%x: tensor<1x10x9x6xf16>, %w: tensor<5x3x3x6xf16>, %b: tensor<5xf16>)
    -> tensor<1x8x5x5xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 2>, dilation = array<i64: 1, 1>} : (tensor<1x10x9x6xf16>, tensor<5x3x3x6xf16>, tensor<5xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x5x5xf16>
  return %0 : tensor<1x8x5x5xf16>
}

// (x - 4) * (w + 2) summed in i32 plus the i32 bias; padding reads input_zp
// (so padded taps contribute 0).
func.func @conv2d_i8(%x: tensor<2x9x8x3xi8>, %w: tensor<6x3x3x3xi8>, %b: tensor<6xi32>)
    -> tensor<2x9x8x6xi32> {
  %izp = "tosa.const"() <{values = dense<4> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wzp = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x9x8x3xi8>, tensor<6x3x3x3xi8>, tensor<6xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x9x8x6xi32>
  return %0 : tensor<2x9x8x6xi32>
}

// Depthwise: H (10 - 1 + 1 + 1 - 2*2) / 1 + 1 = 8, W (9 - 1 + 1 + 1 - 2) / 2 + 1 = 5.
func.func @depthwise(%x: tensor<1x10x9x4xf32>, %w: tensor<3x3x4x2xf32>, %b: tensor<8xf32>,
                     %xi: tensor<1x7x7x5xi8>, %wi: tensor<3x3x5x1xi8>, %bi: tensor<5xi32>)
    -> (tensor<1x8x5x8xf32>, tensor<1x5x5x5xi32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 2>, dilation = array<i64: 2, 1>} : (tensor<1x10x9x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x5x8xf32>
  %izp = "tosa.const"() <{values = dense<-6> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wzp = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.depthwise_conv2d %xi, %wi, %bi, %izp, %wzp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x5xi8>, tensor<3x3x5x1xi8>, tensor<5xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x5x5xi32>
  return %0, %1 : tensor<1x8x5x8xf32>, tensor<1x5x5x5xi32>
}

// Transposed convolution: OH = (5 - 1) * 2 + 0 + 1 + 3 = 12, OW = (6 - 1) * 3
// + 1 + 0 + 2 = 18; input pixel (iy, ix) adds w[oc, ky, kx, :] . x to
// output (iy * 2 + out_pad_top + ky, ix * 3 + out_pad_left + kx).
func.func @transpose_conv(%x: tensor<2x5x6x3xf32>, %w: tensor<4x3x2x3xf32>, %b: tensor<4xf32>)
    -> (tensor<2x12x18x4xf32>, tensor<2x11x11x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 1, 1, 0>, stride = array<i64: 2, 3>} : (tensor<2x5x6x3xf32>, tensor<4x3x2x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x18x4xf32>
  // Stride 2 x 2, a negative out_pad_right (the last output column is cut):
  // OH = (5 - 1) * 2 + 3 = 11, OW = (6 - 1) * 2 - 1 + 2 = 11.
  %1 = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, -1>, stride = array<i64: 2, 2>} : (tensor<2x5x6x3xf32>, tensor<4x3x2x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x11x11x4xf32>
  return %0, %1 : tensor<2x12x18x4xf32>, tensor<2x11x11x4xf32>
}

// conv3d: D (6 - 1 + 1 - 1*2) / 1 + 1 = 5, H (7 - 1 + 2 - 2) / 2 + 1 = 4,
// W (8 - 1 + 1 - 2) / 2 + 1 = 4.
func.func @conv3d(%x: tensor<1x6x7x8x3xf32>, %w: tensor<4x2x3x3x3xf32>, %b: tensor<4xf32>)
    -> tensor<1x5x4x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv3d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 1, 1, 1, 1, 0>, stride = array<i64: 1, 2, 2>, dilation = array<i64: 2, 1, 1>} : (tensor<1x6x7x8x3xf32>, tensor<4x2x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x4x4x4xf32>
  return %0 : tensor<1x5x4x4x4xf32>
}

// Sizes that take the packed CPU convolution and the tensor-core implicit
// GEMM on CUDA (TOSA's OHWI filters arrive transposed to HWCF).
func.func @conv2d_large(%x: tensor<1x28x28x64xf32>, %w: tensor<96x3x3x64xf32>, %b: tensor<96xf32>,
                        %xh: tensor<2x14x14x64xf16>, %wh: tensor<128x3x3x64xf16>, %bh: tensor<128xf16>)
    -> (tensor<1x28x28x96xf32>, tensor<2x14x14x128xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zph = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x28x28x64xf32>, tensor<96x3x3x64xf32>, tensor<96xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x28x28x96xf32>
  %1 = tosa.conv2d %xh, %wh, %bh, %zph, %zph {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x14x14x64xf16>, tensor<128x3x3x64xf16>, tensor<128xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x14x14x128xf16>
  return %0, %1 : tensor<1x28x28x96xf32>, tensor<2x14x14x128xf16>
}
