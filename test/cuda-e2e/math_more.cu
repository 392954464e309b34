// Case 7b: more of CUDA's math API, common in real programs: rintf and
// nearbyintf (clang's headers call __builtin_rintf), hypotf, erfcf, ldexpf,
// frexpf, modff, sincosf, isfinite, signbit, the integer intrinsics __popc,
// __clz, __ffs, __brev, and the conversions __float2int_rn / __int2float_rn.
// When this was written Tessel mapped rintf/nearbyintf but not the others
// (the program builds and passes with nvcc).
#include "e2e_common.h"

#include <vector>

#define NF 10

__global__ void mathf2(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int f = blockIdx.y;
  if (i >= n)
    return;
  float a = x[f * n + i], b = y[f * n + i], r;
  int e;
  float s, c;
  switch (f) {
  case 0: r = rintf(a); break;
  case 1: r = nearbyintf(a); break;
  case 2: r = hypotf(a, b); break;
  case 3: r = erfcf(a); break;
  case 4: r = ldexpf(a, (int)b); break;
  case 5:
    r = frexpf(a, &e); // (not in one expression with e: unsequenced)
    r += (float)e;
    break;
  case 6:
    r = modff(a, &s) * 4.0f;
    r += s;
    break;
  case 7:
    sincosf(a, &s, &c);
    r = s + 2.0f * c;
    break;
  case 8: r = (float)__float2int_rn(a); break;
  case 9: r = __int2float_rn((int)b) + a; break;
  default: r = 0.0f;
  }
  out[f * n + i] = r;
}

__global__ void bits(const unsigned *v, const float *fv, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned u = v[i];
  out[6 * i] = __popc(u);
  out[6 * i + 1] = __clz((int)u);
  out[6 * i + 2] = __ffs((int)u);
  out[6 * i + 3] = (int)__brev(u);
  out[6 * i + 4] = isfinite(fv[i]) ? 1 : 0;
  out[6 * i + 5] = signbit(fv[i]) ? 1 : 0;
}

struct FnF {
  const char *name;
  double lo, hi, blo, bhi, tol;
  double (*ref)(double, double);
};

static const FnF kF[NF] = {
    {"rintf", -100, 100, 0, 0, 0, [](double a, double) { return std::nearbyint(a); }},
    {"nearbyintf", -100, 100, 0, 0, 0, [](double a, double) { return std::nearbyint(a); }},
    {"hypotf", -100, 100, -100, 100, 1e-5, [](double a, double b) { return std::hypot(a, b); }},
    {"erfcf", -3, 3, 0, 0, 1e-5, [](double a, double) { return std::erfc(a); }},
    {"ldexpf", -100, 100, -20, 20, 0,
     [](double a, double b) { return std::ldexp(a, (int)b); }},
    {"frexpf", -100, 100, 0, 0, 0,
     [](double a, double) {
       int e;
       double m = std::frexp(a, &e);
       return m + e;
     }},
    {"modff", -100, 100, 0, 0, 0,
     [](double a, double) {
       double ip;
       double fp = std::modf(a, &ip);
       return fp * 4.0 + ip;
     }},
    {"sincosf", -10, 10, 0, 0, 1e-5,
     [](double a, double) { return std::sin(a) + 2.0 * std::cos(a); }},
    {"__float2int_rn", -100, 100, 0, 0, 0, [](double a, double) { return std::nearbyint(a); }},
    {"__int2float_rn", -100, 100, -1000, 1000, 0,
     [](double a, double b) { return (double)(float)((double)(int)b + a); }},
};

int main() {
  const char *name = "math_more";
  long failures = 0;
  Checksum sum;
  Lcg rng(14);
  const int n = 517;

  {
    std::vector<float> x(NF * n), y(NF * n);
    for (int f = 0; f < NF; ++f)
      for (int i = 0; i < n; ++i) {
        float a = (float)(kF[f].lo + (kF[f].hi - kF[f].lo) * (rng.next() / 16777216.0));
        float b = (float)(kF[f].blo + (kF[f].bhi - kF[f].blo) * (rng.next() / 16777216.0));
        if (kF[f].tol == 0 && i % 5 == 0)
          a = std::floor(a) + 0.5f; // half-way cases
        x[f * n + i] = a;
        y[f * n + i] = b;
      }
    size_t bytes = NF * n * sizeof(float);
    float *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, bytes));
    CHECK(cudaMalloc(&dy, bytes));
    CHECK(cudaMalloc(&dout, bytes));
    CHECK(cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice));
    POISON(dout, bytes);
    mathf2<<<dim3((n + 127) / 128, NF), 128>>>(dx, dy, dout, n);
    CHECK_LAUNCH();
    std::vector<float> got(NF * n);
    CHECK(cudaMemcpy(got.data(), dout, bytes, cudaMemcpyDeviceToHost));
    for (int f = 0; f < NF; ++f) {
      Mismatches m(kF[f].name);
      for (int i = 0; i < n; ++i) {
        double want = kF[f].ref(x[f * n + i], y[f * n + i]);
        if (kF[f].tol == 0)
          want = (double)(float)want;
        m.floatAt(i, got[f * n + i], want, kF[f].tol);
      }
      failures += m.count;
      if (kF[f].tol == 0)
        sum.add(&got[f * n], n * sizeof(float));
    }
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    CHECK(cudaFree(dout));
  }

  {
    std::vector<unsigned> v(n);
    std::vector<float> fv(n);
    for (int i = 0; i < n; ++i) {
      v[i] = i % 7 == 0 ? 0u : rng.next() >> (i % 24);
      const float specials[4] = {INFINITY, -INFINITY, NAN, -0.0f};
      fv[i] = i % 9 == 0 ? specials[(i / 9) % 4] : rng.uniform(-5.0f, 5.0f);
    }
    unsigned *dv;
    float *dfv;
    int *dout;
    CHECK(cudaMalloc(&dv, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&dfv, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, 6 * n * sizeof(int)));
    CHECK(cudaMemcpy(dv, v.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dfv, fv.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    POISON(dout, 6 * n * sizeof(int));
    bits<<<(n + 63) / 64, 64>>>(dv, dfv, dout, n);
    CHECK_LAUNCH();
    std::vector<int> got(6 * n);
    CHECK(cudaMemcpy(got.data(), dout, 6 * n * sizeof(int), cudaMemcpyDeviceToHost));
    Mismatches m("bits");
    for (int i = 0; i < n; ++i) {
      unsigned u = v[i];
      int pop = 0, clz = 32, ffs = 0;
      unsigned rev = 0;
      for (int b = 0; b < 32; ++b) {
        if (u >> b & 1u) {
          ++pop;
          clz = 31 - b;
          if (!ffs)
            ffs = b + 1;
        }
        rev |= (u >> b & 1u) << (31 - b);
      }
      m.intAt(6 * i, got[6 * i], pop);
      m.intAt(6 * i + 1, got[6 * i + 1], clz);
      m.intAt(6 * i + 2, got[6 * i + 2], ffs);
      m.intAt(6 * i + 3, got[6 * i + 3], (int)rev);
      m.intAt(6 * i + 4, got[6 * i + 4], std::isfinite(fv[i]) ? 1 : 0);
      m.intAt(6 * i + 5, got[6 * i + 5], std::signbit(fv[i]) ? 1 : 0);
    }
    failures += m.count;
    sum.add(got.data(), 6 * n * sizeof(int));
    CHECK(cudaFree(dv));
    CHECK(cudaFree(dfv));
    CHECK(cudaFree(dout));
  }
  return finish(name, failures, &sum);
}
