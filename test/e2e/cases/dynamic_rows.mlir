// Row chains (layernorm, softmax) over a dynamic number of rows, the row
// length static: one fused row dispatch per chain on both targets (cuda: a
// warp per row, or a block of warps per row longer than 1024, the grid
// computed by the host from the push constants).
// - layernorm_f32: [?, 769] f32 (a row length that is not a multiple of 4);
// - layernorm_f16: [?, ?, 1536] f16 in and out, f32 statistics (two dynamic
//   row extents, two warps per row);
// - softmax_256: [?, 256] (128-bit loads);
// - softmax_heads: [?, 4, 2500] (a dynamic and a static row extent, three
//   warps per row).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#col2 = affine_map<(d0, d1) -> (d1)>
#rid1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#col3 = affine_map<(d0, d1, d2) -> (d2)>
#rid2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @layernorm_f32(%x: tensor<?x769xf32>, %gamma: tensor<769xf32>, %beta: tensor<769xf32>) -> tensor<?x769xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x769xf32>
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 769.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty(%m) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x769xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %mean = linalg.generic {indexing_maps = [#rid1, #rid1], iterator_types = ["parallel"]}
      ins(%sum : tensor<?xf32>) outs(%er : tensor<?xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<?xf32>
  %sq = linalg.generic {indexing_maps = [#id2, #row2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<?x769xf32>, tensor<?xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%in: f32, %mu: f32, %acc: f32):
    %d = arith.subf %in, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e = tensor.empty(%m) : tensor<?x769xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row2, #row2, #col2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<?x769xf32>, tensor<?xf32>, tensor<?xf32>, tensor<769xf32>, tensor<769xf32>)
      outs(%e : tensor<?x769xf32>) {
  ^bb0(%in: f32, %mu: f32, %v: f32, %g: f32, %b: f32, %out: f32):
    %var = arith.divf %v, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %in, %mu : f32
    %nd = arith.mulf %d, %r : f32
    %sc = arith.mulf %nd, %g : f32
    %y = arith.addf %sc, %b : f32
    linalg.yield %y : f32
  } -> tensor<?x769xf32>
  return %y : tensor<?x769xf32>
}

func.func @layernorm_f16(%x: tensor<?x?x1536xf16>, %gamma: tensor<1536xf32>, %beta: tensor<1536xf32>) -> tensor<?x?x1536xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?x1536xf16>
  %sq_len = tensor.dim %x, %c1 : tensor<?x?x1536xf16>
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1536.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty(%m, %sq_len) : tensor<?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<?x?xf32>) -> tensor<?x?xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<?x?x1536xf16>) outs(%z : tensor<?x?xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %inf = arith.extf %in : f16 to f32
    %s = arith.addf %inf, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %mean = linalg.generic {indexing_maps = [#rid2, #rid2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<?x?xf32>) outs(%er : tensor<?x?xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<?x?xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #row3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %mean : tensor<?x?x1536xf16>, tensor<?x?xf32>) outs(%z : tensor<?x?xf32>) {
  ^bb0(%in: f16, %mu: f32, %acc: f32):
    %inf = arith.extf %in : f16 to f32
    %d = arith.subf %inf, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %e = tensor.empty(%m, %sq_len) : tensor<?x?x1536xf16>
  %y = linalg.generic {indexing_maps = [#id3, #row3, #row3, #col3, #col3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<?x?x1536xf16>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<1536xf32>, tensor<1536xf32>)
      outs(%e : tensor<?x?x1536xf16>) {
  ^bb0(%in: f16, %mu: f32, %v: f32, %g: f32, %b: f32, %out: f16):
    %inf = arith.extf %in : f16 to f32
    %var = arith.divf %v, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %inf, %mu : f32
    %nd = arith.mulf %d, %r : f32
    %sc = arith.mulf %nd, %g : f32
    %y = arith.addf %sc, %b : f32
    %o = arith.truncf %y : f32 to f16
    linalg.yield %o : f16
  } -> tensor<?x?x1536xf16>
  return %y : tensor<?x?x1536xf16>
}

func.func @softmax_256(%x: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %m0 = tensor.dim %x, %c0 : tensor<?x256xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty(%m0) : tensor<?xf32>
  %zm = linalg.fill ins(%ninf : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x256xf32>) outs(%zm : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maximumf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e = tensor.empty(%m0) : tensor<?x256xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx : tensor<?x256xf32>, tensor<?xf32>) outs(%e : tensor<?x256xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<?x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<?x256xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm : tensor<?x256xf32>, tensor<?xf32>) outs(%e : tensor<?x256xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %v = arith.divf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<?x256xf32>
  return %y : tensor<?x256xf32>
}

func.func @softmax_heads(%x: tensor<?x4x2500xf32>) -> tensor<?x4x2500xf32> {
  %c0 = arith.constant 0 : index
  %m0 = tensor.dim %x, %c0 : tensor<?x4x2500xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty(%m0) : tensor<?x4xf32>
  %zm = linalg.fill ins(%ninf : f32) outs(%er : tensor<?x4xf32>) -> tensor<?x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<?x4x2500xf32>) outs(%zm : tensor<?x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maximumf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  %e = tensor.empty(%m0) : tensor<?x4x2500xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : tensor<?x4x2500xf32>, tensor<?x4xf32>) outs(%e : tensor<?x4x2500xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<?x4x2500xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<?x4xf32>) -> tensor<?x4xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<?x4x2500xf32>) outs(%z : tensor<?x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<?x4x2500xf32>, tensor<?x4xf32>) outs(%e : tensor<?x4x2500xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %v = arith.divf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<?x4x2500xf32>
  return %y : tensor<?x4x2500xf32>
}
