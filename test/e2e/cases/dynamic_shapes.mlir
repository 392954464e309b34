// Dynamic dimensions (issue 39 step 2): one module called with many shapes,
// odd sizes and empty tensors; the host program reads the extents, checks
// the ones that must agree and passes them to the kernels.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

func.func @add_exp(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = math.exp %s : f32
    linalg.yield %t : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @row_sum(%a: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<?x?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @bias_relu(%a: tensor<?x48xf32>, %bias: tensor<48xf32>) -> tensor<?x48xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x48xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x48xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %bias : tensor<?x48xf32>, tensor<48xf32>) outs(%e : tensor<?x48xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<?x48xf32>
  return %r : tensor<?x48xf32>
}

// A loop carrying a tensor of dynamic length: x <- 0.5 x + 0.25, n times.
func.func @loop(%a: tensor<?xf32>, %n: tensor<i32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %ni = tensor.extract %n[] : tensor<i32>
  %count = arith.index_cast %ni : i32 to index
  %r = scf.for %i = %c0 to %count step %c1 iter_args(%x = %a) -> tensor<?xf32> {
    %len = tensor.dim %x, %c0 : tensor<?xf32>
    %e = tensor.empty(%len) : tensor<?xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.mulf %v, %half : f32
      %s = arith.addf %m, %quarter : f32
      linalg.yield %s : f32
    } -> tensor<?xf32>
    scf.yield %y : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// Reshapes on the host: ?x4 collapsed to ? (4 x the rows), negated, and
// expanded back.
func.func @reshape(%a: tensor<?x4xf32>) -> tensor<?x2x2xf32> {
  %c0 = arith.constant 0 : index
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %len = tensor.dim %flat, %c0 : tensor<?xf32>
  %e = tensor.empty(%len) : tensor<?xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%flat : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<?xf32>
  %rows = tensor.dim %a, %c0 : tensor<?x4xf32>
  %r = tensor.expand_shape %neg [[0, 1, 2]] output_shape [%rows, 2, 2] : tensor<?xf32> into tensor<?x2x2xf32>
  return %r : tensor<?x2x2xf32>
}
