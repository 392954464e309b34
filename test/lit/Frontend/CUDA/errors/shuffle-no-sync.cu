// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// The deprecated shuffles without _sync (__shfl_down, ...); the _sync forms
// are supported (warp.cu). Reported in clang's __clang_cuda_intrinsics.h
// wrapper, not at the user's line.

__global__ void k(int *out) {
  // CHECK: {{.*}}__clang_cuda_intrinsics.h:{{[0-9]+}}:{{[0-9]+}}: error: warp-level intrinsic '__nvvm_shfl_down_i32' (votes, match, activemask, shuffles without _sync) is not supported yet
  out[0] = __shfl_down(out[threadIdx.x], 1);
}
