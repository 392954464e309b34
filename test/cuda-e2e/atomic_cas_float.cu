// Case 5b: floating-point atomics built from atomicCAS, as the CUDA
// Programming Guide writes them: the bits go through __float_as_int /
// __int_as_float and __double_as_longlong / __longlong_as_double.
//  - cas_add: float and double adds of multiples of 1/8 (exact, so the sums
//    do not depend on the order) into a few accumulators;
//  - cas_ticket: every thread adds 1.0f to one counter and keeps the value
//    the CAS loop returns: the returned values are a permutation of 0..n-1;
//  - cas_fmax: a float max built from atomicCAS (order-independent).
#include "e2e_common.h"

#include <vector>

__device__ float atomicAddViaCAS(float *address, float val) {
  int *address_as_int = (int *)address;
  int old = *address_as_int, assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_int, assumed, __float_as_int(val + __int_as_float(assumed)));
  } while (assumed != old);
  return __int_as_float(old);
}

__device__ double atomicAddViaCAS(double *address, double val) {
  unsigned long long *address_as_ull = (unsigned long long *)address;
  unsigned long long old = *address_as_ull, assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_ull, assumed,
                    __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

__device__ float atomicMaxViaCAS(float *address, float val) {
  unsigned *p = (unsigned *)address;
  unsigned old = *p, assumed;
  do {
    assumed = old;
    if (__uint_as_float(assumed) >= val)
      break;
    old = atomicCAS(p, assumed, __float_as_uint(val));
  } while (assumed != old);
  return __uint_as_float(old);
}

__global__ void cas_add(const float *vals, int n, float *fsums, double *dsums) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAddViaCAS(&fsums[i % 3], vals[i]);
    atomicAddViaCAS(&dsums[i % 4], (double)vals[i] * 0.5);
  }
}

__global__ void cas_ticket(float *counter, int n, float *tickets) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tickets[i] = atomicAddViaCAS(counter, 1.0f);
}

__global__ void cas_fmax(const float *vals, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMaxViaCAS(&out[i & 1], vals[i]);
}

int main() {
  const char *name = "atomic_cas_float";
  long failures = 0;
  Checksum sum;
  const int n = 7919;
  std::vector<float> h(n);
  Lcg rng(8);
  for (int i = 0; i < n; ++i)
    h[i] = rng.eighths(15);
  float *dvals, *dfs, *dcounter, *dtickets, *dmax;
  double *dds;
  CHECK(cudaMalloc(&dvals, n * sizeof(float)));
  CHECK(cudaMalloc(&dfs, 3 * sizeof(float)));
  CHECK(cudaMalloc(&dds, 4 * sizeof(double)));
  CHECK(cudaMalloc(&dcounter, sizeof(float)));
  CHECK(cudaMalloc(&dtickets, n * sizeof(float)));
  CHECK(cudaMalloc(&dmax, 2 * sizeof(float)));
  CHECK(cudaMemcpy(dvals, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  {
    float f0[3] = {1.0f, -2.5f, 0.0f};
    double d0[4] = {0.25, 0.0, -3.0, 10.0};
    CHECK(cudaMemcpy(dfs, f0, sizeof f0, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dds, d0, sizeof d0, cudaMemcpyHostToDevice));
    cas_add<<<5, 192>>>(dvals, n, dfs, dds);
    CHECK_LAUNCH();
    float gf[3];
    double gd[4];
    CHECK(cudaMemcpy(gf, dfs, sizeof gf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gd, dds, sizeof gd, cudaMemcpyDeviceToHost));
    double wf[3] = {f0[0], f0[1], f0[2]}, wd[4] = {d0[0], d0[1], d0[2], d0[3]};
    for (int i = 0; i < n; ++i) {
      wf[i % 3] += h[i];
      wd[i % 4] += (double)h[i] * 0.5;
    }
    Mismatches mf("cas_add.float"), md("cas_add.double");
    for (int k = 0; k < 3; ++k)
      mf.floatAt(k, gf[k], wf[k], 0.0);
    for (int k = 0; k < 4; ++k)
      md.floatAt(k, gd[k], wd[k], 0.0);
    failures += mf.count + md.count;
    sum.add(gf, sizeof gf);
    sum.add(gd, sizeof gd);
  }

  {
    float zero = 0.0f;
    CHECK(cudaMemcpy(dcounter, &zero, sizeof zero, cudaMemcpyHostToDevice));
    POISON(dtickets, n * sizeof(float));
    cas_ticket<<<(n + 127) / 128, 128>>>(dcounter, n, dtickets);
    CHECK_LAUNCH();
    float count;
    std::vector<float> t(n);
    CHECK(cudaMemcpy(&count, dcounter, sizeof count, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(t.data(), dtickets, n * sizeof(float), cudaMemcpyDeviceToHost));
    Mismatches mc("cas_ticket.count"), mt("cas_ticket.sorted");
    mc.floatAt(0, count, n, 0.0);
    std::sort(t.begin(), t.end()); // NaN (poison) would break the order: check all
    for (int i = 0; i < n; ++i)
      mt.floatAt(i, t[i], i, 0.0);
    failures += mc.count + mt.count;
    sum.addValue(count);
    sum.add(t.data(), n * sizeof(float));
  }

  {
    float m0[2] = {-1000.0f, 14.5f};
    CHECK(cudaMemcpy(dmax, m0, sizeof m0, cudaMemcpyHostToDevice));
    cas_fmax<<<(n + 99) / 100, 100>>>(dvals, n, dmax);
    CHECK_LAUNCH();
    float got[2];
    CHECK(cudaMemcpy(got, dmax, sizeof got, cudaMemcpyDeviceToHost));
    float want[2] = {m0[0], m0[1]};
    for (int i = 0; i < n; ++i)
      want[i & 1] = std::max(want[i & 1], h[i]);
    Mismatches m("cas_fmax");
    for (int k = 0; k < 2; ++k)
      m.floatAt(k, got[k], want[k], 0.0);
    failures += m.count;
    sum.add(got, sizeof got);
  }

  CHECK(cudaFree(dvals));
  CHECK(cudaFree(dfs));
  CHECK(cudaFree(dds));
  CHECK(cudaFree(dcounter));
  CHECK(cudaFree(dtickets));
  CHECK(cudaFree(dmax));
  return finish(name, failures, &sum);
}
