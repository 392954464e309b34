/* Test hook for lud (not part of Rodinia). Link the program with
 *   -Wl,--wrap=lud_verify  and this file (compiled as C with -I<lud>/common).
 * Rodinia's lud prints no matrix; with -v it calls lud_verify(original, LU,
 * n). This wrapper writes the LU matrix (row-major, n*n floats) to
 * $RODINIA_DUMP (default rodinia_dump.txt) and then runs the real
 * lud_verify. */
#include <stdio.h>
#include <stdlib.h>
#include "common.h"

func_ret_t __real_lud_verify(float *m, float *lu, int size);

func_ret_t __wrap_lud_verify(float *m, float *lu, int size)
{
  const char *path = getenv("RODINIA_DUMP");
  FILE *f = fopen(path ? path : "rodinia_dump.txt", "w");
  int i;
  if (f) {
    fprintf(f, "size %d\nlu", size);
    for (i = 0; i < size * size; i++)
      fprintf(f, " %.9g", lu[i]);
    fprintf(f, "\n");
    fclose(f);
  }
  return __real_lud_verify(m, lu, size);
}
