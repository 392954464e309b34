// BERT-base feed-forward layer 1 on the CPU: gelu(x @ W + b), tanh form,
// x[4096x768] (batch 32 x seq 128), W[768x3072], f32. One dispatch: the
// matmul's C block per workgroup (packed), then bias + gelu on it
// (reference: the same in numpy and PyTorch CPU, unfused).
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @ffn(%x: tensor<4096x768xf32>, %w: tensor<768x3072xf32>, %b: tensor<3072xf32>) -> tensor<4096x3072xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x3072xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4096x768xf32>, tensor<768x3072xf32>) outs(%z : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4096x3072xf32>, tensor<3072xf32>) outs(%e : tensor<4096x3072xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c0 = arith.constant 0.7978845608 : f32
    %c1 = arith.constant 0.044715 : f32
    %y = arith.addf %v, %bv : f32
    %y2 = arith.mulf %y, %y : f32
    %y3 = arith.mulf %y2, %y : f32
    %i0 = arith.mulf %y3, %c1 : f32
    %i1 = arith.addf %y, %i0 : f32
    %i2 = arith.mulf %i1, %c0 : f32
    %t = math.tanh %i2 : f32
    %t1 = arith.addf %t, %one : f32
    %h = arith.mulf %y, %half : f32
    %g = arith.mulf %h, %t1 : f32
    linalg.yield %g : f32
  } -> tensor<4096x3072xf32>
  return %r : tensor<4096x3072xf32>
}
