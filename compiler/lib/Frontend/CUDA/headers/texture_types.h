/*===- texture_types.h - Tessel CUDA headers: texture objects --------------===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md). Texture-object
 * types of the CUDA 13.0 runtime API (texture references no longer exist in
 * CUDA 13).
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_TEXTURE_TYPES_H__
#define __TESSEL_TEXTURE_TYPES_H__
#define __TEXTURE_TYPES_H__

#include "driver_types.h"

#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC

enum __device_builtin__ cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};

enum __device_builtin__ cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1
};

enum __device_builtin__ cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1
};

struct __device_builtin__ cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

typedef __device_builtin__ unsigned long long cudaTextureObject_t;

#endif /* __TESSEL_TEXTURE_TYPES_H__ */
