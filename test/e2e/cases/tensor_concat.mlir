// tensor.concat along a non-leading dim (dim 1 of three 3-D f32 tensors of
// different widths) and along the last dim of 2-D i16 tensors, followed by
// compute on the result.
func.func @concat(%a: tensor<5x7x3xf32>, %b: tensor<5x2x3xf32>, %c: tensor<5x11x3xf32>,
                  %i: tensor<9x4xi16>, %j: tensor<9x13xi16>)
    -> (tensor<5x20x3xf32>, tensor<9x17xi16>) {
  %cat = tensor.concat dim(1) %a, %b, %c : (tensor<5x7x3xf32>, tensor<5x2x3xf32>, tensor<5x11x3xf32>) -> tensor<5x20x3xf32>
  %two = arith.constant dense<2.0> : tensor<5x20x3xf32>
  %r = arith.mulf %cat, %two : tensor<5x20x3xf32>
  %icat = tensor.concat dim(1) %i, %j : (tensor<9x4xi16>, tensor<9x13xi16>) -> tensor<9x17xi16>
  %k = arith.constant dense<3> : tensor<9x17xi16>
  %ir = arith.addi %icat, %k : tensor<9x17xi16>
  return %r, %ir : tensor<5x20x3xf32>, tensor<9x17xi16>
}
