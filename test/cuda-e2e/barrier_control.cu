// Case 2: barriers inside loops and block-uniform branches.
//  - a for loop whose trip count is read from device memory in its condition
//    (the same for all threads of a block, different between blocks, zero for
//    some), holding barriers and a block-uniform if/else whose two arms hold
//    barriers (one, resp. two);
//  - a while loop on a counter in shared memory that thread 0 decrements
//    between two barriers;
//  - a block-uniform if whose condition reads shared memory that the branch
//    itself then changes (each thread must keep the value it read);
//  - per-thread values computed before a barrier and used after it, loaded
//    from memory (must be kept per thread) or computed from the thread id.
// The block size (96) is not a power of two and the last block is partial.
// The reference emulates the kernel on the host phase by phase.
#include "e2e_common.h"

#include <vector>

#define MAXB 128

__global__ void phases(const int *params, const unsigned *in, unsigned *out, int n) {
  __shared__ unsigned buf[MAXB];
  __shared__ unsigned total;
  __shared__ int counter;
  int tid = threadIdx.x, bd = blockDim.x;
  int gid = blockIdx.x * bd + tid;
  unsigned x = gid < n ? in[gid] : 0x9E3779B9u * (unsigned)gid;
  unsigned mine = x * 3u + (unsigned)tid;
  unsigned h = (unsigned)tid * 2654435761u ^ (unsigned)blockIdx.x;
  buf[tid] = x;
  if (tid == 0) {
    total = 0;
    counter = params[4] + (int)(blockIdx.x % 2);
  }
  __syncthreads();
  for (int it = 0; it < params[blockIdx.x & 3]; ++it) {
    unsigned left = buf[(tid + bd - 1) % bd];
    unsigned right = buf[(tid + 1) % bd];
    unsigned keep = (left - right) + (unsigned)it;
    __syncthreads();
    if (((unsigned)it + blockIdx.x) % 3u == 0u) {
      buf[tid] = keep ^ mine;
      __syncthreads();
      mine += buf[(tid + 5) % bd] & 0xFFu;
    } else {
      buf[tid] = (keep + mine) & 0xFFFFu;
      __syncthreads();
      unsigned other = buf[bd - 1 - tid];
      __syncthreads();
      buf[tid] = other % 7u + h;
      if (tid == 0)
        atomicAdd(&total, 1u);
      __syncthreads();
      mine -= buf[(tid * 7) % bd];
    }
  }
  while (counter > 0) {
    int f = counter;
    __syncthreads();
    if (tid == 0)
      counter = f - 1 - (int)(total & 1u);
    buf[tid] += (unsigned)f * mine;
    __syncthreads();
    mine ^= buf[(tid + f) % bd];
  }
  if (total >= 2u) {
    __syncthreads();
    if (tid == 0)
      total = 0;
    __syncthreads();
    mine += total + 1u;
  } else {
    mine += 100u;
  }
  if (gid < n)
    out[gid] = mine + buf[tid] + h;
}

// Host emulation of one block of `phases`, barrier phase by barrier phase.
static void emulate_block(const int *params, const unsigned *in, unsigned *out, int n,
                          int bd, int bx) {
  std::vector<unsigned> buf(bd), x(bd), mine(bd), h(bd), keep(bd), other(bd);
  std::vector<int> f(bd);
  std::vector<bool> cond(bd);
  unsigned total = 0;
  int counter = 0;
  for (int t = 0; t < bd; ++t) {
    int gid = bx * bd + t;
    x[t] = gid < n ? in[gid] : 0x9E3779B9u * (unsigned)gid;
    mine[t] = x[t] * 3u + (unsigned)t;
    h[t] = (unsigned)t * 2654435761u ^ (unsigned)bx;
    buf[t] = x[t];
  }
  total = 0;
  counter = params[4] + bx % 2;
  for (int it = 0; it < params[bx & 3]; ++it) {
    for (int t = 0; t < bd; ++t)
      keep[t] = (buf[(t + bd - 1) % bd] - buf[(t + 1) % bd]) + (unsigned)it;
    if (((unsigned)it + bx) % 3u == 0u) {
      for (int t = 0; t < bd; ++t)
        buf[t] = keep[t] ^ mine[t];
      for (int t = 0; t < bd; ++t)
        mine[t] += buf[(t + 5) % bd] & 0xFFu;
    } else {
      for (int t = 0; t < bd; ++t)
        buf[t] = (keep[t] + mine[t]) & 0xFFFFu;
      for (int t = 0; t < bd; ++t)
        other[t] = buf[bd - 1 - t];
      for (int t = 0; t < bd; ++t)
        buf[t] = other[t] % 7u + h[t];
      total += 1;
      for (int t = 0; t < bd; ++t)
        mine[t] -= buf[(t * 7) % bd];
    }
  }
  while (counter > 0) {
    int fv = counter;
    counter = fv - 1 - (int)(total & 1u);
    for (int t = 0; t < bd; ++t)
      buf[t] += (unsigned)fv * mine[t];
    for (int t = 0; t < bd; ++t)
      mine[t] ^= buf[(t + fv) % bd];
  }
  if (total >= 2u) {
    total = 0;
    for (int t = 0; t < bd; ++t)
      mine[t] += total + 1u;
  } else {
    for (int t = 0; t < bd; ++t)
      mine[t] += 100u;
  }
  for (int t = 0; t < bd; ++t) {
    int gid = bx * bd + t;
    if (gid < n)
      out[gid] = mine[t] + buf[t] + h[t];
  }
}

int main() {
  const char *name = "barrier_control";
  long failures = 0;
  Checksum sum;
  const int n = 1000;
  std::vector<unsigned> hin(n);
  Lcg rng(3);
  for (int i = 0; i < n; ++i) {
    unsigned a = rng.next(), b = rng.next(); // (separate declarators: a defined order)
    hin[i] = a * 2654435761u + b;
  }
  // Trip counts of the for loop per blockIdx.x % 4 (one is zero), then the
  // start of the while counter.
  const int hparams[5] = {4, 0, 7, 3, 5};
  int *dparams;
  unsigned *din, *dout;
  CHECK(cudaMalloc(&dparams, sizeof hparams));
  CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, n * sizeof(unsigned)));
  CHECK(cudaMemcpy(dparams, hparams, sizeof hparams, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(din, hin.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  const int blocks[2] = {96, 128};
  for (int bd : blocks) {
    int grid = (n + bd - 1) / bd;
    POISON(dout, n * sizeof(unsigned));
    phases<<<grid, bd>>>(dparams, din, dout, n);
    CHECK_LAUNCH();
    std::vector<unsigned> got(n), want(n);
    CHECK(cudaMemcpy(got.data(), dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int b = 0; b < grid; ++b)
      emulate_block(hparams, hin.data(), want.data(), n, bd, b);
    Mismatches m(bd == 96 ? "phases<96>" : "phases<128>");
    for (int i = 0; i < n; ++i)
      m.intAt(i, got[i], want[i]);
    failures += m.count;
    sum.add(got.data(), n * sizeof(unsigned));
  }
  CHECK(cudaFree(dparams));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return finish(name, failures, &sum);
}
