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
/// enum cudaError / cudaMemcpyKind / cudaFuncCache / cudaDeviceAttr:
/// int-sized C enums.
using Error = int;
using MemcpyKind = int;
using FuncCache = int;
using DeviceAttr = int;
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

/// X(name, value) for every cudaDeviceAttr (driver_types.h) that
/// cudaDeviceGetAttribute answers on the cpu device and that
/// cudaGetDeviceProperties reads: CUDA 13's enum without its Reserved*
/// entries. The constants are kDevAttr<name>.
#define TESSEL_CUDART_DEVICE_ATTRS(X)                                                              \
  X(MaxThreadsPerBlock, 1)                                                                         \
  X(MaxBlockDimX, 2)                                                                               \
  X(MaxBlockDimY, 3)                                                                               \
  X(MaxBlockDimZ, 4)                                                                               \
  X(MaxGridDimX, 5)                                                                                \
  X(MaxGridDimY, 6)                                                                                \
  X(MaxGridDimZ, 7)                                                                                \
  X(MaxSharedMemoryPerBlock, 8)                                                                    \
  X(TotalConstantMemory, 9)                                                                        \
  X(WarpSize, 10)                                                                                  \
  X(MaxPitch, 11)                                                                                  \
  X(MaxRegistersPerBlock, 12)                                                                      \
  X(ClockRate, 13)                                                                                 \
  X(TextureAlignment, 14)                                                                          \
  X(GpuOverlap, 15)                                                                                \
  X(MultiProcessorCount, 16)                                                                       \
  X(KernelExecTimeout, 17)                                                                         \
  X(Integrated, 18)                                                                                \
  X(CanMapHostMemory, 19)                                                                          \
  X(ComputeMode, 20)                                                                               \
  X(MaxTexture1DWidth, 21)                                                                         \
  X(MaxTexture2DWidth, 22)                                                                         \
  X(MaxTexture2DHeight, 23)                                                                        \
  X(MaxTexture3DWidth, 24)                                                                         \
  X(MaxTexture3DHeight, 25)                                                                        \
  X(MaxTexture3DDepth, 26)                                                                         \
  X(MaxTexture2DLayeredWidth, 27)                                                                  \
  X(MaxTexture2DLayeredHeight, 28)                                                                 \
  X(MaxTexture2DLayeredLayers, 29)                                                                 \
  X(SurfaceAlignment, 30)                                                                          \
  X(ConcurrentKernels, 31)                                                                         \
  X(EccEnabled, 32)                                                                                \
  X(PciBusId, 33)                                                                                  \
  X(PciDeviceId, 34)                                                                               \
  X(TccDriver, 35)                                                                                 \
  X(MemoryClockRate, 36)                                                                           \
  X(GlobalMemoryBusWidth, 37)                                                                      \
  X(L2CacheSize, 38)                                                                               \
  X(MaxThreadsPerMultiProcessor, 39)                                                               \
  X(AsyncEngineCount, 40)                                                                          \
  X(UnifiedAddressing, 41)                                                                         \
  X(MaxTexture1DLayeredWidth, 42)                                                                  \
  X(MaxTexture1DLayeredLayers, 43)                                                                 \
  X(MaxTexture2DGatherWidth, 45)                                                                   \
  X(MaxTexture2DGatherHeight, 46)                                                                  \
  X(MaxTexture3DWidthAlt, 47)                                                                      \
  X(MaxTexture3DHeightAlt, 48)                                                                     \
  X(MaxTexture3DDepthAlt, 49)                                                                      \
  X(PciDomainId, 50)                                                                               \
  X(TexturePitchAlignment, 51)                                                                     \
  X(MaxTextureCubemapWidth, 52)                                                                    \
  X(MaxTextureCubemapLayeredWidth, 53)                                                             \
  X(MaxTextureCubemapLayeredLayers, 54)                                                            \
  X(MaxSurface1DWidth, 55)                                                                         \
  X(MaxSurface2DWidth, 56)                                                                         \
  X(MaxSurface2DHeight, 57)                                                                        \
  X(MaxSurface3DWidth, 58)                                                                         \
  X(MaxSurface3DHeight, 59)                                                                        \
  X(MaxSurface3DDepth, 60)                                                                         \
  X(MaxSurface1DLayeredWidth, 61)                                                                  \
  X(MaxSurface1DLayeredLayers, 62)                                                                 \
  X(MaxSurface2DLayeredWidth, 63)                                                                  \
  X(MaxSurface2DLayeredHeight, 64)                                                                 \
  X(MaxSurface2DLayeredLayers, 65)                                                                 \
  X(MaxSurfaceCubemapWidth, 66)                                                                    \
  X(MaxSurfaceCubemapLayeredWidth, 67)                                                             \
  X(MaxSurfaceCubemapLayeredLayers, 68)                                                            \
  X(MaxTexture1DLinearWidth, 69)                                                                   \
  X(MaxTexture2DLinearWidth, 70)                                                                   \
  X(MaxTexture2DLinearHeight, 71)                                                                  \
  X(MaxTexture2DLinearPitch, 72)                                                                   \
  X(MaxTexture2DMipmappedWidth, 73)                                                                \
  X(MaxTexture2DMipmappedHeight, 74)                                                               \
  X(ComputeCapabilityMajor, 75)                                                                    \
  X(ComputeCapabilityMinor, 76)                                                                    \
  X(MaxTexture1DMipmappedWidth, 77)                                                                \
  X(StreamPrioritiesSupported, 78)                                                                 \
  X(GlobalL1CacheSupported, 79)                                                                    \
  X(LocalL1CacheSupported, 80)                                                                     \
  X(MaxSharedMemoryPerMultiprocessor, 81)                                                          \
  X(MaxRegistersPerMultiprocessor, 82)                                                             \
  X(ManagedMemory, 83)                                                                             \
  X(IsMultiGpuBoard, 84)                                                                           \
  X(MultiGpuBoardGroupID, 85)                                                                      \
  X(HostNativeAtomicSupported, 86)                                                                 \
  X(SingleToDoublePrecisionPerfRatio, 87)                                                          \
  X(PageableMemoryAccess, 88)                                                                      \
  X(ConcurrentManagedAccess, 89)                                                                   \
  X(ComputePreemptionSupported, 90)                                                                \
  X(CanUseHostPointerForRegisteredMem, 91)                                                         \
  X(CooperativeLaunch, 95)                                                                         \
  X(MaxSharedMemoryPerBlockOptin, 97)                                                              \
  X(CanFlushRemoteWrites, 98)                                                                      \
  X(HostRegisterSupported, 99)                                                                     \
  X(PageableMemoryAccessUsesHostPageTables, 100)                                                   \
  X(DirectManagedMemAccessFromHost, 101)                                                           \
  X(MaxBlocksPerMultiprocessor, 106)                                                               \
  X(MaxPersistingL2CacheSize, 108)                                                                 \
  X(MaxAccessPolicyWindowSize, 109)                                                                \
  X(ReservedSharedMemoryPerBlock, 111)                                                             \
  X(SparseCudaArraySupported, 112)                                                                 \
  X(HostRegisterReadOnlySupported, 113)                                                            \
  X(TimelineSemaphoreInteropSupported, 114)                                                        \
  X(MemoryPoolsSupported, 115)                                                                     \
  X(GPUDirectRDMASupported, 116)                                                                   \
  X(GPUDirectRDMAFlushWritesOptions, 117)                                                          \
  X(GPUDirectRDMAWritesOrdering, 118)                                                              \
  X(MemoryPoolSupportedHandleTypes, 119)                                                           \
  X(ClusterLaunch, 120)                                                                            \
  X(DeferredMappingCudaArraySupported, 121)                                                        \
  X(IpcEventSupport, 125)                                                                          \
  X(MemSyncDomainCount, 126)                                                                       \
  X(NumaConfig, 130)                                                                               \
  X(NumaId, 131)                                                                                   \
  X(MpsEnabled, 133)                                                                               \
  X(HostNumaId, 134)                                                                               \
  X(D3D12CigSupported, 135)                                                                        \
  X(VulkanCigSupported, 138)                                                                       \
  X(GpuPciDeviceId, 139)                                                                           \
  X(GpuPciSubsystemId, 140)                                                                        \
  X(HostNumaMemoryPoolsSupported, 142)                                                             \
  X(HostNumaMultinodeIpcSupported, 143)                                                            \
  X(HostMemoryPoolsSupported, 144)                                                                 \
  X(OnlyPartialHostNativeAtomicSupported, 147)

#define TESSEL_CUDART_ATTR_CONSTANT(name, value) constexpr DeviceAttr kDevAttr##name = value;
TESSEL_CUDART_DEVICE_ATTRS(TESSEL_CUDART_ATTR_CONSTANT)
#undef TESSEL_CUDART_ATTR_CONSTANT

/// driver_types.h's struct cudaDeviceProp with the CUDA 13.0 layout (1008
/// bytes on x86-64 and aarch64). Tessel's own driver_types.h (tessel-cc's
/// headers) overlays CUDA 12's dropped fields on `reserved`; the library
/// zeroes it. cudart_api_check.cpp checks the size and every field's
/// offset and size against the toolkit's struct.
struct DeviceProp {
  char name[256];
  char uuid[16]; // cudaUUID_t
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};
#if defined(__LP64__)
static_assert(sizeof(DeviceProp) == 1008, "CUDA 13's cudaDeviceProp has 1008 bytes on LP64");
#endif

/// X(field) for every field of DeviceProp, in order (checked one by one).
#define TESSEL_CUDART_DEVICE_PROP_FIELDS(X)                                                        \
  X(name) X(uuid) X(luid) X(luidDeviceNodeMask) X(totalGlobalMem) X(sharedMemPerBlock)             \
  X(regsPerBlock) X(warpSize) X(memPitch) X(maxThreadsPerBlock) X(maxThreadsDim) X(maxGridSize)    \
  X(totalConstMem) X(major) X(minor) X(textureAlignment) X(texturePitchAlignment)                  \
  X(multiProcessorCount) X(integrated) X(canMapHostMemory) X(maxTexture1D) X(maxTexture1DMipmap)   \
  X(maxTexture2D) X(maxTexture2DMipmap) X(maxTexture2DLinear) X(maxTexture2DGather)                \
  X(maxTexture3D) X(maxTexture3DAlt) X(maxTextureCubemap) X(maxTexture1DLayered)                   \
  X(maxTexture2DLayered) X(maxTextureCubemapLayered) X(maxSurface1D) X(maxSurface2D)               \
  X(maxSurface3D) X(maxSurface1DLayered) X(maxSurface2DLayered) X(maxSurfaceCubemap)               \
  X(maxSurfaceCubemapLayered) X(surfaceAlignment) X(concurrentKernels) X(ECCEnabled) X(pciBusID)   \
  X(pciDeviceID) X(pciDomainID) X(tccDriver) X(asyncEngineCount) X(unifiedAddressing)              \
  X(memoryBusWidth) X(l2CacheSize) X(persistingL2CacheMaxSize) X(maxThreadsPerMultiProcessor)      \
  X(streamPrioritiesSupported) X(globalL1CacheSupported) X(localL1CacheSupported)                  \
  X(sharedMemPerMultiprocessor) X(regsPerMultiprocessor) X(managedMemory) X(isMultiGpuBoard)       \
  X(multiGpuBoardGroupID) X(hostNativeAtomicSupported) X(pageableMemoryAccess)                     \
  X(concurrentManagedAccess) X(computePreemptionSupported) X(canUseHostPointerForRegisteredMem)    \
  X(cooperativeLaunch) X(sharedMemPerBlockOptin) X(pageableMemoryAccessUsesHostPageTables)         \
  X(directManagedMemAccessFromHost) X(maxBlocksPerMultiProcessor) X(accessPolicyMaxWindowSize)     \
  X(reservedSharedMemPerBlock) X(hostRegisterSupported) X(sparseCudaArraySupported)                \
  X(hostRegisterReadOnlySupported) X(timelineSemaphoreInteropSupported) X(memoryPoolsSupported)    \
  X(gpuDirectRDMASupported) X(gpuDirectRDMAFlushWritesOptions) X(gpuDirectRDMAWritesOrdering)      \
  X(memoryPoolSupportedHandleTypes) X(deferredMappingCudaArraySupported) X(ipcEventSupported)      \
  X(clusterLaunch) X(unifiedFunctionPointers) X(deviceNumaConfig) X(deviceNumaId) X(mpsEnabled)    \
  X(hostNumaId) X(gpuPciDeviceID) X(gpuPciSubsystemID) X(hostNumaMultinodeIpcSupported)            \
  X(reserved)

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
/// types ERR, DIM3, STREAM, EVENT, KIND, CACHE, PROP, ATTR (the library's
/// types here, CUDA's in cudart_api_check.cpp).
#define TESSEL_CUDART_API(X, ERR, DIM3, STREAM, EVENT, KIND, CACHE, PROP, ATTR)                     \
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
  X(ERR, cudaGetDeviceProperties, (PROP * prop, int device))                                       \
  X(ERR, cudaDeviceGetAttribute, (int *value, ATTR attr, int device))                              \
  X(ERR, cudaMemGetInfo, (size_t * free, size_t * total))                                          \
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
                  tessel::cudart::FuncCache, tessel::cudart::DeviceProp,
                  tessel::cudart::DeviceAttr)
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
