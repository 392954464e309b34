// tosa.cast through fp8 (f8E4M3FN, f8E5M2) inside a program. Pending:
// Tessel cannot lower arith.truncf / arith.extf on fp8 (CPU: "failed to
// legalize operation 'arith.truncf'"; CUDA: unrealized_conversion_cast left
// for LLVM translation). docs/tosa-issues.md.
// f32 -> fp8 -> f32 (values within range: round to nearest even, subnormals
// included).
func.func @fp8_roundtrip(%x: tensor<37x53xf32>) -> (tensor<37x53xf32>, tensor<37x53xf32>) {
  %a = tosa.cast %x : (tensor<37x53xf32>) -> tensor<37x53xf8E4M3FN>
  %b = tosa.cast %a : (tensor<37x53xf8E4M3FN>) -> tensor<37x53xf32>
  %c = tosa.cast %x : (tensor<37x53xf32>) -> tensor<37x53xf8E5M2>
  %d = tosa.cast %c : (tensor<37x53xf8E5M2>) -> tensor<37x53xf32>
  return %b, %d : tensor<37x53xf32>, tensor<37x53xf32>
}
