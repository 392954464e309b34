// RUN: tessel-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{unknown strategy kind 'fast'}}
func.func private @k() attributes {s = #tessel.strategy<fast>}

// -----

// expected-error @+1 {{strategy 'row_fusion' takes no 'tile' parameter}}
func.func private @k() attributes {s = #tessel.strategy<row_fusion, tile = [128, 128, 32]>}

// -----

// expected-error @+1 {{strategy 'wgmma_matmul': tile 64x256 (the kernel builds 128x128, 128x192 and 128x256)}}
func.func private @k() attributes {s = #tessel.strategy<wgmma_matmul, tile = [64, 256, 64], stages = 4>}

// -----

// expected-error @+1 {{strategy 'mma_sync_matmul': 9 stages (2 to 8)}}
func.func private @k() attributes {s = #tessel.strategy<mma_sync_matmul, tile = [128, 128, 32], stages = 9>}

// -----

// expected-error @+1 {{strategy 'mma_sync_matmul' needs 'tile' = [M, N, K]}}
func.func private @k() attributes {s = #tessel.strategy<mma_sync_matmul, stages = 4>}

// -----

// expected-error @+1 {{strategy 'tiled': loop 1's thread tile 3 does not divide its workgroup tile 256}}
func.func private @k() attributes {s = #tessel.strategy<tiled, workgroup = [4, 256], thread = [1, 3]>}

// -----

// expected-error @+1 {{strategy 'tiled': 'thread' has 1 entries, 'workgroup' 2}}
func.func private @k() attributes {s = #tessel.strategy<tiled, workgroup = [4, 256], thread = [1]>}

// -----

// expected-error @+1 {{parameter 'stages' given twice}}
func.func private @k() attributes {s = #tessel.strategy<mma_sync_matmul, tile = [128, 128, 32], stages = 3, stages = 4>}

// -----

// expected-error @+1 {{unknown strategy parameter 'warps'}}
func.func private @k() attributes {s = #tessel.strategy<simt_matmul, warps = 4>}

// -----

// expected-error @+1 {{strategy 'simt_matmul': tile 128x64x8 (64x64x8 or 128x128x8)}}
func.func private @k() attributes {s = #tessel.strategy<simt_matmul, tile = [128, 64, 8]>}

// -----

// expected-error @+1 {{cuda_target: unknown MMA kind "tcgen05"}}
module attributes {t = #tessel.cuda_target<arch = "sm_100a", sms = 148, shared_per_block = 232448, shared_per_sm = 233472, registers_per_sm = 65536, mma = ["tcgen05"], tma = true, clusters = true>} {
}

// -----

// expected-error @+1 {{strategy 'packed_matmul' needs 'panel' = [MR, NR, KC, MC, NC], each positive}}
func.func private @k() attributes {s = #tessel.strategy<packed_matmul, workgroup = [64, 128, 0], panel = [8, 32, 256]>}

// -----

// expected-error @+1 {{strategy 'register_tiles' needs 'vector' (a tile per loop)}}
func.func private @k() attributes {s = #tessel.strategy<register_tiles, workgroup = [64, 128]>}

// -----

// expected-error @+1 {{strategy 'register_tiles': 'cache' has 2 entries, 'workgroup' 3}}
func.func private @k() attributes {s = #tessel.strategy<register_tiles, workgroup = [64, 128, 0], vector = [8, 32, 0], cache = [0, 0]>}

// -----

// matmul_epilogue's register tiles are per loop of its contraction.
// expected-error @+1 {{strategy 'matmul_epilogue': 'reduction' has 2 entries, 'vector' 3}}
func.func private @k() attributes {s = #tessel.strategy<matmul_epilogue, workgroup = [64, 128], vector = [8, 32, 0], reduction = [0, 4]>}

// -----

// expected-error @+1 {{strategy 'wgmma_matmul' takes no 'panel' parameter}}
func.func private @k() attributes {s = #tessel.strategy<wgmma_matmul, tile = [128, 128, 64], stages = 4, panel = [8, 32, 256, 64, 128]>}

// -----

// expected-error @+1 {{strategy 'row_fusion': 'workgroup' needs 'vector'}}
func.func private @k() attributes {s = #tessel.strategy<row_fusion, workgroup = [4, 0]>}
