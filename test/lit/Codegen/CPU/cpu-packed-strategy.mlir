// RUN: tessel-opt %s --tessel-cpu-select-strategy=vector-bits=512 --tessel-cpu-tile-and-vectorize=vector-bits=512 --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-cpu-select-strategy=vector-bits=256 --tessel-cpu-tile-and-vectorize=vector-bits=256 --split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: tessel-opt %s --tessel-cpu-select-strategy=vector-bits=512 --split-input-file | FileCheck %s --check-prefix=ATTR

// The packed strategy (CPUStrategyTable.h): a 1000x900x300 f32 matmul is tiled
// to workgroups only, blocks of all rows x 256 columns, the larger halved
// until >= 128 workgroups (with AVX-512, MR 8, NR 32: 64 x 128 -> 16 x 8 =
// 128; with AVX2, MR 6, NR 16: 66 x 64 -> 16 x 15 = 240), and its tile is
// marked with [MR, NR, KC, MC, NC, lanes] for tessel-cpu-packed-matmul (MC:
// rows of A packed at a time, at most 16 MR); no register tiles or vectors.
// The attribute holds the workgroup tiles and the panel [MR, NR, KC, MC,
// NC]; the lanes come from the target's vector width.
// ATTR-LABEL: func.func private @matmul
// ATTR-SAME: tessel.strategy = #tessel.strategy<packed_matmul, workgroup = [64, 128, 0], panel = [8, 32, 256, 64, 128]>
// ATTR: linalg.matmul {tessel.strategy_root}
// CHECK-LABEL: func.func private @matmul
// CHECK: scf.forall {{.*}} = (0, 0) to (1000, 900) step (64, 128)
// CHECK: linalg.fill
// CHECK: linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 64, 128, 16, 64, 128>}
// CHECK-NOT: vector.contract
// AVX2: scf.forall {{.*}} = (0, 0) to (1000, 900) step (66, 64)
// AVX2: linalg.matmul {tessel.cpu_packed_matmul = array<i64: 6, 16, 256, 66, 64, 8, 66, 64>}
func.func private @matmul(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<1000x300xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<1000x300xf32> to tensor<1000x300xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<300x900xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<300x900xf32> to tensor<300x900xf32>
  %4 = tensor.empty() : tensor<1000x900xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1000x900xf32>) -> tensor<1000x900xf32>
  %6 = linalg.matmul ins(%1, %3 : tensor<1000x300xf32>, tensor<300x900xf32>) outs(%5 : tensor<1000x900xf32>) -> tensor<1000x900xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<1000x900xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<1000x900xf32>, memref<1000x900xf32>) -> ()
  return
}

// -----

// A tall problem keeps tall workgroups: each packs its own B blocks, so B is
// packed M / rows times. 4096x4096x512: 4096 x 256 halved to 512 x 256
// (8 x 16 = 128 workgroups, B packed 8 times), A packed 128 rows at a time
// inside.
// CHECK-LABEL: func.func private @tall
// CHECK: scf.forall {{.*}} = (0, 0) to (4096, 4096) step (512, 256)
// CHECK: linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 128, 256, 16, 512, 256>}
func.func private @tall(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<4096x512xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<4096x512xf32> to tensor<4096x512xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<512x4096xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<512x4096xf32> to tensor<512x4096xf32>
  %4 = tensor.empty() : tensor<4096x4096xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %6 = linalg.matmul ins(%1, %3 : tensor<4096x512xf32>, tensor<512x4096xf32>) outs(%5 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<4096x4096xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<4096x4096xf32>, memref<4096x4096xf32>) -> ()
  return
}

// -----

// A 3x3 NHWC convolution (batch 8, 56x56, 64 -> 64 channels) as an implicit
// GEMM: workgroups are one image x a band of output rows x output channels,
// K blocks of the 64 input channels. The cost model (16 threads) takes bands
// of 7 rows (392 pixels: B packed once per 392 rows), 8 x 8 = 64 workgroups,
// 4 per thread (the target description's 16 cores; below, 128).
// CHECK-LABEL: func.func private @conv
// CHECK: scf.forall {{.*}} = (0, 0) to (8, 56) step (1, 7)
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}tessel.cpu_packed_matmul = array<i64: 8, 32, 64, 392, 64, 16, -1, -1>
// AVX2-LABEL: func.func private @conv
// AVX2: linalg.conv_2d_nhwc_hwcf {{.*}}tessel.cpu_packed_matmul = array<i64: 6, 16, 64, 392, 64, 8, -1, -1>
func.func private @conv(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<8x58x58x64xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<8x58x58x64xf32> to tensor<8x58x58x64xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<3x3x64x64xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<3x3x64x64xf32> to tensor<3x3x64x64xf32>
  %4 = tensor.empty() : tensor<8x56x56x64xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
  %6 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%1, %3 : tensor<8x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%5 : tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<8x56x56x64xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<8x56x56x64xf32>, memref<8x56x56x64xf32>) -> ()
  return
}

// -----

// Below the size that amortizes packing (K < 128): register tiles.
// CHECK-LABEL: func.func private @small_k
// CHECK-NOT: tessel.cpu_packed_matmul
// CHECK: vector.contract
func.func private @small_k(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<512x64xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<512x64xf32> to tensor<512x64xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<64x512xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<64x512xf32> to tensor<64x512xf32>
  %4 = tensor.empty() : tensor<512x512xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %6 = linalg.matmul ins(%1, %3 : tensor<512x64xf32>, tensor<64x512xf32>) outs(%5 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<512x512xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<512x512xf32>, memref<512x512xf32>) -> ()
  return
}

// -----

// A matmul epilogue (fuse-epilogues dispatch: relu(A B + bias)): the
// workgroups tile the epilogue, the matmul is fused into them and marked
// for the packed loops (its C block), and the epilogue is tiled to one
// vector per row step without fusing the matmul again.
// CHECK-LABEL: func.func private @epilogue
// CHECK: scf.forall {{.*}} = (0, 0) to (1000, 900) step (64, 128)
// CHECK: linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 64, 128, 16, 64, 128>}
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : vector<1x16xf32>
// CHECK-NOT: linalg.matmul
// (cpu-strategy-emitters.mlir: the same kernel as matmul_epilogue, in
// register tiles.)
func.func private @epilogue(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
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
      ins(%6, %bias : tensor<1000x900xf32>, tensor<900xf32>) outs(%4 : tensor<1000x900xf32>) {
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

// ResNet's 14x14x256 layer: an image row is 14 pixels, so bands of one row
// would pack B (2304 x NC) for 14 rows; the model takes whole images (196
// rows) and halves the 256 channels: 8 x 2 = 16 workgroups, one per thread.
// CHECK-LABEL: func.func private @conv14
// CHECK: scf.forall {{.*}} = (0, 0) to (8, 256) step (1, 128)
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 196, 128, 16, -1, -1>
func.func private @conv14(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<8x16x16x256xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<8x16x16x256xf32> to tensor<8x16x16x256xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<3x3x256x256xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<3x3x256x256xf32> to tensor<3x3x256x256xf32>
  %4 = tensor.empty() : tensor<8x14x14x256xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<8x14x14x256xf32>) -> tensor<8x14x14x256xf32>
  %6 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%1, %3 : tensor<8x16x16x256xf32>, tensor<3x3x256x256xf32>) outs(%5 : tensor<8x14x14x256xf32>) -> tensor<8x14x14x256xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<8x14x14x256xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<8x14x14x256xf32>, memref<8x14x14x256xf32>) -> ()
  return
}

// -----

// The conv of @conv for a 128-core target: balanced for 128 threads, the
// model splits the channels too (8 x 8 x 2 workgroups).
// CHECK-LABEL: func.func private @conv_128_cores
// CHECK: scf.forall {{.*}} = (0, 0, 0) to (8, 56, 64) step (1, 7, 32)
// CHECK: tessel.cpu_packed_matmul = array<i64: 8, 32, 64, 392, 32, 16, -1, -1>
module attributes {tessel.target = #tessel.cpu_target<cpu = "x86-64-v4", vector_bits = 512, cores = 128, l1 = 49152, l2 = 2097152, l3 = 33554432>} {
func.func private @conv_128_cores(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<8x58x58x64xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<8x58x58x64xf32> to tensor<8x58x58x64xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<3x3x64x64xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<3x3x64x64xf32> to tensor<3x3x64x64xf32>
  %4 = tensor.empty() : tensor<8x56x56x64xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
  %6 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%1, %3 : tensor<8x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%5 : tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<8x56x56x64xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<8x56x56x64xf32>, memref<8x56x56x64xf32>) -> ()
  return
}
}
