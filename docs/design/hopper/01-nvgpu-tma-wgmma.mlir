// Experiment 1: the nvgpu route. One CTA of one warpgroup (128 threads):
// mbarrier init, TMA loads of a 128x64 A tile and two 64x64 B tiles (128B
// swizzle) completing on an mbarrier with expect_tx, wait on parity,
// warpgroup.generate.descriptor + warpgroup.mma (128x128x64 = 8 x
// wgmma.m64n128k16), mma.store to global.
// The tensor maps arrive as generic pointers (!llvm.ptr) to 128-byte
// CUtensorMaps, cast to !nvgpu.tensormap.descriptor in the body.
//
// RUN (PTX + ptxas; from this directory):
//   /usr/lib/llvm-22/bin/mlir-opt 01-nvgpu-tma-wgmma.mlir \
//     --pass-pipeline='builtin.module(gpu.module(convert-nvgpu-to-nvvm),convert-scf-to-cf,gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1 index-bitwidth=64}),reconcile-unrealized-casts,nvvm-attach-target{chip=sm_90a features=+ptx80 O=3},gpu-module-to-binary{format=isa})' \
//     -o out/01.isa.mlir
//   (extract the PTX string; see run.sh) ptxas -arch=sm_90a out/01.ptx -o out/01.cubin
// Result: see README.md in this directory.

!barrierType = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!lhsTensorMap = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!rhsTensorMap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @tma_wgmma(%pA: !llvm.ptr, %pB: !llvm.ptr,
                      %D: memref<128x128xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    // convert-gpu-to-nvvm cannot convert a gpu.func signature holding
    // !nvgpu.tensormap.descriptor: take !llvm.ptr and cast.
    %descA = builtin.unrealized_conversion_cast %pA : !llvm.ptr to !lhsTensorMap
    %descB = builtin.unrealized_conversion_cast %pB : !llvm.ptr to !rhsTensorMap
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c8192 = arith.constant 8192 : index
    %c16384 = arith.constant 16384 : index
    %c24576 = arith.constant 24576 : index
    %txcount = arith.constant 32768 : index
    %ticks = arith.constant 10000000 : index
    %tidx = gpu.thread_id x
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %barrier = nvgpu.mbarrier.create -> !barrierType
    %leader = arith.cmpi eq, %tidx, %c0 : index
    nvgpu.mbarrier.init %barrier[%c0], %c1, predicate = %leader : !barrierType
    gpu.barrier
    nvgpu.tma.prefetch.descriptor %descA : !lhsTensorMap
    nvgpu.tma.prefetch.descriptor %descB : !rhsTensorMap
    %aTile = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
    %bTile = memref.view %smem[%c16384][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x128xf16, #gpu.address_space<workgroup>>
    %bHalf0 = memref.view %smem[%c16384][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf16, #gpu.address_space<workgroup>>
    %bHalf1 = memref.view %smem[%c24576][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf16, #gpu.address_space<workgroup>>
    scf.if %leader {
      nvgpu.mbarrier.arrive.expect_tx %barrier[%c0], %txcount : !barrierType
      nvgpu.tma.async.load %descA[%c0, %c0], %barrier[%c0] to %aTile : !lhsTensorMap, !barrierType -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %descB[%c0, %c0], %barrier[%c0] to %bHalf0 : !rhsTensorMap, !barrierType -> memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %descB[%c64, %c0], %barrier[%c0] to %bHalf1 : !rhsTensorMap, !barrierType -> memref<64x64xf16, #gpu.address_space<workgroup>>
    }
    %phase = arith.constant 0 : i1
    nvgpu.mbarrier.try_wait.parity %barrier[%c0], %phase, %ticks : !barrierType
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
    %dA = nvgpu.warpgroup.generate.descriptor %aTile, %descA : memref<128x64xf16, #gpu.address_space<workgroup>>, !lhsTensorMap -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>
    %dB = nvgpu.warpgroup.generate.descriptor %bTile, %descB : memref<64x128xf16, #gpu.address_space<workgroup>>, !rhsTensorMap -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>
    %acc1 = nvgpu.warpgroup.mma %dA, %dB, %acc0 {transposeB} : <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
    nvvm.wgmma.wait.group.sync.aligned 0
    nvgpu.warpgroup.mma.store %acc1, %D : <fragmented = vector<128x128xf32>> to memref<128x128xf32>
    gpu.return
  }
}
}
