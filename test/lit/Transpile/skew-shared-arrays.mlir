// RUN: tessel-opt %s --tessel-skew-shared-arrays --split-input-file | FileCheck %s

// nw's tile after fission: a copy loop writes ref[ty][tx] (16 rows of a
// contiguous thread row each), then a wavefront of 16 steps reads
// temp[m - tx][tx], temp[m - tx + 1][tx], temp[m - tx][tx + 1],
// ref[m - tx][tx] and writes temp[m - tx + 1][tx + 1], and one of 15 steps
// (the lower triangle, cut short here) reads ref[15 - tx][tx + 15 - m] and
// writes temp[16 - tx][tx + 16 - m]: row stride - 1 across threads, gathers
// in the row-major tiles. Skewed, a[r][c] is at a'[r + c][c] (17 + 17 - 1
// rows): the wavefront's accesses are contiguous. temp is skewed; ref is
// not: its 31 diagonal loads cost less than its copy's 16 stores would as
// scatters (2 each), so the copy stays contiguous.
// CHECK-LABEL: func.func @wavefront
// CHECK-DAG: %[[TEMP:.+]] = llvm.alloca %{{.+}} x !llvm.array<33 x array<17 x i32>>
// CHECK-DAG: %[[REF:.+]] = llvm.alloca %{{.+}} x !llvm.array<16 x array<16 x i32>>
// CHECK-NOT: llvm.alloca
// The copy: ref[ty][tx], as it was.
// CHECK: %[[RP:.+]] = llvm.getelementptr %[[REF]][%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<16 x i32>
// CHECK: %[[EP:.+]] = llvm.getelementptr %[[RP]][%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK: llvm.store %{{.+}}, %[[EP]] : i32, !llvm.ptr
// CHECK: } {tessel.cuda_threads}
// The wavefront's store: temp'[(m - tx + 1) + (tx + 1)][tx + 1].
// CHECK: scf.for
// CHECK: scf.parallel
// CHECK-COUNT-4: llvm.load
// CHECK: %[[WP:.+]] = llvm.getelementptr inbounds %[[TEMP]][%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x i32>
// CHECK: llvm.getelementptr inbounds %[[WP]]
// CHECK: llvm.store
// CHECK: } {tessel.cuda_threads}
func.func @wavefront(%gx: index, %X: index, %g: !llvm.ptr, %p: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1 : i32
  %one64 = arith.constant 1 : i64
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %n1 = llvm.mlir.constant(1 : i64) : i64
    %temp = llvm.alloca %n1 x !llvm.array<17 x array<17 x i32>> {alignment = 16 : i64} : (i64) -> !llvm.ptr
    %ref = llvm.alloca %n1 x !llvm.array<16 x array<16 x i32>> {alignment = 16 : i64} : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      scf.for %ty = %c0 to %c16 step %c1 {
        %y = arith.index_castui %ty : index to i64
        %gp = llvm.getelementptr %g[%y] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %v = llvm.load %gp : !llvm.ptr -> i32
        %row = llvm.getelementptr %ref[%y] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<16 x i32>
        %e = llvm.getelementptr %row[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        llvm.store %v, %e : i32, !llvm.ptr
      }
      scf.reduce
    } {tessel.cuda_threads}
    scf.for %m = %c0 to %c16 step %c1 {
      %m32 = arith.index_castui %m : index to i32
      %mp1 = arith.addi %m32, %one overflow<nsw> : i32
      %ub = arith.index_castui %mp1 : i32 to index
      scf.parallel (%tx) = (%c0) to (%ub) step (%c1) {
        %t = arith.index_castui %tx : index to i32
        %x = arith.addi %t, %one overflow<nsw> : i32
        %d = arith.subi %m32, %t overflow<nsw> : i32
        %y = arith.addi %d, %one overflow<nsw> : i32
        %x64 = arith.extsi %x : i32 to i64
        %y64 = arith.extsi %y : i32 to i64
        %xm = arith.subi %x64, %one64 overflow<nsw> : i64
        %ym = arith.subi %y64, %one64 overflow<nsw> : i64
        %r0 = llvm.getelementptr %temp[%ym] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x i32>
        %a = llvm.getelementptr %r0[%xm] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %av = llvm.load %a : !llvm.ptr -> i32
        %r1 = llvm.getelementptr %temp[%y64] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x i32>
        %b = llvm.getelementptr %r1[%xm] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %bv = llvm.load %b : !llvm.ptr -> i32
        %c = llvm.getelementptr %r0[%x64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %cv = llvm.load %c : !llvm.ptr -> i32
        %rr = llvm.getelementptr %ref[%ym] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<16 x i32>
        %re = llvm.getelementptr %rr[%xm] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %rv = llvm.load %re : !llvm.ptr -> i32
        %s0 = arith.addi %av, %rv : i32
        %s1 = arith.subi %bv, %p : i32
        %s2 = arith.subi %cv, %p : i32
        %m0 = arith.maxsi %s0, %s1 : i32
        %m1 = arith.maxsi %m0, %s2 : i32
        %w = llvm.getelementptr %r1[%x64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        llvm.store %m1, %w : i32, !llvm.ptr
        scf.reduce
      } {tessel.cuda_threads}
    }
    %c15 = arith.constant 15 : index
    scf.for %k = %c0 to %c15 step %c1 {
      %k32 = arith.index_castui %k : index to i32
      %c14 = arith.constant 14 : i32
      %c16i = arith.constant 16 : i32
      %m32 = arith.subi %c14, %k32 overflow<nsw> : i32
      %mp1 = arith.addi %m32, %one overflow<nsw> : i32
      %ub = arith.index_castui %mp1 : i32 to index
      scf.parallel (%tx) = (%c0) to (%ub) step (%c1) {
        %t = arith.index_castui %tx : index to i32
        %o = arith.subi %c16i, %m32 overflow<nsw> : i32
        %x = arith.addi %t, %o overflow<nsw> : i32
        %y = arith.subi %c16i, %t overflow<nsw> : i32
        %x64 = arith.extsi %x : i32 to i64
        %y64 = arith.extsi %y : i32 to i64
        %xm = arith.subi %x64, %one64 overflow<nsw> : i64
        %ym = arith.subi %y64, %one64 overflow<nsw> : i64
        %rr = llvm.getelementptr %ref[%ym] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<16 x i32>
        %re = llvm.getelementptr %rr[%xm] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %rv = llvm.load %re : !llvm.ptr -> i32
        %r1 = llvm.getelementptr %temp[%y64] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x i32>
        %w = llvm.getelementptr %r1[%x64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        llvm.store %rv, %w : i32, !llvm.ptr
        scf.reduce
      } {tessel.cuda_threads}
    }
    // temp[0][0], with both GEPs folded away, and temp[0][3].
    %z = arith.constant 0 : i32
    llvm.store %z, %temp : i32, !llvm.ptr
    %t03 = llvm.getelementptr %temp[3] : (!llvm.ptr) -> !llvm.ptr, i32
    llvm.store %z, %t03 : i32, !llvm.ptr
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// The folded corner accesses: temp'[0 + 0][0] and temp'[0 + 2][2].
// CHECK-LABEL: func.func @corners
// CHECK: %[[TEMP:.+]] = llvm.alloca %{{.+}} x !llvm.array<5 x array<3 x i32>>
// CHECK: %[[Z0:.+]] = arith.constant 0 : i64
// CHECK: %[[Z1:.+]] = arith.constant 0 : i64
// CHECK: %[[S:.+]] = arith.addi %[[Z0]], %[[Z1]]
// CHECK: %[[R:.+]] = llvm.getelementptr inbounds %[[TEMP]][%[[S]]]
// CHECK: %[[E:.+]] = llvm.getelementptr inbounds %[[R]][%[[Z1]]]
// CHECK: llvm.store %{{.+}}, %[[E]]
// CHECK: %[[C2:.+]] = arith.constant 2 : i64
// CHECK: arith.addi %{{.+}}, %[[C2]]
// CHECK: llvm.store
func.func @corners(%gx: index, %X: index, %v: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %n1 = llvm.mlir.constant(1 : i64) : i64
    %temp = llvm.alloca %n1 x !llvm.array<3 x array<3 x i32>> : (i64) -> !llvm.ptr
    llvm.store %v, %temp : i32, !llvm.ptr
    %t02 = llvm.getelementptr %temp[2] : (!llvm.ptr) -> !llvm.ptr, i32
    llvm.store %v, %t02 : i32, !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      // a[2 - tx][tx]: an anti-diagonal, so the array is skewed.
      %t = arith.index_castui %tx : index to i64
      %c2 = arith.constant 2 : i64
      %r = arith.subi %c2, %t overflow<nsw> : i64
      %row = llvm.getelementptr %temp[%r] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<3 x i32>
      %e = llvm.getelementptr %row[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %e : i32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// A main diagonal, a[tx][tx]: stored at a'[r - c + W - 1][c].
// CHECK-LABEL: func.func @main_diagonal
// CHECK: %[[A:.+]] = llvm.alloca %{{.+}} x !llvm.array<15 x array<8 x f32>>
// CHECK: scf.parallel (%[[TX:.+]]) =
// CHECK: %[[T:.+]] = arith.index_castui %[[TX]]
// CHECK: %[[C7:.+]] = arith.constant 7 : i64
// CHECK: %[[D:.+]] = arith.subi %[[T]], %[[T]] overflow<nsw> : i64
// CHECK: %[[R:.+]] = arith.addi %[[D]], %[[C7]] overflow<nsw> : i64
// CHECK: llvm.getelementptr inbounds %[[A]][%[[R]]]
func.func @main_diagonal(%gx: index, %X: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %n1 = llvm.mlir.constant(1 : i64) : i64
    %a = llvm.alloca %n1 x !llvm.array<8 x array<8 x f32>> : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      %row = llvm.getelementptr %a[%t] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x f32>
      %e = llvm.getelementptr %row[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %e : f32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// A transpose through shared memory (tile[ty][tx] written, tile[tx][ty]
// read): skewing would make the contiguous write strided and leave the
// read strided. Kept.
// CHECK-LABEL: func.func @transpose
// CHECK: llvm.alloca %{{.+}} x !llvm.array<16 x array<17 x f32>>
// CHECK-NOT: arith.addi
func.func @transpose(%gx: index, %X: index, %Y: index, %v: f32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %n1 = llvm.mlir.constant(1 : i64) : i64
    %tile = llvm.alloca %n1 x !llvm.array<16 x array<17 x f32>> : (i64) -> !llvm.ptr
    scf.parallel (%tx, %ty) = (%c0, %c0) to (%X, %Y) step (%c1, %c1) {
      %x = arith.index_castui %tx : index to i64
      %y = arith.index_castui %ty : index to i64
      %row = llvm.getelementptr %tile[%y] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
      %e = llvm.getelementptr %row[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %e : f32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    scf.parallel (%tx, %ty) = (%c0, %c0) to (%X, %Y) step (%c1, %c1) {
      %x = arith.index_castui %tx : index to i64
      %y = arith.index_castui %ty : index to i64
      %row = llvm.getelementptr %tile[%x] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f32>
      %e = llvm.getelementptr %row[%y] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %w = llvm.load %e : !llvm.ptr -> f32
      llvm.store %w, %out : f32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// An anti-diagonal walk, and the array is also read flattened (`p =
// (int *)a; p[i]`, which looks the same as a[0][i] with a[0] folded away):
// the flat index is taken apart, element i at a'[i / 4 + i % 4][i % 4].
// CHECK-LABEL: func.func @flattened
// CHECK-SAME: %[[I:[^:]+]]: i64
// CHECK: %[[A:.+]] = llvm.alloca %{{.+}} x !llvm.array<7 x array<4 x i32>>
// CHECK: } {tessel.cuda_threads}
// CHECK: %[[W:.+]] = arith.constant 4 : i64
// CHECK: %[[R:.+]] = arith.divui %[[I]], %[[W]] : i64
// CHECK: %[[C:.+]] = arith.remui %[[I]], %[[W]] : i64
// CHECK: %[[S:.+]] = arith.addi %[[R]], %[[C]] overflow<nsw> : i64
// CHECK: %[[RP:.+]] = llvm.getelementptr inbounds %[[A]][%[[S]]]
// CHECK: %[[EP:.+]] = llvm.getelementptr inbounds %[[RP]][%[[C]]]
// CHECK: llvm.load %[[EP]]
func.func @flattened(%gx: index, %X: index, %i: i64, %v: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %n1 = llvm.mlir.constant(1 : i64) : i64
    %a = llvm.alloca %n1 x !llvm.array<4 x array<4 x i32>> : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      %c3 = arith.constant 3 : i64
      %r = arith.subi %c3, %t overflow<nsw> : i64
      %row = llvm.getelementptr %a[%r] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x i32>
      %e = llvm.getelementptr %row[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %e : i32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    %f = llvm.getelementptr %a[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %w = llvm.load %f : !llvm.ptr -> i32
    llvm.store %w, %out : i32, !llvm.ptr
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// An anti-diagonal walk, but the array's address escapes (passed to a
// call): the remap cannot follow it, so the array is kept.
// CHECK-LABEL: func.func @escapes
// CHECK: llvm.alloca %{{.+}} x !llvm.array<4 x array<4 x i32>>
// CHECK-NOT: arith.addi
llvm.func @use(!llvm.ptr)
func.func @escapes(%gx: index, %X: index, %v: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %n1 = llvm.mlir.constant(1 : i64) : i64
    %a = llvm.alloca %n1 x !llvm.array<4 x array<4 x i32>> : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      %c3 = arith.constant 3 : i64
      %r = arith.subi %c3, %t overflow<nsw> : i64
      %row = llvm.getelementptr %a[%r] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x i32>
      %e = llvm.getelementptr %row[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %e : i32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    llvm.call @use(%a) : (!llvm.ptr) -> ()
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// The tile copy as the importer writes it, `for (ty = 0; ty < 16; ty++)
// a[ty][tx] = ...` (a while loop inside the thread loop; ty a carried
// value, the same for every thread), against one anti-diagonal walk of 16
// steps: 16 strided accesses either way, so the array is kept. (Were ty
// not known to be uniform, the copy would not count and the array would
// be skewed.)
// CHECK-LABEL: func.func @carried_counter
// CHECK: llvm.alloca %{{.+}} x !llvm.array<16 x array<16 x i32>>
// CHECK-NOT: arith.addi %{{.+}} overflow<nsw> : i64
// CHECK: return
func.func @carried_counter(%gx: index, %X: index, %g: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %n1 = llvm.mlir.constant(1 : i64) : i64
    %a = llvm.alloca %n1 x !llvm.array<16 x array<16 x i32>> : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i32
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %n = arith.constant 16 : i32
      %r = scf.while (%ty = %z) : (i32) -> i32 {
        %go = arith.cmpi slt, %ty, %n : i32
        scf.condition(%go) %ty : i32
      } do {
      ^bb0(%ty: i32):
        %y64 = arith.extsi %ty : i32 to i64
        %gp = llvm.getelementptr %g[%y64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %v = llvm.load %gp : !llvm.ptr -> i32
        %x64 = arith.extsi %t : i32 to i64
        %row = llvm.getelementptr %a[%y64] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<16 x i32>
        %e = llvm.getelementptr %row[%x64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        llvm.store %v, %e : i32, !llvm.ptr
        %next = arith.addi %ty, %one overflow<nsw> : i32
        scf.yield %next : i32
      }
      scf.reduce
    } {tessel.cuda_threads}
    scf.for %m = %c0 to %c16 step %c1 {
      scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
        %t = arith.index_castui %tx : index to i64
        %m64 = arith.index_castui %m : index to i64
        %r = arith.subi %m64, %t overflow<nsw> : i64
        %row = llvm.getelementptr %a[%r] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<16 x i32>
        %e = llvm.getelementptr %row[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %v = llvm.load %e : !llvm.ptr -> i32
        llvm.store %v, %g : i32, !llvm.ptr
        scf.reduce
      } {tessel.cuda_threads}
    }
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// The subscripts are redone in i64 from CUDA's int arithmetic (nsw, under
// the frontend's sign extension): a[m - tx][tx] is at a'[(m - tx) + tx][tx]
// with m sign-extended and tx the loop index itself, so that LLVM sees the
// row as the same for every thread and the column as tx.
// CHECK-LABEL: func.func @widened
// CHECK-SAME: %[[M:[^:]+]]: i32
// CHECK: %[[A:.+]] = llvm.alloca %{{.+}} x !llvm.array<15 x array<8 x i32>>
// CHECK: scf.parallel (%[[TX:[^)]+]]) =
// CHECK: %[[M64:.+]] = arith.extsi %[[M]] : i32 to i64
// CHECK: %[[T:.+]] = arith.index_cast %[[TX]] : index to i64
// CHECK: %[[R:.+]] = arith.subi %[[M64]], %[[T]] overflow<nsw> : i64
// CHECK: %[[S:.+]] = arith.addi %[[R]], %[[T]] overflow<nsw> : i64
// CHECK: %[[RP:.+]] = llvm.getelementptr inbounds %[[A]][%[[S]]]
// CHECK: llvm.getelementptr inbounds %[[RP]][%[[T]]]
func.func @widened(%gx: index, %X: index, %m: i32, %v: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %n1 = llvm.mlir.constant(1 : i64) : i64
    %a = llvm.alloca %n1 x !llvm.array<8 x array<8 x i32>> : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i32
      %r = arith.subi %m, %t overflow<nsw> : i32
      %r64 = arith.extsi %r : i32 to i64
      %t64 = arith.extsi %t : i32 to i64
      %row = llvm.getelementptr %a[%r64] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x i32>
      %e = llvm.getelementptr %row[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %e : i32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// A wide band (4 rows of 64) walked along its anti-diagonals: skewed it
// would take 67 rows, more than twice its size on the worker's stack, so
// it is kept.
// CHECK-LABEL: func.func @too_wide
// CHECK: llvm.alloca %{{.+}} x !llvm.array<4 x array<64 x i32>>
// CHECK-NOT: arith.addi
func.func @too_wide(%gx: index, %X: index, %v: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %n1 = llvm.mlir.constant(1 : i64) : i64
    %a = llvm.alloca %n1 x !llvm.array<4 x array<64 x i32>> : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      %c3 = arith.constant 3 : i64
      %r = arith.subi %c3, %t overflow<nsw> : i64
      %row = llvm.getelementptr %a[%r] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x i32>
      %e = llvm.getelementptr %row[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %e : i32, !llvm.ptr
      scf.reduce
    } {tessel.cuda_threads}
    scf.reduce
  } {tessel.cuda_blocks}
  return
}

// -----

// A tile copied in by 16 row stores and read on its anti-diagonals 40
// times: 40 strided loads against 16 scatters (32) once skewed, so it is
// skewed, and the copy becomes the strided side: tile'[ty + tx][tx].
// CHECK-LABEL: func.func @diagonal_reads_outweigh_scatters
// CHECK: %[[T:.+]] = llvm.alloca %{{.+}} x !llvm.array<31 x array<16 x f32>>
// CHECK: %[[R:.+]] = arith.addi %{{.+}}, %[[C:.+]] overflow<nsw> : i64
// CHECK: %[[RP:.+]] = llvm.getelementptr inbounds %[[T]][%[[R]]]
// CHECK: %[[EP:.+]] = llvm.getelementptr inbounds %[[RP]][%[[C]]]
// CHECK: llvm.store %{{.+}}, %[[EP]] : f32, !llvm.ptr
func.func @diagonal_reads_outweigh_scatters(%gx: index, %X: index, %g: !llvm.ptr, %o: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c40 = arith.constant 40 : index
  scf.parallel (%bx) = (%c0) to (%gx) step (%c1) {
    %n1 = llvm.mlir.constant(1 : i64) : i64
    %tile = llvm.alloca %n1 x !llvm.array<16 x array<16 x f32>> {alignment = 16 : i64} : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
      %t = arith.index_castui %tx : index to i64
      scf.for %ty = %c0 to %c16 step %c1 {
        %y = arith.index_castui %ty : index to i64
        %gp = llvm.getelementptr %g[%y] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %gp : !llvm.ptr -> f32
        %row = llvm.getelementptr %tile[%y] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<16 x f32>
        %e = llvm.getelementptr %row[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v, %e : f32, !llvm.ptr
      }
      scf.reduce
    } {tessel.cuda_threads}
    scf.for %m = %c0 to %c40 step %c1 {
      scf.parallel (%tx) = (%c0) to (%X) step (%c1) {
        %t = arith.index_castui %tx : index to i64
        %c15 = arith.constant 15 : i64
        %y = arith.subi %c15, %t overflow<nsw> : i64
        %row = llvm.getelementptr %tile[%y] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<16 x f32>
        %e = llvm.getelementptr %row[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %e : !llvm.ptr -> f32
        %op = llvm.getelementptr %o[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v, %op : f32, !llvm.ptr
        scf.reduce
      } {tessel.cuda_threads}
    }
    scf.reduce
  } {tessel.cuda_blocks}
  return
}
