// RUN: tessel-opt %s --tessel-add-primitive-workspaces --tessel-form-dispatches=fuse-primitives=true --tessel-materialize-kernel-abi=abi=pointers --canonicalize --tessel-gpu-select-strategy=print-strategy --tessel-gpu-tile-and-vectorize 2>/dev/null | FileCheck %s
// RUN: tessel-opt %s --tessel-add-primitive-workspaces --tessel-form-dispatches=fuse-primitives=true --tessel-materialize-kernel-abi=abi=pointers --canonicalize --tessel-gpu-select-strategy=print-strategy --tessel-gpu-tile-and-vectorize 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// Stream compaction fused into the look-back scan (Dispatch/ScanGroups.h,
// Grid/GridScan.cpp): x is read once, 128-bit, the predicate evaluated on
// the loaded registers, the flags scanned, and each selected element
// stored from the same registers to its position (an index out of range
// is skipped); the count is the scan's total. No tensor op is left.
// REMARK: remark: kernel compact_dispatch_0: #tessel.strategy<grid_scan>: grid scan: decoupled look-back{{.*}}; fused in registers: its producer, 1 elementwise consumer(s), a scatter of its elements
// CHECK: func.func private @compact_dispatch_0(%{{.+}}: memref<100003xf32>, %{{.+}}: memref<26xi64>, %{{.+}}: memref<1xi64>, %{{.+}}: memref<i32>, %{{.+}}: memref<100003xf32>)
// CHECK-SAME: tessel.workgroup_count = array<i64: 25, 1, 1>
// CHECK: memref.atomic_rmw addi
// CHECK-COUNT-4: vector.load {{.+}} : memref<100003xf32>, vector<4xf32>
// CHECK-NOT: vector.load
// CHECK: scf.while
// CHECK: scf.if
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<100003xf32>
// CHECK-NOT: vector.load
// CHECK-NOT: tessel.scatter
// CHECK-NOT: linalg.generic
// CHECK: return
#id = affine_map<(i) -> (i)>
func.func @compact(%x: tensor<100003xf32>) -> (tensor<100003xf32>, tensor<i32>) {
  %e = tensor.empty() : tensor<100003xi32>
  %zero = arith.constant 0.0 : f32
  %flags = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<100003xf32>) outs(%e : tensor<100003xi32>) {
  ^bb0(%v: f32, %o: i32):
    %p = arith.cmpf ogt, %v, %zero : f32
    %f = arith.extui %p : i1 to i32
    linalg.yield %f : i32
  } -> tensor<100003xi32>
  %c0 = arith.constant 0 : i32
  %a0 = tensor.empty() : tensor<i32>
  %a = linalg.fill ins(%c0 : i32) outs(%a0 : tensor<i32>) -> tensor<i32>
  %pos:2 = tessel.scan dimension(0) inclusive(false)
      ins(%flags : tensor<100003xi32>) outs(%e, %a : tensor<100003xi32>, tensor<i32>) {
    ^bb0(%l: i32, %v: i32):
      %s = arith.addi %l, %v : i32
      tessel.yield %s : i32
  } -> tensor<100003xi32>, tensor<i32>
  %skip = arith.constant 100003 : i32
  %dest = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%flags, %pos#0 : tensor<100003xi32>, tensor<100003xi32>) outs(%e : tensor<100003xi32>) {
  ^bb0(%f: i32, %p: i32, %o: i32):
    %sel = arith.cmpi ne, %f, %c0 : i32
    %d = arith.select %sel, %p, %skip : i32
    linalg.yield %d : i32
  } -> tensor<100003xi32>
  %o0 = tensor.empty() : tensor<100003xf32>
  %out = tessel.scatter dimension_map = [0] unique_indices(true)
      ins(%x, %dest : tensor<100003xf32>, tensor<100003xi32>)
      outs(%o0 : tensor<100003xf32>) {
    ^bb0(%u: f32, %cur: f32):
      tessel.yield %u : f32
  } -> tensor<100003xf32>
  return %out, %pos#1 : tensor<100003xf32>, tensor<i32>
}
