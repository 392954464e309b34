// Degenerate sizes: unit dims, K = 1 matmul (outer product), 1x1 results,
// size-1 broadcasting through constant-0 indexing-map results, a
// reduction over a unit dim, softmax over a unit dim (all ones), and
// 1-element tensors.
#a = affine_map<(i, j, k) -> (i, 0, k)>
#b = affine_map<(i, j, k) -> (0, j, 0)>
#o = affine_map<(i, j, k) -> (i, j, k)>
func.func @tiny(%x: tensor<1x7xf32>, %y: tensor<7x1xf32>, %u: tensor<3x1xf32>, %v: tensor<1x5xf32>,
                %p: tensor<3x1x5xf32>, %q: tensor<1x4x1xf32>, %one: tensor<1xf32>)
    -> (tensor<1x1xf32>, tensor<3x5xf32>, tensor<3x4x5xf32>, tensor<3x5xf32>, tensor<3x1x5xf32>, tensor<1xf32>) {
  %zero = arith.constant 0.0 : f32
  %e11 = tensor.empty() : tensor<1x1xf32>
  %z11 = linalg.fill ins(%zero : f32) outs(%e11 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %dot = linalg.matmul ins(%x, %y : tensor<1x7xf32>, tensor<7x1xf32>) outs(%z11 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %e35 = tensor.empty() : tensor<3x5xf32>
  %z35 = linalg.fill ins(%zero : f32) outs(%e35 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %outer = linalg.matmul ins(%u, %v : tensor<3x1xf32>, tensor<1x5xf32>) outs(%z35 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %e345 = tensor.empty() : tensor<3x4x5xf32>
  %bc = linalg.generic {indexing_maps = [#a, #b, #o], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %q : tensor<3x1x5xf32>, tensor<1x4x1xf32>) outs(%e345 : tensor<3x4x5xf32>) {
  ^bb0(%pv: f32, %qv: f32, %ov: f32):
    %s = arith.addf %pv, %qv : f32
    linalg.yield %s : f32
  } -> tensor<3x4x5xf32>
  %red = linalg.reduce ins(%p : tensor<3x1x5xf32>) outs(%z35 : tensor<3x5xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %es = tensor.empty() : tensor<3x1x5xf32>
  %sm = linalg.softmax dimension(1) ins(%p : tensor<3x1x5xf32>) outs(%es : tensor<3x1x5xf32>) -> tensor<3x1x5xf32>
  %neg = arith.negf %one : tensor<1xf32>
  return %dot, %outer, %bc, %red, %sm, %neg
    : tensor<1x1xf32>, tensor<3x5xf32>, tensor<3x4x5xf32>, tensor<3x5xf32>, tensor<3x1x5xf32>, tensor<1xf32>
}
