// RUN: tessel-opt %s --tessel-form-dispatches="fuse-primitives=true" --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-form-dispatches --split-input-file | FileCheck %s --check-prefix=NOFUSE

// Stream compaction into an empty destination: the predicate (producer),
// the exclusive scan, the destination generic (consumer) and the scatter
// are one dispatch with fuse-primitives, four without. The count (the
// scan's total) and the scatter's result leave it.
// CHECK-LABEL: func.func private @compact_dispatch_0
// CHECK-SAME: -> (tensor<i32>, tensor<1001xf32>)
// CHECK: linalg.generic
// CHECK: tessel.scan
// CHECK: linalg.generic
// CHECK: tessel.scatter
// CHECK-NOT: func.func private @compact_dispatch_1
// CHECK-LABEL: func.func @compact
// CHECK-COUNT-1: tessel.dispatch
// CHECK-NEXT: return
// NOFUSE-LABEL: func.func @compact
// NOFUSE-COUNT-4: tessel.dispatch
#id = affine_map<(i) -> (i)>
func.func @compact(%x: tensor<1001xf32>) -> (tensor<1001xf32>, tensor<i32>) {
  %e = tensor.empty() : tensor<1001xi32>
  %zero = arith.constant 0.0 : f32
  %flags = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1001xf32>) outs(%e : tensor<1001xi32>) {
  ^bb0(%v: f32, %o: i32):
    %p = arith.cmpf ogt, %v, %zero : f32
    %f = arith.extui %p : i1 to i32
    linalg.yield %f : i32
  } -> tensor<1001xi32>
  %c0 = arith.constant 0 : i32
  %a0 = tensor.empty() : tensor<i32>
  %a = linalg.fill ins(%c0 : i32) outs(%a0 : tensor<i32>) -> tensor<i32>
  %pos:2 = tessel.scan dimension(0) inclusive(false)
      ins(%flags : tensor<1001xi32>) outs(%e, %a : tensor<1001xi32>, tensor<i32>) {
    ^bb0(%l: i32, %v: i32):
      %s = arith.addi %l, %v : i32
      tessel.yield %s : i32
  } -> tensor<1001xi32>, tensor<i32>
  %skip = arith.constant 1001 : i32
  %dest = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%flags, %pos#0 : tensor<1001xi32>, tensor<1001xi32>) outs(%e : tensor<1001xi32>) {
  ^bb0(%f: i32, %p: i32, %o: i32):
    %sel = arith.cmpi ne, %f, %c0 : i32
    %d = arith.select %sel, %p, %skip : i32
    linalg.yield %d : i32
  } -> tensor<1001xi32>
  %o0 = tensor.empty() : tensor<1001xf32>
  %out = tessel.scatter dimension_map = [0] unique_indices(true)
      ins(%x, %dest : tensor<1001xf32>, tensor<1001xi32>)
      outs(%o0 : tensor<1001xf32>) {
    ^bb0(%u: f32, %cur: f32):
      tessel.yield %u : f32
  } -> tensor<1001xf32>
  return %out, %pos#1 : tensor<1001xf32>, tensor<i32>
}

// -----

// A scatter into a filled destination stays its own dispatch (the
// original must be in place before any update lands); the predicate, the
// scan and the positions still fuse, and the positions leave the dispatch.
// CHECK-LABEL: func.func private @filled_dispatch_0
// CHECK-SAME: -> tensor<1001xi32>
// CHECK: linalg.generic
// CHECK: tessel.scan
// CHECK: linalg.generic
// CHECK-NOT: tessel.scatter
// CHECK-LABEL: func.func private @filled_dispatch_1
// CHECK: tessel.scatter
#id = affine_map<(i) -> (i)>
func.func @filled(%x: tensor<1001xf32>) -> tensor<1001xf32> {
  %e = tensor.empty() : tensor<1001xi32>
  %zero = arith.constant 0.0 : f32
  %flags = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1001xf32>) outs(%e : tensor<1001xi32>) {
  ^bb0(%v: f32, %o: i32):
    %p = arith.cmpf ogt, %v, %zero : f32
    %f = arith.extui %p : i1 to i32
    linalg.yield %f : i32
  } -> tensor<1001xi32>
  %c0 = arith.constant 0 : i32
  %a0 = tensor.empty() : tensor<i32>
  %a = linalg.fill ins(%c0 : i32) outs(%a0 : tensor<i32>) -> tensor<i32>
  %pos:2 = tessel.scan dimension(0) inclusive(false)
      ins(%flags : tensor<1001xi32>) outs(%e, %a : tensor<1001xi32>, tensor<i32>) {
    ^bb0(%l: i32, %v: i32):
      %s = arith.addi %l, %v : i32
      tessel.yield %s : i32
  } -> tensor<1001xi32>, tensor<i32>
  %skip = arith.constant 1001 : i32
  %dest = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%flags, %pos#0 : tensor<1001xi32>, tensor<1001xi32>) outs(%e : tensor<1001xi32>) {
  ^bb0(%f: i32, %p: i32, %o: i32):
    %sel = arith.cmpi ne, %f, %c0 : i32
    %d = arith.select %sel, %p, %skip : i32
    linalg.yield %d : i32
  } -> tensor<1001xi32>
  %o0 = tensor.empty() : tensor<1001xf32>
  %out0 = linalg.fill ins(%zero : f32) outs(%o0 : tensor<1001xf32>) -> tensor<1001xf32>
  %out = tessel.scatter dimension_map = [0] unique_indices(true)
      ins(%x, %dest : tensor<1001xf32>, tensor<1001xi32>)
      outs(%out0 : tensor<1001xf32>) {
    ^bb0(%u: f32, %cur: f32):
      tessel.yield %u : f32
  } -> tensor<1001xf32>
  return %out : tensor<1001xf32>
}

// -----

// Left alone: a producer reading a constant tensor (not memory a kernel
// can stream), a producer also used before the scan, and a scan along an
// outer dimension: six dispatches.
// CHECK-LABEL: func.func @apart
// CHECK-COUNT-6: tessel.dispatch
// CHECK-NEXT: return
#id2 = affine_map<(i, j) -> (i, j)>
func.func @apart(%x: tensor<3x501xf32>) -> (tensor<3x501xf32>, tensor<3x501xf32>, tensor<3x501xf32>, tensor<3x501xf32>) {
  %e = tensor.empty() : tensor<3x501xf32>
  %a = tensor.empty() : tensor<3xf32>
  %k = arith.constant dense<2.0> : tensor<3x501xf32>
  %p1 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %k : tensor<3x501xf32>, tensor<3x501xf32>) outs(%e : tensor<3x501xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %m = arith.mulf %v, %w : f32
    linalg.yield %m : f32
  } -> tensor<3x501xf32>
  %s1:2 = tessel.scan dimension(1) inclusive(true)
      ins(%p1 : tensor<3x501xf32>) outs(%e, %a : tensor<3x501xf32>, tensor<3xf32>) {
    ^bb0(%l: f32, %v: f32):
      %r = arith.addf %l, %v : f32
      tessel.yield %r : f32
  } -> tensor<3x501xf32>, tensor<3xf32>
  %p2 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x501xf32>) outs(%e : tensor<3x501xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %v : f32
    linalg.yield %m : f32
  } -> tensor<3x501xf32>
  %early = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%p2 : tensor<3x501xf32>) outs(%e : tensor<3x501xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.negf %v : f32
    linalg.yield %m : f32
  } -> tensor<3x501xf32>
  %s2:2 = tessel.scan dimension(1) inclusive(true)
      ins(%p2 : tensor<3x501xf32>) outs(%e, %a : tensor<3x501xf32>, tensor<3xf32>) {
    ^bb0(%l: f32, %v: f32):
      %r = arith.addf %l, %v : f32
      tessel.yield %r : f32
  } -> tensor<3x501xf32>, tensor<3xf32>
  %a0 = tensor.empty() : tensor<501xf32>
  %s3:2 = tessel.scan dimension(0) inclusive(true)
      ins(%x : tensor<3x501xf32>) outs(%e, %a0 : tensor<3x501xf32>, tensor<501xf32>) {
    ^bb0(%l: f32, %v: f32):
      %r = arith.addf %l, %v : f32
      tessel.yield %r : f32
  } -> tensor<3x501xf32>, tensor<501xf32>
  return %s1#0, %early, %s2#0, %s3#0 : tensor<3x501xf32>, tensor<3x501xf32>, tensor<3x501xf32>, tensor<3x501xf32>
}
