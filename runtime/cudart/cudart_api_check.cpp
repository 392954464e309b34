// Built only where the CUDA toolkit's headers exist: checks that every entry
// point and constant cudart_api.h declares by hand has exactly the type and
// value cuda_runtime_api.h gives it, so that host code compiled against the
// real headers calls libtessel_cudart.a with the right ABI. Produces no code.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

// The library's declarations use its own types, which would clash with
// CUDA's here: only the table and the constants are taken from the header.
#define TESSEL_CUDART_CHECK_ONLY
#include "cudart_api.h"

namespace tc = tessel::cudart;

#define TESSEL_CHECK_PROTOTYPE(ret, name, params)                                                  \
  static_assert(std::is_same_v<decltype(&::name), ret(*) params>,                                  \
                #name ": cudart_api.h disagrees with cuda_runtime_api.h");
TESSEL_CUDART_API(TESSEL_CHECK_PROTOTYPE, cudaError_t, dim3, cudaStream_t, cudaEvent_t,
                  cudaMemcpyKind, cudaFuncCache, cudaDeviceProp, cudaDeviceAttr)

static_assert(sizeof(tc::Dim3) == sizeof(dim3) && alignof(tc::Dim3) == alignof(dim3));
static_assert(offsetof(tc::Dim3, x) == offsetof(dim3, x) &&
              offsetof(tc::Dim3, y) == offsetof(dim3, y) &&
              offsetof(tc::Dim3, z) == offsetof(dim3, z));
static_assert(sizeof(tc::Error) == sizeof(cudaError_t));
static_assert(sizeof(tc::MemcpyKind) == sizeof(cudaMemcpyKind));
static_assert(sizeof(tc::FuncCache) == sizeof(cudaFuncCache));
static_assert(std::is_same_v<tc::Stream, cudaStream_t> && std::is_same_v<tc::Event, cudaEvent_t>);
static_assert(sizeof(tc::DeviceAttr) == sizeof(cudaDeviceAttr));

// cudaDeviceProp: the size, and every field at the same offset with the
// same size.
static_assert(sizeof(tc::DeviceProp) == sizeof(cudaDeviceProp) &&
              alignof(tc::DeviceProp) == alignof(cudaDeviceProp));
#define TESSEL_CHECK_FIELD(field)                                                                  \
  static_assert(offsetof(tc::DeviceProp, field) == offsetof(cudaDeviceProp, field) &&             \
                    sizeof(tc::DeviceProp::field) == sizeof(cudaDeviceProp::field),                \
                "cudaDeviceProp::" #field ": cudart_api.h disagrees with driver_types.h");
TESSEL_CUDART_DEVICE_PROP_FIELDS(TESSEL_CHECK_FIELD)

// Every cudaDeviceAttr the library names.
#define TESSEL_CHECK_ATTR(name, value)                                                             \
  static_assert(tc::kDevAttr##name == static_cast<int>(cudaDevAttr##name),                        \
                "kDevAttr" #name " != cudaDevAttr" #name);
TESSEL_CUDART_DEVICE_ATTRS(TESSEL_CHECK_ATTR)

#define TESSEL_CHECK_VALUE(ours, theirs)                                                           \
  static_assert(tc::ours == static_cast<int>(theirs), #ours " != " #theirs);
TESSEL_CHECK_VALUE(kSuccess, cudaSuccess)
TESSEL_CHECK_VALUE(kErrorInvalidValue, cudaErrorInvalidValue)
TESSEL_CHECK_VALUE(kErrorMemoryAllocation, cudaErrorMemoryAllocation)
TESSEL_CHECK_VALUE(kErrorInitializationError, cudaErrorInitializationError)
TESSEL_CHECK_VALUE(kErrorInvalidConfiguration, cudaErrorInvalidConfiguration)
TESSEL_CHECK_VALUE(kErrorInvalidSymbol, cudaErrorInvalidSymbol)
TESSEL_CHECK_VALUE(kErrorInvalidDevicePointer, cudaErrorInvalidDevicePointer)
TESSEL_CHECK_VALUE(kErrorInvalidMemcpyDirection, cudaErrorInvalidMemcpyDirection)
TESSEL_CHECK_VALUE(kErrorMissingConfiguration, cudaErrorMissingConfiguration)
TESSEL_CHECK_VALUE(kErrorInvalidDeviceFunction, cudaErrorInvalidDeviceFunction)
TESSEL_CHECK_VALUE(kErrorNoDevice, cudaErrorNoDevice)
TESSEL_CHECK_VALUE(kErrorInvalidDevice, cudaErrorInvalidDevice)
TESSEL_CHECK_VALUE(kErrorInvalidKernelImage, cudaErrorInvalidKernelImage)
TESSEL_CHECK_VALUE(kErrorNoKernelImageForDevice, cudaErrorNoKernelImageForDevice)
TESSEL_CHECK_VALUE(kErrorInvalidResourceHandle, cudaErrorInvalidResourceHandle)
TESSEL_CHECK_VALUE(kErrorIllegalAddress, cudaErrorIllegalAddress)
TESSEL_CHECK_VALUE(kErrorLaunchFailure, cudaErrorLaunchFailure)
TESSEL_CHECK_VALUE(kErrorNotSupported, cudaErrorNotSupported)
TESSEL_CHECK_VALUE(kErrorUnknown, cudaErrorUnknown)
TESSEL_CHECK_VALUE(kMemcpyHostToHost, cudaMemcpyHostToHost)
TESSEL_CHECK_VALUE(kMemcpyHostToDevice, cudaMemcpyHostToDevice)
TESSEL_CHECK_VALUE(kMemcpyDeviceToHost, cudaMemcpyDeviceToHost)
TESSEL_CHECK_VALUE(kMemcpyDeviceToDevice, cudaMemcpyDeviceToDevice)
TESSEL_CHECK_VALUE(kMemcpyDefault, cudaMemcpyDefault)
TESSEL_CHECK_VALUE(kEventDisableTiming, cudaEventDisableTiming)
TESSEL_CHECK_VALUE(kStreamNonBlocking, cudaStreamNonBlocking)
