/* The FAKE_CUDA_DEVICE variant of fake_cuda.c: one device whose memory is
 * host memory, enough of the driver API for the runtime to create a device,
 * load a module, allocate, copy and record launches (see fake_cuda.c and
 * fake_cuda.h). Not thread-safe; tests drive it from one thread. */
#include "fake_cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_INVALID_IMAGE 200
#define CUDA_ERROR_NOT_FOUND 500
#define CUDA_ERROR_NOT_SUPPORTED 801

#define EXPORT __attribute__((visibility("default")))

typedef unsigned long long CUdeviceptr;

static struct FakeCudaLaunch lastLaunch;
static int launchCount;

EXPORT const struct FakeCudaLaunch *fake_cuda_last_launch(void) { return &lastLaunch; }
EXPORT int fake_cuda_launch_count(void) { return launchCount; }

static long envLong(const char *name, long fallback) {
  const char *v = getenv(name);
  return v && *v ? strtol(v, NULL, 10) : fallback;
}

EXPORT int cuDeviceGetCount(int *count) {
  *count = 1;
  return CUDA_SUCCESS;
}

EXPORT int cuDeviceGet(int *device, int ordinal) {
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_VALUE;
  *device = 0;
  return CUDA_SUCCESS;
}

EXPORT int cuDeviceGetName(char *name, int len, int device) {
  (void)device;
  snprintf(name, (size_t)len, "Fake CUDA device");
  return CUDA_SUCCESS;
}

EXPORT int cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  long cc = envLong("FAKE_CUDA_CC", 90);
  switch (attribute) {
  case 1: *value = 1024; return CUDA_SUCCESS;              /* max threads per block */
  case 2: case 3: *value = 1024; return CUDA_SUCCESS;      /* max block dim x, y */
  case 4: *value = 64; return CUDA_SUCCESS;                /* max block dim z */
  case 5: *value = 0x7fffffff; return CUDA_SUCCESS;        /* max grid dim x */
  case 6: case 7: *value = 65535; return CUDA_SUCCESS;     /* max grid dim y, z */
  case 8: *value = 48 * 1024; return CUDA_SUCCESS;         /* shared memory per block */
  case 9: *value = 65536; return CUDA_SUCCESS;             /* total constant memory */
  case 10: *value = 32; return CUDA_SUCCESS;               /* warp size */
  case 11: *value = 0x7fffffff; return CUDA_SUCCESS;       /* max pitch */
  case 12: *value = 65536; return CUDA_SUCCESS;            /* registers per block */
  case 13: *value = 1410000; return CUDA_SUCCESS;          /* clock rate (kHz) */
  case 14: *value = 512; return CUDA_SUCCESS;              /* texture alignment */
  case 16: *value = 108; return CUDA_SUCCESS;              /* multiprocessors */
  case 18: *value = 0; return CUDA_SUCCESS;                /* integrated */
  case 31: *value = 1; return CUDA_SUCCESS;                /* concurrent kernels */
  case 36: *value = 1215000; return CUDA_SUCCESS;          /* memory clock rate (kHz) */
  case 37: *value = 5120; return CUDA_SUCCESS;             /* memory bus width */
  case 38: *value = 40 * 1024 * 1024; return CUDA_SUCCESS; /* L2 cache size */
  case 39: *value = 2048; return CUDA_SUCCESS;             /* max threads per multiprocessor */
  case 41: *value = 1; return CUDA_SUCCESS;                /* unified addressing */
  case 75: *value = (int)(cc / 10); return CUDA_SUCCESS;   /* cc major */
  case 76: *value = (int)(cc % 10); return CUDA_SUCCESS;   /* cc minor */
  case 81: *value = 164 * 1024; return CUDA_SUCCESS;       /* shared memory per multiprocessor */
  case 83: *value = 1; return CUDA_SUCCESS;                /* managed memory */
  case 97: *value = 227 * 1024; return CUDA_SUCCESS;       /* opt-in shared memory */
  default:
    /* CUDA 13 numbers its attributes up to 147; a real driver refuses
     * numbers it does not know. The others answer 1000 + the number, a
     * distinct value, so that tests can tell which attribute a
     * cudaDeviceProp field was read from. */
    if (attribute < 1 || attribute > 147)
      return CUDA_ERROR_INVALID_VALUE;
    *value = 1000 + attribute;
    return CUDA_SUCCESS;
  }
}

/* What cuMemAlloc_v2 holds now, for cuMemGetInfo_v2. */
static size_t allocatedBytes;
#define FAKE_CUDA_TOTAL_MEMORY ((size_t)80 << 30)

EXPORT int cuMemGetInfo_v2(size_t *free, size_t *total) {
  *total = FAKE_CUDA_TOTAL_MEMORY;
  *free = allocatedBytes < FAKE_CUDA_TOTAL_MEMORY ? FAKE_CUDA_TOTAL_MEMORY - allocatedBytes : 0;
  return CUDA_SUCCESS;
}

static int dummy;

EXPORT int cuCtxCreate_v2(void **ctx, unsigned flags, int device) {
  (void)flags, (void)device;
  *ctx = &dummy;
  return CUDA_SUCCESS;
}
EXPORT int cuCtxDestroy_v2(void *ctx) { (void)ctx; return CUDA_SUCCESS; }
EXPORT int cuCtxSetCurrent(void *ctx) { (void)ctx; return CUDA_SUCCESS; }
EXPORT int cuStreamCreate(void **stream, unsigned flags) {
  (void)flags;
  *stream = &dummy;
  return CUDA_SUCCESS;
}
EXPORT int cuStreamDestroy_v2(void *stream) { (void)stream; return CUDA_SUCCESS; }
/* Launches since the last cuStreamSynchronize (tests of queued work), and
 * the error every synchronize returns once fake_cuda_fail_syncs set it (a
 * kernel fault found late, as the driver reports it). */
static int unsyncedLaunches, syncError;
EXPORT int fake_cuda_unsynced_launches(void) { return unsyncedLaunches; }
EXPORT void fake_cuda_fail_syncs(int error) { syncError = error; }
EXPORT int cuStreamSynchronize(void *stream) {
  (void)stream;
  unsyncedLaunches = 0;
  return syncError;
}

#define UNSUPPORTED(name)                                                                          \
  EXPORT int name(void) { return CUDA_ERROR_NOT_SUPPORTED; }
UNSUPPORTED(cuStreamBeginCapture_v2)
UNSUPPORTED(cuStreamEndCapture)
UNSUPPORTED(cuGraphInstantiateWithFlags)
UNSUPPORTED(cuGraphLaunch)
UNSUPPORTED(cuGraphExecDestroy)
UNSUPPORTED(cuGraphDestroy)
UNSUPPORTED(cuEventCreate)
UNSUPPORTED(cuEventDestroy_v2)
UNSUPPORTED(cuEventRecord)
UNSUPPORTED(cuEventElapsedTime)

/* Allocations are 256-byte aligned (as cuMemAlloc's are), then shifted by
 * FAKE_CUDA_ALLOC_OFFSET (0..255) within the block. A 256-byte header
 * before the block holds the size, for cuMemGetInfo_v2. */
EXPORT int cuMemAlloc_v2(CUdeviceptr *dptr, size_t size) {
  long offset = envLong("FAKE_CUDA_ALLOC_OFFSET", 0);
  if (offset < 0 || offset > 255)
    offset = 0;
  if (size > FAKE_CUDA_TOTAL_MEMORY - allocatedBytes)
    return CUDA_ERROR_OUT_OF_MEMORY;
  unsigned char *base = aligned_alloc(256, ((size + 255) / 256 + 2) * 256);
  if (!base)
    return CUDA_ERROR_OUT_OF_MEMORY;
  memcpy(base, &size, sizeof(size));
  allocatedBytes += size;
  *dptr = (CUdeviceptr)(uintptr_t)(base + 256 + offset);
  return CUDA_SUCCESS;
}
EXPORT int cuMemFree_v2(CUdeviceptr dptr) {
  unsigned char *base = (unsigned char *)(uintptr_t)(dptr & ~(CUdeviceptr)255) - 256;
  size_t size;
  memcpy(&size, base, sizeof(size));
  allocatedBytes -= size;
  free(base);
  return CUDA_SUCCESS;
}
EXPORT int cuMemAllocHost_v2(void **p, size_t size) {
  *p = malloc(size ? size : 1);
  return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
EXPORT int cuMemFreeHost(void *p) {
  free(p);
  return CUDA_SUCCESS;
}
EXPORT int cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *stream) {
  (void)stream;
  memcpy((void *)(uintptr_t)dst, src, n);
  return CUDA_SUCCESS;
}
EXPORT int cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *stream) {
  (void)stream;
  memcpy(dst, (const void *)(uintptr_t)src, n);
  return CUDA_SUCCESS;
}
EXPORT int cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, void *stream) {
  (void)stream;
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
  return CUDA_SUCCESS;
}
EXPORT int cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t n, void *stream) {
  (void)stream;
  memset((void *)(uintptr_t)dst, value, n);
  return CUDA_SUCCESS;
}

/* A module: its kernels with their parameter sizes. */
struct FakeKernel {
  char name[64];
  unsigned numParams;
  unsigned paramBytes[FAKE_CUDA_MAX_PARAMS];
};
struct FakeModule {
  unsigned numKernels;
  struct FakeKernel kernels[16];
};

EXPORT int cuModuleLoadDataEx(struct FakeModule **module, const void *image, unsigned numOptions,
                              int *options, void **values) {
  (void)numOptions, (void)options, (void)values;
  const char *text = image;
  const char *header = "fake-cuda-module\n";
  if (strncmp(text, header, strlen(header)) != 0)
    return CUDA_ERROR_INVALID_IMAGE;
  struct FakeModule *m = calloc(1, sizeof(*m));
  if (!m)
    return CUDA_ERROR_OUT_OF_MEMORY;
  const char *line = text + strlen(header);
  while (*line && m->numKernels < 16) {
    struct FakeKernel *k = &m->kernels[m->numKernels];
    int used = 0;
    if (sscanf(line, "kernel %63s%n", k->name, &used) != 1) {
      free(m);
      return CUDA_ERROR_INVALID_IMAGE;
    }
    const char *p = line + used;
    unsigned bytes;
    while (k->numParams < FAKE_CUDA_MAX_PARAMS && sscanf(p, " %u%n", &bytes, &used) == 1 &&
           bytes <= FAKE_CUDA_MAX_PARAM_BYTES) {
      k->paramBytes[k->numParams++] = bytes;
      p += used;
    }
    ++m->numKernels;
    const char *next = strchr(line, '\n');
    if (!next)
      break;
    line = next + 1;
  }
  *module = m;
  return CUDA_SUCCESS;
}
EXPORT int cuModuleUnload(struct FakeModule *module) {
  free(module);
  return CUDA_SUCCESS;
}
EXPORT int cuModuleGetFunction(struct FakeKernel **f, struct FakeModule *module,
                               const char *name) {
  for (unsigned i = 0; i < module->numKernels; ++i)
    if (strcmp(module->kernels[i].name, name) == 0) {
      *f = &module->kernels[i];
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}
EXPORT int cuFuncGetAttribute(int *value, int attribute, struct FakeKernel *f) {
  (void)f;
  *value = attribute == 0 ? 1024 : 0; /* max threads per block; no static shared memory */
  return CUDA_SUCCESS;
}
/* Blocks of any kernel an SM holds at once: FAKE_CUDA_OCCUPANCY, else 8. */
EXPORT int cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, struct FakeKernel *f,
                                                       int blockSize, size_t dynamicShared) {
  (void)f;
  (void)dynamicShared;
  if (blockSize <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  *blocks = (int)envLong("FAKE_CUDA_OCCUPANCY", 8);
  return CUDA_SUCCESS;
}
/* The last value set for CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (8). */
static int maxDynamicShared;
EXPORT int fake_cuda_max_dynamic_shared(void) { return maxDynamicShared; }
EXPORT int cuFuncSetAttribute(struct FakeKernel *f, int attribute, int value) {
  (void)f;
  if (attribute == 8)
    maxDynamicShared = value;
  return CUDA_SUCCESS;
}

EXPORT int cuLaunchKernel(struct FakeKernel *f, unsigned gx, unsigned gy, unsigned gz,
                          unsigned bx, unsigned by, unsigned bz, unsigned shared, void *stream,
                          void **params, void **extra) {
  (void)stream, (void)extra;
  memset(&lastLaunch, 0, sizeof(lastLaunch));
  snprintf(lastLaunch.kernel, sizeof(lastLaunch.kernel), "%s", f->name);
  unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  memcpy(lastLaunch.grid, grid, sizeof(grid));
  memcpy(lastLaunch.block, block, sizeof(block));
  lastLaunch.sharedBytes = shared;
  lastLaunch.numParams = f->numParams;
  if (f->numParams && !params)
    return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < f->numParams; ++i) {
    lastLaunch.paramBytes[i] = f->paramBytes[i];
    lastLaunch.paramAddress[i] = (uintptr_t)params[i];
    memcpy(lastLaunch.param[i], params[i], f->paramBytes[i]);
  }
  ++launchCount;
  ++unsyncedLaunches;
  return CUDA_SUCCESS;
}

static const unsigned kElementBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

EXPORT int cuTensorMapEncodeTiled(uint64_t *map, int dataType, uint32_t rank, void *address,
                                  const uint64_t *dims, const uint64_t *strides,
                                  const uint32_t *box, const uint32_t *elementStrides,
                                  int interleave, int swizzle, int l2Promotion, int oobFill) {
  (void)elementStrides;
  if ((uintptr_t)map % 64 || (uintptr_t)address % 16 || rank < 1 || rank > 5 || dataType < 0 ||
      dataType > 12)
    return CUDA_ERROR_INVALID_VALUE;
  /* The inner box row must fit the swizzle span (32, 64, 128 bytes). */
  if (swizzle > 0 && box[0] * kElementBytes[dataType] > (16u << swizzle))
    return CUDA_ERROR_INVALID_VALUE;
  memset(map, 0, 128);
  map[FAKE_MAP_MAGIC] = FAKE_CUDA_MAP_MAGIC;
  map[FAKE_MAP_ADDRESS] = (uint64_t)(uintptr_t)address;
  map[FAKE_MAP_RANK] = rank;
  map[FAKE_MAP_DATA_TYPE] = (uint64_t)dataType;
  for (uint32_t d = 0; d < rank; ++d) {
    map[FAKE_MAP_DIMS + d] = dims[d];
    if (d + 1 < rank)
      map[FAKE_MAP_STRIDES + d] = strides[d];
    if (d < 4)
      map[FAKE_MAP_BOX] |= (uint64_t)box[d] << (16 * d);
  }
  map[FAKE_MAP_ENUMS] = (uint64_t)interleave | (uint64_t)swizzle << 8 |
                        (uint64_t)l2Promotion << 16 | (uint64_t)oobFill << 24;
  return CUDA_SUCCESS;
}
