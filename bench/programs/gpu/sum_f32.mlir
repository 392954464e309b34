// Full sum of 2^28 f32 to a rank-0 tensor (reference: CUB DeviceReduce::Sum).
#id = affine_map<(i) -> (i)>
#scalar = affine_map<(i) -> ()>
func.func @sum(%x: tensor<268435456xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction"]}
      ins(%x : tensor<268435456xf32>) outs(%z : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
