//===- Passes.td - Tessel passes -------------------------------*- tablegen -*-===//
//
// Every Tessel pass, one .cpp file each (named after the pass). Each
// description states what the pass expects and what it guarantees.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES
#define TESSEL_PASSES

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Input
//===----------------------------------------------------------------------===//

def VerifyInput : Pass<"tessel-verify-input", "ModuleOp"> {
  let summary = "Reject programs Tessel cannot compile, naming the op and why";
  let description = [{
    Pre: any module. Post: every public func.func has ranked, static-shape
    tensors of f64/f32/f16/bf16/i64/i32/i16/i8/i1 (rank 0 allowed) as its
    arguments and results, and every op belongs to func, linalg, tensor,
    arith or math, is a TOSA op that upstream MLIR lowers to those
    (tessel-tosa-to-linalg-pipeline; not control flow, variables, custom,
    scatter or block-scaled ops), or is a tessel primitive (scan, gather,
    scatter, sort, topk, arg_compare), with static tensor types. Fails with
    one diagnostic per offending op otherwise.
  }];
}

def RaiseAttention : Pass<"tessel-raise-attention", "ModuleOp"> {
  let summary = "Recognise softmax(Q K^T * scale + mask) V as tessel.attention";
  let description = [{
    Pre: verified input (as an importer writes it: batch matmuls over
    reshaped and transposed operands). Post: each linalg.softmax over the
    last dimension whose input is a contraction of Q and K (through
    transposes, reshapes that split or merge the batch, scalar multiplies
    and float casts), scaled by a constant and plus an optional mask, and
    whose only use (through a float cast and torch's IsNaN/Where guard) is
    the first operand of a contraction with V, is one tessel.attention
    whose indexing maps read Q, K, V and the mask where they were stored;
    the contraction's result is produced in the layout of a transpose that
    consumes it. Anything else is left as it is.
  }];
  let dependentDialects = ["tessel::TesselDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def DecomposeAttention : Pass<"tessel-decompose-attention", "ModuleOp"> {
  let summary = "Rewrite tessel.attention as contractions and a softmax";
  let description = [{
    Pre: verified input. Post: no tessel.attention; each is S = Q K^T (f32),
    the scale, mask and region on S, linalg.softmax over K2, P rounded to
    V's type, O = P V (f32) and O converted to the output's layout and type.
    With keep-for-targets (tessel-compile passes the module's targets), an
    op stays whole, a dispatch of its own, when every listed target has a
    kernel that takes it: cuda, the flash-attention kernel
    (canUseFlashAttention); cpu, the attention loop nest
    (canUseCPUFlashAttention).
  }];
  let options = [
    Option<"keepForTargets", "keep-for-targets", "std::string",
           /*default=*/"\"\"",
           "Comma-separated targets (cuda, cpu): keep the attention ops "
           "that all of their kernels take">,
  ];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def LegalizeInput : Pass<"tessel-legalize-input", "ModuleOp"> {
  let summary = "Rewrite input ops into the forms dispatch formation expects";
  let description = [{
    Pre: verified input. Post: arith/math on tensors are linalg.generic ops;
    aggregated ops (linalg.softmax) are decomposed; tensor.pad is
    linalg.fill + tensor.insert_slice; cf.assert (in a function body) is
    tessel.assert; tensor.insert is an elementwise
    generic selecting the scalar at its position (an index out of range
    changes nothing); tensor.concat is a chain of
    tensor.insert_slice; elementwise named ops are generalized so that
    elementwise fusion sees them; linalg.pack/unpack are lowered; a
    lone reduction with too few outputs for the targets of
    split-reductions-for is split into partial reductions over chunks plus
    a final reduction (the thresholds are each target's TargetTraits; a
    reduction is split when any target asks, by the largest split any
    asks; no targets: no splits).
  }];
  let options = [
    Option<"splitReductionsFor", "split-reductions-for", "std::string",
           /*default=*/"\"\"",
           "Comma-separated targets (cuda, cpu) whose reduction splits "
           "apply (tessel-compile passes the module's targets)">,
  ];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect", "math::MathDialect",
                           "tessel::TesselDialect"];
}

def FuseElementwise : Pass<"tessel-fuse-elementwise", "ModuleOp"> {
  let summary = "Upstream elementwise fusion that fuses only casts into contractions";
  let description = [{
    linalg's elementwise fusion (producers into consumer generics, reshapes
    folded by expansion, constants folded), except that a consumer with
    reduction loops takes only cast or copy producers: any other producer
    would be recomputed per reduction step and would leave its chain (a
    softmax feeding P V) out of dispatch formation's row fusion.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "affine::AffineDialect"];
}

def RaiseToPrimitives : Pass<"tessel-raise-to-primitives", "ModuleOp"> {
  let summary = "Rewrite the linalg forms of primitives as tessel ops";
  let description = [{
    Pre: legalized input after elementwise fusion. Post: a linalg.generic
    whose body only yields `tensor.extract %table[...]` at indices that are
    one index-tensor element (read at the leading, batch loops; through an
    arith.index_cast or not) and the remaining loops in order (whole table
    dimensions) is a tessel.gather of %table with that index tensor
    (indices out of range clamp); a reduction over one loop r with two
    results, the best element and its position, selected by one
    comparison of the element and the best (`select(c, a, best)`,
    `select(c, index_cast(linalg.index r), best_index)`), is a
    tessel.arg_compare dimension(r) with that comparison as its region.
    Generics that do more (fused consumers) are unchanged.
  }];
  let dependentDialects = ["tessel::TesselDialect"];
}

def CollapseContractionDims
    : Pass<"tessel-collapse-contraction-dims", "ModuleOp"> {
  let summary = "Bring contractions to one M, N and K loop (and 1x1 convs "
                "to matmuls)";
  let description = [{
    Pre: legalized input after elementwise fusion. Post: a
    linalg.conv_2d_nhwc_hwcf with a 1x1 filter and unit strides is a
    linalg.matmul between collapse_shapes of its input ([N*H*W, C]), filter
    ([C, F]) and init, followed by an expand_shape; a contraction
    linalg.generic has no unit loops (down to three loops) and each run of
    M, N, K or batch loops that every operand walks contiguously and in
    order is one loop, with collapse/expand_shapes on its operands and
    results; elementwise generics reading such a result element for element
    run on the collapsed shape too. Other ops are unchanged.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

def SplitContractionK : Pass<"tessel-split-contraction-k", "ModuleOp"> {
  let summary = "Split the K loop of contractions too small to fill a GPU";
  let description = [{
    Pre: legalized, fused input with contractions in one-M/N/K form.
    Post: a contraction without a batch loop, with a static K of at least
    1024 and fewer than target-blocks / 2 output tiles of 128x128, is a
    partial contraction over K viewed as [S, K/S] (S in 2..8 divides K,
    chunks of at least 256; the S loop parallel, results [S, M, N]) and an
    elementwise sum of the S partials, into which the contraction's
    elementwise consumer is fused. f64/f32/f16/i32/i64 results only (the
    partials have the result's type). With target-blocks = 0, nothing
    changes.
  }];
  let options = [
    Option<"targetBlocks", "target-blocks", "int64_t", /*default=*/"256",
           "Blocks a GPU needs to be busy (about 2 per SM); 0: never split">,
  ];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def ExpandLongSorts : Pass<"tessel-expand-long-sorts", "ModuleOp"> {
  let summary = "Split long tessel.sort ops into parallel merge passes";
  let description = [{
    Pre: input pipeline done. Post: no tessel.sort on tensors along a
    dimension of `min-length` or more elements but radix sorts (one
    dimension, keys ordered by one < or >: RadixKey.h), which stay whole
    for tessel-add-primitive-workspaces; each other became ceil(log2 n)
    linalg.generic merge passes (runs of 1, 2, 4, ... merged by a binary
    search on the merge path, stable; tensor.extract reads the previous
    pass), which dispatch formation makes one dispatch each.
  }];
  let options = [
    Option<"minLength", "min-length", "int64_t", /*default=*/"1024",
           "Shortest sorted dimension that is split into merge passes">,
  ];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect", "scf::SCFDialect"];
}

def AddPrimitiveWorkspaces
    : Pass<"tessel-add-primitive-workspaces", "ModuleOp"> {
  let summary = "Give grid-level primitives a zeroed workspace input";
  let description = [{
    Pre: input pipeline done. Post: every tessel.scan of a single row of at
    least `min-length` elements along its last dimension has a second
    input of ceil(n / 4096) + 1 i64 zeros (the GPU's decoupled look-back
    status words and ticket counter), and every tessel.scatter on tensors a
    third input of one i64 zero (the GPU's grid-barrier counter), and every
    radix sort (RadixKey.h) ins of a scratch buffer per operand and
    radixCountWords(blocks) i32 counts; each is a linalg.fill marked
    `tessel.workspace` (a unique value per op, so CSE keeps them apart),
    which dispatch formation turns into a dispatch of its own. The CPU
    ignores the scan and scatter workspaces.
  }];
  let options = [
    Option<"minLength", "min-length", "int64_t", /*default=*/"65536",
           "Shortest scan that gets a workspace (0: every single-row scan)">,
  ];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def InsertShapeChecks : Pass<"tessel-insert-shape-checks", "ModuleOp"> {
  let summary = "Check on the host the dynamic dimensions computations rely on";
  let description = [{
    Pre: legalized input. Every structured op (linalg) of a public function
    whose loops are indexed by a dynamic dimension gets, before it, a
    `tessel.assert` per pair of operand dimensions that one loop indexes and
    that are not both static: kernels index every such dimension by the same
    loop, so a mismatch would read out of bounds. Messages name function
    arguments as "argument N" and other operands by the op that reads them,
    and carry both extents.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::tessel::TesselDialect"];
}

def OutlineParameters : Pass<"tessel-outline-parameters", "ModuleOp"> {
  let summary = "Large tensor constants become module parameters";
  let description = [{
    Pre: legalized input, before tessel-form-dispatches. Every tensor
    `arith.constant` of a host program (a function body or its host control
    flow) that is not a splat, holds at least `min-bytes` bytes and has an
    element type a module stores becomes an `ml_program.global private`
    (named `const_N`) read by `ml_program.global_load_const`. Dispatches
    then take the weight as an operand, stored once in the module and
    uploaded once per device, instead of cloning it into their kernels (as
    PTX text or cpu code), and layers that differ only in their weights
    share their kernels (tessel-deduplicate-dispatches). Equal constants
    share one global. Splats stay constants: kernels fill them.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"1024",
           "The smallest constant (in bytes) that becomes a parameter">,
  ];
  let dependentDialects = ["ml_program::MLProgramDialect"];
}

def FormDispatches : Pass<"tessel-form-dispatches", "ModuleOp"> {
  let summary = "Split public functions into dispatch functions and a host program";
  let description = [{
    Pre: legalized, fused input. Post: the body of every public function
    holds only tessel.dispatch, tensor.expand_shape/collapse_shape (buffer
    reshapes), tensor.empty, arith.constant and func.return. Each dispatch
    function is a private func.func marked `tessel.dispatch_function` whose
    body is one root computation plus the cheap producers cloned into it
    (tensor.empty, constants, linalg.fill, tensor.extract_slice).
    With `fuse-rows`, a chain of row ops (Dispatch/RowGroups.h: row
    reductions and the elementwise and per-row ops that consume them, on
    rows of at most 4096 f32) becomes one dispatch: softmax and layernorm
    read each row from memory once. Only targets whose codegen runs such
    a dispatch as one kernel per row ask for it (cuda today).
    With `fuse-epilogues`, the elementwise consumers of an f32 matmul (bias,
    activation: all-parallel generics reading the matmul's result, its
    only use, element for element) join its dispatch, so the result is
    stored once, after them (cuda today: GPUSharedMemoryMatmul applies them
    in its epilogue).
    With `fuse-primitives`, a scan joins the elementwise generic computing
    its input, the elementwise generics reading its output element for
    element and a scatter of those elements into an empty destination
    (Dispatch/ScanGroups.h): stream compaction is one dispatch (cuda
    today: the grid scan evaluates them per element in registers).
  }];
  let options = [
    Option<"fuseRows", "fuse-rows", "bool", /*default=*/"false",
           "Put chains of row ops (softmax, layernorm) into one dispatch">,
    Option<"rowGroupsSingleResult", "row-groups-single-result", "bool",
           /*default=*/"false",
           "Keep a row chain with several results as separate dispatches "
           "(the cpu backend tiles a kernel by its one stored value)">,
    Option<"fuseEpilogues", "fuse-epilogues", "bool", /*default=*/"false",
           "Put elementwise consumers of an f32 matmul into its dispatch">,
    Option<"fusePrimitives", "fuse-primitives", "bool", /*default=*/"false",
           "Put a scan's elementwise producer, consumers and scatter into "
           "its dispatch">,
  ];
  let dependentDialects = ["tessel::TesselDialect"];
}

def DeduplicateDispatches : Pass<"tessel-deduplicate-dispatches", "ModuleOp"> {
  let summary = "One dispatch function for identical ones (repeated layers)";
  let description = [{
    Pre: tessel-form-dispatches. Dispatch functions that are equal but for
    their names (printed the same) become one, the first; every
    tessel.dispatch of a duplicate calls it. A model's repeated layers (and
    same-shaped projections) are then planned, lowered and assembled once.
  }];
}

def SpecializeDispatches : Pass<"tessel-specialize-dispatches", "ModuleOp"> {
  let summary = "Variants of dynamic dispatches: matmuls per bucket of M, "
                "attention for whole key tiles";
  let description = [{
    Pre: tessel-form-dispatches. A dispatch whose function holds a linalg
    contraction and whose results' dynamic dimensions are all one host value
    (a dynamic M: the rows of a linear layer; its operands may bring other
    extents) becomes an `scf.if` chain on that value over variants of the
    function, one per bucket in `buckets` (the value is at most the bucket)
    plus the original for larger values. Each variant carries
    `tessel.assumed_extents`: the bucket for every push constant of that
    value, 0 (nothing assumed) for the others, so strategies plan tiles for
    it (small M: small tiles, no persistent grid); every variant stays
    correct for any value. Dispatches with no dynamic result dimension,
    with several distinct ones or without a contraction are left alone.

    With `key-divisor` > 0, a dispatch whose function holds a
    tessel.attention whose key length K2 is dynamic gets a variant
    `<fn>_k<divisor>` carrying `tessel.assumed_divisors` (the divisor for
    the key's K2 push constant), dispatched when K2 is a multiple of it
    (`arith.remsi` on the host): the flash kernel then skips its key masks.

    ```mlir
    %r = tessel.dispatch @mm_dispatch_0(%a, %b)[%m, %m] : ...
    // becomes
    %small = arith.cmpi ule, %m, %c64 : index
    %r = scf.if %small -> (tensor<?x768xf16>) {
      %0 = tessel.dispatch @mm_dispatch_0_m64(%a, %b)[%m, %m] : ...
      scf.yield %0 : tensor<?x768xf16>
    } else { ... @mm_dispatch_0 ... }
    ```
  }];
  let options = [
    ListOption<"buckets", "buckets", "int64_t",
               "Upper ends of the buckets of M, ascending">,
    Option<"keyDivisor", "key-divisor", "int64_t", /*default=*/"0",
           "An attention variant for dynamic key lengths that are multiples "
           "of this; 0: none">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def MaterializeKernelABI : Pass<"tessel-materialize-kernel-abi", "ModuleOp"> {
  let summary = "Give dispatch functions the kernel signature and bindings";
  let description = [{
    Pre: dispatch functions over tensors. Post: each dispatch function reads
    its operands with bufferization.to_tensor and writes its results with
    bufferization.materialize_in_destination, and keeps the
    `tessel.dispatch_function` marker and gets `tessel.kernel`. Its
    signature depends on `abi`:
    - `binding-table` (CPU): (!llvm.ptr bindings, index wg_x, index wg_y,
      index wg_z) -> (), bindings read through tessel.binding;
    - `pointers` (GPU): one static memref argument per binding, which the
      NVVM lowering passes as a bare pointer.
  }];
  let dependentDialects = ["tessel::TesselDialect", "LLVM::LLVMDialect",
                           "bufferization::BufferizationDialect",
                           "linalg::LinalgDialect"];
  let options = [
    Option<"abi", "abi", "std::string", /*default=*/"\"binding-table\"",
           "Kernel ABI: binding-table (cpu) or pointers (gpu)">,
  ];
}

//===----------------------------------------------------------------------===//
// CPU codegen
//===----------------------------------------------------------------------===//

def CPUSelectStrategy : Pass<"tessel-cpu-select-strategy", "ModuleOp"> {
  let summary = "Choose each CPU kernel's strategy and write it as an attribute";
  let description = [{
    Pre: kernels over tensors (after tessel-materialize-kernel-abi), in a
    module whose `tessel.target` is a #tessel.cpu_target (else the
    description of `cpu` with `vector-bits`). Asks the cpu strategies in
    order (CPUStrategyTable.h) and writes the first that takes each kernel
    as `tessel.strategy = #tessel.strategy<...>` on the kernel, marking the
    op it applies to with `tessel.strategy_root`. `strategy-file`,
    `tuning-db`, `strategy-report` and `print-strategy` as for
    tessel-gpu-select-strategy.
  }];
  let options = [
    Option<"cpu", "cpu", "std::string", /*default=*/"\"generic\"",
           "The CPU when the module has no tessel.target attribute">,
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Its vector width in bits (without a tessel.target attribute)">,
    Option<"printStrategy", "print-strategy", "bool", /*default=*/"false",
           "Emit a remark per kernel with its strategy and the strategies "
           "that declined it">,
    Option<"strategyFile", "strategy-file", "std::string", /*default=*/"",
           "JSON file of strategies forced per dispatch "
           "(tessel/Codegen/Common/StrategyFile.h)">,
    Option<"tuningDb", "tuning-db", "std::string", /*default=*/"",
           "Tuning database (tessel-tune): its strategy for each dispatch "
           "it has an entry for (tessel/Codegen/Common/TuningDatabase.h)">,
    Option<"strategyReport", "strategy-report", "std::string",
           /*default=*/"",
           "Write each kernel's key, strategy and tuning candidates to this "
           "JSON file">,
  ];
  let dependentDialects = ["tessel::TesselDialect"];
}

def CPUTileAndVectorize : Pass<"tessel-cpu-tile-and-vectorize", "ModuleOp"> {
  let summary = "Lower each CPU kernel as its #tessel.strategy says";
  let description = [{
    Pre: kernels over tensors with a `tessel.strategy` (after
    tessel-cpu-select-strategy). Applies it: the root op's workgroup tiles
    as an scf.forall fusing its producers, then register tiles (vectorized,
    partial tiles peeled), the packed-matmul mark, the padding copy's
    workgroups, or the flash-attention loop nest. Vector widths come from
    the module's #tessel.cpu_target (else `vector-bits`).
    Post: at most one top-level scf.forall per kernel, marked
    `tessel.workgroups`.
  }];
  let dependentDialects = ["scf::SCFDialect", "vector::VectorDialect",
                           "affine::AffineDialect", "linalg::LinalgDialect"];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Width of the target's vector registers in bits (without a "
           "tessel.target attribute)">,
  ];
}

def CPUDistributeToWorkgroups : Pass<"tessel-cpu-distribute-to-workgroups", "ModuleOp"> {
  let summary = "Replace the workgroup scf.forall by the kernel's workgroup ids";
  let description = [{
    Pre: bufferized kernels with at most one `tessel.workgroups` scf.forall
    with static bounds. Post: the forall body is inlined with its induction
    variables computed from the kernel's wg_x/wg_y/wg_z arguments, and the
    kernel carries `tessel.workgroup_count = array<i64: x, y, z>`.
  }];
  let dependentDialects = ["affine::AffineDialect", "arith::ArithDialect"];
}

def CPUPackedMatmul : Pass<"tessel-cpu-packed-matmul", "ModuleOp"> {
  let summary = "Packed-panel microkernel loops for marked CPU contractions";
  let description = [{
    Pre: bufferized, distributed kernels. Every contraction carrying
    `tessel.cpu_packed_matmul = array<i64: MR, NR, KC, MC, NC, lanes>` (set by
    tessel-cpu-tile-and-vectorize on its workgroup tile, whose C block is
    at most MC x NC) becomes Goto-style loops: for each K block of KC, the
    B block is packed into NR-wide panels ([NC/NR][KC][NR], zero-padded)
    and the A block into rows of KC ([MC][KC]), both in heap buffers of
    the workgroup; then for each NR panel and each MR row group an MR x NR
    register tile of accumulators (vectors) runs the K block with one
    broadcast and NR/lanes FMAs per row and k, and is stored back with
    masks at the tile's edges. Post: no marked linalg op remains.
  }];
  let dependentDialects = ["scf::SCFDialect", "vector::VectorDialect",
                           "memref::MemRefDialect", "arith::ArithDialect"];
  let options = [
    Option<"diagnosticPackFirstKBlockOnly",
           "diagnostic-pack-first-k-block-only", "bool", /*default=*/"false",
           "Timing experiment, WRONG RESULTS: pack A and B in the first K "
           "block only (the time saved is what re-packing costs)">,
  ];
}

def CPULowerVectors : Pass<"tessel-cpu-lower-vectors", "ModuleOp"> {
  let summary = "Lower vector and math ops to forms the LLVM conversion takes";
  let description = [{
    Pre: bufferized kernels. Contractions become outer products and FMAs,
    multi-reductions, transposes, masks, n-D transfers and strided slices
    become 1-D vector ops; math functions with a polynomial approximation
    get it (vectorizable), others become libm calls.
    Post: only 1-D vector ops that convert-vector-to-llvm handles.
  }];
  let dependentDialects = ["func::FuncDialect", "vector::VectorDialect"];
}

def CPULowerToLLVM : Pass<"tessel-cpu-lower-to-llvm", "ModuleOp"> {
  let summary = "Convert lowered kernels to the LLVM dialect";
  let description = [{
    Pre: kernels with only func, arith, cf, memref, 1-D vector, math, index,
    ub and tessel.binding ops. Converts everything, tessel.binding into a
    load from the binding table. Post: only LLVM dialect ops remain (plus
    unrealized casts for reconcile-unrealized-casts).
  }];
}

//===----------------------------------------------------------------------===//
// GPU codegen
//===----------------------------------------------------------------------===//

def GPUSelectStrategy : Pass<"tessel-gpu-select-strategy", "ModuleOp"> {
  let summary = "Choose each kernel's strategy and write it as an attribute";
  let description = [{
    Pre: kernels over tensors with the `pointers` ABI, in a module whose
    `tessel.target` is a #tessel.cuda_target (else the registry's
    description of `arch`). Asks the cuda strategies in order
    (GPUStrategyTable.h) and writes the first that takes each kernel as
    `tessel.strategy = #tessel.strategy<...>` on the kernel, marking the op
    it applies to with `tessel.strategy_root`. A kernel named in
    `strategy-file` gets the strategy given there, or an error saying why
    it does not apply; else a kernel the `tuning-db` has an entry for gets
    that entry's strategy (a warning and the cost model's where it no
    longer applies). With `print-strategy`, a remark per kernel gives the
    attribute, what it runs and why the strategies asked before it
    declined.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"sm_80\"",
           "The target when the module has no tessel.target attribute">,
    Option<"printStrategy", "print-strategy", "bool", /*default=*/"false",
           "Emit a remark per kernel with its strategy and the strategies "
           "that declined it">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Let f32 contractions use TF32 tensor cores (10-bit mantissa "
           "products, f32 accumulation)">,
    Option<"wgmmaMinTiles", "wgmma-min-tiles", "int64_t", /*default=*/"66",
           "The cost model keeps contractions with fewer 128x128 output "
           "tiles than this on mma.sync">,
    Option<"strategyFile", "strategy-file", "std::string", /*default=*/"",
           "JSON file of strategies forced per dispatch "
           "(tessel/Codegen/Common/StrategyFile.h)">,
    Option<"tuningDb", "tuning-db", "std::string", /*default=*/"",
           "Tuning database (tessel-tune): its strategy for each dispatch "
           "it has an entry for (tessel/Codegen/Common/TuningDatabase.h)">,
    Option<"strategyReport", "strategy-report", "std::string",
           /*default=*/"",
           "Write each kernel's key, strategy and tuning candidates to this "
           "JSON file">,
  ];
  let dependentDialects = ["tessel::TesselDialect"];
}

def GPUTileAndVectorize : Pass<"tessel-gpu-tile-and-vectorize", "ModuleOp"> {
  let summary = "Lower each kernel as its #tessel.strategy says";
  let description = [{
    Pre: kernels over tensors with the `pointers` ABI, each with a
    `tessel.strategy` (tessel-gpu-select-strategy, or written in a test) and
    its root op marked `tessel.strategy_root`; reads nothing else to decide.
    `tiled` and `primitive_tiles`: an scf.forall of blocks (producers
    fused), a nested scf.forall of threads (producers fused), sequential
    reduction steps per thread, then the per-thread tiles vectorized
    (128-bit along the innermost loop where the shape allows). `serial`:
    one thread of one block. The hand-built strategies (row fusion, warp
    reduction, the matmuls, flash attention, the primitives' grid kernels)
    replace the kernel's computation by code on its bindings instead.
  }];
  let dependentDialects = ["scf::SCFDialect", "vector::VectorDialect",
                           "affine::AffineDialect", "linalg::LinalgDialect",
                           "gpu::GPUDialect", "nvgpu::NVGPUDialect",
                           "NVVM::NVVMDialect", "LLVM::LLVMDialect"];
}

def GPUDistributeToBlocksAndThreads
    : Pass<"tessel-gpu-distribute-to-blocks-and-threads", "ModuleOp"> {
  let summary = "Replace block/thread scf.foralls by gpu ids";
  let description = [{
    Pre: bufferized kernels with at most one top-level scf.forall (blocks)
    holding one scf.forall (threads), each of rank <= 3. Post: gpu.block_id
    and gpu.thread_id replace them (the last forall dim maps to x), threads
    beyond a partial tile are masked with scf.if, and the kernel carries
    `tessel.workgroup_count` (grid) and `tessel.workgroup_size` (block).
    Fails if an op with memory effects would run redundantly in every
    thread of a block.
  }];
  let dependentDialects = ["gpu::GPUDialect", "arith::ArithDialect",
                           "scf::SCFDialect"];
}

def GPUOutlineKernels : Pass<"tessel-gpu-outline-kernels", "ModuleOp"> {
  let summary = "Move distributed kernels into one gpu.module as gpu.funcs";
  let description = [{
    Pre: distributed kernels (func.func with tessel.kernel). Post: a
    `gpu.module @tessel_kernels` holds a `gpu.func ... kernel` per kernel
    with the same name, signature, body and attributes (plus
    known_block_size), and the top module is a gpu.container_module.
  }];
  let dependentDialects = ["gpu::GPUDialect"];
}

def OutlineCUDAKernels : Pass<"tessel-outline-cuda-kernels", "ModuleOp"> {
  let summary = "Move imported CUDA C kernels into a gpu.module for NVVM";
  let description = [{
    Pre: the module tessel-cc imports (device functions inlined). Post: a
    `gpu.module @tessel_cuda_kernels` holds everything: each function marked
    tessel.cuda_kernel as a `gpu.func ... kernel` of the same name and
    attributes, the other functions and the globals (shared variables,
    strings) as they were; tessel.barrier is gpu.barrier; the top module is
    a gpu.container_module.
  }];
  let dependentDialects = ["gpu::GPUDialect"];
}

def GPUMarkGridConstants : Pass<"tessel-gpu-mark-grid-constants", "ModuleOp"> {
  let summary = "Pass a kernel's TMA tensor maps by value as grid constants";
  let description = [{
    Runs after convert-gpu-to-nvvm (which drops `llvm.byval` from gpu.func
    arguments and rejects `nvvm.grid_constant` there). On each `nvvm.kernel`
    llvm.func with `tessel.tensor_maps` (N maps), the last N arguments get
    `llvm.byval = !llvm.array<128 x i8>`, `llvm.align = 128` and
    `nvvm.grid_constant`: in PTX, `.param .align 128 .b8 x[128]`, what
    nvcc emits for `const __grid_constant__ CUtensorMap`.
  }];
  let dependentDialects = ["LLVM::LLVMDialect", "NVVM::NVVMDialect"];
}

def GPUStackAllocations : Pass<"tessel-gpu-stack-allocations", "ModuleOp"> {
  let summary = "Kernel temporaries on the stack; an error for any other";
  let description = [{
    Pre: lowered, bufferized kernels (tessel.kernel functions). Every
    memref.alloc left in a kernel becomes a memref.alloca: of its static
    shape, or, for dynamic sizes with constant upper bounds (an edge tile
    of `affine.min(4, n - i)` columns), of the bounds' elements, viewed at
    the actual sizes. An alloc above `max-bytes`, or one whose sizes have no
    constant bound, is an error naming the kernel: the NVVM lowering would
    make it a device malloc per thread per launch, never freed, which
    exhausts the device heap after some calls and then writes through a
    null pointer.
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"65536",
           "The largest temporary (bytes per thread) put on the stack">,
  ];
  let dependentDialects = ["memref::MemRefDialect", "arith::ArithDialect"];
}

def GPULowerVectors : Pass<"tessel-gpu-lower-vectors", "ModuleOp"> {
  let summary = "Lower vector ops to 1-D forms for the NVVM conversion";
  let description = [{
    Pre: bufferized kernels. Post: only 1-D vector ops, gpu.subgroup_reduce
    expanded to gpu.shuffle butterflies; math ops are left for
    convert-gpu-to-nvvm, which calls libdevice.
  }];
  let dependentDialects = ["vector::VectorDialect"];
}

//===----------------------------------------------------------------------===//
// Common codegen
//===----------------------------------------------------------------------===//

def LowerMemRefCopy : Pass<"tessel-lower-memref-copy", "ModuleOp"> {
  let summary = "Rewrite memref.copy as linalg.copy";
  let description = [{
    Bufferization emits memref.copy for tensor copies; lowered upstream, a
    copy between strided views calls a C runtime function (memrefCopy) that
    Tessel kernels cannot link. As linalg.copy it tiles and lowers to loops
    like any other structured op. Post: no memref.copy.
  }];
  let dependentDialects = ["linalg::LinalgDialect"];
}

//===----------------------------------------------------------------------===//
// Primitives (scan, gather, scatter, sort, topk, arg_compare)
//===----------------------------------------------------------------------===//

def LowerPrimitivesToLoops
    : Pass<"tessel-lower-primitives-to-loops", "ModuleOp"> {
  let summary = "Lower primitive ops on buffers to the loops of one thread";
  let description = [{
    The element level and the reference semantics of the primitives
    (docs/design/primitives.md). Pre: primitive ops on memrefs (bufferized;
    tiling has split their parallel loops already). Post: no primitive op;
    scf loops with memref loads and stores: a scan walks its dimension
    carrying the running value, gather clamps indices into range, scatter
    skips updates out of range, sort is a stable insertion sort, topk keeps
    k elements by insertion, arg_compare selects the first best.
  }];
  let dependentDialects = ["scf::SCFDialect", "memref::MemRefDialect",
                           "arith::ArithDialect"];
}

//===----------------------------------------------------------------------===//
// CUDA C kernels on the CPU (Transpile/, docs/design/cuda-frontend.md)
//===----------------------------------------------------------------------===//

def LowerWarpShufflesPass : Pass<"tessel-lower-warp-shuffles", "ModuleOp"> {
  let summary = "Warp shuffles as exchanges through shared memory (cpu)";
  let description = [{
    Pre: kernels as the CUDA frontend emits them, device functions inlined.
    Post: no nvvm.shfl.sync; each is a store of the value into a block-shared
    scratch array (`__tessel_warp_shuffle_scratch`), a tessel.barrier, a load
    from the source lane PTX's shfl.sync semantics select, and a second
    barrier.
  }];
  let dependentDialects = ["arith::ArithDialect", "gpu::GPUDialect",
                           "LLVM::LLVMDialect"];
}

def CUDAToParallelLoopsPass
    : Pass<"tessel-cuda-to-parallel-loops", "ModuleOp"> {
  let summary = "Give imported CUDA kernels explicit grid and block loops";
  let description = [{
    Pre: kernels as the CUDA frontend emits them (the code of one thread,
    gpu ids, `__shared__` globals in address space 3), device functions
    inlined. Post: each kernel takes the launch (grid, block: index; dynamic
    shared bytes: i64) as its first 7 arguments and its body is an
    scf.parallel over blocks (tessel.cuda_blocks) holding one slot per
    shared variable and an scf.parallel over threads (tessel.cuda_threads);
    no gpu id ops.
  }];
  let dependentDialects = ["scf::SCFDialect", "arith::ArithDialect",
                           "LLVM::LLVMDialect"];
}

def EliminateBarriersPass : Pass<"tessel-eliminate-barriers", "ModuleOp"> {
  let summary = "Remove barriers whose surrounding accesses cannot conflict";
  let description = [{
    A barrier of a thread loop's body orders nothing when no access between
    the previous barrier and it may touch memory that an access between it
    and the next barrier touches, one of them writing (per-thread stack
    slots never conflict; distinct shared variables never alias).
  }];
}

def InterchangeThreadLoopsPass
    : Pass<"tessel-interchange-thread-loops", "ModuleOp"> {
  let summary = "Move thread loops inside the ifs and loops that hold barriers";
  let description = [{
    Post: every barrier is an op of a thread loop's body. Barriers leave
    scf.if by splitting it (values pass as results); a while loop holding a
    barrier becomes a while loop over thread loops, with a per-thread active
    flag so that threads may leave the loop at different iterations.
    With uniform-loops, a while loop whose condition and carried values
    are uniform across the threads keeps them as scalars outside the
    thread loops (UniformLoops.h); else every carried value goes to
    per-thread slots.
  }];
  let options = [
    Option<"uniformLoops", "uniform-loops", "bool", /*default=*/"true",
           "Keep the carried values of uniform loops with barriers as "
           "scalars">,
    Option<"minCut", "min-cut", "bool", /*default=*/"true",
           "Choose the values stored across a thread-loop cut by a minimum "
           "cut (else: store every value that is not a side-effect-free "
           "function of the thread ids, the rule of issue 14)">,
  ];
  let dependentDialects = ["scf::SCFDialect", "arith::ArithDialect",
                           "LLVM::LLVMDialect", "ub::UBDialect"];
}

def PromoteSlotsPass : Pass<"tessel-promote-slots", "ModuleOp"> {
  let summary = "Promote the stack slots of imported CUDA kernels to SSA values";
  let description = [{
    Loads and stores of one-element llvm.alloca slots used only under
    scf.if / scf.while / scf.for become SSA values; slots stored inside such
    an op and needed after it (or in the next iteration) become its results
    or loop-carried values. Slots that would be carried through an op
    holding a barrier stay memory. Run before the thread loops are formed:
    values, unlike slots, can be recomputed after fission or kept in
    registers, and the thread loops can be vectorized.
  }];
  let dependentDialects = ["LLVM::LLVMDialect", "scf::SCFDialect"];
}

def SimplifyBreakLoopsPass : Pass<"tessel-simplify-break-loops", "ModuleOp"> {
  let summary = "In promoted loops with a break flag, advance values the loop's results do not need";
  let description = [{
    After tessel-promote-slots, a loop with `break` carries a flag that
    gates its condition, and its counter is advanced only while the flag is
    clear (`x2 = brk ? x : x + 1`). When the loop's result for a carried
    value is not used, the value yielded with the flag set is never read
    and the select goes (`x2 = x + 1`): the next address no longer depends
    on the loaded value that set the flag.
  }];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect"];
}

def SinkThreadLoopsPass : Pass<"tessel-sink-thread-loops", "ModuleOp"> {
  let summary = "Move barrier-free thread loops inside loops that walk memory across threads";
  let description = [{
    Pre: barrier-free thread loops (after fission). A loop of a thread
    loop's body, holding no other loop, whose loads and stores are more
    often contiguous across threads (unit stride in the x thread index)
    than along the loop, gets the thread loop inside it when every thread
    runs it alike: the innermost loop is then the thread loop, and
    vectorizes over contiguous memory. Per-thread values the loop carries
    are first taken out (tried on a copy of the thread loop): inductions
    (`c += step` beside a counter) in closed form, the rest in per-thread
    slots; then the loop must carry only uniform values. The pipeline
    chooses which kinds of loops (SinkThreadLoopsOptions).
  }];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect",
                           "LLVM::LLVMDialect"];
}

def NarrowThreadLoopsPass : Pass<"tessel-narrow-thread-loops", "ModuleOp"> {
  let summary = "Turn a thread loop's guard on the thread index into loop bounds";
  let description = [{
    Pre: barrier-free thread loops (after fission). A thread loop whose
    effects are all inside one scf.if whose condition compares the thread
    index (plus uniform offsets, without wrap) with values uniform over the
    block (`if (i < n)`, `if (tx == 0)`, `if (tx <= m)`) runs over the
    admitted indices only; conjuncts of other forms stay in the if.
    With split-guards, such an if among other memory accesses (leader
    code, `if (tx == 0) s = ...;` between copies) first gets a thread loop
    of its own, when the values that cross the cuts can all be recomputed
    (nothing is stored per thread): the code around it vectorizes without
    the branch, and the if runs for the admitted threads only.
  }];
  let options = [
    Option<"splitGuards", "split-guards", "bool", /*default=*/"true",
           "Split a guarded if out of a thread loop with other accesses">,
  ];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect"];
}

def SkewSharedArraysPass : Pass<"tessel-skew-shared-arrays", "ModuleOp"> {
  let summary = "Store 2-D shared arrays skewed where thread loops walk their diagonals";
  let description = [{
    Pre: barrier-free thread loops (after fission). A block-level shared
    array [H x [W x T]] whose every use is an element load or store
    a[r][c] is stored as a'[r + c][c] (or a'[r - c + W - 1][c]) when that
    makes fewer of the thread loops' accesses strided across threads,
    weighted by the trip counts of the uniform loops around them: the
    anti-diagonal steps of a wavefront (nw) become contiguous.
  }];
  let dependentDialects = ["LLVM::LLVMDialect", "arith::ArithDialect"];
}

def FissionAtBarriersPass : Pass<"tessel-fission-at-barriers", "ModuleOp"> {
  let summary = "Cut thread loops at their barriers";
  let description = [{
    Pre: barriers only as ops of thread-loop bodies. Post: no barrier; one
    thread loop per barrier-free piece; values crossing a cut recomputed
    (side-effect-free functions of the thread id) or stored per thread;
    stack slots of cut loops are per-thread arrays.
  }];
  let options = [
    Option<"minCut", "min-cut", "bool", /*default=*/"true",
           "Choose the values stored across a thread-loop cut by a minimum "
           "cut (else: store every value that is not a side-effect-free "
           "function of the thread ids, the rule of issue 14)">,
  ];
  let dependentDialects = ["LLVM::LLVMDialect", "arith::ArithDialect"];
}

def CUDACPUKernelABIPass : Pass<"tessel-cuda-cpu-kernel-abi", "ModuleOp"> {
  let summary = "Transpiled kernels as the per-block functions the CPU runtime calls";
  let description = [{
    Pre: no barriers. Post: each kernel `name` is
    `func @name(!llvm.ptr args, i64 bx, i64 by, i64 bz)` (the CudaC ABI of
    schema/module.fbs) calling `name.tessel_impl`, whose thread loops are
    sequential scf.for nests.
  }];
  let options = [
    Option<"loopHints", "loop-hints", "bool", /*default=*/"true",
           "Vectorization hints on the innermost thread loops">,
    Option<"floatDivision", "float-division", "bool", /*default=*/"true",
           "Compute the i32 divisions of innermost thread loops in f64, "
           "exact and vectorizable (FloatDivision.h)">,
    Option<"parallelAccesses", "parallel-accesses", "bool",
           /*default=*/"true",
           "Mark the memory accesses of the innermost thread loops as free "
           "of dependences between iterations (llvm.loop.parallel_accesses)">,
  ];
  let dependentDialects = ["scf::SCFDialect", "arith::ArithDialect",
                           "LLVM::LLVMDialect"];
}

#endif // TESSEL_PASSES
