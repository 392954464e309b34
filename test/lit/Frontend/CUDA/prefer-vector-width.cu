// tessel-cc asks LLVM's vectorizers for 512-bit vectors on CPUs that have
// them (x86-64-v4 tunes for 256): thread loops of 16-thread blocks then
// fill a zmm register per row. --tessel-cpu-prefer-vector-width=0 keeps the
// CPU's own tuning (no attribute).
// RUN: rm -rf %t && tessel-cc %s --emit=tmod --target=cpu --cpu=x86-64-v4 --dump-intermediates=%t -o %t.tmod
// RUN: FileCheck %s < %t/cpu-kernels.ll
// RUN: rm -rf %t.tuned && tessel-cc %s --emit=tmod --target=cpu --cpu=x86-64-v4 --tessel-cpu-prefer-vector-width=0 --dump-intermediates=%t.tuned -o %t.tuned.tmod
// RUN: FileCheck %s --check-prefix=TUNED < %t.tuned/cpu-kernels.ll

// CHECK: define {{.*}}@_Z4axpyfPKfPfi(
// CHECK: attributes #{{[0-9]+}} = {{{.*}}"prefer-vector-width"="512"
// TUNED-NOT: prefer-vector-width

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
