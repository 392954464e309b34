// Rank-0 tensors: a tensor<f32> argument broadcast with linalg.broadcast
// (dimensions = [0, 1]) and used as a fill value via tensor.extract; a full
// reduction to tensor<f32> with linalg.reduce; arith/math directly on
// rank-0 tensors; a rank-0 i32 in, rank-0 i32 out; tensor.from_elements.
func.func @rank0(%s: tensor<f32>, %x: tensor<41x23xf32>, %i: tensor<i32>)
    -> (tensor<41x23xf32>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<41x23xf32>, tensor<2xf32>) {
  %e = tensor.empty() : tensor<41x23xf32>
  %sb = linalg.broadcast ins(%s : tensor<f32>) outs(%e : tensor<41x23xf32>) dimensions = [0, 1]
  %xs = arith.mulf %x, %sb : tensor<41x23xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %total = linalg.reduce ins(%xs : tensor<41x23xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %sq = arith.mulf %s, %s : tensor<f32>
  %rt = math.sqrt %sq : tensor<f32>
  %five = arith.constant dense<5> : tensor<i32>
  %i5 = arith.addi %i, %five : tensor<i32>
  %i10 = arith.muli %i5, %i : tensor<i32>
  %sv = tensor.extract %s[] : tensor<f32>
  %filled = linalg.fill ins(%sv : f32) outs(%e : tensor<41x23xf32>) -> tensor<41x23xf32>
  %tv = tensor.extract %total[] : tensor<f32>
  %pair = tensor.from_elements %sv, %tv : tensor<2xf32>
  return %xs, %total, %rt, %i10, %filled, %pair
    : tensor<41x23xf32>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<41x23xf32>, tensor<2xf32>
}

// Rank-0 in, rank-0 out only.
func.func @scalar_only(%a: tensor<f64>, %b: tensor<f64>) -> tensor<f64> {
  %m = arith.mulf %a, %b : tensor<f64>
  %e = math.exp %m : tensor<f64>
  return %e : tensor<f64>
}
