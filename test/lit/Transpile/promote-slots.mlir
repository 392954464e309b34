// RUN: tessel-opt %s --tessel-promote-slots --split-input-file | FileCheck %s

// A loop counter and an accumulator (the importer's `for (i = 0; i < n;
// i++) sum += p[i]`): both are read in the next iteration and the sum after
// the loop, so both become loop-carried values of the while; no slot is left.
// CHECK-LABEL: func.func @loop
// CHECK-NOT: llvm.alloca
// CHECK: %[[R:.+]]:2 = scf.while (%[[I:.+]] = %c0_i32, %[[S:.+]] = %cst) : (i32, f32) -> (i32, f32)
// CHECK: arith.cmpi slt, %[[I]], %arg0
// CHECK: scf.condition(%{{.+}}) %[[I]], %[[S]] : i32, f32
// CHECK: ^bb0(%[[I2:.+]]: i32, %[[S2:.+]]: f32):
// CHECK: %[[SUM:.+]] = arith.addf %[[S2]], %{{.+}} : f32
// CHECK: %[[NEXT:.+]] = arith.addi %[[I2]], %{{.+}} : i32
// CHECK: scf.yield %[[NEXT]], %[[SUM]] : i32, f32
// CHECK: return %[[R]]#1 : f32
func.func @loop(%n: i32, %p: !llvm.ptr) -> f32 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %i = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %s = llvm.alloca %one x f32 : (i64) -> !llvm.ptr
  %c0 = arith.constant 0 : i32
  %f0 = arith.constant 0.0 : f32
  llvm.store %c0, %i : i32, !llvm.ptr
  llvm.store %f0, %s : f32, !llvm.ptr
  scf.while : () -> () {
    %v = llvm.load %i : !llvm.ptr -> i32
    %c = arith.cmpi slt, %v, %n : i32
    scf.condition(%c)
  } do {
    %v = llvm.load %i : !llvm.ptr -> i32
    %e = arith.extsi %v : i32 to i64
    %g = llvm.getelementptr %p[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %x = llvm.load %g : !llvm.ptr -> f32
    %a = llvm.load %s : !llvm.ptr -> f32
    %b = arith.addf %a, %x : f32
    llvm.store %b, %s : f32, !llvm.ptr
    %c1 = arith.constant 1 : i32
    %w = arith.addi %v, %c1 : i32
    llvm.store %w, %i : i32, !llvm.ptr
    scf.yield
  }
  %r = llvm.load %s : !llvm.ptr -> f32
  return %r : f32
}

// -----

// A slot stored in one branch and read after the if: a result of the if,
// the else branch yielding the value from before. A slot only read inside
// needs nothing.
// CHECK-LABEL: func.func @branch
// CHECK-NOT: llvm.alloca
// CHECK: %[[R:.+]] = scf.if %arg0 -> (i32) {
// CHECK:   %[[T:.+]] = arith.addi %arg1, %arg1 : i32
// CHECK:   scf.yield %[[T]] : i32
// CHECK: } else {
// CHECK:   scf.yield %arg1 : i32
// CHECK: }
// CHECK: return %[[R]] : i32
func.func @branch(%c: i1, %x: i32) -> i32 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %slot = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  llvm.store %x, %slot : i32, !llvm.ptr
  scf.if %c {
    %v = llvm.load %slot : !llvm.ptr -> i32
    %d = arith.addi %v, %v : i32
    llvm.store %d, %slot : i32, !llvm.ptr
  }
  %r = llvm.load %slot : !llvm.ptr -> i32
  return %r : i32
}

// -----

// A slot written before it is read in every iteration (a temporary of the
// body) is not carried: the while keeps no values. Nor is a slot whose value
// is not read after a loop that stores it.
// CHECK-LABEL: func.func @temporary
// CHECK-NOT: llvm.alloca
// CHECK: scf.while : () -> () {
// CHECK: llvm.store %{{.+}}, %arg1 : i32, !llvm.ptr
func.func @temporary(%c: i1, %out: !llvm.ptr) {
  %one = llvm.mlir.constant(1 : i64) : i64
  %tmp = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    %k = arith.constant 7 : i32
    llvm.store %k, %tmp : i32, !llvm.ptr
    %v = llvm.load %tmp : !llvm.ptr -> i32
    llvm.store %v, %out : i32, !llvm.ptr
    scf.yield
  }
  return
}

// -----

// A counter carried through a while loop that holds a barrier is promoted
// too (the interchange keeps it a scalar if it is uniform, else gives it
// back to a per-thread slot: UniformLoops.h). A slot stored in an scf.if
// holding a barrier and read after it stays memory. The slot only read in
// the loop is promoted.
// CHECK-LABEL: func.func @barrier_loop
// CHECK: %[[F:.+]] = llvm.alloca %{{.+}} x i32
// CHECK-NOT: llvm.alloca
// CHECK: scf.while (%[[I:.+]] = %{{.+}}) : (i32) -> i32
// CHECK: tessel.barrier
// CHECK: llvm.store %arg1, %arg2
// CHECK: scf.yield %{{.+}} : i32
// CHECK: scf.if %arg3 {
// CHECK: tessel.barrier
// CHECK: llvm.store %{{.+}}, %[[F]]
// CHECK: llvm.load %[[F]]
func.func @barrier_loop(%n: i32, %x: i32, %out: !llvm.ptr, %c: i1) {
  %one = llvm.mlir.constant(1 : i64) : i64
  %i = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %k = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %f = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  llvm.store %x, %k : i32, !llvm.ptr
  %c0 = arith.constant 0 : i32
  llvm.store %c0, %i : i32, !llvm.ptr
  scf.while : () -> () {
    %v = llvm.load %i : !llvm.ptr -> i32
    %cc = arith.cmpi slt, %v, %n : i32
    scf.condition(%cc)
  } do {
    tessel.barrier
    %kv = llvm.load %k : !llvm.ptr -> i32
    llvm.store %kv, %out : i32, !llvm.ptr
    %v = llvm.load %i : !llvm.ptr -> i32
    %c1 = arith.constant 1 : i32
    %w = arith.addi %v, %c1 : i32
    llvm.store %w, %i : i32, !llvm.ptr
    scf.yield
  }
  llvm.store %x, %f : i32, !llvm.ptr
  scf.if %c {
    tessel.barrier
    llvm.store %n, %f : i32, !llvm.ptr
  }
  %fv = llvm.load %f : !llvm.ptr -> i32
  llvm.store %fv, %out : i32, !llvm.ptr
  return
}

// -----

// Slots whose address is used otherwise (an element of an array, passed to
// a call) stay memory. A slot read before any store reads zero.
// CHECK-LABEL: func.func @escapes
// CHECK: %[[ARR:.+]] = llvm.alloca %{{.+}} x !llvm.array<4 x i32>
// CHECK: %[[P:.+]] = llvm.alloca %{{.+}} x i32
// CHECK: call @use(%[[P]])
// CHECK: %[[Z:.+]] = llvm.mlir.zero : i32
// CHECK: return %[[Z]] : i32
func.func private @use(!llvm.ptr)
func.func @escapes() -> i32 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %arr = llvm.alloca %one x !llvm.array<4 x i32> : (i64) -> !llvm.ptr
  %p = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %u = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %e = llvm.getelementptr %arr[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i32>
  %c5 = arith.constant 5 : i32
  llvm.store %c5, %e : i32, !llvm.ptr
  func.call @use(%p) : (!llvm.ptr) -> ()
  %r = llvm.load %u : !llvm.ptr -> i32
  return %r : i32
}

// -----

// scf.for: a slot updated in the body becomes an iteration argument.
// CHECK-LABEL: func.func @for_loop
// CHECK-NOT: llvm.alloca
// CHECK: %[[R:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[A:.+]] = %arg0) -> (i32)
// CHECK:   %[[N:.+]] = arith.muli %[[A]], %[[A]] : i32
// CHECK:   scf.yield %[[N]] : i32
// CHECK: return %[[R]] : i32
func.func @for_loop(%x: i32) -> i32 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %slot = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  llvm.store %x, %slot : i32, !llvm.ptr
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  scf.for %iv = %lb to %ub step %st {
    %v = llvm.load %slot : !llvm.ptr -> i32
    %m = arith.muli %v, %v : i32
    llvm.store %m, %slot : i32, !llvm.ptr
  }
  %r = llvm.load %slot : !llvm.ptr -> i32
  return %r : i32
}

// -----

// `MIN(a, b)` on two locals, `(a <= b ? a : b)` read as an lvalue: a load
// through a select of the two slots becomes a select of two loads, and both
// slots are promoted.
// CHECK-LABEL: func.func @min_of_locals
// CHECK-NOT: llvm.alloca
// CHECK: %[[C:.+]] = arith.cmpi sle, %arg0, %arg1 : i32
// CHECK: %[[M:.+]] = arith.select %[[C]], %arg0, %arg1 : i32
// CHECK: return %[[M]] : i32
func.func @min_of_locals(%x: i32, %y: i32) -> i32 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %a = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %b = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  llvm.store %x, %a : i32, !llvm.ptr
  llvm.store %y, %b : i32, !llvm.ptr
  %va = llvm.load %a : !llvm.ptr -> i32
  %vb = llvm.load %b : !llvm.ptr -> i32
  %c = arith.cmpi sle, %va, %vb : i32
  %p = arith.select %c, %a, %b : !llvm.ptr
  %m = llvm.load %p : !llvm.ptr -> i32
  return %m : i32
}

// -----

// A select of slots whose result is stored through (an lvalue written)
// stays memory: nothing is promoted.
// CHECK-LABEL: func.func @store_through_select
// CHECK-COUNT-2: llvm.alloca
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : !llvm.ptr
func.func @store_through_select(%x: i32, %c: i1) -> i32 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %a = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %b = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  llvm.store %x, %a : i32, !llvm.ptr
  llvm.store %x, %b : i32, !llvm.ptr
  %p = arith.select %c, %a, %b : !llvm.ptr
  llvm.store %x, %p : i32, !llvm.ptr
  %r = llvm.load %a : !llvm.ptr -> i32
  return %r : i32
}
