// RUN: tessel-opt %s --tessel-gpu-outline-kernels --split-input-file --verify-diagnostics | FileCheck %s

// Two distributed kernels go into one gpu.module @tessel_kernels as
// gpu.func kernels with the same names, arguments (64-byte llvm.align) and
// attributes plus known_block_size = their tessel.workgroup_size; their
// func.return becomes gpu.return. The memref.global a kernel reads moves
// into the gpu.module; the host function stays outside; the top module
// becomes a gpu.container_module.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-NOT: memref.global
// CHECK: func.func @host(%{{.+}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: func.func
// CHECK: gpu.module @tessel_kernels {
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-NEXT: gpu.func @scale_dispatch_0(%[[A:.+]]: memref<4xf32> {llvm.align = 64 : i64}, %{{.+}}: memref<4xf32> {llvm.align = 64 : i64}) kernel
// CHECK-SAME: known_block_size = array<i32: 4, 1, 1>
// CHECK-SAME: tessel.kernel
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 1, 1>
// CHECK-NEXT: memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK-NEXT: gpu.thread_id x
// CHECK-NEXT: memref.load %[[A]]
// CHECK: memref.store
// CHECK-NEXT: gpu.return
// CHECK-NEXT: }
// CHECK-NEXT: gpu.func @copy_dispatch_0(%{{.+}}: memref<64x32xf32> {llvm.align = 64 : i64}, %{{.+}}: memref<64x32xf32> {llvm.align = 64 : i64}) kernel
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 8, 1>, tessel.workgroup_size = array<i64: 32, 8, 1>
// CHECK: gpu.block_id y
// CHECK-NOT: func.return
// CHECK: gpu.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]> {alignment = 64 : i64}
func.func private @scale_dispatch_0(%arg0: memref<4xf32>, %arg1: memref<4xf32>) attributes {tessel.dispatch_function, tessel.kernel, tessel.workgroup_count = array<i64: 1, 1, 1>, tessel.workgroup_size = array<i64: 4, 1, 1>} {
  %c = memref.get_global @__constant_4xf32 : memref<4xf32>
  %tx = gpu.thread_id x
  %a = memref.load %arg0[%tx] : memref<4xf32>
  %b = memref.load %c[%tx] : memref<4xf32>
  %m = arith.mulf %a, %b : f32
  memref.store %m, %arg1[%tx] : memref<4xf32>
  return
}
func.func private @copy_dispatch_0(%arg0: memref<64x32xf32>, %arg1: memref<64x32xf32>) attributes {tessel.dispatch_function, tessel.kernel, tessel.workgroup_count = array<i64: 1, 8, 1>, tessel.workgroup_size = array<i64: 32, 8, 1>} {
  %bx = gpu.block_id y
  %ty = gpu.thread_id y
  %tx = gpu.thread_id x
  %c8 = arith.constant 8 : index
  %r0 = arith.muli %bx, %c8 : index
  %r = arith.addi %r0, %ty : index
  %v = memref.load %arg0[%r, %tx] : memref<64x32xf32>
  memref.store %v, %arg1[%r, %tx] : memref<64x32xf32>
  return
}
func.func @host(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A kernel that was not distributed (no tessel.workgroup_size) is an error.
// expected-error @+1 {{kernel has no tessel.workgroup_size: distribute it to blocks and threads first}}
func.func private @undistributed_dispatch_0(%arg0: memref<4xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  return
}
