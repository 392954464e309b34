// linalg.transpose (3-D permutation [2, 0, 1] and a 2-D transpose of i32)
// and linalg.broadcast (add a leading dim; add a middle dim).
func.func @tb(%x: tensor<7x11x13xf32>, %m: tensor<37x53xi32>, %v: tensor<37xf32>, %w: tensor<5x9xf16>)
    -> (tensor<13x7x11xf32>, tensor<53x37xi32>, tensor<53x37xf32>, tensor<5x3x9xf16>) {
  %e0 = tensor.empty() : tensor<13x7x11xf32>
  %t0 = linalg.transpose ins(%x : tensor<7x11x13xf32>) outs(%e0 : tensor<13x7x11xf32>) permutation = [2, 0, 1]
  %e1 = tensor.empty() : tensor<53x37xi32>
  %t1 = linalg.transpose ins(%m : tensor<37x53xi32>) outs(%e1 : tensor<53x37xi32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<53x37xf32>
  %b0 = linalg.broadcast ins(%v : tensor<37xf32>) outs(%e2 : tensor<53x37xf32>) dimensions = [0]
  %e3 = tensor.empty() : tensor<5x3x9xf16>
  %b1 = linalg.broadcast ins(%w : tensor<5x9xf16>) outs(%e3 : tensor<5x3x9xf16>) dimensions = [1]
  return %t0, %t1, %b0, %b1 : tensor<13x7x11xf32>, tensor<53x37xi32>, tensor<53x37xf32>, tensor<5x3x9xf16>
}
