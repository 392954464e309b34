// RUN: tessel-opt %s --tessel-cuda-to-parallel-loops --tessel-interchange-thread-loops | FileCheck %s
// RUN: tessel-opt %s --tessel-cuda-to-parallel-loops --tessel-interchange-thread-loops --tessel-transpile-uniform-loops=false | FileCheck %s --check-prefix=OFF

// A loop with a barrier whose condition and counter are the same for every
// thread (after slot promotion: `for (i = 0; i < n; i++)`) keeps the
// counter a scalar: the thread loop moves inside it, the next counter is
// computed once per iteration after the threads, and what follows the loop
// reads its result in a thread loop of its own. No per-thread active flag.
// CHECK-LABEL: func.func @uniform
// CHECK: %[[R:.+]] = scf.while (%[[I:.+]] = %{{.+}}) : (i32) -> i32 {
// CHECK:   arith.cmpi slt, %[[I]], %arg7 : i32
// CHECK: ^bb0(%[[I2:.+]]: i32):
// CHECK:   scf.parallel
// CHECK:     llvm.store %[[I2]]
// CHECK:     tessel.barrier
// CHECK:   } {tessel.cuda_threads}
// CHECK:   %[[NEXT:.+]] = arith.addi %[[I2]], %{{.+}} : i32
// CHECK:   scf.yield %[[NEXT]] : i32
// CHECK: scf.parallel
// CHECK:   llvm.store %[[R]]
// OFF-LABEL: func.func @uniform
// OFF: llvm.alloca %{{.+}} x i8
// OFF: scf.while : () -> ()
func.func @uniform(%n: i32, %out: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i2: i32):
    %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    llvm.store %i2, %p : i32, !llvm.ptr
    tessel.barrier
    %next = arith.addi %i2, %c1 : i32
    scf.yield %next : i32
  }
  %q = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  llvm.store %r, %q : i32, !llvm.ptr
  return
}
func.func @mixed(%n: i32, %in: !llvm.ptr, %out: !llvm.ptr) attributes {tessel.cuda_kernel} {

// A uniform counter next to a per-thread accumulator: the accumulator goes
// back to a per-thread slot (an array of the block), the counter stays a
// scalar of the loop.
// CHECK-LABEL: func.func @mixed
// CHECK: %[[ACC:.+]] = llvm.alloca %{{.+}} x f32
// CHECK: scf.while (%[[I:.+]] = %{{.+}}) : (i32) -> i32 {
// CHECK:   scf.parallel
// CHECK:     %[[MINE:.+]] = llvm.getelementptr %[[ACC]]
// CHECK:     %[[S:.+]] = llvm.load %[[MINE]] : !llvm.ptr -> f32
// CHECK:     tessel.barrier
// CHECK:     %[[S2:.+]] = arith.addf %[[S]], %[[S]] : f32
// CHECK:     llvm.store %[[S2]], %[[MINE]]
// CHECK:   } {tessel.cuda_threads}
// CHECK:   scf.yield %{{.+}} : i32
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %p = llvm.getelementptr %in[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %x = llvm.load %p : !llvm.ptr -> f32
  %r:2 = scf.while (%i = %c0, %s = %x) : (i32, f32) -> (i32, f32) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i, %s : i32, f32
  } do {
  ^bb0(%i2: i32, %s2: f32):
    tessel.barrier
    %s3 = arith.addf %s2, %s2 : f32
    %next = arith.addi %i2, %c1 : i32
    scf.yield %next, %s3 : i32, f32
  }
  %q = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %r#1, %q : f32, !llvm.ptr
  return
}
func.func @divergent(%out: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %ti = arith.index_cast %tid : index to i32

// A condition that depends on the thread id: the general interchange, a
// per-thread active flag and the counter in a per-thread slot.
// CHECK-LABEL: func.func @divergent
// CHECK: llvm.alloca %{{.+}} x i8
// CHECK: llvm.alloca %{{.+}} x i32
// CHECK: scf.while : () -> ()
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %c = arith.cmpi slt, %i, %ti : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i2: i32):
    tessel.barrier
    %next = arith.addi %i2, %c1 : i32
    scf.yield %next : i32
  }
  %q = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  llvm.store %r, %q : i32, !llvm.ptr
  return
}
