// RUN: tessel-opt %s --tessel-cuda-cpu-pipeline --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-cuda-cpu-pipeline=float-division=false --split-input-file | FileCheck %s --check-prefix=OFF

// srad's row and column of a linear index, `(i + 1) % n` and `(i + 1) / n`
// with n a kernel argument, in a thread loop LLVM vectorizes: one f64
// division (exact for i32 operands, vectorizable; shared by both), the
// quotient truncated toward zero, the remainder i - q * n. No integer
// division is left.
// CHECK-LABEL: llvm.func @rowcol.tessel_impl
// CHECK-NOT: llvm.sdiv
// CHECK-NOT: llvm.srem
// CHECK-DAG: %[[A:.+]] = llvm.sitofp %{{[0-9]+}} : i32 to f64
// CHECK-DAG: %[[D:.+]] = llvm.sitofp %arg{{[0-9]+}} : i32 to f64
// CHECK: %[[Q:.+]] = llvm.fdiv %[[A]], %[[D]] : f64
// CHECK: llvm.fptosi %[[Q]] : f64 to i32
// CHECK-NOT: llvm.sdiv
// CHECK-NOT: llvm.srem
// CHECK: llvm.return
// OFF-LABEL: llvm.func @rowcol.tessel_impl
// OFF-DAG: llvm.sdiv
// OFF-DAG: llvm.srem
// OFF-NOT: llvm.fdiv
func.func @rowcol(%out: !llvm.ptr, %n: i32) attributes {tessel.cuda_kernel, tessel.cuda_parameter_sizes = array<i64: 8, 4>} {
  %one = arith.constant 1 : i32
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i32
  %i = arith.addi %t, %one : i32
  %row = arith.remsi %i, %n : i32
  %col = arith.divsi %i, %n : i32
  %s = arith.addi %row, %col : i32
  %t64 = arith.extsi %t : i32 to i64
  %o = llvm.getelementptr %out[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  llvm.store %s, %o : i32, !llvm.ptr
  return
}

// -----

// Unsigned division by an argument: uitofp, fptoui. By a constant: left to
// LLVM (a multiply by a magic number).
// CHECK-LABEL: llvm.func @unsigned_and_constant.tessel_impl
// CHECK: llvm.uitofp
// CHECK: llvm.fptoui
// CHECK: llvm.udiv %{{.+}}, %{{.+}} : i32
// OFF-LABEL: llvm.func @unsigned_and_constant.tessel_impl
// OFF-COUNT-2: llvm.udiv
func.func @unsigned_and_constant(%out: !llvm.ptr, %n: i32) attributes {tessel.cuda_kernel, tessel.cuda_parameter_sizes = array<i64: 8, 4>} {
  %seven = arith.constant 7 : i32
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i32
  %q = arith.divui %t, %n : i32
  %c = arith.divui %t, %seven : i32
  %s = arith.addi %q, %c : i32
  %t64 = arith.extsi %t : i32 to i64
  %o = llvm.getelementptr %out[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  llvm.store %s, %o : i32, !llvm.ptr
  return
}

// -----

// A division inside a per-thread loop: the thread loop is not innermost
// (not vectorized), and a scalar f64 division is slower than idiv: kept.
// CHECK-LABEL: llvm.func @in_a_loop.tessel_impl
// CHECK: llvm.sdiv
// CHECK-NOT: llvm.fdiv
func.func @in_a_loop(%out: !llvm.ptr, %n: i32) attributes {tessel.cuda_kernel, tessel.cuda_parameter_sizes = array<i64: 8, 4>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i32
  %r:2 = scf.while (%k = %c0, %acc = %t) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %k, %t : i32
    scf.condition(%go) %k, %acc : i32, i32
  } do {
  ^bb0(%k: i32, %acc: i32):
    %d = arith.divsi %acc, %n : i32
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %k1, %d : i32, i32
  }
  %t64 = arith.extsi %t : i32 to i64
  %o = llvm.getelementptr %out[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  llvm.store %r#1, %o : i32, !llvm.ptr
  return
}
