// tosa.rescale (TOSA 1.0 RESCALE: subtract input_zp, multiply by a 32- or
// 16-bit multiplier, round and shift right, add output_zp, saturate) with
// per-tensor and per-channel (last dimension) parameters, SINGLE_ROUND and
// DOUBLE_ROUND, signed and unsigned 8-bit views; and tosa.table on i8
// (lookup) and i16 (513-entry table, linear interpolation, i32 result).
// INEXACT_ROUND has no upstream lowering (rejected by tessel-verify-input).

// i32 -> i8, one multiplier, shift 38 > 31 (where DOUBLE_ROUND adds its
// extra +-2^30 before the shift); output_zp -3.
func.func @i32_to_i8(%x: tensor<37x53xi32>) -> (tensor<37x53xi8>, tensor<37x53xi8>) {
  %m = "tosa.const"() <{values = dense<1518500250> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<38> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %dbl = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<37x53xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<37x53xi8>
  %sgl = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<37x53xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<37x53xi8>
  return %dbl, %sgl : tensor<37x53xi8>, tensor<37x53xi8>
}

// i32 -> i16, DOUBLE_ROUND, shift 35, output_zp 0.
func.func @i32_to_i16(%x: tensor<37x53xi32>) -> tensor<37x53xi16> {
  %m = "tosa.const"() <{values = dense<1234567891> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<35> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %r = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<37x53xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi16>) -> tensor<37x53xi16>
  return %r : tensor<37x53xi16>
}

// i8 -> i32 per channel (7 channels), SINGLE_ROUND and DOUBLE_ROUND,
// input_zp 5.
func.func @i8_to_i32_per_channel(%x: tensor<5x9x7xi8>) -> (tensor<5x9x7xi32>, tensor<5x9x7xi32>) {
  %m = "tosa.const"() <{values = dense<[1543657631, 1638819831, 1981934886, 1468276100, 1786200163, 1879559864, 626310777]> : tensor<7xi32>}> : () -> tensor<7xi32>
  %s = "tosa.const"() <{values = dense<[26, 25, 38, 39, 20, 30, 37]> : tensor<7xi8>}> : () -> tensor<7xi8>
  %izp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %sgl = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<5x9x7xi8>, tensor<7xi32>, tensor<7xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<5x9x7xi32>
  %dbl = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<5x9x7xi8>, tensor<7xi32>, tensor<7xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<5x9x7xi32>
  return %sgl, %dbl : tensor<5x9x7xi32>, tensor<5x9x7xi32>
}

// 16-bit multipliers (scale32 = false): i8 -> i8 per tensor with both zero
// points, i16 -> i8 per channel (41 channels).
func.func @scale16(%x: tensor<23x41xi8>, %y: tensor<23x41xi16>) -> (tensor<23x41xi8>, tensor<23x41xi8>) {
  %m = "tosa.const"() <{values = dense<23170> : tensor<1xi16>}> : () -> tensor<1xi16>
  %s = "tosa.const"() <{values = dense<15> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<-10> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<17> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.rescale %x, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = false} : (tensor<23x41xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<23x41xi8>
  %mc = "tosa.const"() <{values = dense<[11422, 27780, 11118, 19691, 28257, 15639, 16587, 15034, 25873, 14455, 32533, 19130, 19942, 20591, 22508, 21794, 20712, 32657, 28041, 27672, 25401, 23482, 16573, 32496, 19650, 13483, 28960, 12129, 29264, 23245, 11011, 9271, 19122, 9068, 11670, 20845, 32037, 19649, 28060, 30732, 28429]> : tensor<41xi16>}> : () -> tensor<41xi16>
  %sc = "tosa.const"() <{values = dense<[24, 21, 22, 18, 21, 20, 17, 29, 14, 15, 17, 29, 25, 28, 17, 25, 19, 21, 14, 23, 27, 24, 16, 22, 18, 29, 28, 16, 22, 29, 27, 25, 24, 14, 25, 21, 15, 17, 22, 25, 22]> : tensor<41xi8>}> : () -> tensor<41xi8>
  %zp16 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %ozp2 = "tosa.const"() <{values = dense<-4> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b = tosa.rescale %y, %mc, %sc, %zp16, %ozp2 {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = false} : (tensor<23x41xi16>, tensor<41xi16>, tensor<41xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<23x41xi8>
  return %a, %b : tensor<23x41xi8>, tensor<23x41xi8>
}

// Unsigned 8-bit views of i8 data: uint8 (zp 128, written -128) -> int8, and
// int8 -> uint8 (zp 128; saturates to 0..255, returned as the i8 bits).
func.func @unsigned(%x: tensor<23x41xi8>) -> (tensor<23x41xi8>, tensor<23x41xi8>) {
  %m = "tosa.const"() <{values = dense<1518500250> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp128 = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %u2s = tosa.rescale %x, %m, %s, %zp128, %zp0 {input_unsigned = true, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<23x41xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<23x41xi8>
  %s2u = tosa.rescale %x, %m, %s, %zp0, %zp128 {input_unsigned = false, output_unsigned = true, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<23x41xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<23x41xi8>
  return %u2s, %s2u : tensor<23x41xi8>, tensor<23x41xi8>
}

// tosa.table: i8 -> i8 lookup at value + 128; i16 -> i32 with a 513-entry
// table: base = table[(v + 32768) >> 7], result = (base << 7) + (next - base)
// * ((v + 32768) & 127).
func.func @table(%x: tensor<23x41xi8>, %t8: tensor<256xi8>, %y: tensor<23x41xi16>, %t16: tensor<513xi16>)
    -> (tensor<23x41xi8>, tensor<23x41xi32>) {
  %a = tosa.table %x, %t8 : (tensor<23x41xi8>, tensor<256xi8>) -> tensor<23x41xi8>
  %b = tosa.table %y, %t16 : (tensor<23x41xi16>, tensor<513xi16>) -> tensor<23x41xi32>
  return %a, %b : tensor<23x41xi8>, tensor<23x41xi32>
}

// tosa.apply_scale (the scalar op RESCALE lowers to; tosa-to-arith lowers it)
// inside a linalg.generic, with per-column multipliers and shifts as
// function arguments.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
func.func @apply_scale(%v: tensor<37x53xi32>, %m: tensor<1x53xi32>, %s: tensor<1x53xi8>)
    -> (tensor<37x53xi32>, tensor<37x53xi32>) {
  %e = tensor.empty() : tensor<37x53xi32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%v, %m, %s : tensor<37x53xi32>, tensor<1x53xi32>, tensor<1x53xi8>)
      outs(%e, %e : tensor<37x53xi32>, tensor<37x53xi32>) {
  ^bb0(%a: i32, %mm: i32, %ss: i8, %o1: i32, %o2: i32):
    %x = tosa.apply_scale %a, %mm, %ss {rounding_mode = SINGLE_ROUND} : (i32, i32, i8) -> i32
    %y = tosa.apply_scale %a, %mm, %ss {rounding_mode = DOUBLE_ROUND} : (i32, i32, i8) -> i32
    linalg.yield %x, %y : i32, i32
  } -> (tensor<37x53xi32>, tensor<37x53xi32>)
  return %r#0, %r#1 : tensor<37x53xi32>, tensor<37x53xi32>
}
