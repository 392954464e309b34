/* LD_PRELOAD shim for the nvcc side of the Rodinia benchmark
 * (bench/rodinia/run.py): sums the GPU time of every kernel launch of a
 * program linked with `nvcc -cudart shared`.
 *
 * Each launch (cudaLaunchKernel, and __cudaLaunchKernel, which the host
 * stubs of nvcc 13 call; the _ptsz variants too) gets a cudaEventRecord on
 * its stream before and after; finished pairs are read back
 * (cudaEventElapsedTime) while the program runs, the rest at exit or at
 * cudaDeviceReset. The same quantity as Tessel's TESSEL_CUDART_TIMING on
 * cuda: from the GPU reaching the first event to the kernel's end.
 *
 * At exit it writes one line
 *     cuda-region: launches=N kernel_ms=X
 * appended to the file $RODINIA_REGION_OUT, or to stderr if that is unset.
 * The CUDA runtime's functions are looked up in the process (the program's
 * libcudart.so), so no CUDA headers or libraries are needed to build it:
 *     cc -O2 -shared -fPIC cuda_region.c -o cuda_region.so -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int err_t;            /* cudaError_t */
typedef void *event_t;        /* cudaEvent_t */
typedef void *stream_t;       /* cudaStream_t */
typedef struct { unsigned x, y, z; } dim3_t;
typedef err_t (*launch_t)(const void *, dim3_t, dim3_t, void **, size_t, stream_t);

static err_t (*ev_create)(event_t *);
static err_t (*ev_record)(event_t, stream_t);
static err_t (*ev_record_ptsz)(event_t, stream_t);
static err_t (*ev_query)(event_t);
static err_t (*ev_sync)(event_t);
static err_t (*ev_elapsed)(float *, event_t, event_t);
static err_t (*ev_destroy)(event_t);

#define MAX_PENDING 4096
static event_t pend_start[MAX_PENDING], pend_stop[MAX_PENDING];
static int head, count;                 /* ring of pending pairs */
static event_t spare[2 * MAX_PENDING];  /* events whose pair was read */
static int nspare;
static long launches, untimed;
static double total_ms;
static int cuda_error; /* the first error an event call returned (a kernel fault) */
static int ready, broken, in_launch;

static void *need(const char *name)
{
  void *p = dlsym(RTLD_DEFAULT, name);
  if (!p)
    p = dlsym(RTLD_NEXT, name);
  return p;
}

static void report(void);

static int init(void)
{
  if (ready)
    return !broken;
  ready = 1;
  ev_create = need("cudaEventCreate");
  ev_record = need("cudaEventRecord");
  ev_record_ptsz = need("cudaEventRecord_ptsz");
  ev_query = need("cudaEventQuery");
  ev_sync = need("cudaEventSynchronize");
  ev_elapsed = need("cudaEventElapsedTime");
  ev_destroy = need("cudaEventDestroy");
  if (!ev_create || !ev_record || !ev_query || !ev_sync || !ev_elapsed || !ev_destroy) {
    fprintf(stderr, "cuda_region.so: the CUDA runtime's event functions are not in this "
                    "process (link the program with -cudart shared)\n");
    broken = 1;
  }
  /* Registered after the CUDA runtime's own exit handler (it is set up by
   * the program's earlier CUDA calls), so it runs before that tears the
   * context down. */
  atexit(report);
  return !broken;
}

static event_t get_event(void)
{
  event_t e = NULL;
  if (nspare)
    return spare[--nspare];
  if (ev_create(&e) != 0)
    return NULL;
  return e;
}

static void put_event(event_t e)
{
  if (nspare < 2 * MAX_PENDING)
    spare[nspare++] = e;
  else
    ev_destroy(e);
}

/* Reads pending pairs, oldest first; waits for them if `wait`. */
static void drain(int wait)
{
  while (count > 0) {
    event_t a = pend_start[head], b = pend_stop[head];
    float ms = 0;
    err_t r;
    if (wait) {
      if ((r = ev_sync(b)) != 0 && !cuda_error)
        cuda_error = r;
    } else if (ev_query(b) != 0)
      return;
    if ((r = ev_elapsed(&ms, a, b)) == 0)
      total_ms += ms;
    else {
      untimed++;
      /* 600 (not ready) cannot happen after a sync; anything else is the
         sticky error of a faulted kernel */
      if (r != 600 && !cuda_error)
        cuda_error = r;
    }
    put_event(a);
    put_event(b);
    head = (head + 1) % MAX_PENDING;
    count--;
  }
}

static err_t timed(launch_t real, int ptsz, const void *f, dim3_t g, dim3_t b, void **args,
                   size_t shmem, stream_t s)
{
  err_t (*rec)(event_t, stream_t);
  event_t e0, e1;
  err_t r;
  if (in_launch || !init())
    return real(f, g, b, args, shmem, s);
  rec = ptsz && ev_record_ptsz ? ev_record_ptsz : ev_record;
  if (count == MAX_PENDING)
    drain(1);
  e0 = get_event();
  e1 = get_event();
  if (!e0 || !e1 || rec(e0, s) != 0) {
    untimed++;
    return real(f, g, b, args, shmem, s);
  }
  in_launch = 1;
  r = real(f, g, b, args, shmem, s);
  in_launch = 0;
  if (r != 0 || rec(e1, s) != 0) {
    put_event(e0);
    put_event(e1);
    return r;
  }
  pend_start[(head + count) % MAX_PENDING] = e0;
  pend_stop[(head + count) % MAX_PENDING] = e1;
  count++;
  launches++;
  drain(0);
  return r;
}

#define WRAP(name, ptsz)                                                                   \
  err_t name(const void *f, dim3_t g, dim3_t b, void **args, size_t shmem, stream_t s)    \
  {                                                                                        \
    static launch_t real;                                                                  \
    if (!real)                                                                             \
      real = (launch_t)dlsym(RTLD_NEXT, #name);                                            \
    if (!real) {                                                                           \
      fprintf(stderr, "cuda_region.so: %s not found\n", #name);                           \
      abort();                                                                             \
    }                                                                                      \
    return timed(real, ptsz, f, g, b, args, shmem, s);                                     \
  }
WRAP(cudaLaunchKernel, 0)
WRAP(cudaLaunchKernel_ptsz, 1)
WRAP(__cudaLaunchKernel, 0)
WRAP(__cudaLaunchKernel_ptsz, 1)

err_t cudaDeviceReset(void)
{
  static err_t (*real)(void);
  if (!real)
    real = (err_t(*)(void))dlsym(RTLD_NEXT, "cudaDeviceReset");
  if (ready && !broken) {
    drain(1);
    while (nspare)
      ev_destroy(spare[--nspare]);
  }
  return real ? real() : 1;
}

static int reported;

static void report(void)
{
  const char *path = getenv("RODINIA_REGION_OUT");
  FILE *f;
  if (reported)
    return;
  reported = 1;
  if (ready && !broken)
    drain(1);
  f = path && *path ? fopen(path, "a") : NULL;
  fprintf(f ? f : stderr, "cuda-region: launches=%ld kernel_ms=%.3f%s", launches, total_ms,
          untimed ? " (some launches untimed)" : "");
  /* The program may ignore CUDA errors (Rodinia's do): then its kernels did
     not run and its output is no reference. */
  if (cuda_error)
    fprintf(f ? f : stderr, " cuda_error=%d", cuda_error);
  fprintf(f ? f : stderr, "\n");
  if (f)
    fclose(f);
}

/* A program that launched nothing still gets its line. */
__attribute__((destructor)) static void report_if_idle(void)
{
  if (!ready)
    report();
}
