/* The CUDA C kernel ABI (schema/module.fbs, `KernelAbi.CudaC`) and the
 * embedded-module format of Tessel's CUDA runtime library, shared by the
 * compiler (tessel-cc) and the runtime. Plain C, no dependencies: kernels
 * transpiled to C include it too.
 *
 * cpu kernels of a CudaC export have the signature
 *   void name(void **args, int64_t bx, int64_t by, int64_t bz);
 * and are called once per block id (bx, by, bz) of the grid, x fastest,
 * possibly concurrently for different blocks. args[0] points to a
 * TesselLaunch; args[1 + i] points to the value of kernel parameter i
 * (Export.parameter_sizes[i] bytes, 64-byte aligned). The launch and the
 * values are shared by every block of the launch (and by later submits of
 * the command): read-only, so a kernel that assigns to a parameter works on
 * its own copy. The kernel runs every thread of its block and allocates its
 * own shared memory (static and the dynamic_shared_bytes of the launch) and
 * per-thread storage.
 *
 * cuda kernels of a CudaC export are ordinary CUDA kernels, launched with
 * cuLaunchKernel(grid, block, dynamic shared bytes, kernelParams). */
#ifndef TESSEL_RUNTIME_CUDA_C_ABI_H
#define TESSEL_RUNTIME_CUDA_C_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What a cpu CudaC kernel learns about its launch (args[0]). */
struct TesselLaunch {
  int64_t grid[3];              /**< gridDim.x, .y, .z (each >= 1) */
  int64_t block[3];             /**< blockDim.x, .y, .z (each >= 1) */
  int64_t dynamic_shared_bytes; /**< the launch's dynamic shared memory */
};

/** Alignment of every parameter value args[1 + i] points to. */
#define TESSEL_CUDA_C_PARAMETER_ALIGNMENT 64
/** Limits the module loader enforces on Export.parameter_sizes. */
#define TESSEL_CUDA_C_MAX_PARAMETERS 256
#define TESSEL_CUDA_C_MAX_PARAMETER_BYTES 4096

/* The BLOB that tessel-cc embeds in the host object with
 *   clang --cuda-host-only -Xclang -fcuda-include-gpubinary -Xclang BLOB
 * (clang points the fat binary wrapper given to __cudaRegisterFatBinary at
 * it), all little-endian:
 *   offset 0   8 bytes   magic "TSLCUDA1" (no terminating NUL)
 *   offset 8   uint64    N, the length of the module in bytes
 *   offset 16  N bytes   a .tmod module file (FlatBuffer + trailer), whose
 *                        CudaC exports are the program's kernels
 * The magic and header size: */
#define TESSEL_CUDA_BLOB_MAGIC "TSLCUDA1"
#define TESSEL_CUDA_BLOB_MAGIC_SIZE 8
#define TESSEL_CUDA_BLOB_HEADER_SIZE 16

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TESSEL_RUNTIME_CUDA_C_ABI_H */
