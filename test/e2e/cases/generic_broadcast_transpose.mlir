// linalg.generic with broadcasting and transposing indexing maps:
//   out[i, j] = x[j, i] * r[j] + c[i] - s      (x: 53x37, out: 37x53)
// where r is a row vector, c a column vector and s a rank-0 scalar
// broadcast with an empty-result map.
#xT = affine_map<(i, j) -> (j, i)>
#r = affine_map<(i, j) -> (j)>
#c = affine_map<(i, j) -> (i)>
#s = affine_map<(i, j) -> ()>
#id = affine_map<(i, j) -> (i, j)>
func.func @bt(%x: tensor<53x37xf32>, %row: tensor<53xf32>, %col: tensor<37xf32>, %s: tensor<f32>) -> tensor<37x53xf32> {
  %e = tensor.empty() : tensor<37x53xf32>
  %r = linalg.generic {indexing_maps = [#xT, #r, #c, #s, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %row, %col, %s : tensor<53x37xf32>, tensor<53xf32>, tensor<37xf32>, tensor<f32>)
      outs(%e : tensor<37x53xf32>) {
  ^bb0(%xv: f32, %rv: f32, %cv: f32, %sv: f32, %out: f32):
    %m = arith.mulf %xv, %rv : f32
    %a = arith.addf %m, %cv : f32
    %d = arith.subf %a, %sv : f32
    linalg.yield %d : f32
  } -> tensor<37x53xf32>
  return %r : tensor<37x53xf32>
}
