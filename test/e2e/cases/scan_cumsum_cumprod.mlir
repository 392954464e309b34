// tessel.scan: cumsum along rows and along columns, cumprod along rows
// (inclusive), and an exclusive i32 scan with a seed and its running total.
func.func @cumsum_rows(%x: tensor<37x53xf32>) -> (tensor<37x53xf32>, tensor<37xf32>) {
  %o = tensor.empty() : tensor<37x53xf32>
  %a = tensor.empty() : tensor<37xf32>
  %r:2 = tessel.scan dimension(1) inclusive(true)
      ins(%x : tensor<37x53xf32>) outs(%o, %a : tensor<37x53xf32>, tensor<37xf32>) {
    ^bb0(%l: f32, %v: f32):
      %s = arith.addf %l, %v : f32
      tessel.yield %s : f32
  } -> tensor<37x53xf32>, tensor<37xf32>
  return %r#0, %r#1 : tensor<37x53xf32>, tensor<37xf32>
}

func.func @cumsum_cols(%x: tensor<301x45xf32>) -> tensor<301x45xf32> {
  %o = tensor.empty() : tensor<301x45xf32>
  %a = tensor.empty() : tensor<45xf32>
  %r:2 = tessel.scan dimension(0) inclusive(true)
      ins(%x : tensor<301x45xf32>) outs(%o, %a : tensor<301x45xf32>, tensor<45xf32>) {
    ^bb0(%l: f32, %v: f32):
      %s = arith.addf %l, %v : f32
      tessel.yield %s : f32
  } -> tensor<301x45xf32>, tensor<45xf32>
  return %r#0 : tensor<301x45xf32>
}

func.func @cumprod_rows(%x: tensor<19x29xf32>) -> tensor<19x29xf32> {
  %o = tensor.empty() : tensor<19x29xf32>
  %a = tensor.empty() : tensor<19xf32>
  %r:2 = tessel.scan dimension(1) inclusive(true)
      ins(%x : tensor<19x29xf32>) outs(%o, %a : tensor<19x29xf32>, tensor<19xf32>) {
    ^bb0(%l: f32, %v: f32):
      %p = arith.mulf %l, %v : f32
      tessel.yield %p : f32
  } -> tensor<19x29xf32>, tensor<19xf32>
  return %r#0 : tensor<19x29xf32>
}

// Exclusive scan of a 1-D i32 tensor seeded with 5; the total is returned.
func.func @exclusive_i32(%x: tensor<1001xi32>) -> (tensor<1001xi32>, tensor<i32>) {
  %o = tensor.empty() : tensor<1001xi32>
  %c5 = arith.constant 5 : i32
  %a0 = tensor.empty() : tensor<i32>
  %a = linalg.fill ins(%c5 : i32) outs(%a0 : tensor<i32>) -> tensor<i32>
  %r:2 = tessel.scan dimension(0) inclusive(false)
      ins(%x : tensor<1001xi32>) outs(%o, %a : tensor<1001xi32>, tensor<i32>) {
    ^bb0(%l: i32, %v: i32):
      %s = arith.addi %l, %v : i32
      tessel.yield %s : i32
  } -> tensor<1001xi32>, tensor<i32>
  return %r#0, %r#1 : tensor<1001xi32>, tensor<i32>
}

// Running maximum along the middle dimension of a 3-D tensor.
func.func @cummax_3d(%x: tensor<5x67x3xf32>) -> tensor<5x67x3xf32> {
  %o = tensor.empty() : tensor<5x67x3xf32>
  %a = tensor.empty() : tensor<5x3xf32>
  %r:2 = tessel.scan dimension(1) inclusive(true)
      ins(%x : tensor<5x67x3xf32>) outs(%o, %a : tensor<5x67x3xf32>, tensor<5x3xf32>) {
    ^bb0(%l: f32, %v: f32):
      %m = arith.maximumf %l, %v : f32
      tessel.yield %m : f32
  } -> tensor<5x67x3xf32>, tensor<5x3xf32>
  return %r#0 : tensor<5x67x3xf32>
}
