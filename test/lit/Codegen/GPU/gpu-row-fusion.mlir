// RUN: tessel-opt %s --tessel-gpu-select-strategy --tessel-gpu-tile-and-vectorize --split-input-file | FileCheck %s

// A fused softmax dispatch (rows of 256: two 128-element chunks per warp)
// runs as one warp per row: the row is loaded once (two 128-bit loads per
// lane, reused by the exp and the divide), each row reduction is a lane
// fold plus one gpu.subgroup_reduce, and the result is stored with two
// 128-bit stores per lane. 16 rows: 2 blocks of 8 warps.
// CHECK-LABEL: func.func private @softmax_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 2, 1, 1>, tessel.workgroup_size = array<i64: 32, 8, 1>
// CHECK-NOT: scf.forall
// CHECK-COUNT-2: vector.load %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<16x256xf32>, vector<4xf32>
// CHECK-NOT: vector.load
// CHECK: gpu.subgroup_reduce maxnumf
// CHECK-COUNT-8: math.exp
// CHECK-NOT: math.exp
// CHECK: gpu.subgroup_reduce add
// CHECK-COUNT-8: arith.divf
// CHECK-COUNT-2: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<16x256xf32>, vector<4xf32>
// CHECK-NOT: linalg.generic
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func private @softmax_dispatch_0(%arg0: memref<16x256xf32>, %arg1: memref<16x256xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFFC00000 : f32
  %0 = bufferization.to_tensor %arg0 restrict : memref<16x256xf32> to tensor<16x256xf32>
  %1 = tensor.empty() : tensor<16x256xf32>
  %2 = tensor.empty() : tensor<16xf32>
  %3 = linalg.fill ins(%cst_0 : f32) outs(%2 : tensor<16xf32>) -> tensor<16xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<16x256xf32>) outs(%3 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.maxnumf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<16xf32>
  %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%0, %4 : tensor<16x256xf32>, tensor<16xf32>) outs(%1 : tensor<16x256xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.subf %in, %in_1 : f32
    %10 = math.exp %9 : f32
    linalg.yield %10 : f32
  } -> tensor<16x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%2 : tensor<16xf32>) -> tensor<16xf32>
  %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%5 : tensor<16x256xf32>) outs(%6 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<16xf32>
  %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %7 : tensor<16x256xf32>, tensor<16xf32>) outs(%1 : tensor<16x256xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.divf %in, %in_1 : f32
    linalg.yield %9 : f32
  } -> tensor<16x256xf32>
  bufferization.materialize_in_destination %8 in restrict writable %arg1 : (tensor<16x256xf32>, memref<16x256xf32>) -> ()
  return
}

// -----

// A row length that is not a multiple of 4 (37): single elements with
// stride 32, two chunks, the second only partly inside the row: its loads
// use a clamped index, the reductions skip it (select) and its store is
// guarded. The per-row mean is also a result: lane 0 stores it.
// CHECK-LABEL: func.func private @mean_center_dispatch_0
// CHECK-NOT: vector.load
// CHECK: %[[IN:.+]] = arith.cmpi ult, %{{.+}}, %c37 : index
// CHECK: %[[SAFE:.+]] = arith.select %[[IN]], %{{.+}}, %{{.+}} : index
// CHECK: memref.load %{{.+}}[%{{.+}}, %[[SAFE]]] : memref<5x37xf32>
// CHECK: arith.select %[[IN]], %{{.+}}, %{{.+}} : f32
// CHECK: gpu.subgroup_reduce add
// CHECK: arith.divf
// CHECK-DAG: scf.if %[[IN]] {
// CHECK-DAG: memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<5x37xf32>
// CHECK-DAG: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<5xf32>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
func.func private @mean_center_dispatch_0(%arg0: memref<5x37xf32>, %arg1: memref<5x37xf32>, %arg2: memref<5xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.700000e+01 : f32
  %0 = bufferization.to_tensor %arg0 restrict : memref<5x37xf32> to tensor<5x37xf32>
  %1 = tensor.empty() : tensor<5x37xf32>
  %2 = tensor.empty() : tensor<5xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<5xf32>) -> tensor<5xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<5x37xf32>) outs(%3 : tensor<5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<5xf32>
  %5 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel"]} ins(%4 : tensor<5xf32>) outs(%2 : tensor<5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.divf %in, %n : f32
    linalg.yield %9 : f32
  } -> tensor<5xf32>
  %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%0, %5 : tensor<5x37xf32>, tensor<5xf32>) outs(%1 : tensor<5x37xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.subf %in, %in_1 : f32
    linalg.yield %9 : f32
  } -> tensor<5x37xf32>
  bufferization.materialize_in_destination %6 in restrict writable %arg1 : (tensor<5x37xf32>, memref<5x37xf32>) -> ()
  bufferization.materialize_in_destination %5 in restrict writable %arg2 : (tensor<5xf32>, memref<5xf32>) -> ()
  return
}

// -----

// Rows of 2050 (more than 32 elements per lane for one warp): a block of
// ceil(2050 / 1024) = 3 warps per row (96 threads, one block per row, no
// row guard), single elements with stride 96 (2050 is not a multiple of
// 4): 22 chunks, the last partly inside. Each reduction ends with a warp
// shuffle, lane 0 of each warp storing its total to its own slot of a
// shared [2 reductions][3 warps] buffer, a barrier, and every lane
// combining the three totals in warp order.
// CHECK: memref.global "private" @__tessel_smem_softmax_long_dispatch_0 : memref<2x3xf32, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}
// CHECK-LABEL: func.func private @softmax_long_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 16, 1, 1>, tessel.workgroup_size = array<i64: 96, 1, 1>
// CHECK-NOT: scf.if
// CHECK: %[[P:.+]] = memref.get_global @__tessel_smem_softmax_long_dispatch_0
// CHECK: gpu.subgroup_reduce maxnumf
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.+}}, %[[P]][%c0, %{{.+}}]
// CHECK: gpu.barrier
// CHECK-NEXT: %[[W0:.+]] = memref.load %[[P]][%c0, %c0]
// CHECK-NEXT: %[[W1:.+]] = memref.load %[[P]][%c0, %c1]
// CHECK-NEXT: %[[M01:.+]] = arith.maxnumf %[[W0]], %[[W1]] : f32
// CHECK-NEXT: %[[W2:.+]] = memref.load %[[P]][%c0, %c2]
// CHECK-NEXT: arith.maxnumf %[[M01]], %[[W2]] : f32
// CHECK: gpu.subgroup_reduce add
// CHECK: memref.store %{{.+}}, %[[P]][%c1, %{{.+}}]
// CHECK: gpu.barrier
// CHECK-NEXT: memref.load %[[P]][%c1, %c0]
// CHECK-NEXT: memref.load %[[P]][%c1, %c1]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.load %[[P]][%c1, %c2]
// CHECK-NOT: gpu.barrier
// CHECK: memref.store {{.*}} : memref<16x2050xf32>
// CHECK-NOT: linalg.generic
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func private @softmax_long_dispatch_0(%arg0: memref<16x2050xf32>, %arg1: memref<16x2050xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFFC00000 : f32
  %0 = bufferization.to_tensor %arg0 restrict : memref<16x2050xf32> to tensor<16x2050xf32>
  %1 = tensor.empty() : tensor<16x2050xf32>
  %2 = tensor.empty() : tensor<16xf32>
  %3 = linalg.fill ins(%cst_0 : f32) outs(%2 : tensor<16xf32>) -> tensor<16xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<16x2050xf32>) outs(%3 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.maxnumf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<16xf32>
  %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%0, %4 : tensor<16x2050xf32>, tensor<16xf32>) outs(%1 : tensor<16x2050xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.subf %in, %in_1 : f32
    %10 = math.exp %9 : f32
    linalg.yield %10 : f32
  } -> tensor<16x2050xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%2 : tensor<16xf32>) -> tensor<16xf32>
  %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%5 : tensor<16x2050xf32>) outs(%6 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<16xf32>
  %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %7 : tensor<16x2050xf32>, tensor<16xf32>) outs(%1 : tensor<16x2050xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.divf %in, %in_1 : f32
    linalg.yield %9 : f32
  } -> tensor<16x2050xf32>
  bufferization.materialize_in_destination %8 in restrict writable %arg1 : (tensor<16x2050xf32>, memref<16x2050xf32>) -> ()
  return
}


// -----

// Dynamic rows (issue 39): [?, 4, 256] rows, their first extent push
// constant 0 (the input's) and 1 (the output's). The warp's row is checked
// against s0 * 4, which the host also uses for the grid: ceildiv(4 s0, 8)
// blocks of 8 warps, from a workgroup-count map over the push constants.
// CHECK: #[[COUNT:.+]] = affine_map<()[s0, s1] -> ((s0 * 4) ceildiv 8, 1, 1)>
// CHECK-LABEL: func.func private @softmax_rows_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>, tessel.workgroup_count_map = #[[COUNT]], tessel.workgroup_size = array<i64: 32, 8, 1>
// CHECK: %[[M:.+]] = tessel.push_constant 0 : index
// CHECK: %[[ROWS:.+]] = arith.muli %[[M]], %c4 : index
// CHECK: %[[IN:.+]] = arith.cmpi ult, %{{.+}}, %[[ROWS]] : index
// CHECK: scf.if %[[IN]] {
// CHECK-COUNT-2: vector.load %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x4x256xf32, strided<[1024, 256, 1]>>, vector<4xf32>
// CHECK: gpu.subgroup_reduce maxnumf
// CHECK: gpu.subgroup_reduce add
// CHECK-COUNT-2: vector.store
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @softmax_rows_dispatch_0(%arg0: memref<f32>, %arg1: memref<f32>) attributes {tessel.binding_count = 2 : i64, tessel.dispatch_function, tessel.kernel, tessel.push_constant_count = 2 : i64} {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFFC00000 : f32
  %m = tessel.push_constant 0 : index
  %iv = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%m, 4, 256], strides: [1024, 256, 1] : memref<f32> to memref<?x4x256xf32, strided<[1024, 256, 1]>>
  %in = memref.cast %iv : memref<?x4x256xf32, strided<[1024, 256, 1]>> to memref<?x4x256xf32>
  %0 = bufferization.to_tensor %in restrict : memref<?x4x256xf32> to tensor<?x4x256xf32>
  %mo = tessel.push_constant 1 : index
  %ov = memref.reinterpret_cast %arg1 to offset: [0], sizes: [%mo, 4, 256], strides: [1024, 256, 1] : memref<f32> to memref<?x4x256xf32, strided<[1024, 256, 1]>>
  %out = memref.cast %ov : memref<?x4x256xf32, strided<[1024, 256, 1]>> to memref<?x4x256xf32>
  %1 = tensor.empty(%m) : tensor<?x4x256xf32>
  %2 = tensor.empty(%m) : tensor<?x4xf32>
  %3 = linalg.fill ins(%cst_0 : f32) outs(%2 : tensor<?x4xf32>) -> tensor<?x4xf32>
  %4 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%0 : tensor<?x4x256xf32>) outs(%3 : tensor<?x4xf32>) {
  ^bb0(%in_1: f32, %acc: f32):
    %9 = arith.maxnumf %in_1, %acc : f32
    linalg.yield %9 : f32
  } -> tensor<?x4xf32>
  %5 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0, %4 : tensor<?x4x256xf32>, tensor<?x4xf32>) outs(%1 : tensor<?x4x256xf32>) {
  ^bb0(%in_1: f32, %mx: f32, %o: f32):
    %9 = arith.subf %in_1, %mx : f32
    %10 = math.exp %9 : f32
    linalg.yield %10 : f32
  } -> tensor<?x4x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%2 : tensor<?x4xf32>) -> tensor<?x4xf32>
  %7 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%5 : tensor<?x4x256xf32>) outs(%6 : tensor<?x4xf32>) {
  ^bb0(%in_1: f32, %acc: f32):
    %9 = arith.addf %in_1, %acc : f32
    linalg.yield %9 : f32
  } -> tensor<?x4xf32>
  %8 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %7 : tensor<?x4x256xf32>, tensor<?x4xf32>) outs(%1 : tensor<?x4x256xf32>) {
  ^bb0(%in_1: f32, %s: f32, %o: f32):
    %9 = arith.divf %in_1, %s : f32
    linalg.yield %9 : f32
  } -> tensor<?x4x256xf32>
  bufferization.materialize_in_destination %8 in restrict writable %out : (tensor<?x4x256xf32>, memref<?x4x256xf32>) -> ()
  return
}
