/*===- __tessel_cuda_runtime.h - Tessel CUDA headers: the forced include ---===*
 *
 * Tessel's replacement for clang's __clang_cuda_runtime_wrapper.h plus the
 * CUDA toolkit headers it pulls in: everything a CUDA translation unit sees
 * implicitly under nvcc, without a CUDA installation. Use with
 *
 *   -x cuda -nocudainc -nocudalib --cuda-gpu-arch=sm_XX
 *   -Xclang -target-sdk-version=13.0 -Xclang -fcuda-allow-variadic-functions
 *   -isystem <this directory> -include __tessel_cuda_runtime.h
 *   device side: --cuda-device-only --cuda-feature=+ptx88
 *   host side:   --cuda-host-only
 *
 * (see README.md). clang's own __clang_cuda_*.h headers, which ship with
 * clang in its resource directory, supply the built-in variables, libdevice
 * declarations, device math and intrinsics; the files of this directory
 * supply what those expect from the toolkit.
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_CUDA_RUNTIME_H__
#define __TESSEL_CUDA_RUNTIME_H__

#if !defined(__CUDA__) || !defined(__clang__)
#error "__tessel_cuda_runtime.h is for clang in CUDA mode (-x cuda)"
#endif
#if !defined(__cplusplus)
#error "CUDA sources are C++"
#endif

/* Forward declarations of device math that must precede <cmath>. */
#include <__clang_cuda_math_forward_declares.h>

/* nvcc's macro. Defined before the standard headers: libstdc++ checks it to
 * keep __float128 away from CUDA. */
#define __CUDACC__ 1

/* The standard headers that nvcc's cuda_runtime.h makes visible in every
 * CUDA translation unit (programs rely on that: e.g. time() without
 * <time.h>). */
#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <new>

#include "host_defines.h"
#include "cuda.h" /* CUDA_VERSION; clang's wrapper includes it too */

/* threadIdx, blockIdx, blockDim, gridDim, warpSize. */
#include <__clang_cuda_builtin_vars.h>
#define __DEVICE_LAUNCH_PARAMETERS_H__

#include "builtin_types.h"
#include "vector_functions.h"
#include "driver_functions.h"
#include "cuda_runtime_api.h"

/* Device library: declarations of libdevice (__nv_*), then clang's device
 * functions (__syncthreads_*, __threadfence, __float2int_rn, the __*Atomic*
 * helpers, ...) and device math (expf, sqrtf, __expf, min/max of int, ...). */
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>

/* What the toolkit's .hpp files would add on top: atomic*(), mixed min/max,
 * float overloads of CUDA-only math. */
#include "__tessel_cuda_device_functions.h"

extern "C" {
/* Device-side system calls (PTX "vprintf", "malloc", "free",
 * "__assertfail"). clang rewrites device printf() into vprintf(). */
__device__ int vprintf(const char *, const char *);
__device__ void free(void *) __attribute__((nothrow));
__device__ void *malloc(size_t) __attribute__((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char *__message, const char *__file,
                             unsigned __line, const char *__function,
                             size_t __charSize);
/* glibc's assert() calls __assert_fail. */
__device__ static inline void __assert_fail(const char *__message,
                                            const char *__file, unsigned __line,
                                            const char *__function) {
  __assertfail(__message, __file, __line, __function, sizeof(char));
}
__device__ int printf(const char *, ...);
} /* extern "C" */

namespace std {
__device__ static inline void free(void *__ptr) { ::free(__ptr); }
__device__ static inline void *malloc(size_t __size) {
  return ::malloc(__size);
}
} // namespace std

/* Conversions of the built-in variables declared by
 * __clang_cuda_builtin_vars.h, now that dim3 and uint3 exist. */
#define __TESSEL_BUILTIN_CONVERSIONS(T)                                        \
  __device__ inline T::operator dim3() const { return dim3(x, y, z); }        \
  __device__ inline T::operator uint3() const { return {x, y, z}; }
__TESSEL_BUILTIN_CONVERSIONS(__cuda_builtin_threadIdx_t)
__TESSEL_BUILTIN_CONVERSIONS(__cuda_builtin_blockIdx_t)
__TESSEL_BUILTIN_CONVERSIONS(__cuda_builtin_blockDim_t)
__TESSEL_BUILTIN_CONVERSIONS(__cuda_builtin_gridDim_t)
#undef __TESSEL_BUILTIN_CONVERSIONS

/* std:: device math, warp intrinsics (__shfl*_sync, __ballot_sync, __ldg,
 * ...; pulls in crt/sm_70_rt.hpp from this directory), complex arithmetic. */
#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>
#include <__clang_cuda_complex_builtins.h>

/* Texture objects: tex1Dfetch<T>(), tex2D<T>(), ... */
#include <__clang_cuda_texture_intrinsics.h>
#include "texture_indirect_functions.h"

/* Kernel launches. With -target-sdk-version >= 9.2 clang lowers
 * `k<<<grid, block, shmem, stream>>>(args)` to a call of
 * __cudaPushCallConfiguration, and the kernel's host stub to
 * __cudaPopCallConfiguration + cudaLaunchKernel (looked up by name, see
 * cuda_runtime_api.h), exactly as with the CUDA toolkit. */
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                size_t sharedMem = 0,
                                                void *stream = 0);

/* Without -target-sdk-version, clang assumes a pre-9.2 toolkit and lowers
 * launches to cudaConfigureCall + cudaSetupArgument + cudaLaunch, which
 * libcudart 13 no longer has. clang builds that cudaConfigureCall call
 * without checking for deleted or unavailable declarations, so make its
 * first parameter a type that the grid size cannot convert to: `<<<...>>>`
 * then fails to compile, naming the missing flag, instead of leaving an
 * undefined symbol for the linker. (Kernel stubs alone cannot be caught
 * here; see README.md.) */
struct __tessel_kernel_launch_needs_flag_Xclang_target_sdk_version_13_0 {
  __tessel_kernel_launch_needs_flag_Xclang_target_sdk_version_13_0() = delete;
};
extern "C" cudaError_t cudaConfigureCall(
    __tessel_kernel_launch_needs_flag_Xclang_target_sdk_version_13_0,
    dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);

/* The C++ runtime API (templates over typed pointers, symbols, kernels). */
#include "cuda_runtime.h"

#endif /* __TESSEL_CUDA_RUNTIME_H__ */
