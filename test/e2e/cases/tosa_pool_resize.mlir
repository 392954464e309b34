// TOSA pooling and resize (NHWC): avg_pool2d (f32; padding excluded from
// the divisor), max_pool2d (f32, i8), resize NEAREST_NEIGHBOR / BILINEAR with
// scale / offset / border (f32; i8 -> i8 nearest, i8 -> i32 bilinear).

// (Integer avg_pool2d is in test/e2e/pending_tosa/tosa_avg_pool_i8:
// docs/tosa-issues.md.)
// Pool outputs: OH = (IH + pad_top + pad_bottom - kernel_y) / stride_y + 1
// (exact division). Here 6x7: (11 + 2 - 3) / 2 + 1, (13 + 2 - 3) / 2 + 1.
func.func @avg_pool_f32(%x: tensor<2x11x13x5xf32>) -> tensor<2x6x7x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x11x13x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x7x5xf32>
  return %0 : tensor<2x6x7x5xf32>
}

// Padded taps never win. f32 output 6x7: (11 + 1 - 2) / 2 + 1, (13 + 2 - 3)
// / 2 + 1; i8 output 5x5: (9 + 1 - 2) / 2 + 1, (10 - 2) / 2 + 1.
func.func @max_pool(%x: tensor<2x11x13x5xf32>, %y: tensor<1x9x10x3xi8>)
    -> (tensor<2x6x7x5xf32>, tensor<1x5x5x3xi8>) {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 3>, pad = array<i64: 1, 0, 0, 2>, stride = array<i64: 2, 2>} : (tensor<2x11x13x5xf32>) -> tensor<2x6x7x5xf32>
  %1 = tosa.max_pool2d %y {kernel = array<i64: 2, 2>, pad = array<i64: 1, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x9x10x3xi8>) -> tensor<1x5x5x3xi8>
  return %0, %1 : tensor<2x6x7x5xf32>, tensor<1x5x5x3xi8>
}

// scale = [y_n, y_d, x_n, x_d], offset = [y, x], border = [y, x]; output
// OH = ((IH - 1) * y_n - offset_y + border_y) / y_d + 1.
// 2x upsampling with half-pixel centres: scale [4, 2, 4, 2], offset [-1, -1],
// border [1, 1]: 5x7 -> 10x14. A fractional 3/5 x 5/7 rescale with offset
// [-3, 2]: 5x7 -> 4x5.
func.func @resize_f32(%x: tensor<1x5x7x3xf32>)
    -> (tensor<1x10x14x3xf32>, tensor<1x10x14x3xf32>, tensor<1x4x5x3xf32>, tensor<1x4x5x3xf32>) {
  %scale = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.resize %x, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x5x7x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x10x14x3xf32>
  %n = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x5x7x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x10x14x3xf32>
  %scale2 = tosa.const_shape {values = dense<[3, 5, 5, 7]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset2 = tosa.const_shape {values = dense<[-3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border2 = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b2 = tosa.resize %x, %scale2, %offset2, %border2 {mode = BILINEAR} : (tensor<1x5x7x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4x5x3xf32>
  %n2 = tosa.resize %x, %scale2, %offset2, %border2 {mode = NEAREST_NEIGHBOR} : (tensor<1x5x7x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4x5x3xf32>
  return %b, %n, %b2, %n2 : tensor<1x10x14x3xf32>, tensor<1x10x14x3xf32>, tensor<1x4x5x3xf32>, tensor<1x4x5x3xf32>
}

// Integer resize: nearest keeps i8; bilinear accumulates in i32 with the
// fractions in units of 1/scale_n (result = value * y_n * x_n for exact
// samples). Bilinear uses offset [0, 0], border [2, 2] (also 5x7 -> 10x14):
// with a negative offset MLIR 22's integer lowering divides with truncation
// instead of the spec's floor division (tessel-verify-input rejects that).
func.func @resize_i8(%x: tensor<2x5x7x3xi8>) -> (tensor<2x10x14x3xi8>, tensor<2x10x14x3xi32>) {
  %scale = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %n = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<2x5x7x3xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x10x14x3xi8>
  %offset0 = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border2 = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.resize %x, %scale, %offset0, %border2 {mode = BILINEAR} : (tensor<2x5x7x3xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x10x14x3xi32>
  return %n, %b : tensor<2x10x14x3xi8>, tensor<2x10x14x3xi32>
}
