// Matmuls compiled with strategies a user forced (matmul_forced_strategies.json,
// --tessel-strategy-file): parameters the cost model would not choose
// for these shapes, on odd M, N and K. On an H100/H200 the sm_90a
// executable runs the wgmma entries (128x192, 128x256 and 128x128 tiles,
// 2 to 5 stages, persistent grids of 7 to 132 blocks) and mma.sync with
// 8 stages of 64x64; with TESSEL_CUDA_ARCH=sm_80 the sm_80 entries
// (mma.sync 64x128, 128x64, 128x128 blocks, 2 to 6 stages). The f32
// matmul takes 128x128 SIMT blocks. mm_e forces a persistent grid of 264
// blocks over its 16 x 17 tiles (2000 x 2104): the runtime launches one block per SM of
// the GPU (132 on an H200), the tiles striding by the launched grid.
// nt_g (f16 result, K = 192: 3 slices, 3 stages, 7 blocks of 34 tiles
// each) lost the last wgmmas of the first 8 columns of tiles until
// 2026-11-28 (ptxas moved accumulator reads above the final wait). The
// cpu ignores the file.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @mm_a(%a: tensor<333x200xf16>, %b: tensor<200x520xf16>) -> tensor<333x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x520xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<333x520xf32>) -> tensor<333x520xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x200xf16>, tensor<200x520xf16>) outs(%z : tensor<333x520xf32>) -> tensor<333x520xf32>
  return %r : tensor<333x520xf32>
}
func.func @mm_b(%a: tensor<333x200xf16>, %b: tensor<200x520xf16>) -> tensor<333x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x520xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<333x520xf32>) -> tensor<333x520xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x200xf16>, tensor<200x520xf16>) outs(%z : tensor<333x520xf32>) -> tensor<333x520xf32>
  return %r : tensor<333x520xf32>
}
func.func @mm_c(%a: tensor<333x200xf16>, %b: tensor<200x520xf16>) -> tensor<333x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x520xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<333x520xf32>) -> tensor<333x520xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x200xf16>, tensor<200x520xf16>) outs(%z : tensor<333x520xf32>) -> tensor<333x520xf32>
  return %r : tensor<333x520xf32>
}
func.func @mm_e(%a: tensor<2000x72xf16>, %b: tensor<72x2104xf16>) -> tensor<2000x2104xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2000x2104xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2000x2104xf32>) -> tensor<2000x2104xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2000x72xf16>, tensor<72x2104xf16>) outs(%z : tensor<2000x2104xf32>) -> tensor<2000x2104xf32>
  return %r : tensor<2000x2104xf32>
}
func.func @nt_g(%a: tensor<2050x192xf16>, %b: tensor<2600x192xf16>) -> tensor<2050x2600xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2050x2600xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2050x2600xf32>) -> tensor<2050x2600xf32>
  %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : tensor<2050x192xf16>, tensor<2600x192xf16>) outs(%z : tensor<2050x2600xf32>) -> tensor<2050x2600xf32>
  %o = tensor.empty() : tensor<2050x2600xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<2050x2600xf32>) outs(%o : tensor<2050x2600xf16>) {
  ^bb0(%v: f32, %out: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2050x2600xf16>
  return %r : tensor<2050x2600xf16>
}
func.func @linear_d(%x: tensor<301x136xbf16>, %w: tensor<259x136xbf16>) -> tensor<301x259xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<301x259xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<301x259xf32>) -> tensor<301x259xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<301x136xbf16>, tensor<259x136xbf16>) outs(%z : tensor<301x259xf32>) -> tensor<301x259xf32>
  return %r : tensor<301x259xf32>
}
func.func @mm_f32(%a: tensor<301x77xf32>, %b: tensor<77x259xf32>) -> tensor<301x259xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<301x259xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<301x259xf32>) -> tensor<301x259xf32>
  %r = linalg.matmul ins(%a, %b : tensor<301x77xf32>, tensor<77x259xf32>) outs(%z : tensor<301x259xf32>) -> tensor<301x259xf32>
  return %r : tensor<301x259xf32>
}
