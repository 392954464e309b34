/* What the FAKE_CUDA_DEVICE variant of fake_cuda.c records of each kernel
 * launch, for tests that check the kernel parameters the runtime passes
 * (binding pointers, then 128-byte tensor maps). Shared by the C fake and
 * the C++ tests, which read it through dlsym(fake_cuda_last_launch). */
#ifndef TESSEL_FAKE_CUDA_H
#define TESSEL_FAKE_CUDA_H

#include <stdint.h>

#define FAKE_CUDA_MAX_PARAMS 16
#define FAKE_CUDA_MAX_PARAM_BYTES 128

struct FakeCudaLaunch {
  char kernel[64];
  unsigned grid[3], block[3], sharedBytes;
  unsigned numParams;                   /* as the kernel's image declares */
  unsigned paramBytes[FAKE_CUDA_MAX_PARAMS];
  uintptr_t paramAddress[FAKE_CUDA_MAX_PARAMS]; /* where kernelParams[i] pointed */
  unsigned char param[FAKE_CUDA_MAX_PARAMS][FAKE_CUDA_MAX_PARAM_BYTES];
};

/* What the fake cuTensorMapEncodeTiled writes into the map's 16 words, so
 * that a test can tell which map reached which parameter. */
enum {
  FAKE_MAP_MAGIC = 0,   /* FAKE_CUDA_MAP_MAGIC */
  FAKE_MAP_ADDRESS = 1, /* globalAddress */
  FAKE_MAP_RANK = 2,
  FAKE_MAP_DATA_TYPE = 3,
  FAKE_MAP_DIMS = 4,    /* 5 words: globalDim */
  FAKE_MAP_STRIDES = 9, /* 4 words: globalStrides */
  FAKE_MAP_BOX = 13,    /* boxDim[0] | boxDim[1] << 16 | ... (rank <= 4 shown) */
  FAKE_MAP_ENUMS = 14,  /* interleave | swizzle << 8 | l2 << 16 | oobFill << 24 */
};
#define FAKE_CUDA_MAP_MAGIC 0x7e55e17a9b0000ffull

#endif
