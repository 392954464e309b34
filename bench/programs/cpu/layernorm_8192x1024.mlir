// Layer normalisation over the last dim of 8192x1024 f32 (eps 1e-5), as in
// test/e2e/cases/layernorm_f32.mlir: mean, variance, then the normalised output.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @layernorm(%x: tensor<8192x1024xf32>, %gamma: tensor<1024xf32>, %beta: tensor<1024xf32>) -> tensor<8192x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1024.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<8192xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<8192xf32>) -> tensor<8192xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8192x1024xf32>) outs(%z : tensor<8192xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8192xf32>
  // mean computed with arith directly on tensors (splat constant divisor)
  %nvec = arith.constant dense<1024.0> : tensor<8192xf32>
  %mean = arith.divf %sum, %nvec : tensor<8192xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<8192x1024xf32>, tensor<8192xf32>) outs(%z : tensor<8192xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8192xf32>
  %e = tensor.empty() : tensor<8192x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<8192x1024xf32>, tensor<8192xf32>, tensor<8192xf32>, tensor<1024xf32>, tensor<1024xf32>)
      outs(%e : tensor<8192x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %s: f32, %g: f32, %b: f32, %out: f32):
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %in, %m : f32
    %nd = arith.mulf %d, %r : f32
    %sc = arith.mulf %nd, %g : f32
    %o = arith.addf %sc, %b : f32
    linalg.yield %o : f32
  } -> tensor<8192x1024xf32>
  return %y : tensor<8192x1024xf32>
}
