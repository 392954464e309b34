// Reductions that tessel-legalize-input splits into partials for
// parallelism, at sizes that are not multiples of any tile:
// - a full sum of 3 * 2^14 = 49152 f32 (32 chunks of 1536, then one warp),
// - row sums of 5 rows of 12288 (few rows: 8 chunks per row),
// - column sums of 1000 x 77 (outer reduced dim: 8 chunks of 125),
// - column max of 4104 x 33 i32 (8 chunks of 513),
// - a row sum whose length (4099, prime) has no power-of-two split.
#id = affine_map<(i, j) -> (i, j)>
#rows = affine_map<(i, j) -> (i)>
#cols = affine_map<(i, j) -> (j)>
#v = affine_map<(i) -> (i)>
#scalar = affine_map<(i) -> ()>
func.func @split(%a: tensor<49152xf32>, %b: tensor<5x12288xf32>,
                 %c: tensor<1000x77xf32>, %d: tensor<4104x33xi32>,
                 %e: tensor<3x4099xf32>)
    -> (tensor<f32>, tensor<5xf32>, tensor<77xf32>, tensor<33xi32>, tensor<3xf32>) {
  %zero = arith.constant 0.0 : f32
  %imin = arith.constant -2147483648 : i32
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %full = linalg.generic {indexing_maps = [#v, #scalar], iterator_types = ["reduction"]}
      ins(%a : tensor<49152xf32>) outs(%z0 : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %e1 = tensor.empty() : tensor<5xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<5xf32>) -> tensor<5xf32>
  %rows = linalg.reduce ins(%b : tensor<5x12288xf32>) outs(%z1 : tensor<5xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  %e2 = tensor.empty() : tensor<77xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<77xf32>) -> tensor<77xf32>
  %cols = linalg.generic {indexing_maps = [#id, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%c : tensor<1000x77xf32>) outs(%z2 : tensor<77xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<77xf32>
  %e3 = tensor.empty() : tensor<33xi32>
  %z3 = linalg.fill ins(%imin : i32) outs(%e3 : tensor<33xi32>) -> tensor<33xi32>
  %colmax = linalg.reduce ins(%d : tensor<4104x33xi32>) outs(%z3 : tensor<33xi32>) dimensions = [0]
    (%x: i32, %acc: i32) { %m = arith.maxsi %x, %acc : i32
      linalg.yield %m : i32 }
  %e4 = tensor.empty() : tensor<3xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<3xf32>) -> tensor<3xf32>
  %prime = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<3x4099xf32>) outs(%z4 : tensor<3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %full, %rows, %cols, %colmax, %prime
      : tensor<f32>, tensor<5xf32>, tensor<77xf32>, tensor<33xi32>, tensor<3xf32>
}
