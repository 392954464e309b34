// RUN: tessel-opt %s --tessel-sink-thread-loops --split-input-file | FileCheck %s

// nw's tile load, `for (ty = 0; ty < 16; ty++) ref[ty][tx] = g[base + tx +
// cols * ty]`: both accesses move by one element with tx, so the thread
// loop goes inside the (uniform) ty loop and walks rows contiguously.
// CHECK-LABEL: func.func @staging
// CHECK: scf.while
// CHECK: } do {
// CHECK: ^bb0(%[[TY:.+]]: i32):
// CHECK: scf.parallel
// CHECK: llvm.load
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
// CHECK: arith.addi %[[TY]]
// CHECK: scf.yield
func.func @staging(%X: index, %base: i32, %cols: i32, %g: !llvm.ptr, %ref: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
    %t = arith.index_castui %tx : index to i32
    %b = arith.addi %base, %t overflow<nsw> : i32
    %r = scf.while (%ty = %z) : (i32) -> i32 {
      %go = arith.cmpi slt, %ty, %c16 : i32
      scf.condition(%go) %ty : i32
    } do {
    ^bb0(%ty: i32):
      %row = arith.muli %cols, %ty overflow<nsw> : i32
      %i = arith.addi %b, %row overflow<nsw> : i32
      %i64 = arith.extsi %i : i32 to i64
      %p = llvm.getelementptr %g[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %v = llvm.load %p : !llvm.ptr -> i32
      %ty16 = arith.muli %ty, %c16 overflow<nsw> : i32
      %j = arith.addi %ty16, %t overflow<nsw> : i32
      %j64 = arith.extsi %j : i32 to i64
      %q = llvm.getelementptr %ref[%j64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %q : i32, !llvm.ptr
      %next = arith.addi %ty, %one overflow<nsw> : i32
      scf.yield %next : i32
    }
    scf.reduce
  } {tessel.cuda_threads}
  return
}

// -----

// A thread that walks its own row (`out[tx * n + j] = 2 * in[tx * n + j]`):
// contiguous along the loop, not across threads. Kept.
// CHECK-LABEL: func.func @row_per_thread
// CHECK: scf.parallel
// CHECK: scf.while
// CHECK-NOT: scf.parallel
func.func @row_per_thread(%X: index, %n: i32, %in: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
    %t = arith.index_castui %tx : index to i32
    %rowStart = arith.muli %t, %n overflow<nsw> : i32
    %r = scf.while (%j = %z) : (i32) -> i32 {
      %go = arith.cmpi slt, %j, %n : i32
      scf.condition(%go) %j : i32
    } do {
    ^bb0(%j: i32):
      %i = arith.addi %rowStart, %j overflow<nsw> : i32
      %i64 = arith.extsi %i : i32 to i64
      %p = llvm.getelementptr %in[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %w = arith.addf %v, %v : f32
      %q = llvm.getelementptr %out[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %w, %q : f32, !llvm.ptr
      %next = arith.addi %j, %one overflow<nsw> : i32
      scf.yield %next : i32
    }
    scf.reduce
  } {tessel.cuda_threads}
  return
}

// -----

// A store before the loop (`if (tx == 0) corner = ...`) stays in a thread
// loop of its own; the loop then gets the threads inside, with tx's value
// recomputed.
// CHECK-LABEL: func.func @with_header
// CHECK: scf.parallel
// CHECK: scf.if
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
// CHECK: scf.while
// CHECK: } do {
// CHECK: scf.parallel
// CHECK: arith.index_castui
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
// CHECK: scf.yield
func.func @with_header(%X: index, %corner: i32, %dst: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  scf.parallel (%bx) = (%c0) to (%c1) step (%c1) {
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i32
      %first = arith.cmpi eq, %t, %z : i32
      scf.if %first {
        llvm.store %corner, %dst : i32, !llvm.ptr
      }
      %r = scf.while (%ty = %z) : (i32) -> i32 {
        %go = arith.cmpi slt, %ty, %c16 : i32
        scf.condition(%go) %ty : i32
      } do {
      ^bb0(%ty: i32):
        %ty16 = arith.muli %ty, %c16 overflow<nsw> : i32
        %j = arith.addi %ty16, %t overflow<nsw> : i32
        %j64 = arith.extsi %j : i32 to i64
        %q = llvm.getelementptr %dst[%j64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        llvm.store %ty, %q : i32, !llvm.ptr
        %next = arith.addi %ty, %one overflow<nsw> : i32
        scf.yield %next : i32
      }
      scf.reduce
    } {tessel.cuda_threads}
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// hotspot3D's column walk: each thread carries its index (`c += xy`, an
// induction) and the value it loaded last (a rotation) through a uniform z
// loop. The index goes to closed form (c0 + (k - 1) * xy, read after the
// loop too), the loaded value to a per-thread slot, and the thread loop
// moves inside the z loop, which carries only its counter: consecutive
// threads read consecutive elements in each z step.
// CHECK-LABEL: func.func @column
// CHECK-SAME: (%[[X:[^:]+]]: index, %{{[^:]+}}: index, %[[NZ:[^:]+]]: i32, %[[XY:[^:]+]]: i32
// CHECK: %[[SLOT:.+]] = llvm.alloca %{{.+}} x f32
// The first value, per thread, into its slot:
// CHECK: scf.parallel
// CHECK: llvm.load
// CHECK: llvm.store %{{.+}}, %{{.+}} : f32
// CHECK: } {tessel.cuda_threads}
// CHECK: %[[R:.+]] = scf.while (%{{.+}} = %{{.+}}) : (i32) -> i32 {
// CHECK: arith.cmpi slt, %{{.+}}, %[[NZ]] : i32
// CHECK: } do {
// CHECK: ^bb0(%[[K:.+]]: i32):
// CHECK: scf.parallel
// CHECK: %[[PREV:.+]] = llvm.load %{{.+}} : !llvm.ptr -> f32
// CHECK: %[[N:.+]] = arith.subi %[[K]], %{{.+}} : i32
// CHECK: %[[ADV:.+]] = arith.muli %[[N]], %[[XY]] : i32
// CHECK: %[[C:.+]] = arith.addi %{{.+}}, %[[ADV]] : i32
// CHECK: %[[C64:.+]] = arith.extsi %[[C]]
// CHECK: %[[V:.+]] = llvm.load %{{.+}} : !llvm.ptr -> f32
// CHECK: arith.addf %[[V]], %[[PREV]]
// CHECK: llvm.store %[[V]], %{{.+}} : f32, !llvm.ptr
// CHECK: } {tessel.cuda_threads}
// CHECK: scf.yield
// After the loop: c0 + (k_end - 1) * xy.
// CHECK: scf.parallel
// CHECK: arith.subi %[[R]], %{{.+}} : i32
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
func.func @column(%X: index, %gx: index, %nz: i32, %xy: i32, %in: !llvm.ptr, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i32
      %c = arith.addi %t, %xy overflow<nsw> : i32
      %c64 = arith.extsi %c : i32 to i64
      %p0 = llvm.getelementptr %in[%c64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %first = llvm.load %p0 : !llvm.ptr -> f32
      %r:3 = scf.while (%ci = %c, %prev = %first, %k = %one) : (i32, f32, i32) -> (i32, f32, i32) {
        %go = arith.cmpi slt, %k, %nz : i32
        scf.condition(%go) %ci, %prev, %k : i32, f32, i32
      } do {
      ^bb0(%ci: i32, %prev: f32, %k: i32):
        %i64 = arith.extsi %ci : i32 to i64
        %a = llvm.getelementptr %in[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %a : !llvm.ptr -> f32
        %s = arith.addf %v, %prev : f32
        %o = llvm.getelementptr %out[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %s, %o : f32, !llvm.ptr
        %cn = arith.addi %ci, %xy overflow<nsw> : i32
        %kn = arith.addi %k, %one overflow<nsw> : i32
        scf.yield %cn, %v, %kn : i32, f32, i32
      }
      %e64 = arith.extsi %r#0 : i32 to i64
      %oe = llvm.getelementptr %out[%e64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %r#1, %oe : f32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// The loop ends on a per-thread value (`while (c < lim)`): threads run
// different trip counts, so the thread loop stays outside (and the loop
// keeps carrying c: no closed form for a value the condition reads).
// CHECK-LABEL: func.func @per_thread_trip_count
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.while (%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) : (i32, i32) -> (i32, i32)
// CHECK-NOT: scf.parallel
// CHECK: } {tessel.cuda_threads}
func.func @per_thread_trip_count(%X: index, %gx: index, %lim: i32, %xy: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %f = arith.constant 1.0 : f32
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i32
      %r:2 = scf.while (%ci = %t, %k = %one) : (i32, i32) -> (i32, i32) {
        %go = arith.cmpi slt, %ci, %lim : i32
        scf.condition(%go) %ci, %k : i32, i32
      } do {
      ^bb0(%ci: i32, %k: i32):
        %i64 = arith.extsi %ci : i32 to i64
        %o = llvm.getelementptr %out[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %f, %o : f32, !llvm.ptr
        %cn = arith.addi %ci, %xy overflow<nsw> : i32
        %kn = arith.addi %k, %one overflow<nsw> : i32
        scf.yield %cn, %kn : i32, i32
      }
      scf.reduce
    } {tessel.cuda_threads}
    scf.reduce
  } {tessel.cuda_blocks}
  return
}
