// A long elementwise chain in a single linalg.generic body, using
// math.exp/tanh/log/sqrt/absf, arith.cmpf + arith.select, divf, negf,
// minimumf, fma-like mul/add; on a 1-D length-1023 tensor and on a 3-D
// 5x37x41 tensor (same body, different rank). Also outputs the cmpf mask
// as tensor<...xi1>.
#id1 = affine_map<(i) -> (i)>
#id3 = affine_map<(i, j, k) -> (i, j, k)>
func.func @chain1d(%x: tensor<1023xf32>, %y: tensor<1023xf32>) -> (tensor<1023xf32>, tensor<1023xi1>) {
  %e = tensor.empty() : tensor<1023xf32>
  %eb = tensor.empty() : tensor<1023xi1>
  %r:2 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<1023xf32>, tensor<1023xf32>) outs(%e, %eb : tensor<1023xf32>, tensor<1023xi1>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %ob: i1):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %ea = math.exp %a : f32                 // exp(a)
    %t = math.tanh %b : f32                 // tanh(b)
    %ab = math.absf %b : f32
    %l = math.log1p %ab : f32               // log1p(|b|)
    %l2 = arith.addf %one, %ab : f32
    %lg = math.log %l2 : f32                // log(1+|b|)
    %s = math.sqrt %l2 : f32                // sqrt(1+|b|)
    %p = arith.mulf %ea, %t : f32
    %q = arith.addf %p, %lg : f32
    %d = arith.divf %q, %s : f32
    %c = arith.cmpf ogt, %a, %b : f32       // a > b
    %n = arith.negf %d : f32
    %sel = arith.select %c, %d, %n : f32
    %mn = arith.minimumf %sel, %l : f32
    %fm = arith.mulf %mn, %half : f32
    %res = arith.addf %fm, %sel : f32
    linalg.yield %res, %c : f32, i1
  } -> (tensor<1023xf32>, tensor<1023xi1>)
  return %r#0, %r#1 : tensor<1023xf32>, tensor<1023xi1>
}

func.func @chain3d(%x: tensor<5x37x41xf32>, %y: tensor<5x37x41xf32>) -> tensor<5x37x41xf32> {
  %e = tensor.empty() : tensor<5x37x41xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<5x37x41xf32>, tensor<5x37x41xf32>) outs(%e : tensor<5x37x41xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %ea = math.exp %a : f32
    %t = math.tanh %b : f32
    %ab = math.absf %b : f32
    %l = math.log1p %ab : f32
    %l2 = arith.addf %one, %ab : f32
    %lg = math.log %l2 : f32
    %s = math.sqrt %l2 : f32
    %p = arith.mulf %ea, %t : f32
    %q = arith.addf %p, %lg : f32
    %d = arith.divf %q, %s : f32
    %c = arith.cmpf ogt, %a, %b : f32
    %n = arith.negf %d : f32
    %sel = arith.select %c, %d, %n : f32
    %mn = arith.minimumf %sel, %l : f32
    %fm = arith.mulf %mn, %half : f32
    %res = arith.addf %fm, %sel : f32
    linalg.yield %res : f32
  } -> tensor<5x37x41xf32>
  return %r : tensor<5x37x41xf32>
}
