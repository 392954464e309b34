// RUN: tessel-opt %s --tessel-form-dispatches --split-input-file --verify-diagnostics | FileCheck %s

// A matmul and its elementwise consumer become two dispatches; the fill,
// empty and scalar constant are cloned into the dispatches that use them.
// CHECK-LABEL: func.func private @matmul_relu_dispatch_0
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>, %[[B:.+]]: tensor<53x11xf32>) -> tensor<37x11xf32>
// CHECK-SAME: attributes {tessel.dispatch_function}
// CHECK: %[[E:.+]] = tensor.empty() : tensor<37x11xf32>
// CHECK: %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<37x11xf32>)
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[F]] : tensor<37x11xf32>)
// CHECK: return %[[MM]]
// CHECK-LABEL: func.func private @matmul_relu_dispatch_1
// CHECK-SAME: (%[[X:.+]]: tensor<37x11xf32>) -> tensor<37x11xf32>
// CHECK-SAME: attributes {tessel.dispatch_function}
// CHECK: %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E1:.+]] = tensor.empty() : tensor<37x11xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<37x11xf32>) outs(%[[E1]] : tensor<37x11xf32>)
// CHECK: arith.maximumf %{{.+}}, %[[CST]]
// CHECK-LABEL: func.func @matmul_relu
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>, %[[B:.+]]: tensor<53x11xf32>)
// CHECK-NEXT: %[[D0:.+]] = tessel.dispatch @matmul_relu_dispatch_0(%[[A]], %[[B]]) : (tensor<37x53xf32>, tensor<53x11xf32>) -> tensor<37x11xf32>
// CHECK-NEXT: %[[D1:.+]] = tessel.dispatch @matmul_relu_dispatch_1(%[[D0]]) : (tensor<37x11xf32>) -> tensor<37x11xf32>
// CHECK-NEXT: return %[[D1]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_relu(%a: tensor<37x53xf32>, %b: tensor<53x11xf32>) -> tensor<37x11xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x11xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<37x11xf32>) -> tensor<37x11xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<37x53xf32>, tensor<53x11xf32>) outs(%z : tensor<37x11xf32>) -> tensor<37x11xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<37x11xf32>) outs(%e : tensor<37x11xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %cst : f32
    linalg.yield %m : f32
  } -> tensor<37x11xf32>
  return %r : tensor<37x11xf32>
}

// -----

// A fill used by two roots is cloned into both; returned directly, it also
// becomes a dispatch of its own.
// CHECK-LABEL: func.func private @shared_fill_dispatch_0
// CHECK-COUNT-1: linalg.fill
// CHECK: arith.addf
// CHECK-LABEL: func.func private @shared_fill_dispatch_1
// CHECK-COUNT-1: linalg.fill
// CHECK: arith.mulf
// CHECK-LABEL: func.func private @shared_fill_dispatch_2()
// CHECK-SAME: -> tensor<37xf32> attributes {tessel.dispatch_function}
// CHECK-NEXT: arith.constant 3.000000e+00 : f32
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: %[[F:.+]] = linalg.fill
// CHECK-NEXT: return %[[F]]
// CHECK-LABEL: func.func @shared_fill
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[FD:.+]] = tessel.dispatch @shared_fill_dispatch_2() : () -> tensor<37xf32>
// CHECK-DAG: %[[G:.+]] = tessel.dispatch @shared_fill_dispatch_0(%{{.+}})
// CHECK: %[[H:.+]] = tessel.dispatch @shared_fill_dispatch_1(%[[G]])
// CHECK: return %[[G]], %[[H]], %[[FD]]
#id = affine_map<(d0) -> (d0)>
func.func @shared_fill(%a: tensor<37xf32>) -> (tensor<37xf32>, tensor<37xf32>, tensor<37xf32>) {
  %cst = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<37xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<37xf32>) outs(%f : tensor<37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<37xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%g : tensor<37xf32>) outs(%f : tensor<37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<37xf32>
  return %g, %h, %f : tensor<37xf32>, tensor<37xf32>, tensor<37xf32>
}

// -----

// A fill that is only returned becomes its own dispatch with no operands.
// CHECK-LABEL: func.func private @returned_fill_dispatch_0() -> tensor<37x53xf32>
// CHECK: linalg.fill
// CHECK-LABEL: func.func @returned_fill()
// CHECK-NEXT: %[[D:.+]] = tessel.dispatch @returned_fill_dispatch_0() : () -> tensor<37x53xf32>
// CHECK-NEXT: return %[[D]]
func.func @returned_fill() -> tensor<37x53xf32> {
  %cst = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<37x53xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  return %z : tensor<37x53xf32>
}

// -----

// Returning an argument and a dense constant needs no dispatch at all.
// CHECK: {{^// [-]{5}$}}
// CHECK-NOT: tessel.dispatch
// CHECK-LABEL: func.func @returns_arg_and_constant
// CHECK-SAME: (%[[A:.+]]: tensor<37xf32>)
// CHECK-NEXT: %[[C:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[A]], %[[C]]
// CHECK-NOT: tessel.dispatch
// CHECK: {{^// [-]{5}$}}
func.func @returns_arg_and_constant(%a: tensor<37xf32>) -> (tensor<37xf32>, tensor<2xf32>) {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %a, %c : tensor<37xf32>, tensor<2xf32>
}

// -----

// Reshapes stay on the host, between the dispatches they connect.
// CHECK-LABEL: func.func @reshape_between
// CHECK: %[[D0:.+]] = tessel.dispatch @reshape_between_dispatch_0(%{{.+}}) : (tensor<37x6xf32>) -> tensor<37x6xf32>
// CHECK-NEXT: %[[C:.+]] = tensor.collapse_shape %[[D0]] {{\[}}[0, 1]] : tensor<37x6xf32> into tensor<222xf32>
// CHECK-NEXT: %[[D1:.+]] = tessel.dispatch @reshape_between_dispatch_1(%[[C]]) : (tensor<222xf32>) -> tensor<222xf32>
// CHECK-NEXT: %[[X:.+]] = tensor.expand_shape %[[D1]]
// CHECK-NEXT: return %[[X]]
func.func @reshape_between(%a: tensor<37x6xf32>) -> tensor<111x2xf32> {
  %e = tensor.empty() : tensor<37x6xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<37x6xf32>) outs(%e : tensor<37x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<37x6xf32>
  %c = tensor.collapse_shape %g [[0, 1]] : tensor<37x6xf32> into tensor<222xf32>
  %e2 = tensor.empty() : tensor<222xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%c : tensor<222xf32>) outs(%e2 : tensor<222xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.sqrt %x : f32
    linalg.yield %s : f32
  } -> tensor<222xf32>
  %r = tensor.expand_shape %h [[0, 1]] output_shape [111, 2] : tensor<222xf32> into tensor<111x2xf32>
  return %r : tensor<111x2xf32>
}

// -----

// A reshape of an argument alone produces no dispatch.
// CHECK-LABEL: func.func @reshape_only
// CHECK-NEXT: tensor.expand_shape
// CHECK-NEXT: return
// CHECK-NOT: tessel.dispatch
// CHECK: {{^// [-]{5}$}}
func.func @reshape_only(%a: tensor<37x6xf32>) -> tensor<37x2x3xf32> {
  %0 = tensor.expand_shape %a [[0], [1, 2]] output_shape [37, 2, 3] : tensor<37x6xf32> into tensor<37x2x3xf32>
  return %0 : tensor<37x2x3xf32>
}

// -----

// A pad (fill + insert_slice) is one dispatch with the fill cloned in.
// CHECK-LABEL: func.func private @pad_dispatch_0
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>) -> tensor<40x58xf32>
// CHECK: %[[F:.+]] = linalg.fill
// CHECK: %[[I:.+]] = tensor.insert_slice %[[A]] into %[[F]][1, 2] [37, 53] [1, 1]
// CHECK: return %[[I]]
// CHECK-LABEL: func.func @pad
// CHECK-COUNT-1: tessel.dispatch
// CHECK-NOT: tessel.dispatch
// CHECK: {{^// [-]{5}$}}
func.func @pad(%a: tensor<37x53xf32>) -> tensor<40x58xf32> {
  %cst = arith.constant 1.500000e+00 : f32
  %0 = tensor.empty() : tensor<40x58xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<40x58xf32>) -> tensor<40x58xf32>
  %2 = tensor.insert_slice %a into %1[1, 2] [37, 53] [1, 1] : tensor<37x53xf32> into tensor<40x58xf32>
  return %2 : tensor<40x58xf32>
}

// -----

// An insert_slice chain (a concat) whose links have one use is one dispatch.
// CHECK-LABEL: func.func private @concat_dispatch_0
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>, %[[B:.+]]: tensor<37x5xf32>) -> tensor<37x58xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<37x58xf32>
// CHECK: %[[I0:.+]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [37, 53] [1, 1]
// CHECK: %[[I1:.+]] = tensor.insert_slice %[[B]] into %[[I0]][0, 53] [37, 5] [1, 1]
// CHECK: return %[[I1]]
// CHECK-NOT: @concat_dispatch_1
// CHECK-LABEL: func.func @concat
// CHECK-NEXT: tessel.dispatch @concat_dispatch_0(%{{.+}}, %{{.+}}) : (tensor<37x53xf32>, tensor<37x5xf32>) -> tensor<37x58xf32>
// CHECK-NEXT: return
func.func @concat(%a: tensor<37x53xf32>, %b: tensor<37x5xf32>) -> tensor<37x58xf32> {
  %0 = tensor.empty() : tensor<37x58xf32>
  %1 = tensor.insert_slice %a into %0[0, 0] [37, 53] [1, 1] : tensor<37x53xf32> into tensor<37x58xf32>
  %2 = tensor.insert_slice %b into %1[0, 53] [37, 5] [1, 1] : tensor<37x5xf32> into tensor<37x58xf32>
  return %2 : tensor<37x58xf32>
}

// -----

// An insert_slice whose result is also returned ends its group: the next
// insert_slice is a second dispatch that reads the first one's result.
// CHECK-LABEL: func.func private @chain_shared_dispatch_0
// CHECK-COUNT-1: tensor.insert_slice
// CHECK-LABEL: func.func private @chain_shared_dispatch_1
// CHECK-SAME: (%[[B:.+]]: tensor<4xf32>, %[[DEST:.+]]: tensor<8xf32>)
// CHECK: tensor.insert_slice %[[B]] into %[[DEST]][4] [4] [1]
// CHECK-LABEL: func.func @chain_shared
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: %[[D0:.+]] = tessel.dispatch @chain_shared_dispatch_0(%[[A]])
// CHECK: %[[D1:.+]] = tessel.dispatch @chain_shared_dispatch_1(%[[B]], %[[D0]])
// CHECK: return %[[D0]], %[[D1]]
func.func @chain_shared(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %0 = tensor.insert_slice %a into %e[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %1 = tensor.insert_slice %b into %0[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// extract_slice is cloned into its consumer; returned directly, it is a
// dispatch of its own. A returned tensor.empty stays on the host.
// CHECK-LABEL: func.func private @slices_dispatch_0
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>) -> tensor<10x53xf32>
// CHECK: %[[S:.+]] = tensor.extract_slice %[[A]][3, 0] [10, 53] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<10x53xf32>)
// CHECK-LABEL: func.func private @slices_dispatch_1
// CHECK-SAME: (%[[A:.+]]: tensor<37x53xf32>) -> tensor<5x53xf32>
// CHECK-NEXT: %[[S:.+]] = tensor.extract_slice %[[A]][0, 0] [5, 53] [1, 1]
// CHECK-NEXT: return %[[S]]
// CHECK-LABEL: func.func @slices
// CHECK-NOT: tensor.extract_slice
// CHECK-DAG: tessel.dispatch @slices_dispatch_0
// CHECK-DAG: tessel.dispatch @slices_dispatch_1
// CHECK-DAG: %[[E:.+]] = tensor.empty() : tensor<3xf32>
// CHECK: return {{.*}}, %[[E]]
func.func @slices(%a: tensor<37x53xf32>) -> (tensor<10x53xf32>, tensor<5x53xf32>, tensor<3xf32>) {
  %s = tensor.extract_slice %a[3, 0] [10, 53] [1, 1] : tensor<37x53xf32> to tensor<10x53xf32>
  %e = tensor.empty() : tensor<10x53xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<10x53xf32>) outs(%e : tensor<10x53xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = math.exp %x : f32
    linalg.yield %m : f32
  } -> tensor<10x53xf32>
  %t = tensor.extract_slice %a[0, 0] [5, 53] [1, 1] : tensor<37x53xf32> to tensor<5x53xf32>
  %u = tensor.empty() : tensor<3xf32>
  return %r, %t, %u : tensor<10x53xf32>, tensor<5x53xf32>, tensor<3xf32>
}

// -----

// Scalar ops (tensor.extract of another dispatch's result) are cloned into
// the consumer dispatch, which takes the tensor as an operand.
// CHECK-LABEL: func.func private @scalar_extract_dispatch_1
// CHECK-SAME: (%[[T:.+]]: tensor<37xf32>, %[[B:.+]]: tensor<37xf32>)
// CHECK: %[[V:.+]] = tensor.extract %[[T]][%{{.+}}] : tensor<37xf32>
// CHECK: linalg.generic {{.*}} ins(%[[B]] : tensor<37xf32>)
// CHECK: arith.mulf %{{.+}}, %[[V]] : f32
// CHECK-LABEL: func.func @scalar_extract
// CHECK-NOT: tensor.extract
// CHECK: %[[D0:.+]] = tessel.dispatch @scalar_extract_dispatch_0
// CHECK: tessel.dispatch @scalar_extract_dispatch_1(%[[D0]], %{{.+}})
#id = affine_map<(d0) -> (d0)>
func.func @scalar_extract(%a: tensor<37xf32>, %b: tensor<37xf32>) -> tensor<37xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<37xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<37xf32>) outs(%e : tensor<37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<37xf32>
  %s = tensor.extract %g[%c0] : tensor<37xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : tensor<37xf32>) outs(%e : tensor<37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.mulf %x, %s : f32
    linalg.yield %t : f32
  } -> tensor<37xf32>
  return %h : tensor<37xf32>
}

// -----

// A multi-result op is one dispatch with several results, kept in order.
// CHECK-LABEL: func.func private @multi_result_dispatch_0
// CHECK-SAME: -> (tensor<37xf32>, tensor<37xf32>)
// CHECK-LABEL: func.func @multi_result
// CHECK: %[[D:.+]]:2 = tessel.dispatch @multi_result_dispatch_0(%{{.+}}) : (tensor<37xf32>) -> (tensor<37xf32>, tensor<37xf32>)
// CHECK: return %[[D]]#1, %[[D]]#0
#id = affine_map<(d0) -> (d0)>
func.func @multi_result(%a: tensor<37xf32>) -> (tensor<37xf32>, tensor<37xf32>) {
  %e = tensor.empty() : tensor<37xf32>
  %g:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<37xf32>) outs(%e, %e : tensor<37xf32>, tensor<37xf32>) {
  ^bb0(%x: f32, %o: f32, %p: f32):
    %s = math.exp %x : f32
    %t = math.log %x : f32
    linalg.yield %s, %t : f32, f32
  } -> (tensor<37xf32>, tensor<37xf32>)
  return %g#1, %g#0 : tensor<37xf32>, tensor<37xf32>
}

// -----

// Calls left after inlining are rejected, naming the op.
func.func @calls(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' is not supported: calls must be inlinable}}
  %0 = func.call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A public function with several blocks is rejected.
// expected-error @+1 {{function 'branches' has control flow; Tessel needs one block}}
func.func @branches(%a: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  return %a : tensor<4xf32>
}
