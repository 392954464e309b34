/*===- __tessel_cuda_device_functions.h - Tessel CUDA headers: CUDA API ----===*
 *
 * Part of Tessel's minimal CUDA header set (see README.md). The part of the
 * CUDA device API that clang's own __clang_cuda_*.h headers leave to the
 * toolkit: the atomic*() overloads (on top of clang's __iAtomicAdd & co.),
 * the host/device min/max overloads, float overloads of CUDA-only math
 * functions, and a few sm_61 intrinsics. Included by __tessel_cuda_runtime.h
 * after __clang_cuda_device_functions.h and __clang_cuda_math.h.
 *
 *===----------------------------------------------------------------------===*/
#ifndef __TESSEL_CUDA_DEVICE_FUNCTIONS_H__
#define __TESSEL_CUDA_DEVICE_FUNCTIONS_H__

#pragma push_macro("__DEVICE__")
#pragma push_macro("__HOST_DEVICE__")
#pragma push_macro("__HOST__")
#define __DEVICE__ static __device__ __forceinline__
#define __HOST__ static __host__ __forceinline__
#define __HOST_DEVICE__ static __host__ __device__ __forceinline__

/*---------------------------------------------------------------------------*
 * Atomics (device_atomic_functions.h, sm_20/32/60/70 atomic functions).
 * Each scope suffix ("", _block, _system) maps to clang's helper of the same
 * suffix, which lowers to an __nvvm_atom_[cta_|sys_]* builtin.
 *---------------------------------------------------------------------------*/
#define __TESSEL_ATOMICS(SFX)                                                  \
  __DEVICE__ int atomicAdd##SFX(int *__p, int __v) {                           \
    return __iAtomicAdd##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ unsigned int atomicAdd##SFX(unsigned int *__p, unsigned int __v) { \
    return __uAtomicAdd##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ unsigned long long atomicAdd##SFX(unsigned long long *__p,        \
                                               unsigned long long __v) {       \
    return __ullAtomicAdd##SFX(__p, __v);                                      \
  }                                                                            \
  __DEVICE__ float atomicAdd##SFX(float *__p, float __v) {                     \
    return __fAtomicAdd##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ double atomicAdd##SFX(double *__p, double __v) {                  \
    return __dAtomicAdd##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ int atomicSub##SFX(int *__p, int __v) {                           \
    return __iAtomicAdd##SFX(__p, -__v);                                       \
  }                                                                            \
  __DEVICE__ unsigned int atomicSub##SFX(unsigned int *__p, unsigned int __v) { \
    return __uAtomicAdd##SFX(__p, (unsigned int)-(int)__v);                    \
  }                                                                            \
  __DEVICE__ int atomicExch##SFX(int *__p, int __v) {                          \
    return __iAtomicExch##SFX(__p, __v);                                       \
  }                                                                            \
  __DEVICE__ unsigned int atomicExch##SFX(unsigned int *__p,                   \
                                          unsigned int __v) {                  \
    return __uAtomicExch##SFX(__p, __v);                                       \
  }                                                                            \
  __DEVICE__ unsigned long long atomicExch##SFX(unsigned long long *__p,       \
                                                unsigned long long __v) {      \
    return __ullAtomicExch##SFX(__p, __v);                                     \
  }                                                                            \
  __DEVICE__ float atomicExch##SFX(float *__p, float __v) {                    \
    return __fAtomicExch##SFX(__p, __v);                                       \
  }                                                                            \
  __DEVICE__ int atomicMin##SFX(int *__p, int __v) {                           \
    return __iAtomicMin##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ unsigned int atomicMin##SFX(unsigned int *__p, unsigned int __v) { \
    return __uAtomicMin##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ long long atomicMin##SFX(long long *__p, long long __v) {         \
    return __illAtomicMin##SFX(__p, __v);                                      \
  }                                                                            \
  __DEVICE__ unsigned long long atomicMin##SFX(unsigned long long *__p,        \
                                               unsigned long long __v) {       \
    return __ullAtomicMin##SFX(__p, __v);                                      \
  }                                                                            \
  __DEVICE__ int atomicMax##SFX(int *__p, int __v) {                           \
    return __iAtomicMax##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ unsigned int atomicMax##SFX(unsigned int *__p, unsigned int __v) { \
    return __uAtomicMax##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ long long atomicMax##SFX(long long *__p, long long __v) {         \
    return __illAtomicMax##SFX(__p, __v);                                      \
  }                                                                            \
  __DEVICE__ unsigned long long atomicMax##SFX(unsigned long long *__p,        \
                                               unsigned long long __v) {       \
    return __ullAtomicMax##SFX(__p, __v);                                      \
  }                                                                            \
  __DEVICE__ unsigned int atomicInc##SFX(unsigned int *__p, unsigned int __v) { \
    return __uAtomicInc##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ unsigned int atomicDec##SFX(unsigned int *__p, unsigned int __v) { \
    return __uAtomicDec##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ int atomicCAS##SFX(int *__p, int __c, int __v) {                  \
    return __iAtomicCAS##SFX(__p, __c, __v);                                   \
  }                                                                            \
  __DEVICE__ unsigned int atomicCAS##SFX(unsigned int *__p, unsigned int __c,  \
                                         unsigned int __v) {                   \
    return __uAtomicCAS##SFX(__p, __c, __v);                                   \
  }                                                                            \
  __DEVICE__ unsigned long long atomicCAS##SFX(unsigned long long *__p,        \
                                               unsigned long long __c,         \
                                               unsigned long long __v) {       \
    return __ullAtomicCAS##SFX(__p, __c, __v);                                 \
  }                                                                            \
  __DEVICE__ int atomicAnd##SFX(int *__p, int __v) {                           \
    return __iAtomicAnd##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ unsigned int atomicAnd##SFX(unsigned int *__p, unsigned int __v) { \
    return __uAtomicAnd##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ unsigned long long atomicAnd##SFX(unsigned long long *__p,        \
                                               unsigned long long __v) {       \
    return __ullAtomicAnd##SFX(__p, __v);                                      \
  }                                                                            \
  __DEVICE__ int atomicOr##SFX(int *__p, int __v) {                            \
    return __iAtomicOr##SFX(__p, __v);                                         \
  }                                                                            \
  __DEVICE__ unsigned int atomicOr##SFX(unsigned int *__p, unsigned int __v) {  \
    return __uAtomicOr##SFX(__p, __v);                                         \
  }                                                                            \
  __DEVICE__ unsigned long long atomicOr##SFX(unsigned long long *__p,         \
                                              unsigned long long __v) {        \
    return __ullAtomicOr##SFX(__p, __v);                                       \
  }                                                                            \
  __DEVICE__ int atomicXor##SFX(int *__p, int __v) {                           \
    return __iAtomicXor##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ unsigned int atomicXor##SFX(unsigned int *__p, unsigned int __v) { \
    return __uAtomicXor##SFX(__p, __v);                                        \
  }                                                                            \
  __DEVICE__ unsigned long long atomicXor##SFX(unsigned long long *__p,        \
                                               unsigned long long __v) {       \
    return __ullAtomicXor##SFX(__p, __v);                                      \
  }

__TESSEL_ATOMICS()
__TESSEL_ATOMICS(_block)
__TESSEL_ATOMICS(_system)
#undef __TESSEL_ATOMICS

/*---------------------------------------------------------------------------*
 * min / max. __clang_cuda_math.h has the device int min/max and the
 * u/ll/ull-prefixed forms; CUDA also declares them for the host and adds the
 * mixed-signedness and floating-point overloads (usable on host and device).
 *---------------------------------------------------------------------------*/
__HOST__ int min(const int __a, const int __b) { return __a < __b ? __a : __b; }
__HOST__ int max(const int __a, const int __b) { return __a > __b ? __a : __b; }
__HOST__ unsigned int umin(const unsigned int __a, const unsigned int __b) {
  return __a < __b ? __a : __b;
}
__HOST__ unsigned int umax(const unsigned int __a, const unsigned int __b) {
  return __a > __b ? __a : __b;
}
__HOST__ long long llmin(const long long __a, const long long __b) {
  return __a < __b ? __a : __b;
}
__HOST__ long long llmax(const long long __a, const long long __b) {
  return __a > __b ? __a : __b;
}
__HOST__ unsigned long long ullmin(const unsigned long long __a,
                                   const unsigned long long __b) {
  return __a < __b ? __a : __b;
}
__HOST__ unsigned long long ullmax(const unsigned long long __a,
                                   const unsigned long long __b) {
  return __a > __b ? __a : __b;
}

#define __TESSEL_MINMAX(R, A, B, MIN, MAX)                                     \
  __HOST_DEVICE__ R min(const A __a, const B __b) {                            \
    return MIN((R)__a, (R)__b);                                                \
  }                                                                            \
  __HOST_DEVICE__ R max(const A __a, const B __b) {                            \
    return MAX((R)__a, (R)__b);                                                \
  }
__TESSEL_MINMAX(unsigned int, unsigned int, unsigned int, umin, umax)
__TESSEL_MINMAX(unsigned int, int, unsigned int, umin, umax)
__TESSEL_MINMAX(unsigned int, unsigned int, int, umin, umax)
#if defined(__LP64__)
__TESSEL_MINMAX(long, long, long, llmin, llmax)
__TESSEL_MINMAX(unsigned long, unsigned long, unsigned long, ullmin, ullmax)
__TESSEL_MINMAX(unsigned long, long, unsigned long, ullmin, ullmax)
__TESSEL_MINMAX(unsigned long, unsigned long, long, ullmin, ullmax)
#else
__TESSEL_MINMAX(long, long, long, min, max)
__TESSEL_MINMAX(unsigned long, unsigned long, unsigned long, umin, umax)
__TESSEL_MINMAX(unsigned long, long, unsigned long, umin, umax)
__TESSEL_MINMAX(unsigned long, unsigned long, long, umin, umax)
#endif
__TESSEL_MINMAX(long long, long long, long long, llmin, llmax)
__TESSEL_MINMAX(unsigned long long, unsigned long long, unsigned long long,
                ullmin, ullmax)
__TESSEL_MINMAX(unsigned long long, long long, unsigned long long, ullmin,
                ullmax)
__TESSEL_MINMAX(unsigned long long, unsigned long long, long long, ullmin,
                ullmax)
__TESSEL_MINMAX(float, float, float, fminf, fmaxf)
__TESSEL_MINMAX(double, double, double, fmin, fmax)
__TESSEL_MINMAX(double, float, double, fmin, fmax)
__TESSEL_MINMAX(double, double, float, fmin, fmax)
#undef __TESSEL_MINMAX

/*---------------------------------------------------------------------------*
 * float overloads of the C99 math functions. clang's
 * __clang_cuda_math_forward_declares.h declares them (so that <cmath> picks
 * them up) and __clang_cuda_cmath.h defines only part of them; the toolkit's
 * math_functions.hpp defines the rest, here they are.
 *---------------------------------------------------------------------------*/
__DEVICE__ float acosh(float __x) { return ::acoshf(__x); }
__DEVICE__ float asinh(float __x) { return ::asinhf(__x); }
__DEVICE__ float atanh(float __x) { return ::atanhf(__x); }
__DEVICE__ float cbrt(float __x) { return ::cbrtf(__x); }
__DEVICE__ float erf(float __x) { return ::erff(__x); }
__DEVICE__ float erfc(float __x) { return ::erfcf(__x); }
__DEVICE__ float exp2(float __x) { return ::exp2f(__x); }
__DEVICE__ float expm1(float __x) { return ::expm1f(__x); }
__DEVICE__ float lgamma(float __x) { return ::lgammaf(__x); }
__DEVICE__ float log1p(float __x) { return ::log1pf(__x); }
__DEVICE__ float log2(float __x) { return ::log2f(__x); }
__DEVICE__ float logb(float __x) { return ::logbf(__x); }
__DEVICE__ float nearbyint(float __x) { return ::nearbyintf(__x); }
__DEVICE__ float rint(float __x) { return ::rintf(__x); }
__DEVICE__ float round(float __x) { return ::roundf(__x); }
__DEVICE__ float tgamma(float __x) { return ::tgammaf(__x); }
__DEVICE__ float trunc(float __x) { return ::truncf(__x); }
__DEVICE__ float copysign(float __x, float __y) { return ::copysignf(__x, __y); }
__DEVICE__ float fdim(float __x, float __y) { return ::fdimf(__x, __y); }
__DEVICE__ float fmax(float __x, float __y) { return ::fmaxf(__x, __y); }
__DEVICE__ float fmin(float __x, float __y) { return ::fminf(__x, __y); }
__DEVICE__ float hypot(float __x, float __y) { return ::hypotf(__x, __y); }
__DEVICE__ float nextafter(float __x, float __y) { return ::nextafterf(__x, __y); }
__DEVICE__ float remainder(float __x, float __y) { return ::remainderf(__x, __y); }
__DEVICE__ float fma(float __x, float __y, float __z) {
  return ::fmaf(__x, __y, __z);
}
__DEVICE__ int ilogb(float __x) { return ::ilogbf(__x); }
__DEVICE__ long lrint(float __x) { return ::lrintf(__x); }
__DEVICE__ long long llrint(float __x) { return ::llrintf(__x); }
__DEVICE__ long lround(float __x) { return ::lroundf(__x); }
__DEVICE__ long long llround(float __x) { return ::llroundf(__x); }
__DEVICE__ float remquo(float __x, float __y, int *__q) {
  return ::remquof(__x, __y, __q);
}
__DEVICE__ float scalbn(float __x, int __n) { return ::scalbnf(__x, __n); }
__DEVICE__ float scalbln(float __x, long __n) { return ::scalblnf(__x, __n); }

/*---------------------------------------------------------------------------*
 * Float overloads of CUDA-only math functions. On the device they call the
 * f-suffixed functions of __clang_cuda_math.h (float precision, as nvcc
 * does); the host forms are computed with libm. No host definitions of the
 * f-suffixed names themselves: C23 libcs (glibc >= 2.41) declare some.
 *---------------------------------------------------------------------------*/
__DEVICE__ float rsqrt(float __a) { return rsqrtf(__a); }
__DEVICE__ float rcbrt(float __a) { return rcbrtf(__a); }
__DEVICE__ float sinpi(float __a) { return sinpif(__a); }
__DEVICE__ float cospi(float __a) { return cospif(__a); }
__DEVICE__ void sincospi(float __a, float *__s, float *__c) {
  sincospif(__a, __s, __c);
}
__DEVICE__ float erfcinv(float __a) { return erfcinvf(__a); }
__DEVICE__ float normcdfinv(float __a) { return normcdfinvf(__a); }
__DEVICE__ float normcdf(float __a) { return normcdff(__a); }
__DEVICE__ float erfcx(float __a) { return erfcxf(__a); }

__HOST__ float rsqrt(float __a) { return 1.0f / ::sqrtf(__a); }
__HOST__ float rcbrt(float __a) { return 1.0f / ::cbrtf(__a); }
__HOST__ float sinpi(float __a) {
  return (float)::sin((double)__a * 3.14159265358979323846);
}
__HOST__ float cospi(float __a) {
  return (float)::cos((double)__a * 3.14159265358979323846);
}
__HOST__ void sincospi(float __a, float *__s, float *__c) {
  *__s = sinpi(__a);
  *__c = cospi(__a);
}
__HOST__ float normcdf(float __a) {
  return 0.5f * ::erfcf(-__a * 0.707106781186547524f);
}

/*---------------------------------------------------------------------------*
 * sm_61 integer dot products.
 *---------------------------------------------------------------------------*/
__DEVICE__ int __dp4a(int __a, int __b, int __c) {
  int __r;
  __asm__("dp4a.s32.s32 %0, %1, %2, %3;"
          : "=r"(__r)
          : "r"(__a), "r"(__b), "r"(__c));
  return __r;
}
__DEVICE__ unsigned int __dp4a(unsigned int __a, unsigned int __b,
                               unsigned int __c) {
  unsigned int __r;
  __asm__("dp4a.u32.u32 %0, %1, %2, %3;"
          : "=r"(__r)
          : "r"(__a), "r"(__b), "r"(__c));
  return __r;
}
__DEVICE__ int __dp2a_lo(int __a, int __b, int __c) {
  int __r;
  __asm__("dp2a.lo.s32.s32 %0, %1, %2, %3;"
          : "=r"(__r)
          : "r"(__a), "r"(__b), "r"(__c));
  return __r;
}
__DEVICE__ unsigned int __dp2a_lo(unsigned int __a, unsigned int __b,
                                  unsigned int __c) {
  unsigned int __r;
  __asm__("dp2a.lo.u32.u32 %0, %1, %2, %3;"
          : "=r"(__r)
          : "r"(__a), "r"(__b), "r"(__c));
  return __r;
}
__DEVICE__ int __dp2a_hi(int __a, int __b, int __c) {
  int __r;
  __asm__("dp2a.hi.s32.s32 %0, %1, %2, %3;"
          : "=r"(__r)
          : "r"(__a), "r"(__b), "r"(__c));
  return __r;
}
__DEVICE__ unsigned int __dp2a_hi(unsigned int __a, unsigned int __b,
                                  unsigned int __c) {
  unsigned int __r;
  __asm__("dp2a.hi.u32.u32 %0, %1, %2, %3;"
          : "=r"(__r)
          : "r"(__a), "r"(__b), "r"(__c));
  return __r;
}

/* Address-space predicates (sm_20_intrinsics), side-effect free. */
__DEVICE__ __attribute__((const)) unsigned int __isGlobal(const void *__p) {
  return __nvvm_isspacep_global(__p);
}
__DEVICE__ __attribute__((const)) unsigned int __isShared(const void *__p) {
  return __nvvm_isspacep_shared(__p);
}
__DEVICE__ __attribute__((const)) unsigned int __isConstant(const void *__p) {
  return __nvvm_isspacep_const(__p);
}
__DEVICE__ __attribute__((const)) unsigned int __isLocal(const void *__p) {
  return __nvvm_isspacep_local(__p);
}

/* Address-space conversions (sm_20_intrinsics). The __nv_cvta_*_impl
 * helpers are defined later by __clang_cuda_intrinsics.h, which itself uses
 * __cvta_generic_to_shared. */
extern "C" {
__device__ inline size_t __nv_cvta_generic_to_global_impl(const void *);
__device__ inline size_t __nv_cvta_generic_to_shared_impl(const void *);
__device__ inline size_t __nv_cvta_generic_to_constant_impl(const void *);
__device__ inline size_t __nv_cvta_generic_to_local_impl(const void *);
__device__ inline void *__nv_cvta_global_to_generic_impl(size_t);
__device__ inline void *__nv_cvta_shared_to_generic_impl(size_t);
__device__ inline void *__nv_cvta_constant_to_generic_impl(size_t);
__device__ inline void *__nv_cvta_local_to_generic_impl(size_t);
}
__DEVICE__ size_t __cvta_generic_to_global(const void *__p) {
  return __nv_cvta_generic_to_global_impl(__p);
}
__DEVICE__ size_t __cvta_generic_to_shared(const void *__p) {
  return __nv_cvta_generic_to_shared_impl(__p);
}
__DEVICE__ size_t __cvta_generic_to_constant(const void *__p) {
  return __nv_cvta_generic_to_constant_impl(__p);
}
__DEVICE__ size_t __cvta_generic_to_local(const void *__p) {
  return __nv_cvta_generic_to_local_impl(__p);
}
__DEVICE__ void *__cvta_global_to_generic(size_t __a) {
  return __nv_cvta_global_to_generic_impl(__a);
}
__DEVICE__ void *__cvta_shared_to_generic(size_t __a) {
  return __nv_cvta_shared_to_generic_impl(__a);
}
__DEVICE__ void *__cvta_constant_to_generic(size_t __a) {
  return __nv_cvta_constant_to_generic_impl(__a);
}
__DEVICE__ void *__cvta_local_to_generic(size_t __a) {
  return __nv_cvta_local_to_generic_impl(__a);
}

#pragma pop_macro("__HOST_DEVICE__")
#pragma pop_macro("__HOST__")
#pragma pop_macro("__DEVICE__")

#endif /* __TESSEL_CUDA_DEVICE_FUNCTIONS_H__ */
