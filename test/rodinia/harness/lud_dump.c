/* Test hook for lud (not part of Rodinia). Link the program with
 *   -Wl,--wrap=lud_verify  and this file (compiled as C with -I<lud>/common).
 * Rodinia's lud prints no matrix; with -v it calls lud_verify(original, LU,
 * n). This wrapper writes the LU matrix (row-major, n*n floats) to
 * $RODINIA_DUMP (default rodinia_dump.txt) and then runs the real
 * lud_verify. For large matrices (bench/rodinia): $RODINIA_DUMP_MAX=K writes
 * only every ceil(n*n/K)-th entry, and $RODINIA_LUD_VERIFY=0 skips the real
 * lud_verify (it is O(n^3), serial). */
#include <stdio.h>
#include <stdlib.h>
#include "common.h"

func_ret_t __real_lud_verify(float *m, float *lu, int size);

func_ret_t __wrap_lud_verify(float *m, float *lu, int size)
{
  const char *path = getenv("RODINIA_DUMP");
  const char *max = getenv("RODINIA_DUMP_MAX");
  const char *verify = getenv("RODINIA_LUD_VERIFY");
  FILE *f = fopen(path ? path : "rodinia_dump.txt", "w");
  long i, n = (long)size * size, step = 1;
  if (max && atol(max) > 0)
    step = (n + atol(max) - 1) / atol(max);
  if (f) {
    fprintf(f, "size %d\nlu", size);
    for (i = 0; i < n; i += step)
      fprintf(f, " %.9g", lu[i]);
    fprintf(f, "\n");
    fclose(f);
  }
  if (verify && verify[0] == '0')
    return RET_SUCCESS;
  return __real_lud_verify(m, lu, size);
}
