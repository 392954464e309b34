// f16: elementwise math in f16, f32 <-> f16 conversions, an f16 matmul
// (accumulating in f16 as linalg.matmul semantics say) and a mixed
// precision reduction (f16 inputs, f32 accumulator).
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @f16ops(%a: tensor<33x47xf16>, %b: tensor<33x47xf16>, %w: tensor<33x47xf32>,
                  %m1: tensor<31x29xf16>, %m2: tensor<29x23xf16>)
    -> (tensor<33x47xf16>, tensor<33x47xf16>, tensor<33x47xf32>, tensor<31x23xf16>, tensor<33xf32>) {
  %e = tensor.empty() : tensor<33x47xf16>
  // a * b + exp(a), in f16
  %ew = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<33x47xf16>, tensor<33x47xf16>) outs(%e : tensor<33x47xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %p = arith.mulf %x, %y : f16
    %ex = math.exp %x : f16
    %s = arith.addf %p, %ex : f16
    linalg.yield %s : f16
  } -> tensor<33x47xf16>
  %tr = arith.truncf %w : tensor<33x47xf32> to tensor<33x47xf16>
  %ext = arith.extf %a : tensor<33x47xf16> to tensor<33x47xf32>
  %zero = arith.constant 0.0 : f16
  %em = tensor.empty() : tensor<31x23xf16>
  %zm = linalg.fill ins(%zero : f16) outs(%em : tensor<31x23xf16>) -> tensor<31x23xf16>
  %mm = linalg.matmul ins(%m1, %m2 : tensor<31x29xf16>, tensor<29x23xf16>) outs(%zm : tensor<31x23xf16>) -> tensor<31x23xf16>
  %zf = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<33xf32>
  %zr = linalg.fill ins(%zf : f32) outs(%er : tensor<33xf32>) -> tensor<33xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%b : tensor<33x47xf16>) outs(%zr : tensor<33xf32>) {
  ^bb0(%x: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %s = arith.addf %xf, %acc : f32
    linalg.yield %s : f32
  } -> tensor<33xf32>
  return %ew, %tr, %ext, %mm, %sum : tensor<33x47xf16>, tensor<33x47xf16>, tensor<33x47xf32>, tensor<31x23xf16>, tensor<33xf32>
}
