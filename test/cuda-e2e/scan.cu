// Case 4: block-level inclusive scans in dynamic shared memory
// (`extern __shared__`, the size given as the third launch parameter):
//  - scan_blocks: each thread scans K consecutive elements in a per-thread
//    local array (live across the barriers), then a Hillis-Steele scan of the
//    thread totals in a `while` loop over two shared buffers whose pointers are
//    swapped each step; per-block totals go to a second array, which the same
//    kernel scans with one block, and add_offsets finishes the global scan.
//    Block sizes 128 and 100 (not a power of two), partial last blocks.
//  - scan_inplace: float Kogge-Stone scan in place (read, barrier, add,
//    barrier) in a `for` loop, block 200; the inputs are multiples of 1/8
//    small enough for every partial sum to be exact.
#include "e2e_common.h"

#include <vector>

#define K 3

__global__ void scan_blocks(const int *in, int *out, int *blockSums, int n) {
  extern __shared__ int sh[];
  int *a = sh, *b = sh + blockDim.x;
  int tid = threadIdx.x;
  int base = (blockIdx.x * blockDim.x + tid) * K;
  int vals[K];
  int run = 0;
  for (int k = 0; k < K; ++k) {
    int i = base + k;
    run += i < n ? in[i] : 0;
    vals[k] = run;
  }
  a[tid] = run;
  __syncthreads();
  int off = 1;
  while (off < (int)blockDim.x) {
    b[tid] = a[tid] + (tid >= off ? a[tid - off] : 0);
    __syncthreads();
    int *tmp = a;
    a = b;
    b = tmp;
    off *= 2;
  }
  int excl = a[tid] - run;
  for (int k = 0; k < K; ++k)
    if (base + k < n)
      out[base + k] = vals[k] + excl;
  if (tid == (int)blockDim.x - 1)
    blockSums[blockIdx.x] = a[tid];
}

__global__ void add_offsets(const int *partial, const int *scannedSums, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int chunk = blockDim.x * K;
  for (int j = i; j < n; j += gridDim.x * blockDim.x) {
    int blk = j / chunk;
    out[j] = partial[j] + (blk > 0 ? scannedSums[blk - 1] : 0);
  }
}

__global__ void scan_inplace(const float *in, float *out, int n) {
  extern __shared__ float fs[];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  fs[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int off = 1; off < (int)blockDim.x; off <<= 1) {
    float add = tid >= off ? fs[tid - off] : 0.0f;
    __syncthreads();
    fs[tid] += add;
    __syncthreads();
  }
  if (i < n)
    out[i] = fs[tid];
}

int main() {
  const char *name = "scan";
  long failures = 0;
  Checksum sum;

  {
    const int n = 10001;
    std::vector<int> h(n);
    Lcg rng(5);
    for (int i = 0; i < n; ++i)
      h[i] = rng.range(-50, 50);
    std::vector<long long> want(n);
    long long acc = 0;
    for (int i = 0; i < n; ++i)
      want[i] = acc += h[i];
    int *din, *dpart, *dsums, *dsums2, *dsumsOfSums, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dpart, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CHECK(cudaMalloc(&dsums, 128 * sizeof(int)));
    CHECK(cudaMalloc(&dsums2, 128 * sizeof(int)));
    CHECK(cudaMalloc(&dsumsOfSums, sizeof(int)));
    CHECK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    const int blocks[2] = {128, 100};
    for (int bd : blocks) {
      int grid = (n + bd * K - 1) / (bd * K);
      int bd2 = (grid + K - 1) / K; // one block scans the block totals
      POISON(dpart, n * sizeof(int));
      POISON(dsums, 128 * sizeof(int));
      scan_blocks<<<grid, bd, 2 * bd * sizeof(int)>>>(din, dpart, dsums, n);
      CHECK_LAUNCH();
      POISON(dsums2, 128 * sizeof(int));
      POISON(dsumsOfSums, sizeof(int));
      scan_blocks<<<1, bd2, 2 * bd2 * sizeof(int)>>>(dsums, dsums2, dsumsOfSums, grid);
      CHECK_LAUNCH();
      POISON(dout, n * sizeof(int));
      add_offsets<<<7, bd>>>(dpart, dsums2, dout, n);
      CHECK_LAUNCH();
      std::vector<int> gpart(n), gout(n), gsums(grid);
      int total;
      CHECK(cudaMemcpy(gpart.data(), dpart, n * sizeof(int), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(gout.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(gsums.data(), dsums, grid * sizeof(int), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(&total, dsumsOfSums, sizeof(int), cudaMemcpyDeviceToHost));
      char w1[48], w2[48], w3[48], w4[48];
      std::snprintf(w1, sizeof w1, "scan_blocks<%d>.partial", bd);
      std::snprintf(w2, sizeof w2, "scan_blocks<%d>.blockSums", bd);
      std::snprintf(w3, sizeof w3, "scan<%d>.total", bd);
      std::snprintf(w4, sizeof w4, "scan<%d>.out", bd);
      Mismatches mp(w1), ms(w2), mt(w3), mo(w4);
      int chunk = bd * K;
      for (int i = 0; i < n; ++i) {
        int blk = i / chunk;
        mp.intAt(i, gpart[i], want[i] - (blk > 0 ? want[blk * chunk - 1] : 0));
        mo.intAt(i, gout[i], want[i]);
      }
      for (int b = 0; b < grid; ++b) {
        int last = std::min(n, (b + 1) * chunk) - 1;
        ms.intAt(b, gsums[b], want[last] - (b > 0 ? want[b * chunk - 1] : 0));
      }
      mt.intAt(0, total, want[n - 1]);
      failures += mp.count + ms.count + mt.count + mo.count;
      sum.add(gout.data(), n * sizeof(int));
      sum.add(gsums.data(), grid * sizeof(int));
    }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dpart));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dsums));
    CHECK(cudaFree(dsums2));
    CHECK(cudaFree(dsumsOfSums));
  }

  {
    const int n = 5003, bd = 200, grid = (n + bd - 1) / bd;
    std::vector<float> h(n);
    Lcg rng(6);
    for (int i = 0; i < n; ++i)
      h[i] = rng.eighths(15);
    float *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CHECK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    POISON(dout, n * sizeof(float));
    scan_inplace<<<grid, bd, bd * sizeof(float)>>>(din, dout, n);
    CHECK_LAUNCH();
    std::vector<float> got(n);
    CHECK(cudaMemcpy(got.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    Mismatches m("scan_inplace");
    double acc = 0;
    for (int i = 0; i < n; ++i) {
      if (i % bd == 0)
        acc = 0;
      acc += h[i];
      m.floatAt(i, got[i], acc, 0.0);
    }
    failures += m.count;
    sum.add(got.data(), n * sizeof(float));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
  }
  return finish(name, failures, &sum);
}
