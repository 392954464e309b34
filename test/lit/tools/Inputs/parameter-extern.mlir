// An external parameter read at load time (tessel-run --parameters).
ml_program.global private @w(#ml_program.extern<tensor<2x2xi32>>) : tensor<2x2xi32>
func.func @get() -> tensor<2x2xi32> {
  %w = ml_program.global_load_const @w : tensor<2x2xi32>
  %e = tensor.empty() : tensor<2x2xi32>
  %r = linalg.copy ins(%w : tensor<2x2xi32>) outs(%e : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %r : tensor<2x2xi32>
}
