/*===- cuda_profiler_api.h - Tessel CUDA headers: profiler control ---------===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md).
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_CUDA_PROFILER_API_H__
#define __TESSEL_CUDA_PROFILER_API_H__
#define __CUDA_PROFILER_API_H__

#include "driver_types.h"

#ifdef __cplusplus
extern "C" {
#endif
extern __host__ cudaError_t CUDARTAPI cudaProfilerStart(void);
extern __host__ cudaError_t CUDARTAPI cudaProfilerStop(void);
#ifdef __cplusplus
}
#endif

#endif /* __TESSEL_CUDA_PROFILER_API_H__ */
