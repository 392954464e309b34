// Shared helpers of the test/cuda-e2e programs (host side only): the CHECK
// macro, a deterministic LCG, poisoning, comparisons and the checksum line.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
                   #call, cudaGetErrorString(err_));                           \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// After a launch: the launch's own error, then the kernel's.
#define CHECK_LAUNCH()                                                         \
  do {                                                                         \
    CHECK(cudaGetLastError());                                                 \
    CHECK(cudaDeviceSynchronize());                                            \
  } while (0)

// A small deterministic LCG (Numerical Recipes constants).
struct Lcg {
  uint32_t s;
  explicit Lcg(uint32_t seed) : s(seed * 2654435761u + 12345u) {}
  uint32_t next() {
    s = s * 1664525u + 1013904223u;
    return s >> 8; // 24 random bits
  }
  // Integer in [lo, hi].
  int range(int lo, int hi) { return lo + (int)(next() % (uint32_t)(hi - lo + 1)); }
  // Float in [lo, hi).
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * (float)(next() & 0xFFFFFF) / 16777216.0f;
  }
  // A multiple of 1/8 in [-lim, lim] (sums of few of these are exact in float).
  float eighths(int lim) { return (float)range(-8 * lim, 8 * lim) / 8.0f; }
};

// Fill a device buffer with the poison pattern (all bytes 0xFF: -1 as an
// integer, NaN as a float).
#define POISON(ptr, bytes) CHECK(cudaMemset((ptr), 0xFF, (bytes)))

// Checksum (FNV-1a over bytes) of results that are exact on every target.
struct Checksum {
  uint64_t h = 1469598103934665603ull;
  void add(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; ++i) {
      h ^= b[i];
      h *= 1099511628211ull;
    }
  }
  template <class T> void addValue(T v) { add(&v, sizeof v); }
};

// Counts mismatches and prints the first few.
struct Mismatches {
  const char *what;
  long count = 0;
  explicit Mismatches(const char *w) : what(w) {}
  void intAt(long i, long long got, long long want) {
    if (got == want)
      return;
    if (count++ < 10)
      std::printf("MISMATCH %s[%ld]: got %lld, want %lld\n", what, i, got, want);
  }
  // Float: |got - want| <= tol * (1 + |want|); NaN (poison) never passes.
  void floatAt(long i, double got, double want, double tol) {
    if (std::fabs(got - want) <= tol * (1.0 + std::fabs(want)))
      return;
    if (count++ < 10)
      std::printf("MISMATCH %s[%ld]: got %.9g, want %.9g (tol %g)\n", what, i, got,
                  want, tol);
  }
};

// The last lines of every program.
inline int finish(const char *name, long failures, const Checksum *sum) {
  if (sum)
    std::printf("CHECKSUM %s %016llx\n", name, (unsigned long long)sum->h);
  if (failures) {
    std::printf("FAIL %s: %ld mismatches\n", name, failures);
    return 1;
  }
  std::printf("PASS %s\n", name);
  return 0;
}
