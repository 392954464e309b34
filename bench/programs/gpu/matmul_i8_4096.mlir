// Tensor-core benchmark: C = A @ B^T, 4096x4096x4096 i8 -> i32.
func.func @matmul(%a: tensor<4096x4096xi8>, %b: tensor<4096x4096xi8>) -> tensor<4096x4096xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4096x4096xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<4096x4096xi32>) -> tensor<4096x4096xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<4096x4096xi8>, tensor<4096x4096xi8>) outs(%z : tensor<4096x4096xi32>) -> tensor<4096x4096xi32>
  return %r : tensor<4096x4096xi32>
}
