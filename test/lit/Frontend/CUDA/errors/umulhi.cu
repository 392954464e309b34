// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// __umulhi: a libdevice function without a translation, reported in clang's wrapper.

__global__ void k(unsigned *out) {
  // CHECK: {{.*}}__clang_cuda_device_functions.h:{{[0-9]+}}:{{[0-9]+}}: error: libdevice function '__nv_umulhi' is not supported
  out[0] = __umulhi(out[1], out[2]);
}
