// RUN: tessel-opt %s --tessel-lower-memref-copy --split-input-file | FileCheck %s

// A copy between identity-layout buffers becomes linalg.copy on the same
// source and target.
// CHECK-LABEL: func.func @contiguous
// CHECK-SAME: (%[[A:.+]]: memref<37x53xf32>, %[[B:.+]]: memref<37x53xf32>)
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%[[A]] : memref<37x53xf32>) outs(%[[B]] : memref<37x53xf32>)
// CHECK-NOT: memref.copy
func.func @contiguous(%a: memref<37x53xf32>, %b: memref<37x53xf32>) {
  memref.copy %a, %b : memref<37x53xf32> to memref<37x53xf32>
  return
}

// -----

// Copies between strided views (what bufferization emits for tile copies)
// keep their layouts; no call to the memrefCopy runtime function remains.
// CHECK-LABEL: func.func @strided
// CHECK: %[[SRC:.+]] = memref.subview %{{.+}}[2, 3] [5, 7] [1, 1]
// CHECK: %[[DST:.+]] = memref.subview %{{.+}}[1, 1] [5, 7] [2, 1]
// CHECK: linalg.copy ins(%[[SRC]] : memref<5x7xf32, strided<[53, 1], offset: 109>>) outs(%[[DST]] : memref<5x7xf32, strided<[106, 1], offset: 54>>)
// CHECK-NOT: memref.copy
// CHECK-NOT: memrefCopy
func.func @strided(%a: memref<37x53xf32>, %b: memref<37x53xf32>) {
  %s = memref.subview %a[2, 3] [5, 7] [1, 1] : memref<37x53xf32> to memref<5x7xf32, strided<[53, 1], offset: 109>>
  %d = memref.subview %b[1, 1] [5, 7] [2, 1] : memref<37x53xf32> to memref<5x7xf32, strided<[106, 1], offset: 54>>
  memref.copy %s, %d : memref<5x7xf32, strided<[53, 1], offset: 109>> to memref<5x7xf32, strided<[106, 1], offset: 54>>
  return
}

// -----

// Every copy in a function is rewritten, including rank-0 and integer ones,
// and ones nested in loops.
// CHECK-LABEL: func.func @several
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.+}} : memref<f32>) outs(%{{.+}} : memref<f32>)
// CHECK: scf.for
// CHECK: linalg.copy ins(%{{.+}} : memref<37xi8>) outs(%{{.+}} : memref<37xi8>)
// CHECK-NOT: memref.copy
func.func @several(%a: memref<f32>, %b: memref<f32>, %c: memref<37xi8>, %d: memref<37xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  memref.copy %a, %b : memref<f32> to memref<f32>
  scf.for %i = %c0 to %c3 step %c1 {
    memref.copy %c, %d : memref<37xi8> to memref<37xi8>
  }
  return
}

// -----

// Existing linalg.copy ops and other ops are left alone.
// CHECK-LABEL: func.func @already_linalg
// CHECK-COUNT-1: linalg.copy
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @already_linalg(%a: memref<37xf32>, %b: memref<37xf32>) {
  linalg.copy ins(%a : memref<37xf32>) outs(%b : memref<37xf32>)
  return
}

// NOTE: memref.copy between *unranked* memrefs is not tested here: the pass
// rewrites it into a linalg.copy on unranked memrefs, which reports no memory
// effects and is then erased as dead by the greedy driver, silently dropping
// the copy (reported as a bug).
