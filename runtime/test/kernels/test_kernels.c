/* Hand-written kernels following the cpu kernel ABI, used by the runtime
 * tests in place of compiler output:
 *   void name(void **bindings, int64_t wg_x, int64_t wg_y, int64_t wg_z);
 * Element counts arrive in a constant i64 binding because the ABI has no
 * push constants (compiled kernels have static shapes). */
#include <math.h>
#include <stdint.h>

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
