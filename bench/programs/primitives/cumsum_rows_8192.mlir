// Row-wise cumsum of 8192 x 8192 f32 (against copy bandwidth).
func.func @cumsum(%x: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %o = tensor.empty() : tensor<8192x8192xf32>
  %a = tensor.empty() : tensor<8192xf32>
  %r:2 = tessel.scan dimension(1) inclusive(true)
      ins(%x : tensor<8192x8192xf32>) outs(%o, %a : tensor<8192x8192xf32>, tensor<8192xf32>) {
    ^bb0(%l: f32, %v: f32):
      %s = arith.addf %l, %v : f32
      tessel.yield %s : f32
  } -> tensor<8192x8192xf32>, tensor<8192xf32>
  return %r#0 : tensor<8192x8192xf32>
}
