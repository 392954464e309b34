// Experiment 6: what nvgpu.tma.create.descriptor (host side) lowers to.
// RUN: /usr/lib/llvm-22/bin/mlir-opt 06-host-create-descriptor.mlir \
//        --convert-nvgpu-to-nvvm --convert-arith-to-llvm --finalize-memref-to-llvm --convert-func-to-llvm \
//        --reconcile-unrealized-casts
// Result: a call to @mgpuTensorMapEncodeTiledMemref (MLIR's CUDA runtime
// wrappers, libmlir_cuda_runtime: not in Debian's packages, not Tessel's
// runtime) returning a device pointer to the encoded map.
!map = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @make(%a: memref<*xf16>) -> !llvm.ptr {
  %c128 = arith.constant 128 : index
  %c64 = arith.constant 64 : index
  %d = nvgpu.tma.create.descriptor %a box[%c128, %c64] : memref<*xf16> -> !map
  %p = builtin.unrealized_conversion_cast %d : !map to !llvm.ptr
  return %p : !llvm.ptr
}
