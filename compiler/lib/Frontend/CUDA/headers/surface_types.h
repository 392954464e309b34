/*===- surface_types.h - Tessel CUDA headers: surface objects --------------===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md).
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_SURFACE_TYPES_H__
#define __TESSEL_SURFACE_TYPES_H__
#define __SURFACE_TYPES_H__

#include "driver_types.h"

enum __device_builtin__ cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};

typedef __device_builtin__ unsigned long long cudaSurfaceObject_t;

#endif /* __TESSEL_SURFACE_TYPES_H__ */
