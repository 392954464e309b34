// RUN: tessel-opt %s --tessel-add-primitive-workspaces --tessel-form-dispatches --tessel-materialize-kernel-abi=abi=pointers --canonicalize --tessel-gpu-select-strategy=print-strategy --tessel-gpu-tile-and-vectorize --split-input-file 2>/dev/null | FileCheck %s
// RUN: tessel-opt %s --tessel-add-primitive-workspaces --tessel-form-dispatches --tessel-materialize-kernel-abi=abi=pointers --canonicalize --tessel-gpu-select-strategy=print-strategy --tessel-gpu-tile-and-vectorize --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// The grid level on the GPU, by strategy (the element loops are
// lower-primitives-to-loops.mlir; the levels are described in
// docs/design/primitives.md).

// A long single row: decoupled look-back. Warp 0 reads 32 predecessors
// at a time (atomic reads, subgroup min/max, down-shuffles); tiles are
// scanned with up-shuffles and shared memory, 128-bit loads and stores.
// REMARK: remark: kernel long_dispatch_1: #tessel.strategy<grid_scan>: grid scan: decoupled look-back
// CHECK: func.func private @long_dispatch_1({{.*}}tessel.workgroup_count = array<i64: 25, 1, 1>, tessel.workgroup_size = array<i64: 256, 1, 1>
// CHECK: memref.atomic_rmw addi
// CHECK: vector.load {{.+}} {alignment = 16 : i64} : memref<100000xf32>, vector<4xf32>
// CHECK: gpu.shuffle  up
// CHECK: gpu.barrier
// CHECK: memref.atomic_rmw assign
// CHECK: scf.while
// CHECK:   memref.atomic_rmw ori
// CHECK:   gpu.subgroup_reduce minui
// CHECK:   gpu.subgroup_reduce maxui
// CHECK:   gpu.shuffle  down
// CHECK: vector.store {{.+}} {alignment = 16 : i64} : memref<100000xf32>, vector<4xf32>
func.func @long(%x: tensor<100000xf32>) -> tensor<100000xf32> {
  %o = tensor.empty() : tensor<100000xf32>
  %a = tensor.empty() : tensor<f32>
  %r:2 = tessel.scan dimension(0) inclusive(true) ins(%x : tensor<100000xf32>) outs(%o, %a : tensor<100000xf32>, tensor<f32>) {
  ^bb0(%l: f32, %v: f32):
    %s = arith.addf %l, %v : f32
    tessel.yield %s : f32
  } -> tensor<100000xf32>, tensor<f32>
  return %r#0 : tensor<100000xf32>
}

// -----

// Rows: a block per row carrying the running value across tiles; a scan
// along an outer dimension stays a thread per column (the reason printed).
// REMARK: remark: kernel rows_dispatch_0: #tessel.strategy<grid_scan>: grid scan: a block per row
// REMARK: remark: kernel rows_dispatch_1: #tessel.strategy<primitive_tiles, workgroup = [{{.+}}], thread = [{{.+}}]>: element loops (tessel.scan: a thread per point of the parallel loops, 9 steps each); not grid_scan: scans a dimension that is not the innermost
func.func @rows(%x: tensor<9x5000xi32>) -> (tensor<9x5000xi32>, tensor<9x5000xi32>) {
  %o = tensor.empty() : tensor<9x5000xi32>
  %a = tensor.empty() : tensor<9xi32>
  %r:2 = tessel.scan dimension(1) inclusive(true) ins(%x : tensor<9x5000xi32>) outs(%o, %a : tensor<9x5000xi32>, tensor<9xi32>) {
  ^bb0(%l: i32, %v: i32):
    %s = arith.addi %l, %v : i32
    tessel.yield %s : i32
  } -> tensor<9x5000xi32>, tensor<9xi32>
  %a2 = tensor.empty() : tensor<5000xi32>
  %q:2 = tessel.scan dimension(0) inclusive(true) ins(%x : tensor<9x5000xi32>) outs(%o, %a2 : tensor<9x5000xi32>, tensor<5000xi32>) {
  ^bb0(%l: i32, %v: i32):
    %s = arith.addi %l, %v : i32
    tessel.yield %s : i32
  } -> tensor<9x5000xi32>, tensor<5000xi32>
  return %r#0, %q#0 : tensor<9x5000xi32>, tensor<9x5000xi32>
}

// -----

// Scatter-add: persistent grid (at most 528 blocks, 4 per SM of the GPU
// that runs it: strides and the barrier's count from gridDim.x), original
// copied, grid barrier (membar, counter, trap after too many polls),
// hardware atomic add.
// REMARK: remark: kernel add_dispatch_1: #tessel.strategy<grid_scatter>: grid scatter: at most 528 persistent blocks x 256 threads (4 per SM of the GPU that runs it), original written, grid barrier, updates grid-stride with atomic addf
// CHECK: func.func private @add_dispatch_1({{.*}}nvvm.minctasm = 5 : i32{{.*}}tessel.resident_blocks_per_sm = 4 : i64{{.*}}tessel.workgroup_count = array<i64: 528, 1, 1>
// CHECK: %[[GRID:.+]] = gpu.grid_dim  x
// CHECK: %[[STRIDE:.+]] = arith.muli %[[GRID]], %c256
// CHECK: scf.for {{.+}} step %[[STRIDE]]
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: memref.atomic_rmw addi
// CHECK: gpu.grid_dim  x
// CHECK: scf.while
// CHECK: llvm.intr.trap
// CHECK: memref.atomic_rmw addf
func.func @add(%dst: tensor<1000xf32>, %idx: tensor<5000xi32>, %src: tensor<5000xf32>) -> tensor<1000xf32> {
  %s = tessel.scatter dimension_map = [0] unique_indices(false) ins(%src, %idx : tensor<5000xf32>, tensor<5000xi32>) outs(%dst : tensor<1000xf32>) {
  ^bb0(%u: f32, %cur: f32):
    %a = arith.addf %u, %cur : f32
    tessel.yield %a : f32
  } -> tensor<1000xf32>
  return %s : tensor<1000xf32>
}

// -----

// A combiner with no hardware atomic: a compare-and-swap loop.
// REMARK: remark: kernel mul_dispatch_1: #tessel.strategy<grid_scatter>: grid scatter: {{.+}} compare-and-swap loop
// CHECK: memref.generic_atomic_rmw
func.func @mul(%dst: tensor<100xf32>, %idx: tensor<300xi32>, %src: tensor<300xf32>) -> tensor<100xf32> {
  %s = tessel.scatter dimension_map = [0] unique_indices(false) ins(%src, %idx : tensor<300xf32>, tensor<300xi32>) outs(%dst : tensor<100xf32>) {
  ^bb0(%u: f32, %cur: f32):
    %a = arith.mulf %u, %cur : f32
    tessel.yield %a : f32
  } -> tensor<100xf32>
  return %s : tensor<100xf32>
}

// -----

// Embedding rows: 128-bit copies of each selected row, indices clamped.
// REMARK: remark: kernel rows_dispatch_0: #tessel.strategy<grid_gather>: grid gather: slices copied grid-stride, 8 elements per thread access (128-bit)
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: vector.load {{.+}} : memref<1000x64xf16>, vector<8xf16>
// CHECK: vector.store {{.+}} : memref<77x64xf16>, vector<8xf16>
func.func @rows(%t: tensor<1000x64xf16>, %ids: tensor<77xi32>) -> tensor<77x64xf16> {
  %e = tensor.empty() : tensor<77x64xf16>
  %g = tessel.gather dimension_map = [0] ins(%t, %ids : tensor<1000x64xf16>, tensor<77xi32>) outs(%e : tensor<77x64xf16>) -> tensor<77x64xf16>
  return %g : tensor<77x64xf16>
}

// -----

// A radix sort: one persistent kernel (70001 elements: at most 35 blocks
// of one 2048-element tile, 4 blocks per SM asked for; the runtime may
// launch fewer and each block's run is ceil(35 / gridDim.x) tiles, the
// counts summed over gridDim.x blocks); per pass the digits are
// counted with shared atomics, a grid barrier publishes the counts, and
// each tile is ranked with ballots and population counts and scattered
// (a warp barrier before the ranks' slots are cleared).
// REMARK: remark: kernel radix_dispatch_3: #tessel.strategy<grid_radix_sort>: grid radix sort: 4 passes of 8 bits, at most 35 persistent blocks x 256 threads (4 per SM of the GPU that runs it; 1 tiles of 2048 per block at most blocks)
// CHECK: func.func private @radix_dispatch_3({{.*}}nvvm.minctasm = 4 : i32{{.*}}tessel.resident_blocks_per_sm = 4 : i64{{.*}}tessel.workgroup_count = array<i64: 35, 1, 1>, tessel.workgroup_size = array<i64: 256, 1, 1>
// CHECK: %[[BLOCKS:.+]] = gpu.grid_dim  x
// CHECK: %[[ROUNDED:.+]] = arith.addi %[[BLOCKS]], %c34
// CHECK: arith.divui %[[ROUNDED]], %[[BLOCKS]]
// CHECK: memref.atomic_rmw addi {{.+}} : (i32, memref<256xi32, #gpu.address_space<workgroup>>)
// CHECK: scf.while
// CHECK:   memref.atomic_rmw ori
// CHECK: gpu.shuffle  up
// CHECK: nvvm.vote.sync  ballot
// CHECK: llvm.intr.ctpop
// CHECK: gpu.barrier
// CHECK: nvvm.bar.warp.sync
func.func @radix(%k: tensor<70001xi32>, %v: tensor<70001xf32>) -> (tensor<70001xi32>, tensor<70001xf32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<70001xi32>, tensor<70001xf32>) {
  ^bb0(%a: i32, %b: i32, %x: f32, %y: f32):
    %c = arith.cmpi ult, %a, %b : i32
    tessel.yield %c : i1
  } -> tensor<70001xi32>, tensor<70001xf32>
  return %r#0, %r#1 : tensor<70001xi32>, tensor<70001xf32>
}

// -----

// Top-k along the rows: a warp per row (8 a block: 23 rows, 3 blocks);
// each lane keeps its 8 best in registers (the loop carries 8 values, 8
// positions and a count), then 8 rounds of xor-shuffle butterflies merge
// the lanes and lane 0 stores the winners.
// REMARK: remark: kernel topk_dispatch_0: #tessel.strategy<warp_topk>: warp top-k: a warp per row, 8 best per lane
// CHECK: func.func private @topk_dispatch_0({{.*}}tessel.workgroup_count = array<i64: 3, 1, 1>, tessel.workgroup_size = array<i64: 32, 8, 1>
// CHECK: scf.for {{.+}} step %c128 iter_args({{.+}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
// CHECK: arith.cmpf ogt
// CHECK: gpu.shuffle  xor
// CHECK: memref.store {{.+}} : memref<23x8xf32>
// CHECK: memref.store {{.+}} : memref<23x8xi32>
func.func @topk(%x: tensor<23x1000xf32>) -> (tensor<23x8xf32>, tensor<23x8xi32>) {
  %v = tensor.empty() : tensor<23x8xf32>
  %i = tensor.empty() : tensor<23x8xi32>
  %r:2 = tessel.topk dimension(1)
      ins(%x : tensor<23x1000xf32>) outs(%v, %i : tensor<23x8xf32>, tensor<23x8xi32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      tessel.yield %c : i1
  } -> tensor<23x8xf32>, tensor<23x8xi32>
  return %r#0, %r#1 : tensor<23x8xf32>, tensor<23x8xi32>
}
