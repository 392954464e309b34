// y = tanh(x*0.5 + z) * exp(-|x|) + sqrt(z*z + 1) on 2^26 f32 elements (one fused dispatch).
#id = affine_map<(i) -> (i)>
func.func @chain(%a0: tensor<67108864xf32>, %a1: tensor<67108864xf32>) -> tensor<67108864xf32> {
  %e = tensor.empty() : tensor<67108864xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a0, %a1 : tensor<67108864xf32>, tensor<67108864xf32>) outs(%e : tensor<67108864xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %0 = arith.mulf %x0, %half : f32
    %1 = arith.addf %0, %x1 : f32
    %2 = math.tanh %1 : f32
    %3 = math.absf %x0 : f32
    %4 = arith.negf %3 : f32
    %5 = math.exp %4 : f32
    %6 = arith.mulf %2, %5 : f32
    %7 = arith.mulf %x1, %x1 : f32
    %8 = arith.addf %7, %one : f32
    %9 = math.sqrt %8 : f32
    %10 = arith.addf %6, %9 : f32
    linalg.yield %10 : f32
  } -> tensor<67108864xf32>
  return %r : tensor<67108864xf32>
}
