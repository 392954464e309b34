// Standard C++ headers in device code: <complex>, <algorithm>, <cmath>,
// <limits>, <cstdint>; std::vector on the host.
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

__global__ void cplx(const std::complex<float> *a, std::complex<float> *b) {
  int i = threadIdx.x;
  std::complex<float> z = a[i] * a[i] + std::complex<float>(1.0f, 2.0f);
  b[i] = z / (std::abs(z) + 1.0f);
}

template <typename T> __device__ T clamp01(T v) {
  return std::min(std::max(v, T(0)), T(1)) +
         std::numeric_limits<T>::epsilon();
}

__global__ void algo(float *p, uint32_t *q) {
  float v = clamp01(p[threadIdx.x]);
  float w = v * 0.5f;
  q[threadIdx.x] = (uint32_t)std::floor(v * 255.0f) + (uint32_t)INT32_MAX;
  p[threadIdx.x] = std::fmax(v, w);
}

int main() {
  std::vector<float> h(256, 0.5f);
  float *d;
  cudaMalloc(&d, h.size() * sizeof(float));
  cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  algo<<<1, 256>>>(d, nullptr);
  cudaMemcpy(h.data(), d, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return std::isfinite(h[0]) ? 0 : 1;
}
