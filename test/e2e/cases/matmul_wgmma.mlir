// Contractions whose operand rows are 16-byte aligned, so that an sm_90a
// module (--cuda-arch=sm_80,sm_90a) runs them with wgmma + TMA on an
// H100/H200 (and mma.sync elsewhere, or with TESSEL_CUDA_ARCH=sm_80):
// 128x128, 128x192 and 128x256 tiles, more tiles than the persistent grid
// (blocks take several tiles, the mbarrier phases wrap across tiles), M, N and K that are not multiples of
// any tile (TMA zero fill, masked stores), K smaller than one stage, every
// f16 layout (mn-contiguous operands use wgmma's transposed layout), a
// batch matmul with a bias + relu epilogue and C initialised from an
// argument, bf16 with a bf16 result, and s8/u8.
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @nn_persistent(%a: tensor<1000x264xf16>, %b: tensor<264x4104xf16>) -> tensor<1000x4104xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x4104xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x4104xf32>) -> tensor<1000x4104xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1000x264xf16>, tensor<264x4104xf16>) outs(%z : tensor<1000x4104xf32>) -> tensor<1000x4104xf32>
  return %r : tensor<1000x4104xf32>
}
func.func @nt_wide(%a: tensor<2050x136xf16>, %b: tensor<2600x136xf16>) -> tensor<2050x2600xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2050x2600xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2050x2600xf32>) -> tensor<2050x2600xf32>
  %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : tensor<2050x136xf16>, tensor<2600x136xf16>) outs(%z : tensor<2050x2600xf32>) -> tensor<2050x2600xf32>
  %o = tensor.empty() : tensor<2050x2600xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<2050x2600xf32>) outs(%o : tensor<2050x2600xf16>) {
  ^bb0(%v: f32, %out: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2050x2600xf16>
  return %r : tensor<2050x2600xf16>
}
func.func @nn_wide_256(%a: tensor<500x64xf16>, %b: tensor<64x6400xf16>) -> tensor<500x6400xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<500x6400xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<500x6400xf32>) -> tensor<500x6400xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<500x64xf16>, tensor<64x6400xf16>) outs(%z : tensor<500x6400xf32>) -> tensor<500x6400xf32>
  %o = tensor.empty() : tensor<500x6400xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<500x6400xf32>) outs(%o : tensor<500x6400xf16>) {
  ^bb0(%v: f32, %out: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<500x6400xf16>
  return %r : tensor<500x6400xf16>
}
func.func @tn(%a: tensor<136x200xf16>, %b: tensor<136x72xf16>) -> tensor<200x72xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x72xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<200x72xf32>) -> tensor<200x72xf32>
  %r = linalg.matmul indexing_maps = [#km, #kn, #mn] ins(%a, %b : tensor<136x200xf16>, tensor<136x72xf16>) outs(%z : tensor<200x72xf32>) -> tensor<200x72xf32>
  return %r : tensor<200x72xf32>
}
func.func @tt_small_k(%a: tensor<8x264xf16>, %b: tensor<152x8xf16>) -> tensor<264x152xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<264x152xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<264x152xf32>) -> tensor<264x152xf32>
  %r = linalg.matmul indexing_maps = [#km, #nk, #mn] ins(%a, %b : tensor<8x264xf16>, tensor<152x8xf16>) outs(%z : tensor<264x152xf32>) -> tensor<264x152xf32>
  return %r : tensor<264x152xf32>
}
func.func @batch_bias_relu(%a: tensor<5x130x96xf16>, %b: tensor<5x96x200xf16>, %c: tensor<5x130x200xf32>, %bias: tensor<200xf32>) -> tensor<5x130x200xf32> {
  %mm = linalg.batch_matmul ins(%a, %b : tensor<5x130x96xf16>, tensor<5x96x200xf16>) outs(%c : tensor<5x130x200xf32>) -> tensor<5x130x200xf32>
  %e = tensor.empty() : tensor<5x130x200xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<5x130x200xf32>, tensor<200xf32>) outs(%e : tensor<5x130x200xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    %c0 = arith.constant 0.0 : f32
    %m = arith.maximumf %s, %c0 : f32
    linalg.yield %m : f32
  } -> tensor<5x130x200xf32>
  return %r : tensor<5x130x200xf32>
}
func.func @bf16_result(%a: tensor<300x520xbf16>, %b: tensor<520x264xbf16>) -> tensor<300x264xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300x264xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<300x264xf32>) -> tensor<300x264xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<300x520xbf16>, tensor<520x264xbf16>) outs(%z : tensor<300x264xf32>) -> tensor<300x264xf32>
  %o = tensor.empty() : tensor<300x264xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<300x264xf32>) outs(%o : tensor<300x264xbf16>) {
  ^bb0(%v: f32, %out: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<300x264xbf16>
  return %r : tensor<300x264xbf16>
}
func.func @s8_nt(%a: tensor<260x400xi8>, %b: tensor<136x400xi8>, %c: tensor<260x136xi32>) -> tensor<260x136xi32> {
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : tensor<260x400xi8>, tensor<136x400xi8>) outs(%c : tensor<260x136xi32>) -> tensor<260x136xi32>
  return %r : tensor<260x136xi32>
}
func.func @u8_nt(%a: tensor<65x80xi8>, %b: tensor<31x80xi8>) -> tensor<65x31xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<65x31xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<65x31xi32>) -> tensor<65x31xi32>
  %r = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<65x80xi8>, tensor<31x80xi8>) outs(%z : tensor<65x31xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xi = arith.extui %x : i8 to i32
    %yi = arith.extui %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<65x31xi32>
  return %r : tensor<65x31xi32>
}
