// Split-K (tessel-split-contraction-k): contractions with few 128x128
// output tiles and a long K loop run as S partial contractions over K
// chunks plus an elementwise sum that carries the epilogue. The .py asks
// for it explicitly (COMPILER_ARGS) so that the cpu target runs the split
// form too; cuda modules get it by default. Layouts NN, NT, TN; a
// non-zero init (C + A B); bias + relu and a cast to f16 fused into the
// sum; f16 operands (tensor cores on cuda; the partials' batch loop sits
// inside A's layout); i8 -> i32; an f16 result (f16 accumulation); and a
// prime K (1031, not split).
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
func.func @nn_bias_relu(%a: tensor<100x3000xf32>, %b: tensor<3000x90xf32>, %bias: tensor<90xf32>) -> tensor<100x90xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x90xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<100x90xf32>) -> tensor<100x90xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<100x3000xf32>, tensor<3000x90xf32>) outs(%z : tensor<100x90xf32>) -> tensor<100x90xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<100x90xf32>, tensor<90xf32>) outs(%e : tensor<100x90xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<100x90xf32>
  return %r : tensor<100x90xf32>
}
func.func @nt_accumulate(%a: tensor<130x2048xf32>, %b: tensor<70x2048xf32>, %c: tensor<130x70xf32>) -> tensor<130x70xf32> {
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : tensor<130x2048xf32>, tensor<70x2048xf32>) outs(%c : tensor<130x70xf32>) -> tensor<130x70xf32>
  return %r : tensor<130x70xf32>
}
func.func @tn(%a: tensor<1200x77xf32>, %b: tensor<1200x50xf32>) -> tensor<77x50xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<77x50xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<77x50xf32>) -> tensor<77x50xf32>
  %r = linalg.matmul indexing_maps = [#km, #kn, #mn] ins(%a, %b : tensor<1200x77xf32>, tensor<1200x50xf32>) outs(%z : tensor<77x50xf32>) -> tensor<77x50xf32>
  return %r : tensor<77x50xf32>
}
func.func @f16_cast(%a: tensor<64x1536xf16>, %b: tensor<1536x200xf16>) -> tensor<64x200xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x200xf32>) -> tensor<64x200xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x1536xf16>, tensor<1536x200xf16>) outs(%z : tensor<64x200xf32>) -> tensor<64x200xf32>
  %h = tensor.empty() : tensor<64x200xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<64x200xf32>) outs(%h : tensor<64x200xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x200xf16>
  return %r : tensor<64x200xf16>
}
func.func @i8_nt(%a: tensor<33x4096xi8>, %b: tensor<47x4096xi8>) -> tensor<33x47xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<33x47xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<33x47xi32>) -> tensor<33x47xi32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : tensor<33x4096xi8>, tensor<47x4096xi8>) outs(%z : tensor<33x47xi32>) -> tensor<33x47xi32>
  return %r : tensor<33x47xi32>
}
func.func @f16_accumulate(%a: tensor<96x1024xf16>, %b: tensor<1024x80xf16>) -> tensor<96x80xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<96x80xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<96x80xf16>) -> tensor<96x80xf16>
  %r = linalg.matmul ins(%a, %b : tensor<96x1024xf16>, tensor<1024x80xf16>) outs(%z : tensor<96x80xf16>) -> tensor<96x80xf16>
  return %r : tensor<96x80xf16>
}
func.func @prime_k(%a: tensor<40x1031xf32>, %b: tensor<1031x24xf32>) -> tensor<40x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<40x24xf32>) -> tensor<40x24xf32>
  %r = linalg.matmul ins(%a, %b : tensor<40x1031xf32>, tensor<1031x24xf32>) outs(%z : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}
