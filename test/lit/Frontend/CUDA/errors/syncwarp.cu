// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// __syncwarp. Reported in clang's wrapper, not at the user's line.

__global__ void k(int *out) {
  out[threadIdx.x] = 1;
  // CHECK: {{.*}}__clang_cuda_intrinsics.h:{{[0-9]+}}:{{[0-9]+}}: error: builtin '__nvvm_bar_warp_sync' is not supported
  __syncwarp();
}
