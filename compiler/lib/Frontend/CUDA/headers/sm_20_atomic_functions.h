/* Tessel CUDA headers (see README.md): the declarations of the toolkit's
 * sm_20_atomic_functions.h are part of the forced include __tessel_cuda_runtime.h. */
#include "__tessel_cuda_runtime.h"
