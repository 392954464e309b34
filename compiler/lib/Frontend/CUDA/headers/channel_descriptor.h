/*===- channel_descriptor.h - Tessel CUDA headers: cudaCreateChannelDesc<T> -===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md). The C++ template
 * cudaCreateChannelDesc<T>() for the scalar and vector element types.
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_CHANNEL_DESCRIPTOR_H__
#define __TESSEL_CHANNEL_DESCRIPTOR_H__
#define __CHANNEL_DESCRIPTOR_H__

#if defined(__cplusplus)
#include "cuda_runtime_api.h"

template <class T>
__inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}

template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<char>(void) {
  int e = (int)sizeof(char) * 8;
#if defined(_CHAR_UNSIGNED) || defined(__CHAR_UNSIGNED__)
  return cudaCreateChannelDesc(e, 0, 0, 0, cudaChannelFormatKindUnsigned);
#else
  return cudaCreateChannelDesc(e, 0, 0, 0, cudaChannelFormatKindSigned);
#endif
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<signed char>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<unsigned char>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<short>(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<unsigned short>(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<int>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<unsigned int>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<float>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<char1>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<char2>(void) {
  return cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<char4>(void) {
  return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<uchar1>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<uchar2>(void) {
  return cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<uchar4>(void) {
  return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<short1>(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<short2>(void) {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<short4>(void) {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<ushort1>(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<ushort2>(void) {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<ushort4>(void) {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<int1>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<int2>(void) {
  return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<int4>(void) {
  return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindSigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<uint1>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<uint2>(void) {
  return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<uint4>(void) {
  return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindUnsigned);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<float1>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<float2>(void) {
  return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindFloat);
}
template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<float4>(void) {
  return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
}
#endif /* __cplusplus */

#endif /* __TESSEL_CHANNEL_DESCRIPTOR_H__ */
