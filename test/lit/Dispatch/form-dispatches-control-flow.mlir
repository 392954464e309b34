// RUN: tessel-opt %s --tessel-form-dispatches --split-input-file --verify-diagnostics | FileCheck %s

// Host control flow stays in the host program: computations in a loop body
// become dispatches inside it, the trip count read from the device and the
// host arithmetic on it stay, and a constant both sides need is cloned into
// the dispatch while the host keeps its own.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func private @loop_dispatch_0
// CHECK-SAME: (%[[X:.*]]: tensor<37xf32>) -> tensor<37xf32>
// CHECK: arith.constant 2
// CHECK: linalg.generic
// CHECK-LABEL: func.func @loop
// CHECK: %[[N:.*]] = tensor.extract %{{.*}}[] : tensor<i32>
// CHECK: %[[COUNT:.*]] = arith.index_cast %[[N]]
// CHECK: %[[UB:.*]] = arith.muli %[[COUNT]], %{{.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]] step %{{.*}} iter_args(%[[C:.*]] = %{{.*}})
// CHECK-NEXT: %[[D:.*]] = tessel.dispatch @loop_dispatch_0(%[[C]])
// CHECK-NEXT: scf.yield %[[D]]
func.func @loop(%a: tensor<37xf32>, %n: tensor<i32>) -> tensor<37xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ni = tensor.extract %n[] : tensor<i32>
  %count = arith.index_cast %ni : i32 to index
  %ub = arith.muli %count, %c2 : index
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%x = %a) -> tensor<37xf32> {
    %e = tensor.empty() : tensor<37xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<37xf32>) outs(%e : tensor<37xf32>) {
    ^bb0(%v: f32, %o: f32):
      %two = arith.index_cast %c2 : index to i32
      %f = arith.sitofp %two : i32 to f32
      %w = arith.mulf %v, %f : f32
      linalg.yield %w : f32
    } -> tensor<37xf32>
    scf.yield %y : tensor<37xf32>
  }
  return %r : tensor<37xf32>
}

// -----

// scf.if and scf.while: each region's computations are dispatched in it;
// the condition the while loop's before-region computes on the device is
// read there (tensor.extract), and a yielded argument needs no dispatch.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @branches
// CHECK: scf.if %{{.*}} -> (tensor<8xf32>) {
// CHECK-NEXT: tessel.dispatch @branches_dispatch_0
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{.*}} : tensor<8xf32>
// CHECK: scf.while
// CHECK: %[[LT:.*]] = tessel.dispatch @branches_dispatch_1
// CHECK-NEXT: %[[C:.*]] = tensor.extract %[[LT]][]
// CHECK-NEXT: scf.condition(%[[C]])
// CHECK: } do {
// CHECK: tessel.dispatch @branches_dispatch_2
// CHECK: tessel.dispatch @branches_dispatch_3
func.func @branches(%a: tensor<8xf32>, %p: tensor<i1>, %k0: tensor<i32>) -> (tensor<8xf32>, tensor<i32>) {
  %c = tensor.extract %p[] : tensor<i1>
  %r = scf.if %c -> tensor<8xf32> {
    %s = arith.addf %a, %a : tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  } else {
    scf.yield %a : tensor<8xf32>
  }
  %w:2 = scf.while (%k = %k0, %v = %r) : (tensor<i32>, tensor<8xf32>) -> (tensor<i32>, tensor<8xf32>) {
    %ten = arith.constant dense<10> : tensor<i32>
    %lt = arith.cmpi slt, %k, %ten : tensor<i32>
    %b = tensor.extract %lt[] : tensor<i1>
    scf.condition(%b) %k, %v : tensor<i32>, tensor<8xf32>
  } do {
  ^bb0(%k: tensor<i32>, %v: tensor<8xf32>):
    %one = arith.constant dense<1> : tensor<i32>
    %k2 = arith.addi %k, %one : tensor<i32>
    %v2 = arith.mulf %v, %v : tensor<8xf32>
    scf.yield %k2, %v2 : tensor<i32>, tensor<8xf32>
  }
  return %w#1, %w#0 : tensor<8xf32>, tensor<i32>
}

// -----

// A loop's induction variable inside a computation reaches the kernel as a
// one-element tensor the host builds (i64 for an index) and the kernel reads.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func private @iv_in_kernel_dispatch_0
// CHECK-SAME: (%{{.*}}: tensor<5xf32>, %[[T:.*]]: tensor<i64>)
// CHECK: %[[E:.*]] = tensor.extract %[[T]][] : tensor<i64>
// CHECK: %[[I:.*]] = arith.index_cast %[[E]] : i64 to index
// CHECK: arith.index_cast %[[I]] : index to i32
// CHECK-LABEL: func.func @iv_in_kernel
// CHECK: scf.for %[[IV:.*]] = {{.*}} iter_args(%[[X:.*]] = %{{.*}})
// CHECK-NEXT: %[[C:.*]] = arith.index_cast %[[IV]] : index to i64
// CHECK-NEXT: %[[S:.*]] = tensor.from_elements %[[C]] {tessel.host_scalar_tensor} : tensor<i64>
// CHECK-NEXT: tessel.dispatch @iv_in_kernel_dispatch_0(%[[X]], %[[S]])
func.func @iv_in_kernel(%a: tensor<5xf32>) -> tensor<5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a) -> tensor<5xf32> {
    %e = tensor.empty() : tensor<5xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<5xf32>) outs(%e : tensor<5xf32>) {
    ^bb0(%v: f32, %o: f32):
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %w = arith.addf %v, %f : f32
      linalg.yield %w : f32
    } -> tensor<5xf32>
    scf.yield %y : tensor<5xf32>
  }
  return %r : tensor<5xf32>
}

// -----

// A float the host would have to compute has no way into a kernel.
#id = affine_map<(d0) -> (d0)>
func.func @float_scalar(%a: tensor<5xf32>, %s: tensor<f32>) -> tensor<5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %f0 = tensor.extract %s[] : tensor<f32>
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a, %f = %f0) -> (tensor<5xf32>, f32) {
    %e = tensor.empty() : tensor<5xf32>
    // expected-error @+1 {{a value of type 'f32' computed by the host program is used inside a computation: host programs pass integers and indices to kernels, not floats}}
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<5xf32>) outs(%e : tensor<5xf32>) {
    ^bb0(%v: f32, %o: f32):
      %w = arith.addf %v, %f : f32
      linalg.yield %w : f32
    } -> tensor<5xf32>
    scf.yield %y, %f : tensor<5xf32>, f32
  }
  return %r#0 : tensor<5xf32>
}
