// Row-centering with one result (x - rowsum/n): a one-result row chain. No
// libdevice call.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @center(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1000.0 : f32
  %er = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1000xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x1000xf32>
  %c = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1000xf32>, tensor<64xf32>) outs(%e : tensor<64x1000xf32>) {
  ^bb0(%in: f32, %ss: f32, %o: f32):
    %m = arith.divf %ss, %n : f32
    %r = arith.subf %in, %m : f32
    linalg.yield %r : f32
  } -> tensor<64x1000xf32>
  return %c : tensor<64x1000xf32>
}
