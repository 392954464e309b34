/* Tessel CUDA headers (see README.md): the declarations of the toolkit's
 * cuda_device_runtime_api.h are part of the forced include __tessel_cuda_runtime.h. */
#include "__tessel_cuda_runtime.h"
