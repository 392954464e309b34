// y[i, j] = x[i, j] + bias[j], 8192x8192 f16 (broadcast along rows).
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @bias(%x: tensor<8192x8192xf16>, %b: tensor<8192xf16>) -> tensor<8192x8192xf16> {
  %e = tensor.empty() : tensor<8192x8192xf16>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<8192x8192xf16>, tensor<8192xf16>) outs(%e : tensor<8192x8192xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %0 = arith.addf %a, %c : f16
    linalg.yield %0 : f16
  } -> tensor<8192x8192xf16>
  return %r : tensor<8192x8192xf16>
}
