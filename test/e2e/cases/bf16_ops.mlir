// bf16 (passed as raw uint16 bits by the harness): arith directly on bf16
// tensors, a generic computing in f32 (extf/truncf), f32 -> bf16 truncf
// (round-to-nearest-even), bf16 -> f32 extf, and a mixed-precision matmul
// with bf16 operands and an f32 accumulator (linalg.matmul extends the
// operands to f32).
#id = affine_map<(i, j) -> (i, j)>
func.func @bf16ops(%a: tensor<37x43xbf16>, %b: tensor<37x43xbf16>, %w: tensor<37x43xf32>,
                   %m1: tensor<19x67xbf16>, %m2: tensor<67x21xbf16>)
    -> (tensor<37x43xbf16>, tensor<37x43xbf16>, tensor<37x43xbf16>, tensor<37x43xf32>, tensor<19x21xf32>) {
  %sum = arith.addf %a, %b : tensor<37x43xbf16>
  %e = tensor.empty() : tensor<37x43xbf16>
  // tanh(a) * b + 1 computed in f32, stored as bf16
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<37x43xbf16>, tensor<37x43xbf16>) outs(%e : tensor<37x43xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %t = math.tanh %xf : f32
    %p = arith.mulf %t, %yf : f32
    %one = arith.constant 1.0 : f32
    %s = arith.addf %p, %one : f32
    %r = arith.truncf %s : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<37x43xbf16>
  %tr = arith.truncf %w : tensor<37x43xf32> to tensor<37x43xbf16>
  %ext = arith.extf %a : tensor<37x43xbf16> to tensor<37x43xf32>
  %zero = arith.constant 0.0 : f32
  %em = tensor.empty() : tensor<19x21xf32>
  %zm = linalg.fill ins(%zero : f32) outs(%em : tensor<19x21xf32>) -> tensor<19x21xf32>
  %mm = linalg.matmul ins(%m1, %m2 : tensor<19x67xbf16>, tensor<67x21xbf16>) outs(%zm : tensor<19x21xf32>) -> tensor<19x21xf32>
  return %sum, %g, %tr, %ext, %mm : tensor<37x43xbf16>, tensor<37x43xbf16>, tensor<37x43xbf16>, tensor<37x43xf32>, tensor<19x21xf32>
}
