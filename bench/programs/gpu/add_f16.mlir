// c = a + b on 2^26 f16 elements.
#id = affine_map<(i) -> (i)>
func.func @add(%a0: tensor<67108864xf16>, %a1: tensor<67108864xf16>) -> tensor<67108864xf16> {
  %e = tensor.empty() : tensor<67108864xf16>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a0, %a1 : tensor<67108864xf16>, tensor<67108864xf16>) outs(%e : tensor<67108864xf16>) {
  ^bb0(%x0: f16, %x1: f16, %o: f16):
    %0 = arith.addf %x0, %x1 : f16
    linalg.yield %0 : f16
  } -> tensor<67108864xf16>
  return %r : tensor<67108864xf16>
}
