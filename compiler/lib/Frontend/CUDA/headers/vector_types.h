/*===- vector_types.h - Tessel CUDA headers: CUDA vector types ------------===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md). The CUDA built-in
 * vector types (char1 .. double4, the CUDA 13 *_16a/*_32a 4-vectors) and dim3,
 * with the size and alignment of the CUDA 13 ABI.
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_VECTOR_TYPES_H__
#define __TESSEL_VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__

#include "host_defines.h"

/* CUDA 13 deprecates the 16-byte-aligned 4-vectors of 8-byte elements (long4,
 * double4, ...) in favour of explicit *_16a / *_32a types; like the toolkit,
 * __NV_NO_VECTOR_DEPRECATION_DIAG turns the warning off. */
#if defined(__NV_NO_VECTOR_DEPRECATION_DIAG)
#define __TESSEL_VEC_DEPRECATED(msg)
#else
#define __TESSEL_VEC_DEPRECATED(msg) __attribute__((deprecated(msg)))
#endif

#define __TESSEL_VEC1(name, T, A) \
  struct __device_builtin__ A name { T x; }; \
  typedef __device_builtin__ struct name name;
#define __TESSEL_VEC2(name, T, A) \
  struct __device_builtin__ A name { T x, y; }; \
  typedef __device_builtin__ struct name name;
#define __TESSEL_VEC3(name, T, A) \
  struct __device_builtin__ A name { T x, y, z; }; \
  typedef __device_builtin__ struct name name;
#define __TESSEL_VEC4(name, T, A) \
  struct __device_builtin__ A name { T x, y, z, w; }; \
  typedef __device_builtin__ struct name name;
#define __TESSEL_VEC4_DEPRECATED(name, T, A, msg) \
  struct __TESSEL_VEC_DEPRECATED(msg) __device_builtin__ A name { T x, y, z, w; }; \
  typedef __device_builtin__ struct name __TESSEL_VEC_DEPRECATED(msg) name;
#define __TESSEL_NOALIGN

/* char */
__TESSEL_VEC1(char1, signed char, __TESSEL_NOALIGN)
__TESSEL_VEC2(char2, signed char, __align__(2))
__TESSEL_VEC3(char3, signed char, __TESSEL_NOALIGN)
__TESSEL_VEC4(char4, signed char, __align__(4))

/* uchar */
__TESSEL_VEC1(uchar1, unsigned char, __TESSEL_NOALIGN)
__TESSEL_VEC2(uchar2, unsigned char, __align__(2))
__TESSEL_VEC3(uchar3, unsigned char, __TESSEL_NOALIGN)
__TESSEL_VEC4(uchar4, unsigned char, __align__(4))

/* short */
__TESSEL_VEC1(short1, short, __TESSEL_NOALIGN)
__TESSEL_VEC2(short2, short, __align__(4))
__TESSEL_VEC3(short3, short, __TESSEL_NOALIGN)
__TESSEL_VEC4(short4, short, __align__(8))

/* ushort */
__TESSEL_VEC1(ushort1, unsigned short, __TESSEL_NOALIGN)
__TESSEL_VEC2(ushort2, unsigned short, __align__(4))
__TESSEL_VEC3(ushort3, unsigned short, __TESSEL_NOALIGN)
__TESSEL_VEC4(ushort4, unsigned short, __align__(8))

/* int */
__TESSEL_VEC1(int1, int, __TESSEL_NOALIGN)
__TESSEL_VEC2(int2, int, __align__(8))
__TESSEL_VEC3(int3, int, __TESSEL_NOALIGN)
__TESSEL_VEC4(int4, int, __align__(16))

/* uint */
__TESSEL_VEC1(uint1, unsigned int, __TESSEL_NOALIGN)
__TESSEL_VEC2(uint2, unsigned int, __align__(8))
__TESSEL_VEC3(uint3, unsigned int, __TESSEL_NOALIGN)
__TESSEL_VEC4(uint4, unsigned int, __align__(16))

/* long */
__TESSEL_VEC1(long1, long int, __TESSEL_NOALIGN)
__TESSEL_VEC2(long2, long int, __align__(2 * sizeof(long int)))
__TESSEL_VEC3(long3, long int, __TESSEL_NOALIGN)
__TESSEL_VEC4_DEPRECATED(long4, long int, __align__(16), "use long4_16a or long4_32a")
__TESSEL_VEC4(long4_16a, long int, __align__(16))
__TESSEL_VEC4(long4_32a, long int, __align__(32))

/* ulong */
__TESSEL_VEC1(ulong1, unsigned long int, __TESSEL_NOALIGN)
__TESSEL_VEC2(ulong2, unsigned long int, __align__(2 * sizeof(unsigned long int)))
__TESSEL_VEC3(ulong3, unsigned long int, __TESSEL_NOALIGN)
__TESSEL_VEC4_DEPRECATED(ulong4, unsigned long int, __align__(16), "use ulong4_16a or ulong4_32a")
__TESSEL_VEC4(ulong4_16a, unsigned long int, __align__(16))
__TESSEL_VEC4(ulong4_32a, unsigned long int, __align__(32))

/* float */
__TESSEL_VEC1(float1, float, __TESSEL_NOALIGN)
__TESSEL_VEC2(float2, float, __align__(8))
__TESSEL_VEC3(float3, float, __TESSEL_NOALIGN)
__TESSEL_VEC4(float4, float, __align__(16))

/* longlong */
__TESSEL_VEC1(longlong1, long long int, __TESSEL_NOALIGN)
__TESSEL_VEC2(longlong2, long long int, __align__(16))
__TESSEL_VEC3(longlong3, long long int, __TESSEL_NOALIGN)
__TESSEL_VEC4_DEPRECATED(longlong4, long long int, __align__(16), "use longlong4_16a or longlong4_32a")
__TESSEL_VEC4(longlong4_16a, long long int, __align__(16))
__TESSEL_VEC4(longlong4_32a, long long int, __align__(32))

/* ulonglong */
__TESSEL_VEC1(ulonglong1, unsigned long long int, __TESSEL_NOALIGN)
__TESSEL_VEC2(ulonglong2, unsigned long long int, __align__(16))
__TESSEL_VEC3(ulonglong3, unsigned long long int, __TESSEL_NOALIGN)
__TESSEL_VEC4_DEPRECATED(ulonglong4, unsigned long long int, __align__(16), "use ulonglong4_16a or ulonglong4_32a")
__TESSEL_VEC4(ulonglong4_16a, unsigned long long int, __align__(16))
__TESSEL_VEC4(ulonglong4_32a, unsigned long long int, __align__(32))

/* double */
__TESSEL_VEC1(double1, double, __TESSEL_NOALIGN)
__TESSEL_VEC2(double2, double, __align__(16))
__TESSEL_VEC3(double3, double, __TESSEL_NOALIGN)
__TESSEL_VEC4_DEPRECATED(double4, double, __align__(16), "use double4_16a or double4_32a")
__TESSEL_VEC4(double4_16a, double, __align__(16))
__TESSEL_VEC4(double4_32a, double, __align__(32))

#undef __TESSEL_VEC1
#undef __TESSEL_VEC2
#undef __TESSEL_VEC3
#undef __TESSEL_VEC4
#undef __TESSEL_VEC4_DEPRECATED
#undef __TESSEL_NOALIGN
#undef __TESSEL_VEC_DEPRECATED

/* dim3: three unsigned ints, every component defaulting to 1. */
struct __device_builtin__ dim3 {
  unsigned int x, y, z;
#if defined(__cplusplus)
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3(void) const {
    return uint3{x, y, z};
  }
#endif
};
typedef __device_builtin__ struct dim3 dim3;

#endif /* __TESSEL_VECTOR_TYPES_H__ */
