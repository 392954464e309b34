// A matmul wide enough for the GPU's large register tiles (8x8 per thread,
// 128x128 blocks: 17 x 17 = 289 blocks) whose M, N and K are multiples of
// none of the tiles: 2051x37 @ 37x2053.
func.func @matmul_wide(%a: tensor<2051x37xf32>, %b: tensor<37x2053xf32>) -> tensor<2051x2053xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2051x2053xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2051x2053xf32>) -> tensor<2051x2053xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2051x37xf32>, tensor<37x2053xf32>)
                     outs(%z : tensor<2051x2053xf32>) -> tensor<2051x2053xf32>
  return %r : tensor<2051x2053xf32>
}
