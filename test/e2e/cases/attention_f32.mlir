// Single-head attention for a batch of 3: softmax(Q K^T * scale) V with
// Q: 3x45x24, K: 3x61x24, V: 3x61x19. Q K^T uses batch_matmul with a
// transposed-RHS indexing map; the scale is a rank-0 argument; the softmax
// is linalg.softmax on the 3-D scores.
#bmk = affine_map<(b, m, n, k) -> (b, m, k)>
#bnk = affine_map<(b, m, n, k) -> (b, n, k)>
#bmn = affine_map<(b, m, n, k) -> (b, m, n)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#s = affine_map<(b, i, j) -> ()>
func.func @attention(%q: tensor<3x45x24xf32>, %k: tensor<3x61x24xf32>, %v: tensor<3x61x19xf32>, %scale: tensor<f32>)
    -> tensor<3x45x19xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<3x45x61xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<3x45x61xf32>) -> tensor<3x45x61xf32>
  %qk = linalg.batch_matmul indexing_maps = [#bmk, #bnk, #bmn]
          ins(%q, %k : tensor<3x45x24xf32>, tensor<3x61x24xf32>) outs(%zs : tensor<3x45x61xf32>) -> tensor<3x45x61xf32>
  %scaled = linalg.generic {indexing_maps = [#id3, #s, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk, %scale : tensor<3x45x61xf32>, tensor<f32>) outs(%es : tensor<3x45x61xf32>) {
  ^bb0(%a: f32, %sc: f32, %o: f32):
    %m = arith.mulf %a, %sc : f32
    linalg.yield %m : f32
  } -> tensor<3x45x61xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<3x45x61xf32>) outs(%es : tensor<3x45x61xf32>) -> tensor<3x45x61xf32>
  %eo = tensor.empty() : tensor<3x45x19xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<3x45x19xf32>) -> tensor<3x45x19xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x45x61xf32>, tensor<3x61x19xf32>) outs(%zo : tensor<3x45x19xf32>) -> tensor<3x45x19xf32>
  return %o : tensor<3x45x19xf32>
}
