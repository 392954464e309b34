// RUN: tessel-opt %s | FileCheck %s
// RUN: tessel-opt %s | tessel-opt | FileCheck %s

// #tessel.strategy prints its kind, then only the parameters it sets; the
// target descriptions print every field.

// CHECK-LABEL: func.func private @k
// CHECK-SAME: a = #tessel.strategy<wgmma_matmul, tile = [128, 192, 64], stages = 5, grid = 132>
// CHECK-SAME: b = #tessel.strategy<tiled, workgroup = [4, 256], thread = [1, 4], reduction = [0, 0]>
// CHECK-SAME: c = #tessel.strategy<row_fusion>
// CHECK-SAME: d = #tessel.strategy<mma_sync_matmul, tile = [64, 128, 32], stages = 3>
// CHECK-SAME: e = #tessel.strategy<primitive_tiles, workgroup = [1, 0], thread = [0, 0]>
// CHECK-SAME: f = #tessel.strategy<packed_matmul, workgroup = [512, 256, 0], panel = [8, 32, 256, 128, 256]>
// CHECK-SAME: g = #tessel.strategy<register_tiles, workgroup = [64, 256, 0], reduction = [0, 0, 8], vector = [8, 32, 0], cache = [0, 0, 256]>
// CHECK-SAME: h = #tessel.strategy<matmul_epilogue, workgroup = [64, 256], vector = [8, 32, 0]>
// CHECK-SAME: i = #tessel.strategy<padding_copy, workgroup = [1, 1, 0, 0]>
// CHECK-SAME: j = #tessel.strategy<primitive_tiles, workgroup = [4, 0]>
func.func private @k() attributes {
  a = #tessel.strategy<wgmma_matmul, grid = 132, tile = [128, 192, 64], stages = 5>,
  b = #tessel.strategy<tiled, workgroup = [4, 256], thread = [1, 4], reduction = [0, 0]>,
  c = #tessel.strategy<row_fusion>,
  d = #tessel.strategy<mma_sync_matmul, tile = [64, 128, 32], stages = 3>,
  e = #tessel.strategy<primitive_tiles, workgroup = [1, 0], thread = [0, 0]>,
  f = #tessel.strategy<packed_matmul, panel = [8, 32, 256, 128, 256], workgroup = [512, 256, 0]>,
  g = #tessel.strategy<register_tiles, workgroup = [64, 256, 0], vector = [8, 32, 0], reduction = [0, 0, 8], cache = [0, 0, 256]>,
  h = #tessel.strategy<matmul_epilogue, workgroup = [64, 256], vector = [8, 32, 0]>,
  i = #tessel.strategy<padding_copy, workgroup = [1, 1, 0, 0]>,
  j = #tessel.strategy<primitive_tiles, workgroup = [4, 0]>}

// CHECK: module attributes {tessel.target = #tessel.cuda_target<arch = "sm_90a", sms = 132, shared_per_block = 232448, shared_per_sm = 233472, registers_per_sm = 65536, mma = ["mma_sync", "wgmma"], tma = true, clusters = true>}
module attributes {tessel.target = #tessel.cuda_target<arch = "sm_90a", sms = 132, shared_per_block = 232448, shared_per_sm = 233472, registers_per_sm = 65536, mma = ["mma_sync", "wgmma"], tma = true, clusters = true>} {
}

// CHECK: module attributes {tessel.target = #tessel.cpu_target<cpu = "x86-64-v4", vector_bits = 512, cores = 16, l1 = 49152, l2 = 2097152, l3 = 33554432>}
module attributes {tessel.target = #tessel.cpu_target<cpu = "x86-64-v4", vector_bits = 512, cores = 16, l1 = 49152, l2 = 2097152, l3 = 33554432>} {
}
