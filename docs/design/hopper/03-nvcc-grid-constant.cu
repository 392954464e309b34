// Experiment 3 (reference): how nvcc 13.0 declares a `const __grid_constant__
// CUtensorMap` kernel parameter and addresses it in cp.async.bulk.tensor,
// to compare with the MLIR output of 02-nvvm-warp-specialized.mlir.
// RUN: /usr/local/cuda/bin/nvcc -gencode=arch=compute_90a,code=sm_90a --ptx \
//        03-nvcc-grid-constant.cu -o out/03.ptx
#include <cuda.h>
#include <cstdint>
__global__ void __launch_bounds__(128, 1)
load_tile(const __grid_constant__ CUtensorMap tmap, int x, int y) {
  __shared__ alignas(1024) unsigned char tile[128 * 64 * 2];
  __shared__ alignas(8) uint64_t bar;
  uint32_t barAddr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(barAddr));
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(barAddr), "r"(16384));
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(dst), "l"(&tmap), "r"(x), "r"(y), "r"(barAddr) : "memory");
  }
}
