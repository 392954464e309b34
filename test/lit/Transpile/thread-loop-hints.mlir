// RUN: tessel-opt %s --tessel-cuda-cpu-pipeline | FileCheck %s
// RUN: tessel-opt %s '--tessel-cuda-cpu-pipeline=loop-hints=false parallel-accesses=false' | FileCheck %s --check-prefix=OFF
// RUN: tessel-opt %s --tessel-cuda-cpu-pipeline=parallel-accesses=false | FileCheck %s --check-prefix=NOPAR

// The innermost thread loop (x) carries a hint to vectorize it without
// interleaving (a 16-thread row of f32 is then one AVX-512 iteration, not a
// fall-through to the remainder loop of a 32-wide interleaved one), and
// says that its plain loads and stores (in one access group) do not depend
// on each other across iterations (threads that race between barriers are
// undefined in CUDA): LLVM vectorizes without runtime alias checks, which
// it cannot build for an indirect access such as in[idx[t]]. The volatile
// store stays out of the group. The annotation reaches the loop's back
// edge as the branch's own, which LLVM IR emits as !llvm.loop.
// CHECK: #[[G:.+]] = #llvm.access_group<id = distinct[
// CHECK: #[[IC:.+]] = #llvm.loop_interleave<count = 1 : i32>
// CHECK: #[[ANN:.+]] = #llvm.loop_annotation<interleave = #[[IC]], parallelAccesses = #[[G]]>
// CHECK-LABEL: llvm.func @k.tessel_impl
// CHECK: llvm.load %{{.+}} {access_groups = [#[[G]]]} : !llvm.ptr -> i32
// CHECK: llvm.load %{{.+}} {access_groups = [#[[G]]]} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.+}}, %{{.+}} {access_groups = [#[[G]]]} : f32, !llvm.ptr
// CHECK: llvm.store volatile %{{.+}}, %{{.+}} : f32, !llvm.ptr
// CHECK-COUNT-1: {loop_annotation = #[[ANN]]}
// CHECK-NOT: llvm.loop_annotation
// OFF-NOT: loop_annotation
// OFF-NOT: access_group
// NOPAR-NOT: access_group
// NOPAR: #llvm.loop_annotation<interleave = #{{.+}}>
// NOPAR-NOT: access_group
func.func @k(%idx: !llvm.ptr, %in: !llvm.ptr, %out: !llvm.ptr, %flag: !llvm.ptr) attributes {tessel.cuda_kernel, tessel.cuda_parameter_sizes = array<i64: 8, 8, 8, 8>} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %pi = llvm.getelementptr %idx[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %i = llvm.load %pi : !llvm.ptr -> i32
  %i64 = arith.extsi %i : i32 to i64
  %p = llvm.getelementptr %in[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %p : !llvm.ptr -> f32
  %w = arith.addf %v, %v : f32
  %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %w, %o : f32, !llvm.ptr
  llvm.store volatile %w, %flag : f32, !llvm.ptr
  return
}
