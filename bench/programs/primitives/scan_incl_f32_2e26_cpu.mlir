// Inclusive sum of 2^26 f32 on the CPU (numpy.cumsum in the same run).
func.func @scan(%x: tensor<67108864xf32>) -> tensor<67108864xf32> {
  %o = tensor.empty() : tensor<67108864xf32>
  %a = tensor.empty() : tensor<f32>
  %r:2 = tessel.scan dimension(0) inclusive(true)
      ins(%x : tensor<67108864xf32>) outs(%o, %a : tensor<67108864xf32>, tensor<f32>) {
    ^bb0(%l: f32, %v: f32):
      %s = arith.addf %l, %v : f32
      tessel.yield %s : f32
  } -> tensor<67108864xf32>, tensor<f32>
  return %r#0 : tensor<67108864xf32>
}
