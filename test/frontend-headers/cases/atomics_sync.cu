// Atomics of every type and scope, barriers and fences.
#include <cuda_runtime.h>

__global__ void atomics(int *i, unsigned *u, unsigned long long *ull,
                        long long *ll, float *f, double *d,
                        unsigned short *us) {
  int t = threadIdx.x;
  atomicAdd(i, 1);
  atomicAdd(u, 1u);
  atomicAdd(ull, 1ull);
  atomicAdd(f, 1.0f);
  atomicAdd(d, 1.0);
  atomicSub(i, 1);
  atomicSub(u, 1u);
  atomicExch(i, t);
  atomicExch(u, 2u);
  atomicExch(ull, 3ull);
  atomicExch(f, 4.0f);
  atomicMin(i, t);
  atomicMin(u, 1u);
  atomicMin(ll, -1ll);
  atomicMin(ull, 1ull);
  atomicMax(i, t);
  atomicMax(u, 1u);
  atomicMax(ll, 1ll);
  atomicMax(ull, 2ull);
  atomicInc(u, 100u);
  atomicDec(u, 100u);
  atomicCAS(i, 0, 1);
  atomicCAS(u, 0u, 1u);
  atomicCAS(ull, 0ull, 1ull);
  atomicCAS(us, (unsigned short)0, (unsigned short)1);
  atomicAnd(i, 1);
  atomicOr(u, 2u);
  atomicXor(ull, 3ull);
  atomicAdd_block(i, 1);
  atomicAdd_system(f, 1.0f);
  atomicCAS_block(u, 0u, 1u);
  atomicMax_system(ll, 5ll);
  atomicExch_block(d ? (unsigned long long *)d : ull, 1ull);
}

__global__ void barriers(int *p) {
  __shared__ int s[128];
  s[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  int n = __syncthreads_count(s[threadIdx.x] > 0);
  int a = __syncthreads_and(s[threadIdx.x] > 0);
  int o = __syncthreads_or(s[threadIdx.x] > 0);
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  __syncwarp();
  __syncwarp(0xffffffffu);
  p[threadIdx.x] = n + a + o + (int)clock() + (int)clock64();
}

int main() { return 0; }
