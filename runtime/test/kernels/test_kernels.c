/* Hand-written kernels following the cpu kernel ABI, used by the runtime
 * tests in place of compiler output:
 *   void name(void **bindings, int64_t wg_x, int64_t wg_y, int64_t wg_z);
 * Element counts arrive in a constant i64 binding, except in the kernels of
 * dynamic shapes, which take them as push constants (schema version 7: the
 * binding table entries after the bindings). */
#include "tessel/runtime/cuda_c_abi.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Elements per workgroup along x. */
#define TESSEL_TEST_WG 64

static void range(int64_t n, int64_t wg, int64_t *begin, int64_t *end) {
  *begin = wg * TESSEL_TEST_WG;
  *end = *begin + TESSEL_TEST_WG < n ? *begin + TESSEL_TEST_WG : n;
}

/* bindings: n (i64), a, b, out (f32[n]) */
void add_f32(void **b, int64_t x, int64_t y, int64_t z) {
  (void)y, (void)z;
  int64_t n = *(const int64_t *)b[0], begin, end;
  const float *lhs = b[1], *rhs = b[2];
  float *out = b[3];
  range(n, x, &begin, &end);
  for (int64_t i = begin; i < end; ++i)
    out[i] = lhs[i] + rhs[i];
}

/* bindings: n (i64), factor (f32 scalar), a, out (f32[n]) */
void scale_f32(void **b, int64_t x, int64_t y, int64_t z) {
  (void)y, (void)z;
  int64_t n = *(const int64_t *)b[0], begin, end;
  float factor = *(const float *)b[1];
  const float *in = b[2];
  float *out = b[3];
  range(n, x, &begin, &end);
  for (int64_t i = begin; i < end; ++i)
    out[i] = in[i] * factor;
}

/* bindings: n (i64), a, out (f32[n]); calls libm, which the .so does not
 * link: the runtime process must provide it. */
void exp_f32(void **b, int64_t x, int64_t y, int64_t z) {
  (void)y, (void)z;
  int64_t n = *(const int64_t *)b[0], begin, end;
  const float *in = b[1];
  float *out = b[2];
  range(n, x, &begin, &end);
  for (int64_t i = begin; i < end; ++i)
    out[i] = expf(in[i]);
}

/* bindings: dims (i64[3], the workgroup count), inout (i32[x*y*z]).
 * Each workgroup adds a value encoding its id to its own element, so a
 * missed or repeated workgroup shows up in the result. */
void wg_ids_i32(void **b, int64_t x, int64_t y, int64_t z) {
  const int64_t *dims = b[0];
  int32_t *inout = b[1];
  int64_t lin = (z * dims[1] + y) * dims[0] + x;
  inout[lin] += (int32_t)(1 + x + 100 * y + 10000 * z);
}

/* bindings: n (i64), inout (u32[n]); one step of x -> 3x + 1 (mod 2^32), so
 * that k chained dispatches give a value that a skipped, repeated or
 * reordered dispatch would change. */
void step_u32(void **b, int64_t x, int64_t y, int64_t z) {
  (void)y, (void)z;
  int64_t n = *(const int64_t *)b[0], begin, end;
  uint32_t *inout = b[1];
  range(n, x, &begin, &end);
  for (int64_t i = begin; i < end; ++i)
    inout[i] = inout[i] * 3u + 1u;
}

/* bindings: io (i64[4]: in workgroups, scratch bytes; out arrivals, 64-byte
 * aligned), then the dispatch scratch (Export.scratch_bytes, entry 1) whose
 * first word the runtime zeroes. Each workgroup counts itself in that word
 * and touches the scratch's last byte; the last to arrive writes the count,
 * which is the workgroup count only if the word started at zero. */
void count_in_scratch(void **b, int64_t x, int64_t y, int64_t z) {
  (void)x, (void)y, (void)z;
  int64_t *io = b[0];
  int64_t *scratch = b[1];
  ((volatile char *)scratch)[io[1] - 1] = 1;
  int64_t arrived = __atomic_add_fetch(&scratch[0], 1, __ATOMIC_ACQ_REL);
  if (arrived == io[0]) {
    io[2] = arrived;
    io[3] = (uintptr_t)scratch % 64 == 0;
  }
}

/* bindings: a, b, out (f32[n]); push constant n (entry 3). Four elements
 * per workgroup: the workgroup count is ceil(n / 4), from the export's
 * workgroup count program. */
void add_n_f32(void **b, int64_t x, int64_t y, int64_t z) {
  (void)y, (void)z;
  int64_t n;
  memcpy(&n, &b[3], sizeof(n));
  const float *lhs = b[0], *rhs = b[1];
  float *out = b[2];
  for (int64_t i = 4 * x; i < 4 * x + 4 && i < n; ++i)
    out[i] = lhs[i] + rhs[i];
}

/* ---- CUDA C ABI kernels (abi CudaC; tessel/runtime/cuda_c_abi.h) ---------
 * void name(void **args, int64_t bx, int64_t by, int64_t bz): args[0] is the
 * TesselLaunch, args[1 + i] points to parameter i. Each call runs every
 * thread of block (bx, by, bz), as transpiled CUDA C does. The CUDA versions
 * are in cts/kernels/cts_kernels.cu. */
/* Linear block and thread ids, x fastest (as the CUDA versions compute). */
static int64_t blockLinear(const struct TesselLaunch *l, int64_t bx, int64_t by, int64_t bz) {
  return bx + l->grid[0] * (by + l->grid[1] * bz);
}

/* Parameters: float *out, const float *in, int a, float b, long long n.
 * out[i] = a * in[i] + b for the i = block * threadsPerBlock + thread < n. */
void axpb_cuda_c(void **args, int64_t bx, int64_t by, int64_t bz) {
  const struct TesselLaunch *l = args[0];
  float *out = *(float **)args[1];
  const float *in = *(const float **)args[2];
  int a = *(const int *)args[3];
  float b = *(const float *)args[4];
  long long n = *(const long long *)args[5];
  int64_t threads = l->block[0] * l->block[1] * l->block[2];
  int64_t first = blockLinear(l, bx, by, bz) * threads;
  for (int64_t t = 0; t < threads; ++t) {
    int64_t i = first + t;
    if (i < n)
      out[i] = (float)a * in[i] + b;
  }
}

/* Parameters: long long *out, char tag. Records what block (bx, by, bz)
 * learns about its launch in out[7 * block .. + 7]: grid x, y, z, block
 * x, y, z, dynamic shared bytes + 1000 * tag. */
void launch_info_cuda_c(void **args, int64_t bx, int64_t by, int64_t bz) {
  const struct TesselLaunch *l = args[0];
  long long *out = *(long long **)args[1];
  char tag = *(const char *)args[2];
  long long *o = out + 7 * blockLinear(l, bx, by, bz);
  for (int d = 0; d < 3; ++d) {
    o[d] = l->grid[d];
    o[3 + d] = l->block[d];
  }
  o[6] = l->dynamic_shared_bytes + 1000 * (long long)tag;
}

/* The cpu form of test/cudart/axpb_program.cu's kernel
 *   __global__ void axpb(float *out, const float *in, int a, float b,
 *                        long long n)
 * under its mangled name, as tessel-cc would emit it. */
void _Z4axpbPfPKfifx(void **args, int64_t bx, int64_t by, int64_t bz) {
  axpb_cuda_c(args, bx, by, bz);
}
