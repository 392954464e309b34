//===- TesselCUDAOps.td - ops of imported CUDA kernels ---------*- tablegen -*-===//
//
// What the CUDA C frontend (compiler/lib/Frontend/CUDA) needs beyond upstream
// MLIR. Thread and block ids are upstream's gpu.thread_id / gpu.block_id /
// gpu.block_dim / gpu.grid_dim; the block-wide barrier is Tessel's own,
// because its meaning is given by memory effects (Polygeist's barrier).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CUDA_OPS
#define TESSEL_CUDA_OPS

def Tessel_BarrierOp : Tessel_Op<"barrier",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "block-wide barrier of a CUDA kernel (__syncthreads)";
  let description = [{
    Every thread of the block waits here until all threads of the block
    have arrived, and the memory writes made before it are visible after
    it. Its memory effects are the union of the effects of the other ops of
    the code that runs per thread (the enclosing kernel body, or the
    enclosing thread-parallel `scf.parallel` once the kernel has been given
    explicit loops): no access may move across it, while code without
    memory effects (index arithmetic) still may.

    A barrier whose surrounding code cannot conflict (the reads and writes
    before it and after it touch different memory) is removed by
    `tessel-eliminate-barriers`; the CPU lowering splits the thread loop at
    the others (`tessel-fission-at-barriers`).

    ```mlir
    tessel.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TESSEL_CUDA_OPS
