// tessel-compile-flags: --tuning-db=bench/programs/gpu/tuning/h200.json
// Tensor-core benchmark: C = A @ B, 3000x5000x2000 f16 -> f32 (sizes that are not multiples of a tile; the cost model's strategy), with the tuning database of tessel-tune on an H200 (2026-11-28).
func.func @matmul(%a: tensor<3000x2000xf16>, %b: tensor<2000x5000xf16>) -> tensor<3000x5000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3000x5000xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3000x5000xf32>) -> tensor<3000x5000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3000x2000xf16>, tensor<2000x5000xf16>) outs(%z : tensor<3000x5000xf32>) -> tensor<3000x5000xf32>
  return %r : tensor<3000x5000xf32>
}
