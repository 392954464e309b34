// State with an initial value that is not a splat: with --parameters-file
// it goes to the file; a module declaring it #ml_program.extern reads it.
ml_program.global private mutable @acc(dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) : tensor<4xf32>
func.func @bump(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = ml_program.global_load @acc : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %s = linalg.add ins(%a, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  ml_program.global_store @acc = %s : tensor<4xf32>
  return %s : tensor<4xf32>
}
