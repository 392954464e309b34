// Elementwise consumers of f32 matmuls, which a cuda-only compile applies
// in the matmul's epilogue (tessel-form-dispatches{fuse-epilogues}): a
// linear layer x @ W^T + bias with tanh; a per-row scale plus a term of the
// column index (linalg.index); a batch matmul times a per-batch scalar; a
// matmul of a slice (its operand is not a binding, so the GPU falls back to
// tiling the fused dispatch); a matmul whose result is also returned (not
// fused: two uses). Odd sizes throughout.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#row = affine_map<(i, j) -> (i)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#b3 = affine_map<(b, i, j) -> (b)>
func.func @linear_tanh(%x: tensor<67x45xf32>, %w: tensor<131x45xf32>, %bias: tensor<131xf32>) -> tensor<67x131xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x131xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<67x131xf32>) -> tensor<67x131xf32>
  %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn]
          ins(%x, %w : tensor<67x45xf32>, tensor<131x45xf32>) outs(%z : tensor<67x131xf32>) -> tensor<67x131xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<67x131xf32>, tensor<131xf32>) outs(%e : tensor<67x131xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<67x131xf32>
  return %r : tensor<67x131xf32>
}
func.func @rowscale_index(%a: tensor<130x33xf32>, %b: tensor<33x129xf32>, %s: tensor<130xf32>) -> tensor<130x129xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<130x129xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<130x129xf32>) -> tensor<130x129xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<130x33xf32>, tensor<33x129xf32>) outs(%z : tensor<130x129xf32>) -> tensor<130x129xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s : tensor<130x129xf32>, tensor<130xf32>) outs(%e : tensor<130x129xf32>) {
  ^bb0(%v: f32, %sc: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %p = arith.mulf %v, %sc : f32
    %q = arith.addf %p, %jf : f32
    linalg.yield %q : f32
  } -> tensor<130x129xf32>
  return %r : tensor<130x129xf32>
}
func.func @bmm_scale(%a: tensor<3x65x17xf32>, %b: tensor<3x17x66xf32>, %s: tensor<3xf32>) -> tensor<3x65x66xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x65x66xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x65x66xf32>) -> tensor<3x65x66xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<3x65x17xf32>, tensor<3x17x66xf32>) outs(%z : tensor<3x65x66xf32>) -> tensor<3x65x66xf32>
  %r = linalg.generic {indexing_maps = [#id3, #b3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %s : tensor<3x65x66xf32>, tensor<3xf32>) outs(%e : tensor<3x65x66xf32>) {
  ^bb0(%v: f32, %sc: f32, %o: f32):
    %p = arith.mulf %v, %sc : f32
    linalg.yield %p : f32
  } -> tensor<3x65x66xf32>
  return %r : tensor<3x65x66xf32>
}
func.func @slice_relu(%a: tensor<120x60xf32>, %b: tensor<50x77xf32>) -> tensor<100x77xf32> {
  %zero = arith.constant 0.0 : f32
  %sl = tensor.extract_slice %a[3, 5] [100, 50] [1, 1] : tensor<120x60xf32> to tensor<100x50xf32>
  %e = tensor.empty() : tensor<100x77xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<100x77xf32>) -> tensor<100x77xf32>
  %mm = linalg.matmul ins(%sl, %b : tensor<100x50xf32>, tensor<50x77xf32>) outs(%z : tensor<100x77xf32>) -> tensor<100x77xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<100x77xf32>) outs(%e : tensor<100x77xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<100x77xf32>
  return %r : tensor<100x77xf32>
}
func.func @two_uses(%a: tensor<37x29xf32>, %b: tensor<29x41xf32>) -> (tensor<37x41xf32>, tensor<37x41xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x41xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<37x41xf32>) -> tensor<37x41xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<37x29xf32>, tensor<29x41xf32>) outs(%z : tensor<37x41xf32>) -> tensor<37x41xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<37x41xf32>) outs(%e : tensor<37x41xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<37x41xf32>
  return %mm, %r : tensor<37x41xf32>, tensor<37x41xf32>
}
