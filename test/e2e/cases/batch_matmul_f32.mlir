// linalg.batch_matmul 5x37x53 * 5x53x41 accumulating into an argument, and a
// batch_matmul with a transposed RHS (indexing_maps) as a second result.
#bmk = affine_map<(b, m, n, k) -> (b, m, k)>
#bnk = affine_map<(b, m, n, k) -> (b, n, k)>
#bmn = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @bmm(%a: tensor<5x37x53xf32>, %b: tensor<5x53x41xf32>, %c: tensor<5x37x41xf32>, %bt: tensor<5x41x53xf32>)
    -> (tensor<5x37x41xf32>, tensor<5x37x41xf32>) {
  %r = linalg.batch_matmul ins(%a, %b : tensor<5x37x53xf32>, tensor<5x53x41xf32>)
                           outs(%c : tensor<5x37x41xf32>) -> tensor<5x37x41xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x37x41xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5x37x41xf32>) -> tensor<5x37x41xf32>
  %t = linalg.batch_matmul indexing_maps = [#bmk, #bnk, #bmn]
         ins(%a, %bt : tensor<5x37x53xf32>, tensor<5x41x53xf32>)
         outs(%z : tensor<5x37x41xf32>) -> tensor<5x37x41xf32>
  return %r, %t : tensor<5x37x41xf32>, tensor<5x37x41xf32>
}
