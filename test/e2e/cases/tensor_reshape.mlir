// tensor.expand_shape / tensor.collapse_shape around compute:
//  * 1-D 1155 -> 3x5x7x11 (expand), reduce over the 5 dim, collapse the
//    3x7x11 result back to 231;
//  * collapse a 5x7x9 to 35x9 and matmul it with a 9x13 matrix, expand the
//    result to 5x7x13.
func.func @reshape(%v: tensor<1155xf32>, %x: tensor<5x7x9xf32>, %w: tensor<9x13xf32>)
    -> (tensor<3x5x7x11xf32>, tensor<231xf32>, tensor<5x7x13xf32>) {
  %e4 = tensor.expand_shape %v [[0, 1, 2, 3]] output_shape [3, 5, 7, 11] : tensor<1155xf32> into tensor<3x5x7x11xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<3x7x11xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<3x7x11xf32>) -> tensor<3x7x11xf32>
  %red = linalg.reduce ins(%e4 : tensor<3x5x7x11xf32>) outs(%z : tensor<3x7x11xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %flat = tensor.collapse_shape %red [[0, 1, 2]] : tensor<3x7x11xf32> into tensor<231xf32>
  %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<5x7x9xf32> into tensor<35x9xf32>
  %em = tensor.empty() : tensor<35x13xf32>
  %zm = linalg.fill ins(%zero : f32) outs(%em : tensor<35x13xf32>) -> tensor<35x13xf32>
  %mm = linalg.matmul ins(%x2, %w : tensor<35x9xf32>, tensor<9x13xf32>) outs(%zm : tensor<35x13xf32>) -> tensor<35x13xf32>
  %mm3 = tensor.expand_shape %mm [[0, 1], [2]] output_shape [5, 7, 13] : tensor<35x13xf32> into tensor<5x7x13xf32>
  return %e4, %flat, %mm3 : tensor<3x5x7x11xf32>, tensor<231xf32>, tensor<5x7x13xf32>
}
