// Inclusive sum of 2^28 f32 (CUB DeviceScan::InclusiveSum's case).
func.func @scan(%x: tensor<268435456xf32>) -> tensor<268435456xf32> {
  %o = tensor.empty() : tensor<268435456xf32>
  %a = tensor.empty() : tensor<f32>
  %r:2 = tessel.scan dimension(0) inclusive(true)
      ins(%x : tensor<268435456xf32>) outs(%o, %a : tensor<268435456xf32>, tensor<f32>) {
    ^bb0(%l: f32, %v: f32):
      %s = arith.addf %l, %v : f32
      tessel.yield %s : f32
  } -> tensor<268435456xf32>, tensor<f32>
  return %r#0 : tensor<268435456xf32>
}
