// Dynamic shapes are rejected, naming the function, the argument/result and
// the type, and naming the op that produces one.
// RUN: rm -f %t.tmod
// RUN: not tessel-compile %s -o %t.tmod 2>&1 | FileCheck %s
// RUN: not test -e %t.tmod

// CHECK-DAG: {{.*}}tessel-compile-dynamic-shape.mlir:[[@LINE+4]]:1: error: function 'dyn' argument 0: dynamic shape tensor<?x53xf32> is not supported (Tessel compiles static shapes only)
// CHECK-DAG: {{.*}}tessel-compile-dynamic-shape.mlir:[[@LINE+3]]:1: error: function 'dyn' result 0: dynamic shape tensor<?x53xf32> is not supported
// CHECK-DAG: {{.*}}tessel-compile-dynamic-shape.mlir:[[@LINE+3]]:8: error: 'arith.addf': dynamic shape tensor<?x53xf32> is not supported
// CHECK-DAG: {{.*}}tessel-compile-dynamic-shape.mlir:[[@LINE+7]]:8: error: 'tensor.cast': dynamic shape tensor<?xf32> is not supported
func.func @dyn(%a: tensor<?x53xf32>) -> tensor<?x53xf32> {
  %0 = arith.addf %a, %a : tensor<?x53xf32>
  return %0 : tensor<?x53xf32>
}

func.func @dyn_inside(%a: tensor<37xf32>) -> tensor<37xf32> {
  %0 = tensor.cast %a : tensor<37xf32> to tensor<?xf32>
  %1 = tensor.cast %0 : tensor<?xf32> to tensor<37xf32>
  return %1 : tensor<37xf32>
}
