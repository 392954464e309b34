// The generic `linalg.elementwise kind=...` op (MLIR 22), including
// indexing_maps that broadcast a row vector and transpose an operand, and
// the ternary linalg.select with an i1 condition tensor.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @ew(%a: tensor<41x67xf32>, %v: tensor<67xf32>, %t: tensor<67x41xf32>, %cond: tensor<41x67xi1>)
    -> (tensor<41x67xf32>, tensor<41x67xf32>, tensor<41x67xf32>, tensor<41x67xf32>) {
  %e = tensor.empty() : tensor<41x67xf32>
  // a + v[j]
  %add = linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [#id, #row, #id]
           ins(%a, %v : tensor<41x67xf32>, tensor<67xf32>) outs(%e : tensor<41x67xf32>) -> tensor<41x67xf32>
  // exp(t^T)
  %exp = linalg.elementwise kind=#linalg.elementwise_kind<exp> indexing_maps = [#tr, #id]
           ins(%t : tensor<67x41xf32>) outs(%e : tensor<41x67xf32>) -> tensor<41x67xf32>
  // (a + v) * exp(t^T)
  %mul = linalg.elementwise kind=#linalg.elementwise_kind<mul>
           ins(%add, %exp : tensor<41x67xf32>, tensor<41x67xf32>) outs(%e : tensor<41x67xf32>) -> tensor<41x67xf32>
  // cond ? a : mul
  %sel = linalg.select ins(%cond, %a, %mul : tensor<41x67xi1>, tensor<41x67xf32>, tensor<41x67xf32>)
           outs(%e : tensor<41x67xf32>) -> tensor<41x67xf32>
  return %add, %exp, %mul, %sel : tensor<41x67xf32>, tensor<41x67xf32>, tensor<41x67xf32>, tensor<41x67xf32>
}
