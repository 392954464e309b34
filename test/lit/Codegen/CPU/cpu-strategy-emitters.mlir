// RUN: tessel-opt %s --tessel-cpu-tile-and-vectorize=vector-bits=512 --split-input-file --verify-diagnostics | FileCheck %s

// tessel-cpu-tile-and-vectorize reads only the kernel's #tessel.strategy
// (and the op marked tessel.strategy_root): each cpu strategy runs from an
// attribute written here, with parameters the cost model would not choose.

// register_tiles on a matmul: workgroups of 32 x 128, 4 x 16 register tiles
// (one 16-lane vector), K in steps of 2 inside blocks of 64.
// CHECK-LABEL: func.func private @register_tiles
// CHECK: scf.forall {{.*}} = (0, 0) to (200, 300) step (32, 128)
// CHECK: scf.for {{.*}} to %{{.+}} step %c64
// CHECK: vector.contract {{.*}} : vector<4x2xf32>, vector<2x16xf32> into vector<4x16xf32>
// CHECK-NOT: tessel.strategy_root
func.func private @register_tiles(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel, tessel.strategy = #tessel.strategy<register_tiles, workgroup = [32, 128, 0], reduction = [0, 0, 2], vector = [4, 16, 0], cache = [0, 0, 64]>} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<200x256xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<200x256xf32> to tensor<200x256xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<256x300xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<256x300xf32> to tensor<256x300xf32>
  %4 = tensor.empty() : tensor<200x300xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<200x300xf32>) -> tensor<200x300xf32>
  %6 = linalg.matmul {tessel.strategy_root} ins(%1, %3 : tensor<200x256xf32>, tensor<256x300xf32>) outs(%5 : tensor<200x300xf32>) -> tensor<200x300xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<200x300xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<200x300xf32>, memref<200x300xf32>) -> ()
  return
}

// -----

// packed_matmul with workgroups of 128 rows (the cost model takes 512 for
// this 4096x4096x512 matmul: B packed 32 times instead of 8), K blocks of
// 128 and A packed 64 rows at a time; the lanes (16) come from the vector
// width.
// CHECK-LABEL: func.func private @packed
// CHECK: scf.forall {{.*}} = (0, 0) to (4096, 4096) step (128, 256)
// CHECK: linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 128, 64, 256, 16, 128, 256>}
// CHECK-NOT: vector.contract
func.func private @packed(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel, tessel.strategy = #tessel.strategy<packed_matmul, workgroup = [128, 256, 0], panel = [8, 32, 128, 64, 256]>} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<4096x512xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<4096x512xf32> to tensor<4096x512xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<512x4096xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<512x4096xf32> to tensor<512x4096xf32>
  %4 = tensor.empty() : tensor<4096x4096xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %6 = linalg.matmul {tessel.strategy_root} ins(%1, %3 : tensor<4096x512xf32>, tensor<512x4096xf32>) outs(%5 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<4096x4096xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<4096x4096xf32>, memref<4096x4096xf32>) -> ()
  return
}

// -----

// matmul_epilogue (relu(A B + bias)): workgroups tile the epilogue (root
// loops), the matmul fused into them is computed whole in 8 x 32 register
// tiles (its own loops: M, N, K in steps of 4), then the epilogue in
// vectors along C's rows, without recomputing the matmul.
// CHECK-LABEL: func.func private @epilogue
// CHECK-NOT: tessel.cpu_packed_matmul
// CHECK: scf.forall {{.*}} = (0, 0) to (1000, 900) step (64, 256)
// CHECK: vector.contract {{.*}} : vector<8x4xf32>, vector<4x32xf32> into vector<8x32xf32>
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : vector<1x16xf32>
// CHECK-NOT: linalg.matmul
// CHECK: scf.forall.in_parallel
func.func private @epilogue(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel, tessel.strategy = #tessel.strategy<matmul_epilogue, workgroup = [64, 256], reduction = [0, 0, 4], vector = [8, 32, 0], cache = [0, 0, 0]>} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<1000x300xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<1000x300xf32> to tensor<1000x300xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<300x900xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<300x900xf32> to tensor<300x900xf32>
  %b = tessel.binding %arg0[2] : !llvm.ptr -> memref<900xf32>
  %bias = bufferization.to_tensor %b restrict : memref<900xf32> to tensor<900xf32>
  %4 = tensor.empty() : tensor<1000x900xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1000x900xf32>) -> tensor<1000x900xf32>
  %6 = linalg.matmul ins(%1, %3 : tensor<1000x300xf32>, tensor<300x900xf32>) outs(%5 : tensor<1000x900xf32>) -> tensor<1000x900xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%6, %bias : tensor<1000x900xf32>, tensor<900xf32>) outs(%4 : tensor<1000x900xf32>) attrs = {tessel.strategy_root} {
  ^bb0(%m: f32, %bv: f32, %o: f32):
    %s = arith.addf %m, %bv : f32
    %t = arith.maximumf %s, %cst : f32
    linalg.yield %t : f32
  } -> tensor<1000x900xf32>
  %7 = tessel.binding %arg0[3] : !llvm.ptr -> memref<1000x900xf32>
  bufferization.materialize_in_destination %r in restrict writable %7 : (tensor<1000x900xf32>, memref<1000x900xf32>) -> ()
  return
}

// -----

// padding_copy split along H only (the cost model splits N and H): 58
// workgroups, each a [8, 1, 58, 64] block.
// CHECK-LABEL: func.func private @pad
// CHECK: scf.forall (%[[H:.+]]) in (58) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<8x58x58x64xf32>) {
// CHECK: tensor.extract_slice %[[OUT]][0, %[[H]], 0, 0] [8, 1, 58, 64] [1, 1, 1, 1]
// CHECK: } {tessel.workgroups}
func.func private @pad(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel, tessel.strategy = #tessel.strategy<padding_copy, workgroup = [0, 1, 0, 0]>} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<8x56x56x64xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<8x56x56x64xf32> to tensor<8x56x56x64xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<8x58x58x64xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %3 = tensor.empty() : tensor<8x58x58x64xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<8x58x58x64xf32>) -> tensor<8x58x58x64xf32>
  %inserted_slice = tensor.insert_slice %1 into %4[0, 1, 1, 0] [8, 56, 56, 64] [1, 1, 1, 1] {tessel.strategy_root} : tensor<8x56x56x64xf32> into tensor<8x58x58x64xf32>
  bufferization.materialize_in_destination %inserted_slice in restrict writable %2 : (tensor<8x58x58x64xf32>, memref<8x58x58x64xf32>) -> ()
  return
}

// -----

// serial: one workgroup, untiled (the op is vectorized whole when small).
// CHECK-LABEL: func.func private @serial
// CHECK-NOT: scf.forall
// CHECK: arith.negf {{.*}} : vector<4x6xf32>
func.func private @serial(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel, tessel.strategy = #tessel.strategy<serial>} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<4x6xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<4x6xf32> to tensor<4x6xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %neg = linalg.negf ins(%1 : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  bufferization.materialize_in_destination %neg in restrict writable %2 : (tensor<4x6xf32>, memref<4x6xf32>) -> ()
  return
}

// -----

// expected-error @+1 {{strategy 'wgmma_matmul' is a cuda strategy}}
func.func private @cuda_kind(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel, tessel.strategy = #tessel.strategy<wgmma_matmul, tile = [128, 128, 64], stages = 4, grid = 132>} {
  return
}

// -----

// expected-error @+1 {{strategy 'packed_matmul': NR 24 is not a multiple of the 16 lanes of a vector}}
func.func private @bad_nr(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel, tessel.strategy = #tessel.strategy<packed_matmul, workgroup = [64, 96, 0], panel = [8, 24, 256, 64, 96]>} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<200x256xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<200x256xf32> to tensor<200x256xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<256x300xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<256x300xf32> to tensor<256x300xf32>
  %4 = tensor.empty() : tensor<200x300xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<200x300xf32>) -> tensor<200x300xf32>
  %6 = linalg.matmul {tessel.strategy_root} ins(%1, %3 : tensor<200x256xf32>, tensor<256x300xf32>) outs(%5 : tensor<200x300xf32>) -> tensor<200x300xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<200x300xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<200x300xf32>, memref<200x300xf32>) -> ()
  return
}

// -----

// expected-error @+1 {{strategy 'register_tiles' gives workgroup tiles for 2 loops, its root has 3}}
func.func private @wrong_loops(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel, tessel.strategy = #tessel.strategy<register_tiles, workgroup = [32, 128], vector = [4, 16]>} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<200x256xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<200x256xf32> to tensor<200x256xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<256x300xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<256x300xf32> to tensor<256x300xf32>
  %4 = tensor.empty() : tensor<200x300xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<200x300xf32>) -> tensor<200x300xf32>
  %6 = linalg.matmul {tessel.strategy_root} ins(%1, %3 : tensor<200x256xf32>, tensor<256x300xf32>) outs(%5 : tensor<200x300xf32>) -> tensor<200x300xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<200x300xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<200x300xf32>, memref<200x300xf32>) -> ()
  return
}

// -----

// expected-error @+1 {{kernel none has no tessel.strategy (run tessel-cpu-select-strategy first)}}
func.func private @none(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  return
}
