// index_add: 2^24 f32 updates added into 2^24 f32 at indices with 10%
// duplicates (torch.Tensor.index_add_'s case).
func.func @index_add(%dst: tensor<16777216xf32>, %idx: tensor<16777216xi32>, %src: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %s = tessel.scatter dimension_map = [0] unique_indices(false)
      ins(%src, %idx : tensor<16777216xf32>, tensor<16777216xi32>)
      outs(%dst : tensor<16777216xf32>) {
    ^bb0(%u: f32, %cur: f32):
      %a = arith.addf %u, %cur : f32
      tessel.yield %a : f32
  } -> tensor<16777216xf32>
  return %s : tensor<16777216xf32>
}
