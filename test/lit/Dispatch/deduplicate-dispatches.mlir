// RUN: tessel-opt %s --tessel-deduplicate-dispatches | FileCheck %s

// Two layers' dispatches that are the same function (but for their names)
// become one, called twice; one that differs (here: its constant) stays.
// CHECK-LABEL: func.func private @layers_dispatch_0(
// CHECK-NOT: @layers_dispatch_1(
// CHECK-LABEL: func.func private @layers_dispatch_2(
// CHECK: arith.constant 3.000000e+00 : f32
// CHECK-LABEL: func.func @layers(
// CHECK: %[[A:.+]] = tessel.dispatch @layers_dispatch_0(%arg0)
// CHECK: %[[B:.+]] = tessel.dispatch @layers_dispatch_0(%[[A]])
// CHECK: tessel.dispatch @layers_dispatch_2(%[[B]])
#id = affine_map<(d0) -> (d0)>
func.func private @layers_dispatch_0(%x: tensor<8xf32>) -> tensor<8xf32> attributes {tessel.dispatch_function} {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 2.0 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func private @layers_dispatch_1(%y: tensor<8xf32>) -> tensor<8xf32> attributes {tessel.dispatch_function} {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%y : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 2.0 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func private @layers_dispatch_2(%x: tensor<8xf32>) -> tensor<8xf32> attributes {tessel.dispatch_function} {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 3.0 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @layers(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = tessel.dispatch @layers_dispatch_0(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %b = tessel.dispatch @layers_dispatch_1(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %c = tessel.dispatch @layers_dispatch_2(%b) : (tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}
