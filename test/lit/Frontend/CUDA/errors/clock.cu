// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// clock64(): an unsupported special register, reported in clang's wrapper.

__global__ void k(long long *out) {
  // CHECK: {{.*}}__clang_cuda_device_functions.h:{{[0-9]+}}:{{[0-9]+}}: error: special register '__nvvm_read_ptx_sreg_clock64' is not supported
  out[0] = clock64();
}
