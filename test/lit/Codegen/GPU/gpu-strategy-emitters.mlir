// RUN: tessel-opt %s --tessel-gpu-tile-and-vectorize --split-input-file --verify-diagnostics | FileCheck %s

// tessel-gpu-tile-and-vectorize reads only the kernel's #tessel.strategy
// (and the op marked tessel.strategy_root): every emitter runs from an
// attribute written here, with parameters the cost model would not choose.
// No CUDA toolkit needed.

// mma.sync with 64x128 blocks and 3 stages: a grid of 1024/128 x 2048/64
// blocks of 4 warps; the 3-stage rings of A (64 rows x 64 bytes) and B (64
// k-rows x 256 bytes) fit in static shared memory (36 KiB).
// CHECK-DAG: memref.global "private" @{{.+}}_a : memref<3x{{.+}}, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @{{.+}}_b : memref<3x{{.+}}, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func private @mma_dispatch_0
// CHECK-SAME: tessel.kernel, tessel.strategy = #tessel.strategy<mma_sync_matmul, tile = [64, 128, 32], stages = 3>, tessel.workgroup_count = array<i64: 8, 32, 1>, tessel.workgroup_size = array<i64: 128, 1, 1>
// CHECK: nvvm.mma.sync
// CHECK-NOT: tessel.strategy_root
func.func private @mma_dispatch_0(%arg0: memref<2048x64xf16>, %arg1: memref<64x1024xf16>, %arg2: memref<2048x1024xf32>) attributes {tessel.dispatch_function, tessel.kernel, tessel.strategy = #tessel.strategy<mma_sync_matmul, tile = [64, 128, 32], stages = 3>} {
  %cst = arith.constant 0.000000e+00 : f32
  %a = memref.assume_alignment %arg0, 64 : memref<2048x64xf16>
  %0 = bufferization.to_tensor %a restrict : memref<2048x64xf16> to tensor<2048x64xf16>
  %b = memref.assume_alignment %arg1, 64 : memref<64x1024xf16>
  %1 = bufferization.to_tensor %b restrict : memref<64x1024xf16> to tensor<64x1024xf16>
  %c = memref.assume_alignment %arg2, 64 : memref<2048x1024xf32>
  %2 = tensor.empty() : tensor<2048x1024xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %4 = linalg.matmul {tessel.strategy_root} ins(%0, %1 : tensor<2048x64xf16>, tensor<64x1024xf16>) outs(%3 : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  bufferization.materialize_in_destination %4 in restrict writable %c : (tensor<2048x1024xf32>, memref<2048x1024xf32>) -> ()
  return
}

// -----

// wgmma with 128x192 tiles, 5 stages and a persistent grid of 7 blocks of
// 3 warpgroups: 1024 + 5 x (16 + 24) KiB + 80 bytes of barriers of
// dynamic shared memory, two tensor maps after the bindings.
// CHECK-LABEL: func.func private @wgmma_dispatch_0
// CHECK-SAME: %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
// CHECK-SAME: tessel.resident_blocks_per_sm = 1 : i64, tessel.shared_memory_bytes = 205904 : i64
// CHECK-SAME: tessel.workgroup_count = array<i64: 7, 1, 1>, tessel.workgroup_size = array<i64: 384, 1, 1>
// Per stage a full barrier (one arrival: the producer's, plus the TMA
// bytes) and an empty one (one arrival per consumer warp: 2 x 4).
// CHECK: nvvm.mbarrier.init %{{.+}}, %c1_i32
// CHECK-NEXT: arith.addi
// CHECK-NEXT: llvm.inttoptr
// CHECK-NEXT: nvvm.mbarrier.init %{{.+}}, %c8_i32
// The tile loop strides by the launched grid (the runtime launches at most
// one block per SM of the GPU that runs it, 7 at most) and counts the
// block's tiles (no division by gridDim.x).
// CHECK: %[[BID:.+]] = gpu.block_id x
// CHECK: %[[GRID:.+]] = gpu.grid_dim x
// CHECK: scf.for %{{.+}} = %[[BID]] to %{{.+}} step %[[GRID]] iter_args(%{{.+}} = %c0)
// The consumer: K = 256 is 4 slices of 64. Slice 0 starts the sum
// (scale-d zero); slices 1-2 each release the slice before once its group
// is done; slice 3 is waited for to the end (no other wait between its
// wgmmas and the epilogue: ptxas moved accumulator reads above the final
// wait when a wait for 1 group sat there), through inline assembly that
// passes every accumulator register, then slices 2 and 3 are released.
// CHECK: nvvm.wgmma.mma_async {{.+}} D[<f32>, <zero>]
// CHECK: scf.for %{{.+}} = %c1 to %c3 step %c1 iter_args
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive
// CHECK: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.wgmma.wait.group
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "=f,{{.+}},~{memory}"
// CHECK: nvvm.mbarrier.arrive
// CHECK: nvvm.mbarrier.arrive
func.func private @wgmma_dispatch_0(%arg0: memref<2048x256xf16>, %arg1: memref<256x1024xf16>, %arg2: memref<2048x1024xf32>) attributes {tessel.dispatch_function, tessel.kernel, tessel.strategy = #tessel.strategy<wgmma_matmul, tile = [128, 192, 64], stages = 5, grid = 7>} {
  %cst = arith.constant 0.000000e+00 : f32
  %a = memref.assume_alignment %arg0, 64 : memref<2048x256xf16>
  %0 = bufferization.to_tensor %a restrict : memref<2048x256xf16> to tensor<2048x256xf16>
  %b = memref.assume_alignment %arg1, 64 : memref<256x1024xf16>
  %1 = bufferization.to_tensor %b restrict : memref<256x1024xf16> to tensor<256x1024xf16>
  %c = memref.assume_alignment %arg2, 64 : memref<2048x1024xf32>
  %2 = tensor.empty() : tensor<2048x1024xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %4 = linalg.matmul {tessel.strategy_root} ins(%0, %1 : tensor<2048x256xf16>, tensor<256x1024xf16>) outs(%3 : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  bufferization.materialize_in_destination %4 in restrict writable %c : (tensor<2048x1024xf32>, memref<2048x1024xf32>) -> ()
  return
}

// -----

// The SIMT matmul with 128x128 blocks (the cost model takes 64x64 at
// this size): 8x8 blocks of 16x16 threads.
// CHECK-LABEL: func.func private @simt_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 8, 8, 1>, tessel.workgroup_size = array<i64: 16, 16, 1>
func.func private @simt_dispatch_0(%arg0: memref<1024x64xf32>, %arg1: memref<64x1024xf32>, %arg2: memref<1024x1024xf32>) attributes {tessel.dispatch_function, tessel.kernel, tessel.strategy = #tessel.strategy<simt_matmul, tile = [128, 128, 8]>} {
  %cst = arith.constant 0.000000e+00 : f32
  %a = memref.assume_alignment %arg0, 64 : memref<1024x64xf32>
  %0 = bufferization.to_tensor %a restrict : memref<1024x64xf32> to tensor<1024x64xf32>
  %b = memref.assume_alignment %arg1, 64 : memref<64x1024xf32>
  %1 = bufferization.to_tensor %b restrict : memref<64x1024xf32> to tensor<64x1024xf32>
  %c = memref.assume_alignment %arg2, 64 : memref<1024x1024xf32>
  %2 = tensor.empty() : tensor<1024x1024xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %4 = linalg.matmul {tessel.strategy_root} ins(%0, %1 : tensor<1024x64xf32>, tensor<64x1024xf32>) outs(%3 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  bufferization.materialize_in_destination %4 in restrict writable %c : (tensor<1024x1024xf32>, memref<1024x1024xf32>) -> ()
  return
}

// -----

// Tiled with the test's tiles: blocks of 8x128, 1x4 per thread.
// CHECK-LABEL: func.func private @ew_dispatch_0
// CHECK: scf.forall ({{.+}}) = (0, 0) to (64, 256) step (8, 128)
// CHECK: scf.forall ({{.+}}) = (0, 0) to (8, 128) step (1, 4)
// CHECK: math.exp %{{.+}} : vector<1x4xf32>
func.func private @ew_dispatch_0(%arg0: memref<64x256xf32>, %arg1: memref<64x256xf32>) attributes {tessel.dispatch_function, tessel.kernel, tessel.strategy = #tessel.strategy<tiled, workgroup = [8, 128], thread = [1, 4], reduction = [0, 0]>} {
  %a = memref.assume_alignment %arg0, 64 : memref<64x256xf32>
  %0 = bufferization.to_tensor %a restrict : memref<64x256xf32> to tensor<64x256xf32>
  %b = memref.assume_alignment %arg1, 64 : memref<64x256xf32>
  %1 = tensor.empty() : tensor<64x256xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], tessel.strategy_root} ins(%0 : tensor<64x256xf32>) outs(%1 : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = math.exp %in : f32
    linalg.yield %3 : f32
  } -> tensor<64x256xf32>
  bufferization.materialize_in_destination %2 in restrict writable %b : (tensor<64x256xf32>, memref<64x256xf32>) -> ()
  return
}

// -----

// A kernel without a strategy is an error naming the pass that writes it.
// expected-error @+1 {{kernel none_dispatch_0 has no tessel.strategy (run tessel-gpu-select-strategy first)}}
func.func private @none_dispatch_0(%arg0: memref<4xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  return
}

// -----

// A matmul strategy without a marked root.
// expected-error @+1 {{strategy 'simt_matmul' needs its root (the op marked tessel.strategy_root) to be a contraction or convolution}}
func.func private @noroot_dispatch_0(%arg0: memref<4xf32>) attributes {tessel.dispatch_function, tessel.kernel, tessel.strategy = #tessel.strategy<simt_matmul, tile = [64, 64, 8]>} {
  return
}

// -----

// wgmma with a dynamic M (push constant 0 for A's rows, 1 for C's): A's
// tensor map takes its rows from push constant 0 when the runtime encodes
// it (dims innermost first), the grid is a block per 128x256 tile
// (ceildiv(M, 128) x 3 columns; the runtime caps it at a block per SM),
// and the tile loop and the edge masks read M from C's extent.
// CHECK: #[[WGMMA_COUNT:.+]] = affine_map<()[s0, s1] -> ((s0 ceildiv 128) * 3, 1, 1)>
// CHECK-LABEL: func.func private @wgmma_dynamic_m_dispatch_0
// CHECK-SAME: global_dim_push_constants = array<i64: -1, 0>, global_dims = array<i64: 512, 1>
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>
// CHECK-SAME: tessel.workgroup_count_map = #[[WGMMA_COUNT]]
// CHECK: arith.ceildivui
// CHECK: nvvm.wgmma.mma_async
// CHECK: vector.maskedstore
func.func private @wgmma_dynamic_m_dispatch_0(%arg0: memref<f16>, %arg1: memref<512x768xf16>, %arg2: memref<f16>) attributes {tessel.binding_count = 3 : i64, tessel.dispatch_function, tessel.kernel, tessel.push_constant_count = 2 : i64, tessel.strategy = #tessel.strategy<wgmma_matmul, tile = [128, 256, 64], stages = 4, grid = 132>} {
  %cst = arith.constant 0.000000e+00 : f16
  %a0 = memref.assume_alignment %arg0, 64 : memref<f16>
  %m = tessel.push_constant 0 : index
  %av = memref.reinterpret_cast %a0 to offset: [0], sizes: [%m, 512], strides: [512, 1] : memref<f16> to memref<?x512xf16, strided<[512, 1]>>
  %a = memref.cast %av : memref<?x512xf16, strided<[512, 1]>> to memref<?x512xf16>
  %0 = bufferization.to_tensor %a restrict : memref<?x512xf16> to tensor<?x512xf16>
  %b = memref.assume_alignment %arg1, 64 : memref<512x768xf16>
  %1 = bufferization.to_tensor %b restrict : memref<512x768xf16> to tensor<512x768xf16>
  %c0 = memref.assume_alignment %arg2, 64 : memref<f16>
  %mc = tessel.push_constant 1 : index
  %cv = memref.reinterpret_cast %c0 to offset: [0], sizes: [%mc, 768], strides: [768, 1] : memref<f16> to memref<?x768xf16, strided<[768, 1]>>
  %c = memref.cast %cv : memref<?x768xf16, strided<[768, 1]>> to memref<?x768xf16>
  %2 = tensor.empty(%m) : tensor<?x768xf16>
  %3 = linalg.fill ins(%cst : f16) outs(%2 : tensor<?x768xf16>) -> tensor<?x768xf16>
  %4 = linalg.matmul {tessel.strategy_root} ins(%0, %1 : tensor<?x512xf16>, tensor<512x768xf16>) outs(%3 : tensor<?x768xf16>) -> tensor<?x768xf16>
  bufferization.materialize_in_destination %4 in restrict writable %c : (tensor<?x768xf16>, memref<?x768xf16>) -> ()
  return
}

// -----

// mma.sync with a dynamic M: a grid of 768/64 columns x ceildiv(M, 64)
// rows of blocks, copies of A masked at M.
// CHECK: #[[MMA_COUNT:.+]] = affine_map<()[s0, s1] -> (12, s0 ceildiv 64, 1)>
// CHECK-LABEL: func.func private @mma_dynamic_m_dispatch_0
// CHECK-SAME: tessel.workgroup_count_map = #[[MMA_COUNT]]
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.mma.sync
func.func private @mma_dynamic_m_dispatch_0(%arg0: memref<f16>, %arg1: memref<512x768xf16>, %arg2: memref<f16>) attributes {tessel.binding_count = 3 : i64, tessel.dispatch_function, tessel.kernel, tessel.push_constant_count = 2 : i64, tessel.strategy = #tessel.strategy<mma_sync_matmul, tile = [64, 64, 32], stages = 4>} {
  %cst = arith.constant 0.000000e+00 : f16
  %a0 = memref.assume_alignment %arg0, 64 : memref<f16>
  %m = tessel.push_constant 0 : index
  %av = memref.reinterpret_cast %a0 to offset: [0], sizes: [%m, 512], strides: [512, 1] : memref<f16> to memref<?x512xf16, strided<[512, 1]>>
  %a = memref.cast %av : memref<?x512xf16, strided<[512, 1]>> to memref<?x512xf16>
  %0 = bufferization.to_tensor %a restrict : memref<?x512xf16> to tensor<?x512xf16>
  %b = memref.assume_alignment %arg1, 64 : memref<512x768xf16>
  %1 = bufferization.to_tensor %b restrict : memref<512x768xf16> to tensor<512x768xf16>
  %c0 = memref.assume_alignment %arg2, 64 : memref<f16>
  %mc = tessel.push_constant 1 : index
  %cv = memref.reinterpret_cast %c0 to offset: [0], sizes: [%mc, 768], strides: [768, 1] : memref<f16> to memref<?x768xf16, strided<[768, 1]>>
  %c = memref.cast %cv : memref<?x768xf16, strided<[768, 1]>> to memref<?x768xf16>
  %2 = tensor.empty(%m) : tensor<?x768xf16>
  %3 = linalg.fill ins(%cst : f16) outs(%2 : tensor<?x768xf16>) -> tensor<?x768xf16>
  %4 = linalg.matmul {tessel.strategy_root} ins(%0, %1 : tensor<?x512xf16>, tensor<512x768xf16>) outs(%3 : tensor<?x768xf16>) -> tensor<?x768xf16>
  bufferization.materialize_in_destination %4 in restrict writable %c : (tensor<?x768xf16>, memref<?x768xf16>) -> ()
  return
}

// -----

// An NHWC convolution as an implicit GEMM on mma.sync: M = 2x7x7 output
// pixels in 64-row blocks, N = 32 filters in one 64-wide block.
// CHECK-LABEL: func.func private @conv_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 2, 1>
// CHECK: nvvm.mma.sync
func.func private @conv_dispatch_0(%arg0: memref<2x9x9x16xf16>, %arg1: memref<3x3x16x32xf16>, %arg2: memref<2x7x7x32xf32>) attributes {tessel.dispatch_function, tessel.kernel, tessel.strategy = #tessel.strategy<mma_sync_matmul, tile = [64, 64, 32], stages = 3>} {
  %cst = arith.constant 0.000000e+00 : f32
  %a = memref.assume_alignment %arg0, 64 : memref<2x9x9x16xf16>
  %0 = bufferization.to_tensor %a restrict : memref<2x9x9x16xf16> to tensor<2x9x9x16xf16>
  %b = memref.assume_alignment %arg1, 64 : memref<3x3x16x32xf16>
  %1 = bufferization.to_tensor %b restrict : memref<3x3x16x32xf16> to tensor<3x3x16x32xf16>
  %c = memref.assume_alignment %arg2, 64 : memref<2x7x7x32xf32>
  %2 = tensor.empty() : tensor<2x7x7x32xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x7x7x32xf32>) -> tensor<2x7x7x32xf32>
  %4 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tessel.strategy_root} ins(%0, %1 : tensor<2x9x9x16xf16>, tensor<3x3x16x32xf16>) outs(%3 : tensor<2x7x7x32xf32>) -> tensor<2x7x7x32xf32>
  bufferization.materialize_in_destination %4 in restrict writable %c : (tensor<2x7x7x32xf32>, memref<2x7x7x32xf32>) -> ()
  return
}

// -----

// Flash attention with dynamic batch, query and key lengths (push
// constants 0-7: the extents of Q, K, V and the output): the grid is
// ceildiv(M, 64) query blocks x batch x 4 heads, computed by the host; the
// key loop runs ceildiv(K2, 64) tiles, keys past K2 are zero-filled and
// their scores -inf.
// CHECK: #[[FLASH:.+]] = affine_map<()[s0, s1, s2, s3, s4, s5, s6, s7] -> (s1 ceildiv 64, s0 * 4, 1)>
// CHECK-LABEL: func.func private @flash_dynamic_dispatch_0
// CHECK-SAME: tessel.workgroup_count_map = #[[FLASH]], tessel.workgroup_size = array<i64: 128, 1, 1>
// CHECK-DAG: %[[M:.+]] = tessel.push_constant 1 : index
// CHECK-DAG: %[[K2:.+]] = tessel.push_constant 3 : index
// CHECK: %[[TILES:.+]] = arith.ceildivui %[[K2]], %c64 : index
// CHECK: arith.cmpi ult, %{{.+}}, %[[K2]] : index
// CHECK: nvgpu.device_async_copy
// CHECK: scf.for %{{.+}} = %c0 to %[[TILES]] step %c1
// CHECK: nvgpu.ldmatrix
// CHECK: nvvm.mma.sync
#fq = affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>
#fk = affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>
#fv = affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>
#fs = affine_map<(b, h, m, n, k1, k2) -> ()>
#fo = affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>
func.func private @flash_dynamic_dispatch_0(%arg0: memref<f16>, %arg1: memref<f16>, %arg2: memref<f16>, %arg3: memref<f32>) attributes {tessel.binding_count = 4 : i64, tessel.dispatch_function, tessel.kernel, tessel.push_constant_count = 8 : i64, tessel.strategy = #tessel.strategy<flash_attention>} {
  %scale = arith.constant 0.17677669 : f32
  %b0 = tessel.push_constant 0 : index
  %m = tessel.push_constant 1 : index
  %qs = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%m]
  %qh = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%m]
  %qv = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%b0, 4, %m, 32], strides: [%qs, %qh, 32, 1] : memref<f16> to memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>>
  %qc = memref.cast %qv : memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>> to memref<?x4x?x32xf16>
  %q = bufferization.to_tensor %qc restrict : memref<?x4x?x32xf16> to tensor<?x4x?x32xf16>
  %b1 = tessel.push_constant 2 : index
  %k2 = tessel.push_constant 3 : index
  %ks = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%k2]
  %kh = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%k2]
  %kv = memref.reinterpret_cast %arg1 to offset: [0], sizes: [%b1, 4, %k2, 32], strides: [%ks, %kh, 32, 1] : memref<f16> to memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>>
  %kc = memref.cast %kv : memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>> to memref<?x4x?x32xf16>
  %k = bufferization.to_tensor %kc restrict : memref<?x4x?x32xf16> to tensor<?x4x?x32xf16>
  %b2 = tessel.push_constant 4 : index
  %k3 = tessel.push_constant 5 : index
  %vs = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%k3]
  %vh = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%k3]
  %vv = memref.reinterpret_cast %arg2 to offset: [0], sizes: [%b2, 4, %k3, 32], strides: [%vs, %vh, 32, 1] : memref<f16> to memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>>
  %vc = memref.cast %vv : memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>> to memref<?x4x?x32xf16>
  %v = bufferization.to_tensor %vc restrict : memref<?x4x?x32xf16> to tensor<?x4x?x32xf16>
  %b3 = tessel.push_constant 6 : index
  %m2 = tessel.push_constant 7 : index
  %os = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%m2]
  %oh = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%m2]
  %ov = memref.reinterpret_cast %arg3 to offset: [0], sizes: [%b3, 4, %m2, 32], strides: [%os, %oh, 32, 1] : memref<f32> to memref<?x4x?x32xf32, strided<[?, ?, 32, 1]>>
  %oc = memref.cast %ov : memref<?x4x?x32xf32, strided<[?, ?, 32, 1]>> to memref<?x4x?x32xf32>
  %e = tensor.empty(%b0, %m) : tensor<?x4x?x32xf32>
  %r = tessel.attention {indexing_maps = [#fq, #fk, #fv, #fs, #fo], tessel.strategy_root} ins(%q, %k, %v, %scale : tensor<?x4x?x32xf16>, tensor<?x4x?x32xf16>, tensor<?x4x?x32xf16>, f32) outs(%e : tensor<?x4x?x32xf32>) {
  ^bb0(%s: f32):
    tessel.yield %s : f32
  } -> tensor<?x4x?x32xf32>
  bufferization.materialize_in_destination %r in restrict writable %oc : (tensor<?x4x?x32xf32>, memref<?x4x?x32xf32>) -> ()
  return
}

// -----

// The variant for key lengths that are multiples of 64 (push constant 3,
// tessel.assumed_divisors): the same grid and key loop, no key masks (no
// comparison with K2, unpredicated copies).
// CHECK-LABEL: func.func private @flash_whole_keys_dispatch_0
// CHECK: %[[K2W:.+]] = tessel.push_constant 3 : index
// CHECK: arith.ceildivui %[[K2W]], %c64 : index
// CHECK-NOT: arith.cmpi ult, %{{.+}}, %[[K2W]] : index
// CHECK: return
#fqw = affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>
#fkw = affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>
#fvw = affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>
#fsw = affine_map<(b, h, m, n, k1, k2) -> ()>
#fow = affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>
func.func private @flash_whole_keys_dispatch_0(%arg0: memref<f16>, %arg1: memref<f16>, %arg2: memref<f16>, %arg3: memref<f32>) attributes {tessel.binding_count = 4 : i64, tessel.dispatch_function, tessel.kernel, tessel.assumed_divisors = array<i64: 0, 0, 0, 64, 0, 0, 0, 0>, tessel.push_constant_count = 8 : i64, tessel.strategy = #tessel.strategy<flash_attention>} {
  %scale = arith.constant 0.17677669 : f32
  %b0 = tessel.push_constant 0 : index
  %m = tessel.push_constant 1 : index
  %qs = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%m]
  %qh = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%m]
  %qv = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%b0, 4, %m, 32], strides: [%qs, %qh, 32, 1] : memref<f16> to memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>>
  %qc = memref.cast %qv : memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>> to memref<?x4x?x32xf16>
  %q = bufferization.to_tensor %qc restrict : memref<?x4x?x32xf16> to tensor<?x4x?x32xf16>
  %b1 = tessel.push_constant 2 : index
  %k2 = tessel.push_constant 3 : index
  %ks = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%k2]
  %kh = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%k2]
  %kv = memref.reinterpret_cast %arg1 to offset: [0], sizes: [%b1, 4, %k2, 32], strides: [%ks, %kh, 32, 1] : memref<f16> to memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>>
  %kc = memref.cast %kv : memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>> to memref<?x4x?x32xf16>
  %k = bufferization.to_tensor %kc restrict : memref<?x4x?x32xf16> to tensor<?x4x?x32xf16>
  %b2 = tessel.push_constant 4 : index
  %k3 = tessel.push_constant 5 : index
  %vs = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%k3]
  %vh = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%k3]
  %vv = memref.reinterpret_cast %arg2 to offset: [0], sizes: [%b2, 4, %k3, 32], strides: [%vs, %vh, 32, 1] : memref<f16> to memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>>
  %vc = memref.cast %vv : memref<?x4x?x32xf16, strided<[?, ?, 32, 1]>> to memref<?x4x?x32xf16>
  %v = bufferization.to_tensor %vc restrict : memref<?x4x?x32xf16> to tensor<?x4x?x32xf16>
  %b3 = tessel.push_constant 6 : index
  %m2 = tessel.push_constant 7 : index
  %os = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%m2]
  %oh = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%m2]
  %ov = memref.reinterpret_cast %arg3 to offset: [0], sizes: [%b3, 4, %m2, 32], strides: [%os, %oh, 32, 1] : memref<f32> to memref<?x4x?x32xf32, strided<[?, ?, 32, 1]>>
  %oc = memref.cast %ov : memref<?x4x?x32xf32, strided<[?, ?, 32, 1]>> to memref<?x4x?x32xf32>
  %e = tensor.empty(%b0, %m) : tensor<?x4x?x32xf32>
  %r = tessel.attention {indexing_maps = [#fqw, #fkw, #fvw, #fsw, #fow], tessel.strategy_root} ins(%q, %k, %v, %scale : tensor<?x4x?x32xf16>, tensor<?x4x?x32xf16>, tensor<?x4x?x32xf16>, f32) outs(%e : tensor<?x4x?x32xf32>) {
  ^bb0(%s: f32):
    tessel.yield %s : f32
  } -> tensor<?x4x?x32xf32>
  bufferization.materialize_in_destination %r in restrict writable %oc : (tensor<?x4x?x32xf32>, memref<?x4x?x32xf32>) -> ()
  return
}
