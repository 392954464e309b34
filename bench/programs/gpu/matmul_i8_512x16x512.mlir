// Tensor-core benchmark: C = A @ B^T, 512x16x512 i8 -> i32.
func.func @matmul(%a: tensor<512x512xi8>, %b: tensor<16x512xi8>) -> tensor<512x16xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<512x16xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<512x16xi32>) -> tensor<512x16xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<512x512xi8>, tensor<16x512xi8>) outs(%z : tensor<512x16xi32>) -> tensor<512x16xi32>
  return %r : tensor<512x16xi32>
}
