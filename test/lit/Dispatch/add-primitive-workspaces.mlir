// RUN: tessel-opt %s --tessel-add-primitive-workspaces --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-add-primitive-workspaces --tessel-form-dispatches --split-input-file | FileCheck %s --check-prefix=DISPATCH

// A long single-row scan gets a zero workspace of ceil(n / 4096) + 1 i64
// words as its second input; the fill is marked, and becomes a dispatch of
// its own (not cloned into the scan's).
// CHECK-LABEL: func.func @long_scan
// CHECK: %[[E:.+]] = tensor.empty() : tensor<19xi64>
// CHECK: %[[WS:.+]] = linalg.fill {tessel.workspace = 0 : i64} ins(%{{.+}} : i64) outs(%[[E]] : tensor<19xi64>)
// CHECK: tessel.scan dimension(0) inclusive(true) ins(%{{.+}}, %[[WS]] : tensor<70000xf32>, tensor<19xi64>)
// DISPATCH-LABEL: func.func private @long_scan_dispatch_0
// DISPATCH: linalg.fill {tessel.workspace
// DISPATCH-LABEL: func.func private @long_scan_dispatch_1
// DISPATCH-NOT: linalg.fill {tessel.workspace
// DISPATCH: tessel.scan
// DISPATCH-LABEL: func.func @long_scan
// DISPATCH: %[[WS:.+]] = tessel.dispatch @long_scan_dispatch_0() : () -> tensor<19xi64>
// DISPATCH: tessel.dispatch @long_scan_dispatch_1(%{{.+}}, %[[WS]])
func.func @long_scan(%x: tensor<70000xf32>) -> tensor<70000xf32> {
  %o = tensor.empty() : tensor<70000xf32>
  %a = tensor.empty() : tensor<f32>
  %r:2 = tessel.scan dimension(0) inclusive(true) ins(%x : tensor<70000xf32>) outs(%o, %a : tensor<70000xf32>, tensor<f32>) {
  ^bb0(%l: f32, %v: f32):
    %s = arith.addf %l, %v : f32
    tessel.yield %s : f32
  } -> tensor<70000xf32>, tensor<f32>
  return %r#0 : tensor<70000xf32>
}

// -----

// Two scans get two workspaces that CSE cannot merge (unique values).
// CHECK-LABEL: func.func @two_scans
// CHECK: linalg.fill {tessel.workspace = 0 : i64}
// CHECK: linalg.fill {tessel.workspace = 1 : i64}
func.func @two_scans(%x: tensor<1x70000xi32>) -> (tensor<1x70000xi32>, tensor<1x70000xi32>) {
  %o = tensor.empty() : tensor<1x70000xi32>
  %a = tensor.empty() : tensor<1xi32>
  %r:2 = tessel.scan dimension(1) inclusive(true) ins(%x : tensor<1x70000xi32>) outs(%o, %a : tensor<1x70000xi32>, tensor<1xi32>) {
  ^bb0(%l: i32, %v: i32):
    %s = arith.addi %l, %v : i32
    tessel.yield %s : i32
  } -> tensor<1x70000xi32>, tensor<1xi32>
  %q:2 = tessel.scan dimension(1) inclusive(true) ins(%x : tensor<1x70000xi32>) outs(%o, %a : tensor<1x70000xi32>, tensor<1xi32>) {
  ^bb0(%l: i32, %v: i32):
    %s = arith.maxsi %l, %v : i32
    tessel.yield %s : i32
  } -> tensor<1x70000xi32>, tensor<1xi32>
  return %r#0, %q#0 : tensor<1x70000xi32>, tensor<1x70000xi32>
}

// -----

// Short scans, scans of several rows and scans along an outer dimension
// keep one input (a block per row, or a thread per column, needs none).
// CHECK-LABEL: func.func @no_workspace
// CHECK-NOT: tessel.workspace
func.func @no_workspace(%x: tensor<1000xf32>, %y: tensor<4x70000xf32>) -> (tensor<1000xf32>, tensor<4x70000xf32>) {
  %o = tensor.empty() : tensor<1000xf32>
  %a = tensor.empty() : tensor<f32>
  %r:2 = tessel.scan dimension(0) inclusive(true) ins(%x : tensor<1000xf32>) outs(%o, %a : tensor<1000xf32>, tensor<f32>) {
  ^bb0(%l: f32, %v: f32):
    %s = arith.addf %l, %v : f32
    tessel.yield %s : f32
  } -> tensor<1000xf32>, tensor<f32>
  %o2 = tensor.empty() : tensor<4x70000xf32>
  %a2 = tensor.empty() : tensor<4xf32>
  %q:2 = tessel.scan dimension(1) inclusive(true) ins(%y : tensor<4x70000xf32>) outs(%o2, %a2 : tensor<4x70000xf32>, tensor<4xf32>) {
  ^bb0(%l: f32, %v: f32):
    %s = arith.addf %l, %v : f32
    tessel.yield %s : f32
  } -> tensor<4x70000xf32>, tensor<4xf32>
  return %r#0, %q#0 : tensor<1000xf32>, tensor<4x70000xf32>
}

// -----

// A scatter on tensors gets one i64 zero: the GPU grid barrier's counter.
// CHECK-LABEL: func.func @scatter
// CHECK: %[[WS:.+]] = linalg.fill {tessel.workspace = 0 : i64} ins(%{{.+}} : i64) outs(%{{.+}} : tensor<1xi64>)
// CHECK: tessel.scatter dimension_map = [0] unique_indices(false) ins(%{{.+}}, %{{.+}}, %[[WS]] : tensor<6xf32>, tensor<6xi32>, tensor<1xi64>)
func.func @scatter(%u: tensor<6xf32>, %i: tensor<6xi32>, %o: tensor<9xf32>) -> tensor<9xf32> {
  %s = tessel.scatter dimension_map = [0] unique_indices(false) ins(%u, %i : tensor<6xf32>, tensor<6xi32>) outs(%o : tensor<9xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tessel.yield %c : f32
  } -> tensor<9xf32>
  return %s : tensor<9xf32>
}

// -----

// A radix sort (one dimension, keys ordered by one <) gets a scratch
// buffer per operand and i32 digit counts: a count per bucket and GPU
// block (70001 elements: 35 tiles of 2048, 35 blocks) plus the grid
// barrier's counter. A sort by a comparator that is not one comparison
// gets none.
// CHECK-LABEL: func.func @radix
// CHECK-DAG: %[[SK:.+]] = linalg.fill {tessel.workspace = {{.+}}} ins(%{{.+}} : i32) outs(%{{.+}} : tensor<70001xi32>)
// CHECK-DAG: %[[SV:.+]] = linalg.fill {tessel.workspace = {{.+}}} ins(%{{.+}} : f32) outs(%{{.+}} : tensor<70001xf32>)
// CHECK-DAG: %[[C:.+]] = linalg.fill {tessel.workspace = {{.+}}} ins(%{{.+}} : i32) outs(%{{.+}} : tensor<8961xi32>)
// CHECK: tessel.sort dimension(0) ins(%[[SK]], %[[SV]], %[[C]] : tensor<70001xi32>, tensor<70001xf32>, tensor<8961xi32>) outs(
// CHECK: tessel.sort dimension(0) outs(
func.func @radix(%k: tensor<70001xi32>, %v: tensor<70001xf32>) -> (tensor<70001xi32>, tensor<70001xf32>, tensor<70001xi32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<70001xi32>, tensor<70001xf32>) {
  ^bb0(%a: i32, %b: i32, %x: f32, %y: f32):
    %c = arith.cmpi ult, %a, %b : i32
    tessel.yield %c : i1
  } -> tensor<70001xi32>, tensor<70001xf32>
  %s = tessel.sort dimension(0) outs(%k : tensor<70001xi32>) {
  ^bb0(%a: i32, %b: i32):
    %m = arith.muli %a, %a : i32
    %n = arith.muli %b, %b : i32
    %c = arith.cmpi slt, %m, %n : i32
    tessel.yield %c : i1
  } -> tensor<70001xi32>
  return %r#0, %r#1, %s : tensor<70001xi32>, tensor<70001xf32>, tensor<70001xi32>
}
