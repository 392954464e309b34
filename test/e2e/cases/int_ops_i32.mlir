// Integer arithmetic on i32, both inside a linalg.generic body and directly
// on tensors: addi, subi, muli, divsi, remsi (negative operands: C
// truncation semantics), shli, shrsi, shrui (on negative values), andi,
// ori, xori, maxsi, minsi, cmpi (several predicates) and select.
#id = affine_map<(i, j) -> (i, j)>
func.func @int_generic(%a: tensor<29x43xi32>, %b: tensor<29x43xi32>, %s: tensor<29x43xi32>)
    -> (tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi1>) {
  %e = tensor.empty() : tensor<29x43xi32>
  %eb = tensor.empty() : tensor<29x43xi1>
  %r:5 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %s : tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi32>)
      outs(%e, %e, %e, %e, %eb : tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi1>) {
  ^bb0(%x: i32, %y: i32, %sh: i32, %o0: i32, %o1: i32, %o2: i32, %o3: i32, %o4: i1):
    // arithmetic: (x + y) * 3 - x / y + x % y
    %c3 = arith.constant 3 : i32
    %add = arith.addi %x, %y : i32
    %mul = arith.muli %add, %c3 : i32
    %div = arith.divsi %x, %y : i32
    %rem = arith.remsi %x, %y : i32
    %t0 = arith.subi %mul, %div : i32
    %arith = arith.addi %t0, %rem : i32
    // shifts: (x << sh) ^ (x >>s sh) ^ (x >>u sh)
    %shl = arith.shli %x, %sh : i32
    %shrs = arith.shrsi %x, %sh : i32
    %shru = arith.shrui %x, %sh : i32
    %x0 = arith.xori %shl, %shrs : i32
    %shifts = arith.xori %x0, %shru : i32
    // bitwise: (x & y) | (~x & 0x0F0F)
    %m1 = arith.constant -1 : i32
    %mask = arith.constant 3855 : i32
    %and = arith.andi %x, %y : i32
    %notx = arith.xori %x, %m1 : i32
    %and2 = arith.andi %notx, %mask : i32
    %bits = arith.ori %and, %and2 : i32
    // compare/select: x < y ? max(x, y) - min(x, y) : (x == 7 ? 100 : -y)
    %lt = arith.cmpi slt, %x, %y : i32
    %c7 = arith.constant 7 : i32
    %c100 = arith.constant 100 : i32
    %eq = arith.cmpi eq, %x, %c7 : i32
    %mx = arith.maxsi %x, %y : i32
    %mn = arith.minsi %x, %y : i32
    %d = arith.subi %mx, %mn : i32
    %zero = arith.constant 0 : i32
    %ny = arith.subi %zero, %y : i32
    %alt = arith.select %eq, %c100, %ny : i32
    %sel = arith.select %lt, %d, %alt : i32
    %ge = arith.cmpi sge, %x, %y : i32
    %ne = arith.cmpi ne, %x, %zero : i32
    %flag = arith.andi %ge, %ne : i1
    linalg.yield %arith, %shifts, %bits, %sel, %flag : i32, i32, i32, i32, i1
  } -> (tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi1>)
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi1>
}

func.func @int_tensor(%a: tensor<29x43xi32>, %b: tensor<29x43xi32>) -> (tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi1>) {
  %div = arith.divsi %a, %b : tensor<29x43xi32>
  %rem = arith.remsi %a, %b : tensor<29x43xi32>
  %mul = arith.muli %div, %b : tensor<29x43xi32>
  %back = arith.addi %mul, %rem : tensor<29x43xi32>   // == a
  %x = arith.xori %back, %b : tensor<29x43xi32>
  %cmp = arith.cmpi sle, %a, %b : tensor<29x43xi32>
  %sel = arith.select %cmp, %x, %rem : tensor<29x43xi1>, tensor<29x43xi32>
  return %div, %sel, %cmp : tensor<29x43xi32>, tensor<29x43xi32>, tensor<29x43xi1>
}
