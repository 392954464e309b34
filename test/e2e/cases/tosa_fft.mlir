// tosa.fft2d (forward and inverse, unnormalized) and tosa.rfft2d on f32
// (N x H x W with power-of-two H and W); results are the real and the
// imaginary parts.
func.func @fft2d(%re: tensor<3x8x16xf32>, %im: tensor<3x8x16xf32>)
    -> (tensor<3x8x16xf32>, tensor<3x8x16xf32>, tensor<3x8x16xf32>, tensor<3x8x16xf32>) {
  %fr, %fi = tosa.fft2d %re, %im {inverse = false} : (tensor<3x8x16xf32>, tensor<3x8x16xf32>) -> (tensor<3x8x16xf32>, tensor<3x8x16xf32>)
  %ir, %ii = tosa.fft2d %re, %im {inverse = true} : (tensor<3x8x16xf32>, tensor<3x8x16xf32>) -> (tensor<3x8x16xf32>, tensor<3x8x16xf32>)
  return %fr, %fi, %ir, %ii : tensor<3x8x16xf32>, tensor<3x8x16xf32>, tensor<3x8x16xf32>, tensor<3x8x16xf32>
}

// Real input: W / 2 + 1 = 5 output columns.
func.func @rfft2d(%x: tensor<2x16x8xf32>) -> (tensor<2x16x5xf32>, tensor<2x16x5xf32>) {
  %r, %i = tosa.rfft2d %x : (tensor<2x16x8xf32>) -> (tensor<2x16x5xf32>, tensor<2x16x5xf32>)
  return %r, %i : tensor<2x16x5xf32>, tensor<2x16x5xf32>
}
