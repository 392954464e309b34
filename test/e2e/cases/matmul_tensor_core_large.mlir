// Tensor-core matmuls big enough for 128x128 blocks (>= 128 of them): the
// 4-stage ring in dynamic shared memory, the grouped raster order with a
// partial last group (17 rows of blocks, groups of 8), partial edge blocks
// along M, N and K: f16 (NN) with a cast-to-f16 epilogue; and 128x64 /
// 64x128 blocks for a side of at most 64 (N = 40, M = 50). (i8 and tf32 on
// 128x128 blocks are checked against cuBLAS by the benchmark suite; the
// suite's results are kept small: it is carried to the GPU machine.)
func.func @f16_nn(%a: tensor<2100x200xf16>, %b: tensor<200x1100xf16>) -> tensor<2100x1100xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2100x1100xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2100x1100xf32>) -> tensor<2100x1100xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2100x200xf16>, tensor<200x1100xf16>) outs(%z : tensor<2100x1100xf32>) -> tensor<2100x1100xf32>
  %o = tensor.empty() : tensor<2100x1100xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<2100x1100xf32>) outs(%o : tensor<2100x1100xf16>) {
  ^bb0(%v: f32, %out: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2100x1100xf16>
  return %h : tensor<2100x1100xf16>
}
func.func @f16_narrow_n(%a: tensor<16500x64xf16>, %b: tensor<64x40xf16>) -> tensor<16500x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16500x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16500x40xf32>) -> tensor<16500x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16500x64xf16>, tensor<64x40xf16>) outs(%z : tensor<16500x40xf32>) -> tensor<16500x40xf32>
  return %r : tensor<16500x40xf32>
}
func.func @f16_narrow_m(%a: tensor<50x64xf16>, %b: tensor<64x16500xf16>) -> tensor<50x16500xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x16500xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<50x16500xf32>) -> tensor<50x16500xf32>
  %r = linalg.matmul ins(%a, %b : tensor<50x64xf16>, tensor<64x16500xf16>) outs(%z : tensor<50x16500xf32>) -> tensor<50x16500xf32>
  return %r : tensor<50x16500xf32>
}
