// An op outside the accepted dialects (scf.forall: host control flow is
// scf.if, scf.for and scf.while) is named at its location; its body is not
// reported, and nothing is written.
// RUN: rm -f %t.tmod
// RUN: not tessel-compile %s -o %t.tmod 2>&1 | FileCheck %s
// RUN: not test -e %t.tmod

// CHECK: {{.*}}tessel-compile-unsupported-op.mlir:[[@LINE+3]]:8: error: unsupported op 'scf.forall'
// CHECK-NOT: error: unsupported op 'tensor.parallel_insert_slice'
func.func @loop(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %a) -> tensor<4xf32> {
    %x = tensor.extract_slice %a[%i] [1] [1] : tensor<4xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %x into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return %r : tensor<4xf32>
}

// A tensor op Tessel does not lower is named too, in the same run.
// CHECK: {{.*}}tessel-compile-unsupported-op.mlir:[[@LINE+2]]:8: error: unsupported op 'tensor.reshape'
func.func @reshape(%a: tensor<6xf32>, %s: tensor<2xi64>) -> tensor<2x3xf32> {
  %0 = tensor.reshape %a(%s) : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
