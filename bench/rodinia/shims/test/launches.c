#include <stdlib.h>
typedef struct { unsigned x, y, z; } d3;
int __cudaLaunchKernel(const void *, d3, d3, void **, size_t, void *);
int cudaLaunchKernel(const void *, d3, d3, void **, size_t, void *);
int main(int argc, char **argv)
{
  int i, n = atoi(argv[1]);
  d3 g = {2, 1, 1}, b = {1, 1, 1};
  for (i = 0; i < n; i++)
    __cudaLaunchKernel(0, g, b, 0, 0, 0);
  cudaLaunchKernel(0, g, b, 0, 0, 0);
  return 0;
}
