/* LD_PRELOAD shim for the OpenMP side of the Rodinia benchmark
 * (bench/rodinia/run.py).
 *
 * 1. omp_set_num_threads() is a no-op, so that OMP_NUM_THREADS is the one
 *    thread-count knob (backprop hard-codes 8 threads, lud, hotspot, srad
 *    and streamcluster pass their command-line count to it).
 * 2. It sums the wall time spent in top-level parallel regions: libgomp's
 *    GOMP_parallel, GOMP_parallel_loop_*, GOMP_parallel_sections (gcc >= 4.9
 *    emits these), the older GOMP_parallel_start/GOMP_parallel_end pair, and
 *    libomp's __kmpc_fork_call (clang). Nested regions are not counted twice.
 *
 * At exit it writes one line
 *     omp-region: regions=N region_ms=X set_num_threads_calls=K
 * appended to the file $RODINIA_REGION_OUT, or to stderr if that is unset.
 *
 * Build: cc -O2 -shared -fPIC omp_region.c -o omp_region.so -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double total_ms;
static long regions;
static long set_calls;
static int depth;           /* nesting of parallel regions being timed */
static struct timespec t0;  /* start of the outermost one */

static void *real(const char *name)
{
  void *p = dlsym(RTLD_NEXT, name);
  if (!p) {
    fprintf(stderr, "omp_region.so: %s not found in the libraries after this one\n", name);
    abort();
  }
  return p;
}

static void enter(void)
{
  if (__atomic_fetch_add(&depth, 1, __ATOMIC_ACQ_REL) == 0)
    clock_gettime(CLOCK_MONOTONIC, &t0);
}

static void leave(void)
{
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (__atomic_sub_fetch(&depth, 1, __ATOMIC_ACQ_REL) == 0) {
    total_ms += (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
    regions++;
  }
}

__attribute__((destructor)) static void report(void)
{
  const char *path = getenv("RODINIA_REGION_OUT");
  FILE *f = path && *path ? fopen(path, "a") : NULL;
  fprintf(f ? f : stderr, "omp-region: regions=%ld region_ms=%.3f set_num_threads_calls=%ld\n",
          regions, total_ms, set_calls);
  if (f)
    fclose(f);
}

void omp_set_num_threads(int n)
{
  (void)n;
  set_calls++;
}

/* ---- libgomp -------------------------------------------------------------- */

typedef void (*fn_t)(void *);

void GOMP_parallel(fn_t fn, void *data, unsigned num_threads, unsigned flags)
{
  static void (*r)(fn_t, void *, unsigned, unsigned);
  if (!r)
    r = real("GOMP_parallel");
  enter();
  r(fn, data, num_threads, flags);
  leave();
}

#define LOOP(name)                                                                       \
  void name(fn_t fn, void *data, unsigned num_threads, long start, long end, long incr,  \
            long chunk, unsigned flags)                                                 \
  {                                                                                      \
    static void (*r)(fn_t, void *, unsigned, long, long, long, long, unsigned);          \
    if (!r)                                                                              \
      r = real(#name);                                                                   \
    enter();                                                                             \
    r(fn, data, num_threads, start, end, incr, chunk, flags);                            \
    leave();                                                                             \
  }
LOOP(GOMP_parallel_loop_static)
LOOP(GOMP_parallel_loop_dynamic)
LOOP(GOMP_parallel_loop_guided)
LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
LOOP(GOMP_parallel_loop_nonmonotonic_guided)

void GOMP_parallel_loop_runtime(fn_t fn, void *data, unsigned num_threads, long start,
                                long end, long incr, unsigned flags)
{
  static void (*r)(fn_t, void *, unsigned, long, long, long, unsigned);
  if (!r)
    r = real("GOMP_parallel_loop_runtime");
  enter();
  r(fn, data, num_threads, start, end, incr, flags);
  leave();
}

void GOMP_parallel_sections(fn_t fn, void *data, unsigned num_threads, unsigned count,
                            unsigned flags)
{
  static void (*r)(fn_t, void *, unsigned, unsigned, unsigned);
  if (!r)
    r = real("GOMP_parallel_sections");
  enter();
  r(fn, data, num_threads, count, flags);
  leave();
}

/* The pre-4.9 ABI: the master runs fn itself between the two calls. */
void GOMP_parallel_start(fn_t fn, void *data, unsigned num_threads)
{
  static void (*r)(fn_t, void *, unsigned);
  if (!r)
    r = real("GOMP_parallel_start");
  enter();
  r(fn, data, num_threads);
}

void GOMP_parallel_end(void)
{
  static void (*r)(void);
  if (!r)
    r = real("GOMP_parallel_end");
  r();
  leave();
}

/* ---- libomp (clang) ------------------------------------------------------- */

/* void __kmpc_fork_call(ident_t *loc, kmp_int32 argc, kmpc_micro microtask, ...):
 * the variadic arguments are argc pointers (the shared variables). */
typedef void (*kmpc_fork_t)(void *, int32_t, void *, ...);

void __kmpc_fork_call(void *loc, int32_t argc, void *microtask, ...)
{
  static kmpc_fork_t r;
  void *a[16];
  va_list ap;
  int i;
  if (!r)
    r = (kmpc_fork_t)real("__kmpc_fork_call");
  if (argc < 0 || argc > 16) {
    fprintf(stderr, "omp_region.so: __kmpc_fork_call with %d arguments (at most 16)\n", argc);
    abort();
  }
  va_start(ap, microtask);
  for (i = 0; i < argc; i++)
    a[i] = va_arg(ap, void *);
  va_end(ap);
  enter();
  switch (argc) {
  case 0: r(loc, argc, microtask); break;
  case 1: r(loc, argc, microtask, a[0]); break;
  case 2: r(loc, argc, microtask, a[0], a[1]); break;
  case 3: r(loc, argc, microtask, a[0], a[1], a[2]); break;
  case 4: r(loc, argc, microtask, a[0], a[1], a[2], a[3]); break;
  case 5: r(loc, argc, microtask, a[0], a[1], a[2], a[3], a[4]); break;
  case 6: r(loc, argc, microtask, a[0], a[1], a[2], a[3], a[4], a[5]); break;
  case 7: r(loc, argc, microtask, a[0], a[1], a[2], a[3], a[4], a[5], a[6]); break;
  case 8: r(loc, argc, microtask, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); break;
  default:
    /* passing all 16 is harmless: the callee reads argc of them */
    r(loc, argc, microtask, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10],
      a[11], a[12], a[13], a[14], a[15]);
    break;
  }
  leave();
}
