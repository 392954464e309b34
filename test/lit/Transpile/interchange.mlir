// RUN: tessel-opt %s --tessel-cuda-to-parallel-loops --tessel-interchange-thread-loops --tessel-fission-at-barriers | FileCheck %s

// A while loop whose trip count each thread reads from memory, with a
// barrier inside an if inside it: the loop moves outside the thread loops,
// with a per-thread active flag and "any thread active" as its condition;
// the if is split around the barrier.

// CHECK-LABEL: func.func @k(
// CHECK: %[[ACTIVE:.*]] = llvm.alloca %{{.*}} x i8
// CHECK: } {tessel.cuda_threads}
// CHECK: llvm.store %{{.*}}, %{{.*}} : i8, !llvm.ptr
// CHECK: } {tessel.cuda_threads}
// CHECK: scf.while
// CHECK:   scf.parallel
// CHECK:   } {tessel.cuda_threads}
// CHECK:   scf.for {{.*}} iter_args
// CHECK:   scf.condition
// CHECK:   scf.parallel
// CHECK:   } {tessel.cuda_threads}
// CHECK:   scf.parallel
// CHECK:   } {tessel.cuda_threads}
// CHECK-NOT: tessel.barrier
// CHECK: } {tessel.cuda_blocks}
func.func @k(%len: !llvm.ptr, %data: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %one = llvm.mlir.constant(1 : i64) : i64
  %k = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %c0 = arith.constant 0 : i32
  llvm.store %c0, %k : i32, !llvm.ptr
  %tx = gpu.thread_id x
  %t = arith.index_cast %tx : index to i64
  %lp = llvm.getelementptr %len[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  scf.while : () -> () {
    %kv = llvm.load %k : !llvm.ptr -> i32
    %n = llvm.load %lp : !llvm.ptr -> i32
    %go = arith.cmpi slt, %kv, %n : i32
    scf.condition(%go)
  } do {
    %kv = llvm.load %k : !llvm.ptr -> i32
    %odd = arith.trunci %kv : i32 to i1
    scf.if %odd {
      %dp = llvm.getelementptr %data[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %kv, %dp : i32, !llvm.ptr
      tessel.barrier
      %v = llvm.load %dp : !llvm.ptr -> i32
      llvm.store %v, %lp : i32, !llvm.ptr
    }
    %c1 = arith.constant 1 : i32
    %next = arith.addi %kv, %c1 : i32
    llvm.store %next, %k : i32, !llvm.ptr
    scf.yield
  }
  return
}
