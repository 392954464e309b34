// linalg.softmax over the last dim of a 1000x1001 tensor (~1M elements:
// large enough to exercise tiling/parallel workgroups with ragged edges),
// plus a small softmax over the leading dim of a 3-D tensor.
func.func @softmax(%x: tensor<1000x1001xf32>, %y: tensor<7x5x3xf32>) -> (tensor<1000x1001xf32>, tensor<7x5x3xf32>) {
  %e = tensor.empty() : tensor<1000x1001xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<1000x1001xf32>) outs(%e : tensor<1000x1001xf32>) -> tensor<1000x1001xf32>
  %e1 = tensor.empty() : tensor<7x5x3xf32>
  %r1 = linalg.softmax dimension(0) ins(%y : tensor<7x5x3xf32>) outs(%e1 : tensor<7x5x3xf32>) -> tensor<7x5x3xf32>
  return %r, %r1 : tensor<1000x1001xf32>, tensor<7x5x3xf32>
}
