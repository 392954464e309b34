// RUN: not tessel-cc %s --emit=mlir 2>&1 | FileCheck %s --implicit-check-not=func.func
//
// A range-based for loop.

__global__ void k(int *out) {
  int v[3] = {1, 2, 3};
  int s = 0;
  // CHECK: range-for.cu:[[@LINE+1]]:3: error: statement 'CXXForRangeStmt' is not supported
  for (int x : v)
    s += x;
  out[0] = s;
}
