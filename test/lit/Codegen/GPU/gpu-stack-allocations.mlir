// RUN: tessel-opt %s --tessel-gpu-stack-allocations --split-input-file --verify-diagnostics | FileCheck %s

// A static temporary goes on the stack as it is; a dynamic one bounded by a
// constant (an edge tile, min(4, 192 - j)) gets its bound's elements on the
// stack, viewed at its actual size.
// CHECK-LABEL: func.func @kernel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<2x8xf32>
// CHECK: %[[N:.+]] = affine.min
// CHECK: %[[S:.+]] = memref.alloca() {alignment = 64 : i64} : memref<4xf32>
// CHECK: %[[V:.+]] = memref.reinterpret_cast %[[S]] to offset: [0], sizes: [1, %[[N]]], strides: [%[[N]], 1]
// CHECK: memref.cast %[[V]] : memref<1x?xf32, strided<[?, 1]>> to memref<1x?xf32>
// CHECK-NOT: memref.alloc(
func.func @kernel(%j: index) attributes {tessel.kernel} {
  %a = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
  %n = affine.min affine_map<(d0) -> (4, -d0 + 192)>(%j)
  %b = memref.alloc(%n) {alignment = 64 : i64} : memref<1x?xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0, %c0] : memref<2x8xf32>
  memref.store %f, %b[%c0, %c0] : memref<1x?xf32>
  return
}

// A function that is not a kernel (a host function) keeps its allocs.
// CHECK-LABEL: func.func @host
// CHECK: memref.alloc(
func.func @host(%n: index) {
  %b = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

// No constant bound: an error instead of a device malloc per thread.
func.func @unbounded(%n: index) attributes {tessel.kernel} {
  // expected-error @+1 {{kernel 'unbounded' needs a temporary 'memref<?xf32>' whose size has no constant bound: kernels do not allocate device heap memory (at most 65536 bytes per thread, on the stack)}}
  %b = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

func.func @huge() attributes {tessel.kernel} {
  // expected-error @+1 {{kernel 'huge' needs a temporary 'memref<32768xf32>' of 131072 bytes per thread}}
  %b = memref.alloc() : memref<32768xf32>
  return
}
