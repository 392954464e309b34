// RUN: tessel-opt %s --tessel-gpu-select-strategy --tessel-gpu-tile-and-vectorize --split-input-file | FileCheck %s

// GPUSharedMemoryMatmul, chosen by GPUKernelConfig for f32 matmuls and
// batch matmuls (row-major C; A and B row-major or transposed). Inputs are
// kernels in the `pointers` ABI.

// An odd-shaped matmul (129x130 * 130x127): too few 128x128 blocks to fill
// a GPU, so one block per 64x64 tile of C (grid 2x3), 8x8 threads, two
// shared-memory stages of A^T (8x68, padded) and B (8x64), two vectors of
// each per thread and stage. Every global load takes a masked path when its
// vector leaves the matrix; K (130) runs in 17 stages of 8, the loads of the
// next stage issued before the 32 outer products (8 k x 2x2 sub-tiles of
// 4x4) of this one, one barrier per stage outside any thread-dependent
// branch; the 8x8 results are stored with masks.
// CHECK-DAG: memref.global "private" @__tessel_smem_odd_dispatch_0_a : memref<2x8x68xf32, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @__tessel_smem_odd_dispatch_0_b : memref<2x8x64xf32, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}
// CHECK-LABEL: func.func private @odd_dispatch_0
// CHECK-SAME: nvvm.minctasm = 2 : i32
// CHECK-SAME: tessel.workgroup_count = array<i64: 2, 3, 1>, tessel.workgroup_size = array<i64: 8, 8, 1>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<4x4xf32>
// CHECK-DAG: %[[C17:.+]] = arith.constant 17 : index
// CHECK-DAG: %[[AS:.+]] = memref.get_global @__tessel_smem_odd_dispatch_0_a
// CHECK-DAG: %[[BS:.+]] = memref.get_global @__tessel_smem_odd_dispatch_0_b
// CHECK: scf.if %{{.+}} -> (vector<4xf32>) {
// CHECK: vector.load {{.*}} : memref<129x130xf32>, vector<4xf32>
// CHECK: } else {
// CHECK: vector.maskedload {{.*}} : memref<129x130xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK: memref.store %{{.+}}, %[[AS]]
// CHECK: vector.store %{{.+}}, %[[BS]]{{.*}} {alignment = 16 : i64}
// CHECK: gpu.barrier
// CHECK: %[[ACC:.+]]:4 = scf.for %{{.+}} = %{{.+}} to %[[C17]] step %{{.+}} iter_args(%{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]]) -> (vector<4x4xf32>, vector<4x4xf32>, vector<4x4xf32>, vector<4x4xf32>)
// CHECK: arith.minui
// CHECK: vector.maskedload
// CHECK: vector.load %[[AS]]{{.*}} {alignment = 16 : i64}
// CHECK-COUNT-32: vector.outerproduct
// CHECK: memref.store %{{.+}}, %[[AS]]
// CHECK: vector.store %{{.+}}, %[[BS]]
// CHECK-NEXT: vector.store %{{.+}}, %[[BS]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK: vector.extract %[[ACC]]#0[0]
// CHECK: vector.maskedstore
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func private @odd_dispatch_0(%arg0: memref<129x130xf32>, %arg1: memref<130x127xf32>, %arg2: memref<129x127xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %assume_align = memref.assume_alignment %arg0, 64 : memref<129x130xf32>
  %0 = bufferization.to_tensor %assume_align restrict : memref<129x130xf32> to tensor<129x130xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<130x127xf32>
  %1 = bufferization.to_tensor %assume_align_0 restrict : memref<130x127xf32> to tensor<130x127xf32>
  %assume_align_1 = memref.assume_alignment %arg2, 64 : memref<129x127xf32>
  %2 = tensor.empty() : tensor<129x127xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<129x127xf32>) -> tensor<129x127xf32>
  %4 = linalg.matmul ins(%0, %1 : tensor<129x130xf32>, tensor<130x127xf32>) outs(%3 : tensor<129x127xf32>) -> tensor<129x127xf32>
  bufferization.materialize_in_destination %4 in restrict writable %assume_align_1 : (tensor<129x127xf32>, memref<129x127xf32>) -> ()
  return
}

// -----

// A batch matmul accumulating into an argument, on exact multiples of the
// tiles (2 x 1024x16 * 16x1024: 128 blocks of 128x128, enough for the large
// block, 16x16 threads): the batch is gpu.block_id z (grid 8x8x2),
// no load or store is masked, the accumulators start from 128-bit loads of
// the argument, and K runs in 2 stages.
// CHECK-DAG: memref.global "private" @__tessel_smem_bmm_dispatch_0_a : memref<2x8x132xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__tessel_smem_bmm_dispatch_0_b : memref<2x8x128xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func private @bmm_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 8, 8, 2>, tessel.workgroup_size = array<i64: 16, 16, 1>
// CHECK-NOT: vector.maskedload
// CHECK-NOT: scf.if
// CHECK: %[[B:.+]] = gpu.block_id z
// CHECK: vector.load %{{.+}}[%[[B]], %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<2x1024x1024xf32>, vector<4xf32>
// CHECK: vector.load %{{.+}}[%[[B]], %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<2x1024x16xf32>, vector<4xf32>
// CHECK: scf.for %{{.+}} = %{{.+}} to %c2 step
// CHECK-COUNT-32: vector.outerproduct
// CHECK: gpu.barrier
// CHECK-NOT: vector.maskedstore
// CHECK: vector.store %{{.+}}, %{{.+}}[%[[B]], %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<2x1024x1024xf32>, vector<4xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: return
func.func private @bmm_dispatch_0(%arg0: memref<2x1024x16xf32>, %arg1: memref<2x16x1024xf32>, %arg2: memref<2x1024x1024xf32>, %arg3: memref<2x1024x1024xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %assume_align = memref.assume_alignment %arg0, 64 : memref<2x1024x16xf32>
  %0 = bufferization.to_tensor %assume_align restrict : memref<2x1024x16xf32> to tensor<2x1024x16xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<2x16x1024xf32>
  %1 = bufferization.to_tensor %assume_align_0 restrict : memref<2x16x1024xf32> to tensor<2x16x1024xf32>
  %assume_align_1 = memref.assume_alignment %arg2, 64 : memref<2x1024x1024xf32>
  %2 = bufferization.to_tensor %assume_align_1 restrict : memref<2x1024x1024xf32> to tensor<2x1024x1024xf32>
  %3 = tensor.empty() : tensor<2x1024x1024xf32>
  %4 = linalg.copy ins(%2 : tensor<2x1024x1024xf32>) outs(%3 : tensor<2x1024x1024xf32>) -> tensor<2x1024x1024xf32>
  %assume_align_2 = memref.assume_alignment %arg3, 64 : memref<2x1024x1024xf32>
  %5 = linalg.batch_matmul ins(%0, %1 : tensor<2x1024x16xf32>, tensor<2x16x1024xf32>) outs(%4 : tensor<2x1024x1024xf32>) -> tensor<2x1024x1024xf32>
  bufferization.materialize_in_destination %5 in restrict writable %assume_align_2 : (tensor<2x1024x1024xf32>, memref<2x1024x1024xf32>) -> ()
  return
}

// -----

// An i8 x i8 -> i32 matmul is not f32: it keeps the tiled strategy (no
// shared memory).
// CHECK-LABEL: func.func private @mmi8_dispatch_0
// CHECK-NOT: memref.get_global
// CHECK: scf.forall
// CHECK-NOT: memref.get_global
// CHECK: return
func.func private @mmi8_dispatch_0(%arg0: memref<64x32xi8>, %arg1: memref<32x64xi8>, %arg2: memref<64x64xi32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %c0_i32 = arith.constant 0 : i32
  %assume_align = memref.assume_alignment %arg0, 64 : memref<64x32xi8>
  %0 = bufferization.to_tensor %assume_align restrict : memref<64x32xi8> to tensor<64x32xi8>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<32x64xi8>
  %1 = bufferization.to_tensor %assume_align_0 restrict : memref<32x64xi8> to tensor<32x64xi8>
  %assume_align_1 = memref.assume_alignment %arg2, 64 : memref<64x64xi32>
  %2 = tensor.empty() : tensor<64x64xi32>
  %3 = linalg.fill ins(%c0_i32 : i32) outs(%2 : tensor<64x64xi32>) -> tensor<64x64xi32>
  %4 = linalg.matmul ins(%0, %1 : tensor<64x32xi8>, tensor<32x64xi8>) outs(%3 : tensor<64x64xi32>) -> tensor<64x64xi32>
  bufferization.materialize_in_destination %4 in restrict writable %assume_align_1 : (tensor<64x64xi32>, memref<64x64xi32>) -> ()
  return
}

// -----

// Transposed operands (A[k,m], B[n,k]: indexing_maps): both still land
// K-major in shared memory. A, whose m index is contiguous, is stored as
// read (16-byte stores, rows of 64: small blocks here); B, whose k index is
// contiguous, is transposed on the way (4-byte stores into rows padded to
// 68).
// CHECK-DAG: memref.global "private" @__tessel_smem_mm_t_dispatch_0_a : memref<2x8x64xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__tessel_smem_mm_t_dispatch_0_b : memref<2x8x68xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func private @mm_t_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 4, 2, 1>
// CHECK-DAG: %[[AS:.+]] = memref.get_global @__tessel_smem_mm_t_dispatch_0_a
// CHECK-DAG: %[[BS:.+]] = memref.get_global @__tessel_smem_mm_t_dispatch_0_b
// CHECK: vector.load %{{.+}} {alignment = 16 : i64} : memref<16x128xf32>, vector<4xf32>
// CHECK: vector.load %{{.+}} {alignment = 16 : i64} : memref<256x16xf32>, vector<4xf32>
// CHECK: vector.store %{{.+}}, %[[AS]]
// CHECK-COUNT-4: memref.store %{{.+}}, %[[BS]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK-COUNT-32: vector.outerproduct
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func private @mm_t_dispatch_0(%arg0: memref<16x128xf32>, %arg1: memref<256x16xf32>, %arg2: memref<128x256xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %assume_align = memref.assume_alignment %arg0, 64 : memref<16x128xf32>
  %0 = bufferization.to_tensor %assume_align restrict : memref<16x128xf32> to tensor<16x128xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<256x16xf32>
  %1 = bufferization.to_tensor %assume_align_0 restrict : memref<256x16xf32> to tensor<256x16xf32>
  %assume_align_1 = memref.assume_alignment %arg2, 64 : memref<128x256xf32>
  %2 = tensor.empty() : tensor<128x256xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %4 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%0, %1 : tensor<16x128xf32>, tensor<256x16xf32>) outs(%3 : tensor<128x256xf32>) -> tensor<128x256xf32>
  bufferization.materialize_in_destination %4 in restrict writable %assume_align_1 : (tensor<128x256xf32>, memref<128x256xf32>) -> ()
  return
}

// -----

// A matmul with its bias + relu epilogue (fuse-epilogues), 97x129 * 129x75
// (64x64 blocks, masked edges): after the K loop, each element of a
// thread's C row gets the consumer's body (the bias loaded at its column,
// clamped into the matrix where the element is outside it), and the
// 4-vector of results is stored once into the dispatch's result.
// CHECK-LABEL: func.func private @mlp_dispatch_0
// CHECK: scf.for
// CHECK-COUNT-32: vector.outerproduct
// CHECK: gpu.barrier
// CHECK: %[[COL:.+]] = arith.minui %{{.+}}, %c74 : index
// CHECK-NEXT: %[[V:.+]] = vector.extract %{{.+}}[0, 0] : f32 from vector<4x4xf32>
// CHECK-NEXT: %[[B:.+]] = memref.load %{{.+}}[%[[COL]]] : memref<75xf32>
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[V]], %[[B]] : f32
// CHECK-NEXT: arith.maximumf %[[S]], %{{.+}} : f32
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
// CHECK: vector.maskedstore %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}}, %{{.+}} : memref<97x75xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.matmul
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
#mapc = affine_map<(d0, d1) -> (d1)>
func.func private @mlp_dispatch_0(%arg0: memref<97x129xf32>, %arg1: memref<129x75xf32>, %arg2: memref<75xf32>, %arg3: memref<97x75xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %assume_align = memref.assume_alignment %arg0, 64 : memref<97x129xf32>
  %0 = bufferization.to_tensor %assume_align restrict : memref<97x129xf32> to tensor<97x129xf32>
  %assume_align_0 = memref.assume_alignment %arg1, 64 : memref<129x75xf32>
  %1 = bufferization.to_tensor %assume_align_0 restrict : memref<129x75xf32> to tensor<129x75xf32>
  %assume_align_1 = memref.assume_alignment %arg2, 64 : memref<75xf32>
  %2 = bufferization.to_tensor %assume_align_1 restrict : memref<75xf32> to tensor<75xf32>
  %assume_align_2 = memref.assume_alignment %arg3, 64 : memref<97x75xf32>
  %3 = tensor.empty() : tensor<97x75xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<97x75xf32>) -> tensor<97x75xf32>
  %5 = linalg.matmul ins(%0, %1 : tensor<97x129xf32>, tensor<129x75xf32>) outs(%4 : tensor<97x75xf32>) -> tensor<97x75xf32>
  %6 = linalg.generic {indexing_maps = [#map, #mapc, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %2 : tensor<97x75xf32>, tensor<75xf32>) outs(%3 : tensor<97x75xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %7 = arith.addf %in, %in_3 : f32
    %8 = arith.maximumf %7, %cst : f32
    linalg.yield %8 : f32
  } -> tensor<97x75xf32>
  bufferization.materialize_in_destination %6 in restrict writable %assume_align_2 : (tensor<97x75xf32>, memref<97x75xf32>) -> ()
  return
}
