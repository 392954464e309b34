// A two-layer perceptron with a softmax head: matmul + bias + relu, matmul +
// bias, row softmax. Sizes are deliberately not multiples of any tile.
#row = affine_map<(i, j) -> (i, j)>
#bias = affine_map<(i, j) -> (j)>
#red = affine_map<(i, j) -> (i)>
func.func @mlp(%x: tensor<197x301xf32>, %w1: tensor<301x259xf32>, %b1: tensor<259xf32>,
               %w2: tensor<259x61xf32>, %b2: tensor<61xf32>) -> tensor<197x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<197x259xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<197x259xf32>) -> tensor<197x259xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<197x301xf32>, tensor<301x259xf32>)
                      outs(%f1 : tensor<197x259xf32>) -> tensor<197x259xf32>
  %h = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<197x259xf32>, tensor<259xf32>) outs(%e1 : tensor<197x259xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<197x259xf32>
  %e2 = tensor.empty() : tensor<197x61xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<197x61xf32>) -> tensor<197x61xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<197x259xf32>, tensor<259x61xf32>)
                      outs(%f2 : tensor<197x61xf32>) -> tensor<197x61xf32>
  %logits = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<197x61xf32>, tensor<61xf32>) outs(%e2 : tensor<197x61xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<197x61xf32>
  %p = linalg.softmax dimension(1) ins(%logits : tensor<197x61xf32>)
                     outs(%e2 : tensor<197x61xf32>) -> tensor<197x61xf32>
  return %p : tensor<197x61xf32>
}
