// Case 6: C++ language features in kernels.
//  - apply<T>: a template kernel instantiated for float and int, calling
//    template __device__ helpers; a pointer to a struct of scalars (Params)
//    in device memory; a switch with fallthrough, break, a shared case body
//    and a return inside a case; `continue` and `break` in a loop; early
//    returns of some threads (the kernel has no barrier);
//  - affine<T, UNROLL>: a struct passed by value, a non-type template
//    parameter, an unrolled inner loop, grid-stride;
//  - particles: an array of structs with mixed field sizes (padding) updated
//    in place through a pointer to the element, inactive ones returning
//    early; a __device__ function returning from inside a loop (whole-struct
//    copies are struct_copy.cu and struct_assign.cu);
//  - reverse_block<T>: a template kernel with a template-typed __shared__
//    array and a barrier (no early return).
// Float inputs are multiples of 1/8 so every float result is exact.
#include "e2e_common.h"

#include <vector>

struct Params {
  int n;
  int mode0;
  float scale;
  int bias;
  int window;
};

struct Affine {
  float a;
  int shift;
  double b;
};

struct Particle {
  float x, y;
  short vx, vy;
  char alive;
  int id;
};

template <typename T> __device__ T sq(T v) { return v * v; }

template <typename T> __device__ T clampv(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T> __device__ T transform(T x, int mode, const Params *p) {
  T r = x;
  switch (mode) {
  case 0:
    r = r + (T)p->bias;
    // fallthrough
  case 1:
    r = r * (T)2;
    break;
  case 2:
  case 3:
    r = r - (T)1;
    // fallthrough
  case 4:
    r = sq(r);
    break;
  case 6:
    return clampv(r, (T)-3, (T)3);
  default:
    r = -r;
  }
  return r + (T)mode;
}

template <typename T> __global__ void apply(const Params *p, const T *in, T *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p->n)
    return;
  T acc = (T)0;
  for (int k = 0; k < p->window; ++k) {
    int j = i + k;
    if (j % 3 == 1)
      continue;
    if (k >= 5 && (i & 1))
      break;
    acc += transform(in[j % p->n], (j + p->mode0) % 8, p);
  }
  if (acc < (T)0 && i % 4 == 0) {
    out[i] = (T)-1;
    return;
  }
  out[i] = acc * (T)p->scale;
}

template <typename T, int UNROLL> __global__ void affine(Affine f, const T *in, T *out, int n) {
  for (int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL; base < n;
       base += gridDim.x * blockDim.x * UNROLL) {
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      int i = base + u;
      if (i < n)
        out[i] = (T)(f.a * (float)in[i] + (float)f.b) + (T)(i >> f.shift);
    }
  }
}

// Index of the first of the m slots at or after `from` (cyclically) whose
// value is negative, or -1.
__device__ int find_negative(const float *v, int m, int from) {
  for (int k = 0; k < m; ++k) {
    int j = (from + k) % m;
    if (v[j] >= 0.0f)
      continue;
    return j;
  }
  return -1;
}

__global__ void particles(Particle *ps, int n, const float *field, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Particle *p = &ps[i];
  if (!p->alive)
    return;
  int hit = find_negative(field, m, p->id % m);
  p->x += p->vx * 0.25f;
  p->y -= p->vy * 0.5f;
  if (hit < 0) {
    p->alive = 0;
  } else {
    p->id = p->id * 10 + hit % 10;
    p->vx = (short)-p->vx;
  }
}

template <typename T> __global__ void reverse_block(const T *in, T *out, int n) {
  __shared__ T buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int last = min(n - (int)(blockIdx.x * blockDim.x), (int)blockDim.x) - 1;
  if (i < n)
    buf[threadIdx.x] = in[i];
  __syncthreads();
  if ((int)threadIdx.x <= last)
    out[i] = buf[last - threadIdx.x] + (T)threadIdx.x;
}

// ----------------------------------------------------------------------------
// Host references (written independently of the device code).

template <typename T> static T ref_transform(T x, int mode, const Params &p) {
  T r = x;
  if (mode == 0)
    r = (r + (T)p.bias) * (T)2;
  else if (mode == 1)
    r = r * (T)2;
  else if (mode == 2 || mode == 3)
    r = (r - (T)1) * (r - (T)1);
  else if (mode == 4)
    r = r * r;
  else if (mode == 6)
    return r < (T)-3 ? (T)-3 : r > (T)3 ? (T)3 : r;
  else
    r = -r;
  return r + (T)mode;
}

template <typename T> static T ref_apply(const Params &p, const std::vector<T> &in, int i) {
  T acc = 0;
  for (int k = 0; k < p.window; ++k) {
    int j = i + k;
    if (j % 3 == 1)
      continue;
    if (k >= 5 && (i & 1))
      break;
    acc += ref_transform(in[j % p.n], (j + p.mode0) % 8, p);
  }
  if (acc < (T)0 && i % 4 == 0)
    return (T)-1;
  return acc * (T)p.scale;
}

template <typename T>
static long run_apply(const char *what, const Params &hp, const Params *dp, Lcg &rng,
                      Checksum &sum) {
  int n = hp.n;
  std::vector<T> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (T)rng.eighths(12);
  T *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(T)));
  CHECK(cudaMalloc(&dout, (n + 7) * sizeof(T)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  POISON(dout, (n + 7) * sizeof(T));
  apply<T><<<(n + 63) / 64 + 1, 64>>>(dp, din, dout); // one block past n
  CHECK_LAUNCH();
  std::vector<T> got(n + 7);
  CHECK(cudaMemcpy(got.data(), dout, (n + 7) * sizeof(T), cudaMemcpyDeviceToHost));
  Mismatches m(what);
  for (int i = 0; i < n; ++i)
    m.floatAt(i, (double)got[i], (double)ref_apply(hp, h, i), 0.0);
  // The threads at and past n returned first: their slots keep the poison.
  unsigned char poison[sizeof(T)];
  std::memset(poison, 0xFF, sizeof poison);
  for (int i = n; i < n + 7; ++i)
    if (std::memcmp(&got[i], poison, sizeof(T)) != 0)
      m.intAt(i, 0, -1);
  sum.add(got.data(), n * sizeof(T));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return m.count;
}

template <typename T, int UNROLL>
static long run_affine(const char *what, Lcg &rng, Checksum &sum) {
  const int n = 3001;
  Affine f = {1.5f, 4, -2.25};
  std::vector<T> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (T)rng.eighths(100);
  T *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(T)));
  CHECK(cudaMalloc(&dout, n * sizeof(T)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  POISON(dout, n * sizeof(T));
  affine<T, UNROLL><<<5, 96>>>(f, din, dout, n);
  CHECK_LAUNCH();
  std::vector<T> got(n);
  CHECK(cudaMemcpy(got.data(), dout, n * sizeof(T), cudaMemcpyDeviceToHost));
  Mismatches m(what);
  for (int i = 0; i < n; ++i) {
    double v = (double)f.a * (double)h[i] + f.b;
    T want = (T)v + (T)(i >> f.shift); // v is exact in float; (T) truncates like the kernel
    m.floatAt(i, (double)got[i], (double)want, 0.0);
  }
  sum.add(got.data(), n * sizeof(T));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return m.count;
}

int main() {
  const char *name = "templates";
  long failures = 0;
  Checksum sum;
  Lcg rng(9);

  Params hp = {1237, 3, 2.5f, -4, 8};
  Params *dp;
  CHECK(cudaMalloc(&dp, sizeof(Params)));
  CHECK(cudaMemcpy(dp, &hp, sizeof hp, cudaMemcpyHostToDevice));
  failures += run_apply<float>("apply<float>", hp, dp, rng, sum);
  failures += run_apply<int>("apply<int>", hp, dp, rng, sum);
  CHECK(cudaFree(dp));

  failures += run_affine<float, 4>("affine<float,4>", rng, sum);
  failures += run_affine<int, 3>("affine<int,3>", rng, sum);

  // particles
  {
    const int n = 777, m = 29;
    std::vector<Particle> hps(n);
    std::vector<float> field(m);
    for (int j = 0; j < m; ++j)
      field[j] = j % 7 == 3 || j == 11 ? -1.0f - j : (float)j;
    for (int i = 0; i < n; ++i) {
      Particle &p = hps[i];
      std::memset(&p, 0, sizeof p);
      p.x = rng.eighths(50);
      p.y = rng.eighths(50);
      p.vx = (short)rng.range(-300, 300);
      p.vy = (short)rng.range(-300, 300);
      p.alive = (char)(rng.range(0, 4) != 0);
      p.id = rng.range(0, 100000);
    }
    Particle *dps;
    float *dfield;
    CHECK(cudaMalloc(&dps, n * sizeof(Particle)));
    CHECK(cudaMalloc(&dfield, m * sizeof(float)));
    CHECK(cudaMemcpy(dps, hps.data(), n * sizeof(Particle), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dfield, field.data(), m * sizeof(float), cudaMemcpyHostToDevice));
    particles<<<(n + 127) / 128, 128>>>(dps, n, dfield, m);
    CHECK_LAUNCH();
    // Then a second pass with an all-positive field (every alive one dies).
    std::vector<float> pos(m, 1.0f);
    CHECK(cudaMemcpy(dfield, pos.data(), m * sizeof(float), cudaMemcpyHostToDevice));
    particles<<<(n + 127) / 128, 128>>>(dps, n / 2, dfield, m);
    CHECK_LAUNCH();
    std::vector<Particle> got(n);
    CHECK(cudaMemcpy(got.data(), dps, n * sizeof(Particle), cudaMemcpyDeviceToHost));
    Mismatches mm("particles");
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 0; i < (pass ? n / 2 : n); ++i) {
        Particle &p = hps[i];
        if (!p.alive)
          continue;
        const std::vector<float> &fv = pass ? pos : field;
        int hit = -1;
        for (int k = 0; k < m && hit < 0; ++k)
          if (fv[(p.id % m + k) % m] < 0)
            hit = (p.id % m + k) % m;
        p.x = (float)((double)p.x + p.vx * 0.25);
        p.y = (float)((double)p.y - p.vy * 0.5);
        if (hit < 0) {
          p.alive = 0;
        } else {
          p.id = p.id * 10 + hit % 10;
          p.vx = (short)-p.vx;
        }
      }
    }
    for (int i = 0; i < n; ++i) {
      mm.floatAt(6 * i, got[i].x, hps[i].x, 0.0);
      mm.floatAt(6 * i + 1, got[i].y, hps[i].y, 0.0);
      mm.intAt(6 * i + 2, got[i].vx, hps[i].vx);
      mm.intAt(6 * i + 3, got[i].vy, hps[i].vy);
      mm.intAt(6 * i + 4, got[i].alive, hps[i].alive);
      mm.intAt(6 * i + 5, got[i].id, hps[i].id);
    }
    failures += mm.count;
    for (int i = 0; i < n; ++i) {
      sum.addValue(got[i].x);
      sum.addValue(got[i].y);
      sum.addValue(got[i].vx);
      sum.addValue(got[i].vy);
      sum.addValue(got[i].alive);
      sum.addValue(got[i].id);
    }
    CHECK(cudaFree(dps));
    CHECK(cudaFree(dfield));
  }

  // reverse_block<float> and <int>, block 200 (n = 1001: partial last block).
  {
    const int n = 1001, bd = 200, grid = (n + bd - 1) / bd;
    std::vector<float> hf(n);
    std::vector<int> hi(n);
    for (int i = 0; i < n; ++i) {
      hf[i] = rng.eighths(30);
      hi[i] = rng.range(-1000, 1000);
    }
    float *dfi, *dfo;
    int *dii, *dio;
    CHECK(cudaMalloc(&dfi, n * sizeof(float)));
    CHECK(cudaMalloc(&dfo, n * sizeof(float)));
    CHECK(cudaMalloc(&dii, n * sizeof(int)));
    CHECK(cudaMalloc(&dio, n * sizeof(int)));
    CHECK(cudaMemcpy(dfi, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dii, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    POISON(dfo, n * sizeof(float));
    POISON(dio, n * sizeof(int));
    reverse_block<float><<<grid, bd>>>(dfi, dfo, n);
    CHECK_LAUNCH();
    reverse_block<int><<<grid, bd>>>(dii, dio, n);
    CHECK_LAUNCH();
    std::vector<float> gf(n);
    std::vector<int> gi(n);
    CHECK(cudaMemcpy(gf.data(), dfo, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gi.data(), dio, n * sizeof(int), cudaMemcpyDeviceToHost));
    Mismatches mf("reverse_block<float>"), mi("reverse_block<int>");
    for (int i = 0; i < n; ++i) {
      int b = i / bd, t = i % bd, last = std::min(n - b * bd, bd) - 1;
      mf.floatAt(i, gf[i], (double)hf[b * bd + last - t] + t, 0.0);
      mi.intAt(i, gi[i], hi[b * bd + last - t] + t);
    }
    failures += mf.count + mi.count;
    sum.add(gf.data(), n * sizeof(float));
    sum.add(gi.data(), n * sizeof(int));
    CHECK(cudaFree(dfi));
    CHECK(cudaFree(dfo));
    CHECK(cudaFree(dii));
    CHECK(cudaFree(dio));
  }
  return finish(name, failures, &sum);
}
