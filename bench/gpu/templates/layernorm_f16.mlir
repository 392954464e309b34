// Layernorm over rows of 768 (BERT-base hidden size), f16 in and out, f32
// statistics: ROWS is ? or a row count, DIMS %m or nothing.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#col2 = affine_map<(d0, d1) -> (d1)>
#rid1 = affine_map<(d0) -> (d0)>
func.func @ln(%x: tensor<ROWSx768xf16>, %gamma: tensor<768xf32>, %beta: tensor<768xf32>) -> tensor<ROWSx768xf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<ROWSx768xf16>
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty(DIMS) : tensor<ROWSxf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<ROWSxf32>) -> tensor<ROWSxf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<ROWSx768xf16>) outs(%z : tensor<ROWSxf32>) {
  ^bb0(%in: f16, %acc: f32):
    %inf = arith.extf %in : f16 to f32
    %s = arith.addf %inf, %acc : f32
    linalg.yield %s : f32
  } -> tensor<ROWSxf32>
  %mean = linalg.generic {indexing_maps = [#rid1, #rid1], iterator_types = ["parallel"]}
      ins(%sum : tensor<ROWSxf32>) outs(%er : tensor<ROWSxf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<ROWSxf32>
  %sq = linalg.generic {indexing_maps = [#id2, #row2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<ROWSx768xf16>, tensor<ROWSxf32>) outs(%z : tensor<ROWSxf32>) {
  ^bb0(%in: f16, %mu: f32, %acc: f32):
    %inf = arith.extf %in : f16 to f32
    %d = arith.subf %inf, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<ROWSxf32>
  %e = tensor.empty(DIMS) : tensor<ROWSx768xf16>
  %y = linalg.generic {indexing_maps = [#id2, #row2, #row2, #col2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<ROWSx768xf16>, tensor<ROWSxf32>, tensor<ROWSxf32>, tensor<768xf32>, tensor<768xf32>)
      outs(%e : tensor<ROWSx768xf16>) {
  ^bb0(%in: f16, %mu: f32, %v: f32, %g: f32, %b: f32, %out: f16):
    %inf = arith.extf %in : f16 to f32
    %var = arith.divf %v, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %inf, %mu : f32
    %nd = arith.mulf %d, %r : f32
    %sc = arith.mulf %nd, %g : f32
    %y = arith.addf %sc, %b : f32
    %o = arith.truncf %y : f32 to f16
    linalg.yield %o : f16
  } -> tensor<ROWSx768xf16>
  return %y : tensor<ROWSx768xf16>
}
