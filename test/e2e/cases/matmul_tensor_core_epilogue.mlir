// Tensor-core matmuls with fused epilogues (one dispatch on cuda-only
// modules): a linear layer x @ W^T in f16 with an f32 bias, gelu (tanh
// form), and the cast back to f16; bf16 with bias, relu, a residual add
// and a scale; a bf16 matmul whose bf16 result is rounded once.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>
func.func @linear_gelu_f16(%x: tensor<133x200xf16>, %w: tensor<72x200xf16>, %bias: tensor<72xf32>) -> tensor<133x72xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<133x72xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<133x72xf32>) -> tensor<133x72xf32>
  %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<133x200xf16>, tensor<72x200xf16>) outs(%z : tensor<133x72xf32>) -> tensor<133x72xf32>
  %o = tensor.empty() : tensor<133x72xf16>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<133x72xf32>, tensor<72xf32>) outs(%o : tensor<133x72xf16>) {
  ^bb0(%v: f32, %bv: f32, %out: f16):
    %y = arith.addf %v, %bv : f32
    // gelu(y) = 0.5 y (1 + tanh(sqrt(2/pi) (y + 0.044715 y^3)))
    %c0 = arith.constant 0.7978845608 : f32
    %c1 = arith.constant 0.044715 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %y3 = arith.mulf %y, %y : f32
    %y3b = arith.mulf %y3, %y : f32
    %t0 = arith.mulf %y3b, %c1 : f32
    %t1 = arith.addf %y, %t0 : f32
    %t2 = arith.mulf %t1, %c0 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %y, %half : f32
    %g = arith.mulf %t5, %t4 : f32
    %h = arith.truncf %g : f32 to f16
    linalg.yield %h : f16
  } -> tensor<133x72xf16>
  return %r : tensor<133x72xf16>
}
func.func @bias_relu_residual_bf16(%a: tensor<96x160xbf16>, %b: tensor<160x136xbf16>, %bias: tensor<136xbf16>, %res: tensor<96x136xf32>) -> tensor<96x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x136xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<96x136xf32>) -> tensor<96x136xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<96x160xbf16>, tensor<160x136xbf16>) outs(%z : tensor<96x136xf32>) -> tensor<96x136xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias, %res : tensor<96x136xf32>, tensor<136xbf16>, tensor<96x136xf32>) outs(%e : tensor<96x136xf32>) {
  ^bb0(%v: f32, %bv: bf16, %rv: f32, %out: f32):
    %bf = arith.extf %bv : bf16 to f32
    %y = arith.addf %v, %bf : f32
    %c0 = arith.constant 0.0 : f32
    %relu = arith.maximumf %y, %c0 : f32
    %s = arith.constant 0.125 : f32
    %sc = arith.mulf %relu, %s : f32
    %o = arith.addf %sc, %rv : f32
    linalg.yield %o : f32
  } -> tensor<96x136xf32>
  return %r : tensor<96x136xf32>
}
func.func @bf16_result(%a: tensor<65x40xbf16>, %b: tensor<40x33xbf16>) -> tensor<65x33xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<65x33xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<65x33xbf16>) -> tensor<65x33xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<65x40xbf16>, tensor<40x33xbf16>) outs(%z : tensor<65x33xbf16>) -> tensor<65x33xbf16>
  return %r : tensor<65x33xbf16>
}
