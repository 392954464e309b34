// RUN: tessel-opt %s --tessel-cuda-to-parallel-loops --tessel-eliminate-barriers | FileCheck %s

// Polygeist's example: the first barrier separates accesses to `node`
// from accesses to `weights` (distinct shared arrays): removed. The second
// orders a write and a read of `weights` by different threads: kept.

llvm.mlir.global internal @k.node() {addr_space = 3 : i32} : !llvm.array<16 x f32>
llvm.mlir.global internal @k.weights() {addr_space = 3 : i32} : !llvm.array<256 x f32>

// CHECK-LABEL: func.func @k(
// CHECK: scf.parallel
// CHECK: llvm.store
// CHECK-NOT: tessel.barrier
// CHECK: llvm.store
// CHECK-NEXT: tessel.barrier
// CHECK-NOT: tessel.barrier
// CHECK: } {tessel.cuda_threads}
func.func @k(%in: !llvm.ptr, %hidden: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %tx = gpu.thread_id x
  %t = arith.index_cast %tx : index to i64
  %n3 = llvm.mlir.addressof @k.node : !llvm.ptr<3>
  %node = llvm.addrspacecast %n3 : !llvm.ptr<3> to !llvm.ptr
  %w3 = llvm.mlir.addressof @k.weights : !llvm.ptr<3>
  %weights = llvm.addrspacecast %w3 : !llvm.ptr<3> to !llvm.ptr
  %a = llvm.getelementptr %in[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %x = llvm.load %a : !llvm.ptr -> f32
  %np = llvm.getelementptr %node[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %x, %np : f32, !llvm.ptr
  tessel.barrier
  %h = llvm.getelementptr %hidden[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %y = llvm.load %h : !llvm.ptr -> f32
  %wp = llvm.getelementptr %weights[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %y, %wp : f32, !llvm.ptr
  tessel.barrier
  %c1 = arith.constant 1 : i64
  %u = arith.addi %t, %c1 : i64
  %wq = llvm.getelementptr %weights[%u] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %z = llvm.load %wq : !llvm.ptr -> f32
  llvm.store %z, %h : f32, !llvm.ptr
  return
}
