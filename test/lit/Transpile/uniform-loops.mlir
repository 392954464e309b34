// RUN: tessel-opt %s --tessel-cuda-to-parallel-loops --tessel-interchange-thread-loops | FileCheck %s
// RUN: tessel-opt %s --tessel-cuda-to-parallel-loops --tessel-interchange-thread-loops=uniform-loops=false | FileCheck %s --check-prefix=OFF

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

// `for (i = 0; i < n; i++) { ...; __syncthreads(); if (i == n - 1) break; }`
// after slot promotion: the counter advances through an scf.if on the
// break flag. Both are uniform (the if's condition and yields are), so the
// loop keeps them as scalars and computes the next ones once, after the
// threads. A per-thread flag (`done` below, from the thread id) next to
// them goes back to a slot, a byte per thread.
// CHECK-LABEL: func.func @with_break
// CHECK: %[[DONE:.+]] = llvm.alloca %{{.+}} x i8
// CHECK: scf.while (%[[I:.+]] = %{{.+}}, %[[B:.+]] = %{{.+}}) : (i32, i1) -> (i32, i1) {
// CHECK: ^bb0(%[[I2:.+]]: i32, %[[B2:.+]]: i1):
// CHECK:   scf.parallel
// CHECK:     %[[MINE:.+]] = llvm.getelementptr %[[DONE]]
// CHECK:     tessel.barrier
// CHECK:     %[[BYTE:.+]] = arith.extui %{{.+}} : i1 to i8
// CHECK:     llvm.store %[[BYTE]], %[[MINE]] : i8, !llvm.ptr
// CHECK:   } {tessel.cuda_threads}
// CHECK:   %[[STOP:.+]] = arith.cmpi eq, %[[I2]]
// CHECK:   %[[NEXT:.+]] = scf.if %[[STOP]] -> (i32) {
// CHECK:   scf.yield %[[NEXT]], %[[STOP]] : i32, i1
// OFF-LABEL: func.func @with_break
// OFF: scf.while : () -> ()
func.func @with_break(%n: i32, %out: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %ti = arith.index_cast %tid : index to i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %false = arith.constant false
  %true = arith.constant true
  %r:3 = scf.while (%i = %c0, %b = %false, %d = %false) : (i32, i1, i1) -> (i32, i1, i1) {
    %nb = arith.xori %b, %true : i1
    %lt = arith.cmpi slt, %i, %n : i32
    %c = arith.andi %nb, %lt : i1
    scf.condition(%c) %i, %b, %d : i32, i1, i1
  } do {
  ^bb0(%i2: i32, %b2: i1, %d2: i1):
    %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    llvm.store %i2, %p : i32, !llvm.ptr
    %mine = arith.cmpi slt, %ti, %i2 : i32
    tessel.barrier
    %last = arith.subi %n, %c1 : i32
    %stop = arith.cmpi eq, %i2, %last : i32
    %next = scf.if %stop -> (i32) {
      scf.yield %i2 : i32
    } else {
      %inc = arith.addi %i2, %c1 : i32
      scf.yield %inc : i32
    }
    scf.yield %next, %stop, %mine : i32, i1, i1
  }
  %q = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %dz = arith.extui %r#2 : i1 to i32
  %sum = arith.addi %r#0, %dz : i32
  llvm.store %sum, %q : i32, !llvm.ptr
  return
}

// An if whose result depends on the thread id is not uniform: the loop
// takes the general interchange.
// CHECK-LABEL: func.func @divergent_if
// CHECK: scf.while : () -> ()
func.func @divergent_if(%n: i32, %out: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %ti = arith.index_cast %tid : index to i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i2: i32):
    tessel.barrier
    %odd = arith.cmpi slt, %ti, %i2 : i32
    %next = scf.if %odd -> (i32) {
      %inc = arith.addi %i2, %c1 : i32
      scf.yield %inc : i32
    } else {
      %inc2 = arith.addi %i2, %c1 : i32
      %inc3 = arith.addi %inc2, %c1 : i32
      scf.yield %inc3 : i32
    }
    scf.yield %next : i32
  }
  %q = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  llvm.store %r, %q : i32, !llvm.ptr
  return
}

// A uniform loop inside a conditional on a uniform value (srad's reduce:
// `if (nf == N) { for (i = 2; ...; i *= 2) { ...; __syncthreads(); } }`):
// the guard goes into the loop's condition and the loop keeps its counter
// as a scalar; the bound computed by a loop without barriers before it
// (`for (...) if (nf >= i) df = i;`) is uniform and computed once, before
// the thread loops.
// CHECK-LABEL: func.func @guarded
// CHECK: %[[DF:.+]]:2 = scf.while
// CHECK: scf.while (%[[I:.+]] = %{{.+}}) : (i32) -> i32 {
// CHECK:   scf.if %{{.+}} -> (i1) {
// CHECK:     arith.cmpi sle, %[[I]], %[[DF]]#0 : i32
// CHECK: ^bb0(%[[I2:.+]]: i32):
// CHECK:   scf.parallel
// CHECK:     tessel.barrier
// CHECK:   } {tessel.cuda_threads}
// CHECK:   arith.muli %[[I2]]
// OFF-LABEL: func.func @guarded
// OFF: scf.while : () -> ()
func.func @guarded(%nf: i32, %out: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c512 = arith.constant 512 : i32
  %df:2 = scf.while (%d = %c0, %i = %c2) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi sle, %i, %c512 : i32
    scf.condition(%c) %d, %i : i32, i32
  } do {
  ^bb0(%d2: i32, %i2: i32):
    %ge = arith.cmpi sge, %nf, %i2 : i32
    %d3 = arith.select %ge, %i2, %d2 : i32
    %i3 = arith.muli %i2, %c2 : i32
    scf.yield %d3, %i3 : i32, i32
  }
  %go = arith.cmpi ne, %nf, %c512 : i32
  scf.if %go {
    %r = scf.while (%i = %c2) : (i32) -> i32 {
      %c = arith.cmpi sle, %i, %df#0 : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %i2, %p : i32, !llvm.ptr
      tessel.barrier
      %next = arith.muli %i2, %c2 : i32
      scf.yield %next : i32
    }
  }
  return
}
