// Host control flow: scf.for, scf.if and scf.while over tensors in the host
// program, bounds and conditions read from device tensors (one wait each),
// host integer arithmetic, host integers inside kernels (a loop's induction
// variable as a slice offset and a factor), a tensor chosen by a host
// condition, and calls.
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

// x <- 0.5 x + 0.25, n times (n read from the device; n = 0 returns a).
func.func @for_device_count(%a: tensor<37x5xf32>, %n: tensor<i32>) -> tensor<37x5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni = tensor.extract %n[] : tensor<i32>
  %count = arith.index_cast %ni : i32 to index
  %r = scf.for %i = %c0 to %count step %c1 iter_args(%x = %a) -> tensor<37x5xf32> {
    %e = tensor.empty() : tensor<37x5xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<37x5xf32>) outs(%e : tensor<37x5xf32>) {
    ^bb0(%v: f32, %o: f32):
      %h = arith.constant 0.5 : f32
      %q = arith.constant 0.25 : f32
      %w = arith.mulf %v, %h : f32
      %z = arith.addf %w, %q : f32
      linalg.yield %z : f32
    } -> tensor<37x5xf32>
    scf.yield %y : tensor<37x5xf32>
  }
  return %r : tensor<37x5xf32>
}

// p ? a + b : a * b, and the row sums of the chosen tensor.
func.func @if_device(%a: tensor<29x3xf32>, %b: tensor<29x3xf32>, %p: tensor<i1>)
    -> (tensor<29x3xf32>, tensor<29xf32>) {
  %c = tensor.extract %p[] : tensor<i1>
  %r = scf.if %c -> tensor<29x3xf32> {
    %s = arith.addf %a, %b : tensor<29x3xf32>
    scf.yield %s : tensor<29x3xf32>
  } else {
    %m = arith.mulf %a, %b : tensor<29x3xf32>
    scf.yield %m : tensor<29x3xf32>
  }
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<29xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<29xf32>) -> tensor<29xf32>
  %sum = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%r : tensor<29x3xf32>) outs(%init : tensor<29xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %t = arith.addf %v, %acc : f32
    linalg.yield %t : f32
  } -> tensor<29xf32>
  return %r, %sum : tensor<29x3xf32>, tensor<29xf32>
}

// while (k < limit) { k += 3; v = 1.5 v - 1 }: the comparison runs on the
// device, the host reads its i1.
func.func @while_device(%k0: tensor<i32>, %limit: tensor<i32>, %v0: tensor<13xf32>)
    -> (tensor<i32>, tensor<13xf32>) {
  %r:2 = scf.while (%k = %k0, %v = %v0) : (tensor<i32>, tensor<13xf32>) -> (tensor<i32>, tensor<13xf32>) {
    %e = tensor.empty() : tensor<i1>
    %lt = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>],
                          iterator_types = []}
        ins(%k, %limit : tensor<i32>, tensor<i32>) outs(%e : tensor<i1>) {
    ^bb0(%x: i32, %l: i32, %o: i1):
      %c = arith.cmpi slt, %x, %l : i32
      linalg.yield %c : i1
    } -> tensor<i1>
    %c = tensor.extract %lt[] : tensor<i1>
    scf.condition(%c) %k, %v : tensor<i32>, tensor<13xf32>
  } do {
  ^bb0(%k: tensor<i32>, %v: tensor<13xf32>):
    %three = arith.constant dense<3> : tensor<i32>
    %k2 = arith.addi %k, %three : tensor<i32>
    %e = tensor.empty() : tensor<13xf32>
    %v2 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%v : tensor<13xf32>) outs(%e : tensor<13xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.constant 1.5 : f32
      %one = arith.constant 1.0 : f32
      %m = arith.mulf %x, %s : f32
      %d = arith.subf %m, %one : f32
      linalg.yield %d : f32
    } -> tensor<13xf32>
    scf.yield %k2, %v2 : tensor<i32>, tensor<13xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<13xf32>
}

// for i in [0, 4): for j in [0, i + 1): a += 1 (10 additions; the inner
// bound is host arithmetic on i), then a *= 2 when the element count is
// odd (a compile-time-known host condition).
func.func @nested(%a: tensor<7x9xf32>) -> tensor<7x9xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ones = arith.constant dense<1.0> : tensor<7x9xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a) -> tensor<7x9xf32> {
    %ub = arith.addi %i, %c1 : index
    %inner = scf.for %j = %c0 to %ub step %c1 iter_args(%y = %x) -> tensor<7x9xf32> {
      %z = arith.addf %y, %ones : tensor<7x9xf32>
      scf.yield %z : tensor<7x9xf32>
    }
    scf.yield %inner : tensor<7x9xf32>
  }
  return %r : tensor<7x9xf32>
}

// The larger of two tensors' first elements picks the tensor (arith.select
// of tensors by a host condition).
func.func @select_by_first(%a: tensor<11xi32>, %b: tensor<11xi32>) -> tensor<11xi32> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %a[%c0] : tensor<11xi32>
  %y = tensor.extract %b[%c0] : tensor<11xi32>
  %c = arith.cmpi sgt, %x, %y : i32
  %r = arith.select %c, %a, %b : tensor<11xi32>
  return %r : tensor<11xi32>
}

// Calls between public and private functions (inlined).
func.func private @affine(%x: tensor<17xf32>) -> tensor<17xf32> {
  %two = arith.constant dense<2.0> : tensor<17xf32>
  %one = arith.constant dense<1.0> : tensor<17xf32>
  %m = arith.mulf %x, %two : tensor<17xf32>
  %r = arith.subf %m, %one : tensor<17xf32>
  return %r : tensor<17xf32>
}

func.func @square(%x: tensor<17xf32>) -> tensor<17xf32> {
  %r = arith.mulf %x, %x : tensor<17xf32>
  return %r : tensor<17xf32>
}

func.func @calls(%x: tensor<17xf32>) -> tensor<17xf32> {
  %a = func.call @affine(%x) : (tensor<17xf32>) -> tensor<17xf32>
  %b = func.call @square(%a) : (tensor<17xf32>) -> tensor<17xf32>
  %c = func.call @affine(%b) : (tensor<17xf32>) -> tensor<17xf32>
  return %c : tensor<17xf32>
}

// acc = sum over i < 5 of a[i, :] * (i + 1): the induction variable is a
// slice offset and, plus one, a factor inside the kernel.
func.func @iv_in_kernels(%a: tensor<5x13xf32>) -> tensor<13xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant dense<0.0> : tensor<13xf32>
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> tensor<13xf32> {
    %row = tensor.extract_slice %a[%i, 0] [1, 13] [1, 1] : tensor<5x13xf32> to tensor<13xf32>
    %k = arith.addi %i, %c1 : index
    %e = tensor.empty() : tensor<13xf32>
    %y = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
        ins(%acc, %row : tensor<13xf32>, tensor<13xf32>) outs(%e : tensor<13xf32>) {
    ^bb0(%s: f32, %v: f32, %o: f32):
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %m = arith.mulf %v, %kf : f32
      %t = arith.addf %s, %m : f32
      linalg.yield %t : f32
    } -> tensor<13xf32>
    scf.yield %y : tensor<13xf32>
  }
  return %r : tensor<13xf32>
}

// A host integer carried by a while loop (no device read per iteration):
// k = n, n - 1, ..., 1 is added to x (n read from the device once).
func.func @count_down(%x0: tensor<19xi32>, %n: tensor<i64>) -> tensor<19xi32> {
  %n0 = tensor.extract %n[] : tensor<i64>
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.while (%k = %n0, %x = %x0) : (i64, tensor<19xi32>) -> (i64, tensor<19xi32>) {
    %c = arith.cmpi sgt, %k, %zero : i64
    scf.condition(%c) %k, %x : i64, tensor<19xi32>
  } do {
  ^bb0(%k: i64, %x: tensor<19xi32>):
    %e = tensor.empty() : tensor<19xi32>
    %y = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%x : tensor<19xi32>) outs(%e : tensor<19xi32>) {
    ^bb0(%v: i32, %o: i32):
      %k32 = arith.trunci %k : i64 to i32
      %t = arith.addi %v, %k32 : i32
      linalg.yield %t : i32
    } -> tensor<19xi32>
    %k2 = arith.subi %k, %one : i64
    scf.yield %k2, %y : i64, tensor<19xi32>
  }
  return %r#1 : tensor<19xi32>
}
