/*===- builtin_types.h - Tessel CUDA headers: all runtime types ------------===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md).
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_BUILTIN_TYPES_H__
#define __TESSEL_BUILTIN_TYPES_H__

#include "device_types.h"
#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"
#include "vector_types.h"

#endif /* __TESSEL_BUILTIN_TYPES_H__ */
