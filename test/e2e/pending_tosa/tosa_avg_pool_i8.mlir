// Integer tosa.avg_pool2d. Pending: its lowering computes TOSA's
// reciprocal_scale(count) with math.ctlz, which Tessel's CUDA target cannot
// translate (CPU passes). docs/tosa-issues.md.
// i8: acc = sum(x - input_zp) over the valid taps, scaled by TOSA's
// reciprocal_scale(count) with apply_scale_32 (single rounding), + output_zp,
// saturated. Output 9x5: (9 + 1 - 2) / 1 + 1, (10 + 1 - 3) / 2 + 1.
func.func @avg_pool_i8(%x: tensor<1x9x10x3xi8>) -> tensor<1x9x5x3xi8> {
  %izp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.avg_pool2d %x, %izp, %ozp {acc_type = i32, kernel = array<i64: 2, 3>, pad = array<i64: 1, 0, 0, 1>, stride = array<i64: 1, 2>} : (tensor<1x9x10x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x9x5x3xi8>
  return %0 : tensor<1x9x5x3xi8>
}

