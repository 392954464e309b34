// Adds two 2x3xf32 tensors (used by the tessel-compile / tessel-run tests).
func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = arith.addf %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
