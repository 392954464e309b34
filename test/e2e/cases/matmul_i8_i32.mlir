// Quantized-style integer matmul: i8 x i8 operands, i32 accumulator
// (linalg.matmul sign-extends the operands to the output type), plus an
// i32 x i32 matmul and an i64 linalg.dot.
func.func @qmm(%a: tensor<33x71xi8>, %b: tensor<71x19xi8>) -> tensor<33x19xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<33x19xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<33x19xi32>) -> tensor<33x19xi32>
  %r = linalg.matmul ins(%a, %b : tensor<33x71xi8>, tensor<71x19xi8>)
                     outs(%z : tensor<33x19xi32>) -> tensor<33x19xi32>
  return %r : tensor<33x19xi32>
}

func.func @imm(%a: tensor<21x17xi32>, %b: tensor<17x13xi32>, %c: tensor<21x13xi32>,
               %u: tensor<999xi64>, %v: tensor<999xi64>) -> (tensor<21x13xi32>, tensor<i64>) {
  %r = linalg.matmul ins(%a, %b : tensor<21x17xi32>, tensor<17x13xi32>)
                     outs(%c : tensor<21x13xi32>) -> tensor<21x13xi32>
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<i64>
  %z = linalg.fill ins(%zero : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %d = linalg.dot ins(%u, %v : tensor<999xi64>, tensor<999xi64>) outs(%z : tensor<i64>) -> tensor<i64>
  return %r, %d : tensor<21x13xi32>, tensor<i64>
}
