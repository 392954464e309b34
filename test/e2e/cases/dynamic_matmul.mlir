// Matmuls with a dynamic M (rows of a linear layer): one module for every M.
// On cuda each dispatch has variants per bucket of M (<= 64, <= 256, <= 1024, more:
// tessel-specialize-dispatches) on mma.sync and wgmma with masked edges and
// TMA maps sized per call; the cases cross every bucket edge.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>
func.func @mm_f16(%a: tensor<?x520xf16>, %b: tensor<520x776xf16>) -> tensor<?x776xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x520xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x776xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x776xf32>) -> tensor<?x776xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x520xf16>, tensor<520x776xf16>) outs(%z : tensor<?x776xf32>) -> tensor<?x776xf32>
  return %r : tensor<?x776xf32>
}

// x @ W^T + bias, relu, rounded to f16 (a fused epilogue on cuda).
func.func @linear_relu_f16(%x: tensor<?x264xf16>, %w: tensor<392x264xf16>, %bias: tensor<392xf32>) -> tensor<?x392xf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x264xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x392xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x392xf32>) -> tensor<?x392xf32>
  %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<?x264xf16>, tensor<392x264xf16>) outs(%z : tensor<?x392xf32>) -> tensor<?x392xf32>
  %o = tensor.empty(%m) : tensor<?x392xf16>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x392xf32>, tensor<392xf32>) outs(%o : tensor<?x392xf16>) {
  ^bb0(%v: f32, %bv: f32, %out: f16):
    %y = arith.addf %v, %bv : f32
    %r0 = arith.maximumf %y, %zero : f32
    %h = arith.truncf %r0 : f32 to f16
    linalg.yield %h : f16
  } -> tensor<?x392xf16>
  return %r : tensor<?x392xf16>
}

// The same layer on [batch, seq, 264] with dynamic batch and sequence (a
// transformer's activations): the two M loops collapse into one dynamic
// M = batch * seq (tessel-collapse-contraction-dims), so it takes the same
// variants.
#x3 = affine_map<(b, s, n, k) -> (b, s, k)>
#w3 = affine_map<(b, s, n, k) -> (n, k)>
#o3 = affine_map<(b, s, n, k) -> (b, s, n)>
#id3 = affine_map<(b, s, n) -> (b, s, n)>
#col3 = affine_map<(b, s, n) -> (n)>
func.func @linear3d_relu_f16(%x: tensor<?x?x264xf16>, %w: tensor<392x264xf16>, %bias: tensor<392xf32>) -> tensor<?x?x392xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x?x264xf16>
  %s = tensor.dim %x, %c1 : tensor<?x?x264xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%b, %s) : tensor<?x?x392xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x392xf32>) -> tensor<?x?x392xf32>
  %mm = linalg.generic {indexing_maps = [#x3, #w3, #o3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<?x?x264xf16>, tensor<392x264xf16>) outs(%z : tensor<?x?x392xf32>) {
  ^bb0(%a: f16, %bw: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %bw : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  } -> tensor<?x?x392xf32>
  %o = tensor.empty(%b, %s) : tensor<?x?x392xf16>
  %r = linalg.generic {indexing_maps = [#id3, #col3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x?x392xf32>, tensor<392xf32>) outs(%o : tensor<?x?x392xf16>) {
  ^bb0(%v: f32, %bv: f32, %out: f16):
    %y = arith.addf %v, %bv : f32
    %r0 = arith.maximumf %y, %zero : f32
    %h = arith.truncf %r0 : f32 to f16
    linalg.yield %h : f16
  } -> tensor<?x?x392xf16>
  return %r : tensor<?x?x392xf16>
}
