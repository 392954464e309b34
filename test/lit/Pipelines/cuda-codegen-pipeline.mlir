// End of tessel-cuda-codegen-pipeline on the dispatch functions of a module
// (what the CUDA target hands it, before gpu-module-to-binary): one
// gpu.module @tessel_kernels with an NVVM target, holding one llvm.func per
// kernel marked gpu.kernel / nvvm.kernel with its block size; only the LLVM
// and NVVM dialects are left inside, and no func.func anywhere.
// RUN: tessel-opt %s --tessel-cuda-codegen-pipeline | FileCheck %s
// RUN: tessel-opt %s --tessel-cuda-codegen-pipeline | FileCheck %s --check-prefix=ONLY-LLVM
// RUN: tessel-opt %s --tessel-cuda-codegen-pipeline | FileCheck %s --check-prefix=FUNCS
// RUN: tessel-opt %s --tessel-cuda-codegen-pipeline="chip=sm_90 libdevice=%t.libdevice.bc" | FileCheck %s --check-prefix=OPTS

// The module is a gpu.container_module; the target defaults to sm_80 with
// PTX 8.0 features and links nothing unless libdevice is given; the chip
// and the libdevice path are pipeline options.
// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT: gpu.module @tessel_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">] {
// The matmul's shared memory: globals in address space 3 (see below).
// CHECK: llvm.mlir.global private @__tessel_smem_matmul_dispatch_0_a() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2 x array<8 x array<68 x f32>>>
// CHECK: llvm.mlir.global private @__tessel_smem_matmul_dispatch_0_b() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2 x array<8 x array<64 x f32>>>
// OPTS: gpu.module @tessel_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", link = ["{{.*}}libdevice.bc"]>]

// No op of a dialect other than llvm/nvvm survives in the kernels (the
// gpu.module itself is the only gpu op), and no unrealized cast is left.
// ONLY-LLVM-NOT: {{^ *(%[^ ]+ = )?(func|tessel|memref|vector|scf|linalg|arith|math|cf|affine|bufferization|tensor|ub|index)\.[a-z_]+}}
// ONLY-LLVM-NOT: {{^ *(%[^ ]+ = )?gpu\.(func|return|thread_id|block_id|barrier|subgroup_reduce|shuffle)}}
// ONLY-LLVM-NOT: unrealized_conversion_cast
// ONLY-LLVM-NOT: func.func

// Exactly one kernel llvm.func per dispatch (plus libdevice declarations).
// FUNCS: gpu.module @tessel_kernels
// FUNCS-COUNT-3: llvm.func @{{[a-z_]+}}_dispatch_0({{.*}}gpu.kernel{{.*}}nvvm.kernel
// FUNCS-NOT: llvm.func @{{[a-z_]+}}_dispatch_0

// An elementwise exp, 37x53: block 14x16 (known_block_size, nvvm.maxntid),
// grid 1x3; each thread a masked 4-float load/store around four calls to
// libdevice's __nv_expf (declared in the gpu.module, linked later).
// CHECK: llvm.func @__nv_expf(f32) -> f32
// CHECK-LABEL: llvm.func @exp_dispatch_0
// CHECK-SAME: (%{{.+}}: !llvm.ptr {llvm.align = 64 : i64}, %{{.+}}: !llvm.ptr {llvm.align = 64 : i64})
// CHECK-SAME: gpu.kernel, gpu.known_block_size = array<i32: 14, 16, 1>, nvvm.kernel, nvvm.maxntid = array<i32: 14, 16, 1>
// CHECK-SAME: tessel.workgroup_count = array<i64: 1, 3, 1>, tessel.workgroup_size = array<i64: 14, 16, 1>
// CHECK: nvvm.read.ptx.sreg.ctaid.y
// CHECK: nvvm.read.ptx.sreg.tid.y range <i32, 0, 16>
// CHECK: nvvm.read.ptx.sreg.tid.x range <i32, 0, 14>
// CHECK: llvm.intr.masked.load {{.*}} -> vector<4xf32>
// CHECK-COUNT-4: llvm.call @__nv_expf(%{{.+}}) : (f32) -> f32
// CHECK: llvm.intr.masked.store {{.*}} : vector<4xf32>, vector<4xi1> into !llvm.ptr
// CHECK: llvm.return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func private @exp_dispatch_0(%a: tensor<37x53xf32>) -> tensor<37x53xf32> attributes {tessel.dispatch_function} {
  %e = tensor.empty() : tensor<37x53xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<37x53xf32>
  return %0 : tensor<37x53xf32>
}

// A 128x128x64 matmul (GPUSharedMemoryMatmul; a grid this small gets 64x64
// blocks): 2x2 blocks of 8x8 threads, 8x8 each, A and B staged through two
// shared-memory buffers (globals in
// address space 3, 16-byte aligned); 128-bit global and shared loads,
// vector<4xf32> FMAs, a barrier per K stage; no masks (exact tiles).
// CHECK-LABEL: llvm.func @matmul_dispatch_0
// CHECK-SAME: gpu.known_block_size = array<i32: 8, 8, 1>, nvvm.kernel
// CHECK-SAME: nvvm.minctasm = 2 : i32
// CHECK-SAME: tessel.workgroup_count = array<i64: 2, 2, 1>
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.intr.fmuladd({{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
// CHECK-NOT: llvm.intr.masked
// CHECK: llvm.return
func.func private @matmul_dispatch_0(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>) -> tensor<128x128xf32> attributes {tessel.dispatch_function} {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%z : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %mm : tensor<128x128xf32>
}

// A row sum along the contiguous dim: a warp per row (32x8 threads, grid
// 8), 128-bit loads, combined by five butterfly shuffles.
// CHECK-LABEL: llvm.func @rowsum_dispatch_0
// CHECK-SAME: nvvm.maxntid = array<i32: 32, 8, 1>
// CHECK-SAME: tessel.workgroup_count = array<i64: 8, 1, 1>
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
// CHECK: llvm.return
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func private @rowsum_dispatch_0(%a: tensor<64x1000xf32>) -> tensor<64xf32> attributes {tessel.dispatch_function} {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %0 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<64x1000xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
