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
  linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 100, 90, 16>} ins(%a, %b : memref<100x300xf32>, memref<300x90xf32>) outs(%c : memref<100x90xf32>)
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
  linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 40, 90, 16>} ins(%a, %b : memref<100x300xf32>, memref<300x90xf32>) outs(%c : memref<100x90xf32>)
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
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, tessel.cpu_packed_matmul = array<i64: 8, 16, 16, 10, 20, 8>}
    ins(%x, %w : memref<1x7x11x16xf32>, memref<3x3x16x20xf32>) outs(%y : memref<1x2x5x20xf32>)
  return
}

// -----

func.func @not_a_contraction(%a: memref<16x16xf32>, %c: memref<16x16xf32>) {
  // expected-error @+1 {{is marked for the packed CPU matmul but is not a bufferized contraction or convolution it handles}}
  linalg.copy {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 16, 16, 16>} ins(%a : memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  return
}
