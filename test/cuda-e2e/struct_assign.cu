// Case 6c: whole structs as values: assignment (trivial copy assignment
// operator) global to global, through a local and through a shared array
// across a barrier, and structs passed by value to a __device__ function
// (from a local and from device memory); the same with CUDA's vector types
// (float4 / int4 loads and stores, make_float4).
#include "e2e_common.h"

#include <vector>

struct Particle {
  float x, y;
  short vx, vy;
  char alive;
  int id;
};

__device__ float energy(Particle p) { return p.vx * p.vx + p.vy * p.vy + 0.5f * p.x; }

__global__ void copy_update(const Particle *in, Particle *out, Particle *mirror, float *e, int n) {
  __shared__ Particle sp[64];
  int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  Particle p;
  p.x = 0.0f;
  p.y = 0.0f;
  p.vx = 0;
  p.vy = 0;
  p.alive = 0;
  p.id = -1;
  if (i < n)
    p = in[i];
  sp[tid] = p;
  __syncthreads();
  if (i >= n)
    return; // after the only barrier
  p.x += p.vx * 0.25f;
  p.id += 1;
  out[i] = p;
  mirror[i] = sp[blockDim.x - 1 - tid];
  e[i] = energy(p) + energy(in[i]);
}

__global__ void vec4(const float4 *in, float4 *out, int4 *iout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 v = in[i];
  v.x += 1.0f;
  out[2 * i] = v;
  out[2 * i + 1] = make_float4(v.w, v.z, v.y, 0.5f);
  iout[i] = make_int4(i, -i, 2 * i, (int)v.y);
}

int main() {
  const char *name = "struct_assign";
  long failures = 0;
  Checksum sum;
  Lcg rng(11);
  const int n = 301, bd = 64, grid = (n + bd - 1) / bd;
  std::vector<Particle> h(n);
  for (int i = 0; i < n; ++i) {
    std::memset(&h[i], 0, sizeof(Particle));
    h[i].x = rng.eighths(50);
    h[i].y = rng.eighths(50);
    h[i].vx = (short)rng.range(-300, 300);
    h[i].vy = (short)rng.range(-300, 300);
    h[i].alive = (char)rng.range(0, 1);
    h[i].id = rng.range(0, 100000);
  }
  Particle *din, *dout, *dmirror;
  float *de;
  CHECK(cudaMalloc(&din, n * sizeof(Particle)));
  CHECK(cudaMalloc(&dout, n * sizeof(Particle)));
  CHECK(cudaMalloc(&dmirror, n * sizeof(Particle)));
  CHECK(cudaMalloc(&de, n * sizeof(float)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(Particle), cudaMemcpyHostToDevice));
  POISON(dout, n * sizeof(Particle));
  POISON(dmirror, n * sizeof(Particle));
  POISON(de, n * sizeof(float));
  copy_update<<<grid, bd>>>(din, dout, dmirror, de, n);
  CHECK_LAUNCH();
  std::vector<Particle> gout(n), gmir(n);
  std::vector<float> ge(n);
  CHECK(cudaMemcpy(gout.data(), dout, n * sizeof(Particle), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gmir.data(), dmirror, n * sizeof(Particle), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ge.data(), de, n * sizeof(float), cudaMemcpyDeviceToHost));
  Mismatches mo("out"), mm("mirror"), me("energy");
  auto cmp = [](Mismatches &m, long i, const Particle &g, const Particle &w) {
    m.floatAt(6 * i, g.x, w.x, 0.0);
    m.floatAt(6 * i + 1, g.y, w.y, 0.0);
    m.intAt(6 * i + 2, g.vx, w.vx);
    m.intAt(6 * i + 3, g.vy, w.vy);
    m.intAt(6 * i + 4, g.alive, w.alive);
    m.intAt(6 * i + 5, g.id, w.id);
  };
  for (int i = 0; i < n; ++i) {
    Particle w = h[i];
    w.x = (float)((double)w.x + w.vx * 0.25);
    w.id += 1;
    cmp(mo, i, gout[i], w);
    int b = i / bd, j = b * bd + bd - 1 - i % bd;
    Particle wm;
    std::memset(&wm, 0, sizeof wm);
    wm.id = -1;
    if (j < n)
      wm = h[j];
    cmp(mm, i, gmir[i], wm);
    auto en = [](const Particle &p) {
      return (double)p.vx * p.vx + (double)p.vy * p.vy + 0.5 * p.x;
    };
    me.floatAt(i, ge[i], en(w) + en(h[i]), 1e-6);
    sum.addValue(gout[i].x);
    sum.addValue(gout[i].id);
    sum.addValue(gmir[i].x);
    sum.addValue(gmir[i].id);
  }
  failures += mo.count + mm.count + me.count;

  {
    std::vector<float4> h4(n);
    for (int i = 0; i < n; ++i) {
      // One draw per statement: the order of function arguments is unspecified.
      h4[i].x = rng.eighths(9);
      h4[i].y = rng.eighths(9);
      h4[i].z = rng.eighths(9);
      h4[i].w = rng.eighths(9);
    }
    float4 *d4, *do4;
    int4 *di4;
    CHECK(cudaMalloc(&d4, n * sizeof(float4)));
    CHECK(cudaMalloc(&do4, 2 * n * sizeof(float4)));
    CHECK(cudaMalloc(&di4, n * sizeof(int4)));
    CHECK(cudaMemcpy(d4, h4.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    POISON(do4, 2 * n * sizeof(float4));
    POISON(di4, n * sizeof(int4));
    vec4<<<(n + 95) / 96, 96>>>(d4, do4, di4, n);
    CHECK_LAUNCH();
    std::vector<float4> g4(2 * n);
    std::vector<int4> gi4(n);
    CHECK(cudaMemcpy(g4.data(), do4, 2 * n * sizeof(float4), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gi4.data(), di4, n * sizeof(int4), cudaMemcpyDeviceToHost));
    Mismatches mv("vec4");
    for (int i = 0; i < n; ++i) {
      const float4 &a = h4[i], &g = g4[2 * i], &r = g4[2 * i + 1];
      const int4 &gi = gi4[i];
      const double want[12] = {a.x + 1.0, a.y, a.z, a.w, a.w, a.z, a.y, 0.5,
                               (double)i, (double)-i, 2.0 * i, (double)(int)a.y};
      const double have[12] = {g.x, g.y, g.z, g.w, r.x, r.y, r.z, r.w,
                               (double)gi.x, (double)gi.y, (double)gi.z, (double)gi.w};
      for (int k = 0; k < 12; ++k)
        mv.floatAt(12 * i + k, have[k], want[k], 0.0);
    }
    failures += mv.count;
    sum.add(g4.data(), 2 * n * sizeof(float4));
    sum.add(gi4.data(), n * sizeof(int4));
    CHECK(cudaFree(d4));
    CHECK(cudaFree(do4));
    CHECK(cudaFree(di4));
  }
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dmirror));
  CHECK(cudaFree(de));
  return finish(name, failures, &sum);
}
