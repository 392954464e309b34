// Device printf, assert, malloc/free, placement new.
#include <cuda_runtime.h>
#include <cstdio>
#include <cassert>
#include <new>

struct Pair {
  int a, b;
  __device__ Pair(int x) : a(x), b(2 * x) {}
};

__global__ void dev_io(int *p) {
  printf("thread %d of block %d: %f %s\n", threadIdx.x, blockIdx.x, 1.5,
         "ok");
  assert(p != nullptr);
  int *tmp = (int *)malloc(16 * sizeof(int));
  Pair *q = new (tmp) Pair(threadIdx.x);
  p[threadIdx.x] = q->a + q->b;
  free(tmp);
}

int main() {
  printf("host printf still works\n");
  return 0;
}
