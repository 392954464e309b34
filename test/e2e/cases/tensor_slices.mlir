// tensor.extract_slice (strided; rank-reducing) and tensor.insert_slice
// (strided, into a function argument; and into tensor.empty+fill), with
// compute on the slices.
func.func @slices(%x: tensor<37x53xf32>, %y: tensor<37x53xf32>)
    -> (tensor<11x16xf32>, tensor<53xf32>, tensor<37x53xf32>, tensor<5x61xf32>) {
  // rows 3,5,..,23; cols 5,8,..,50
  %s = tensor.extract_slice %x[3, 5] [11, 16] [2, 3] : tensor<37x53xf32> to tensor<11x16xf32>
  // row 7 as a 1-D tensor
  %row = tensor.extract_slice %x[7, 0] [1, 53] [1, 1] : tensor<37x53xf32> to tensor<53xf32>
  %two = arith.constant dense<2.0> : tensor<11x16xf32>
  %one = arith.constant dense<1.0> : tensor<11x16xf32>
  %s2 = arith.mulf %s, %two : tensor<11x16xf32>
  %s3 = arith.addf %s2, %one : tensor<11x16xf32>
  // write back into y at rows 1,4,..,31; cols 2,4,..,32
  %ins = tensor.insert_slice %s3 into %y[1, 2] [11, 16] [3, 2] : tensor<11x16xf32> into tensor<37x53xf32>
  // place the row (as 1x53) twice into a -7-filled 5x61 tensor
  %c = arith.constant -7.0 : f32
  %e = tensor.empty() : tensor<5x61xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<5x61xf32>) -> tensor<5x61xf32>
  %p0 = tensor.insert_slice %row into %f[1, 3] [1, 53] [1, 1] : tensor<53xf32> into tensor<5x61xf32>
  %p1 = tensor.insert_slice %row into %p0[4, 8] [1, 53] [1, 1] : tensor<53xf32> into tensor<5x61xf32>
  return %s, %row, %ins, %p1 : tensor<11x16xf32>, tensor<53xf32>, tensor<37x53xf32>, tensor<5x61xf32>
}
