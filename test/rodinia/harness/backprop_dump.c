/* Test hook for backprop (not part of Rodinia). Link the program with
 *   -Wl,--wrap=bpnn_free  and this file (compiled as C with -I<the program's
 *   directory>, for backprop.h).
 * Rodinia's backprop prints no numbers: facetrain.c trains one step and frees
 * the network. This wrapper writes the trained network's layers to
 * $RODINIA_DUMP (default rodinia_dump.txt in the working directory) before
 * calling the real bpnn_free. Only entries the program defines are written
 * (index 0 of the unit/delta vectors is never set by the CUDA path).
 * $RODINIA_DUMP_MAX=K (bench/rodinia, large inputs) writes only every
 * ceil(len/K)-th entry of each vector. */
#include <stdio.h>
#include <stdlib.h>
#include "backprop.h"

void __real_bpnn_free(BPNN *net);

static int step(int len)
{
  const char *max = getenv("RODINIA_DUMP_MAX");
  return max && atol(max) > 0 ? (int)((len + atol(max) - 1) / atol(max)) : 1;
}

static void vec(FILE *f, const char *name, const float *v, int lo, int hi)
{
  int i, s = step(hi - lo + 1);
  fprintf(f, "%s", name);
  for (i = lo; i <= hi; i += s)
    fprintf(f, " %.9g", v[i]);
  fprintf(f, "\n");
}

void __wrap_bpnn_free(BPNN *net)
{
  const char *path = getenv("RODINIA_DUMP");
  FILE *f = fopen(path ? path : "rodinia_dump.txt", "w");
  int k, hid = net->hidden_n, out = net->output_n, s = step(hid + 1);
  if (f) {
    fprintf(f, "sizes %d %d %d\n", net->input_n, hid, out);
    vec(f, "input_units", net->input_units, 1, net->input_n);
    vec(f, "hidden_units", net->hidden_units, 1, hid);
    vec(f, "output_units", net->output_units, 1, out);
    vec(f, "output_delta", net->output_delta, 1, out);
    vec(f, "hidden_delta", net->hidden_delta, 1, hid);
    fprintf(f, "hidden_weights");
    for (k = 0; k <= hid; k += s)
      fprintf(f, " %.9g", net->hidden_weights[k][1]);
    fprintf(f, "\nhidden_prev_weights");
    for (k = 0; k <= hid; k += s)
      fprintf(f, " %.9g", net->hidden_prev_weights[k][1]);
    fprintf(f, "\n");
    fclose(f);
  }
  __real_bpnn_free(net);
}
