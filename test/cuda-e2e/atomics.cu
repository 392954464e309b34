// Case 5: atomics whose final results do not depend on the order.
//  - histogram: grid-stride loop, atomicAdd into 37 shared bins, barrier,
//    then atomicAdd of the bins into global bins that start at a non-zero
//    value (so the kernel must accumulate), plus atomicMax/atomicMin per bin
//    in shared memory then global, and the global max/min of all values;
//  - compact: atomicAdd's return value assigns output slots (the host
//    compares the sorted slots with the expected set; the slots past the
//    count must keep the poison);
//  - bits: atomicOr/atomicAnd/atomicXor/atomicSub/atomicExch/atomicInc on
//    global words, and a product modulo a prime built from an atomicCAS loop;
//  - float atomicAdd of multiples of 1/8 (exact, so order-independent).
// The float add built from atomicCAS with __float_as_int is atomic_cas_float.cu.
#include "e2e_common.h"

#include <climits>
#include <vector>

#define NB 37

__global__ void histogram(const int *keys, const int *vals, int n, unsigned *bins, int *binMax,
                          int *binMin, int *gmax, int *gmin) {
  __shared__ unsigned sbins[NB];
  __shared__ int smax[NB], smin[NB];
  for (int b = threadIdx.x; b < NB; b += blockDim.x) {
    sbins[b] = 0;
    smax[b] = INT_MIN;
    smin[b] = INT_MAX;
  }
  __syncthreads();
  int localMax = INT_MIN, localMin = INT_MAX;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int k = keys[i], v = vals[i];
    atomicAdd(&sbins[k], 1u);
    atomicMax(&smax[k], v);
    atomicMin(&smin[k], v);
    localMax = max(localMax, v);
    localMin = min(localMin, v);
  }
  atomicMax(gmax, localMax);
  atomicMin(gmin, localMin);
  __syncthreads();
  for (int b = threadIdx.x; b < NB; b += blockDim.x) {
    atomicAdd(&bins[b], sbins[b]);
    atomicMax(&binMax[b], smax[b]);
    atomicMin(&binMin[b], smin[b]);
  }
}

__global__ void compact(const int *vals, int n, int threshold, int *counter, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && vals[i] > threshold) {
    int slot = atomicAdd(counter, 1);
    out[slot] = i;
  }
}

#define PRIME 1000003u

__device__ void atomicMulMod(unsigned *addr, unsigned factor) {
  unsigned old = *addr, assumed;
  do {
    assumed = old;
    unsigned nv = (unsigned)((unsigned long long)assumed * factor % PRIME);
    old = atomicCAS(addr, assumed, nv);
  } while (old != assumed);
}

// words: [0] or, [1] and, [2] xor, [3] sub, [4] inc (wraps at 99), [5] exch,
// [6] product mod PRIME.
__global__ void bits(const unsigned *vals, int n, unsigned *words) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned v = vals[i];
    atomicOr(&words[0], v & 0x00F0F0F1u);
    atomicAnd(&words[1], v | 0xFF0000FFu);
    atomicXor(&words[2], v);
    atomicSub(&words[3], v & 0xFFFu);
    atomicInc(&words[4], 99u);
    atomicExch(&words[5], 7u);
    atomicMulMod(&words[6], v % 1000u + 1u);
  }
}

__global__ void fsum(const float *vals, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[i % 5], vals[i]);
}

int main() {
  const char *name = "atomics";
  long failures = 0;
  Checksum sum;
  const int n = 20011;
  std::vector<int> hkeys(n), hvals(n);
  std::vector<unsigned> hbits(n);
  std::vector<float> hf(n);
  Lcg rng(7);
  for (int i = 0; i < n; ++i) {
    int k1 = rng.range(0, NB - 1), k2 = rng.range(0, NB - 1);
    hkeys[i] = k1 * k2 % NB; // skewed
    hvals[i] = rng.range(-1000000, 1000000);
    unsigned b1 = rng.next(), b2 = rng.next();
    hbits[i] = b1 ^ (b2 << 8);
    hf[i] = rng.eighths(15);
  }
  int *dkeys, *dvals, *dbinMax, *dbinMin, *dg, *dcounter, *dout;
  unsigned *dbins, *dbitsIn, *dwords;
  float *df, *dfout;
  CHECK(cudaMalloc(&dkeys, n * sizeof(int)));
  CHECK(cudaMalloc(&dvals, n * sizeof(int)));
  CHECK(cudaMalloc(&dbins, NB * sizeof(unsigned)));
  CHECK(cudaMalloc(&dbinMax, NB * sizeof(int)));
  CHECK(cudaMalloc(&dbinMin, NB * sizeof(int)));
  CHECK(cudaMalloc(&dg, 2 * sizeof(int)));
  CHECK(cudaMalloc(&dcounter, sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMalloc(&dbitsIn, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dwords, 7 * sizeof(unsigned)));
  CHECK(cudaMalloc(&df, n * sizeof(float)));
  CHECK(cudaMalloc(&dfout, 5 * sizeof(float)));
  CHECK(cudaMemcpy(dkeys, hkeys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dvals, hvals.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dbitsIn, hbits.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(df, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  // --- histogram (accumulating outputs start from known values).
  {
    std::vector<unsigned> bins0(NB);
    std::vector<int> max0(NB), min0(NB);
    for (int b = 0; b < NB; ++b) {
      bins0[b] = 1000u + b;
      max0[b] = b == 3 ? 2000000 : INT_MIN; // one bin's max is already above all values
      min0[b] = INT_MAX;
    }
    int g0[2] = {INT_MIN, INT_MAX};
    CHECK(cudaMemcpy(dbins, bins0.data(), NB * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbinMax, max0.data(), NB * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbinMin, min0.data(), NB * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dg, g0, sizeof g0, cudaMemcpyHostToDevice));
    histogram<<<13, 96>>>(dkeys, dvals, n, dbins, dbinMax, dbinMin, dg, dg + 1);
    CHECK_LAUNCH();
    std::vector<unsigned> gb(NB);
    std::vector<int> gmx(NB), gmn(NB);
    int gg[2];
    CHECK(cudaMemcpy(gb.data(), dbins, NB * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gmx.data(), dbinMax, NB * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gmn.data(), dbinMin, NB * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gg, dg, sizeof gg, cudaMemcpyDeviceToHost));
    std::vector<unsigned> wb(bins0);
    std::vector<int> wmx(max0), wmn(min0);
    int wg[2] = {INT_MIN, INT_MAX};
    for (int i = 0; i < n; ++i) {
      int k = hkeys[i], v = hvals[i];
      wb[k]++;
      wmx[k] = std::max(wmx[k], v);
      wmn[k] = std::min(wmn[k], v);
      wg[0] = std::max(wg[0], v);
      wg[1] = std::min(wg[1], v);
    }
    Mismatches mb("histogram.bins"), mx("histogram.binMax"), mn("histogram.binMin"),
        mg("histogram.global");
    for (int b = 0; b < NB; ++b) {
      mb.intAt(b, gb[b], wb[b]);
      mx.intAt(b, gmx[b], wmx[b]);
      mn.intAt(b, gmn[b], wmn[b]);
    }
    mg.intAt(0, gg[0], wg[0]);
    mg.intAt(1, gg[1], wg[1]);
    failures += mb.count + mx.count + mn.count + mg.count;
    sum.add(gb.data(), NB * sizeof(unsigned));
    sum.add(gmx.data(), NB * sizeof(int));
    sum.add(gmn.data(), NB * sizeof(int));
    sum.add(gg, sizeof gg);
  }

  // --- compaction through atomicAdd's return value.
  {
    const int threshold = 400000;
    int zero = 0;
    CHECK(cudaMemcpy(dcounter, &zero, sizeof(int), cudaMemcpyHostToDevice));
    POISON(dout, n * sizeof(int));
    compact<<<(n + 127) / 128, 128>>>(dvals, n, threshold, dcounter, dout);
    CHECK_LAUNCH();
    int count;
    std::vector<int> got(n);
    CHECK(cudaMemcpy(&count, dcounter, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> want;
    for (int i = 0; i < n; ++i)
      if (hvals[i] > threshold)
        want.push_back(i);
    Mismatches mc("compact.count"), ms("compact.slots"), mp("compact.untouched");
    mc.intAt(0, count, (long long)want.size());
    if (count == (int)want.size()) {
      std::sort(got.begin(), got.begin() + count);
      for (int s = 0; s < count; ++s)
        ms.intAt(s, got[s], want[s]);
      for (int s = count; s < n; ++s)
        mp.intAt(s, got[s], -1);
    }
    failures += mc.count + ms.count + mp.count;
    sum.addValue(count);
    sum.add(got.data(), n * sizeof(int));
  }

  // --- bit operations, atomicInc, atomicExch and a CAS loop.
  {
    unsigned w0[7] = {0x80000000u, 0xFFFFFFFFu, 0x12345678u, 5000000u, 0u, 3u, 1u};
    CHECK(cudaMemcpy(dwords, w0, sizeof w0, cudaMemcpyHostToDevice));
    bits<<<9, 160>>>(dbitsIn, n, dwords);
    CHECK_LAUNCH();
    unsigned got[7];
    CHECK(cudaMemcpy(got, dwords, sizeof got, cudaMemcpyDeviceToHost));
    unsigned want[7] = {w0[0], w0[1], w0[2], w0[3], w0[4], w0[5], w0[6]};
    for (int i = 0; i < n; ++i) {
      unsigned v = hbits[i];
      want[0] |= v & 0x00F0F0F1u;
      want[1] &= v | 0xFF0000FFu;
      want[2] ^= v;
      want[3] -= v & 0xFFFu;
      want[4] = want[4] >= 99u ? 0u : want[4] + 1u;
      want[5] = 7u;
      want[6] = (unsigned)((unsigned long long)want[6] * (v % 1000u + 1u) % PRIME);
    }
    Mismatches m("bits.words");
    for (int k = 0; k < 7; ++k)
      m.intAt(k, got[k], want[k]);
    failures += m.count;
    sum.add(got, sizeof got);
  }

  // --- float atomicAdd (exact values).
  {
    float z[5] = {0.5f, -1.0f, 2.25f, 0.0f, 100.0f};
    CHECK(cudaMemcpy(dfout, z, sizeof z, cudaMemcpyHostToDevice));
    fsum<<<(n + 255) / 256, 256>>>(df, n, dfout);
    CHECK_LAUNCH();
    float got[5];
    CHECK(cudaMemcpy(got, dfout, sizeof got, cudaMemcpyDeviceToHost));
    double want[5] = {z[0], z[1], z[2], z[3], z[4]};
    for (int i = 0; i < n; ++i)
      want[i % 5] += hf[i];
    Mismatches m("fsum");
    for (int k = 0; k < 5; ++k)
      m.floatAt(k, got[k], want[k], 0.0);
    failures += m.count;
    sum.add(got, sizeof got);
  }

  CHECK(cudaFree(dkeys));
  CHECK(cudaFree(dvals));
  CHECK(cudaFree(dbins));
  CHECK(cudaFree(dbinMax));
  CHECK(cudaFree(dbinMin));
  CHECK(cudaFree(dg));
  CHECK(cudaFree(dcounter));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dbitsIn));
  CHECK(cudaFree(dwords));
  CHECK(cudaFree(df));
  CHECK(cudaFree(dfout));
  return finish(name, failures, &sum);
}
