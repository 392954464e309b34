// RUN: tessel-opt %s --tessel-cpu-distribute-to-workgroups --split-input-file --verify-diagnostics | FileCheck %s

// A 2-D workgroup forall: its last dimension maps to wg_x (kernel argument
// 1), the first to wg_y (argument 2); iv = id * step + lb; the count is
// ceil((ub - lb) / step) per dimension, listed as x, y, z.
// CHECK-LABEL: func.func private @forall_2d
// CHECK-SAME: (%[[TABLE:.+]]: !llvm.ptr, %[[WX:.+]]: index, %[[WY:.+]]: index, %[[WZ:.+]]: index)
// CHECK-SAME: tessel.workgroup_count = array<i64: 2, 4, 1>
// CHECK-NOT: scf.forall
// CHECK: %[[C129:.+]] = arith.constant 129 : index
// CHECK-NEXT: %[[MY:.+]] = arith.muli %[[WY]], %[[C129]] : index
// CHECK-NEXT: %[[LB0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[I:.+]] = arith.addi %[[MY]], %[[LB0]] : index
// CHECK-NEXT: %[[C256:.+]] = arith.constant 256 : index
// CHECK-NEXT: %[[MX:.+]] = arith.muli %[[WX]], %[[C256]] : index
// CHECK-NEXT: %[[LB1:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[J:.+]] = arith.addi %[[MX]], %[[LB1]] : index
// CHECK: memref.store %{{.+}}, %{{.+}}[%[[I]], %[[J]]] : memref<513x300xf32>
// CHECK-NOT: scf.forall
// CHECK: return
func.func private @forall_2d(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 1.0 : f32
  %m = tessel.binding %t[0] : !llvm.ptr -> memref<513x300xf32>
  scf.forall (%i, %j) = (0, 0) to (513, 300) step (129, 256) {
    memref.store %cst, %m[%i, %j] : memref<513x300xf32>
  } {tessel.workgroups}
  return
}

// -----

// A 3-D forall with non-zero lower bounds: dims map to z, y, x in order.
// CHECK-LABEL: func.func private @forall_3d
// CHECK-SAME: (%{{.+}}: !llvm.ptr, %[[WX:.+]]: index, %[[WY:.+]]: index, %[[WZ:.+]]: index)
// CHECK-SAME: tessel.workgroup_count = array<i64: 5, 3, 7>
// CHECK: %[[S0:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[MZ:.+]] = arith.muli %[[WZ]], %[[S0]] : index
// CHECK-NEXT: %[[L0:.+]] = arith.constant 2 : index
// CHECK-NEXT: %[[A:.+]] = arith.addi %[[MZ]], %[[L0]] : index
// CHECK-NEXT: %[[S1:.+]] = arith.constant 4 : index
// CHECK-NEXT: %[[MY:.+]] = arith.muli %[[WY]], %[[S1]] : index
// CHECK-NEXT: %[[L1:.+]] = arith.constant 3 : index
// CHECK-NEXT: %[[B:.+]] = arith.addi %[[MY]], %[[L1]] : index
// CHECK-NEXT: %[[S2:.+]] = arith.constant 8 : index
// CHECK-NEXT: %[[MX:.+]] = arith.muli %[[WX]], %[[S2]] : index
// CHECK-NEXT: %[[L2:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[C:.+]] = arith.addi %[[MX]], %[[L2]] : index
// CHECK: memref.store %{{.+}}, %{{.+}}[%[[A]], %[[B]], %[[C]]]
func.func private @forall_3d(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 1.0 : f32
  %m = tessel.binding %t[0] : !llvm.ptr -> memref<9x15x37xf32>
  scf.forall (%a, %b, %c) = (2, 3, 1) to (9, 15, 37) step (1, 4, 8) {
    memref.store %cst, %m[%a, %b, %c] : memref<9x15x37xf32>
  } {tessel.workgroups}
  return
}

// -----

// A kernel without a forall runs as a single workgroup.
// CHECK-LABEL: func.func private @serial
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>
// CHECK: memref.store
func.func private @serial(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %m = tessel.binding %t[0] : !llvm.ptr -> memref<37xf32>
  memref.store %cst, %m[%c0] : memref<37xf32>
  return
}

// -----

// Nested loops inside the forall are inlined unchanged; functions that are
// not kernels get no workgroup count.
// CHECK-LABEL: func.func private @nested_for
// CHECK-SAME: tessel.workgroup_count = array<i64: 3, 1, 1>
// CHECK-NOT: scf.forall
// CHECK: scf.for
// CHECK-LABEL: func.func @host
// CHECK-NOT: tessel.workgroup_count
// CHECK: scf.forall
func.func private @nested_for(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %cst = arith.constant 1.0 : f32
  %m = tessel.binding %t[0] : !llvm.ptr -> memref<37xf32>
  scf.forall (%i) = (0) to (37) step (16) {
    scf.for %k = %c0 to %c16 step %c1 {
      %idx = arith.addi %i, %k : index
      memref.store %cst, %m[%idx] : memref<37xf32>
    }
  } {tessel.workgroups}
  return
}
func.func @host(%m: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    memref.store %cst, %m[%i] : memref<4xf32>
  }
  return
}

// -----

// Two workgroup foralls in one kernel are rejected.
// expected-error @+1 {{expected at most one workgroup scf.forall, got 2}}
func.func private @two_foralls(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 1.0 : f32
  %m = tessel.binding %t[0] : !llvm.ptr -> memref<37xf32>
  scf.forall (%i) in (37) {
    memref.store %cst, %m[%i] : memref<37xf32>
  }
  scf.forall (%i) in (37) {
    memref.store %cst, %m[%i] : memref<37xf32>
  }
  return
}

// -----

// A forall that still has tensor results (not bufferized) is rejected.
func.func private @tensor_forall(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %e = tensor.empty() : tensor<37xf32>
  // expected-error @+1 {{workgroup scf.forall must be bufferized}}
  %r = scf.forall (%i) in (37) shared_outs(%o = %e) -> (tensor<37xf32>) {
    scf.forall.in_parallel {
    }
  }
  return
}

// -----

// More than three forall dimensions cannot map to workgroup ids.
func.func private @forall_4d(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 1.0 : f32
  %m = tessel.binding %t[0] : !llvm.ptr -> memref<2x2x2x2xf32>
  // expected-error @+1 {{workgroup scf.forall has more than 3 dims}}
  scf.forall (%a, %b, %c, %d) in (2, 2, 2, 2) {
    memref.store %cst, %m[%a, %b, %c, %d] : memref<2x2x2x2xf32>
  }
  return
}

// -----

// Bounds that are not affine functions of the push constants (here a
// workgroup id) cannot give a workgroup count.
func.func private @dynamic_forall(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 1.0 : f32
  %m = tessel.binding %t[0] : !llvm.ptr -> memref<37xf32>
  // expected-error @+1 {{the workgroup count depends on dynamic extents through a value, which a workgroup-count program cannot express}}
  scf.forall (%i) in (%x) {
    memref.store %cst, %m[%i] : memref<37xf32>
  }
  return
}

// -----

// Bounds computed from push constants (dynamic extents): the workgroup count
// is an affine map of them, x from the last forall dimension.
// CHECK: #[[COUNT:.+]] = affine_map<()[s0, s1] -> (s1 ceildiv 8, s0 ceildiv 4, 1)>
// CHECK-LABEL: func.func private @push_constant_bounds
// CHECK-SAME: tessel.push_constant_count = 2 : i64
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>
// CHECK-SAME: tessel.workgroup_count_map = #[[COUNT]]
// CHECK-NOT: scf.forall
func.func private @push_constant_bounds(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel, tessel.push_constant_count = 2 : i64} {
  %cst = arith.constant 1.0 : f32
  %m = tessel.binding %t[0] : !llvm.ptr -> memref<f32>
  %rows = tessel.push_constant 0 : index
  %cols = tessel.push_constant 1 : index
  scf.forall (%i, %j) = (0, 0) to (%rows, %cols) step (4, 8) {
    memref.store %cst, %m[] : memref<f32>
  }
  return
}
