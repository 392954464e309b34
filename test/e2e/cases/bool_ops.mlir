// i1 tensors as inputs and results: cmpf producing tensor<..xi1>, i1
// inputs combined with andi/ori/xori, i1 condition for arith.select, an
// "any" reduction (ori) to tensor<37xi1>, and extui i1 -> i32 counted per row.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @bools(%x: tensor<37x29xf32>, %y: tensor<37x29xf32>, %m: tensor<37x29xi1>, %n: tensor<37x29xi1>)
    -> (tensor<37x29xi1>, tensor<37x29xi1>, tensor<37x29xf32>, tensor<37xi1>, tensor<37xi32>) {
  %ge = arith.cmpf oge, %x, %y : tensor<37x29xf32>
  %mn = arith.andi %m, %n : tensor<37x29xi1>
  %xo = arith.xori %ge, %mn : tensor<37x29xi1>
  %comb = arith.ori %xo, %n : tensor<37x29xi1>
  %sel = arith.select %m, %x, %y : tensor<37x29xi1>, tensor<37x29xf32>
  %false = arith.constant false
  %eb = tensor.empty() : tensor<37xi1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<37xi1>) -> tensor<37xi1>
  // any(m & n) per row
  %any = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%mn : tensor<37x29xi1>) outs(%fb : tensor<37xi1>) {
  ^bb0(%v: i1, %acc: i1):
    %o = arith.ori %v, %acc : i1
    linalg.yield %o : i1
  } -> tensor<37xi1>
  %zero = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<37xi32>
  %zi = linalg.fill ins(%zero : i32) outs(%ei : tensor<37xi32>) -> tensor<37xi32>
  // number of true entries of %m per row
  %cnt = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<37x29xi1>) outs(%zi : tensor<37xi32>) {
  ^bb0(%v: i1, %acc: i32):
    %vi = arith.extui %v : i1 to i32
    %s = arith.addi %vi, %acc : i32
    linalg.yield %s : i32
  } -> tensor<37xi32>
  return %ge, %comb, %sel, %any, %cnt : tensor<37x29xi1>, tensor<37x29xi1>, tensor<37x29xf32>, tensor<37xi1>, tensor<37xi32>
}
