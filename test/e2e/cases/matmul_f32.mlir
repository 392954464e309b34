// linalg.matmul 129x301 * 301x67 -> 129x67, zero-initialised via
// tensor.empty + linalg.fill. None of the sizes is a multiple of a tile size.
func.func @matmul(%a: tensor<129x301xf32>, %b: tensor<301x67xf32>) -> tensor<129x67xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<129x67xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<129x67xf32>) -> tensor<129x67xf32>
  %r = linalg.matmul ins(%a, %b : tensor<129x301xf32>, tensor<301x67xf32>)
                     outs(%acc : tensor<129x67xf32>) -> tensor<129x67xf32>
  return %r : tensor<129x67xf32>
}
