// Row softmax of 8192x4096 f32 (linalg.softmax over dim 1).
func.func @softmax(%x: tensor<8192x4096xf32>) -> tensor<8192x4096xf32> {
  %e = tensor.empty() : tensor<8192x4096xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<8192x4096xf32>) outs(%e : tensor<8192x4096xf32>) -> tensor<8192x4096xf32>
  return %p : tensor<8192x4096xf32>
}
