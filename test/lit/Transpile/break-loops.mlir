// RUN: tessel-opt %s --tessel-simplify-break-loops --split-input-file | FileCheck %s

// A search loop after slot promotion (`for (x = 0; x < n; x++) if (a[x] >= u)
// { index = x; break; }`): the counter is advanced only while the break flag
// is clear. Its result is not used after the loop, so it is advanced always
// (the value yielded with the flag set is never read); `index`, used after
// the loop, keeps its select.
// CHECK-LABEL: func.func @search
// CHECK: } do {
// CHECK: ^bb0(%[[IDX:.+]]: i32, %[[X:.+]]: i32, %[[BRK:.+]]: i8):
// CHECK:   %[[HIT:.+]] = arith.cmpf oge
// CHECK:   %[[NIDX:.+]] = arith.select %[[HIT]], %[[X]], %[[IDX]] : i32
// CHECK:   %[[NBRK:.+]] = arith.select %[[HIT]], %{{.+}}, %[[BRK]] : i8
// CHECK:   %[[NX:.+]] = arith.addi %[[X]], %{{.+}} : i32
// CHECK-NOT: scf.if
// CHECK:   scf.yield %[[NIDX]], %[[NX]], %[[NBRK]] : i32, i32, i8
func.func @search(%a: !llvm.ptr, %u: f64, %n: i32) -> i32 {
  %m1 = arith.constant -1 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z8 = arith.constant 0 : i8
  %one8 = arith.constant 1 : i8
  %false = arith.constant false
  %r:3 = scf.while (%idx = %m1, %x = %c0, %brk = %z8) : (i32, i32, i8) -> (i32, i32, i8) {
    %clear = arith.cmpi eq, %brk, %z8 : i8
    %c = scf.if %clear -> (i1) {
      %lt = arith.cmpi slt, %x, %n : i32
      scf.yield %lt : i1
    } else {
      scf.yield %false : i1
    }
    scf.condition(%c) %idx, %x, %brk : i32, i32, i8
  } do {
  ^bb0(%idx2: i32, %x2: i32, %brk2: i8):
    %xi = arith.extsi %x2 : i32 to i64
    %p = llvm.getelementptr %a[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f64
    %v = llvm.load %p : !llvm.ptr -> f64
    %hit = arith.cmpf oge, %v, %u : f64
    %nidx = arith.select %hit, %x2, %idx2 : i32
    %nbrk = arith.select %hit, %one8, %brk2 : i8
    %go = arith.cmpi eq, %nbrk, %z8 : i8
    %nx = scf.if %go -> (i32) {
      %inc = arith.addi %x2, %c1 : i32
      scf.yield %inc : i32
    } else {
      scf.yield %x2 : i32
    }
    scf.yield %nidx, %nx, %nbrk : i32, i32, i8
  }
  return %r#0 : i32
}

// -----

// The counter is used after the loop (C keeps its value at the break):
// unchanged.
// CHECK-LABEL: func.func @counter_used
// CHECK: %[[NX:.+]] = scf.if %{{.+}} -> (i32)
// CHECK: scf.yield %{{.+}}, %[[NX]], %{{.+}} : i32, i32, i8
func.func @counter_used(%a: !llvm.ptr, %u: f64, %n: i32) -> i32 {
  %m1 = arith.constant -1 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z8 = arith.constant 0 : i8
  %one8 = arith.constant 1 : i8
  %false = arith.constant false
  %r:3 = scf.while (%idx = %m1, %x = %c0, %brk = %z8) : (i32, i32, i8) -> (i32, i32, i8) {
    %clear = arith.cmpi eq, %brk, %z8 : i8
    %c = scf.if %clear -> (i1) {
      %lt = arith.cmpi slt, %x, %n : i32
      scf.yield %lt : i1
    } else {
      scf.yield %false : i1
    }
    scf.condition(%c) %idx, %x, %brk : i32, i32, i8
  } do {
  ^bb0(%idx2: i32, %x2: i32, %brk2: i8):
    %xi = arith.extsi %x2 : i32 to i64
    %p = llvm.getelementptr %a[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f64
    %v = llvm.load %p : !llvm.ptr -> f64
    %hit = arith.cmpf oge, %v, %u : f64
    %nidx = arith.select %hit, %x2, %idx2 : i32
    %nbrk = arith.select %hit, %one8, %brk2 : i8
    %go = arith.cmpi eq, %nbrk, %z8 : i8
    %nx = scf.if %go -> (i32) {
      %inc = arith.addi %x2, %c1 : i32
      scf.yield %inc : i32
    } else {
      scf.yield %x2 : i32
    }
    scf.yield %nidx, %nx, %nbrk : i32, i32, i8
  }
  return %r#1 : i32
}

// -----

// The value yielded while the flag is clear comes from an atomic (a CAS
// loop that breaks out): its branch must not run once the flag is set, so
// the if stays, although the loop's result is not used.
// CHECK-LABEL: func.func @effects
// CHECK: scf.if %{{.+}} -> (i32) {
// CHECK:   llvm.cmpxchg
func.func @effects(%p: !llvm.ptr, %val: i32, %init: i32) {
  %z8 = arith.constant 0 : i8
  %one8 = arith.constant 1 : i8
  %false = arith.constant false
  %r:2 = scf.while (%old = %init, %brk = %z8) : (i32, i8) -> (i32, i8) {
    %clear = arith.cmpi eq, %brk, %z8 : i8
    %c = scf.if %clear -> (i1) {
      %ne = arith.cmpi ne, %old, %val : i32
      scf.yield %ne : i1
    } else {
      scf.yield %false : i1
    }
    scf.condition(%c) %old, %brk : i32, i8
  } do {
  ^bb0(%old2: i32, %brk2: i8):
    %ge = arith.cmpi sge, %old2, %val : i32
    %nbrk = arith.select %ge, %one8, %brk2 : i8
    %go = arith.cmpi eq, %nbrk, %z8 : i8
    %nold = scf.if %go -> (i32) {
      %x = llvm.cmpxchg %p, %old2, %val monotonic monotonic : !llvm.ptr, i32
      %v = llvm.extractvalue %x[0] : !llvm.struct<(i32, i1)>
      scf.yield %v : i32
    } else {
      scf.yield %old2 : i32
    }
    scf.yield %nold, %nbrk : i32, i8
  }
  return
}
