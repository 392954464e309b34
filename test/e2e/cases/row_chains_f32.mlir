// Chains of row ops that a cuda-only compile fuses into one kernel per
// chain (tessel-form-dispatches{fuse-rows}), at shapes that leave partial
// chunks: softmax over rows of 1000 (a multiple of 4, not of 128); a
// layernorm over 3x5 rows of 4092 (two row dims; 4096 and more would be split into chunks for parallelism first, with so few rows)
// that also returns the per-row mean; a row max + sum of exp with a
// per-column scale; a softmax over rows of 2051 (odd: single elements, a
// block of 3 warps per row on the GPU); and a softmax over rows of 4100
// (too long to fuse).
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#id3 = affine_map<(a, b, j) -> (a, b, j)>
#row3 = affine_map<(a, b, j) -> (a, b)>
#col3 = affine_map<(a, b, j) -> (j)>
#id2 = affine_map<(a, b) -> (a, b)>
func.func @softmax1000(%x: tensor<37x1000xf32>) -> tensor<37x1000xf32> {
  %e = tensor.empty() : tensor<37x1000xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<37x1000xf32>) outs(%e : tensor<37x1000xf32>) -> tensor<37x1000xf32>
  return %s : tensor<37x1000xf32>
}
func.func @layernorm3d(%x: tensor<3x5x4092xf32>, %g: tensor<4092xf32>, %b: tensor<4092xf32>)
    -> (tensor<3x5x4092xf32>, tensor<3x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 4092.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<3x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<3x5xf32>) -> tensor<3x5xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x5x4092xf32>) outs(%z : tensor<3x5xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  %mean = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<3x5xf32>) outs(%er : tensor<3x5xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<3x5xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #row3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %mean : tensor<3x5x4092xf32>, tensor<3x5xf32>) outs(%z : tensor<3x5xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  %ey = tensor.empty() : tensor<3x5x4092xf32>
  %y = linalg.generic {indexing_maps = [#id3, #row3, #row3, #col3, #col3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mean, %sq, %g, %b : tensor<3x5x4092xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<4092xf32>, tensor<4092xf32>)
      outs(%ey : tensor<3x5x4092xf32>) {
  ^bb0(%in: f32, %m: f32, %s: f32, %gg: f32, %bb: f32, %out: f32):
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %in, %m : f32
    %nd = arith.mulf %d, %r : f32
    %sc = arith.mulf %nd, %gg : f32
    %o = arith.addf %sc, %bb : f32
    linalg.yield %o : f32
  } -> tensor<3x5x4092xf32>
  return %y, %mean : tensor<3x5x4092xf32>, tensor<3x5xf32>
}
func.func @logsumexp_scaled(%x: tensor<19x333xf32>, %w: tensor<333xf32>) -> tensor<19xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<19xf32>
  %zm = linalg.fill ins(%ninf : f32) outs(%er : tensor<19xf32>) -> tensor<19xf32>
  %mx = linalg.generic {indexing_maps = [#id, #col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<19x333xf32>, tensor<333xf32>) outs(%zm : tensor<19xf32>) {
  ^bb0(%in: f32, %ww: f32, %acc: f32):
    %v = arith.mulf %in, %ww : f32
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<19xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%er : tensor<19xf32>) -> tensor<19xf32>
  %se = linalg.generic {indexing_maps = [#id, #col, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w, %mx : tensor<19x333xf32>, tensor<333xf32>, tensor<19xf32>) outs(%zs : tensor<19xf32>) {
  ^bb0(%in: f32, %ww: f32, %m: f32, %acc: f32):
    %v = arith.mulf %in, %ww : f32
    %d = arith.subf %v, %m : f32
    %ex = math.exp %d : f32
    %s = arith.addf %ex, %acc : f32
    linalg.yield %s : f32
  } -> tensor<19xf32>
  %lse = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%se, %mx : tensor<19xf32>, tensor<19xf32>) outs(%er : tensor<19xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %r = arith.addf %l, %m : f32
    linalg.yield %r : f32
  } -> tensor<19xf32>
  return %lse : tensor<19xf32>
}
func.func @softmax4100(%x: tensor<5x4100xf32>) -> tensor<5x4100xf32> {
  %e = tensor.empty() : tensor<5x4100xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<5x4100xf32>) outs(%e : tensor<5x4100xf32>) -> tensor<5x4100xf32>
  return %s : tensor<5x4100xf32>
}
func.func @softmax2051(%x: tensor<37x2051xf32>) -> tensor<37x2051xf32> {
  %e = tensor.empty() : tensor<37x2051xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<37x2051xf32>) outs(%e : tensor<37x2051xf32>) -> tensor<37x2051xf32>
  return %s : tensor<37x2051xf32>
}
