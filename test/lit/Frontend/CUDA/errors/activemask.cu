// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// __activemask. Reported in clang's __clang_cuda_intrinsics.h wrapper, not
// at the user's line.

__global__ void k(unsigned *out) {
  // CHECK: {{.*}}__clang_cuda_intrinsics.h:{{[0-9]+}}:{{[0-9]+}}: error: warp-level intrinsic '__nvvm_activemask' (votes, match, activemask, shuffles without _sync) is not supported yet
  out[0] = __activemask();
}
