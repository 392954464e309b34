/* Host memory bandwidth for bench/rodinia/run.py: a STREAM-style triad
 * a[i] = b[i] + s * c[i] over arrays far larger than the last-level cache,
 * with OpenMP's static schedule (pages first touched by the thread that
 * later uses them). Prints one line:
 *   triad threads=N mb_per_array=M best_gbs=X median_gbs=Y check=ok|FAIL
 * counting 24 bytes per element (two reads, one write), as STREAM does.
 * Usage: triad [megabytes per array, default 1024] [repetitions, default 15].
 * Exit 1 if the arrays cannot be allocated or the result is wrong. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

int main(int argc, char **argv) {
  long mb = argc > 1 ? atol(argv[1]) : 1024;
  int reps = argc > 2 ? atoi(argv[2]) : 15;
  if (mb <= 0 || reps <= 0 || reps > 1000) {
    fprintf(stderr, "usage: triad [megabytes per array > 0] [repetitions 1-1000]\n");
    return 1;
  }
  long n = mb * 1024 * 1024 / (long)sizeof(double);
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)),
         *c = malloc(n * sizeof(double));
  double *gbs = malloc(reps * sizeof(double));
  if (!a || !b || !c || !gbs) {
    fprintf(stderr, "triad: cannot allocate 3 x %ld MB\n", mb);
    return 1;
  }
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    a[i] = 0.0;
    b[i] = (double)(i % 1000);
    c[i] = (double)(i % 7);
  }
  const double s = 3.0;
  for (int r = 0; r < reps; ++r) {
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i)
      a[i] = b[i] + s * c[i];
    double t = omp_get_wtime() - t0;
    gbs[r] = 24.0 * (double)n / t / 1e9;
  }
  int ok = 1;
  for (long i = 0; i < n; i += 4099)
    if (a[i] != (double)(i % 1000) + s * (double)(i % 7))
      ok = 0;
  qsort(gbs, reps, sizeof(double), cmp);
  printf("triad threads=%d mb_per_array=%ld best_gbs=%.1f median_gbs=%.1f check=%s\n",
         omp_get_max_threads(), mb, gbs[reps - 1], gbs[reps / 2], ok ? "ok" : "FAIL");
  free(a);
  free(b);
  free(c);
  free(gbs);
  return ok ? 0 : 1;
}
