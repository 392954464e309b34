// RUN: tessel-opt %s --tessel-lower-primitives-to-loops --split-input-file | FileCheck %s

// Inclusive scan along dimension 1: a loop over rows, the first element
// copied, then the running value carried through the row.
// CHECK-LABEL: func.func @scan_rows
// CHECK-SAME: (%[[X:.+]]: memref<3x5xf32>, %[[O:.+]]: memref<3x5xf32>, %[[A:.+]]: memref<3xf32>)
// CHECK: scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step
// CHECK:   %[[FIRST:.+]] = memref.load %[[X]][%[[R]], %{{.+}}]
// CHECK:   memref.store %[[FIRST]], %[[O]][%[[R]], %{{.+}}]
// CHECK:   %[[TOTAL:.+]] = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[FIRST]]) -> (f32)
// CHECK:     %[[V:.+]] = memref.load %[[X]][%[[R]], %[[I]]]
// CHECK:     %[[S:.+]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK:     memref.store %[[S]], %[[O]][%[[R]], %[[I]]]
// CHECK:     scf.yield %[[S]]
// CHECK:   memref.store %[[TOTAL]], %[[A]][%[[R]]]
// CHECK-NOT: tessel.scan
func.func @scan_rows(%x: memref<3x5xf32>, %o: memref<3x5xf32>, %a: memref<3xf32>) {
  tessel.scan dimension(1) inclusive(true) ins(%x : memref<3x5xf32>) outs(%o, %a : memref<3x5xf32>, memref<3xf32>) {
  ^bb0(%l: f32, %v: f32):
    %s = arith.addf %l, %v : f32
    tessel.yield %s : f32
  }
  return
}

// -----

// Exclusive: the seed is the first output, the element before i is
// combined at i, and the total includes the last element.
// CHECK-LABEL: func.func @scan_exclusive
// CHECK: %[[SEED:.+]] = memref.load %{{.+}}[] : memref<i32>
// CHECK: scf.for %[[I:.+]] = {{.+}} iter_args
// CHECK:   %[[PREV:.+]] = arith.subi %[[I]], %{{.+}} : index
// CHECK:   memref.load %{{.+}}[%[[PREV]]]
// CHECK: arith.addi
// CHECK: memref.store %{{.+}}, %{{.+}}[] : memref<i32>
func.func @scan_exclusive(%x: memref<7xi32>, %o: memref<7xi32>, %a: memref<i32>) {
  tessel.scan dimension(0) inclusive(false) ins(%x : memref<7xi32>) outs(%o, %a : memref<7xi32>, memref<i32>) {
  ^bb0(%l: i32, %v: i32):
    %s = arith.addi %l, %v : i32
    tessel.yield %s : i32
  }
  return
}

// -----

// Gather clamps each index into [0, size - 1].
// CHECK-LABEL: func.func @gather
// CHECK: %[[ID:.+]] = memref.load %{{.+}} : memref<3xi32>
// CHECK: %[[IDX:.+]] = arith.index_cast %[[ID]] : i32 to index
// CHECK: %[[C9:.+]] = arith.constant 9 : index
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[LO:.+]] = arith.maxsi %[[IDX]], %[[C0]]
// CHECK: %[[CL:.+]] = arith.minsi %[[LO]], %[[C9]]
// CHECK: memref.load %{{.+}}[%[[CL]], %{{.+}}] : memref<10x4xf32>
func.func @gather(%t: memref<10x4xf32>, %i: memref<3xi32>, %o: memref<3x4xf32>) {
  tessel.gather dimension_map = [0] ins(%t, %i : memref<10x4xf32>, memref<3xi32>) outs(%o : memref<3x4xf32>)
  return
}

// -----

// Scatter skips updates whose index is out of range and combines the rest
// with the current value.
// CHECK-LABEL: func.func @scatter_add
// CHECK: %[[GE:.+]] = arith.cmpi sge
// CHECK: %[[LT:.+]] = arith.cmpi slt
// CHECK: %[[OK:.+]] = arith.andi %[[GE]], %[[LT]]
// CHECK: scf.if %[[OK]]
// CHECK:   %[[U:.+]] = memref.load %{{.+}} : memref<6xi32>
// CHECK:   %[[CUR:.+]] = memref.load %{{.+}} : memref<9xi32>
// CHECK:   %[[SUM:.+]] = arith.addi %[[U]], %[[CUR]]
// CHECK:   memref.store %[[SUM]]
func.func @scatter_add(%u: memref<6xi32>, %i: memref<6x1xi32>, %o: memref<9xi32>) {
  tessel.scatter dimension_map = [0] unique_indices(false) ins(%u, %i : memref<6xi32>, memref<6x1xi32>) outs(%o : memref<9xi32>) {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tessel.yield %c : i32
  }
  return
}

// -----

// Sort: a stable insertion sort; the comparator decides whether element j
// moves before j - 1, and both operands are swapped together.
// CHECK-LABEL: func.func @sort_kv
// CHECK: scf.for
// CHECK:   scf.while
// CHECK:     arith.cmpi slt, %{{.+}}, %{{.+}} : i32
// CHECK:     scf.condition
// CHECK:   do
// CHECK-COUNT-4: memref.store
func.func @sort_kv(%k: memref<8xi32>, %v: memref<8xf32>) {
  tessel.sort dimension(0) outs(%k, %v : memref<8xi32>, memref<8xf32>) {
  ^bb0(%a: i32, %b: i32, %x: f32, %y: f32):
    %c = arith.cmpi slt, %a, %b : i32
    tessel.yield %c : i1
  }
  return
}

// -----

// A sort with radix workspaces (scratch per operand, then counts) is an
// LSD radix sort: per 8-bit pass, zero the 256 counts, count the digits,
// scan the counts into first positions, move each element (key and
// value) to its position in order. i8 keys: one pass (into the scratch
// buffers), then a copy back. Descending signed: the sign bit flips, then
// every bit.
// CHECK-LABEL: func.func @radix_i8_desc
// CHECK-SAME: (%[[K:.+]]: memref<9xi8>, %[[V:.+]]: memref<9xi32>, %[[SK:.+]]: memref<9xi8>, %[[SV:.+]]: memref<9xi32>, %[[C:.+]]: memref<257xi32>)
// CHECK: scf.for
// CHECK:   memref.store %{{.+}}, %[[C]]
// CHECK: scf.for
// CHECK:   memref.load %[[K]]
// CHECK:   arith.xori %{{.+}}, %c-128_i8
// CHECK:   arith.xori %{{.+}}, %c-1_i8
// CHECK:   arith.andi %{{.+}}, %c255_i32
// CHECK: scf.for {{.+}} iter_args
// CHECK: scf.for
// CHECK:   memref.load %[[K]]
// CHECK:   memref.store %{{.+}}, %[[SK]]
// CHECK:   memref.store %{{.+}}, %[[SV]]
// CHECK: scf.for
// CHECK:   memref.load %[[SK]]
// CHECK:   memref.store %{{.+}}, %[[K]]
// CHECK-NOT: tessel.sort
func.func @radix_i8_desc(%k: memref<9xi8>, %v: memref<9xi32>, %sk: memref<9xi8>, %sv: memref<9xi32>, %c: memref<257xi32>) {
  tessel.sort dimension(0) ins(%sk, %sv, %c : memref<9xi8>, memref<9xi32>, memref<257xi32>) outs(%k, %v : memref<9xi8>, memref<9xi32>) {
  ^bb0(%a: i8, %b: i8, %x: i32, %y: i32):
    %cmp = arith.cmpi sgt, %a, %b : i8
    tessel.yield %cmp : i1
  }
  return
}

// -----

// arg_compare carries (best value, best index) through the loop and
// selects with the comparator; the index is offset by index_base.
// CHECK-LABEL: func.func @argmax
// CHECK: scf.for %[[I:.+]] = {{.+}} iter_args(%[[B:.+]] = %{{.+}}, %[[BI:.+]] = %{{.+}}) -> (f32, i32)
// CHECK:   %[[X:.+]] = memref.load
// CHECK:   %[[GT:.+]] = arith.cmpf ogt, %[[X]], %[[B]]
// CHECK:   %[[POS:.+]] = arith.addi %[[I]], %{{.+}} : index
// CHECK:   %[[POS32:.+]] = arith.index_cast %[[POS]] : index to i32
// CHECK:   arith.select %[[GT]], %[[X]], %[[B]]
// CHECK:   arith.select %[[GT]], %[[POS32]], %[[BI]]
func.func @argmax(%x: memref<2x10xf32>, %v: memref<2xf32>, %i: memref<2xi32>, %base: index) {
  tessel.arg_compare dimension(1) ins(%x : memref<2x10xf32>) outs(%v, %i : memref<2xf32>, memref<2xi32>) index_base(%base : index) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    tessel.yield %c : i1
  }
  return
}

// -----

// Top-k: an element enters while fewer than k are kept, or when it goes
// before the last kept one; kept elements it goes before shift down.
// CHECK-LABEL: func.func @topk
// CHECK: scf.for
// CHECK:   %[[FILL:.+]] = arith.cmpi slt
// CHECK:   %[[IN:.+]] = scf.if %[[FILL]] -> (i1)
// CHECK:   } else {
// CHECK:     arith.cmpf ogt
// CHECK:   scf.if %[[IN]]
// CHECK:     scf.while
func.func @topk(%x: memref<2x10xf32>, %v: memref<2x3xf32>, %i: memref<2x3xi32>) {
  tessel.topk dimension(1) ins(%x : memref<2x10xf32>) outs(%v, %i : memref<2x3xf32>, memref<2x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    tessel.yield %c : i1
  }
  return
}
