// RUN: tessel-opt %s --tessel-cuda-to-parallel-loops --tessel-fission-at-barriers --split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-cuda-to-parallel-loops --tessel-fission-at-barriers=min-cut=false --split-input-file | FileCheck %s --check-prefix=GREEDY

// Two values computed from one load are used after the barrier. The minimum
// cut stores the loaded value (4 bytes per thread) and recomputes both
// products after the cut; the greedy rule stores each product (8 bytes).
// CHECK-LABEL: func.func @two_from_one
// CHECK: %[[ARR:.+]] = llvm.alloca %{{.+}} x f32
// CHECK-NOT: llvm.alloca
// CHECK: %[[V:.+]] = llvm.load %{{.+}} : !llvm.ptr -> f32
// CHECK: llvm.store %[[V]], %{{.+}} : f32, !llvm.ptr
// CHECK: } {tessel.cuda_threads}
// CHECK: %[[L:.+]] = llvm.load %{{.+}} : !llvm.ptr -> f32
// CHECK-DAG: arith.mulf %[[L]], %{{.+}} : f32
// CHECK-DAG: arith.mulf %[[L]], %{{.+}} : f32
// CHECK: } {tessel.cuda_threads}
// GREEDY-LABEL: func.func @two_from_one
// GREEDY-COUNT-2: llvm.alloca %{{.+}} x f32
// GREEDY: arith.mulf
// GREEDY: arith.mulf
// GREEDY: } {tessel.cuda_threads}
// GREEDY-NOT: arith.mulf
// GREEDY: } {tessel.cuda_threads}
func.func @two_from_one(%in: !llvm.ptr, %out: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %p = llvm.getelementptr %in[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %p : !llvm.ptr -> f32
  %c2 = arith.constant 2.0 : f32
  %c3 = arith.constant 3.0 : f32
  %a = arith.mulf %v, %c2 : f32
  %b = arith.mulf %v, %c3 : f32
  tessel.barrier
  %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %s = arith.addf %a, %b : f32
  llvm.store %s, %o : f32, !llvm.ptr
  return
}

// -----

// One value computed from two loads: storing the sum (4 bytes) is cheaper
// than storing both loads (8 bytes); both rules store the sum.
// CHECK-LABEL: func.func @one_from_two
// CHECK: llvm.alloca %{{.+}} x f32
// CHECK-NOT: llvm.alloca
// CHECK: %[[S:.+]] = arith.addf
// CHECK: llvm.store %[[S]]
// CHECK: } {tessel.cuda_threads}
// CHECK-NOT: arith.addf
// CHECK: } {tessel.cuda_threads}
func.func @one_from_two(%in: !llvm.ptr, %out: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %p = llvm.getelementptr %in[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %x = llvm.load %p : !llvm.ptr -> f32
  %q = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, f32
  %y = llvm.load %q : !llvm.ptr -> f32
  %s = arith.addf %x, %y : f32
  tessel.barrier
  %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %s, %o : f32, !llvm.ptr
  return
}

// -----

// Sizes count: an i32 loaded and sign-extended to i64 before the barrier is
// stored as the i32 (4 bytes, not 8) and extended again after it. Thread
// ids and index arithmetic on them are recomputed, never stored.
// CHECK-LABEL: func.func @narrow
// CHECK: llvm.alloca %{{.+}} x i32
// CHECK-NOT: llvm.alloca
// CHECK: } {tessel.cuda_threads}
// CHECK: %[[N:.+]] = llvm.load %{{.+}} : !llvm.ptr -> i32
// CHECK: arith.extsi %[[N]] : i32 to i64
// CHECK: } {tessel.cuda_threads}
// GREEDY-LABEL: func.func @narrow
// GREEDY: llvm.alloca %{{.+}} x i64
func.func @narrow(%in: !llvm.ptr, %out: !llvm.ptr) attributes {tessel.cuda_kernel} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %p = llvm.getelementptr %in[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %v = llvm.load %p : !llvm.ptr -> i32
  %w = arith.extsi %v : i32 to i64
  tessel.barrier
  %o = llvm.getelementptr %out[%w] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %t, %o : i64, !llvm.ptr
  return
}
