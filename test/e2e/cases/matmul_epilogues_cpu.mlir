// Matmul epilogues of every kind the cpu backend now runs fused (each
// workgroup computes its C block, then the epilogue): f16 operands with an
// f32 accumulator, bias, gelu (tanh form) and a cast to f16, as in a BERT
// feed-forward layer; a matvec (M = 1) with a bias; K = 96 (below the packed
// strategy's K >= 128) with several workgroups and partial register tiles;
// K = 300 (packed) with a residual add; a batch matmul with a per-batch
// bias. Odd sizes throughout; every target compiles the same dispatches.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#bj = affine_map<(b, i, j) -> (b, j)>
func.func @f16_gelu(%x: tensor<150x70xf16>, %w: tensor<70x133xf16>, %bias: tensor<133xf32>) -> tensor<150x133xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<150x133xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<150x133xf32>) -> tensor<150x133xf32>
  %mm = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<150x70xf16>, tensor<70x133xf16>) outs(%z : tensor<150x133xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<150x133xf32>
  %eh = tensor.empty() : tensor<150x133xf16>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<150x133xf32>, tensor<133xf32>) outs(%eh : tensor<150x133xf16>) {
  ^bb0(%v: f32, %b: f32, %o: f16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c0 = arith.constant 0.7978845608 : f32
    %c1 = arith.constant 0.044715 : f32
    %y = arith.addf %v, %b : f32
    %y3 = arith.mulf %y, %y : f32
    %y3b = arith.mulf %y3, %y : f32
    %in0 = arith.mulf %y3b, %c1 : f32
    %in1 = arith.addf %y, %in0 : f32
    %in2 = arith.mulf %in1, %c0 : f32
    %t = math.tanh %in2 : f32
    %t1 = arith.addf %t, %one : f32
    %h = arith.mulf %y, %half : f32
    %g = arith.mulf %h, %t1 : f32
    %gh = arith.truncf %g : f32 to f16
    linalg.yield %gh : f16
  } -> tensor<150x133xf16>
  return %r : tensor<150x133xf16>
}

func.func @matvec_bias(%x: tensor<1x300xf32>, %w: tensor<300x517xf32>, %bias: tensor<517xf32>) -> tensor<1x517xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x517xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x517xf32>) -> tensor<1x517xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<1x300xf32>, tensor<300x517xf32>) outs(%z : tensor<1x517xf32>) -> tensor<1x517xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<1x517xf32>, tensor<517xf32>) outs(%e : tensor<1x517xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x517xf32>
  return %r : tensor<1x517xf32>
}

func.func @k96_relu(%x: tensor<203x96xf32>, %w: tensor<96x301xf32>, %bias: tensor<301xf32>) -> tensor<203x301xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<203x301xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<203x301xf32>) -> tensor<203x301xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<203x96xf32>, tensor<96x301xf32>) outs(%z : tensor<203x301xf32>) -> tensor<203x301xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<203x301xf32>, tensor<301xf32>) outs(%e : tensor<203x301xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<203x301xf32>
  return %r : tensor<203x301xf32>
}

func.func @k300_residual(%x: tensor<131x300xf32>, %w: tensor<300x259xf32>, %res: tensor<131x259xf32>) -> tensor<131x259xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<131x259xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<131x259xf32>) -> tensor<131x259xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<131x300xf32>, tensor<300x259xf32>) outs(%z : tensor<131x259xf32>) -> tensor<131x259xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %res : tensor<131x259xf32>, tensor<131x259xf32>) outs(%e : tensor<131x259xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<131x259xf32>
  return %r : tensor<131x259xf32>
}

func.func @bmm_bias(%a: tensor<5x37x64xf32>, %b: tensor<5x64x45xf32>, %bias: tensor<5x45xf32>) -> tensor<5x37x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x37x45xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5x37x45xf32>) -> tensor<5x37x45xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<5x37x64xf32>, tensor<5x64x45xf32>) outs(%z : tensor<5x37x45xf32>) -> tensor<5x37x45xf32>
  %r = linalg.generic {indexing_maps = [#id3, #bj, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<5x37x45xf32>, tensor<5x45xf32>) outs(%e : tensor<5x37x45xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<5x37x45xf32>
  return %r : tensor<5x37x45xf32>
}
