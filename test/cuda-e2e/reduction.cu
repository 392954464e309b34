// Case 1: block tree reductions in shared memory. The barrier sits inside a
// for/while loop whose trip count depends on blockDim; several blocks, the
// last one partial (n is not a multiple of the block size), and a second
// pass that reduces the per-block partials with one block.
#include "e2e_common.h"

#include <vector>

#define MAX_BLOCK 256

// Power-of-two block: the classic halving loop; sum and max together.
__global__ void reduce_pow2(const int *in, int n, long long *sums, int *maxes) {
  __shared__ long long ssum[MAX_BLOCK];
  __shared__ int smax[MAX_BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  ssum[tid] = i < (unsigned)n ? in[i] : 0;
  smax[tid] = i < (unsigned)n ? in[i] : -2147483647 - 1;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      ssum[tid] += ssum[tid + s];
      smax[tid] = max(smax[tid], smax[tid + s]);
    }
    __syncthreads();
  }
  if (tid == 0) {
    sums[blockIdx.x] = ssum[0];
    maxes[blockIdx.x] = smax[0];
  }
}

// Any block size (here not a power of two): fold the upper half onto the
// lower one while the active length m > 1; the trip count is
// ceil(log2(blockDim.x)). Each thread also sums a grid-stride slice first.
__global__ void reduce_any(const float *in, int n, float *out) {
  __shared__ float s[MAX_BLOCK];
  int tid = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
    acc += in[i];
  s[tid] = acc;
  __syncthreads();
  int m = blockDim.x;
  while (m > 1) {
    int half = (m + 1) / 2;
    if (tid < m / 2)
      s[tid] += s[tid + half];
    __syncthreads();
    m = half;
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

int main() {
  const char *name = "reduction";
  long failures = 0;
  Checksum sum;

  // --- Integer sum and max, block 128, n = 10007 (79 blocks, last partial).
  {
    const int n = 10007, block = 128, grid = (n + block - 1) / block;
    std::vector<int> h(n);
    Lcg rng(1);
    for (int i = 0; i < n; ++i)
      h[i] = rng.range(-100000, 100000);
    int *din;
    long long *dsums;
    int *dmax;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dsums, grid * sizeof(long long)));
    CHECK(cudaMalloc(&dmax, grid * sizeof(int)));
    CHECK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    POISON(dsums, grid * sizeof(long long));
    POISON(dmax, grid * sizeof(int));
    reduce_pow2<<<grid, block>>>(din, n, dsums, dmax);
    CHECK_LAUNCH();
    std::vector<long long> gs(grid);
    std::vector<int> gm(grid);
    CHECK(cudaMemcpy(gs.data(), dsums, grid * sizeof(long long), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gm.data(), dmax, grid * sizeof(int), cudaMemcpyDeviceToHost));
    Mismatches ms("reduce_pow2.sum"), mm("reduce_pow2.max");
    for (int b = 0; b < grid; ++b) {
      long long s = 0;
      int mx = -2147483647 - 1;
      for (int i = b * block; i < n && i < (b + 1) * block; ++i) {
        s += h[i];
        mx = h[i] > mx ? h[i] : mx;
      }
      ms.intAt(b, gs[b], s);
      mm.intAt(b, gm[b], mx);
    }
    failures += ms.count + mm.count;
    sum.add(gs.data(), grid * sizeof(long long));
    sum.add(gm.data(), grid * sizeof(int));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dsums));
    CHECK(cudaFree(dmax));
  }

  // --- Float sum, block 100 (not a power of two), two passes. The inputs
  // are multiples of 1/8 of magnitude at most 15: n * 15 * 8 < 2^24, so every
  // partial sum (any subset) is exact
  // in float, so the result is independent of the order.
  {
    const int n = 54321, block = 100, grid = 37;
    std::vector<float> h(n);
    Lcg rng(2);
    for (int i = 0; i < n; ++i)
      h[i] = rng.eighths(15);
    float *din, *dpart, *dtotal;
    CHECK(cudaMalloc(&din, n * sizeof(float)));
    CHECK(cudaMalloc(&dpart, grid * sizeof(float)));
    CHECK(cudaMalloc(&dtotal, sizeof(float)));
    CHECK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    POISON(dpart, grid * sizeof(float));
    POISON(dtotal, sizeof(float));
    reduce_any<<<grid, block>>>(din, n, dpart);
    CHECK_LAUNCH();
    reduce_any<<<1, 57>>>(dpart, grid, dtotal);
    CHECK_LAUNCH();
    std::vector<float> gp(grid);
    float gt;
    CHECK(cudaMemcpy(gp.data(), dpart, grid * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gt, dtotal, sizeof(float), cudaMemcpyDeviceToHost));
    Mismatches mp("reduce_any.partial"), mt("reduce_any.total");
    double total = 0;
    for (int b = 0; b < grid; ++b) {
      double s = 0;
      for (int t = 0; t < block; ++t)
        for (int i = b * block + t; i < n; i += grid * block)
          s += h[i];
      mp.floatAt(b, gp[b], s, 0.0);
      total += s;
    }
    mt.floatAt(0, gt, total, 0.0);
    failures += mp.count + mt.count;
    sum.add(gp.data(), grid * sizeof(float));
    sum.addValue(gt);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dpart));
    CHECK(cudaFree(dtotal));
  }
  return finish(name, failures, &sum);
}
