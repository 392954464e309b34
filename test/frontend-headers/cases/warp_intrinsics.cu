// Warp-level and cache intrinsics.
#include <cuda_runtime.h>

__global__ void warp(const float *x, float *y, const int *ix, int *iy,
                     const float4 *v4, float4 *o4) {
  unsigned full = 0xffffffffu;
  unsigned lane = threadIdx.x % warpSize;
  float v = __ldg(&x[threadIdx.x]);
  float4 w = __ldg(&v4[threadIdx.x]);
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(full, v, off);
  v += __shfl_up_sync(full, v, 1);
  v += __shfl_xor_sync(full, v, 1);
  v += __shfl_sync(full, v, 0);
  int iv = __shfl_sync(full, ix[threadIdx.x], lane ^ 1, 16);
  unsigned b = __ballot_sync(full, v > 0.0f);
  int all = __all_sync(full, v > 0.0f);
  int any = __any_sync(full, v > 0.0f);
  unsigned act = __activemask();
  unsigned m = __match_any_sync(full, iv);
  int pred;
  unsigned ma = __match_all_sync(full, 1.0f, &pred);
  unsigned r = __reduce_add_sync(full, (unsigned)iv) +
               __reduce_max_sync(full, (unsigned)iv);
  iy[threadIdx.x] = b + all + any + act + m + ma + r + __dp4a(iv, iv, 0) +
                    __ldcg(&ix[0]) + __ldcs(&ix[1]) + (int)__isShared(x);
  y[threadIdx.x] = v + w.x;
  o4[threadIdx.x] = w;
  __stwt(&iy[0], 1);
  __nanosleep(100);
}

int main() { return 0; }
