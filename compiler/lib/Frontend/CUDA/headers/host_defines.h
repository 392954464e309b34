/*===- host_defines.h - Tessel CUDA headers: CUDA language keywords --------===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md). The CUDA
 * execution-space and memory-space keywords, spelled as the clang attributes
 * that clang's CUDA mode understands (empty in plain C/C++, where these
 * headers serve host-only files). Independent of the CUDA toolkit.
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_HOST_DEFINES_H__
#define __TESSEL_HOST_DEFINES_H__
/* Guards of the toolkit's own file, so that nothing pulls a second copy. */
#define __HOST_DEFINES_H__

#if defined(__CUDA__) && defined(__clang__)
/* Execution spaces. */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))

/* Memory spaces. */
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))

/* Kernel and function qualifiers. `__noinline__` is left alone on purpose:
 * clang treats it as a keyword in CUDA mode, which keeps libstdc++'s
 * `__attribute__((__noinline__))` working (a macro would break it). */
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
#else
/* Plain C or C++ (host files of a CUDA program that include
 * cuda_runtime_api.h, cuda.h, ...): the keywords mean nothing. */
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __grid_constant__
#define __launch_bounds__(...)
#define __cluster_dims__(...)
#define __noinline__ __attribute__((noinline))
#endif
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __no_return__ __attribute__((noreturn))
#define __nv_pure__ __attribute__((pure))
/* nvcc-only hints that clang has no attribute for (the toolkit's spellings
 * would only produce unknown-attribute warnings). */
#define __inline_hint__
#define __maxnreg__(a)
#define __local_maxnreg__(a)

/* Alignment. */
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(a) __align__(a)

/* Spellings the toolkit headers use for annotations; here they carry no
 * meaning for clang. */
#define __annotate__(a) __attribute__((a))
#define __location__(a) __annotate__(a)
#define __thread__ __thread
#define __import__
#define __export__
#define __cdecl
#define __specialization_static
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDARTAPI_CDECL
#define CUDART_CB
#define CUDAAPI
#define CUDA_CB

/* Architecture-feature helpers of CUDA 12.x/13. */
#define __CUDA_ARCH_HAS_FEATURE__(_FEAT) __CUDA_ARCH_FEAT_##_FEAT
#define __CUDA_HAS_ARCH_SPECIFIC(N) 0
#define __CUDA_HAS_ARCH_FAMILY_SPECIFIC(N) 0

#endif /* __TESSEL_HOST_DEFINES_H__ */
