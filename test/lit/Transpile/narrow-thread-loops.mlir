// RUN: tessel-opt %s --tessel-narrow-thread-loops --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-narrow-thread-loops=split-guards=false --split-input-file | FileCheck %s --check-prefix=NOSPLIT

// nw's wavefront step: `if (tx <= m)` with m the uniform step. The thread
// loop runs over tx < min(X, m + 1) and the if goes.
// CHECK-LABEL: func.func @wavefront
// CHECK-SAME: (%[[X:.+]]: index, %[[M:.+]]: i32
// CHECK: %[[M64:.+]] = arith.extsi %[[M]] : i32 to i64
// CHECK: %[[M1:.+]] = arith.addi %[[M64]], %{{.+}} : i64
// CHECK: %[[UB:.+]] = arith.index_cast %[[M1]] : i64 to index
// CHECK: %[[NX:.+]] = arith.minsi %[[X]], %[[UB]] : index
// CHECK: scf.parallel (%[[TX:.+]]) = (%{{.+}}) to (%[[NX]])
// CHECK-NOT: scf.if
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
func.func @wavefront(%X: index, %m: i32, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
    %t = arith.index_castui %tx : index to i32
    %ok = arith.cmpi sle, %t, %m : i32
    scf.if %ok {
      %i = arith.extsi %t : i32 to i64
      %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %m, %q : i32, !llvm.ptr
    }
    scf.reduce
  } {tessel.cuda_threads}
  return
}

// -----

// A bounds check `if (i < n)` with i = base + tx (nsw, as clang emits for
// int): tx < n - base.
// CHECK-LABEL: func.func @bounds_check
// CHECK-SAME: (%[[X:.+]]: index, %[[BASE:.+]]: i32, %[[N:.+]]: i32
// CHECK-DAG: %[[N64:.+]] = arith.extsi %[[N]] : i32 to i64
// CHECK-DAG: %[[B64:.+]] = arith.extsi %[[BASE]] : i32 to i64
// CHECK: %[[D:.+]] = arith.subi %[[N64]], %[[B64]] : i64
// CHECK: %[[UB:.+]] = arith.index_cast %[[D]] : i64 to index
// CHECK: %[[NX:.+]] = arith.minsi %[[X]], %[[UB]] : index
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[NX]])
// CHECK-NOT: scf.if
func.func @bounds_check(%X: index, %base: i32, %n: i32, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
    %t = arith.index_castui %tx : index to i32
    %i = arith.addi %base, %t overflow<nsw> : i32
    %ok = arith.cmpi slt, %i, %n : i32
    scf.if %ok {
      %i64 = arith.extsi %i : i32 to i64
      %q = llvm.getelementptr %p[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      %w = arith.addf %v, %v : f32
      llvm.store %w, %q : f32, !llvm.ptr
    }
    scf.reduce
  } {tessel.cuda_threads}
  return
}

// -----

// Leader code `if (threadIdx.x == 0 && threadIdx.y >= 1 && go)`: x runs
// over [max(0, 0), min(X, 1)), y from max(0, 1) (both folded); the uniform
// flag stays in the if.
// CHECK-LABEL: func.func @leader
// CHECK-SAME: (%[[X:.+]]: index, %[[Y:.+]]: index, %[[GO:.+]]: i1
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[UX:.+]] = arith.minsi %[[X]], %[[C1]] : index
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%[[C0]], %[[C1]]) to (%[[UX]], %[[Y]])
// CHECK: scf.if %[[GO]] {
func.func @leader(%X: index, %Y: index, %go: i1, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  scf.parallel (%tx, %ty) = (%c0, %c0) to (%X, %Y) step (%c1, %c1) {
    %t = arith.index_castui %tx : index to i32
    %u = arith.index_castui %ty : index to i32
    %a = arith.cmpi eq, %t, %z : i32
    %b = arith.cmpi sge, %u, %one : i32
    %ab = arith.andi %a, %b : i1
    %ok = arith.andi %ab, %go : i1
    scf.if %ok {
      llvm.store %u, %p : i32, !llvm.ptr
    }
    scf.reduce
  } {tessel.cuda_threads}
  return
}

// -----

// Not narrowed: an add that may wrap (no nsw), a condition on a loaded
// value.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: arith.minsi
// CHECK: scf.if
// CHECK-NOT: arith.minsi
// CHECK: scf.if
// CHECK-NOT: arith.minsi
func.func @kept(%X: index, %base: i32, %n: i32, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
    %t = arith.index_castui %tx : index to i32
    %i = arith.addi %base, %t : i32
    %ok = arith.cmpi slt, %i, %n : i32
    scf.if %ok {
      llvm.store %i, %p : i32, !llvm.ptr
    }
    scf.reduce
  } {tessel.cuda_threads}
  scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
    %t = arith.index_castui %tx : index to i32
    %i64 = arith.extsi %t : i32 to i64
    %q = llvm.getelementptr %p[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %v = llvm.load %q : !llvm.ptr -> i32
    %ok = arith.cmpi slt, %t, %v : i32
    scf.if %ok {
      llvm.store %n, %q : i32, !llvm.ptr
    }
    scf.reduce
  } {tessel.cuda_threads}
  return
}

// -----

// Split guards: nw's needle_cuda_shared_2 after fission, the tile copy,
// then leader code `if (tx == 0) temp[0][0] = m[nw]`, then the column
// copy, in one thread loop. The guard gets a thread loop of its own
// (narrowed to tx < 1), and the copies around it, loops without a branch.
// Only the thread index and uniform values cross the cuts: the index
// arithmetic is recomputed, nothing is stored per thread (no new alloca).
// CHECK-LABEL: func.func @split_leader
// CHECK-SAME: (%[[G:.+]]: index, %[[X:.+]]: index
// CHECK: llvm.alloca
// CHECK-NOT: llvm.alloca
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[X]])
// CHECK-NOT: scf.if
// CHECK: llvm.load
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
// CHECK: %[[UX:.+]] = arith.minsi %[[X]], %{{.+}} : index
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[UX]])
// CHECK-NOT: scf.if
// CHECK: llvm.load
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
// CHECK: scf.parallel (%[[TX:.+]]) = (%{{.+}}) to (%[[X]])
// CHECK-NOT: scf.if
// CHECK: arith.index_castui %[[TX]]
// CHECK: llvm.load
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: } {tessel.cuda_blocks}
// NOSPLIT-LABEL: func.func @split_leader
// NOSPLIT: scf.parallel
// NOSPLIT: scf.parallel
// NOSPLIT: scf.if
// NOSPLIT: } {tessel.cuda_threads}
// NOSPLIT-NEXT: scf.reduce
// NOSPLIT-NEXT: } {tessel.cuda_blocks}
func.func @split_leader(%G: index, %X: index, %ref: !llvm.ptr, %m: !llvm.ptr,
                        %base: i32, %cols: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %z = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  scf.parallel (%bx) = (%c0) to (%G) step (%c1) {
    %temp = llvm.alloca %one x !llvm.array<17 x i32> : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i32
      %i = arith.addi %base, %t overflow<nsw> : i32
      %i64 = arith.extsi %i : i32 to i64
      %q = llvm.getelementptr %ref[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %v = llvm.load %q : !llvm.ptr -> i32
      %t64 = arith.extsi %t : i32 to i64
      %d = llvm.getelementptr %temp[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %d : i32, !llvm.ptr
      %lead = arith.cmpi eq, %t, %z : i32
      scf.if %lead {
        %w = llvm.load %m : !llvm.ptr -> i32
        llvm.store %w, %temp : i32, !llvm.ptr
      }
      %r = arith.muli %cols, %t overflow<nsw> : i32
      %r64 = arith.extsi %r : i32 to i64
      %mq = llvm.getelementptr %m[%r64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %u = llvm.load %mq : !llvm.ptr -> i32
      %t1 = arith.addi %t, %i1 overflow<nsw> : i32
      %t164 = arith.extsi %t1 : i32 to i64
      %e = llvm.getelementptr %temp[%t164] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %u, %e : i32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// No split where a loaded value crosses the guard (it would be stored per
// thread): the loop keeps its if.
// CHECK-LABEL: func.func @no_split_loaded_value
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: llvm.load
// CHECK: scf.if
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: } {tessel.cuda_blocks}
func.func @no_split_loaded_value(%G: index, %X: index, %p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  scf.parallel (%bx) = (%c0) to (%G) step (%c1) {
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i32
      %t64 = arith.extsi %t : i32 to i64
      %a = llvm.getelementptr %p[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %v = llvm.load %a : !llvm.ptr -> i32
      %lead = arith.cmpi eq, %t, %z : i32
      scf.if %lead {
        llvm.store %z, %q : i32, !llvm.ptr
      }
      %b = llvm.getelementptr %q[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %b : i32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// A store before the guard: with split-guards the guard gets its own loop
// (narrowed); without, the loop keeps its if and its bounds.
// CHECK-LABEL: func.func @store_before_guard
// CHECK-SAME: (%[[X:.+]]: index, %[[N:.+]]: i32
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[X]])
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
// CHECK: %[[UX:.+]] = arith.minsi %[[X]], %{{.+}} : index
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[UX]])
// CHECK-NOT: scf.if
// CHECK: llvm.store %[[N]]
// NOSPLIT-LABEL: func.func @store_before_guard
// NOSPLIT-NOT: arith.minsi
// NOSPLIT: scf.if
// NOSPLIT-NOT: arith.minsi
func.func @store_before_guard(%X: index, %n: i32, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
    %t = arith.index_castui %tx : index to i32
    %i64 = arith.extsi %t : i32 to i64
    %q = llvm.getelementptr %p[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    llvm.store %t, %q : i32, !llvm.ptr
    %ok = arith.cmpi slt, %t, %n : i32
    scf.if %ok {
      llvm.store %n, %p : i32, !llvm.ptr
    }
    scf.reduce
  } {tessel.cuda_threads}
  return
}
