// RUN: tessel-opt %s --tessel-cpu-packed-matmul --canonicalize --split-input-file --verify-diagnostics | FileCheck %s

// A marked 100x90x300 matmul with MR 8, NR 32 (2 x 16 lanes), KC 256:
// pack buffers sized by the largest block (rows 100 -> 104 = 13 MR groups,
// 90 columns -> 3 NR panels), freed at the end; per K block (min(256, 300 -
// kc) long) B is packed panel by panel along N (masked reads past column
// 90), A row by row along K with rows past 99 clamped to the last one; then
// each MR x NR tile loads its 16 accumulators from C, runs the K block with
// one broadcast and two FMAs per row, and stores the rows inside M.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[C99:.+]] = arith.constant 99 : index
// CHECK-DAG: %[[C100:.+]] = arith.constant 100 : index
// CHECK-DAG: %[[C300:.+]] = arith.constant 300 : index
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : index
// CHECK: %[[AP:.+]] = memref.alloc() {alignment = 64 : i64} : memref<104x256xf32>
// CHECK: %[[BP:.+]] = memref.alloc() {alignment = 64 : i64} : memref<3x256x32xf32>
// CHECK: scf.for %[[KC:.+]] = %{{.+}} to %[[C300]] step %[[C256]] {
// CHECK: %[[LEFT:.+]] = arith.subi %[[C300]], %[[KC]]
// CHECK: %[[KCS:.+]] = arith.minsi %[[LEFT]], %[[C256]]
// CHECK: vector.transfer_read %arg1[%{{.+}}, %{{.+}}], %{{.+}} : memref<300x90xf32>, vector<16xf32>
// CHECK-NEXT: vector.store %{{.+}}, %[[BP]][%{{.+}}, %{{.+}}, %{{.+}}] : memref<3x256x32xf32>, vector<16xf32>
// CHECK: %[[ROW:.+]] = arith.minsi %{{.+}}, %[[C99]] : index
// CHECK: vector.transfer_read %arg0[%[[ROW]], %{{.+}}], %{{.+}} : memref<100x300xf32>, vector<16xf32>
// CHECK-NEXT: vector.store %{{.+}}, %[[AP]][%{{.+}}, %{{.+}}] : memref<104x256xf32>, vector<16xf32>
// CHECK: vector.transfer_read %arg2{{.*}} : memref<100x90xf32>, vector<16xf32>
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[KCS]] step %{{.+}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-2: vector.load %[[BP]]
// CHECK: memref.load %[[AP]]
// CHECK-NEXT: vector.broadcast
// CHECK-NEXT: vector.fma
// CHECK-NEXT: vector.fma
// CHECK: arith.cmpi slt, %{{.+}}, %[[C100]]
// CHECK-NEXT: scf.if
// CHECK-NEXT: vector.transfer_write %{{.+}}, %arg2{{.*}} : vector<16xf32>, memref<100x90xf32>
// CHECK: vector.transfer_write %{{.+}}, %arg2{{.*}} : vector<16xf32>, memref<100x90xf32>
// CHECK: memref.dealloc %[[AP]]
// CHECK-NEXT: memref.dealloc %[[BP]]
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<100x300xf32>, %b: memref<300x90xf32>, %c: memref<100x90xf32>) {
  linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 100, 90, 16, 0, 0>} ins(%a, %b : memref<100x300xf32>, memref<300x90xf32>) outs(%c : memref<100x90xf32>)
  return
}

// -----

// A workgroup taller than MC (100 rows, MC 40): B is packed once per K block
// for all rows, then the rows are walked in blocks of 40 (the last one 20
// rows: 3 MR groups), each packed into the 40-row A buffer and multiplied;
// rows of C are the block's start plus the row in the block.
// CHECK-LABEL: func.func @tall
// CHECK-DAG: %[[C40:.+]] = arith.constant 40 : index
// CHECK-DAG: %[[C100:.+]] = arith.constant 100 : index
// CHECK: %[[AP:.+]] = memref.alloc() {alignment = 64 : i64} : memref<40x256xf32>
// CHECK: %[[BP:.+]] = memref.alloc() {alignment = 64 : i64} : memref<3x256x32xf32>
// CHECK: scf.for %[[KC:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK: vector.store %{{.+}}, %[[BP]]
// CHECK: scf.for %[[IC:.+]] = %{{.+}} to %[[C100]] step %[[C40]] {
// CHECK: %[[LEFT:.+]] = arith.subi %[[C100]], %[[IC]]
// CHECK: arith.minsi %[[LEFT]], %[[C40]]
// CHECK: arith.addi %[[IC]], %{{.+}} : index
// CHECK: vector.store %{{.+}}, %[[AP]]
// CHECK: memref.load %[[AP]]
// CHECK: arith.cmpi slt, %{{.+}}, %[[C100]]
// CHECK: memref.dealloc %[[AP]]
func.func @tall(%a: memref<100x300xf32>, %b: memref<300x90xf32>, %c: memref<100x90xf32>) {
  linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 40, 90, 16, 0, 0>} ins(%a, %b : memref<100x300xf32>, memref<300x90xf32>) outs(%c : memref<100x90xf32>)
  return
}

// -----

// A convolution tile (one image, 2 output rows x 5 columns, 3x3 taps, 16 ->
// 20 channels, stride 2) as an implicit GEMM: 10 rows of the packed A, one
// per output pixel; the two filter-tap loops are walked whole around the K
// blocks of input channels; a row's pixel is delinearized (column = row mod
// 5, output row = row div 5) and the input is read at (2 * oh + kh, 2 * ow +
// kw) along the channels.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[C5:.+]] = arith.constant 5 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<2x16x16xf32>
// CHECK: scf.for %[[KH:.+]] = %{{.+}} to %[[C3]]
// CHECK-NEXT: scf.for %[[KW:.+]] = %{{.+}} to %[[C3]]
// CHECK: vector.transfer_read %arg1[%[[KH]], %[[KW]], %{{.+}}, %{{.+}}]{{.*}} : memref<3x3x16x20xf32>, vector<8xf32>
// CHECK: %[[OW:.+]] = arith.remui %{{.+}}, %[[C5]] : index
// CHECK-NEXT: %[[OH:.+]] = arith.divui %{{.+}}, %[[C5]] : index
// CHECK: vector.transfer_read %arg0[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]{{.*}} : memref<1x7x11x16xf32>, vector<8xf32>
// CHECK: vector.fma
// CHECK-NOT: linalg.conv
func.func @conv(%x: memref<1x7x11x16xf32>, %w: memref<3x3x16x20xf32>, %y: memref<1x2x5x20xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, tessel.cpu_packed_matmul = array<i64: 8, 16, 16, 10, 20, 8, -1, -1>}
    ins(%x, %w : memref<1x7x11x16xf32>, memref<3x3x16x20xf32>) outs(%y : memref<1x2x5x20xf32>)
  return
}

// -----

func.func @not_a_contraction(%a: memref<16x16xf32>, %c: memref<16x16xf32>) {
  // expected-error @+1 {{is marked for the packed CPU matmul but is not a bufferized contraction or convolution it handles}}
  linalg.copy {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 16, 16, 16, 0, 0>} ins(%a : memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  return
}

// -----

// A kernel with a binding table (3 bindings): A and B are workgroup views of
// bindings, whole along K, so both are packed once per dispatch into the
// scratch, binding 3. Its zeroed prefix holds 8 chunk flags per block: A has
// 8 blocks (ceil(300 / 42) rows of M tiles x 1 MC block x 1 K block), B 17
// (ceil(520 / 32) columns of N tiles x 1 K block): 200 flags, 800 bytes,
// rounded to 832. Then A's blocks (42 x 256 f32, 43008 bytes each) from
// byte 832, B's (2 x 256 x 16 f32, 32768 bytes each) from 344896: 901952
// bytes. A block's key is its workgroup's tile index (offset / tile) times
// the K blocks plus the K block; each chunk is claimed by a compare and swap
// 0 -> 1, packed (B: a chunk of 32 rows of K, A: 6 rows), then marked 2;
// then every chunk is awaited until it reads 2. No pack buffer is
// allocated.
// CHECK-LABEL: func.func private @shared
// CHECK-SAME: tessel.scratch_bytes = 901952 : i64, tessel.scratch_zeroed_bytes = 832 : i64
// CHECK-DAG: %[[C832:.+]] = arith.constant 832 : index
// CHECK-DAG: %[[C344896:.+]] = arith.constant 344896 : index
// CHECK-DAG: %[[C43008:.+]] = arith.constant 43008 : index
// CHECK-DAG: %[[C32768:.+]] = arith.constant 32768 : index
// CHECK: %[[SCRATCH:.+]] = tessel.binding %arg0[3] : !llvm.ptr -> memref<901952xi8>
// CHECK: %[[FLAGS:.+]] = memref.view %[[SCRATCH]][%{{.+}}][] : memref<901952xi8> to memref<200xi32>
// CHECK-NOT: memref.alloc
// CHECK: %[[N0:.+]] = arith.muli %arg1, %c32 : index
// CHECK: %[[COL:.+]] = arith.divui %[[N0]], %c32 : index
// CHECK: %[[BOFF:.+]] = arith.muli %[[COL]], %[[C32768]] : index
// CHECK: %[[BBYTE:.+]] = arith.addi %[[BOFF]], %[[C344896]] : index
// CHECK: %[[BP:.+]] = memref.view %[[SCRATCH]][%[[BBYTE]]][] : memref<901952xi8> to memref<2x256x16xf32>
// CHECK: scf.for
// CHECK: %[[OLD:.+]] = memref.generic_atomic_rmw %[[FLAGS]][%{{.+}}] : memref<200xi32> {
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: memref.atomic_yield
// CHECK: arith.cmpi eq, %[[OLD]], %c0_i32
// CHECK: scf.if
// CHECK: vector.transfer_read %{{.+}} : memref<200x?xf32, strided<[520, 1], offset: ?>>, vector<8xf32>
// CHECK: vector.store %{{.+}}, %[[BP]]
// CHECK: memref.atomic_rmw assign %c2_i32, %[[FLAGS]][%{{.+}}] : (i32, memref<200xi32>) -> i32
// CHECK: scf.while
// CHECK: memref.atomic_rmw ori %c0_i32, %[[FLAGS]]
// CHECK: arith.cmpi ne, %{{.+}}, %c2_i32
// CHECK: scf.condition
// CHECK: %[[ROW:.+]] = arith.divui %{{.+}}, %c42 : index
// CHECK: %[[MCB:.+]] = arith.divui %{{.+}}, %c42 : index
// CHECK: %[[AKEY:.+]] = arith.addi %[[ROW]], %[[MCB]] : index
// CHECK: %[[AOFF:.+]] = arith.muli %[[AKEY]], %[[C43008]] : index
// CHECK: %[[ABYTE:.+]] = arith.addi %[[AOFF]], %[[C832]] : index
// CHECK: %[[AP:.+]] = memref.view %[[SCRATCH]][%[[ABYTE]]][] : memref<901952xi8> to memref<42x256xf32>
// CHECK: memref.generic_atomic_rmw %[[FLAGS]]
// CHECK: vector.store %{{.+}}, %[[AP]]
// CHECK: memref.load %[[AP]]
// CHECK-NOT: memref.dealloc
// CHECK: return
#minM = affine_map<()[s0] -> (-s0 + 300, 42)>
#minN = affine_map<()[s0] -> (-s0 + 520, 32)>
func.func private @shared(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.binding_count = 3 : i64, tessel.kernel} {
  %c32 = arith.constant 32 : index
  %c42 = arith.constant 42 : index
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<300x200xf32>
  %a = memref.assume_alignment %0, 64 : memref<300x200xf32>
  %1 = tessel.binding %arg0[1] : !llvm.ptr -> memref<200x520xf32>
  %b = memref.assume_alignment %1, 64 : memref<200x520xf32>
  %2 = tessel.binding %arg0[2] : !llvm.ptr -> memref<300x520xf32>
  %c = memref.assume_alignment %2, 64 : memref<300x520xf32>
  %m0 = arith.muli %arg2, %c42 : index
  %n0 = arith.muli %arg1, %c32 : index
  %ms = affine.min #minM()[%m0]
  %ns = affine.min #minN()[%n0]
  %av = memref.subview %a[%m0, 0] [%ms, 200] [1, 1] : memref<300x200xf32> to memref<?x200xf32, strided<[200, 1], offset: ?>>
  %bv = memref.subview %b[0, %n0] [200, %ns] [1, 1] : memref<200x520xf32> to memref<200x?xf32, strided<[520, 1], offset: ?>>
  %cv = memref.subview %c[%m0, %n0] [%ms, %ns] [1, 1] : memref<300x520xf32> to memref<?x?xf32, strided<[520, 1], offset: ?>>
  linalg.matmul {tessel.cpu_packed_matmul = array<i64: 6, 16, 256, 42, 32, 8, 42, 32>} ins(%av, %bv : memref<?x200xf32, strided<[200, 1], offset: ?>>, memref<200x?xf32, strided<[520, 1], offset: ?>>) outs(%cv : memref<?x?xf32, strided<[520, 1], offset: ?>>)
  return
}

// -----

// The same workgroup, but A is computed in the kernel (a buffer of the
// workgroup) and B's view is not whole along K: both stay packed per
// workgroup, and the kernel has no scratch.
// CHECK-LABEL: func.func private @private
// CHECK-NOT: tessel.scratch_bytes
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<42x256xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<2x256x16xf32>
// CHECK-NOT: memref.generic_atomic_rmw
// CHECK: return
func.func private @private(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.binding_count = 2 : i64, tessel.kernel} {
  %c32 = arith.constant 32 : index
  %1 = tessel.binding %arg0[0] : !llvm.ptr -> memref<400x520xf32>
  %b = memref.assume_alignment %1, 64 : memref<400x520xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<42x520xf32>
  %c = memref.assume_alignment %2, 64 : memref<42x520xf32>
  %n0 = arith.muli %arg1, %c32 : index
  %a = memref.alloc() : memref<42x200xf32>
  %bv = memref.subview %b[0, %n0] [200, 32] [1, 1] : memref<400x520xf32> to memref<200x32xf32, strided<[520, 1], offset: ?>>
  %cv = memref.subview %c[0, %n0] [42, 32] [1, 1] : memref<42x520xf32> to memref<42x32xf32, strided<[520, 1], offset: ?>>
  linalg.matmul {tessel.cpu_packed_matmul = array<i64: 6, 16, 256, 42, 32, 8, 0, 32>} ins(%a, %bv : memref<42x200xf32>, memref<200x32xf32, strided<[520, 1], offset: ?>>) outs(%cv : memref<42x32xf32, strided<[520, 1], offset: ?>>)
  memref.dealloc %a : memref<42x200xf32>
  return
}
