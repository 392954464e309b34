/*===- cuda_runtime.h - Tessel CUDA headers: runtime C++ API ---------------===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md). `#include
 * <cuda_runtime.h>` in a user program lands here; the whole header set is
 * normally already there through the forced include __tessel_cuda_runtime.h.
 * This file adds the C++ conveniences of the runtime API: the templates
 * taking typed pointers, symbols and kernels, which forward to the C API.
 * In a plain C/C++ compilation (a host-only file) it gives the runtime API
 * alone, as the toolkit's does.
 *
 *===----------------------------------------------------------------------===*/
#if defined(__CUDA__)
#include "__tessel_cuda_runtime.h"
#endif

#ifndef __TESSEL_CUDA_RUNTIME_CXX_H__
#define __TESSEL_CUDA_RUNTIME_CXX_H__
#define __CUDA_RUNTIME_H__

#include "channel_descriptor.h"
#include "cuda_runtime_api.h"
#include "driver_functions.h"
#include "vector_functions.h"

#if defined(__cplusplus)

#define __TESSEL_RT static __inline__ __host__

/* Overloads of C entry points. */
__TESSEL_RT cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
  return ::cudaEventCreateWithFlags(event, flags);
}

__TESSEL_RT cudaError_t cudaMallocHost(void **ptr, size_t size,
                                       unsigned int flags) {
  return ::cudaHostAlloc(ptr, size, flags);
}

/* Typed allocations. */
template <class T>
__TESSEL_RT cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}

template <class T>
__TESSEL_RT cudaError_t cudaMallocHost(T **ptr, size_t size,
                                       unsigned int flags = 0) {
  return ::cudaMallocHost((void **)(void *)ptr, size, flags);
}

template <class T>
__TESSEL_RT cudaError_t cudaHostAlloc(T **ptr, size_t size,
                                      unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

template <class T>
__TESSEL_RT cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost,
                                                 unsigned int flags) {
  return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}

template <class T>
__TESSEL_RT cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                          unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}

template <class T>
__TESSEL_RT cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch,
                                        size_t width, size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}

template <class T>
__TESSEL_RT cudaError_t cudaMallocAsync(T **ptr, size_t size,
                                        cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)ptr, size, stream);
}

template <class T>
__TESSEL_RT cudaError_t cudaStreamAttachMemAsync(
    cudaStream_t stream, T *devPtr, size_t length = 0,
    unsigned int flags = cudaMemAttachSingle) {
  return ::cudaStreamAttachMemAsync(stream, (void *)devPtr, length, flags);
}

/* Symbols: a __device__ / __constant__ variable passed by reference. */
template <class T>
__TESSEL_RT cudaError_t
cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                   size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

template <class T>
__TESSEL_RT cudaError_t cudaMemcpyToSymbolAsync(
    const T &symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
    cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset,
                                   kind, stream);
}

template <class T>
__TESSEL_RT cudaError_t
cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                     size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset,
                                kind);
}

template <class T>
__TESSEL_RT cudaError_t cudaMemcpyFromSymbolAsync(
    void *dst, const T &symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
    cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset,
                                     kind, stream);
}

template <class T>
__TESSEL_RT cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}

template <class T>
__TESSEL_RT cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}

/* Kernels: a __global__ function passed by pointer. */
template <class T>
__TESSEL_RT cudaError_t cudaFuncSetCacheConfig(T *func,
                                               enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}

template <class T>
__TESSEL_RT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                              T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}

template <class T>
__TESSEL_RT cudaError_t cudaFuncSetAttribute(T *entry,
                                             enum cudaFuncAttribute attr,
                                             int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}

template <class T>
__TESSEL_RT cudaError_t cudaFuncGetName(const char **name, T *func) {
  return ::cudaFuncGetName(name, (const void *)func);
}

template <class T>
__TESSEL_RT cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem = 0,
                                         cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                            sharedMem, stream);
}

template <class T>
__TESSEL_RT cudaError_t cudaLaunchCooperativeKernel(
    T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0,
    cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim,
                                       args, sharedMem, stream);
}

/* Occupancy. */
template <class T>
__TESSEL_RT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize,
      cudaOccupancyDefault);
}

template <class T>
__TESSEL_RT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize, flags);
}

template <class T>
__TESSEL_RT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, T func, int numBlocks, int blockSize) {
  return ::cudaOccupancyAvailableDynamicSMemPerBlock(
      dynamicSmemSize, (const void *)func, numBlocks, blockSize);
}

/* The block size that maximizes occupancy: the largest block size (a multiple
 * of the warp size, at most the kernel's and the device's limit) with the
 * most resident threads per multiprocessor. `blockSizeToSMem` maps a block
 * size to its dynamic shared memory. */
template <class UnaryFunction, class T>
__TESSEL_RT cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToSMem,
    int blockSizeLimit = 0, unsigned int flags = 0) {
  if (!minGridSize || !blockSize || !func)
    return cudaErrorInvalidValue;
  int device, smCount, maxThreadsPerSM, warpSize, devMaxThreads;
  cudaError_t err;
  if ((err = ::cudaGetDevice(&device)) != cudaSuccess ||
      (err = ::cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount,
                                      device)) != cudaSuccess ||
      (err = ::cudaDeviceGetAttribute(&maxThreadsPerSM,
                                      cudaDevAttrMaxThreadsPerMultiProcessor,
                                      device)) != cudaSuccess ||
      (err = ::cudaDeviceGetAttribute(&warpSize, cudaDevAttrWarpSize,
                                      device)) != cudaSuccess ||
      (err = ::cudaDeviceGetAttribute(&devMaxThreads,
                                      cudaDevAttrMaxThreadsPerBlock, device)) !=
          cudaSuccess)
    return err;
  struct cudaFuncAttributes attr;
  if ((err = ::cudaFuncGetAttributes(&attr, (const void *)func)) !=
      cudaSuccess)
    return err;
  int limit = devMaxThreads < attr.maxThreadsPerBlock ? devMaxThreads
                                                      : attr.maxThreadsPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < limit)
    limit = blockSizeLimit;
  int bestBlock = 0, bestThreads = 0, bestBlocksPerSM = 0;
  for (int b = (limit / warpSize) * warpSize; b > 0; b -= warpSize) {
    int blocksPerSM = 0;
    if ((err = ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
             &blocksPerSM, (const void *)func, b, blockSizeToSMem(b), flags)) !=
        cudaSuccess)
      return err;
    if (blocksPerSM * b > bestThreads) {
      bestThreads = blocksPerSM * b;
      bestBlock = b;
      bestBlocksPerSM = blocksPerSM;
    }
    if (bestThreads == maxThreadsPerSM)
      break;
  }
  *blockSize = bestBlock;
  *minGridSize = bestBlocksPerSM * smCount;
  return cudaSuccess;
}

template <class UnaryFunction, class T>
__TESSEL_RT cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToSMem,
    int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, blockSizeToSMem, blockSizeLimit,
      cudaOccupancyDefault);
}

/* Block size -> a fixed dynamic shared memory size (the toolkit's helper of
 * the same name and shape, so that host objects define the same symbols). */
class __cudaOccupancyB2DHelper {
  size_t n;

public:
  inline __host__ __cudaOccupancyB2DHelper(size_t n_) : n(n_) {}
  inline __host__ size_t operator()(int) { return n; }
};

template <class T>
__TESSEL_RT cudaError_t cudaOccupancyMaxPotentialBlockSize(
    int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, __cudaOccupancyB2DHelper(dynamicSMemSize),
      blockSizeLimit, cudaOccupancyDefault);
}

template <class T>
__TESSEL_RT cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(
    int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0, unsigned int flags = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, __cudaOccupancyB2DHelper(dynamicSMemSize),
      blockSizeLimit, flags);
}

#undef __TESSEL_RT

#endif /* __cplusplus */

#endif /* __TESSEL_CUDA_RUNTIME_CXX_H__ */
