// RUN: tessel-opt %s --tessel-gpu-select-strategy --tessel-gpu-tile-and-vectorize --split-input-file | FileCheck %s

// Inputs are kernels in the `pointers` ABI (the output of
// --tessel-materialize-kernel-abi=abi=pointers --canonicalize).

// An elementwise op: a 2-D block scf.forall (mapping gpu.block y, x; marked
// tessel.workgroups) of 4x256 tiles, holding a thread scf.forall (gpu.thread
// y, x) in which each thread owns one 128-bit vector<1x4xf32> along the
// innermost dim: 64 threads along x, 4 rows along y. Full tiles: no masks.
// CHECK-LABEL: func.func private @ew_dispatch_0
// CHECK: scf.forall (%[[BY:.+]], %[[BX:.+]]) = (0, 0) to (64, 256) step (4, 256) shared_outs
// CHECK: scf.forall (%[[TY:.+]], %[[TX:.+]]) = (0, 0) to (4, 256) step (1, 4) shared_outs
// CHECK-NOT: vector.mask
// CHECK: %[[V:.+]] = vector.transfer_read {{.*}} {in_bounds = [true, true]} : tensor<64x256xf32>, vector<1x4xf32>
// CHECK-NEXT: %[[E:.+]] = math.exp %[[V]] : vector<1x4xf32>
// CHECK-NEXT: vector.transfer_write %[[E]], {{.*}} : vector<1x4xf32>, tensor<1x4xf32>
// CHECK: tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%[[TY]], %[[TX]]] [1, 4] [1, 1]
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%[[BY]], %[[BX]]] [4, 256] [1, 1]
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>], tessel.workgroups}
// CHECK-NOT: linalg.generic
// CHECK: bufferization.materialize_in_destination
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func private @ew_dispatch_0(%arg0: memref<64x256xf32>, %arg1: memref<64x256xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %assume_align = memref.assume_alignment %arg0, 64 : memref<64x256xf32>
  %0 = bufferization.to_tensor %assume_align restrict : memref<64x256xf32> to tensor<64x256xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<64x256xf32>
  %1 = tensor.empty() : tensor<64x256xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<64x256xf32>) outs(%1 : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = math.exp %in : f32
    linalg.yield %3 : f32
  } -> tensor<64x256xf32>
  bufferization.materialize_in_destination %2 in restrict writable %assume_align_0 : (tensor<64x256xf32>, memref<64x256xf32>) -> ()
  return
}

// -----

// A partial elementwise tile (37x53 in 16x64 blocks): the thread forall
// runs to the dynamic block size and the last thread of a row gets a masked
// vector<1x4xf32> (an op without reductions may be masked).
// CHECK-LABEL: func.func private @ew_partial_dispatch_0
// CHECK: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (37, 53) step (16, 64) shared_outs
// CHECK: %[[H:.+]] = affine.min
// CHECK: %[[W:.+]] = affine.min
// CHECK: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (%[[H]], %[[W]]) step (1, 4) shared_outs
// CHECK: %[[N:.+]] = affine.min
// CHECK: %[[MASK:.+]] = vector.create_mask %{{.+}}, %[[N]] : vector<1x4xi1>
// CHECK: %[[V:.+]] = vector.mask %[[MASK]] { vector.transfer_read {{.*}} : tensor<37x53xf32>, vector<1x4xf32> }
// CHECK: %[[E:.+]] = math.exp %[[V]] : vector<1x4xf32>
// CHECK: vector.mask %[[MASK]] { vector.transfer_write %[[E]]
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>], tessel.workgroups}
// CHECK-NOT: linalg.generic
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func private @ew_partial_dispatch_0(%arg0: memref<37x53xf32>, %arg1: memref<37x53xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %assume_align = memref.assume_alignment %arg0, 64 : memref<37x53xf32>
  %0 = bufferization.to_tensor %assume_align restrict : memref<37x53xf32> to tensor<37x53xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<37x53xf32>
  %1 = tensor.empty() : tensor<37x53xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<37x53xf32>) outs(%1 : tensor<37x53xf32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = math.exp %in : f32
    linalg.yield %3 : f32
  } -> tensor<37x53xf32>
  bufferization.materialize_in_destination %2 in restrict writable %assume_align_0 : (tensor<37x53xf32>, memref<37x53xf32>) -> ()
  return
}

// -----

// An f64 matmul (GPUSharedMemoryMatmul takes f32 only): 64x64 block
// tiles, 4x4 per thread (16x16 threads), K stepped by 4 inside each thread;
// the fill is fused into a zero accumulator that stays in iter_args, and
// each K step is one unmasked 4x4x4 vector.contract.
// CHECK-LABEL: func.func private @matmul_dispatch_0
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<4x4xf64>
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (128, 128) step (64, 64) shared_outs
// CHECK: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (64, 64) step (4, 4) shared_outs
// CHECK: %[[ACC:.+]] = scf.for %{{.+}} = %{{.+}} to %[[C64]] step %[[C4]] iter_args(%[[IT:.+]] = %[[ZERO]]) -> (vector<4x4xf64>)
// CHECK: vector.transfer_read {{.*}} : tensor<128x64xf64>, vector<4x4xf64>
// CHECK: vector.transfer_read {{.*}} : tensor<64x128xf64>, vector<4x4xf64>
// CHECK-NOT: vector.mask
// CHECK: %[[C:.+]] = vector.contract {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}, %[[IT]] : vector<4x4xf64>, vector<4x4xf64> into vector<4x4xf64>
// CHECK-NEXT: scf.yield %[[C]]
// CHECK: vector.transfer_write %[[ACC]], {{.*}} : vector<4x4xf64>, tensor<4x4xf64>
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>], tessel.workgroups}
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.fill
func.func private @matmul_dispatch_0(%arg0: memref<128x64xf64>, %arg1: memref<64x128xf64>, %arg2: memref<128x128xf64>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f64
  %assume_align = memref.assume_alignment %arg0, 64 : memref<128x64xf64>
  %0 = bufferization.to_tensor %assume_align restrict : memref<128x64xf64> to tensor<128x64xf64>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<64x128xf64>
  %1 = bufferization.to_tensor %assume_align_0 restrict : memref<64x128xf64> to tensor<64x128xf64>
  %assume_align_1 = memref.assume_alignment %arg2, 64 : memref<128x128xf64>
  %2 = tensor.empty() : tensor<128x128xf64>
  %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<128x128xf64>) -> tensor<128x128xf64>
  %4 = linalg.matmul ins(%0, %1 : tensor<128x64xf64>, tensor<64x128xf64>) outs(%3 : tensor<128x128xf64>) -> tensor<128x128xf64>
  bufferization.materialize_in_destination %4 in restrict writable %assume_align_1 : (tensor<128x128xf64>, memref<128x128xf64>) -> ()
  return
}

// -----

// An f64 matmul whose N (96) is not a multiple of the 64-wide block: tiles
// are dynamic, so the fill is a masked 4x4 write and each K step is a masked
// 4x4x4 contraction (masked loads of B and of the accumulator; for f32 on
// the GPU that ran 4.2x faster than the scalar linalg.matmul it replaced).
// CHECK-LABEL: func.func private @matmul_partial_dispatch_0
// CHECK: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (128, 96) step (64, 64) shared_outs
// CHECK: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (64, %{{.+}}) step (4, 4) shared_outs
// CHECK: vector.mask %{{.+}} { vector.transfer_write {{.*}} : vector<4x4xf64>, tensor<4x?xf64> }
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (tensor<4x?xf64>)
// CHECK: vector.mask %{{.+}} { vector.transfer_read {{.*}} : tensor<64x96xf64>, vector<4x4x4xf64> }
// CHECK: vector.mask %{{.+}} { vector.contract {{.*}} into vector<4x4xf64> }
// CHECK: vector.mask %{{.+}} { vector.transfer_write {{.*}} : vector<4x4xf64>, tensor<4x?xf64> }
// CHECK-NOT: linalg.matmul
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>], tessel.workgroups}
func.func private @matmul_partial_dispatch_0(%arg0: memref<128x64xf64>, %arg1: memref<64x96xf64>, %arg2: memref<128x96xf64>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f64
  %assume_align = memref.assume_alignment %arg0, 64 : memref<128x64xf64>
  %0 = bufferization.to_tensor %assume_align restrict : memref<128x64xf64> to tensor<128x64xf64>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<64x96xf64>
  %1 = bufferization.to_tensor %assume_align_0 restrict : memref<64x96xf64> to tensor<64x96xf64>
  %assume_align_1 = memref.assume_alignment %arg2, 64 : memref<128x96xf64>
  %2 = tensor.empty() : tensor<128x96xf64>
  %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<128x96xf64>) -> tensor<128x96xf64>
  %4 = linalg.matmul ins(%0, %1 : tensor<128x64xf64>, tensor<64x96xf64>) outs(%3 : tensor<128x96xf64>) -> tensor<128x96xf64>
  bufferization.materialize_in_destination %4 in restrict writable %assume_align_1 : (tensor<128x96xf64>, memref<128x96xf64>) -> ()
  return
}

// -----

// A column sum (reduction along the outer dim): each thread owns four
// output columns and walks the reduced rows sequentially, eight at a time
// (eight independent loads in flight), with the accumulator in iter_args:
// 1-D block and thread foralls (x only).
// CHECK-LABEL: func.func private @colsum_dispatch_0
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: scf.forall (%{{.+}}) = (0) to (256) step (256) shared_outs
// CHECK: scf.forall (%{{.+}}) = (0) to (256) step (4) shared_outs
// CHECK: %[[R:.+]] = scf.for %[[K:.+]] = %{{.+}} to %[[C64]] step %[[C8]] iter_args(%[[IT:.+]] = %[[ZERO]]) -> (vector<4xf32>)
// CHECK: %[[X:.+]] = vector.transfer_read %{{.+}}[%[[K]], %{{.+}}], %{{.+}} {in_bounds = [true, true]} : tensor<64x256xf32>, vector<8x4xf32>
// CHECK: vector.multi_reduction <add>, %[[X]], %[[IT]] [0] : vector<8x4xf32> to vector<4xf32>
// CHECK: vector.transfer_write %[[R]]
// CHECK: } {mapping = [#gpu.thread<x>]}
// CHECK: } {mapping = [#gpu.block<x>], tessel.workgroups}
// CHECK-NOT: gpu.subgroup_reduce
// CHECK-NOT: linalg.generic
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func private @colsum_dispatch_0(%arg0: memref<64x256xf32>, %arg1: memref<256xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %assume_align = memref.assume_alignment %arg0, 64 : memref<64x256xf32>
  %0 = bufferization.to_tensor %assume_align restrict : memref<64x256xf32> to tensor<64x256xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<256xf32>
  %1 = tensor.empty() : tensor<256xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<256xf32>) -> tensor<256xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "parallel"]} ins(%0 : tensor<64x256xf32>) outs(%2 : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = arith.addf %in, %out : f32
    linalg.yield %4 : f32
  } -> tensor<256xf32>
  bufferization.materialize_in_destination %3 in restrict writable %assume_align_0 : (tensor<256xf32>, memref<256xf32>) -> ()
  return
}

// -----

// A 32-bit reduction along the contiguous innermost dim is a warp
// reduction instead: written directly on the memrefs with gpu ids (no
// forall), one warp (32 lanes along x) per row, 8 rows per block; lanes
// load 128-bit vectors at 4 * lane, 4 * lane + 128, ... (the row length
// is a multiple of 4), four loads per iteration of a main loop (512
// columns) and one per iteration of the remainder loop, reduce them in
// order and meet in
// gpu.subgroup_reduce; lane 0 stores. The grid and block sizes are set here.
// CHECK-LABEL: func.func private @rowsum_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 8, 1, 1>, tessel.workgroup_size = array<i64: 32, 8, 1>
// CHECK-NOT: scf.forall
// CHECK-DAG: %[[TY:.+]] = gpu.thread_id y
// CHECK-DAG: %[[TX:.+]] = gpu.thread_id x
// CHECK-DAG: %[[BX:.+]] = gpu.block_id x
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : index
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : index
// CHECK-DAG: %[[C1000:.+]] = arith.constant 1000 : index
// CHECK: %[[FIRST:.+]] = arith.muli %[[TX]], %{{.+}} : index
// CHECK: %[[MAIN:.+]] = scf.for %{{.+}} = %[[FIRST]] to %[[C512]] step %[[C512]] iter_args(%{{.+}} = %{{.+}}) -> (f32)
// CHECK-COUNT-4: vector.load %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<64x1000xf32>, vector<4xf32>
// CHECK-COUNT-16: arith.addf
// CHECK: %[[P:.+]] = scf.for %{{.+}} = %{{.+}} to %[[C1000]] step %[[C128]] iter_args(%{{.+}} = %[[MAIN]]) -> (f32)
// CHECK: vector.load
// CHECK-COUNT-4: arith.addf
// CHECK: %[[S:.+]] = gpu.subgroup_reduce add %[[P]] uniform : (f32) -> f32
// CHECK: arith.cmpi eq, %[[TX]], %{{.+}} : index
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<64xf32>
// CHECK-NOT: linalg.generic
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func private @rowsum_dispatch_0(%arg0: memref<64x1000xf32>, %arg1: memref<64xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %assume_align = memref.assume_alignment %arg0, 64 : memref<64x1000xf32>
  %0 = bufferization.to_tensor %assume_align restrict : memref<64x1000xf32> to tensor<64x1000xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<64xf32>
  %1 = tensor.empty() : tensor<64xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<64xf32>) -> tensor<64xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<64x1000xf32>) outs(%2 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = arith.addf %in, %out : f32
    linalg.yield %4 : f32
  } -> tensor<64xf32>
  bufferization.materialize_in_destination %3 in restrict writable %assume_align_0 : (tensor<64xf32>, memref<64xf32>) -> ()
  return
}

// -----

// A row length that is not a multiple of 4 (999) cannot use aligned
// vectors: lanes load one element at a time, with stride 32. The max
// combiner comes back for lane 0's final combine with the initial value.
// CHECK-LABEL: func.func private @rowmax_dispatch_0
// CHECK-NOT: vector.load
// CHECK-DAG: %[[TX:.+]] = gpu.thread_id x
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[C32]] iter_args(%{{.+}} = %{{.+}}) -> (f32)
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<37x999xf32>
// CHECK: arith.maxnumf
// CHECK: gpu.subgroup_reduce maxnumf
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func private @rowmax_dispatch_0(%arg0: memref<37x999xf32>, %arg1: memref<37xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0xFF800000 : f32
  %0 = bufferization.to_tensor %arg0 restrict : memref<37x999xf32> to tensor<37x999xf32>
  %1 = tensor.empty() : tensor<37xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<37xf32>) -> tensor<37xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<37x999xf32>) outs(%2 : tensor<37xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = arith.maxnumf %in, %out : f32
    linalg.yield %4 : f32
  } -> tensor<37xf32>
  bufferization.materialize_in_destination %3 in restrict writable %arg1 : (tensor<37xf32>, memref<37xf32>) -> ()
  return
}

// -----

// A full reduction to a rank-0 result is one row: one warp in one block.
// CHECK-LABEL: func.func private @full_sum_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>, tessel.workgroup_size = array<i64: 32, 8, 1>
// CHECK: vector.load %{{.+}}[%{{.+}}] {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// CHECK: gpu.subgroup_reduce add
// CHECK: memref.store %{{.+}}, %{{.+}}[] : memref<f32>
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
func.func private @full_sum_dispatch_0(%arg0: memref<4096xf32>, %arg1: memref<f32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = bufferization.to_tensor %arg0 restrict : memref<4096xf32> to tensor<4096xf32>
  %1 = tensor.empty() : tensor<f32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<f32>) -> tensor<f32>
  %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%0 : tensor<4096xf32>) outs(%2 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = arith.addf %in, %out : f32
    linalg.yield %4 : f32
  } -> tensor<f32>
  bufferization.materialize_in_destination %3 in restrict writable %arg1 : (tensor<f32>, memref<f32>) -> ()
  return
}

// -----

// A transpose: a 4x4 tile per thread (a 128-bit vector per row of the
// input and of the output), 8 threads along the output's contiguous loop
// and 32 along the input's: block tiles 128x32.
// CHECK-LABEL: func.func private @transpose_dispatch_0
// CHECK: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (200, 100) step (128, 32) shared_outs
// CHECK: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (%{{.+}}, %{{.+}}) step (4, 4) shared_outs
// CHECK: vector.transfer_read {{.+}} : tensor<{{.+}}>, vector<4x4xf32>
// CHECK: vector.transfer_write {{.+}} : vector<4x4xf32>, tensor<{{.+}}>
#map = affine_map<(d0, d1) -> (d1, d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func private @transpose_dispatch_0(%arg0: memref<100x200xf32>, %arg1: memref<200x100xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %0 = bufferization.to_tensor %arg0 restrict : memref<100x200xf32> to tensor<100x200xf32>
  %1 = tensor.empty() : tensor<200x100xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<100x200xf32>) outs(%1 : tensor<200x100xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<200x100xf32>
  bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<200x100xf32>, memref<200x100xf32>) -> ()
  return
}

// -----

// A kernel whose root is not a linalg op (a concat) gets no foralls: it
// runs as one thread of one block (distribution gives it a 1x1x1 grid).
// CHECK-LABEL: func.func private @concat_dispatch_0
// CHECK-NOT: scf.forall
// CHECK-NOT: vector.
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [37, 53] [1, 1]
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 53] [37, 5] [1, 1]
// CHECK: bufferization.materialize_in_destination
func.func private @concat_dispatch_0(%arg0: memref<37x53xf32>, %arg1: memref<37x5xf32>, %arg2: memref<37x58xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %assume_align = memref.assume_alignment %arg0, 64 : memref<37x53xf32>
  %0 = bufferization.to_tensor %assume_align restrict : memref<37x53xf32> to tensor<37x53xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<37x5xf32>
  %1 = bufferization.to_tensor %assume_align_0 restrict : memref<37x5xf32> to tensor<37x5xf32>
  %assume_align_1 = memref.assume_alignment %arg2, 64 : memref<37x58xf32>
  %2 = tensor.empty() : tensor<37x58xf32>
  %inserted_slice = tensor.insert_slice %0 into %2[0, 0] [37, 53] [1, 1] : tensor<37x53xf32> into tensor<37x58xf32>
  %inserted_slice_2 = tensor.insert_slice %1 into %inserted_slice[0, 53] [37, 5] [1, 1] : tensor<37x5xf32> into tensor<37x58xf32>
  bufferization.materialize_in_destination %inserted_slice_2 in restrict writable %assume_align_1 : (tensor<37x58xf32>, memref<37x58xf32>) -> ()
  return
}

// -----

// Functions that are not kernels are not touched.
// CHECK-LABEL: func.func @not_a_kernel
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
#map = affine_map<(d0) -> (d0)>
func.func @not_a_kernel(%a: tensor<37xf32>) -> tensor<37xf32> {
  %e = tensor.empty() : tensor<37xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<37xf32>) outs(%e : tensor<37xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = math.exp %in : f32
    linalg.yield %1 : f32
  } -> tensor<37xf32>
  return %0 : tensor<37xf32>
}

// -----

// A warp reduction over dynamic rows and a dynamic row length (push
// constants 0 and 1): the grid is ceildiv(s0, 8) blocks from the host, the
// row guard compares with push constant 0, and both loops run to bounds
// computed from push constant 1 (no vector loads: the length may not be a
// multiple of 4; 4 x 32 columns per iteration of the main loop).
// CHECK: #[[COUNT:.+]] = affine_map<()[s0, s1, s2] -> (s0 ceildiv 8, 1, 1)>
// CHECK-LABEL: func.func private @rowsum_dynamic_dispatch_0
// CHECK-SAME: tessel.workgroup_count_map = #[[COUNT]], tessel.workgroup_size = array<i64: 32, 8, 1>
// CHECK-DAG: %[[M:.+]] = tessel.push_constant 0 : index
// CHECK-DAG: %[[N:.+]] = tessel.push_constant 1 : index
// CHECK: arith.cmpi ult, %{{.+}}, %[[M]] : index
// CHECK: %[[Q:.+]] = arith.divui %[[N]], %c128 : index
// CHECK: %[[END:.+]] = arith.muli %[[Q]], %c128 : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[END]] step %c128
// CHECK-NOT: vector.load
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[N]] step %c32
// CHECK: gpu.subgroup_reduce add
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<?xf32, strided<[1]>>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func private @rowsum_dynamic_dispatch_0(%arg0: memref<f32>, %arg1: memref<f32>) attributes {tessel.binding_count = 2 : i64, tessel.dispatch_function, tessel.kernel, tessel.push_constant_count = 3 : i64} {
  %cst = arith.constant 0.000000e+00 : f32
  %m = tessel.push_constant 0 : index
  %n = tessel.push_constant 1 : index
  %iv = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%m, %n], strides: [%n, 1] : memref<f32> to memref<?x?xf32, strided<[?, 1]>>
  %in = memref.cast %iv : memref<?x?xf32, strided<[?, 1]>> to memref<?x?xf32>
  %0 = bufferization.to_tensor %in restrict : memref<?x?xf32> to tensor<?x?xf32>
  %mo = tessel.push_constant 2 : index
  %ov = memref.reinterpret_cast %arg1 to offset: [0], sizes: [%mo], strides: [1] : memref<f32> to memref<?xf32, strided<[1]>>
  %out = memref.cast %ov : memref<?xf32, strided<[1]>> to memref<?xf32>
  %1 = tensor.empty(%m) : tensor<?xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<?xf32>) -> tensor<?xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<?x?xf32>) outs(%2 : tensor<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %4 = arith.addf %x, %acc : f32
    linalg.yield %4 : f32
  } -> tensor<?xf32>
  bufferization.materialize_in_destination %3 in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}
