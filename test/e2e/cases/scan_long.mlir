// Long scans: single rows of over 2^16 elements run as a decoupled
// look-back on the GPU (a workspace dispatch first), rows of a few
// thousand as a block per row; sizes leave partial last tiles.
func.func @inclusive_f32(%x: tensor<1000003xf32>) -> (tensor<1000003xf32>, tensor<f32>) {
  %o = tensor.empty() : tensor<1000003xf32>
  %a = tensor.empty() : tensor<f32>
  %r:2 = tessel.scan dimension(0) inclusive(true)
      ins(%x : tensor<1000003xf32>) outs(%o, %a : tensor<1000003xf32>, tensor<f32>) {
    ^bb0(%l: f32, %v: f32):
      %s = arith.addf %l, %v : f32
      tessel.yield %s : f32
  } -> tensor<1000003xf32>, tensor<f32>
  return %r#0, %r#1 : tensor<1000003xf32>, tensor<f32>
}

func.func @exclusive_i32(%x: tensor<1x300001xi32>) -> (tensor<1x300001xi32>, tensor<1xi32>) {
  %o = tensor.empty() : tensor<1x300001xi32>
  %c7 = arith.constant 7 : i32
  %a0 = tensor.empty() : tensor<1xi32>
  %a = linalg.fill ins(%c7 : i32) outs(%a0 : tensor<1xi32>) -> tensor<1xi32>
  %r:2 = tessel.scan dimension(1) inclusive(false)
      ins(%x : tensor<1x300001xi32>) outs(%o, %a : tensor<1x300001xi32>, tensor<1xi32>) {
    ^bb0(%l: i32, %v: i32):
      %s = arith.addi %l, %v : i32
      tessel.yield %s : i32
  } -> tensor<1x300001xi32>, tensor<1xi32>
  return %r#0, %r#1 : tensor<1x300001xi32>, tensor<1xi32>
}

func.func @running_max(%x: tensor<99999xf32>) -> tensor<99999xf32> {
  %o = tensor.empty() : tensor<99999xf32>
  %a = tensor.empty() : tensor<f32>
  %r:2 = tessel.scan dimension(0) inclusive(true)
      ins(%x : tensor<99999xf32>) outs(%o, %a : tensor<99999xf32>, tensor<f32>) {
    ^bb0(%l: f32, %v: f32):
      %m = arith.maximumf %l, %v : f32
      tessel.yield %m : f32
  } -> tensor<99999xf32>, tensor<f32>
  return %r#0 : tensor<99999xf32>
}

// Rows of 10001 (a block per row, two full tiles and a partial one), and
// an exclusive scan of rows seeded per row from an argument.
func.func @rows_f32(%x: tensor<3x10001xf32>) -> (tensor<3x10001xf32>, tensor<3xf32>) {
  %o = tensor.empty() : tensor<3x10001xf32>
  %a = tensor.empty() : tensor<3xf32>
  %r:2 = tessel.scan dimension(1) inclusive(true)
      ins(%x : tensor<3x10001xf32>) outs(%o, %a : tensor<3x10001xf32>, tensor<3xf32>) {
    ^bb0(%l: f32, %v: f32):
      %s = arith.addf %l, %v : f32
      tessel.yield %s : f32
  } -> tensor<3x10001xf32>, tensor<3xf32>
  return %r#0, %r#1 : tensor<3x10001xf32>, tensor<3xf32>
}

func.func @rows_seeded(%x: tensor<5x8192xi32>, %seed: tensor<5xi32>) -> (tensor<5x8192xi32>, tensor<5xi32>) {
  %o = tensor.empty() : tensor<5x8192xi32>
  %r:2 = tessel.scan dimension(1) inclusive(false)
      ins(%x : tensor<5x8192xi32>) outs(%o, %seed : tensor<5x8192xi32>, tensor<5xi32>) {
    ^bb0(%l: i32, %v: i32):
      %s = arith.addi %l, %v : i32
      tessel.yield %s : i32
  } -> tensor<5x8192xi32>, tensor<5xi32>
  return %r#0, %r#1 : tensor<5x8192xi32>, tensor<5xi32>
}
