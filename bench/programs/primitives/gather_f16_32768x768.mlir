// Embedding lookup: 32768 rows of 768 f16 from a 2^20-row table.
func.func @gather(%table: tensor<1048576x768xf16>, %ids: tensor<32768xi32>) -> tensor<32768x768xf16> {
  %e = tensor.empty() : tensor<32768x768xf16>
  %g = tessel.gather dimension_map = [0]
      ins(%table, %ids : tensor<1048576x768xf16>, tensor<32768xi32>)
      outs(%e : tensor<32768x768xf16>) -> tensor<32768x768xf16>
  return %g : tensor<32768x768xf16>
}
