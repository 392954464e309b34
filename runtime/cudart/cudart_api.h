// The CUDA runtime API subset that libtessel_cudart.a implements, declared
// without CUDA's headers: the runtime must build without a CUDA toolkit.
// Types have the layout and values of CUDA 13's (vector_types.h,
// driver_types.h, cuda_runtime_api.h); cudart_api_check.cpp, built where
// the toolkit's headers exist, static_asserts every row below against the
// real prototype and every constant against the real enum.
#pragma once

#include <cstddef>
#include <cstdint>

// cudaStream_t and cudaEvent_t are pointers to these (cuda_runtime_api.h's
// tags); the library never defines them: handles are its own objects.
struct CUstream_st;
struct CUevent_st;

namespace tessel::cudart {

/// vector_types.h's dim3.
struct Dim3 {
  unsigned int x, y, z;
};
/// enum cudaError / cudaMemcpyKind / cudaFuncCache: int-sized C enums.
using Error = int;
using MemcpyKind = int;
using FuncCache = int;
using Stream = CUstream_st *;
using Event = CUevent_st *;

// cudaError_t values (driver_types.h).
constexpr Error kSuccess = 0;
constexpr Error kErrorInvalidValue = 1;
constexpr Error kErrorMemoryAllocation = 2;
constexpr Error kErrorInitializationError = 3;
constexpr Error kErrorInvalidConfiguration = 9;
constexpr Error kErrorInvalidSymbol = 13;
constexpr Error kErrorInvalidDevicePointer = 17;
constexpr Error kErrorInvalidMemcpyDirection = 21;
constexpr Error kErrorMissingConfiguration = 52;
constexpr Error kErrorInvalidDeviceFunction = 98;
constexpr Error kErrorNoDevice = 100;
constexpr Error kErrorInvalidDevice = 101;
constexpr Error kErrorInvalidKernelImage = 200;
constexpr Error kErrorNoKernelImageForDevice = 209;
constexpr Error kErrorInvalidResourceHandle = 400;
constexpr Error kErrorIllegalAddress = 700;
constexpr Error kErrorLaunchFailure = 719;
constexpr Error kErrorNotSupported = 801;
constexpr Error kErrorUnknown = 999;

// cudaMemcpyKind values.
constexpr MemcpyKind kMemcpyHostToHost = 0;
constexpr MemcpyKind kMemcpyHostToDevice = 1;
constexpr MemcpyKind kMemcpyDeviceToHost = 2;
constexpr MemcpyKind kMemcpyDeviceToDevice = 3;
constexpr MemcpyKind kMemcpyDefault = 4;

// Flags (driver_types.h #defines).
constexpr unsigned kEventDisableTiming = 0x02;
constexpr unsigned kStreamNonBlocking = 0x01;
// The special streams cudaStreamLegacy and cudaStreamPerThread.
constexpr uintptr_t kStreamLegacy = 0x1, kStreamPerThread = 0x2;

/// The clang/nvcc fat binary wrapper passed to __cudaRegisterFatBinary
/// (__cuda_fatbin_wrapper, section .nvFatBinSegment).
struct FatBinaryWrapper {
  int32_t magic;
  int32_t version;
  const void *data;
  void *unused;
};
constexpr int32_t kFatBinaryWrapperMagic = 0x466243b1;
constexpr int32_t kFatBinaryWrapperVersion = 1;

} // namespace tessel::cudart

/// X(return type, name, parameter list) for every public entry point whose
/// prototype cuda_runtime_api.h declares, written with the placeholder
/// types ERR, DIM3, STREAM, EVENT, KIND, CACHE (the library's types here,
/// CUDA's in cudart_api_check.cpp).
#define TESSEL_CUDART_API(X, ERR, DIM3, STREAM, EVENT, KIND, CACHE)                                 \
  X(ERR, cudaMalloc, (void **devPtr, size_t size))                                                 \
  X(ERR, cudaFree, (void *devPtr))                                                                 \
  X(ERR, cudaMallocHost, (void **ptr, size_t size))                                                \
  X(ERR, cudaFreeHost, (void *ptr))                                                                \
  X(ERR, cudaHostAlloc, (void **pHost, size_t size, unsigned int flags))                           \
  X(ERR, cudaMallocManaged, (void **devPtr, size_t size, unsigned int flags))                      \
  X(ERR, cudaMemcpy, (void *dst, const void *src, size_t count, KIND kind))                        \
  X(ERR, cudaMemcpyAsync, (void *dst, const void *src, size_t count, KIND kind, STREAM stream))    \
  X(ERR, cudaMemset, (void *devPtr, int value, size_t count))                                      \
  X(ERR, cudaMemsetAsync, (void *devPtr, int value, size_t count, STREAM stream))                  \
  X(ERR, cudaMemcpyToSymbol,                                                                       \
    (const void *symbol, const void *src, size_t count, size_t offset, KIND kind))                 \
  X(ERR, cudaMemcpyFromSymbol,                                                                     \
    (void *dst, const void *symbol, size_t count, size_t offset, KIND kind))                       \
  X(ERR, cudaLaunchKernel,                                                                         \
    (const void *func, DIM3 gridDim, DIM3 blockDim, void **args, size_t sharedMem,                 \
     STREAM stream))                                                                               \
  X(ERR, cudaDeviceSynchronize, (void))                                                            \
  X(ERR, cudaDeviceReset, (void))                                                                  \
  X(ERR, cudaGetLastError, (void))                                                                 \
  X(ERR, cudaPeekAtLastError, (void))                                                              \
  X(const char *, cudaGetErrorString, (ERR error))                                                 \
  X(const char *, cudaGetErrorName, (ERR error))                                                   \
  X(ERR, cudaSetDevice, (int device))                                                              \
  X(ERR, cudaGetDevice, (int *device))                                                             \
  X(ERR, cudaGetDeviceCount, (int *count))                                                         \
  X(ERR, cudaFuncSetCacheConfig, (const void *func, CACHE cacheConfig))                            \
  X(ERR, cudaDeviceSetCacheConfig, (CACHE cacheConfig))                                            \
  X(ERR, cudaStreamCreate, (STREAM * pStream))                                                     \
  X(ERR, cudaStreamCreateWithFlags, (STREAM * pStream, unsigned int flags))                        \
  X(ERR, cudaStreamDestroy, (STREAM stream))                                                       \
  X(ERR, cudaStreamSynchronize, (STREAM stream))                                                   \
  X(ERR, cudaEventCreate, (EVENT * event))                                                         \
  X(ERR, cudaEventCreateWithFlags, (EVENT * event, unsigned int flags))                            \
  X(ERR, cudaEventRecord, (EVENT event, STREAM stream))                                            \
  X(ERR, cudaEventSynchronize, (EVENT event))                                                      \
  X(ERR, cudaEventElapsedTime, (float *ms, EVENT start, EVENT end))                                \
  X(ERR, cudaEventDestroy, (EVENT event))

/// Entry points cuda_runtime_api.h declares only under
/// CUDA_API_PER_THREAD_DEFAULT_STREAM (the _ptsz/_ptds names it maps the
/// plain ones to), or no longer (cudaThreadSynchronize, removed in CUDA 13).
/// Every stream is serial here, so each behaves as its plain name.
#define TESSEL_CUDART_EXTRA_API(X, ERR, DIM3, STREAM, EVENT, KIND, CACHE)                           \
  X(ERR, cudaThreadSynchronize, (void))                                                            \
  X(ERR, cudaLaunchKernel_ptsz,                                                                    \
    (const void *func, DIM3 gridDim, DIM3 blockDim, void **args, size_t sharedMem,                 \
     STREAM stream))                                                                               \
  X(ERR, cudaMemcpy_ptds, (void *dst, const void *src, size_t count, KIND kind))                   \
  X(ERR, cudaMemcpyAsync_ptsz,                                                                     \
    (void *dst, const void *src, size_t count, KIND kind, STREAM stream))                          \
  X(ERR, cudaMemset_ptds, (void *devPtr, int value, size_t count))                                 \
  X(ERR, cudaMemsetAsync_ptsz, (void *devPtr, int value, size_t count, STREAM stream))             \
  X(ERR, cudaMemcpyToSymbol_ptds,                                                                  \
    (const void *symbol, const void *src, size_t count, size_t offset, KIND kind))                 \
  X(ERR, cudaMemcpyFromSymbol_ptds,                                                                \
    (void *dst, const void *symbol, size_t count, size_t offset, KIND kind))                       \
  X(ERR, cudaStreamSynchronize_ptsz, (STREAM stream))                                              \
  X(ERR, cudaEventRecord_ptsz, (EVENT event, STREAM stream))

#ifndef TESSEL_CUDART_CHECK_ONLY
#define TESSEL_CUDART_DECLARE(ret, name, params) ret name params;

extern "C" {
TESSEL_CUDART_API(TESSEL_CUDART_DECLARE, tessel::cudart::Error, tessel::cudart::Dim3,
                  tessel::cudart::Stream, tessel::cudart::Event, tessel::cudart::MemcpyKind,
                  tessel::cudart::FuncCache)
TESSEL_CUDART_EXTRA_API(TESSEL_CUDART_DECLARE, tessel::cudart::Error, tessel::cudart::Dim3,
                        tessel::cudart::Stream, tessel::cudart::Event,
                        tessel::cudart::MemcpyKind, tessel::cudart::FuncCache)

// What clang (and nvcc) emit into the host object (crt/host_runtime.h);
// clang declares __cudaRegisterFunction as returning int, CUDA as void: the
// caller ignores the value either way.
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global);
unsigned __cudaPushCallConfiguration(tessel::cudart::Dim3 gridDim, tessel::cudart::Dim3 blockDim,
                                     size_t sharedMem, void *stream);
tessel::cudart::Error __cudaPopCallConfiguration(tessel::cudart::Dim3 *gridDim,
                                                 tessel::cudart::Dim3 *blockDim,
                                                 size_t *sharedMem, void *stream);
}
#endif // TESSEL_CUDART_CHECK_ONLY
