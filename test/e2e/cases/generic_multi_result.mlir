// One linalg.generic with several outputs and mixed parallel/reduction
// iterators: per row of a 67x301 matrix compute sum, max and argmax (i32)
// in a single op (the argmax compares against the running max output).
// A second generic yields two parallel results (x*y and x-y) at once.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @multi(%x: tensor<67x301xf32>, %y: tensor<67x301xf32>)
    -> (tensor<67xf32>, tensor<67xf32>, tensor<67xi32>, tensor<67x301xf32>, tensor<67x301xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %m1 = arith.constant -1 : i32
  %es = tensor.empty() : tensor<67xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%es : tensor<67xf32>) -> tensor<67xf32>
  %max0 = linalg.fill ins(%ninf : f32) outs(%es : tensor<67xf32>) -> tensor<67xf32>
  %ei = tensor.empty() : tensor<67xi32>
  %arg0 = linalg.fill ins(%m1 : i32) outs(%ei : tensor<67xi32>) -> tensor<67xi32>
  %r:3 = linalg.generic {indexing_maps = [#id, #row, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<67x301xf32>) outs(%sum0, %max0, %arg0 : tensor<67xf32>, tensor<67xf32>, tensor<67xi32>) {
  ^bb0(%in: f32, %s: f32, %m: f32, %a: i32):
    %ns = arith.addf %in, %s : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %nm = arith.select %gt, %in, %m : f32
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %na = arith.select %gt, %ji, %a : i32
    linalg.yield %ns, %nm, %na : f32, f32, i32
  } -> (tensor<67xf32>, tensor<67xf32>, tensor<67xi32>)
  %e2 = tensor.empty() : tensor<67x301xf32>
  %p:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<67x301xf32>, tensor<67x301xf32>) outs(%e2, %e2 : tensor<67x301xf32>, tensor<67x301xf32>) {
  ^bb0(%a: f32, %b: f32, %o0: f32, %o1: f32):
    %mul = arith.mulf %a, %b : f32
    %sub = arith.subf %a, %b : f32
    linalg.yield %mul, %sub : f32, f32
  } -> (tensor<67x301xf32>, tensor<67x301xf32>)
  return %r#0, %r#1, %r#2, %p#0, %p#1 : tensor<67xf32>, tensor<67xf32>, tensor<67xi32>, tensor<67x301xf32>, tensor<67x301xf32>
}
