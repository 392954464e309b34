// Top-8 of each of 4096 rows of 32000 f32 (LLM sampling; torch.topk).
func.func @topk(%x: tensor<4096x32000xf32>) -> (tensor<4096x8xf32>, tensor<4096x8xi32>) {
  %v = tensor.empty() : tensor<4096x8xf32>
  %i = tensor.empty() : tensor<4096x8xi32>
  %r:2 = tessel.topk dimension(1)
      ins(%x : tensor<4096x32000xf32>) outs(%v, %i : tensor<4096x8xf32>, tensor<4096x8xi32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      tessel.yield %c : i1
  } -> tensor<4096x8xf32>, tensor<4096x8xi32>
  return %r#0, %r#1 : tensor<4096x8xf32>, tensor<4096x8xi32>
}
