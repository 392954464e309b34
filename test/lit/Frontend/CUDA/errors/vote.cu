// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// Warp votes (shuffles are supported: warp.cu). Reported in clang's
// __clang_cuda_intrinsics.h wrapper, not at the user's line.

__global__ void k(int *out) {
  // CHECK: {{.*}}__clang_cuda_intrinsics.h:{{[0-9]+}}:{{[0-9]+}}: error: warp-level intrinsic '__nvvm_vote_ballot_sync' (votes, match, activemask, shuffles without _sync) is not supported yet
  out[0] = __ballot_sync(0xffffffffu, out[threadIdx.x] > 0);
}
