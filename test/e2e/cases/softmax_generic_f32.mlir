// Row softmax written out as linalg.generic ops (the form frontends emit):
// row max (reduction), x - max (broadcast), exp, row sum (reduction),
// divide (broadcast). 301x517.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @softmax(%x: tensor<301x517xf32>) -> tensor<301x517xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<301xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<301xf32>) -> tensor<301xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<301x517xf32>) outs(%m0 : tensor<301xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<301xf32>
  %e = tensor.empty() : tensor<301x517xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<301x517xf32>, tensor<301xf32>) outs(%e : tensor<301x517xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %s = arith.subf %a, %m : f32
    linalg.yield %s : f32
  } -> tensor<301x517xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<301x517xf32>) outs(%e : tensor<301x517xf32>) {
  ^bb0(%a: f32, %out: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<301x517xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%er : tensor<301xf32>) -> tensor<301xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<301x517xf32>) outs(%s0 : tensor<301xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<301xf32>
  %div = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<301x517xf32>, tensor<301xf32>) outs(%e : tensor<301x517xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %v = arith.divf %a, %s : f32
    linalg.yield %v : f32
  } -> tensor<301x517xf32>
  return %div : tensor<301x517xf32>
}
