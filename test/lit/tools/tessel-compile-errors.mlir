// tessel-compile on a file that does not parse: the parser's diagnostic
// with file:line:col, a non-zero exit and no output file.
// RUN: rm -f %t.tmod
// RUN: not tessel-compile %s -o %t.tmod 2>&1 | FileCheck %s
// RUN: not test -e %t.tmod

// CHECK: {{.*}}tessel-compile-errors.mlir:[[@LINE+4]]:10: error: use of value '%0' expects different type than prior uses: 'tensor<4xi32>' vs 'tensor<4xf32>'
// CHECK-NOT: error:
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xi32>
}
