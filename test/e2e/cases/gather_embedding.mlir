// tessel.gather: embedding rows of a table (ids out of range are clamped),
// an embedding lookup followed by layernorm, and a 2-D index gather of
// single elements with batch dimensions.
func.func @embedding(%table: tensor<1000x37xf32>, %ids: tensor<129xi32>) -> tensor<129x37xf32> {
  %e = tensor.empty() : tensor<129x37xf32>
  %g = tessel.gather dimension_map = [0]
      ins(%table, %ids : tensor<1000x37xf32>, tensor<129xi32>)
      outs(%e : tensor<129x37xf32>) -> tensor<129x37xf32>
  return %g : tensor<129x37xf32>
}

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @embedding_layernorm(%table: tensor<500x77xf32>, %ids: tensor<33x1xi64>) -> tensor<33x77xf32> {
  %e = tensor.empty() : tensor<33x77xf32>
  %g = tessel.gather dimension_map = [0]
      ins(%table, %ids : tensor<500x77xf32>, tensor<33x1xi64>)
      outs(%e : tensor<33x77xf32>) -> tensor<33x77xf32>
  %z = arith.constant 0.0 : f32
  %r0 = tensor.empty() : tensor<33xf32>
  %rz = linalg.fill ins(%z : f32) outs(%r0 : tensor<33xf32>) -> tensor<33xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%g : tensor<33x77xf32>) outs(%rz : tensor<33xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<33xf32>
  %n = arith.constant 77.0 : f32
  %cen = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g, %sum : tensor<33x77xf32>, tensor<33xf32>) outs(%e : tensor<33x77xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %c = arith.subf %v, %m : f32
    linalg.yield %c : f32
  } -> tensor<33x77xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%cen : tensor<33x77xf32>) outs(%rz : tensor<33xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %q = arith.mulf %v, %v : f32
    %s = arith.addf %q, %acc : f32
    linalg.yield %s : f32
  } -> tensor<33xf32>
  %eps = arith.constant 1.0e-5 : f32
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cen, %sq : tensor<33x77xf32>, tensor<33xf32>) outs(%e : tensor<33x77xf32>) {
  ^bb0(%c: f32, %s: f32, %o: f32):
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %inv = math.rsqrt %ve : f32
    %y = arith.mulf %c, %inv : f32
    linalg.yield %y : f32
  } -> tensor<33x77xf32>
  return %out : tensor<33x77xf32>
}

// out[b0, b1] = x[idx[b0, b1, 0], idx[b0, b1, 1]] (dimension_map [1, 0]:
// the first index selects column, the second row).
func.func @gather_points(%x: tensor<40x30xi32>, %idx: tensor<7x11x2xi32>) -> tensor<7x11xi32> {
  %e = tensor.empty() : tensor<7x11xi32>
  %g = tessel.gather dimension_map = [1, 0]
      ins(%x, %idx : tensor<40x30xi32>, tensor<7x11x2xi32>)
      outs(%e : tensor<7x11xi32>) -> tensor<7x11xi32>
  return %g : tensor<7x11xi32>
}

// Rows wider than a block's 128 threads: the source's slice dimension is
// tiled with the output's.
func.func @embedding_wide(%table: tensor<50x300xf32>, %ids: tensor<7xi32>) -> tensor<7x300xf32> {
  %e = tensor.empty() : tensor<7x300xf32>
  %g = tessel.gather dimension_map = [0]
      ins(%table, %ids : tensor<50x300xf32>, tensor<7xi32>)
      outs(%e : tensor<7x300xf32>) -> tensor<7x300xf32>
  return %g : tensor<7x300xf32>
}
