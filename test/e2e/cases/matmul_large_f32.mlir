// Large-ish matmul, 257x263 * 263x259, accumulating into a caller-provided
// (non-zero) init tensor: checks C += A*B semantics of linalg.matmul and that
// the caller's %c buffer is not clobbered in a visible way.
func.func @matmul_acc(%a: tensor<257x263xf32>, %b: tensor<263x259xf32>, %c: tensor<257x259xf32>) -> tensor<257x259xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<257x263xf32>, tensor<263x259xf32>)
                     outs(%c : tensor<257x259xf32>) -> tensor<257x259xf32>
  return %r : tensor<257x259xf32>
}
