// The slice of the CUDA driver API that the cuda HAL driver uses, declared
// here instead of including cuda.h: the runtime must build with a plain C++17
// compiler, and libcuda.so.1 is opened with dlopen at run time, so a machine
// without a GPU (or without the toolkit) still builds and runs the cpu driver.
//
// Every entry point is one row of TESSEL_CUDA_SYMBOLS; the rows name the
// versioned symbols that cuda.h maps the plain names to (cuMemAlloc ->
// cuMemAlloc_v2, ...). Opaque handle structs carry cuda.h's tags so that
// cuda_api_check.cpp (built only where cuda.h exists) can compare every row
// with the real prototype.
#pragma once

#include "tessel/runtime/status.h"

#include <cstddef>
#include <cstdint>
#include <string>

struct CUctx_st;
struct CUstream_st;
struct CUmod_st;
struct CUfunc_st;
struct CUgraph_st;
struct CUgraphExec_st;
struct CUevent_st;
struct CUtensorMap_st;

namespace tessel::rt::hal::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = CUctx_st *;
using CUstream = CUstream_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUgraph = CUgraph_st *;
using CUgraphExec = CUgraphExec_st *;
using CUevent = CUevent_st *;
/// cuda.h's CUtensorMap (struct CUtensorMap_st), declared incomplete here:
/// maps live in TensorMapStorage and are passed as CUtensorMap pointers.
using CUtensorMap = CUtensorMap_st;
/// Storage for one CUtensorMap: CU_TENSOR_MAP_NUM_QWORDS (16) opaque
/// 64-bit words, aligned as cuda.h aligns CUtensorMap (alignas(128) since
/// CUDA 12.x; the driver needs 64). cuda_api_check.cpp checks size and
/// alignment against cuda.h.
struct alignas(128) TensorMapStorage {
  uint64_t opaque[16];
};
// C enums passed by value; int has the same size and calling convention.
using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUjit_option = int;
using CUstreamCaptureMode = int;
using CUtensorMapDataType = int;
using CUtensorMapInterleave = int;
using CUtensorMapSwizzle = int;
using CUtensorMapL2promotion = int;
using CUtensorMapFloatOOBfill = int;

// Values from cuda.h (stable across driver versions).
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;

constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr unsigned CU_EVENT_DEFAULT = 0;
constexpr CUstreamCaptureMode CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;

/// X(name, parameter list): every driver entry point the runtime calls. All
/// return CUresult.
#define TESSEL_CUDA_SYMBOLS(X)                                                                    \
  X(cuGetErrorName, (CUresult error, const char **pStr))                                         \
  X(cuGetErrorString, (CUresult error, const char **pStr))                                       \
  X(cuInit, (unsigned int flags))                                                                \
  X(cuDriverGetVersion, (int *driverVersion))                                                    \
  X(cuDeviceGetCount, (int *count))                                                              \
  X(cuDeviceGet, (CUdevice * device, int ordinal))                                               \
  X(cuDeviceGetName, (char *name, int len, CUdevice dev))                                        \
  X(cuDeviceGetAttribute, (int *pi, CUdevice_attribute attrib, CUdevice dev))                    \
  X(cuCtxCreate_v2, (CUcontext * pctx, unsigned int flags, CUdevice dev))                        \
  X(cuCtxDestroy_v2, (CUcontext ctx))                                                            \
  X(cuCtxSetCurrent, (CUcontext ctx))                                                            \
  X(cuStreamCreate, (CUstream * phStream, unsigned int flags))                                   \
  X(cuStreamDestroy_v2, (CUstream hStream))                                                      \
  X(cuStreamSynchronize, (CUstream hStream))                                                     \
  X(cuStreamBeginCapture_v2, (CUstream hStream, CUstreamCaptureMode mode))                       \
  X(cuStreamEndCapture, (CUstream hStream, CUgraph * phGraph))                                   \
  X(cuGraphInstantiateWithFlags, (CUgraphExec * phGraphExec, CUgraph hGraph,                     \
                                  unsigned long long flags))                                     \
  X(cuGraphLaunch, (CUgraphExec hGraphExec, CUstream hStream))                                   \
  X(cuGraphExecDestroy, (CUgraphExec hGraphExec))                                                \
  X(cuGraphDestroy, (CUgraph hGraph))                                                            \
  X(cuEventCreate, (CUevent * phEvent, unsigned int flags))                                      \
  X(cuEventDestroy_v2, (CUevent hEvent))                                                         \
  X(cuEventRecord, (CUevent hEvent, CUstream hStream))                                           \
  X(cuEventElapsedTime, (float *pMilliseconds, CUevent hStart, CUevent hEnd))                    \
  X(cuMemAlloc_v2, (CUdeviceptr * dptr, size_t bytesize))                                        \
  X(cuMemFree_v2, (CUdeviceptr dptr))                                                            \
  X(cuMemAllocHost_v2, (void **pp, size_t bytesize))                                             \
  X(cuMemFreeHost, (void *p))                                                                    \
  X(cuMemGetInfo_v2, (size_t * free, size_t * total))                                           \
  X(cuMemcpyHtoDAsync_v2, (CUdeviceptr dstDevice, const void *srcHost, size_t byteCount,         \
                           CUstream hStream))                                                    \
  X(cuMemcpyDtoHAsync_v2, (void *dstHost, CUdeviceptr srcDevice, size_t byteCount,               \
                           CUstream hStream))                                                    \
  X(cuMemcpyDtoDAsync_v2, (CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t byteCount,       \
                           CUstream hStream))                                                    \
  X(cuMemsetD8Async, (CUdeviceptr dstDevice, unsigned char uc, size_t n, CUstream hStream))      \
  X(cuModuleLoadDataEx, (CUmodule * module, const void *image, unsigned int numOptions,          \
                         CUjit_option *options, void **optionValues))                            \
  X(cuModuleUnload, (CUmodule hmod))                                                             \
  X(cuModuleGetFunction, (CUfunction * hfunc, CUmodule hmod, const char *name))                  \
  X(cuFuncGetAttribute, (int *pi, CUfunction_attribute attrib, CUfunction hfunc))                \
  X(cuFuncSetAttribute, (CUfunction hfunc, CUfunction_attribute attrib, int value))              \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor,                                                 \
    (int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize))                    \
  X(cuLaunchKernel, (CUfunction f, unsigned int gridDimX, unsigned int gridDimY,                 \
                     unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,      \
                     unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,      \
                     void **kernelParams, void **extra))                                         \
  X(cuTensorMapEncodeTiled, (CUtensorMap * tensorMap, CUtensorMapDataType tensorDataType,        \
                             uint32_t tensorRank, void *globalAddress, const uint64_t *globalDim, \
                             const uint64_t *globalStrides, const uint32_t *boxDim,              \
                             const uint32_t *elementStrides, CUtensorMapInterleave interleave,   \
                             CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,     \
                             CUtensorMapFloatOOBfill oobFill))

/// Function pointers resolved from libcuda.so.1; all non-null once loaded.
struct CudaApi {
#define TESSEL_CUDA_DECLARE(name, params) CUresult(*name) params = nullptr;
  TESSEL_CUDA_SYMBOLS(TESSEL_CUDA_DECLARE)
#undef TESSEL_CUDA_DECLARE
  int driverVersion = 0; ///< e.g. 13000 for CUDA 13.0
};

/// The oldest driver the runtime accepts (cuDriverGetVersion): CUDA 12.0.
/// The entry points above need 12.0 (cuTensorMapEncodeTiled; 11.4 without
/// it), and the compiler emits PTX ISA 8.0 and sm_90 cubins, which need 12.0.
constexpr int kMinimumDriverVersion = 12000;

/// The driver library to open: TESSEL_CUDA_LIBRARY if set (a file name or
/// path, as dlopen takes it), else "libcuda.so.1".
std::string cudaLibraryName();

/// "12.4 (12040)".
std::string formatDriverVersion(int version);

/// Opens the driver library (cudaLibraryName()), checks the driver version
/// (kMinimumDriverVersion), resolves every symbol and calls cuInit(0), once
/// per process. The error (kUnavailable) says which step failed, e.g.
/// "cuda: no CUDA driver/device available (libcuda.so.1 not found: ...)",
/// "(the CUDA driver is too old: it supports CUDA 11.4 (11040) but this
/// runtime needs CUDA 12.0 (12000) or newer; update the NVIDIA driver)",
/// "(libcuda.so.1 (CUDA 12.4 (12040)) lacks cuGraphLaunch: ...)".
StatusOr<const CudaApi *> loadCudaApi();

/// "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)",
/// or "CUDA error 12345" for a code the driver does not know.
std::string cudaErrorText(const CudaApi &api, CUresult result);

/// OK for CUDA_SUCCESS, else an error "cuda: WHAT failed: <cudaErrorText>"
/// whose code follows the CUDA error (out of memory -> kResourceExhausted,
/// invalid value -> kInvalidArgument, others kInternal).
Status cudaStatus(const CudaApi &api, CUresult result, const std::string &what);

/// Errors after which the context cannot be used any more (a kernel faulted):
/// every later call on it fails with the same error.
bool isStickyError(CUresult result);

} // namespace tessel::rt::hal::cuda
