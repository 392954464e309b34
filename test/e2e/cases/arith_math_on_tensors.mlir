// arith and math ops applied directly to ranked tensors (no linalg), which
// the compiler must turn into elementwise loops itself
// (e.g. via convert-elementwise-to-linalg).
func.func @tensor_ops(%a: tensor<7x9xf32>, %b: tensor<7x9xf32>, %p: tensor<7x9xf32>)
    -> (tensor<7x9xf32>, tensor<7x9xf32>, tensor<7x9xi1>, tensor<7x9xf32>) {
  %add = arith.addf %a, %b : tensor<7x9xf32>
  %mul = arith.mulf %add, %a : tensor<7x9xf32>
  %sub = arith.subf %mul, %b : tensor<7x9xf32>
  %div = arith.divf %sub, %p : tensor<7x9xf32>
  %neg = arith.negf %div : tensor<7x9xf32>
  %max = arith.maximumf %neg, %b : tensor<7x9xf32>
  %exp = math.exp %a : tensor<7x9xf32>
  %log = math.log %p : tensor<7x9xf32>
  %sqrt = math.sqrt %p : tensor<7x9xf32>
  %tanh = math.tanh %b : tensor<7x9xf32>
  %abs = math.absf %b : tensor<7x9xf32>
  %t0 = arith.addf %exp, %log : tensor<7x9xf32>
  %t1 = arith.mulf %sqrt, %tanh : tensor<7x9xf32>
  %t2 = arith.subf %t0, %t1 : tensor<7x9xf32>
  %t3 = arith.addf %t2, %abs : tensor<7x9xf32>
  %cmp = arith.cmpf olt, %a, %b : tensor<7x9xf32>
  %sel = arith.select %cmp, %max, %t3 : tensor<7x9xi1>, tensor<7x9xf32>
  return %max, %t3, %cmp, %sel : tensor<7x9xf32>, tensor<7x9xf32>, tensor<7x9xi1>, tensor<7x9xf32>
}

// The same on a 1-D tensor of 100003 elements (odd, > 64K) so that the
// elementwise loops get tiled/parallelised.
func.func @tensor_ops_1d(%a: tensor<100003xf32>, %b: tensor<100003xf32>) -> tensor<100003xf32> {
  %exp = math.exp %a : tensor<100003xf32>
  %mul = arith.mulf %exp, %b : tensor<100003xf32>
  %fma = math.fma %a, %b, %mul : tensor<100003xf32>
  %tanh = math.tanh %fma : tensor<100003xf32>
  return %tanh : tensor<100003xf32>
}
