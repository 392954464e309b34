/* A stand-in for libcuda.so.1 that tests point TESSEL_CUDA_LIBRARY at, so
 * that a missing, too old or incomplete CUDA driver can be tested on a
 * machine without a GPU. Built in variants (runtime/test/CMakeLists.txt):
 *   FAKE_CUDA_VERSION=N      what cuDriverGetVersion reports (e.g. 11040)
 *   FAKE_CUDA_OMIT_GRAPH     leave out cuGraphLaunch (a driver lacking an
 *                            entry point the runtime needs)
 *   FAKE_CUDA_NO_DEVICE      cuInit fails with CUDA_ERROR_NO_DEVICE
 *   FAKE_CUDA_DEVICE         one working device in host memory (below)
 * Without FAKE_CUDA_DEVICE, entry points the runtime never reaches with
 * these variants (everything after cuInit/cuDeviceGetCount) fail with
 * CUDA_ERROR_NOT_SUPPORTED.
 *
 * FAKE_CUDA_DEVICE (fake_cuda_device.c): "device memory" is host memory, copies are memcpy, the
 * stream is synchronous, graphs are not supported (use stream command
 * buffers). The compute capability is FAKE_CUDA_CC (e.g. 80; default 90).
 * FAKE_CUDA_ALLOC_OFFSET=N shifts every allocation by N bytes (misaligned
 * addresses). cuDeviceGetAttribute answers the attributes listed there (an
 * A100-like device with 108 multiprocessors, except the compute
 * capability), 1000 + the number for other numbers up to 147 (a distinct
 * value each) and CUDA_ERROR_INVALID_VALUE beyond. cuMemGetInfo reports
 * 80 GiB total, of which 80 GiB less what cuMemAlloc holds now is free (an
 * allocation beyond it fails with CUDA_ERROR_OUT_OF_MEMORY). A loadable
 * image is text: a first line "fake-cuda-module",
 * then one line per kernel, "kernel NAME BYTES BYTES ...", the size of each
 * parameter; anything else fails as an invalid image. cuLaunchKernel runs
 * nothing: it copies each parameter (by the declared size) into the record
 * fake_cuda_last_launch() returns (fake_cuda.h). cuTensorMapEncodeTiled
 * checks a few of the driver's rules (map 64-byte aligned, address 16-byte
 * aligned, rank 1..5, the inner box row within the swizzle span) and writes
 * its arguments into the map (fake_cuda.h). */
#include <stddef.h>
#include <stdint.h>

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_INVALID_IMAGE 200
#define CUDA_ERROR_NOT_FOUND 500
#define CUDA_ERROR_ILLEGAL_ADDRESS 700
#define CUDA_ERROR_NOT_SUPPORTED 801

#ifndef FAKE_CUDA_VERSION
#define FAKE_CUDA_VERSION 12040
#endif

#define EXPORT __attribute__((visibility("default")))

EXPORT int cuGetErrorName(int error, const char **str) {
  switch (error) {
  case CUDA_SUCCESS: *str = "CUDA_SUCCESS"; return 0;
  case CUDA_ERROR_INVALID_VALUE: *str = "CUDA_ERROR_INVALID_VALUE"; return 0;
  case CUDA_ERROR_OUT_OF_MEMORY: *str = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
  case CUDA_ERROR_INVALID_IMAGE: *str = "CUDA_ERROR_INVALID_IMAGE"; return 0;
  case CUDA_ERROR_NOT_FOUND: *str = "CUDA_ERROR_NOT_FOUND"; return 0;
  case CUDA_ERROR_NO_DEVICE: *str = "CUDA_ERROR_NO_DEVICE"; return 0;
  case CUDA_ERROR_ILLEGAL_ADDRESS: *str = "CUDA_ERROR_ILLEGAL_ADDRESS"; return 0;
  case CUDA_ERROR_NOT_SUPPORTED: *str = "CUDA_ERROR_NOT_SUPPORTED"; return 0;
  default: *str = NULL; return 1;
  }
}

EXPORT int cuGetErrorString(int error, const char **str) {
  switch (error) {
  case CUDA_SUCCESS: *str = "no error"; return 0;
  case CUDA_ERROR_INVALID_VALUE: *str = "invalid argument"; return 0;
  case CUDA_ERROR_OUT_OF_MEMORY: *str = "out of memory"; return 0;
  case CUDA_ERROR_INVALID_IMAGE: *str = "device kernel image is invalid"; return 0;
  case CUDA_ERROR_NOT_FOUND: *str = "named symbol not found"; return 0;
  case CUDA_ERROR_NO_DEVICE: *str = "no CUDA-capable device is detected"; return 0;
  case CUDA_ERROR_ILLEGAL_ADDRESS: *str = "an illegal memory access was encountered"; return 0;
  case CUDA_ERROR_NOT_SUPPORTED: *str = "operation not supported (fake libcuda)"; return 0;
  default: *str = NULL; return 1;
  }
}

EXPORT int cuDriverGetVersion(int *version) {
  *version = FAKE_CUDA_VERSION;
  return CUDA_SUCCESS;
}

EXPORT int cuInit(unsigned flags) {
  (void)flags;
#ifdef FAKE_CUDA_NO_DEVICE
  return CUDA_ERROR_NO_DEVICE;
#else
  return CUDA_SUCCESS;
#endif
}

/* FAKE_CUDA_DEVICE: the rest is in fake_cuda_device.c. */
#ifndef FAKE_CUDA_DEVICE

EXPORT int cuDeviceGetCount(int *count) {
  *count = 0;
  return CUDA_SUCCESS;
}

/* The rest of the table in runtime/src/hal/cuda/cuda_api.h. */
#define FAKE(name)                                                                                \
  EXPORT int name(void) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE(cuDeviceGet)
FAKE(cuDeviceGetName)
FAKE(cuDeviceGetAttribute)
FAKE(cuCtxCreate_v2)
FAKE(cuCtxDestroy_v2)
FAKE(cuCtxSetCurrent)
FAKE(cuStreamCreate)
FAKE(cuStreamDestroy_v2)
FAKE(cuStreamSynchronize)
FAKE(cuStreamBeginCapture_v2)
FAKE(cuStreamEndCapture)
FAKE(cuGraphInstantiateWithFlags)
#ifndef FAKE_CUDA_OMIT_GRAPH
FAKE(cuGraphLaunch)
#endif
FAKE(cuGraphExecDestroy)
FAKE(cuGraphDestroy)
FAKE(cuEventCreate)
FAKE(cuEventDestroy_v2)
FAKE(cuEventRecord)
FAKE(cuEventElapsedTime)
FAKE(cuMemAlloc_v2)
FAKE(cuMemFree_v2)
FAKE(cuMemAllocHost_v2)
FAKE(cuMemFreeHost)
FAKE(cuMemGetInfo_v2)
FAKE(cuMemcpyHtoDAsync_v2)
FAKE(cuMemcpyDtoHAsync_v2)
FAKE(cuMemcpyDtoDAsync_v2)
FAKE(cuMemsetD8Async)
FAKE(cuModuleLoadDataEx)
FAKE(cuModuleUnload)
FAKE(cuModuleGetFunction)
FAKE(cuFuncGetAttribute)
FAKE(cuFuncSetAttribute)
FAKE(cuOccupancyMaxActiveBlocksPerMultiprocessor)
FAKE(cuLaunchKernel)
FAKE(cuTensorMapEncodeTiled)
#endif
