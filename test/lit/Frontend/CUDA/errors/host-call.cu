// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A call of a host function from a kernel (clang rejects it).

int host_only(int x) { return x; }
__global__ void k(int *out) {
  // CHECK: host-call.cu:[[@LINE+1]]:12: error: no matching function for call to 'host_only'
  out[0] = host_only(out[1]);
}
