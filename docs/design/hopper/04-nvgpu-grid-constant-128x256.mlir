// Experiment 4: the nvgpu route with Tessel's kernel ABI extended by
// tensor maps: a gpu.func whose tensor-map arguments are `!llvm.ptr` with
// {llvm.byval = !llvm.array<128 x i8>, llvm.align = 128, nvvm.grid_constant}
// (do the attributes survive convert-gpu-to-nvvm?), cast to
// !nvgpu.tensormap.descriptor. 128x256 tile of one 64-wide K stage:
// A 128x64 (one box), B 64(k)x256(n) as four 64x64 boxes (128B swizzle
// limits the inner box extent to 128 bytes), accumulator vector<128x256xf32>
// (one warpgroup would hold 256 f32 per thread: here only to see what
// nvgpu.warpgroup.mma emits for N = 256), a multicast load, and a TMA store
// of a 64x64 f16 tile from shared memory.
//
// RUN (from this directory):
//   /usr/lib/llvm-22/bin/mlir-opt 04-nvgpu-grid-constant-128x256.mlir \
//     --pass-pipeline='builtin.module(gpu.module(convert-nvgpu-to-nvvm),convert-scf-to-cf,gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1 index-bitwidth=64}),convert-nvvm-to-llvm,reconcile-unrealized-casts,nvvm-attach-target{chip=sm_90a features=+ptx80 O=3},gpu-module-to-binary{format=isa})' \
//     -o out/04.isa.mlir
//   ./extract_ptx.py out/04.isa.mlir > out/04.ptx
//   /usr/local/cuda/bin/ptxas -arch=sm_90a -v out/04.ptx -o out/04.cubin

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
!mapA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!mapC = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!smem = memref<?xi8, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @tile_128x256(
      %pA: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 128 : i64},
      %pB: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 128 : i64},
      %pC: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 128 : i64},
      %D: memref<128x256xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %descA = builtin.unrealized_conversion_cast %pA : !llvm.ptr to !mapA
    %descB = builtin.unrealized_conversion_cast %pB : !llvm.ptr to !mapB
    %descC = builtin.unrealized_conversion_cast %pC : !llvm.ptr to !mapC
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c192 = arith.constant 192 : index
    %o16k = arith.constant 16384 : index
    %o24k = arith.constant 24576 : index
    %o32k = arith.constant 32768 : index
    %o40k = arith.constant 40960 : index
    %tx = arith.constant 49152 : index
    %ticks = arith.constant 10000000 : index
    %mask = arith.constant 3 : i16
    %tid = gpu.thread_id x
    %smem = gpu.dynamic_shared_memory : !smem
    %bar = nvgpu.mbarrier.create -> !bars
    %leader = arith.cmpi eq, %tid, %c0 : index
    nvgpu.mbarrier.init %bar[%c0], %c1, predicate = %leader : !bars
    gpu.barrier
    %a = memref.view %smem[%c0][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
    %b = memref.view %smem[%o16k][] : !smem to memref<64x256xf16, #gpu.address_space<workgroup>>
    %b0 = memref.view %smem[%o16k][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
    %b1 = memref.view %smem[%o24k][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
    %b2 = memref.view %smem[%o32k][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
    %b3 = memref.view %smem[%o40k][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
    scf.if %leader {
      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %tx : !bars
      nvgpu.tma.async.load %descA[%c0, %c0], %bar[%c0] to %a multicast_mask = %mask : !mapA, !bars -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %descB[%c0, %c0], %bar[%c0] to %b0 : !mapB, !bars -> memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %descB[%c64, %c0], %bar[%c0] to %b1 : !mapB, !bars -> memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %descB[%c128, %c0], %bar[%c0] to %b2 : !mapB, !bars -> memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %descB[%c192, %c0], %bar[%c0] to %b3 : !mapB, !bars -> memref<64x64xf16, #gpu.address_space<workgroup>>
    }
    %phase = arith.constant 0 : i1
    nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x256xf32>>
    %dA = nvgpu.warpgroup.generate.descriptor %a, %descA : memref<128x64xf16, #gpu.address_space<workgroup>>, !mapA -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>
    %dB = nvgpu.warpgroup.generate.descriptor %b, %descB : memref<64x256xf16, #gpu.address_space<workgroup>>, !mapB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x256xf16, #gpu.address_space<workgroup>>>
    %acc1 = nvgpu.warpgroup.mma %dA, %dB, %acc0 {transposeB} : <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x256xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<128x256xf32>> -> <fragmented = vector<128x256xf32>>
    nvvm.wgmma.wait.group.sync.aligned 0
    nvgpu.warpgroup.mma.store %acc1, %D : <fragmented = vector<128x256xf32>> to memref<128x256xf32>
    // TMA store of a 64x64 f16 tile staged in shared memory.
    %c = memref.view %smem[%c0][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.barrier
    scf.if %leader {
      nvgpu.tma.async.store %c to %descC[%c0, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>> -> !mapC
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0
    }
    gpu.return
  }
}
}
