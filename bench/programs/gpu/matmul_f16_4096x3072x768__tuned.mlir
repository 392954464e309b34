// tessel-compile-flags: --tuning-db=bench/programs/gpu/tuning/h200.json
// Tensor-core benchmark: C = A @ B, 4096x3072x768 f16 -> f32, with the tuning database of tessel-tune on an H200 (2026-11-28).
func.func @matmul(%a: tensor<4096x768xf16>, %b: tensor<768x3072xf16>) -> tensor<4096x3072xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x3072xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x768xf16>, tensor<768x3072xf16>) outs(%z : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  return %r : tensor<4096x3072xf32>
}
