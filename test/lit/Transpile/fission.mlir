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
