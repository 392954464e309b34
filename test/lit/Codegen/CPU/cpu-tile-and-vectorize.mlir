// RUN: tessel-opt %s --tessel-cpu-tile-and-vectorize --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-cpu-tile-and-vectorize=vector-bits=512 --split-input-file | FileCheck %s --check-prefix=AVX512

// A small matmul (37x67, fits one 64x256 workgroup tile) gets no forall:
// 8x16 register tiles (two 8-lane vectors along N). The register loops are
// peeled, so the main tiles are full and static: the accumulator is read
// once, updated by an unmasked vector.contract per K step (53 has no
// divisor among 8/4/2, so K steps by 1) and written once; the 3-column
// edge becomes one static 8x53x3 contraction.
// CHECK-LABEL: func.func private @small_matmul
// CHECK-NOT: scf.forall
// CHECK: scf.for %[[M:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK: scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK: %[[ACC:.+]] = vector.transfer_read {{.*}} : tensor<?x?xf32>, vector<8x16xf32>
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %[[ACC]]) -> (vector<8x16xf32>)
// CHECK: vector.transfer_read {{.*}} : tensor<37x53xf32>, vector<8x1xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<53x67xf32>, vector<1x16xf32>
// CHECK-NOT: vector.mask
// CHECK: vector.contract {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
// CHECK: vector.contract {{.*}} : vector<8x53xf32>, vector<53x3xf32> into vector<8x3xf32>
// CHECK: bufferization.materialize_in_destination
// AVX512-LABEL: func.func private @small_matmul
// AVX512: vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
func.func private @small_matmul(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<37x53xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<37x53xf32> to tensor<37x53xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<53x67xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<53x67xf32> to tensor<53x67xf32>
  %4 = tensor.empty() : tensor<37x67xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<37x67xf32>) -> tensor<37x67xf32>
  %6 = linalg.matmul ins(%1, %3 : tensor<37x53xf32>, tensor<53x67xf32>) outs(%5 : tensor<37x67xf32>) -> tensor<37x67xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<37x67xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<37x67xf32>, memref<37x67xf32>) -> ()
  return
}

// -----

// A large matmul (129x300) is split into 64x256 workgroup tiles by a 2-D
// scf.forall marked tessel.workgroups, with the fill fused inside and K
// stepped by 8 (48 = 6 x 8).
// CHECK-LABEL: func.func private @large_matmul
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C48:.+]] = arith.constant 48 : index
// CHECK: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (129, 300) step (64, 256) shared_outs
// CHECK-NOT: linalg.fill
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[C48]] step %[[C8]]
// CHECK: vector.contract {{.*}} : vector<8x8xf32>, vector<8x16xf32> into vector<8x16xf32>
// CHECK: scf.forall.in_parallel
// CHECK: tensor.parallel_insert_slice
// CHECK: } {tessel.workgroups}
// CHECK-NOT: scf.forall
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func private @large_matmul(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<129x48xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<129x48xf32> to tensor<129x48xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<48x300xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<48x300xf32> to tensor<48x300xf32>
  %4 = tensor.empty() : tensor<129x300xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<129x300xf32>) -> tensor<129x300xf32>
  %6 = linalg.matmul ins(%1, %3 : tensor<129x48xf32>, tensor<48x300xf32>) outs(%5 : tensor<129x300xf32>) -> tensor<129x300xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<129x300xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<129x300xf32>, memref<129x300xf32>) -> ()
  return
}

// -----

// A small elementwise op (37x53 < 64K iterations) gets no forall: rows of
// one masked 8-lane vector (16 lanes at 512 bits), partial at the end of
// each 53-element row.
// CHECK-LABEL: func.func private @small_elementwise
// CHECK-NOT: scf.forall
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[MASK:.+]] = vector.create_mask %{{.+}}, %{{.+}} : vector<1x8xi1>
// CHECK: %[[V:.+]] = vector.mask %[[MASK]] { vector.transfer_read {{.*}} : tensor<37x53xf32>, vector<1x8xf32> }
// CHECK: %[[E:.+]] = math.exp %[[V]] : vector<1x8xf32>
// CHECK: vector.mask %[[MASK]] { vector.transfer_write %[[E]]
// CHECK-NOT: linalg.generic
// CHECK: return
// AVX512-LABEL: func.func private @small_elementwise
// AVX512: math.exp %{{.+}} : vector<1x16xf32>
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func private @small_elementwise(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<37x53xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<37x53xf32> to tensor<37x53xf32>
  %2 = tensor.empty() : tensor<37x53xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<37x53xf32>) outs(%2 : tensor<37x53xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = math.exp %in : f32
    linalg.yield %5 : f32
  } -> tensor<37x53xf32>
  %4 = tessel.binding %arg0[1] : !llvm.ptr -> memref<37x53xf32>
  bufferization.materialize_in_destination %3 in restrict writable %4 : (tensor<37x53xf32>, memref<37x53xf32>) -> ()
  return
}

// -----

// Full tiles need no masks: 32x64 rows split into exact 8-lane vectors.
// CHECK-LABEL: func.func private @full_tiles
// CHECK-NOT: vector.create_mask
// CHECK-NOT: vector.mask
// CHECK: vector.transfer_read {{.*}} : tensor<32x64xf32>, vector<1x8xf32>
// CHECK: arith.addf %{{.+}}, %{{.+}} : vector<1x8xf32>
// CHECK: vector.transfer_write
// CHECK-NOT: vector.mask
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func private @full_tiles(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<32x64xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<32x64xf32> to tensor<32x64xf32>
  %2 = tensor.empty() : tensor<32x64xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<32x64xf32>) outs(%2 : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.addf %in, %in : f32
    linalg.yield %5 : f32
  } -> tensor<32x64xf32>
  %4 = tessel.binding %arg0[1] : !llvm.ptr -> memref<32x64xf32>
  bufferization.materialize_in_destination %3 in restrict writable %4 : (tensor<32x64xf32>, memref<32x64xf32>) -> ()
  return
}

// -----

// A large elementwise op (513x257 > 64K iterations) is split across
// workgroups along the outer loop: 513 -> 257 -> 129 rows per workgroup.
// CHECK-LABEL: func.func private @large_elementwise
// CHECK: scf.forall (%{{.+}}) = (0) to (513) step (129) shared_outs
// CHECK: vector.transfer_read {{.*}} : tensor<513x257xf32>, vector<1x8xf32>
// CHECK: arith.addf {{.*}} : vector<1x8xf32>
// CHECK: } {tessel.workgroups}
// CHECK-NOT: linalg.generic
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func private @large_elementwise(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<513x257xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<513x257xf32> to tensor<513x257xf32>
  %2 = tensor.empty() : tensor<513x257xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<513x257xf32>) outs(%2 : tensor<513x257xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.addf %in, %in : f32
    linalg.yield %5 : f32
  } -> tensor<513x257xf32>
  %4 = tessel.binding %arg0[1] : !llvm.ptr -> memref<513x257xf32>
  bufferization.materialize_in_destination %3 in restrict writable %4 : (tensor<513x257xf32>, memref<513x257xf32>) -> ()
  return
}

// -----

// A row reduction: 8 rows at a time, the reduction stepped by 8 lanes.
// Peeling leaves full 8x8 tiles (unmasked multi_reduction) for 48 of the 53
// columns; the 5-column remainder stays scalar (masked reductions are never
// generated) and the last 5 rows are one static 5x53 reduction.
// CHECK-LABEL: func.func private @row_sum
// CHECK-NOT: scf.forall
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} : tensor<37x53xf32>, vector<8x8xf32>
// CHECK: vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1] : vector<8x8xf32> to vector<8xf32>
// CHECK: linalg.generic
// CHECK: vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1] : vector<5x53xf32> to vector<5xf32>
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func private @row_sum(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<37x53xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<37x53xf32> to tensor<37x53xf32>
  %2 = tensor.empty() : tensor<37xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<37xf32>) -> tensor<37xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<37x53xf32>) outs(%3 : tensor<37xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<37xf32>
  %5 = tessel.binding %arg0[1] : !llvm.ptr -> memref<37xf32>
  bufferization.materialize_in_destination %4 in restrict writable %5 : (tensor<37xf32>, memref<37xf32>) -> ()
  return
}

// -----

// Ops that read or write i1 tensors stay scalar (vectors of i1 are
// bit-packed): both generics are tiled (32 lanes of i8) but not vectorized.
// CHECK-LABEL: func.func private @bool_result
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: vector.
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x?xi1>)
// CHECK: arith.cmpf olt, %{{.+}}, %{{.+}} : f32
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<1x?xi1>) outs(%{{.+}} : tensor<1x?xi8>)
// CHECK: arith.extui %{{.+}} : i1 to i8
// CHECK-NOT: vector.
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func private @bool_result(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<37x53xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<37x53xf32> to tensor<37x53xf32>
  %2 = tensor.empty() : tensor<37x53xi1>
  %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<37x53xf32>) outs(%2 : tensor<37x53xi1>) {
  ^bb0(%in: f32, %out: i1):
    %7 = arith.cmpf olt, %in, %cst : f32
    linalg.yield %7 : i1
  } -> tensor<37x53xi1>
  %4 = tessel.binding %arg0[1] : !llvm.ptr -> memref<37x53xi8>
  %5 = tensor.empty() : tensor<37x53xi8>
  %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<37x53xi1>) outs(%5 : tensor<37x53xi8>) {
  ^bb0(%in: i1, %out: i8):
    %7 = arith.extui %in : i1 to i8
    linalg.yield %7 : i8
  } -> tensor<37x53xi8>
  bufferization.materialize_in_destination %6 in restrict writable %4 : (tensor<37x53xi8>, memref<37x53xi8>) -> ()
  return
}

// -----

// Integer division on partial tiles stays scalar (masked-off lanes could
// divide by zero) ...
// CHECK-LABEL: func.func private @div_partial
// CHECK-NOT: vector.
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x?xi32>, tensor<1x?xi32>)
// CHECK: arith.divsi %{{.+}}, %{{.+}} : i32
// CHECK-NOT: vector.
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func private @div_partial(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<37x53xi32>
  %1 = bufferization.to_tensor %0 restrict : memref<37x53xi32> to tensor<37x53xi32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<37x53xi32>
  %3 = bufferization.to_tensor %2 restrict : memref<37x53xi32> to tensor<37x53xi32>
  %4 = tensor.empty() : tensor<37x53xi32>
  %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %3 : tensor<37x53xi32>, tensor<37x53xi32>) outs(%4 : tensor<37x53xi32>) {
  ^bb0(%in: i32, %in_0: i32, %out: i32):
    %7 = arith.divsi %in, %in_0 : i32
    linalg.yield %7 : i32
  } -> tensor<37x53xi32>
  %6 = tessel.binding %arg0[2] : !llvm.ptr -> memref<37x53xi32>
  bufferization.materialize_in_destination %5 in restrict writable %6 : (tensor<37x53xi32>, memref<37x53xi32>) -> ()
  return
}

// -----

// ... but full tiles of the same division are vectorized without masks.
// CHECK-LABEL: func.func private @div_full
// CHECK-NOT: vector.mask
// CHECK: arith.divsi %{{.+}}, %{{.+}} : vector<1x8xi32>
// CHECK-NOT: linalg.generic
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func private @div_full(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<37x64xi32>
  %1 = bufferization.to_tensor %0 restrict : memref<37x64xi32> to tensor<37x64xi32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<37x64xi32>
  %3 = bufferization.to_tensor %2 restrict : memref<37x64xi32> to tensor<37x64xi32>
  %4 = tensor.empty() : tensor<37x64xi32>
  %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %3 : tensor<37x64xi32>, tensor<37x64xi32>) outs(%4 : tensor<37x64xi32>) {
  ^bb0(%in: i32, %in_0: i32, %out: i32):
    %7 = arith.divsi %in, %in_0 : i32
    linalg.yield %7 : i32
  } -> tensor<37x64xi32>
  %6 = tessel.binding %arg0[2] : !llvm.ptr -> memref<37x64xi32>
  bufferization.materialize_in_destination %5 in restrict writable %6 : (tensor<37x64xi32>, memref<37x64xi32>) -> ()
  return
}

// -----

// A kernel whose root is not a linalg op (a concat's insert_slice chain) is
// left as a single serial workgroup: no loops, no vectors.
// CHECK-LABEL: func.func private @concat
// CHECK-NOT: scf.
// CHECK-NOT: vector.
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [37, 53] [1, 1]
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 53] [37, 5] [1, 1]
// CHECK: bufferization.materialize_in_destination
func.func private @concat(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<37x53xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<37x53xf32> to tensor<37x53xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<37x5xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<37x5xf32> to tensor<37x5xf32>
  %4 = tensor.empty() : tensor<37x58xf32>
  %inserted_slice = tensor.insert_slice %1 into %4[0, 0] [37, 53] [1, 1] : tensor<37x53xf32> into tensor<37x58xf32>
  %inserted_slice_0 = tensor.insert_slice %3 into %inserted_slice[0, 53] [37, 5] [1, 1] : tensor<37x5xf32> into tensor<37x58xf32>
  %5 = tessel.binding %arg0[2] : !llvm.ptr -> memref<37x58xf32>
  bufferization.materialize_in_destination %inserted_slice_0 in restrict writable %5 : (tensor<37x58xf32>, memref<37x58xf32>) -> ()
  return
}

// -----

// Functions that are not kernels are not touched.
// CHECK-LABEL: func.func @not_a_kernel
// CHECK-NOT: scf.
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
