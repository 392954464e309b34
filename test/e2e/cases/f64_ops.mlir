// f64 throughout: an elementwise chain with math ops, and a generic with
// interleaved iterators [parallel, reduction, parallel, reduction] that
// reduces dims 1 and 3 of a 7x9x11x13 tensor weighted by a broadcast
// vector, i.e. out[a, c] = sum_{b,d} x[a,b,c,d] * w[d].
#x = affine_map<(a, b, c, d) -> (a, b, c, d)>
#w = affine_map<(a, b, c, d) -> (d)>
#o = affine_map<(a, b, c, d) -> (a, c)>
#id = affine_map<(i, j) -> (i, j)>
func.func @f64ops(%x: tensor<7x9x11x13xf64>, %w: tensor<13xf64>, %p: tensor<23x19xf64>)
    -> (tensor<7x11xf64>, tensor<23x19xf64>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<7x11xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<7x11xf64>) -> tensor<7x11xf64>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %w : tensor<7x9x11x13xf64>, tensor<13xf64>) outs(%z : tensor<7x11xf64>) {
  ^bb0(%xv: f64, %wv: f64, %acc: f64):
    %m = arith.mulf %xv, %wv : f64
    %s = arith.addf %m, %acc : f64
    linalg.yield %s : f64
  } -> tensor<7x11xf64>
  %ep = tensor.empty() : tensor<23x19xf64>
  // log(p) * sqrt(p) - exp(-p) + p^1.5 / (1 + cos(p)^2) + atan(p)
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<23x19xf64>) outs(%ep : tensor<23x19xf64>) {
  ^bb0(%v: f64, %o: f64):
    %one = arith.constant 1.0 : f64
    %onehalf = arith.constant 1.5 : f64
    %l = math.log %v : f64
    %s = math.sqrt %v : f64
    %ls = arith.mulf %l, %s : f64
    %nv = arith.negf %v : f64
    %en = math.exp %nv : f64
    %t0 = arith.subf %ls, %en : f64
    %pw = math.powf %v, %onehalf : f64
    %cs = math.cos %v : f64
    %cs2 = arith.mulf %cs, %cs : f64
    %den = arith.addf %one, %cs2 : f64
    %q = arith.divf %pw, %den : f64
    %t1 = arith.addf %t0, %q : f64
    %at = math.atan %v : f64
    %res = arith.addf %t1, %at : f64
    linalg.yield %res : f64
  } -> tensor<23x19xf64>
  return %r, %c : tensor<7x11xf64>, tensor<23x19xf64>
}
