/* LD_PRELOAD shim (not part of Rodinia): time() returns a fixed value
 * ($RODINIA_FIXED_TIME, default 1000). particlefilter seeds its generators
 * with time(0)*i; fixing time makes runs repeatable and comparable. Build:
 *   gcc -shared -fPIC -O2 fixed_time.c -o fixed_time.so */
#include <stdlib.h>
#include <time.h>

time_t time(time_t *t)
{
  const char *s = getenv("RODINIA_FIXED_TIME");
  time_t v = s ? (time_t)atol(s) : (time_t)1000;
  if (t)
    *t = v;
  return v;
}
