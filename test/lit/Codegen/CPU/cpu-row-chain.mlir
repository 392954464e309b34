// RUN: tessel-opt %s --tessel-cpu-select-strategy=vector-bits=512 --tessel-cpu-tile-and-vectorize=vector-bits=512 | FileCheck %s

// A fused row chain (softmax: row max, exp(x - max), row sum, divide; one
// dispatch from tessel-form-dispatches{fuse-rows}) on the CPU: workgroups
// are blocks of whole rows (64 K elements: 64 rows of 1024), register
// tiles one row, every op of the row one vector of the row, so that each
// row reduction runs once per row; the exp that both the sum and the
// divide read was fused into both and is merged (one math.exp); each row
// reduction is split into 16 partial lanes along the row (a vector<1x16>
// accumulator) and then merged, not one ordered chain of 1024.
// CHECK-LABEL: func.func private @softmax_dispatch_0
// CHECK: scf.forall (%[[R:.+]]) = (0) to (256) step (64)
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c1 iter_args
// CHECK: scf.for %{{.+}} = %c0 to %c1024 step %c16 iter_args(%{{.+}} = %{{.+}}) -> (vector<1x16xf32>)
// CHECK: arith.maxnumf %{{.+}}, %{{.+}} : vector<1x16xf32>
// CHECK: vector.multi_reduction <maxnumf>, %{{.+}}, %{{.+}} [1] : vector<1x16xf32> to vector<1xf32>
// CHECK: math.exp %{{.+}} : vector<1x1024xf32>
// CHECK-NOT: math.exp
// CHECK: scf.for %{{.+}} = %c0 to %c1024 step %c16 iter_args(%{{.+}} = %{{.+}}) -> (vector<1x16xf32>)
// CHECK: arith.addf %{{.+}}, %{{.+}} : vector<1x16xf32>
// CHECK: vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1] : vector<1x16xf32> to vector<1xf32>
// CHECK: arith.divf %{{.+}}, %{{.+}} : vector<1x1024xf32>
// CHECK-NOT: math.exp
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
module {
  func.func private @softmax_dispatch_0(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.dispatch_function, tessel.kernel} {
    %cst = arith.constant 0xFFC00000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<256x1024xf32>
    %assume_align = memref.assume_alignment %0, 64 : memref<256x1024xf32>
    %1 = bufferization.to_tensor %assume_align restrict : memref<256x1024xf32> to tensor<256x1024xf32>
    %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<256x1024xf32>
    %assume_align_1 = memref.assume_alignment %2, 64 : memref<256x1024xf32>
    %3 = tensor.empty() : tensor<256x1024xf32>
    %4 = tensor.empty() : tensor<256xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<256xf32>) -> tensor<256xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<256x1024xf32>) outs(%5 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.maxnumf %in, %out : f32
      linalg.yield %11 : f32
    } -> tensor<256xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %6 : tensor<256x1024xf32>, tensor<256xf32>) outs(%3 : tensor<256x1024xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %11 = arith.subf %in, %in_2 : f32
      %12 = math.exp %11 : f32
      linalg.yield %12 : f32
    } -> tensor<256x1024xf32>
    %8 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<256xf32>) -> tensor<256xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<256x1024xf32>) outs(%8 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.addf %in, %out : f32
      linalg.yield %11 : f32
    } -> tensor<256xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %9 : tensor<256x1024xf32>, tensor<256xf32>) outs(%3 : tensor<256x1024xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %11 = arith.divf %in, %in_2 : f32
      linalg.yield %11 : f32
    } -> tensor<256x1024xf32>
    bufferization.materialize_in_destination %10 in restrict writable %assume_align_1 : (tensor<256x1024xf32>, memref<256x1024xf32>) -> ()
    return
  }
}

