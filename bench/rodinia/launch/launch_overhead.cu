// Launch cost of a nearly empty kernel (issue 16, "region merging"): the
// most that merging launches into fewer pool entries could save per launch.
// Each kernel reads one flag (zero) and writes nothing, so the time per
// launch is the runtime's: queueing, waking the pool's workers, handing out
// blocks, and waiting for the last one.
//
//   ./launch_overhead [launches]      (default 4000)
// Prints, per grid size, microseconds per launch (the median of 5 batches,
// each ending with cudaDeviceSynchronize).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

__global__ void nearlyEmpty(const int *flag, int *sink) {
  if (flag[0] == 12345 && threadIdx.x == 0)
    sink[blockIdx.x] = blockIdx.x;
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "launch_overhead: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  int launches = argc > 1 ? std::atoi(argv[1]) : 4000;
  if (launches <= 0) {
    std::fprintf(stderr, "launch_overhead: launches must be positive\n");
    return 1;
  }
  const int grids[] = {1, 16, 128, 1024};
  int *flag = nullptr, *sink = nullptr;
  check(cudaMalloc(&flag, sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&sink, 1024 * sizeof(int)), "cudaMalloc");
  check(cudaMemset(flag, 0, sizeof(int)), "cudaMemset");
  std::printf("| blocks of 16 threads | us per launch (median of 5 x %d) |\n| --- | --- |\n",
              launches);
  for (int grid : grids) {
    std::vector<double> us;
    for (int batch = 0; batch < 6; ++batch) {
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < launches; ++i)
        nearlyEmpty<<<grid, 16>>>(flag, sink);
      check(cudaGetLastError(), "launch");
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (batch > 0) // the first batch warms up
        us.push_back(s * 1e6 / launches);
    }
    std::sort(us.begin(), us.end());
    std::printf("| %d | %.2f |\n", grid, us[us.size() / 2]);
  }
  check(cudaFree(flag), "cudaFree");
  check(cudaFree(sink), "cudaFree");
  return 0;
}
