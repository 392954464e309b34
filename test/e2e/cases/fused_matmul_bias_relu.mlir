// Classic fusion candidate: relu(A * B + bias) with A: 97x129, B: 129x75,
// bias: 75 (broadcast along rows). The bias-add and relu are separate
// generics consuming the matmul result.
#id = affine_map<(i, j) -> (i, j)>
#bias = affine_map<(i, j) -> (j)>
func.func @mlp(%a: tensor<97x129xf32>, %b: tensor<129x75xf32>, %bias: tensor<75xf32>) -> tensor<97x75xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<97x75xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<97x75xf32>) -> tensor<97x75xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<97x129xf32>, tensor<129x75xf32>) outs(%z : tensor<97x75xf32>) -> tensor<97x75xf32>
  %biased = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<97x75xf32>, tensor<75xf32>) outs(%e : tensor<97x75xf32>) {
  ^bb0(%m: f32, %bv: f32, %out: f32):
    %s = arith.addf %m, %bv : f32
    linalg.yield %s : f32
  } -> tensor<97x75xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<97x75xf32>) outs(%e : tensor<97x75xf32>) {
  ^bb0(%v: f32, %out: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<97x75xf32>
  return %relu : tensor<97x75xf32>
}
