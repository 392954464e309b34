// Tensor-core benchmark: C = A @ B^T, 8192x8192x8192 i8 -> i32.
func.func @matmul(%a: tensor<8192x8192xi8>, %b: tensor<8192x8192xi8>) -> tensor<8192x8192xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<8192x8192xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<8192x8192xi32>) -> tensor<8192x8192xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<8192x8192xi8>, tensor<8192x8192xi8>) outs(%z : tensor<8192x8192xi32>) -> tensor<8192x8192xi32>
  return %r : tensor<8192x8192xi32>
}
