// RUN: tessel-opt %s --tessel-cpu-tile-and-vectorize=vector-bits=512 --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-cpu-tile-and-vectorize=vector-bits=256 --split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: tessel-opt %s --tessel-cpu-tile-and-vectorize=vector-bits=512 --tessel-cpu-packed-panels=false --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: tessel-opt %s --tessel-cpu-tile-and-vectorize=vector-bits=512 --tessel-cpu-packed-threads=128 --split-input-file | FileCheck %s --check-prefix=T128
// RUN: tessel-opt %s --tessel-cpu-tile-and-vectorize=vector-bits=512 --tessel-cpu-packed-workgroup-rows=128 --split-input-file | FileCheck %s --check-prefix=ROWS128

// The packed strategy (CPUKernelConfig): a 1000x900x300 f32 matmul is tiled
// to workgroups only, blocks of all rows x 256 columns, the larger halved
// until >= 128 workgroups (with AVX-512, MR 8, NR 32: 64 x 128 -> 16 x 8 =
// 128; with AVX2, MR 6, NR 16: 66 x 64 -> 16 x 15 = 240), and its tile is
// marked with [MR, NR, KC, MC, NC, lanes] for tessel-cpu-packed-matmul (MC:
// rows of A packed at a time, at most 16 MR); no register tiles or vectors.
// Switched off, it gets today's register tiles.
// CHECK-LABEL: func.func private @matmul
// CHECK: scf.forall {{.*}} = (0, 0) to (1000, 900) step (64, 128)
// CHECK: linalg.fill
// CHECK: linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 64, 128, 16>}
// CHECK-NOT: vector.contract
// AVX2: scf.forall {{.*}} = (0, 0) to (1000, 900) step (66, 64)
// AVX2: linalg.matmul {tessel.cpu_packed_matmul = array<i64: 6, 16, 256, 66, 64, 8>}
// OFF-NOT: tessel.cpu_packed_matmul
// OFF: vector.contract
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
// inside. --tessel-cpu-packed-workgroup-rows=128 caps the rows (512
// workgroups, B packed 32 times).
// CHECK-LABEL: func.func private @tall
// CHECK: scf.forall {{.*}} = (0, 0) to (4096, 4096) step (512, 256)
// CHECK: linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 128, 256, 16>}
// ROWS128-LABEL: func.func private @tall
// ROWS128: scf.forall {{.*}} = (0, 0) to (4096, 4096) step (128, 256)
// ROWS128: linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 128, 256, 16>}
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
// 4 per thread; balanced for 128 threads it splits the channels instead.
// CHECK-LABEL: func.func private @conv
// CHECK: scf.forall {{.*}} = (0, 0) to (8, 56) step (1, 7)
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}tessel.cpu_packed_matmul = array<i64: 8, 32, 64, 392, 64, 16>
// AVX2-LABEL: func.func private @conv
// AVX2: linalg.conv_2d_nhwc_hwcf {{.*}}tessel.cpu_packed_matmul = array<i64: 6, 16, 64, 392, 64, 8>
// T128-LABEL: func.func private @conv
// T128: scf.forall {{.*}} = (0, 0, 0) to (8, 56, 64) step (1, 7, 32)
// T128: tessel.cpu_packed_matmul = array<i64: 8, 32, 64, 392, 32, 16>
// OFF-LABEL: func.func private @conv
// OFF-NOT: tessel.cpu_packed_matmul
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
// CHECK: linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 64, 128, 16>}
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : vector<1x16xf32>
// CHECK-NOT: linalg.matmul
// Without the packed strategy (or for a contraction it does not take: K <
// 128, f16), the workgroup computes its C block in 8 x 2-vector register
// tiles first, then the epilogue, again without recomputing the matmul.
// OFF-LABEL: func.func private @epilogue
// OFF-NOT: tessel.cpu_packed_matmul
// OFF: scf.forall {{.*}} = (0, 0) to (1000, 900) step (64, 256)
// OFF: vector.contract {{.*}} : vector<8x4xf32>, vector<4x32xf32> into vector<8x32xf32>
// OFF: arith.maximumf %{{.+}}, %{{.+}} : vector<1x16xf32>
// OFF-NOT: linalg.matmul
// OFF: scf.forall.in_parallel
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
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 196, 128, 16>
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
