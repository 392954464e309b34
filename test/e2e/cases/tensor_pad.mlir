// tensor.pad with a non-zero constant and different low/high amounts per
// dim (2-D f32 and 4-D i32), plus a pad whose padding value is a function
// argument (rank-0 tensor extracted with tensor.extract), followed by compute
// on the padded tensor.
func.func @pad(%x: tensor<13x17xf32>, %y: tensor<2x3x5x7xi32>, %v: tensor<f32>)
    -> (tensor<20x22xf32>, tensor<3x3x10x9xi32>, tensor<15x17xf32>) {
  %c = arith.constant 1.5 : f32
  %p0 = tensor.pad %x low[3, 0] high[4, 5] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<13x17xf32> to tensor<20x22xf32>
  %ci = arith.constant -9 : i32
  %p1 = tensor.pad %y low[1, 0, 2, 0] high[0, 0, 3, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ci : i32
  } : tensor<2x3x5x7xi32> to tensor<3x3x10x9xi32>
  %pv = tensor.extract %v[] : tensor<f32>
  %p2 = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pv : f32
  } : tensor<13x17xf32> to tensor<15x17xf32>
  %e = tensor.empty() : tensor<15x17xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p2 : tensor<15x17xf32>) outs(%e : tensor<15x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<15x17xf32>
  return %p0, %p1, %sq : tensor<20x22xf32>, tensor<3x3x10x9xi32>, tensor<15x17xf32>
}
