// Case 7: math functions in float and double against the host's double
// results, with tolerances |got - want| <= tol * (1 + |want|). One kernel per
// precision; blockIdx.y picks the function through a switch (uniform per
// block); each function has its own input domain, drawn on the host, so the
// arguments are the same floats on every target. The exact functions
// (fabsf, fminf/fmaxf, floorf, ...) must match exactly and go into the
// checksum, and a few special values (NaN, infinities) and integer helpers
// are checked exactly. More of the API (rintf, hypotf, sincosf, __popc, ...)
// is in math_more.cu.
#include "e2e_common.h"

#include <vector>

#define NF 36
#define ND 12

__global__ void mathf(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int f = blockIdx.y;
  if (i >= n)
    return;
  float a = x[f * n + i], b = y[f * n + i], r;
  switch (f) {
  case 0: r = sqrtf(a); break;
  case 1: r = expf(a); break;
  case 2: r = logf(a); break;
  case 3: r = sinf(a); break;
  case 4: r = cosf(a); break;
  case 5: r = tanf(a); break;
  case 6: r = powf(a, b); break;
  case 7: r = fabsf(a); break;
  case 8: r = fminf(a, b); break;
  case 9: r = fmaxf(a, b); break;
  case 10: r = erff(a); break;
  case 11: r = tanhf(a); break;
  case 12: r = atan2f(a, b); break;
  case 13: r = asinf(a); break;
  case 14: r = acosf(a); break;
  case 15: r = atanf(a); break;
  case 16: r = log2f(a); break;
  case 17: r = log10f(a); break;
  case 18: r = exp2f(a); break;
  case 19: r = expm1f(a); break;
  case 20: r = log1pf(a); break;
  case 21: r = cbrtf(a); break;
  case 22: r = rsqrtf(a); break;
  case 23: r = sinhf(a); break;
  case 24: r = coshf(a); break;
  case 25: r = floorf(a); break;
  case 26: r = ceilf(a); break;
  case 27: r = truncf(a); break;
  case 28: r = roundf(a); break;
  case 29: r = __fdividef(a, b); break;
  case 30: r = fmodf(a, b); break;
  case 31: r = copysignf(a, b); break;
  case 32: r = fmaf(a, b, 0.75f); break;
  case 33: r = exp10f(a); break;
  case 34: r = __expf(a); break;
  case 35: r = __sinf(a); break;
  default: r = 0.0f;
  }
  out[f * n + i] = r;
}

__global__ void mathd(const double *x, const double *y, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int f = blockIdx.y;
  if (i >= n)
    return;
  double a = x[f * n + i], b = y[f * n + i], r;
  switch (f) {
  case 0: r = sqrt(a); break;
  case 1: r = exp(a); break;
  case 2: r = log(a); break;
  case 3: r = sin(a); break;
  case 4: r = cos(a); break;
  case 5: r = pow(a, b); break;
  case 6: r = fabs(a); break;
  case 7: r = fmin(a, b); break;
  case 8: r = fmax(a, b); break;
  case 9: r = erf(a); break;
  case 10: r = tanh(a); break;
  case 11: r = atan2(a, b); break;
  default: r = 0.0;
  }
  out[f * n + i] = r;
}

// Special values and integer helpers, as integers.
__global__ void specials(const float *v, const int *iv, long long *out) {
  float nan = v[0], one = v[1], zero = v[2], big = v[3];
  int k = iv[0];
  unsigned u = (unsigned)iv[1];
  out[0] = isnan(sqrtf(-one));
  out[1] = isinf(expf(big)) && expf(big) > 0.0f;
  out[2] = isinf(logf(zero)) && logf(zero) < 0.0f;
  out[3] = fminf(nan, one) == one;
  out[4] = fmaxf(one, nan) == one;
  out[5] = isnan(nan + one);
  out[6] = isnan(powf(-one - one, 0.5f));
  out[7] = powf(-one - one, 3.0f) == -8.0f;
  out[8] = abs(k);
  out[9] = max(k, 3);
  out[10] = min(k, 3);
  out[11] = llabs((long long)k * 1000000007LL);
  out[12] = min(u, 5u);
  out[13] = max(u, 5u);
  out[14] = (long long)floorf(-2.5f * one);
  out[15] = (long long)roundf(-2.5f * one); // half away from zero
  out[16] = (long long)roundf(2.5f * one); // round half away from zero
}

struct FnF {
  const char *name;
  double lo, hi, blo, bhi; // domains of a and b
  double tol;              // 0: exact
  double (*ref)(double, double);
};

static double fmin_ref(double a, double b) { return a < b ? a : b; }
static double fmax_ref(double a, double b) { return a > b ? a : b; }

static const FnF kF[NF] = {
    {"sqrtf", 0, 1000, 0, 0, 1e-6, [](double a, double) { return std::sqrt(a); }},
    {"expf", -20, 20, 0, 0, 1e-5, [](double a, double) { return std::exp(a); }},
    {"logf", 1e-3, 1e4, 0, 0, 1e-5, [](double a, double) { return std::log(a); }},
    {"sinf", -10, 10, 0, 0, 1e-5, [](double a, double) { return std::sin(a); }},
    {"cosf", -10, 10, 0, 0, 1e-5, [](double a, double) { return std::cos(a); }},
    {"tanf", -1.5, 1.5, 0, 0, 1e-5, [](double a, double) { return std::tan(a); }},
    {"powf", 0.1, 10, -4, 4, 1e-5, [](double a, double b) { return std::pow(a, b); }},
    {"fabsf", -100, 100, 0, 0, 0, [](double a, double) { return std::fabs(a); }},
    {"fminf", -100, 100, -100, 100, 0, fmin_ref},
    {"fmaxf", -100, 100, -100, 100, 0, fmax_ref},
    {"erff", -3, 3, 0, 0, 1e-5, [](double a, double) { return std::erf(a); }},
    {"tanhf", -5, 5, 0, 0, 1e-5, [](double a, double) { return std::tanh(a); }},
    {"atan2f", -10, 10, -10, 10, 1e-5, [](double a, double b) { return std::atan2(a, b); }},
    {"asinf", -1, 1, 0, 0, 1e-5, [](double a, double) { return std::asin(a); }},
    {"acosf", -1, 1, 0, 0, 1e-5, [](double a, double) { return std::acos(a); }},
    {"atanf", -50, 50, 0, 0, 1e-5, [](double a, double) { return std::atan(a); }},
    {"log2f", 1e-3, 1e4, 0, 0, 1e-5, [](double a, double) { return std::log2(a); }},
    {"log10f", 1e-3, 1e4, 0, 0, 1e-5, [](double a, double) { return std::log10(a); }},
    {"exp2f", -20, 20, 0, 0, 1e-5, [](double a, double) { return std::exp2(a); }},
    {"expm1f", -1, 1, 0, 0, 1e-6, [](double a, double) { return std::expm1(a); }},
    {"log1pf", -0.5, 2, 0, 0, 1e-6, [](double a, double) { return std::log1p(a); }},
    {"cbrtf", -1000, 1000, 0, 0, 1e-5, [](double a, double) { return std::cbrt(a); }},
    {"rsqrtf", 1e-2, 1e4, 0, 0, 1e-5, [](double a, double) { return 1.0 / std::sqrt(a); }},
    {"sinhf", -5, 5, 0, 0, 1e-5, [](double a, double) { return std::sinh(a); }},
    {"coshf", -5, 5, 0, 0, 1e-5, [](double a, double) { return std::cosh(a); }},
    {"floorf", -100, 100, 0, 0, 0, [](double a, double) { return std::floor(a); }},
    {"ceilf", -100, 100, 0, 0, 0, [](double a, double) { return std::ceil(a); }},
    {"truncf", -100, 100, 0, 0, 0, [](double a, double) { return std::trunc(a); }},
    {"roundf", -100, 100, 0, 0, 0, [](double a, double) { return std::round(a); }},
    {"__fdividef", -100, 100, 0.5, 7, 1e-5, [](double a, double b) { return a / b; }},
    {"fmodf", -100, 100, 0.5, 7, 0, [](double a, double b) { return std::fmod(a, b); }},
    {"copysignf", -100, 100, -1, 1, 0, [](double a, double b) { return std::copysign(a, b); }},
    {"fmaf", -100, 100, -100, 100, 1e-6, [](double a, double b) { return a * b + 0.75; }},
    {"exp10f", -8, 8, 0, 0, 1e-5, [](double a, double) { return std::pow(10.0, a); }},
    // Fast intrinsics: documented errors of a few ulp / 2^-21 absolute.
    {"__expf", -10, 10, 0, 0, 1e-4, [](double a, double) { return std::exp(a); }},
    {"__sinf", -3.14, 3.14, 0, 0, 1e-5, [](double a, double) { return std::sin(a); }},
};

static const FnF kD[ND] = {
    {"sqrt", 0, 1000, 0, 0, 1e-14, [](double a, double) { return std::sqrt(a); }},
    {"exp", -20, 20, 0, 0, 1e-13, [](double a, double) { return std::exp(a); }},
    {"log", 1e-3, 1e4, 0, 0, 1e-13, [](double a, double) { return std::log(a); }},
    {"sin", -10, 10, 0, 0, 1e-13, [](double a, double) { return std::sin(a); }},
    {"cos", -10, 10, 0, 0, 1e-13, [](double a, double) { return std::cos(a); }},
    {"pow", 0.1, 10, -4, 4, 1e-13, [](double a, double b) { return std::pow(a, b); }},
    {"fabs", -100, 100, 0, 0, 0, [](double a, double) { return std::fabs(a); }},
    {"fmin", -100, 100, -100, 100, 0, fmin_ref},
    {"fmax", -100, 100, -100, 100, 0, fmax_ref},
    {"erf", -3, 3, 0, 0, 1e-13, [](double a, double) { return std::erf(a); }},
    {"tanh", -5, 5, 0, 0, 1e-13, [](double a, double) { return std::tanh(a); }},
    {"atan2", -10, 10, -10, 10, 1e-13, [](double a, double b) { return std::atan2(a, b); }},
};

template <typename T>
static long run(const char *kind, const FnF *fns, int nf, int n, Lcg &rng, Checksum &sum) {
  std::vector<T> x(nf * n), y(nf * n);
  for (int f = 0; f < nf; ++f)
    for (int i = 0; i < n; ++i) {
      double ua = rng.next() / 16777216.0, ub = rng.next() / 16777216.0;
      T a = (T)(fns[f].lo + (fns[f].hi - fns[f].lo) * ua);
      T b = (T)(fns[f].blo + (fns[f].bhi - fns[f].blo) * ub);
      // Half-way cases for the rounding functions.
      if (fns[f].tol == 0 && i % 5 == 0)
        a = (T)(std::floor((double)a) + 0.5);
      x[f * n + i] = a;
      y[f * n + i] = b;
    }
  T *dx, *dy, *dout;
  size_t bytes = (size_t)nf * n * sizeof(T);
  CHECK(cudaMalloc(&dx, bytes));
  CHECK(cudaMalloc(&dy, bytes));
  CHECK(cudaMalloc(&dout, bytes));
  CHECK(cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice));
  POISON(dout, bytes);
  dim3 grid((n + 127) / 128, nf);
  if (sizeof(T) == 4)
    mathf<<<grid, 128>>>((const float *)dx, (const float *)dy, (float *)dout, n);
  else
    mathd<<<grid, 128>>>((const double *)dx, (const double *)dy, (double *)dout, n);
  CHECK_LAUNCH();
  std::vector<T> got(nf * n);
  CHECK(cudaMemcpy(got.data(), dout, bytes, cudaMemcpyDeviceToHost));
  long failures = 0;
  for (int f = 0; f < nf; ++f) {
    char what[64];
    std::snprintf(what, sizeof what, "%s.%s", kind, fns[f].name);
    Mismatches m(what);
    for (int i = 0; i < n; ++i) {
      double want = fns[f].ref((double)x[f * n + i], (double)y[f * n + i]);
      if (fns[f].tol == 0)
        want = (double)(T)want; // exact functions: the rounded result
      m.floatAt(i, got[f * n + i], want, fns[f].tol);
    }
    failures += m.count;
    if (fns[f].tol == 0)
      sum.add(&got[f * n], n * sizeof(T));
  }
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dout));
  return failures;
}

int main() {
  const char *name = "math";
  long failures = 0;
  Checksum sum;
  Lcg rng(12);
  const int n = 1003;
  failures += run<float>("mathf", kF, NF, n, rng, sum);
  failures += run<double>("mathd", kD, ND, n, rng, sum);

  {
    float v[5] = {std::nanf(""), 1.0f, 0.0f, 200.0f, 0.0f};
    int iv[2] = {-17, 9};
    float *dv;
    int *div;
    long long *dout;
    CHECK(cudaMalloc(&dv, sizeof v));
    CHECK(cudaMalloc(&div, sizeof iv));
    CHECK(cudaMalloc(&dout, 17 * sizeof(long long)));
    CHECK(cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(div, iv, sizeof iv, cudaMemcpyHostToDevice));
    POISON(dout, 17 * sizeof(long long));
    specials<<<1, 1>>>(dv, div, dout);
    CHECK_LAUNCH();
    long long got[17];
    CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
    const long long want[17] = {1, 1, 1, 1, 1, 1, 1, 1, 17, 3, -17,
                                17LL * 1000000007LL, 5, 9, -3, -3, 3};
    Mismatches m("specials");
    for (int k = 0; k < 17; ++k)
      m.intAt(k, got[k], want[k]);
    failures += m.count;
    sum.add(got, sizeof got);
    CHECK(cudaFree(dv));
    CHECK(cudaFree(div));
    CHECK(cudaFree(dout));
  }
  return finish(name, failures, &sum);
}
