// The elementwise linalg named ops of MLIR 22 on f32 (each one becomes a
// single-op linalg.generic): binary add/sub/mul/div/max/min/powf and unary
// exp/log/abs/ceil/floor/negf/reciprocal/round/sqrt/rsqrt/square/tanh/erf.
// Two public functions; 37x53.
func.func @binary(%a: tensor<37x53xf32>, %b: tensor<37x53xf32>)
    -> (tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
        tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>) {
  %e = tensor.empty() : tensor<37x53xf32>
  %add = linalg.add ins(%a, %b : tensor<37x53xf32>, tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %sub = linalg.sub ins(%a, %b : tensor<37x53xf32>, tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %mul = linalg.mul ins(%a, %b : tensor<37x53xf32>, tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %div = linalg.div ins(%b, %a : tensor<37x53xf32>, tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %max = linalg.max ins(%a, %b : tensor<37x53xf32>, tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %min = linalg.min ins(%a, %b : tensor<37x53xf32>, tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %pow = linalg.powf ins(%a, %b : tensor<37x53xf32>, tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  return %add, %sub, %mul, %div, %max, %min, %pow
    : tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
      tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>
}

// %p is strictly positive (log/sqrt/rsqrt/reciprocal), %x is signed and
// contains exact .5 values (round = half away from zero).
func.func @unary(%p: tensor<37x53xf32>, %x: tensor<37x53xf32>)
    -> (tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
        tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
        tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
        tensor<37x53xf32>) {
  %e = tensor.empty() : tensor<37x53xf32>
  %exp = linalg.exp ins(%x : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %log = linalg.log ins(%p : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %abs = linalg.abs ins(%x : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %ceil = linalg.ceil ins(%x : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %floor = linalg.floor ins(%x : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %neg = linalg.negf ins(%x : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %rcp = linalg.reciprocal ins(%p : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %round = linalg.round ins(%x : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %sqrt = linalg.sqrt ins(%p : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %rsqrt = linalg.rsqrt ins(%p : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %square = linalg.square ins(%x : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %tanh = linalg.tanh ins(%x : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %erf = linalg.erf ins(%x : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  return %exp, %log, %abs, %ceil, %floor, %neg, %rcp, %round, %sqrt, %rsqrt, %square, %tanh, %erf
    : tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
      tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
      tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>,
      tensor<37x53xf32>
}
