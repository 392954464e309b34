// Transposes at sizes that are not multiples of the 4x4 thread tile or of
// the block tile: 2-D f32 (131 x 67), 2-D f16 (45 x 203), and a 3-D
// permutation whose input's contiguous loop is the output's outermost.
#in2 = affine_map<(i, j) -> (j, i)>
#out2 = affine_map<(i, j) -> (i, j)>
#in3 = affine_map<(i, j, k) -> (k, i, j)>
#out3 = affine_map<(i, j, k) -> (i, j, k)>
func.func @transposes(%a: tensor<131x67xf32>, %b: tensor<45x203xf16>,
                      %c: tensor<13x7x29xf32>)
    -> (tensor<67x131xf32>, tensor<203x45xf16>, tensor<7x29x13xf32>) {
  %ea = tensor.empty() : tensor<67x131xf32>
  %ta = linalg.transpose ins(%a : tensor<131x67xf32>) outs(%ea : tensor<67x131xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<203x45xf16>
  %tb = linalg.generic {indexing_maps = [#in2, #out2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<45x203xf16>) outs(%eb : tensor<203x45xf16>) {
  ^bb0(%x: f16, %o: f16):
    %n = arith.negf %x : f16
    linalg.yield %n : f16
  } -> tensor<203x45xf16>
  %ec = tensor.empty() : tensor<7x29x13xf32>
  %tc = linalg.generic {indexing_maps = [#in3, #out3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<13x7x29xf32>) outs(%ec : tensor<7x29x13xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<7x29x13xf32>
  return %ta, %tb, %tc : tensor<67x131xf32>, tensor<203x45xf16>, tensor<7x29x13xf32>
}
