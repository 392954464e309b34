// linalg.index inside linalg.generic bodies:
//  * lower-triangular mask: out[i, j] = j <= i ? x[i, j] : -1.0
//  * iota as i32: out[i, j] = i * 1000 + j  (arith.index_cast)
//  * position-dependent float: out[i, j] = x[i, j] * float(i - j)
func.func @index(%x: tensor<45x61xf32>) -> (tensor<45x61xf32>, tensor<45x61xi32>, tensor<45x61xf32>) {
  %e = tensor.empty() : tensor<45x61xf32>
  %tri = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<45x61xf32>) outs(%e : tensor<45x61xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %le = arith.cmpi ule, %j, %i : index
    %m1 = arith.constant -1.0 : f32
    %v = arith.select %le, %in, %m1 : f32
    linalg.yield %v : f32
  } -> tensor<45x61xf32>
  %ei = tensor.empty() : tensor<45x61xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%ei : tensor<45x61xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c1000 = arith.constant 1000 : index
    %t = arith.muli %i, %c1000 : index
    %s = arith.addi %t, %j : index
    %v = arith.index_cast %s : index to i32
    linalg.yield %v : i32
  } -> tensor<45x61xi32>
  %w = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<45x61xf32>) outs(%e : tensor<45x61xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %d = arith.subi %ii, %jj : i64
    %df = arith.sitofp %d : i64 to f32
    %v = arith.mulf %in, %df : f32
    linalg.yield %v : f32
  } -> tensor<45x61xf32>
  return %tri, %iota, %w : tensor<45x61xf32>, tensor<45x61xi32>, tensor<45x61xf32>
}
