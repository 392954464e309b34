// Transposed-operand matmuls. MLIR 22 has no linalg.matmul_transpose_a/b
// named ops any more; the transposition is expressed with the
// `indexing_maps` attribute of linalg.matmul. Two public functions.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// C = A * B^T with A: 45x131, B: 77x131.
func.func @matmul_tb(%a: tensor<45x131xf32>, %b: tensor<77x131xf32>) -> tensor<45x77xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<45x77xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<45x77xf32>) -> tensor<45x77xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
         ins(%a, %b : tensor<45x131xf32>, tensor<77x131xf32>)
         outs(%acc : tensor<45x77xf32>) -> tensor<45x77xf32>
  return %r : tensor<45x77xf32>
}

// C = A^T * B with A: 131x45, B: 131x77.
func.func @matmul_ta(%a: tensor<131x45xf32>, %b: tensor<131x77xf32>) -> tensor<45x77xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<45x77xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<45x77xf32>) -> tensor<45x77xf32>
  %r = linalg.matmul indexing_maps = [#km, #kn, #mn]
         ins(%a, %b : tensor<131x45xf32>, tensor<131x77xf32>)
         outs(%acc : tensor<45x77xf32>) -> tensor<45x77xf32>
  return %r : tensor<45x77xf32>
}
