/*===- crt/sm_70_rt.hpp - Tessel CUDA headers: sm_70 device functions ------===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md). clang's
 * __clang_cuda_intrinsics.h includes this file (by this name) after defining
 * __match{32,64}_{any,all}_sync; here are the typed __match_*_sync overloads,
 * __nanosleep and the 16-bit atomicCAS that the toolkit's file provides.
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_SM_70_RT_HPP__
#define __TESSEL_SM_70_RT_HPP__
#define __SM_70_RT_H__
#define __SM_70_RT_HPP__

#pragma push_macro("__DEVICE__")
#define __DEVICE__ static __device__ __forceinline__

#define __TESSEL_MATCH(T, W, CAST)                                             \
  __DEVICE__ unsigned int __match_any_sync(unsigned __mask, T __value) {       \
    return __match##W##_any_sync(__mask, CAST(__value));                       \
  }                                                                            \
  __DEVICE__ unsigned int __match_all_sync(unsigned __mask, T __value,         \
                                           int *__pred) {                      \
    return __match##W##_all_sync(__mask, CAST(__value), __pred);               \
  }
#define __TESSEL_AS_U32(v) ((unsigned int)(v))
#define __TESSEL_AS_U64(v) ((unsigned long long)(v))
#define __TESSEL_F32_BITS(v) __float_as_uint(v)
#define __TESSEL_F64_BITS(v) ((unsigned long long)__double_as_longlong(v))
__TESSEL_MATCH(unsigned, 32, __TESSEL_AS_U32)
__TESSEL_MATCH(int, 32, __TESSEL_AS_U32)
#if defined(__LP64__)
__TESSEL_MATCH(unsigned long, 64, __TESSEL_AS_U64)
__TESSEL_MATCH(long, 64, __TESSEL_AS_U64)
#else
__TESSEL_MATCH(unsigned long, 32, __TESSEL_AS_U32)
__TESSEL_MATCH(long, 32, __TESSEL_AS_U32)
#endif
__TESSEL_MATCH(unsigned long long, 64, __TESSEL_AS_U64)
__TESSEL_MATCH(long long, 64, __TESSEL_AS_U64)
__TESSEL_MATCH(float, 32, __TESSEL_F32_BITS)
__TESSEL_MATCH(double, 64, __TESSEL_F64_BITS)
#undef __TESSEL_MATCH
#undef __TESSEL_AS_U32
#undef __TESSEL_AS_U64
#undef __TESSEL_F32_BITS
#undef __TESSEL_F64_BITS

__DEVICE__ void __nanosleep(unsigned int __ns) { __nvvm_nanosleep(__ns); }

__DEVICE__ unsigned short int atomicCAS(unsigned short int *__p,
                                        unsigned short int __c,
                                        unsigned short int __v) {
  return __usAtomicCAS(__p, __c, __v);
}

#pragma pop_macro("__DEVICE__")

#endif /* __TESSEL_SM_70_RT_HPP__ */
