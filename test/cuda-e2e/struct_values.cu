// Structs by value: copy initialisation from global memory, a struct
// returned from and passed to __device__ functions, whole-struct assignment,
// pointer comparisons (p + i < end, p != nullptr).
#include <cstdio>
struct P { float x, y; int k; };
__device__ P make(float v, int k) { P p; p.x = v; p.y = -v; p.k = k; return p; }
__device__ float len2(P p) { return p.x * p.x + p.y * p.y + p.k; }
__global__ void kern(P *ps, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  P a = ps[i];
  P b = make(a.x * 2, a.k + 1);
  ps[i] = b;
  const P *end = ps + n;
  out[i] = len2(a) + (ps + i < end ? 1.0f : 0.0f) + (ps != nullptr ? 10.f : 0.f);
}
int main() {
  const int n = 77; P h[n]; float o[n];
  for (int i = 0; i < n; ++i) { h[i].x = i * 0.5f; h[i].y = 1 - i; h[i].k = i * 3; }
  P *d; float *dout; cudaMalloc(&d, sizeof h); cudaMalloc(&dout, sizeof o);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  kern<<<3, 32>>>(d, dout, n);
  P r[n]; cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost); cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = h[i].x * h[i].x + h[i].y * h[i].y + h[i].k + 11.f;
    if (o[i] != want || r[i].x != h[i].x * 2 || r[i].y != -h[i].x * 2 || r[i].k != h[i].k + 1) { if (bad++ < 4) printf("%d: %g %g | %g %g %d\n", i, o[i], want, r[i].x, r[i].y, r[i].k); }
  }
  printf(bad ? "FAIL struct_values\n" : "PASS struct_values\n"); return bad != 0;
}
