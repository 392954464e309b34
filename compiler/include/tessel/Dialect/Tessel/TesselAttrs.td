//===- TesselAttrs.td - strategy and target attributes ---------*- tablegen -*-===//
//
// What codegen decides, written into the IR: the target a kernel module is
// compiled for (#tessel.cuda_target, #tessel.cpu_target, from the registry
// in Target/TargetDescription.h) and the strategy chosen for each dispatch
// (#tessel.strategy, written by the select-strategy pass of each target and
// the only thing its lowering reads). Both can be printed, written into a
// test or forced (tessel-compile --tessel-strategy-file).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_ATTRS
#define TESSEL_ATTRS

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Tessel_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tessel_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tessel_StrategyKind : I32EnumAttr<"StrategyKind",
    "how one dispatch is lowered", [
  // Both targets.
  I32EnumAttrCase<"Serial", 0, "serial">,
  I32EnumAttrCase<"Tiled", 1, "tiled">,
  I32EnumAttrCase<"PrimitiveTiles", 2, "primitive_tiles">,
  // cuda.
  I32EnumAttrCase<"FlashAttention", 3, "flash_attention">,
  I32EnumAttrCase<"RowFusion", 4, "row_fusion">,
  I32EnumAttrCase<"GridScan", 5, "grid_scan">,
  I32EnumAttrCase<"GridScatter", 6, "grid_scatter">,
  I32EnumAttrCase<"GridGather", 7, "grid_gather">,
  I32EnumAttrCase<"GridRadixSort", 8, "grid_radix_sort">,
  I32EnumAttrCase<"WarpTopk", 9, "warp_topk">,
  I32EnumAttrCase<"WgmmaMatmul", 10, "wgmma_matmul">,
  I32EnumAttrCase<"MmaSyncMatmul", 11, "mma_sync_matmul">,
  I32EnumAttrCase<"SimtMatmul", 12, "simt_matmul">,
  I32EnumAttrCase<"WarpReduction", 13, "warp_reduction">,
  // cpu (row_fusion, flash_attention: both targets).
  I32EnumAttrCase<"RegisterTiles", 14, "register_tiles">,
  I32EnumAttrCase<"PackedMatmul", 15, "packed_matmul">,
  I32EnumAttrCase<"MatmulEpilogue", 16, "matmul_epilogue">,
  I32EnumAttrCase<"PaddingCopy", 17, "padding_copy">
]> {
  let cppNamespace = "::mlir::tessel";
  let genSpecializedAttr = 0;
}

def Tessel_StrategyAttr : Tessel_Attr<"Strategy", "strategy"> {
  let summary = "the strategy of one dispatch: a kind and its parameters";
  let description = [{
    Written on a kernel (`tessel.strategy`) by the target's select-strategy
    pass; the op it applies to carries `tessel.strategy_root`. The lowering
    reads nothing else. Parameters, each allowed only for the kinds that
    use it (the verifier says which):

    - `workgroup` (tiled, primitive_tiles, register_tiles, row_fusion on
      cpu, packed_matmul, matmul_epilogue): per loop of the root op, the
      tile of one workgroup (0: not split);
    - `thread` (tiled; primitive_tiles on cuda): per loop, the tile of one
      thread of a block;
    - `vector` (register_tiles, row_fusion on cpu; matmul_epilogue: per
      loop of its contraction): the register tile, computed in vectors;
    - `reduction`: the sequential step of the reduction loops inside a
      thread or register tile; `cache` (cpu): the block the reduction loops
      are walked in around the register tiles (0: whole);
    - `tile` = [M, N, K] (the cuda matmul kinds): the block tile;
    - `panel` = [MR, NR, KC, MC, NC] (packed_matmul): the register tile,
      the K block, and the rows of A and columns of B packed at a time;
    - `stages` (wgmma_matmul, mma_sync_matmul): shared-memory ring depth;
    - `grid` (wgmma_matmul): blocks of the persistent grid.

    ```mlir
    #tessel.strategy<wgmma_matmul, tile = [128, 256, 64], stages = 4, grid = 132>
    #tessel.strategy<tiled, workgroup = [4, 256], thread = [1, 4], reduction = [0, 0]>
    #tessel.strategy<packed_matmul, workgroup = [512, 256, 0], panel = [8, 32, 256, 128, 256]>
    ```
  }];
  let parameters = (ins
    EnumParameter<Tessel_StrategyKind>:$kind,
    OptionalArrayRefParameter<"int64_t">:$workgroup,
    OptionalArrayRefParameter<"int64_t">:$thread,
    OptionalArrayRefParameter<"int64_t">:$reduction,
    OptionalArrayRefParameter<"int64_t">:$vector,
    OptionalArrayRefParameter<"int64_t">:$cache,
    OptionalArrayRefParameter<"int64_t">:$tile,
    OptionalArrayRefParameter<"int64_t">:$panel,
    DefaultValuedParameter<"int64_t", "0">:$stages,
    DefaultValuedParameter<"int64_t", "0">:$grid
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "StrategyKind":$kind), [{
      return $_get($_ctxt, kind, ArrayRef<int64_t>(), ArrayRef<int64_t>(),
                   ArrayRef<int64_t>(), ArrayRef<int64_t>(), ArrayRef<int64_t>(),
                   ArrayRef<int64_t>(), ArrayRef<int64_t>(), 0, 0);
    }]>
  ];
}

def Tessel_CUDATargetAttr : Tessel_Attr<"CUDATarget", "cuda_target"> {
  let summary = "the GPU a cuda executable is compiled for";
  let description = [{
    What the strategies may assume of the GPUs an executable runs on (for
    several architectures in one executable, what all of them have): the
    PTX architecture, SMs (for cost models; grids that must be resident
    are checked again at run time), shared memory per block and per SM
    (bytes), 32-bit registers per SM, the MMA instructions (`mma_sync`,
    `wgmma`), and whether TMA and thread-block clusters exist.

    ```mlir
    #tessel.cuda_target<arch = "sm_90a", sms = 132, shared_per_block = 232448,
        shared_per_sm = 233472, registers_per_sm = 65536,
        mma = ["mma_sync", "wgmma"], tma = true, clusters = true>
    ```
  }];
  let parameters = (ins
    "StringAttr":$arch,
    "int64_t":$sms,
    "int64_t":$shared_per_block,
    "int64_t":$shared_per_sm,
    "int64_t":$registers_per_sm,
    "ArrayAttr":$mma,
    "BoolAttr":$tma,
    "BoolAttr":$clusters
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether `mma` lists `kind` ("mma_sync", "wgmma").
    bool hasMma(StringRef kind) const;
  }];
}

def Tessel_CPUTargetAttr : Tessel_Attr<"CPUTarget", "cpu_target"> {
  let summary = "the CPU a cpu executable is compiled for";
  let description = [{
    The LLVM CPU name, the widest vector register (bits), the cores the
    thread pool is expected to have (for workgroup balance) and the data
    cache sizes per core (L1, L2) and shared (L3), in bytes.

    ```mlir
    #tessel.cpu_target<cpu = "x86-64-v4", vector_bits = 512, cores = 16,
        l1 = 49152, l2 = 2097152, l3 = 33554432>
    ```
  }];
  let parameters = (ins
    "StringAttr":$cpu,
    "int64_t":$vector_bits,
    "int64_t":$cores,
    "int64_t":$l1,
    "int64_t":$l2,
    "int64_t":$l3
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif
