// Device math: C functions, CUDA fast intrinsics, std:: forms, min/max
// overloads (int, unsigned, float, mixed), integer intrinsics, conversions.
#include <cuda_runtime.h>
#include <math_constants.h>
#include <cmath>
#include <algorithm>

__global__ void math_f32(const float *x, float *y) {
  int i = threadIdx.x;
  float v = x[i];
  float r = expf(v) + sqrtf(v) + sinf(v) + cosf(v) + tanf(v) + logf(v) +
            log2f(v) + log10f(v) + powf(v, 2.5f) + fabsf(v) + floorf(v) +
            ceilf(v) + roundf(v) + truncf(v) + fmaf(v, v, 1.0f) +
            fminf(v, 1.0f) + fmaxf(v, 0.0f) + rsqrtf(v) + cbrtf(v) +
            atan2f(v, 1.0f) + tanhf(v) + erff(v) + exp2f(v) + expm1f(v) +
            hypotf(v, v) + fmodf(v, 3.0f) + copysignf(v, -1.0f);
  r += __expf(v) + __logf(v) + __sinf(v) + __cosf(v) + __powf(v, 2.0f) +
       __fdividef(v, 3.0f) + __saturatef(v) + __log2f(v) + __fsqrt_rn(v) +
       __fmaf_rn(v, v, v) + __frcp_rn(v) + __fadd_rz(v, 1.0f);
  float s, c;
  sincosf(v, &s, &c);
  __sincosf(v, &s, &c);
  r += s + c + rsqrt(v) + rcbrt(v) + sinpi(v) + cospi(v) + normcdf(v);
  r += std::sqrt(v) + std::exp(v) + std::abs(v) + std::pow(v, 2) +
       std::fmin(v, 2.0f) + std::max(v, 2.0f) + std::min(v, 1.0f);
  r += CUDART_PI_F + (isnan(v) ? 1.0f : 0.0f) + (isinf(v) ? 1.0f : 0.0f) +
       (signbit(v) ? 1.0f : 0.0f) + (std::isfinite(v) ? 1.0f : 0.0f);
  y[i] = r;
}

__global__ void math_f64(const double *x, double *y) {
  int i = threadIdx.x;
  double v = x[i];
  y[i] = exp(v) + sqrt(v) + sin(v) + pow(v, 3.0) + fabs(v) + log(v) +
         fma(v, v, v) + fmin(v, 1.0) + fmax(v, 1.0) + rsqrt(v) + floor(v) +
         erfcinv(v) + normcdfinv(v) + __dadd_rn(v, v) + __drcp_rn(v) +
         std::cos(v) + std::atan(v) + CUDART_PI;
}

__global__ void minmax_int(const int *a, const unsigned *b, long long *c,
                           float *f) {
  int i = threadIdx.x;
  int x = a[i];
  unsigned u = b[i];
  c[i] = min(x, 3) + max(x, -3) + min(u, 7u) + max(u, 1u) + min(x, u) +
         max(u, x) + abs(x) + llabs((long long)x) + labs((long)x) +
         min((long long)x, 5LL) + max((unsigned long long)u, 9ULL) +
         umin(u, 2u) + umax(u, 2u) + llmin(1LL, 2LL) + ullmax(1ULL, 2ULL);
  f[i] = min(1.0f, f[i]) + max(f[i], 2.0f) + (float)min(1.0, (double)f[i]) +
         (float)max(1.0f, 2.0);
  c[i] += __popc(u) + __popcll((unsigned long long)u) + __clz(x) + __ffs(x) +
          __brev(u) + __mul24(x, x) + __umulhi(u, u) + __byte_perm(u, u, 0x3210) +
          __float2int_rn(f[i]) + __float_as_int(f[i]) + __double2int_rz(1.5) +
          __sad(x, x, u) + __funnelshift_l(u, u, 3);
  f[i] += __int_as_float(x) + __uint2float_rn(u) + __int2float_rz(x);
}

#ifndef TOOLKIT_REFERENCE
// nvcc declares min/max __host__ __device__ (clang + toolkit: device only).
__host__ __device__ int hd_min(int a, int b) { return min(a, b) + max(a, b); }

int main() {
  float f = min(1.0f, 2.0f) + max(3, 4) + hd_min(1, 2) + (float)min(2u, 3);
  return f > 0 ? 0 : 1;
}
#else
int main() { return 0; }
#endif
