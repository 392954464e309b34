// Data-dependent indexing: tensor.extract with indices computed inside a
// linalg.generic body (an embedding lookup / gather: raised to
// tessel.gather by tessel-raise-to-primitives), and a generic that reads a
// reversed neighbour via linalg.index arithmetic (stays a generic).
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @gather(%table: tensor<50x13xf32>, %ids: tensor<37xi32>, %x: tensor<9x23xf32>)
    -> (tensor<37x13xf32>, tensor<9x23xf32>) {
  %e = tensor.empty() : tensor<37x13xf32>
  %g = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<37xi32>) outs(%e : tensor<37x13xf32>) {
  ^bb0(%id: i32, %o: f32):
    %r = arith.index_cast %id : i32 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%r, %j] : tensor<50x13xf32>
    linalg.yield %v : f32
  } -> tensor<37x13xf32>
  // out[i, j] = x[i, 22 - j] - x[i, j]
  %e2 = tensor.empty() : tensor<9x23xf32>
  %rev = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<9x23xf32>) outs(%e2 : tensor<9x23xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c22 = arith.constant 22 : index
    %jr = arith.subi %c22, %j : index
    %w = tensor.extract %x[%i, %jr] : tensor<9x23xf32>
    %d = arith.subf %w, %v : f32
    linalg.yield %d : f32
  } -> tensor<9x23xf32>
  return %g, %rev : tensor<37x13xf32>, tensor<9x23xf32>
}
