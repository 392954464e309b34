/* A stand-in for libcudart.so (test_shims.sh): events stamp a clock that
 * each launch advances by gridDim.x / 2 ms; every third event reports "not
 * ready" to cudaEventQuery until synchronized. FAKE_CUDART_FAULT=1: every
 * event call fails with 700 (cudaErrorIllegalAddress), as after a kernel
 * fault. */
#include <stddef.h>
#include <stdlib.h>
typedef struct { unsigned x, y, z; } d3;
static long ids;
static double stamp[1 << 20], now;
int cudaEventCreate(void **e) { *e = (void *)++ids; return 0; }
int cudaEventRecord(void *e, void *s) { (void)s; stamp[(long)e] = now; return 0; }
int cudaEventQuery(void *e) { return (long)e % 3 ? 0 : 600; }
static int fault(void) { return getenv("FAKE_CUDART_FAULT") ? 700 : 0; }
int cudaEventSynchronize(void *e) { (void)e; return fault(); }
int cudaEventElapsedTime(float *ms, void *a, void *b)
{
  *ms = stamp[(long)b] - stamp[(long)a];
  return fault();
}
int cudaEventDestroy(void *e) { (void)e; return 0; }
int __cudaLaunchKernel(const void *f, d3 g, d3 b, void **a, size_t sh, void *s)
{
  (void)f, (void)b, (void)a, (void)sh, (void)s;
  now += g.x * 0.5;
  return 0;
}
/* the public entry point calls the internal one, as a runtime might */
int cudaLaunchKernel(const void *f, d3 g, d3 b, void **a, size_t sh, void *s)
{
  return __cudaLaunchKernel(f, g, b, a, sh, s);
}
