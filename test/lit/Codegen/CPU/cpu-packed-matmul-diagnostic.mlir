// RUN: tessel-opt %s --tessel-cpu-packed-matmul=diagnostic-pack-first-k-block-only | FileCheck %s
// RUN: tessel-opt %s --tessel-cpu-packed-matmul | FileCheck %s --check-prefix=DEFAULT

// The timing experiment of bench/cpu (issue 15): both pack copies run under
// `kc == 0` only, the microkernel in every K block. Without the flag the
// copies are unconditional.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %[[KC:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[KC]], %{{.+}} : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: vector.transfer_read %arg1
// CHECK: scf.for
// CHECK: %[[FIRSTA:.+]] = arith.cmpi eq, %[[KC]], %{{.+}} : index
// CHECK-NEXT: scf.if %[[FIRSTA]] {
// CHECK: vector.transfer_read %arg0
// CHECK: vector.fma
// DEFAULT-LABEL: func.func @matmul
// DEFAULT-NOT: arith.cmpi eq
// DEFAULT: vector.fma
func.func @matmul(%a: memref<100x300xf32>, %b: memref<300x90xf32>, %c: memref<100x90xf32>) {
  linalg.matmul {tessel.cpu_packed_matmul = array<i64: 8, 32, 256, 100, 90, 16, 0, 0>} ins(%a, %b : memref<100x300xf32>, memref<300x90xf32>) outs(%c : memref<100x90xf32>)
  return
}
