// c = a + b on 2^26 f32 elements.
#id = affine_map<(i) -> (i)>
func.func @add(%a0: tensor<67108864xf32>, %a1: tensor<67108864xf32>) -> tensor<67108864xf32> {
  %e = tensor.empty() : tensor<67108864xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a0, %a1 : tensor<67108864xf32>, tensor<67108864xf32>) outs(%e : tensor<67108864xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %0 = arith.addf %x0, %x1 : f32
    linalg.yield %0 : f32
  } -> tensor<67108864xf32>
  return %r : tensor<67108864xf32>
}
