// End of tessel-cpu-codegen-pipeline on the dispatch functions of a module
// (what the CPU target hands it): only the LLVM dialect is left, one
// llvm.func per kernel carrying tessel.kernel and its workgroup count.
// RUN: tessel-opt %s --tessel-cpu-codegen-pipeline | FileCheck %s
// RUN: tessel-opt %s --tessel-cpu-codegen-pipeline | FileCheck %s --check-prefix=ONLY-LLVM
// RUN: tessel-opt %s --tessel-cpu-codegen-pipeline | FileCheck %s --check-prefix=FUNCS
// RUN: tessel-opt %s --tessel-cpu-codegen-pipeline=vector-bits=512 | FileCheck %s --check-prefix=AVX512

// No op of any dialect other than llvm survives (attributes such as
// tessel.kernel are fine), and no unrealized cast is left.
// (ONLY-LLVM has only NOT lines, so they scan the whole output.)
// ONLY-LLVM-NOT: {{^ *(%[^ ]+ = )?(builtin|func|tessel|memref|vector|scf|linalg|arith|math|cf|affine|bufferization|tensor|ub|index)\.[a-z_]+}}
// ONLY-LLVM-NOT: unrealized_conversion_cast
// ONLY-LLVM-NOT: func.func

// Exactly one llvm.func per kernel.
// FUNCS-COUNT-5: llvm.func @{{[a-z_]+}}_dispatch_0({{.*}}tessel.kernel
// FUNCS-NOT: llvm.func

// A small matmul: one workgroup; peeled register loops, so the main 8x16
// tiles and the static 8x3 column edge are plain (unmasked) vector FMAs on
// accumulators kept in registers; only the 5-row edge is partial: its fill
// is a masked store (no reduction) and its matmul is scalar (a partial
// contraction is never masked). Nothing is ever loaded through a mask.
// CHECK-LABEL: llvm.func @small_matmul_dispatch_0
// CHECK-SAME: (%{{.+}}: !llvm.ptr, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: i64)
// CHECK-SAME: tessel.kernel
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.br ^{{.+}}({{.*}} : i64, !llvm.array<8 x vector<16xf32>>)
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.load %{{.+}} {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.intr.fmuladd({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.intr.fmuladd({{.*}}) : (vector<3xf32>, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
// CHECK-NOT: llvm.intr.masked.load
// CHECK: llvm.intr.masked.store %{{.+}}, %{{.+}}, %{{.+}} {{.*}} : vector<16xf32>, vector<16xi1> into !llvm.ptr
// CHECK-NOT: llvm.intr.masked.load
// CHECK: llvm.fmul %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: llvm.fadd %{{.+}}, %{{.+}} : f32
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.return
func.func private @small_matmul_dispatch_0(%a: tensor<37x53xf32>, %b: tensor<53x67xf32>) -> tensor<37x67xf32> attributes {tessel.dispatch_function} {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x67xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<37x67xf32>) -> tensor<37x67xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<37x53xf32>, tensor<53x67xf32>) outs(%z : tensor<37x67xf32>) -> tensor<37x67xf32>
  return %mm : tensor<37x67xf32>
}

// A large matmul: 64x256 workgroup tiles of 129x300 -> x = 2 (N), y = 3 (M);
// both workgroup ids are used.
// CHECK-LABEL: llvm.func @large_matmul_dispatch_0
// CHECK-SAME: (%{{.+}}: !llvm.ptr, %[[WX:.+]]: i64, %[[WY:.+]]: i64, %{{.+}}: i64)
// CHECK-SAME: tessel.workgroup_count = array<i64: 2, 3, 1>
// CHECK-DAG: llvm.mul %[[WY]], %{{.+}} : i64
// CHECK-DAG: llvm.mul %[[WX]], %{{.+}} : i64
// CHECK: llvm.return
func.func private @large_matmul_dispatch_0(%a: tensor<129x48xf32>, %b: tensor<48x300xf32>) -> tensor<129x300xf32> attributes {tessel.dispatch_function} {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<129x300xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<129x300xf32>) -> tensor<129x300xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<129x48xf32>, tensor<48x300xf32>) outs(%z : tensor<129x300xf32>) -> tensor<129x300xf32>
  return %mm : tensor<129x300xf32>
}

// A large elementwise exp: 4 workgroups of 129 rows (x only); exp is a
// polynomial on 8-lane vectors (16 at 512 bits), no libm call. The peeled
// row loop has full vectors (257 = 32 x 8 + 1) and a static 1-lane edge, so
// no masks at all.
// CHECK-LABEL: llvm.func @large_exp_dispatch_0
// CHECK-SAME: (%{{.+}}: !llvm.ptr, %[[WX:.+]]: i64, %{{.+}}: i64, %{{.+}}: i64)
// CHECK-SAME: tessel.workgroup_count = array<i64: 4, 1, 1>
// CHECK: llvm.mul %[[WX]], %{{.+}} : i64
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.load %{{.+}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
// CHECK: llvm.intr.fma({{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
// CHECK: llvm.load %{{.+}} {alignment = 4 : i64} : !llvm.ptr -> vector<1xf32>
// CHECK: llvm.intr.fma({{.*}}) : (vector<1xf32>, vector<1xf32>, vector<1xf32>) -> vector<1xf32>
// CHECK-NOT: llvm.call
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.return
// AVX512-LABEL: llvm.func @large_exp_dispatch_0
// AVX512: llvm.load %{{.+}} : !llvm.ptr -> vector<16xf32>
// AVX512: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func private @large_exp_dispatch_0(%a: tensor<513x257xf32>) -> tensor<513x257xf32> attributes {tessel.dispatch_function} {
  %e = tensor.empty() : tensor<513x257xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<513x257xf32>) outs(%e : tensor<513x257xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<513x257xf32>
  return %0 : tensor<513x257xf32>
}

// A comparison producing i1: stored as i8 (zext), computed with scalars.
// CHECK-LABEL: llvm.func @compare_dispatch_0
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>
// CHECK: llvm.fcmp "olt"
// CHECK: llvm.zext %{{.+}} : i1 to i8
// CHECK: llvm.store %{{.+}}, %{{.+}} : i8, !llvm.ptr
// CHECK: llvm.return
func.func private @compare_dispatch_0(%a: tensor<37x53xf32>) -> tensor<37x53xi1> attributes {tessel.dispatch_function} {
  %e = tensor.empty() : tensor<37x53xi1>
  %cst = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<37x53xf32>) outs(%e : tensor<37x53xi1>) {
  ^bb0(%x: f32, %o: i1):
    %s = arith.cmpf olt, %x, %cst : f32
    linalg.yield %s : i1
  } -> tensor<37x53xi1>
  return %0 : tensor<37x53xi1>
}

// A concat (insert_slice chain): one serial workgroup of copy loops, reading
// both operand bindings and writing the third (the GEP to slot 0 folds away).
// CHECK-LABEL: llvm.func @concat_dispatch_0
// CHECK-SAME: (%[[T:.+]]: !llvm.ptr, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: i64)
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>
// CHECK-DAG: llvm.load %[[T]] : !llvm.ptr -> !llvm.ptr
// CHECK-DAG: llvm.getelementptr %[[T]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-DAG: llvm.getelementptr %[[T]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: llvm.cond_br
// CHECK: llvm.return
func.func private @concat_dispatch_0(%a: tensor<37x53xf32>, %b: tensor<37x5xf32>) -> tensor<37x58xf32> attributes {tessel.dispatch_function} {
  %0 = tensor.empty() : tensor<37x58xf32>
  %1 = tensor.insert_slice %a into %0[0, 0] [37, 53] [1, 1] : tensor<37x53xf32> into tensor<37x58xf32>
  %2 = tensor.insert_slice %b into %1[0, 53] [37, 5] [1, 1] : tensor<37x5xf32> into tensor<37x58xf32>
  return %2 : tensor<37x58xf32>
}
