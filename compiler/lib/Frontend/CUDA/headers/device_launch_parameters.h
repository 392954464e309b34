/* Tessel CUDA headers (see README.md): threadIdx, blockIdx, blockDim, gridDim
 * and warpSize come from clang's __clang_cuda_builtin_vars.h, which the
 * forced include __tessel_cuda_runtime.h already includes. */
#include "__tessel_cuda_runtime.h"
