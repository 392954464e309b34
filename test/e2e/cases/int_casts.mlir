// Integer / float conversions across widths, on tensors and inside a
// generic: extsi, extui, trunci (wrapping), sitofp, fptosi (truncation
// toward zero of negative fractions), plus i16/i64 arithmetic.
func.func @casts(%a: tensor<1023xi8>, %b: tensor<37x41xi32>, %f: tensor<37x41xf32>,
                 %h: tensor<37x41xi16>, %l: tensor<37x41xi64>)
    -> (tensor<1023xi32>, tensor<1023xi32>, tensor<37x41xi8>, tensor<37x41xi16>,
        tensor<37x41xf32>, tensor<37x41xi32>, tensor<37x41xf64>, tensor<37x41xi64>) {
  %sa = arith.extsi %a : tensor<1023xi8> to tensor<1023xi32>
  %ua = arith.extui %a : tensor<1023xi8> to tensor<1023xi32>
  %t8 = arith.trunci %b : tensor<37x41xi32> to tensor<37x41xi8>
  %t16 = arith.trunci %b : tensor<37x41xi32> to tensor<37x41xi16>
  %bf = arith.sitofp %b : tensor<37x41xi32> to tensor<37x41xf32>
  %fi = arith.fptosi %f : tensor<37x41xf32> to tensor<37x41xi32>
  // i16 and i64 arithmetic in a generic: out = f64(h * 3 + l) / 2 ; l2 = l * extsi(h) - l
  %e64 = tensor.empty() : tensor<37x41xf64>
  %ei64 = tensor.empty() : tensor<37x41xi64>
  %g:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%h, %l : tensor<37x41xi16>, tensor<37x41xi64>) outs(%e64, %ei64 : tensor<37x41xf64>, tensor<37x41xi64>) {
  ^bb0(%hv: i16, %lv: i64, %o: f64, %o2: i64):
    %c3 = arith.constant 3 : i16
    %h3 = arith.muli %hv, %c3 : i16
    %hx = arith.extsi %h3 : i16 to i64
    %s = arith.addi %hx, %lv : i64
    %sf = arith.sitofp %s : i64 to f64
    %two = arith.constant 2.0 : f64
    %r = arith.divf %sf, %two : f64
    %he = arith.extsi %hv : i16 to i64
    %p = arith.muli %lv, %he : i64
    %q = arith.subi %p, %lv : i64
    linalg.yield %r, %q : f64, i64
  } -> (tensor<37x41xf64>, tensor<37x41xi64>)
  return %sa, %ua, %t8, %t16, %bf, %fi, %g#0, %g#1
    : tensor<1023xi32>, tensor<1023xi32>, tensor<37x41xi8>, tensor<37x41xi16>,
      tensor<37x41xf32>, tensor<37x41xi32>, tensor<37x41xf64>, tensor<37x41xi64>
}
