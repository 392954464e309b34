// tessel-compile-flags: --tuning-db=bench/programs/gpu/tuning/h200.json
// Tensor-core benchmark: C = A @ B, 16x4096x4096 f16 -> f32 (a decode step), with the tuning database of tessel-tune on an H200 (2026-11-28).
func.func @matmul(%a: tensor<16x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<16x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x4096xf16>, tensor<4096x4096xf16>) outs(%z : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  return %r : tensor<16x4096xf32>
}
