// Reference timings for the primitives benchmark (issue 11): CUB on the
// same sizes as bench/programs/gpu/primitives/, inputs drawn here (fixed
// seed), outputs poisoned before the first run and checked after it, every
// CUDA return code checked. Timing: warm up for 25 ms of device time, then
// the median of N runs, each between two CUDA events.
//
//   primitives-ref scan_f32 N RUNS        DeviceScan::InclusiveSum, f32
//   primitives-ref scan_i32_excl N RUNS   DeviceScan::ExclusiveSum, i32
//   primitives-ref select N RUNS          DeviceSelect::If (x > 0), f32
//   primitives-ref sort_keys N RUNS       DeviceRadixSort::SortKeys, u32
//   primitives-ref sort_pairs N RUNS      DeviceRadixSort::SortPairs, u32/u32
//   primitives-ref copy BYTES RUNS        cudaMemcpyAsync device to device
//
// Prints one JSON line: {"case", "median_us", "bytes", "device", "ok"}.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,          \
                   cudaGetErrorString(e_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace {

double timeIt(const std::function<void()> &run, int runs) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  float warm = 0;
  while (warm < 25.0f) { // 25 ms of device time
    CK(cudaEventRecord(a));
    run();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    warm += ms;
  }
  std::vector<float> t;
  for (int i = 0; i < runs; ++i) {
    CK(cudaEventRecord(a));
    run();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1000.0f);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

std::string device() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  return prop.name;
}

void report(const char *name, double us, double bytes, bool ok) {
  std::printf("{\"case\": \"%s\", \"median_us\": %.3f, \"bytes\": %.0f, "
              "\"device\": \"%s\", \"ok\": %s}\n",
              name, us, bytes, device().c_str(), ok ? "true" : "false");
}

template <typename T> T *upload(const std::vector<T> &h) {
  T *d;
  CK(cudaMalloc(&d, h.size() * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename T> std::vector<T> download(const T *d, size_t n) {
  std::vector<T> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

struct Positive {
  __device__ bool operator()(float x) const { return x > 0.0f; }
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: primitives-ref MODE N RUNS\n");
    return 2;
  }
  std::string mode = argv[1];
  size_t n = std::stoull(argv[2]);
  int runs = std::atoi(argv[3]);
  std::mt19937_64 rng(2026);
  void *temp = nullptr;
  size_t tempBytes = 0;

  if (mode == "copy") {
    void *a, *b;
    CK(cudaMalloc(&a, n));
    CK(cudaMalloc(&b, n));
    CK(cudaMemset(a, 0x3c, n));
    double us = timeIt([&] { CK(cudaMemcpyAsync(b, a, n, cudaMemcpyDeviceToDevice)); }, runs);
    report("copy", us, 2.0 * n, true);
    return 0;
  }
  if (mode == "scan_f32") {
    std::vector<float> h(n);
    std::uniform_int_distribution<int> small(-1, 1); // exact sums
    for (auto &v : h)
      v = float(small(rng)); // exact sums in any order
    float *x = upload(h), *y;
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMemset(y, 0xFF, n * sizeof(float)));
    CK(cub::DeviceScan::InclusiveSum(nullptr, tempBytes, x, y, n));
    CK(cudaMalloc(&temp, tempBytes));
    auto run = [&] { CK(cub::DeviceScan::InclusiveSum(temp, tempBytes, x, y, n)); };
    run();
    CK(cudaDeviceSynchronize());
    std::vector<float> out = download(y, n);
    double s = 0;
    bool ok = true;
    for (size_t i = 0; i < n; ++i) { // check every element
      s += h[i];
      if (out[i] != float(s)) {
        ok = false;
        break;
      }
    }
    report("scan_f32", timeIt(run, runs), 8.0 * n, ok);
    return 0;
  }
  if (mode == "scan_i32_excl") {
    std::vector<int> h(n);
    std::uniform_int_distribution<int> d(-1000, 1000);
    for (auto &v : h)
      v = d(rng);
    int *x = upload(h), *y;
    CK(cudaMalloc(&y, n * sizeof(int)));
    CK(cudaMemset(y, 0xFF, n * sizeof(int)));
    CK(cub::DeviceScan::ExclusiveSum(nullptr, tempBytes, x, y, n));
    CK(cudaMalloc(&temp, tempBytes));
    auto run = [&] { CK(cub::DeviceScan::ExclusiveSum(temp, tempBytes, x, y, n)); };
    run();
    CK(cudaDeviceSynchronize());
    std::vector<int> out = download(y, n);
    int s = 0;
    bool ok = true;
    for (size_t i = 0; i < n; ++i) {
      if (out[i] != s) {
        ok = false;
        break;
      }
      s += h[i];
    }
    report("scan_i32_excl", timeIt(run, runs), 8.0 * n, ok);
    return 0;
  }
  if (mode == "select") {
    std::vector<float> h(n);
    std::normal_distribution<float> d;
    for (auto &v : h)
      v = d(rng);
    float *x = upload(h), *y;
    int *count;
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMalloc(&count, sizeof(int)));
    CK(cudaMemset(y, 0xFF, n * sizeof(float)));
    CK(cub::DeviceSelect::If(nullptr, tempBytes, x, y, count, n, Positive()));
    CK(cudaMalloc(&temp, tempBytes));
    auto run = [&] { CK(cub::DeviceSelect::If(temp, tempBytes, x, y, count, n, Positive())); };
    run();
    CK(cudaDeviceSynchronize());
    int c = download(count, 1)[0];
    std::vector<float> out = download(y, size_t(c));
    size_t k = 0;
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i)
      if (h[i] > 0)
        ok = k < size_t(c) && out[k++] == h[i];
    ok = ok && k == size_t(c);
    // Bytes: read n, write the selected ones (CUB also reads/writes flags).
    report("select", timeIt(run, runs), 4.0 * n + 4.0 * c, ok);
    return 0;
  }
  if (mode == "sort_keys" || mode == "sort_pairs") {
    bool pairs = mode == "sort_pairs";
    std::vector<unsigned> k(n), v(n);
    for (size_t i = 0; i < n; ++i) {
      k[i] = unsigned(rng());
      v[i] = unsigned(i);
    }
    unsigned *dk = upload(k), *dv = upload(v), *ok_, *ov;
    CK(cudaMalloc(&ok_, n * sizeof(unsigned)));
    CK(cudaMalloc(&ov, n * sizeof(unsigned)));
    if (pairs)
      CK(cub::DeviceRadixSort::SortPairs(nullptr, tempBytes, dk, ok_, dv, ov, n));
    else
      CK(cub::DeviceRadixSort::SortKeys(nullptr, tempBytes, dk, ok_, n));
    CK(cudaMalloc(&temp, tempBytes));
    auto run = [&] {
      if (pairs)
        CK(cub::DeviceRadixSort::SortPairs(temp, tempBytes, dk, ok_, dv, ov, n));
      else
        CK(cub::DeviceRadixSort::SortKeys(temp, tempBytes, dk, ok_, n));
    };
    run();
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> out = download(ok_, n);
    std::vector<unsigned> sorted = k;
    std::sort(sorted.begin(), sorted.end());
    bool ok = out == sorted;
    report(mode.c_str(), timeIt(run, runs), (pairs ? 16.0 : 8.0) * n, ok);
    return 0;
  }
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}
