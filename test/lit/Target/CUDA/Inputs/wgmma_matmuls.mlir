// Contractions for wgmma.test (sm_90a): f16 NN (128x256 tiles), bf16
// x @ W^T with a bias epilogue cast to f16 (odd M and N: 128x128 tiles),
// s8 NT, an f16 batch matmul, and two that stay on mma.sync: B rows of
// 1554 bytes (TMA needs 16-byte strides) and a constant B.
func.func @f16(%a: tensor<4096x1024xf16>, %b: tensor<1024x4096xf16>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x1024xf16>, tensor<1024x4096xf16>) outs(%z : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
func.func @bf16_linear(%x: tensor<100x64xbf16>, %w: tensor<48x64xbf16>, %bias: tensor<48xf32>) -> tensor<100x48xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<100x48xf32>) -> tensor<100x48xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<100x64xbf16>, tensor<48x64xbf16>) outs(%z : tensor<100x48xf32>) -> tensor<100x48xf32>
  %o = tensor.empty() : tensor<100x48xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<100x48xf32>, tensor<48xf32>) outs(%o : tensor<100x48xf16>) {
  ^bb0(%v: f32, %bv: f32, %out: f16):
    %s = arith.addf %v, %bv : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } -> tensor<100x48xf16>
  return %r : tensor<100x48xf16>
}
func.func @s8(%a: tensor<300x256xi8>, %b: tensor<200x256xi8>) -> tensor<300x200xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<300x200xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<300x200xi32>) -> tensor<300x200xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<300x256xi8>, tensor<200x256xi8>) outs(%z : tensor<300x200xi32>) -> tensor<300x200xi32>
  return %r : tensor<300x200xi32>
}
func.func @batch(%a: tensor<6x200x64xf16>, %b: tensor<6x64x136xf16>) -> tensor<6x200x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x200x136xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<6x200x136xf32>) -> tensor<6x200x136xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<6x200x64xf16>, tensor<6x64x136xf16>) outs(%z : tensor<6x200x136xf32>) -> tensor<6x200x136xf32>
  return %r : tensor<6x200x136xf32>
}
func.func @unaligned(%a: tensor<64x520xf16>, %b: tensor<520x777xf16>) -> tensor<64x777xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x777xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x777xf32>) -> tensor<64x777xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x520xf16>, tensor<520x777xf16>) outs(%z : tensor<64x777xf32>) -> tensor<64x777xf32>
  return %r : tensor<64x777xf32>
}
func.func @const_b(%a: tensor<64x32xf16>) -> tensor<64x16xf32> {
  %b = arith.constant dense<1.5> : tensor<32x16xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x16xf16>) outs(%z : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
