// tosa.clz (math.ctlz after the TOSA lowering). Pending: Tessel fails on CPU
// for rank >= 2 (n-D vector math.ctlz not legalized) and on CUDA for any
// rank (math.ctlz reaches LLVM translation). docs/tosa-issues.md.
func.func @clz_2d(%b: tensor<37x53xi32>) -> tensor<37x53xi32> {
  %0 = tosa.clz %b : (tensor<37x53xi32>) -> tensor<37x53xi32>
  return %0 : tensor<37x53xi32>
}

func.func @clz_1d(%b: tensor<301xi32>) -> tensor<301xi32> {
  %0 = tosa.clz %b : (tensor<301xi32>) -> tensor<301xi32>
  return %0 : tensor<301xi32>
}
