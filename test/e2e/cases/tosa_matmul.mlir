// tosa.matmul (batched, (N,H,C) x (N,C,W) -> (N,H,W)): f32, f16 inputs with
// an f32 result, f16 -> f16, bf16 -> f32, and i8 x i8 -> i32 with zero
// points.
func.func @matmul_f32(%a: tensor<3x37x53xf32>, %b: tensor<3x53x29xf32>) -> tensor<3x37x29xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<3x37x53xf32>, tensor<3x53x29xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x37x29xf32>
  return %0 : tensor<3x37x29xf32>
}

func.func @matmul_f16(%a: tensor<2x19x33xf16>, %b: tensor<2x33x23xf16>)
    -> (tensor<2x19x23xf32>, tensor<2x19x23xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x19x33xf16>, tensor<2x33x23xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x19x23xf32>
  %1 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x19x33xf16>, tensor<2x33x23xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x19x23xf16>
  return %0, %1 : tensor<2x19x23xf32>, tensor<2x19x23xf16>
}

// (a - a_zp) x (b - b_zp) accumulated in i32; zero points 0 and nonzero.
func.func @matmul_i8(%a: tensor<2x17x45xi8>, %b: tensor<2x45x13xi8>)
    -> (tensor<2x17x13xi32>, tensor<2x17x13xi32>) {
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %azp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %bzp = "tosa.const"() <{values = dense<-5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<2x17x45xi8>, tensor<2x45x13xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x17x13xi32>
  %1 = tosa.matmul %a, %b, %azp, %bzp : (tensor<2x17x45xi8>, tensor<2x45x13xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x17x13xi32>
  return %0, %1 : tensor<2x17x13xi32>, tensor<2x17x13xi32>
}

// bf16 inputs, f32 result (f32 accumulator).
func.func @matmul_bf16(%a: tensor<2x21x67xbf16>, %b: tensor<2x67x31xbf16>) -> tensor<2x21x31xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x21x67xbf16>, tensor<2x67x31xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x21x31xf32>
  return %0 : tensor<2x21x31xf32>
}
