// f32 contractions compiled with --cuda-tf32 (COMPILER_ARGS in the .py):
// on cuda they run on TF32 tensor cores (mma.sync m16n8k8): NN (B read
// from shared memory with scalar loads), NT (ldmatrix), TN, and rows that
// are not 16-byte aligned (K = 37: register copies). The cpu target
// computes exact f32.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @nn(%a: tensor<150x96xf32>, %b: tensor<96x136xf32>) -> tensor<150x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<150x136xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<150x136xf32>) -> tensor<150x136xf32>
  %r = linalg.matmul ins(%a, %b : tensor<150x96xf32>, tensor<96x136xf32>) outs(%z : tensor<150x136xf32>) -> tensor<150x136xf32>
  return %r : tensor<150x136xf32>
}
func.func @nt_unaligned(%a: tensor<70x37xf32>, %b: tensor<45x37xf32>) -> tensor<70x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<70x45xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<70x45xf32>) -> tensor<70x45xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : tensor<70x37xf32>, tensor<45x37xf32>) outs(%z : tensor<70x45xf32>) -> tensor<70x45xf32>
  return %r : tensor<70x45xf32>
}
func.func @tn(%a: tensor<64x72xf32>, %b: tensor<64x40xf32>) -> tensor<72x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<72x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<72x40xf32>) -> tensor<72x40xf32>
  %r = linalg.matmul indexing_maps = [#km, #kn, #mn] ins(%a, %b : tensor<64x72xf32>, tensor<64x40xf32>) outs(%z : tensor<72x40xf32>) -> tensor<72x40xf32>
  return %r : tensor<72x40xf32>
}
