// RUN: tessel-opt %s --tessel-expand-long-sorts=min-length=4 --split-input-file | FileCheck %s

// A sort of 5 elements by two keys (not a radix sort) becomes ceil(log2 5) = 3 merge passes (runs of 1, 2
// and 4), each an all-parallel generic producing every operand, with a
// binary search (scf.while) on the merge path and the comparator cloned in.
// CHECK-LABEL: func.func @kv
// CHECK-SAME: (%[[K:.+]]: tensor<5xi32>, %[[V:.+]]: tensor<5xf32>)
// CHECK: %[[P1:.+]]:2 = linalg.generic {{.+}} iterator_types = ["parallel"]} outs(
// CHECK:   scf.while
// CHECK:     tensor.extract %[[K]]
// CHECK:     arith.cmpi slt
// CHECK:   linalg.yield
// CHECK: %[[P2:.+]]:2 = linalg.generic
// CHECK:   tensor.extract %[[P1]]#0
// CHECK: %[[P3:.+]]:2 = linalg.generic
// CHECK:   tensor.extract %[[P2]]#1
// CHECK-NOT: tessel.sort
// CHECK: return %[[P3]]#0, %[[P3]]#1
func.func @kv(%k: tensor<5xi32>, %v: tensor<5xf32>) -> (tensor<5xi32>, tensor<5xf32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<5xi32>, tensor<5xf32>) {
  ^bb0(%a: i32, %b: i32, %x: f32, %y: f32):
    %lt = arith.cmpi slt, %a, %b : i32
    %eq = arith.cmpi eq, %a, %b : i32
    %vlt = arith.cmpf olt, %x, %y : f32
    %tie = arith.andi %eq, %vlt : i1
    %c = arith.ori %lt, %tie : i1
    tessel.yield %c : i1
  } -> tensor<5xi32>, tensor<5xf32>
  return %r#0, %r#1 : tensor<5xi32>, tensor<5xf32>
}

// -----

// Shorter sorted dimensions keep the op (an insertion sort per thread).
// CHECK-LABEL: func.func @short_rows
// CHECK: tessel.sort dimension(1)
func.func @short_rows(%x: tensor<100x3xf32>) -> tensor<100x3xf32> {
  %r = tessel.sort dimension(1) outs(%x : tensor<100x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf olt, %a, %b : f32
    tessel.yield %c : i1
  } -> tensor<100x3xf32>
  return %r : tensor<100x3xf32>
}

// -----

// A radix sort (one dimension, keys ordered by one < or >, here a
// descending float) stays whole, however long.
// CHECK-LABEL: func.func @radix
// CHECK: tessel.sort dimension(0)
// CHECK-NOT: linalg.generic
func.func @radix(%x: tensor<5000xf32>) -> tensor<5000xf32> {
  %r = tessel.sort dimension(0) outs(%x : tensor<5000xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    tessel.yield %c : i1
  } -> tensor<5000xf32>
  return %r : tensor<5000xf32>
}
