// RUN: tessel-opt %s --tessel-cuda-cpu-pipeline | FileCheck %s
// RUN: tessel-opt %s --tessel-cuda-cpu-pipeline --tessel-transpile-loop-hints=false | FileCheck %s --check-prefix=OFF

// The innermost thread loop (x) carries a hint to vectorize it without
// interleaving (a 16-thread row of f32 is then one AVX-512 iteration, not a
// fall-through to the remainder loop of a 32-wide interleaved one). The
// hint reaches the loop's back edge as the branch's own annotation, which
// LLVM IR emits as !llvm.loop.
// CHECK: #[[IC:.+]] = #llvm.loop_interleave<count = 1 : i32>
// CHECK: #[[ANN:.+]] = #llvm.loop_annotation<interleave = #[[IC]]>
// CHECK-LABEL: llvm.func @k.tessel_impl
// CHECK-COUNT-1: {loop_annotation = #[[ANN]]}
// CHECK-NOT: llvm.loop_annotation
// OFF-NOT: loop_annotation
func.func @k(%in: !llvm.ptr, %out: !llvm.ptr) attributes {tessel.cuda_kernel, tessel.cuda_parameter_sizes = array<i64: 8, 8>} {
  %tid = gpu.thread_id x
  %t = arith.index_cast %tid : index to i64
  %p = llvm.getelementptr %in[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %p : !llvm.ptr -> f32
  %w = arith.addf %v, %v : f32
  %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %w, %o : f32, !llvm.ptr
  return
}
