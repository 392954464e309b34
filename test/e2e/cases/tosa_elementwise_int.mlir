// TOSA elementwise ops on integers: i32 arithmetic (mul with and without a
// rounding shift, intdiv, abs, negate, maximum/minimum, clamp, comparisons),
// bitwise ops and shifts on i32 and i8, i8 negate with zero points,
// i8/i16 x i8/i16 -> i32 mul. Shapes 37x53 / 23x41, size-1 broadcasting.
func.func @arith_i32(%a: tensor<37x53xi32>, %b: tensor<1x53xi32>, %c: tensor<37x53xi32>)
    -> (tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>,
        tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>,
        tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi1>, tensor<37x53xi1>,
        tensor<37x53xi1>, tensor<37x53xi32>) {
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s5 = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %add = tosa.add %a, %b : (tensor<37x53xi32>, tensor<1x53xi32>) -> tensor<37x53xi32>
  %sub = tosa.sub %b, %a : (tensor<1x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi32>
  %mul = tosa.mul %a, %b, %s0 : (tensor<37x53xi32>, tensor<1x53xi32>, tensor<1xi8>) -> tensor<37x53xi32>
  %mulr = tosa.mul %a, %b, %s5 : (tensor<37x53xi32>, tensor<1x53xi32>, tensor<1xi8>) -> tensor<37x53xi32>
  %div = tosa.intdiv %a, %c : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi32>
  %abs = tosa.abs %a : (tensor<37x53xi32>) -> tensor<37x53xi32>
  %neg = tosa.negate %a, %zp, %zp : (tensor<37x53xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<37x53xi32>
  %max = tosa.maximum %a, %b : (tensor<37x53xi32>, tensor<1x53xi32>) -> tensor<37x53xi32>
  %min = tosa.minimum %a, %c : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi32>
  %clamp = tosa.clamp %a {min_val = -100 : i32, max_val = 250 : i32} : (tensor<37x53xi32>) -> tensor<37x53xi32>
  %eq = tosa.equal %a, %c : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi1>
  %gt = tosa.greater %a, %b : (tensor<37x53xi32>, tensor<1x53xi32>) -> tensor<37x53xi1>
  %ge = tosa.greater_equal %c, %a : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi1>
  %sel = tosa.select %ge, %a, %b : (tensor<37x53xi1>, tensor<37x53xi32>, tensor<1x53xi32>) -> tensor<37x53xi32>
  return %add, %sub, %mul, %mulr, %div, %abs, %neg, %max, %min, %clamp, %eq, %gt, %ge, %sel
    : tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>,
      tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>,
      tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi1>, tensor<37x53xi1>,
      tensor<37x53xi1>, tensor<37x53xi32>
}

// Full-range i32 bits; %s holds shift amounts 0..31. (tosa.clz is in
// test/e2e/pending_tosa/tosa_clz: docs/tosa-issues.md.)
func.func @bitwise_i32(%a: tensor<37x53xi32>, %b: tensor<37x53xi32>, %s: tensor<37x53xi32>)
    -> (tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>,
        tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>) {
  %and = tosa.bitwise_and %a, %b : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi32>
  %or = tosa.bitwise_or %a, %b : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi32>
  %xor = tosa.bitwise_xor %a, %b : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi32>
  %not = tosa.bitwise_not %a : (tensor<37x53xi32>) -> tensor<37x53xi32>
  %shl = tosa.logical_left_shift %a, %s : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi32>
  %shr = tosa.logical_right_shift %a, %s : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi32>
  %asr = tosa.arithmetic_right_shift %a, %s {round = false} : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi32>
  %asrr = tosa.arithmetic_right_shift %a, %s {round = true} : (tensor<37x53xi32>, tensor<37x53xi32>) -> tensor<37x53xi32>
  return %and, %or, %xor, %not, %shl, %shr, %asr, %asrr
    : tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>,
      tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>, tensor<37x53xi32>
}

// i8: bitwise ops, shifts by 0..7 (broadcast along rows), clamp, negate with
// zero points (computed in i32, then clipped to i8).
func.func @ops_i8(%a: tensor<23x41xi8>, %b: tensor<23x41xi8>, %s: tensor<1x41xi8>)
    -> (tensor<23x41xi8>, tensor<23x41xi8>, tensor<23x41xi8>, tensor<23x41xi8>,
        tensor<23x41xi8>, tensor<23x41xi8>, tensor<23x41xi8>, tensor<23x41xi8>,
        tensor<23x41xi8>, tensor<23x41xi8>) {
  %izp = "tosa.const"() <{values = dense<-7> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<12> : tensor<1xi8>}> : () -> tensor<1xi8>
  %and = tosa.bitwise_and %a, %b : (tensor<23x41xi8>, tensor<23x41xi8>) -> tensor<23x41xi8>
  %or = tosa.bitwise_or %a, %b : (tensor<23x41xi8>, tensor<23x41xi8>) -> tensor<23x41xi8>
  %xor = tosa.bitwise_xor %a, %b : (tensor<23x41xi8>, tensor<23x41xi8>) -> tensor<23x41xi8>
  %not = tosa.bitwise_not %b : (tensor<23x41xi8>) -> tensor<23x41xi8>
  %shl = tosa.logical_left_shift %a, %s : (tensor<23x41xi8>, tensor<1x41xi8>) -> tensor<23x41xi8>
  %shr = tosa.logical_right_shift %a, %s : (tensor<23x41xi8>, tensor<1x41xi8>) -> tensor<23x41xi8>
  %asr = tosa.arithmetic_right_shift %a, %s {round = false} : (tensor<23x41xi8>, tensor<1x41xi8>) -> tensor<23x41xi8>
  %asrr = tosa.arithmetic_right_shift %a, %s {round = true} : (tensor<23x41xi8>, tensor<1x41xi8>) -> tensor<23x41xi8>
  %clamp = tosa.clamp %a {min_val = -20 : i8, max_val = 90 : i8} : (tensor<23x41xi8>) -> tensor<23x41xi8>
  %neg = tosa.negate %a, %izp, %ozp : (tensor<23x41xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<23x41xi8>
  return %and, %or, %xor, %not, %shl, %shr, %asr, %asrr, %clamp, %neg
    : tensor<23x41xi8>, tensor<23x41xi8>, tensor<23x41xi8>, tensor<23x41xi8>,
      tensor<23x41xi8>, tensor<23x41xi8>, tensor<23x41xi8>, tensor<23x41xi8>,
      tensor<23x41xi8>, tensor<23x41xi8>
}

// Widening multiplies: i8 x i8 -> i32 and i16 x i16 -> i32 (shift 0).
func.func @mul_widen(%a: tensor<23x41xi8>, %b: tensor<23x41xi8>, %c: tensor<23x41xi16>,
                     %d: tensor<1x41xi16>) -> (tensor<23x41xi32>, tensor<23x41xi32>) {
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m8 = tosa.mul %a, %b, %s0 : (tensor<23x41xi8>, tensor<23x41xi8>, tensor<1xi8>) -> tensor<23x41xi32>
  %m16 = tosa.mul %c, %d, %s0 : (tensor<23x41xi16>, tensor<1x41xi16>, tensor<1xi8>) -> tensor<23x41xi32>
  return %m8, %m16 : tensor<23x41xi32>, tensor<23x41xi32>
}
