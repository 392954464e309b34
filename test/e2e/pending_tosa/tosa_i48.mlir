// The 16x8 integer profile's 48-bit accumulator inside a program (boundary
// types i16 / i8 / i32): i16 x i8 conv2d with acc_type i48, RESCALE i48 ->
// i32 with a 16-bit multiplier (scale32 = false, as the spec requires for
// i48 inputs), and an i48 constant. Pending: Tessel sizes i48 buffers and
// packs i48 constants with 6 bytes per element (ModuleWriter storageBytes =
// bits / 8) while the LLVM code strides i48 by its 8-byte alloc size, and
// vector loads of i48 memrefs read packed 48-bit lanes: the convolutions
// segfault (CPU), the constant gives wrong values. docs/tosa-issues.md.

// bias widened from i32 in the program; output = round(acc / 2).
func.func @conv_i48(%x: tensor<1x7x6x2xi16>, %w: tensor<3x3x3x2xi8>, %b: tensor<3xi32>)
    -> tensor<1x5x4x3xi32> {
  %zp16 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %zp8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b48 = tosa.cast %b : (tensor<3xi32>) -> tensor<3xi48>
  %c = tosa.conv2d %x, %w, %b48, %zp16, %zp8 {acc_type = i48, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x6x2xi16>, tensor<3x3x3x2xi8>, tensor<3xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x5x4x3xi48>
  %m = "tosa.const"() <{values = dense<16384> : tensor<1xi16>}> : () -> tensor<1xi16>
  %s = "tosa.const"() <{values = dense<15> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z48 = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  %z32 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r = tosa.rescale %c, %m, %s, %z48, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = false} : (tensor<1x5x4x3xi48>, tensor<1xi16>, tensor<1xi8>, tensor<1xi48>, tensor<1xi32>) -> tensor<1x5x4x3xi32>
  return %r : tensor<1x5x4x3xi32>
}

// The bias shifted left by 10 in i48 (|bias| up to 2^40) pushes the
// accumulator past 32 bits; RESCALE by 16384 / 2^24 (= 2^-10) brings it back.
func.func @conv_i48_big_bias(%x: tensor<1x7x6x2xi16>, %w: tensor<3x3x3x2xi8>, %b: tensor<3xi32>)
    -> tensor<1x5x4x3xi32> {
  %zp16 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %zp8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ten = "tosa.const"() <{values = dense<10> : tensor<1xi48>}> : () -> tensor<1xi48>
  %b48 = tosa.cast %b : (tensor<3xi32>) -> tensor<3xi48>
  %bs = tosa.logical_left_shift %b48, %ten : (tensor<3xi48>, tensor<1xi48>) -> tensor<3xi48>
  %c = tosa.conv2d %x, %w, %bs, %zp16, %zp8 {acc_type = i48, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x6x2xi16>, tensor<3x3x3x2xi8>, tensor<3xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x5x4x3xi48>
  %m = "tosa.const"() <{values = dense<16384> : tensor<1xi16>}> : () -> tensor<1xi16>
  %s = "tosa.const"() <{values = dense<24> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z48 = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  %z32 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r = tosa.rescale %c, %m, %s, %z48, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = false} : (tensor<1x5x4x3xi48>, tensor<1xi16>, tensor<1xi8>, tensor<1xi48>, tensor<1xi32>) -> tensor<1x5x4x3xi32>
  return %r : tensor<1x5x4x3xi32>
}

// An i48 constant in a kernel: wrong values (see docs/tosa-issues.md).
func.func @const_i48(%x: tensor<3xi32>) -> tensor<3xi32> {
  %b = "tosa.const"() <{values = dense<[1099511627776, -549755813888, 12345]> : tensor<3xi48>}> : () -> tensor<3xi48>
  %x48 = tosa.cast %x : (tensor<3xi32>) -> tensor<3xi48>
  %s = tosa.add %x48, %b : (tensor<3xi48>, tensor<3xi48>) -> tensor<3xi48>
  %sh = "tosa.const"() <{values = dense<20> : tensor<3xi48>}> : () -> tensor<3xi48>
  %r = tosa.arithmetic_right_shift %s, %sh {round = false} : (tensor<3xi48>, tensor<3xi48>) -> tensor<3xi48>
  %o = tosa.cast %r : (tensor<3xi48>) -> tensor<3xi32>
  return %o : tensor<3xi32>
}
