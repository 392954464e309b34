/*===- device_types.h - Tessel CUDA headers: rounding modes ----------------===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md).
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_DEVICE_TYPES_H__
#define __TESSEL_DEVICE_TYPES_H__
#define __DEVICE_TYPES_H__

#include "host_defines.h"

enum __device_builtin__ cudaRoundMode {
  cudaRoundNearest,
  cudaRoundZero,
  cudaRoundPosInf,
  cudaRoundMinInf
};

#endif /* __TESSEL_DEVICE_TYPES_H__ */
