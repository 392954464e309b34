/* Tessel CUDA headers: see host_defines.h in the parent directory. */
#include "../host_defines.h"
