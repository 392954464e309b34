// RUN: tessel-opt %s --tessel-gpu-distribute-to-blocks-and-threads --split-input-file --verify-diagnostics | FileCheck %s

// Inputs are bufferized kernels as tessel-gpu-tile-and-vectorize and the
// bufferization passes leave them (self-copies of tiles included).

// An elementwise kernel (64x256, 4x256 blocks, 1x4 per thread): the 2-D
// block forall becomes gpu.block_id y/x (last dim -> x) and the thread
// forall gpu.thread_id y/x, ivs = lb + id * step; the thread body sits in
// an scf.if (id in range). Grid 1x16x1 (x = 256/256, y = 64/4), block 64x4x1;
// the self-copies left by bufferization are gone.
// CHECK-LABEL: func.func private @ew_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 16, 1>, tessel.workgroup_size = array<i64: 64, 4, 1>
// CHECK-NOT: scf.forall
// CHECK-DAG: %[[BY:.+]] = gpu.block_id y
// CHECK-DAG: %[[BX:.+]] = gpu.block_id x
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[ROW0:.+]] = arith.muli %[[BY]], %[[C4]] : index
// CHECK: %[[ROW:.+]] = arith.addi %{{.+}}, %[[ROW0]] : index
// CHECK: memref.subview %{{.+}}[%[[ROW]], 0] [4, 256] [1, 1]
// CHECK-DAG: %[[TY:.+]] = gpu.thread_id y
// CHECK-DAG: %[[TX:.+]] = gpu.thread_id x
// CHECK: %[[COL0:.+]] = arith.muli %[[TX]], %{{.+}} : index
// CHECK: %[[COL:.+]] = arith.addi %{{.+}}, %[[COL0]] : index
// CHECK: %[[INX:.+]] = arith.cmpi slt, %[[COL]], %{{.+}} : index
// CHECK: %[[IN:.+]] = arith.andi %{{.+}}, %[[INX]] : i1
// CHECK: scf.if %[[IN]] {
// CHECK: math.exp %{{.+}} : vector<1x4xf32>
// CHECK: vector.transfer_write
// CHECK-NEXT: {{^ *[}]$}}
// CHECK-NOT: memref.copy
// CHECK: return
#map = affine_map<()[s0, s1] -> (s0 + s1)>
func.func private @ew_dispatch_0(%arg0: memref<64x256xf32>, %arg1: memref<64x256xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %0 = ub.poison : f32
  %c0 = arith.constant 0 : index
  %assume_align = memref.assume_alignment %arg0, 64 : memref<64x256xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<64x256xf32>
  scf.forall (%arg2, %arg3) = (0, 0) to (64, 256) step (4, 256) {
    %subview = memref.subview %assume_align_0[%arg2, 0] [4, 256] [1, 1] : memref<64x256xf32> to memref<4x256xf32, strided<[256, 1], offset: ?>>
    scf.forall (%arg4, %arg5) = (0, 0) to (4, 256) step (1, 4) {
      %subview_1 = memref.subview %subview[%arg4, %arg5] [1, 4] [1, 1] : memref<4x256xf32, strided<[256, 1], offset: ?>> to memref<1x4xf32, strided<[256, 1], offset: ?>>
      %1 = affine.apply #map()[%arg2, %arg4]
      %2 = vector.transfer_read %assume_align[%1, %arg5], %0 {in_bounds = [true, true]} : memref<64x256xf32>, vector<1x4xf32>
      %3 = math.exp %2 : vector<1x4xf32>
      vector.transfer_write %3, %subview_1[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf32>, memref<1x4xf32, strided<[256, 1], offset: ?>>
      memref.copy %subview_1, %subview_1 : memref<1x4xf32, strided<[256, 1], offset: ?>> to memref<1x4xf32, strided<[256, 1], offset: ?>>
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    memref.copy %subview, %subview : memref<4x256xf32, strided<[256, 1], offset: ?>> to memref<4x256xf32, strided<[256, 1], offset: ?>>
  } {mapping = [#gpu.block<y>, #gpu.block<x>], tessel.workgroups}
  return
}

// -----

// Partial tiles (37x53 in 16x64 blocks): the thread guard compares the row
// id with the dynamic tile height (affine.min), so threads past the tile
// do nothing; the block size is the largest trip count: 14 (ceil(53/4))
// along x, 16 along y. Grid 1x3x1.
// CHECK-LABEL: func.func private @ew_partial_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 3, 1>, tessel.workgroup_size = array<i64: 14, 16, 1>
// CHECK-NOT: scf.forall
// CHECK: %[[H:.+]] = affine.min
// CHECK: %[[TY:.+]] = gpu.thread_id y
// CHECK: %[[R:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK: %[[INY:.+]] = arith.cmpi slt, %[[R]], %[[H]] : index
// CHECK: %[[IN:.+]] = arith.andi %[[INY]], %{{.+}} : i1
// CHECK: scf.if %[[IN]] {
// CHECK: vector.create_mask
// CHECK: vector.transfer_write
// CHECK-NEXT: {{^ *[}]$}}
// CHECK-NOT: memref.copy
#map = affine_map<(d0) -> (-d0 + 37, 16)>
#map1 = affine_map<(d0) -> (-d0 + 53, 4)>
#map2 = affine_map<()[s0, s1] -> (s0 + s1)>
func.func private @ew_partial_dispatch_0(%arg0: memref<37x53xf32>, %arg1: memref<37x53xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %0 = ub.poison : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %assume_align = memref.assume_alignment %arg0, 64 : memref<37x53xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<37x53xf32>
  scf.forall (%arg2, %arg3) = (0, 0) to (37, 53) step (16, 64) {
    %1 = affine.min #map(%arg2)
    %subview = memref.subview %assume_align_0[%arg2, 0] [%1, 53] [1, 1] : memref<37x53xf32> to memref<?x53xf32, strided<[53, 1], offset: ?>>
    scf.forall (%arg4, %arg5) = (0, 0) to (%1, 53) step (1, 4) {
      %2 = affine.min #map1(%arg5)
      %subview_1 = memref.subview %subview[%arg4, %arg5] [1, %2] [1, 1] : memref<?x53xf32, strided<[53, 1], offset: ?>> to memref<1x?xf32, strided<[53, 1], offset: ?>>
      %3 = vector.create_mask %c1, %2 : vector<1x4xi1>
      %4 = affine.apply #map2()[%arg2, %arg4]
      %5 = vector.transfer_read %assume_align[%4, %arg5], %0, %3 {in_bounds = [true, true]} : memref<37x53xf32>, vector<1x4xf32>
      %6 = math.exp %5 : vector<1x4xf32>
      vector.transfer_write %6, %subview_1[%c0, %c0], %3 {in_bounds = [true, true]} : vector<1x4xf32>, memref<1x?xf32, strided<[53, 1], offset: ?>>
      memref.copy %subview_1, %subview_1 : memref<1x?xf32, strided<[53, 1], offset: ?>> to memref<1x?xf32, strided<[53, 1], offset: ?>>
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    memref.copy %subview, %subview : memref<?x53xf32, strided<[53, 1], offset: ?>> to memref<?x53xf32, strided<[53, 1], offset: ?>>
  } {mapping = [#gpu.block<y>, #gpu.block<x>], tessel.workgroups}
  return
}

// -----

// A matmul (128x128, 64x64 blocks, 4x4 per thread): grid 2x2x1, block
// 16x16x1; the K loop and its vector accumulator stay inside the guard.
// CHECK-LABEL: func.func private @matmul_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 2, 2, 1>, tessel.workgroup_size = array<i64: 16, 16, 1>
// CHECK-NOT: scf.forall
// CHECK: gpu.block_id y
// CHECK: gpu.block_id x
// CHECK: gpu.thread_id y
// CHECK: gpu.thread_id x
// CHECK: scf.if %{{.+}} {
// CHECK: scf.for {{.*}} -> (vector<4x4xf32>)
// CHECK: vector.contract
// CHECK: vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {in_bounds = [true, true]} : vector<4x4xf32>, memref<4x4xf32, strided<[128, 1], offset: ?>>
// CHECK-NEXT: {{^ *[}]$}}
// CHECK-NOT: memref.copy
#map = affine_map<()[s0, s1] -> (s0 + s1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @matmul_dispatch_0(%arg0: memref<128x64xf32>, %arg1: memref<64x128xf32>, %arg2: memref<128x128xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant dense<0.000000e+00> : vector<4x4xf32>
  %0 = ub.poison : f32
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %assume_align = memref.assume_alignment %arg0, 64 : memref<128x64xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<64x128xf32>
  %assume_align_1 = memref.assume_alignment %arg2, 64 : memref<128x128xf32>
  scf.forall (%arg3, %arg4) = (0, 0) to (128, 128) step (64, 64) {
    %subview = memref.subview %assume_align_1[%arg3, %arg4] [64, 64] [1, 1] : memref<128x128xf32> to memref<64x64xf32, strided<[128, 1], offset: ?>>
    scf.forall (%arg5, %arg6) = (0, 0) to (64, 64) step (4, 4) {
      %subview_2 = memref.subview %subview[%arg5, %arg6] [4, 4] [1, 1] : memref<64x64xf32, strided<[128, 1], offset: ?>> to memref<4x4xf32, strided<[128, 1], offset: ?>>
      %1 = scf.for %arg7 = %c0 to %c64 step %c4 iter_args(%arg8 = %cst) -> (vector<4x4xf32>) {
        %2 = affine.apply #map()[%arg3, %arg5]
        %3 = vector.transfer_read %assume_align[%2, %arg7], %0 {in_bounds = [true, true]} : memref<128x64xf32>, vector<4x4xf32>
        %4 = affine.apply #map()[%arg4, %arg6]
        %5 = vector.transfer_read %assume_align_0[%arg7, %4], %0 {in_bounds = [true, true]} : memref<64x128xf32>, vector<4x4xf32>
        %6 = vector.contract {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %3, %5, %arg8 : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
        scf.yield %6 : vector<4x4xf32>
      }
      vector.transfer_write %1, %subview_2[%c0, %c0] {in_bounds = [true, true]} : vector<4x4xf32>, memref<4x4xf32, strided<[128, 1], offset: ?>>
      memref.copy %subview_2, %subview_2 : memref<4x4xf32, strided<[128, 1], offset: ?>> to memref<4x4xf32, strided<[128, 1], offset: ?>>
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    memref.copy %subview, %subview : memref<64x64xf32, strided<[128, 1], offset: ?>> to memref<64x64xf32, strided<[128, 1], offset: ?>>
  } {mapping = [#gpu.block<y>, #gpu.block<x>], tessel.workgroups}
  return
}

// -----

// 1-D foralls (a column sum): only x ids; grid 1x1x1, block 64x1x1.
// CHECK-LABEL: func.func private @colsum_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>, tessel.workgroup_size = array<i64: 64, 1, 1>
// CHECK-NOT: gpu.block_id y
// CHECK-NOT: gpu.thread_id y
// CHECK: gpu.block_id x
// CHECK: gpu.thread_id x
// CHECK: scf.if
// CHECK: vector.multi_reduction <add>
func.func private @colsum_dispatch_0(%arg0: memref<64x256xf32>, %arg1: memref<256xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant dense<0.000000e+00> : vector<4xf32>
  %0 = ub.poison : f32
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %assume_align = memref.assume_alignment %arg0, 64 : memref<64x256xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<256xf32>
  scf.forall (%arg2) = (0) to (256) step (256) {
    scf.forall (%arg3) = (0) to (256) step (4) {
      %subview = memref.subview %assume_align_0[%arg3] [4] [1] : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
      %1 = scf.for %arg4 = %c0 to %c64 step %c4 iter_args(%arg5 = %cst) -> (vector<4xf32>) {
        %2 = vector.transfer_read %assume_align[%arg4, %arg3], %0 {in_bounds = [true, true]} : memref<64x256xf32>, vector<4x4xf32>
        %3 = vector.multi_reduction <add>, %2, %arg5 [0] : vector<4x4xf32> to vector<4xf32>
        scf.yield %3 : vector<4xf32>
      }
      vector.transfer_write %1, %subview[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32, strided<[1], offset: ?>>
      memref.copy %subview, %subview : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[1], offset: ?>>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>], tessel.workgroups}
  return
}

// -----

// A 3-D block forall maps z, y, x (last dim -> x): grid 2x3x4 (x = 8/4,
// y = 6/2, z = 4/1), block 4x2x1.
// CHECK-LABEL: func.func private @three_d_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 2, 3, 4>, tessel.workgroup_size = array<i64: 4, 2, 1>
// CHECK-DAG: %[[BZ:.+]] = gpu.block_id z
// CHECK-DAG: %[[BY:.+]] = gpu.block_id y
// CHECK-DAG: %[[BX:.+]] = gpu.block_id x
// CHECK: %[[I:.+]] = arith.muli %[[BZ]], %{{.+}} : index
// CHECK: %[[J:.+]] = arith.muli %[[BY]], %{{.+}} : index
// CHECK: %[[K:.+]] = arith.muli %[[BX]], %{{.+}} : index
// CHECK: scf.if
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] : memref<4x6x8xf32>
func.func private @three_d_dispatch_0(%arg0: memref<4x6x8xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 1.0 : f32
  scf.forall (%i, %j, %k) = (0, 0, 0) to (4, 6, 8) step (1, 2, 4) {
    scf.forall (%a, %b) = (0, 0) to (2, 4) step (1, 1) {
      %x = arith.addi %j, %a : index
      %y = arith.addi %k, %b : index
      memref.store %cst, %arg0[%i, %x, %y] : memref<4x6x8xf32>
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>], tessel.workgroups}
  return
}

// -----

// Sibling thread foralls in one block are separated by a gpu.barrier; the
// block size is the larger trip count (64).
// CHECK-LABEL: func.func private @siblings_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 2, 1, 1>, tessel.workgroup_size = array<i64: 64, 1, 1>
// CHECK: gpu.thread_id x
// CHECK: scf.if
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<64xf32>
// CHECK: gpu.barrier
// CHECK-NEXT: gpu.thread_id x
// CHECK: scf.if
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<32xf32>
// CHECK-NOT: gpu.barrier
func.func private @siblings_dispatch_0(%arg0: memref<64xf32>, %arg1: memref<32xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 1.0 : f32
  scf.forall (%b) = (0) to (2) step (1) {
    scf.forall (%t) = (0) to (64) step (1) {
      memref.store %cst, %arg0[%t] : memref<64xf32>
    } {mapping = [#gpu.thread<x>]}
    scf.forall (%t) = (0) to (32) step (1) {
      memref.store %cst, %arg1[%t] : memref<32xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>], tessel.workgroups}
  return
}

// -----

// A memory write between the block and the thread forall would run in
// every thread of the block: an error naming the op.
func.func private @write_outside_dispatch_0(%arg0: memref<64xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 1.0 : f32
  scf.forall (%b) = (0) to (64) step (16) {
    // expected-error @+1 {{internal error: 'memref.store' would run in every thread of a block (GPU strategy left it outside the thread loop)}}
    memref.store %cst, %arg0[%b] : memref<64xf32>
    scf.forall (%t) = (0) to (16) step (1) {
      %i = arith.addi %b, %t : index
      memref.store %cst, %arg0[%i] : memref<64xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>], tessel.workgroups}
  return
}

// -----

// More than one top-level (block) forall is an error.
// expected-error @+1 {{expected at most one block scf.forall, got 2}}
func.func private @two_blocks_dispatch_0(%arg0: memref<64xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 1.0 : f32
  scf.forall (%b) = (0) to (64) step (1) {
    memref.store %cst, %arg0[%b] : memref<64xf32>
  } {mapping = [#gpu.block<x>]}
  scf.forall (%b) = (0) to (64) step (1) {
    memref.store %cst, %arg0[%b] : memref<64xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A block of more than 1024 threads is an error.
// expected-error @+1 {{block of 64x64x1 threads exceeds 1024}}
func.func private @too_many_threads_dispatch_0(%arg0: memref<64x64xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 1.0 : f32
  scf.forall (%b) = (0) to (1) step (1) {
    scf.forall (%i, %j) = (0, 0) to (64, 64) step (1, 1) {
      memref.store %cst, %arg0[%i, %j] : memref<64x64xf32>
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  } {mapping = [#gpu.block<x>], tessel.workgroups}
  return
}

// -----

// A kernel with no forall (a concat) runs as one thread of one block:
// 1x1x1 grid and block, body unchanged (its real copies stay).
// CHECK-LABEL: func.func private @concat_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>, tessel.workgroup_size = array<i64: 1, 1, 1>
// CHECK-NOT: gpu.block_id
// CHECK-NOT: gpu.thread_id
// CHECK-NOT: scf.if
// CHECK: memref.copy
// CHECK: memref.copy
// CHECK-NEXT: return
func.func private @concat_dispatch_0(%arg0: memref<37x53xf32>, %arg1: memref<37x5xf32>, %arg2: memref<37x58xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %assume_align = memref.assume_alignment %arg0, 64 : memref<37x53xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<37x5xf32>
  %assume_align_1 = memref.assume_alignment %arg2, 64 : memref<37x58xf32>
  %subview = memref.subview %assume_align_1[0, 0] [37, 53] [1, 1] : memref<37x58xf32> to memref<37x53xf32, strided<[58, 1]>>
  memref.copy %assume_align, %subview : memref<37x53xf32> to memref<37x53xf32, strided<[58, 1]>>
  %subview_2 = memref.subview %assume_align_1[0, 53] [37, 5] [1, 1] : memref<37x58xf32> to memref<37x5xf32, strided<[58, 1], offset: 53>>
  memref.copy %assume_align_0, %subview_2 : memref<37x5xf32> to memref<37x5xf32, strided<[58, 1], offset: 53>>
  return
}

// -----

// A kernel that already has gpu ids and sizes (a warp reduction) and no
// forall is left as it is.
// CHECK-LABEL: func.func private @warp_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 8, 1, 1>, tessel.workgroup_size = array<i64: 32, 8, 1>
// CHECK-NEXT: gpu.thread_id x
// CHECK-NOT: gpu.block_id
func.func private @warp_dispatch_0(%arg0: memref<64xf32>) attributes {tessel.dispatch_function, tessel.kernel, tessel.workgroup_count = array<i64: 8, 1, 1>, tessel.workgroup_size = array<i64: 32, 8, 1>} {
  %tx = gpu.thread_id x
  %cst = arith.constant 1.0 : f32
  memref.store %cst, %arg0[%tx] : memref<64xf32>
  return
}
