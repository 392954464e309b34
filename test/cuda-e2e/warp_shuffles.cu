// Warp shuffles (__shfl_down_sync, __shfl_sync with width 8, __shfl_up_sync
// with width 16, __shfl_xor_sync, a double shuffle): a warp-sum reduction and
// the source-lane rules, in 2-D blocks of 16x4 with a partial last block.
#include <cstdio>
__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
__global__ void k(const float *in, float *out, int *idxs, double *dbl, int n) {
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  int i = blockIdx.x * (blockDim.x * blockDim.y) + t;
  float v = i < n ? in[i] : 0.f;
  float s = warpSum(v);
  if ((t & 31) == 0) out[i / 32] = s;
  // idx with width 8, up, xor
  int a = __shfl_sync(0xffffffff, i, 3, 8);
  int u = __shfl_up_sync(0xffffffff, i, 2, 16);
  int x = __shfl_xor_sync(0xffffffff, i, 5);
  double d = __shfl_down_sync(0xffffffff, (double)i * 0.5, 1);
  if (i < n) { idxs[3 * i] = a; idxs[3 * i + 1] = u; idxs[3 * i + 2] = x; dbl[i] = d; }
}
int main() {
  const int n = 300; dim3 block(16, 4); int threads = 64; int blocks = (n + threads - 1) / threads;
  int total = blocks * threads;
  float h[512]; for (int i = 0; i < n; ++i) h[i] = (i * 7 % 13) - 5.5f;
  float *din, *dout; int *di; double *dd;
  cudaMalloc(&din, n * 4); cudaMalloc(&dout, total / 32 * 4); cudaMalloc(&di, 3 * n * 4); cudaMalloc(&dd, n * 8);
  cudaMemcpy(din, h, n * 4, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0xff, total / 32 * 4); cudaMemset(di, 0xff, 3 * n * 4);
  k<<<blocks, block>>>(din, dout, di, dd, n);
  if (cudaGetLastError() != cudaSuccess) { printf("launch failed\n"); return 1; }
  float out[64]; int idx[900]; double dbl[300];
  cudaMemcpy(out, dout, total / 32 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(idx, di, 3 * n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(dbl, dd, n * 8, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int w = 0; w < total / 32; ++w) { double r = 0; for (int i = w * 32; i < w * 32 + 32 && i < n; ++i) r += h[i]; if (w * 32 < n && out[w] != (float)r) { printf("warp %d %f %f\n", w, out[w], r); bad++; } }
  for (int i = 0; i < n; ++i) {
    int lane = i % 32; int a = i - lane + (lane & ~7) + 3;
    int u = (lane % 16) >= 2 ? i - 2 : i; int x = i ^ 5;
    double d = ((lane + 1) <= 31 ? (i + 1) : i) * 0.5;  // i+1 may be >= n but still a thread (< total)
    if (idx[3*i] != a || idx[3*i+1] != u || idx[3*i+2] != x || dbl[i] != d) { if (bad < 10) printf("i %d: %d %d %d %g vs %d %d %d %g\n", i, idx[3*i], idx[3*i+1], idx[3*i+2], dbl[i], a, u, x, d); bad++; }
  }
  printf(bad ? "FAIL warp_shuffles\n" : "PASS warp_shuffles\n"); return bad != 0;
}
