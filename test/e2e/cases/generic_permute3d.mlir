// 3-D permutation inside a linalg.generic: out[k, i, j] = x[i, j, k] + y[j, k, i]
// on 13x17x19 (two different permutations of the operands), and a
// transposing reduction: out2[k, i] = sum_j x[i, j, k].
#x = affine_map<(k, i, j) -> (i, j, k)>
#y = affine_map<(k, i, j) -> (j, k, i)>
#o = affine_map<(k, i, j) -> (k, i, j)>
#o2 = affine_map<(k, i, j) -> (k, i)>
func.func @permute(%xa: tensor<13x17x19xf32>, %ya: tensor<17x19x13xf32>) -> (tensor<19x13x17xf32>, tensor<19x13xf32>) {
  %e = tensor.empty() : tensor<19x13x17xf32>
  %r = linalg.generic {indexing_maps = [#x, #y, #o], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%xa, %ya : tensor<13x17x19xf32>, tensor<17x19x13xf32>) outs(%e : tensor<19x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<19x13x17xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<19x13xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<19x13xf32>) -> tensor<19x13xf32>
  %r2 = linalg.generic {indexing_maps = [#x, #o2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xa : tensor<13x17x19xf32>) outs(%z2 : tensor<19x13xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<19x13xf32>
  return %r, %r2 : tensor<19x13x17xf32>, tensor<19x13xf32>
}
