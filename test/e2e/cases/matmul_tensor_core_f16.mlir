// f16 contractions that take the tensor-core (mma.sync) strategy on cuda:
// every operand layout (NN, NT, TN, TT), shapes that are not multiples of
// any tile (edges zero-filled), rows that are not 16-byte aligned (copied
// through registers), M, N or K of 1 and 7, f16 accumulation (f16 result),
// and a linalg.generic batch matmul with arith.extf in its body and the
// batch loop in the middle of A.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @nn_unaligned(%a: tensor<1023x517xf16>, %b: tensor<517x1001xf16>) -> tensor<1023x1001xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1023x1001xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1023x1001xf32>) -> tensor<1023x1001xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1023x517xf16>, tensor<517x1001xf16>) outs(%z : tensor<1023x1001xf32>) -> tensor<1023x1001xf32>
  return %r : tensor<1023x1001xf32>
}
func.func @nn_edges(%a: tensor<200x136xf16>, %b: tensor<136x264xf16>, %c: tensor<200x264xf32>) -> tensor<200x264xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<200x136xf16>, tensor<136x264xf16>) outs(%c : tensor<200x264xf32>) -> tensor<200x264xf32>
  return %r : tensor<200x264xf32>
}
func.func @nt(%a: tensor<77x264xf16>, %b: tensor<40x264xf16>) -> tensor<77x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<77x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<77x40xf32>) -> tensor<77x40xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : tensor<77x264xf16>, tensor<40x264xf16>) outs(%z : tensor<77x40xf32>) -> tensor<77x40xf32>
  return %r : tensor<77x40xf32>
}
func.func @tn(%a: tensor<72x136xf16>, %b: tensor<72x48xf16>) -> tensor<136x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<136x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<136x48xf32>) -> tensor<136x48xf32>
  %r = linalg.matmul indexing_maps = [#km, #kn, #mn] ins(%a, %b : tensor<72x136xf16>, tensor<72x48xf16>) outs(%z : tensor<136x48xf32>) -> tensor<136x48xf32>
  return %r : tensor<136x48xf32>
}
func.func @tt(%a: tensor<7x57xf16>, %b: tensor<31x7xf16>) -> tensor<57x31xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<57x31xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<57x31xf32>) -> tensor<57x31xf32>
  %r = linalg.matmul indexing_maps = [#km, #nk, #mn] ins(%a, %b : tensor<7x57xf16>, tensor<31x7xf16>) outs(%z : tensor<57x31xf32>) -> tensor<57x31xf32>
  return %r : tensor<57x31xf32>
}
func.func @m1_k1(%a: tensor<1x64xf16>, %b: tensor<64x7xf16>, %c: tensor<33x1xf16>, %d: tensor<1x17xf16>) -> (tensor<1x7xf32>, tensor<33x17xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x7xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x7xf32>) -> tensor<1x7xf32>
  %r1 = linalg.matmul ins(%a, %b : tensor<1x64xf16>, tensor<64x7xf16>) outs(%z1 : tensor<1x7xf32>) -> tensor<1x7xf32>
  %e2 = tensor.empty() : tensor<33x17xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<33x17xf32>) -> tensor<33x17xf32>
  %r2 = linalg.matmul ins(%c, %d : tensor<33x1xf16>, tensor<1x17xf16>) outs(%z2 : tensor<33x17xf32>) -> tensor<33x17xf32>
  return %r1, %r2 : tensor<1x7xf32>, tensor<33x17xf32>
}
func.func @f16_accumulate(%a: tensor<130x24xf16>, %b: tensor<24x96xf16>) -> tensor<130x96xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<130x96xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<130x96xf16>) -> tensor<130x96xf16>
  %r = linalg.matmul ins(%a, %b : tensor<130x24xf16>, tensor<24x96xf16>) outs(%z : tensor<130x96xf16>) -> tensor<130x96xf16>
  return %r : tensor<130x96xf16>
}
func.func @batch_middle(%a: tensor<45x3x40xf16>, %b: tensor<3x40x56xf16>) -> tensor<3x45x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x45x56xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x45x56xf32>) -> tensor<3x45x56xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(b, m, n, k) -> (m, b, k)>,
                       affine_map<(b, m, n, k) -> (b, k, n)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<45x3x40xf16>, tensor<3x40x56xf16>) outs(%z : tensor<3x45x56xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x45x56xf32>
  return %r : tensor<3x45x56xf32>
}
