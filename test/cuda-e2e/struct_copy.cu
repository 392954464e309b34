// Case 6b: copies of whole structs by initialization (trivial copy
// constructor): from global memory (`Particle p = ps[i];`), from a local,
// from shared memory across a barrier, and a struct returned by value from a
// __device__ function. Stores back are field by field (whole-struct
// assignment and by-value struct arguments are struct_assign.cu).
#include "e2e_common.h"

#include <vector>

struct Particle {
  float x, y;
  short vx, vy;
  char alive;
  int id;
};

struct Pair {
  float v;
  int k;
};

__device__ Pair make_pair(float v, int k) {
  Pair p;
  p.v = v;
  p.k = k;
  return p;
}

__global__ void step(Particle *ps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Particle p = ps[i];
  if (!p.alive)
    return;
  p.x += p.vx * 0.25f;
  p.y -= p.vy * 0.5f;
  p.id += 1;
  ps[i].x = p.x;
  ps[i].y = p.y;
  ps[i].id = p.id;
}

__global__ void pairs(const float *v, int n, float *outv, int *outk) {
  __shared__ Pair sp[128];
  int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  Pair p = make_pair(i < n ? v[i] * 2.0f : 0.0f, i * 3);
  Pair q = p;
  sp[tid].v = q.v;
  sp[tid].k = q.k;
  __syncthreads();
  Pair r = sp[blockDim.x - 1 - tid];
  if (i < n) {
    outv[i] = r.v + q.v;
    outk[i] = r.k - q.k;
  }
}

int main() {
  const char *name = "struct_copy";
  long failures = 0;
  Checksum sum;
  Lcg rng(10);

  {
    const int n = 501;
    std::vector<Particle> h(n);
    for (int i = 0; i < n; ++i) {
      std::memset(&h[i], 0, sizeof(Particle));
      h[i].x = rng.eighths(50);
      h[i].y = rng.eighths(50);
      h[i].vx = (short)rng.range(-300, 300);
      h[i].vy = (short)rng.range(-300, 300);
      h[i].alive = (char)(rng.range(0, 3) != 0);
      h[i].id = rng.range(0, 100000);
    }
    Particle *d;
    CHECK(cudaMalloc(&d, n * sizeof(Particle)));
    CHECK(cudaMemcpy(d, h.data(), n * sizeof(Particle), cudaMemcpyHostToDevice));
    step<<<(n + 63) / 64, 64>>>(d, n);
    CHECK_LAUNCH();
    std::vector<Particle> got(n);
    CHECK(cudaMemcpy(got.data(), d, n * sizeof(Particle), cudaMemcpyDeviceToHost));
    Mismatches m("step");
    for (int i = 0; i < n; ++i) {
      Particle w = h[i];
      if (w.alive) {
        w.x = (float)((double)w.x + w.vx * 0.25);
        w.y = (float)((double)w.y - w.vy * 0.5);
        w.id += 1;
      }
      m.floatAt(3 * i, got[i].x, w.x, 0.0);
      m.floatAt(3 * i + 1, got[i].y, w.y, 0.0);
      m.intAt(3 * i + 2, got[i].id, w.id);
      sum.addValue(got[i].x);
      sum.addValue(got[i].y);
      sum.addValue(got[i].id);
    }
    failures += m.count;
    CHECK(cudaFree(d));
  }

  {
    const int n = 300, bd = 128, grid = (n + bd - 1) / bd;
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i)
      h[i] = rng.eighths(40);
    float *dv, *dov;
    int *dok;
    CHECK(cudaMalloc(&dv, n * sizeof(float)));
    CHECK(cudaMalloc(&dov, n * sizeof(float)));
    CHECK(cudaMalloc(&dok, n * sizeof(int)));
    CHECK(cudaMemcpy(dv, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    POISON(dov, n * sizeof(float));
    POISON(dok, n * sizeof(int));
    pairs<<<grid, bd>>>(dv, n, dov, dok);
    CHECK_LAUNCH();
    std::vector<float> gv(n);
    std::vector<int> gk(n);
    CHECK(cudaMemcpy(gv.data(), dov, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gk.data(), dok, n * sizeof(int), cudaMemcpyDeviceToHost));
    Mismatches mv("pairs.v"), mk("pairs.k");
    for (int i = 0; i < n; ++i) {
      int b = i / bd, t = i % bd, j = b * bd + bd - 1 - t;
      double vj = j < n ? 2.0 * h[j] : 0.0;
      mv.floatAt(i, gv[i], vj + 2.0 * h[i], 0.0);
      mk.intAt(i, gk[i], 3 * j - 3 * i);
    }
    failures += mv.count + mk.count;
    sum.add(gv.data(), n * sizeof(float));
    sum.add(gk.data(), n * sizeof(int));
    CHECK(cudaFree(dv));
    CHECK(cudaFree(dov));
    CHECK(cudaFree(dok));
  }
  return finish(name, failures, &sum);
}
