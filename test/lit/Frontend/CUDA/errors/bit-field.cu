// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A record with bit-fields (the error names the first field).

struct Flags {
  // CHECK: bit-field.cu:[[@LINE+1]]:12: error: bit-field 'a' is not supported
  unsigned a : 3;
  unsigned b : 5;
};
__global__ void k(Flags *f, int *out) { out[0] = f->a; }
