// Degenerate functions: returning an argument unchanged, returning the
// same argument twice next to a computed value, zero-argument functions
// returning non-splat / splat / i1 constants.
func.func @identity(%a: tensor<17x3xf32>) -> tensor<17x3xf32> {
  return %a : tensor<17x3xf32>
}

func.func @arg_twice(%a: tensor<5xi32>, %b: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi32>) {
  %s = arith.addi %a, %b : tensor<5xi32>
  return %b, %s, %b : tensor<5xi32>, tensor<5xi32>, tensor<5xi32>
}

func.func @constants() -> (tensor<2x3xf32>, tensor<3x5xi64>, tensor<4xi1>, tensor<i8>) {
  %c = arith.constant dense<[[1.5, -2.0, 3.25], [0.0, 1.0e-3, -7.0e5]]> : tensor<2x3xf32>
  %s = arith.constant dense<42> : tensor<3x5xi64>
  %b = arith.constant dense<[true, false, false, true]> : tensor<4xi1>
  %i = arith.constant dense<-5> : tensor<i8>
  return %c, %s, %b, %i : tensor<2x3xf32>, tensor<3x5xi64>, tensor<4xi1>, tensor<i8>
}
