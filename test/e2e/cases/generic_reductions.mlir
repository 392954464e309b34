// linalg.generic reductions with explicit indexing maps: over the inner dim
// (row sums), over the outer dim (column max), and a full reduction of a
// 2-D tensor to a rank-0 tensor<f32>. 129x67.
#id = affine_map<(i, j) -> (i, j)>
#rows = affine_map<(i, j) -> (i)>
#cols = affine_map<(i, j) -> (j)>
#scalar = affine_map<(i, j) -> ()>
func.func @reduce(%x: tensor<129x67xf32>) -> (tensor<129xf32>, tensor<67xf32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<129xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<129xf32>) -> tensor<129xf32>
  %rowsum = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<129x67xf32>) outs(%z0 : tensor<129xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<129xf32>
  %e1 = tensor.empty() : tensor<67xf32>
  %z1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<67xf32>) -> tensor<67xf32>
  %colmax = linalg.generic {indexing_maps = [#id, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<129x67xf32>) outs(%z1 : tensor<67xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<67xf32>
  %e2 = tensor.empty() : tensor<f32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<f32>) -> tensor<f32>
  // sum of squares of everything
  %total = linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<129x67xf32>) outs(%z2 : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %rowsum, %colmax, %total : tensor<129xf32>, tensor<67xf32>, tensor<f32>
}
