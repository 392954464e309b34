// TOSA types that cannot cross Tessel's function boundary but may appear
// inside a program: fp8 (E4M3FN and E5M2) casts, and the 16x8 integer
// profile's 48-bit accumulator (i16 x i8 conv2d with acc_type i48, rescaled
// to i32 with a 16-bit multiplier, as the spec requires for i48 inputs).

// f32 -> fp8 -> f32 (values within range: round to nearest even, subnormals
// included).
func.func @fp8_roundtrip(%x: tensor<37x53xf32>) -> (tensor<37x53xf32>, tensor<37x53xf32>) {
  %a = tosa.cast %x : (tensor<37x53xf32>) -> tensor<37x53xf8E4M3FN>
  %b = tosa.cast %a : (tensor<37x53xf8E4M3FN>) -> tensor<37x53xf32>
  %c = tosa.cast %x : (tensor<37x53xf32>) -> tensor<37x53xf8E5M2>
  %d = tosa.cast %c : (tensor<37x53xf8E5M2>) -> tensor<37x53xf32>
  return %b, %d : tensor<37x53xf32>, tensor<37x53xf32>
}

// acc = sum x * w + bias in 48 bits (|acc| < 2^47 by construction: 18 taps of
// |x * w| <= 2^22), then RESCALE i48 -> i32 by 16384 / 2^15 (= 1/2, rounded).
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
