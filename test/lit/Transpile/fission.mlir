// RUN: tessel-opt %s --tessel-cuda-to-parallel-loops --tessel-fission-at-barriers | FileCheck %s

// A kernel with one barrier: the thread loop is cut in two. The stack slot
// written before the barrier and read after it becomes a per-thread array;
// the shared array is one slot per block; the thread id is recomputed.

llvm.mlir.global internal @k.s() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<64 x f32>

// CHECK-LABEL: func.func @k(
// CHECK: scf.parallel
// CHECK:   %[[PRIV:.*]] = llvm.alloca %{{.*}} x f32
// CHECK:   %[[SHARED:.*]] = llvm.alloca %{{.*}} x !llvm.array<64 x f32>
// CHECK:   scf.parallel
// CHECK:     %[[MINE:.*]] = llvm.getelementptr %[[PRIV]]
// CHECK:     llvm.store %{{.*}}, %[[MINE]] : f32, !llvm.ptr
// CHECK-NOT: tessel.barrier
// CHECK:   } {tessel.cuda_threads}
// CHECK:   scf.parallel
// CHECK:     %[[MINE2:.*]] = llvm.getelementptr %[[PRIV]]
// CHECK:     llvm.getelementptr %[[SHARED]]
// CHECK:     llvm.load %[[MINE2]]
// CHECK-NOT: tessel.barrier
// CHECK:   } {tessel.cuda_threads}
// CHECK: } {tessel.cuda_blocks}
func.func @k(%out: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %one = llvm.mlir.constant(1 : i64) : i64
  %slot = llvm.alloca %one x f32 : (i64) -> !llvm.ptr
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %f = arith.sitofp %t : i64 to f32
  llvm.store %f, %slot : f32, !llvm.ptr
  %s3 = llvm.mlir.addressof @k.s : !llvm.ptr<3>
  %s = llvm.addrspacecast %s3 : !llvm.ptr<3> to !llvm.ptr
  %p = llvm.getelementptr %s[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %f, %p : f32, !llvm.ptr
  tessel.barrier
  %c63 = arith.constant 63 : i64
  %r = arith.subi %c63, %t : i64
  %q = llvm.getelementptr %s[%r] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %q : !llvm.ptr -> f32
  %mine = llvm.load %slot : !llvm.ptr -> f32
  %sum = arith.addf %v, %mine : f32
  %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %sum, %o : f32, !llvm.ptr
  return
}

// An i1 value that must cross the cut (it comes from memory, so it cannot
// be recomputed) is kept as a byte per thread: LLVM packs vectors of i1
// into bits, and its vectorizer would scalarize every i1 store.
// CHECK-LABEL: func.func @flag(
// CHECK:   %[[FLAGS:.*]] = llvm.alloca %{{.*}} x i8
// CHECK:   scf.parallel
// CHECK:     %[[C:.*]] = arith.cmpi
// CHECK:     %[[B:.*]] = arith.extui %[[C]] : i1 to i8
// CHECK:     llvm.store %[[B]], %{{.*}} : i8, !llvm.ptr
// CHECK:   } {tessel.cuda_threads}
// CHECK:   scf.parallel
// CHECK:     %[[L:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK:     arith.trunci %[[L]] : i8 to i1
// CHECK:   } {tessel.cuda_threads}
func.func @flag(%in: !llvm.ptr, %out: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %p = llvm.getelementptr %in[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %v = llvm.load %p : !llvm.ptr -> i32
  %c0 = arith.constant 0 : i32
  %pos = arith.cmpi sgt, %v, %c0 : i32
  tessel.barrier
  %c1 = arith.constant 1 : i32
  %r = arith.select %pos, %c1, %c0 : i32
  %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  llvm.store %r, %o : i32, !llvm.ptr
  return
}
