// RUN: tessel-opt %s --tessel-input-pipeline="attention-targets=cuda,cpu" | FileCheck %s
// RUN: tessel-opt %s --tessel-input-pipeline | FileCheck %s --check-prefix=NONE

// The input pipeline passes the module's targets to tessel-legalize-input,
// whose reduction splits are the targets' (TargetTraits): a sum of 2^20
// elements into one becomes 1024 partial sums of 1024 and a sum of the
// partials for cuda and cpu, and stays whole without targets.
// CHECK-LABEL: func.func @full_sum
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [1024, 1024]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%{{.+}} : tensor<1024xf32>)
// NONE-LABEL: func.func @full_sum
// NONE-NOT: tensor.expand_shape
// NONE: linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%{{.+}} : tensor<1048576xf32>)
func.func @full_sum(%a: tensor<1048576xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%a : tensor<1048576xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}
