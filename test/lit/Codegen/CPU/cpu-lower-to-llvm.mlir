// RUN: tessel-opt %s --tessel-cpu-lower-to-llvm --split-input-file --verify-diagnostics | FileCheck %s

// tessel.binding N loads entry N of the binding table (a GEP over pointers
// plus a pointer load) and builds a static memref descriptor around it; the
// kernel becomes an llvm.func over (ptr, i64, i64, i64) keeping its
// attributes, and vector/math/arith ops become LLVM ops and intrinsics.
// CHECK-LABEL: llvm.func @kernel
// CHECK-SAME: (%[[TABLE:.+]]: !llvm.ptr, %[[WX:.+]]: i64, %{{.+}}: i64, %{{.+}}: i64)
// CHECK-SAME: tessel.kernel
// CHECK-SAME: tessel.workgroup_count = array<i64: 5, 1, 1>
// CHECK: %[[SLOT0:.+]] = llvm.getelementptr %[[TABLE]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[BASE0:.+]] = llvm.load %[[SLOT0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[D0:.+]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[D1:.+]] = llvm.insertvalue %[[BASE0]], %[[D0]][0]
// CHECK: %[[D2:.+]] = llvm.insertvalue %[[BASE0]], %[[D1]][1]
// CHECK: %[[C37:.+]] = llvm.mlir.constant(37 : index) : i64
// CHECK: llvm.insertvalue %[[C37]], %{{.+}}[3, 0]
// CHECK: %[[C53:.+]] = llvm.mlir.constant(53 : index) : i64
// CHECK: llvm.insertvalue %[[C53]], %{{.+}}[4, 0]
// CHECK: %[[SLOT2:.+]] = llvm.getelementptr %[[TABLE]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: llvm.load %[[SLOT2]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.mul %[[WX]], %{{.+}} : i64
// CHECK: %[[V:.+]] = llvm.load %{{.+}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
// CHECK: %[[E:.+]] = llvm.intr.exp(%[[V]]) : (vector<8xf32>) -> vector<8xf32>
// CHECK: llvm.store %[[E]], %{{.+}} {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
// CHECK: llvm.return
// CHECK-NOT: tessel.binding
// CHECK-NOT: func.func
// CHECK-NOT: builtin.unrealized_conversion_cast
func.func private @kernel(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel, tessel.workgroup_count = array<i64: 5, 1, 1>} {
  %c8 = arith.constant 8 : index
  %in = tessel.binding %t[0] : !llvm.ptr -> memref<37x53xf32>
  %out = tessel.binding %t[2] : !llvm.ptr -> memref<37x53xf32>
  %i = arith.muli %x, %c8 : index
  %v = vector.load %in[%i, %c8] : memref<37x53xf32>, vector<8xf32>
  %e = math.exp %v : vector<8xf32>
  vector.store %e, %out[%i, %c8] : memref<37x53xf32>, vector<8xf32>
  return
}

// -----

// Rank-0 and i8 bindings: a descriptor with no size/stride arrays; scalar
// memref loads/stores and control flow (cf) convert too.
// CHECK-LABEL: llvm.func @scalar_kernel
// CHECK: %[[SLOT:.+]] = llvm.getelementptr %{{.+}}[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
// CHECK: llvm.br ^bb1
// CHECK: llvm.cond_br
// CHECK: llvm.load %{{.+}} : !llvm.ptr -> i8
// CHECK: llvm.store %{{.+}}, %{{.+}} : i8, !llvm.ptr
// CHECK-NOT: cf.
// CHECK-NOT: memref.
func.func private @scalar_kernel(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %in = tessel.binding %t[0] : !llvm.ptr -> memref<37xi8>
  %out = tessel.binding %t[1] : !llvm.ptr -> memref<i8>
  %zero = arith.constant 0 : i8
  memref.store %zero, %out[] : memref<i8>
  cf.br ^loop(%c0 : index)
^loop(%i: index):
  %cond = arith.cmpi slt, %i, %c37 : index
  cf.cond_br %cond, ^body, ^exit
^body:
  %v = memref.load %in[%i] : memref<37xi8>
  %acc = memref.load %out[] : memref<i8>
  %s = arith.addi %acc, %v : i8
  memref.store %s, %out[] : memref<i8>
  %next = arith.addi %i, %c1 : index
  cf.br ^loop(%next : index)
^exit:
  return
}

// -----

// Ops the conversion does not know (here a leftover scf.for) make the pass
// fail with a diagnostic naming the op.
func.func private @leftover_scf(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{failed to legalize operation 'scf.for'}}
  scf.for %i = %c0 to %x step %c1 {
  }
  return
}
