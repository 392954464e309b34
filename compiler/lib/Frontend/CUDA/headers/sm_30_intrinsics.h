/* Tessel CUDA headers (see README.md): the declarations of the toolkit's
 * sm_30_intrinsics.h are part of the forced include __tessel_cuda_runtime.h. */
#include "__tessel_cuda_runtime.h"
