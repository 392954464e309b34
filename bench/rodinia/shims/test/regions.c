#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
  int r, n = 0;
  omp_set_num_threads(1); /* a no-op under omp_region.so */
  for (r = 0; r < 3; r++) {
#pragma omp parallel reduction(+ : n)
    {
      n += 1;
      usleep(20000);
    }
  }
#pragma omp parallel for schedule(dynamic)
  for (r = 0; r < 4; r++)
    usleep(10000);
  printf("threads %d\n", n / 3);
  return 0;
}
