// tessel.scatter: a histogram (scatter-add of ones, duplicate bins, bins
// out of range skipped), a segment sum of rows (index_add), and a
// replacing scatter of rows at unique positions.
func.func @histogram(%bins: tensor<5000xi32>) -> tensor<64xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z0 = tensor.empty() : tensor<64xi32>
  %zeros = linalg.fill ins(%c0 : i32) outs(%z0 : tensor<64xi32>) -> tensor<64xi32>
  %o0 = tensor.empty() : tensor<5000xi32>
  %ones = linalg.fill ins(%c1 : i32) outs(%o0 : tensor<5000xi32>) -> tensor<5000xi32>
  %h = tessel.scatter dimension_map = [0] unique_indices(false)
      ins(%ones, %bins : tensor<5000xi32>, tensor<5000xi32>)
      outs(%zeros : tensor<64xi32>) {
    ^bb0(%u: i32, %cur: i32):
      %s = arith.addi %u, %cur : i32
      tessel.yield %s : i32
  } -> tensor<64xi32>
  return %h : tensor<64xi32>
}

func.func @segment_sum(%data: tensor<203x7xf32>, %seg: tensor<203x1xi32>) -> tensor<11x7xf32> {
  %z = arith.constant 0.0 : f32
  %o0 = tensor.empty() : tensor<11x7xf32>
  %zeros = linalg.fill ins(%z : f32) outs(%o0 : tensor<11x7xf32>) -> tensor<11x7xf32>
  %s = tessel.scatter dimension_map = [0] unique_indices(false)
      ins(%data, %seg : tensor<203x7xf32>, tensor<203x1xi32>)
      outs(%zeros : tensor<11x7xf32>) {
    ^bb0(%u: f32, %cur: f32):
      %a = arith.addf %u, %cur : f32
      tessel.yield %a : f32
  } -> tensor<11x7xf32>
  return %s : tensor<11x7xf32>
}

func.func @replace_rows(%base: tensor<50x9xf32>, %rows: tensor<13x9xf32>, %at: tensor<13xi64>) -> tensor<50x9xf32> {
  %s = tessel.scatter dimension_map = [0] unique_indices(true)
      ins(%rows, %at : tensor<13x9xf32>, tensor<13xi64>)
      outs(%base : tensor<50x9xf32>) {
    ^bb0(%u: f32, %cur: f32):
      tessel.yield %u : f32
  } -> tensor<50x9xf32>
  return %s : tensor<50x9xf32>
}
