//===- Pipelines.h - named Tessel pass pipelines ---------------*- C++ -*-===//
//
// The pipelines tessel-compile runs, registered under the same names in
// tessel-opt so that `tessel-opt --tessel-cpu-codegen-pipeline` reproduces
// exactly one stage of a compile.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PIPELINES_PIPELINES_H
#define TESSEL_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tessel {

struct InputOptions : PassPipelineOptions<InputOptions> {
  Option<std::string> attentionTargets{
      *this, "attention-targets",
      llvm::cl::desc("The module's targets (cuda, cpu): attention in "
                     "imported graphs is recognised, tessel.attention ops "
                     "that a kernel of each target takes stay whole, and "
                     "reductions are split as the targets ask "
                     "(tessel-compile sets it)"),
      llvm::cl::init("")};
};

/// Verify, lower TOSA, inline, legalize and fuse the input program.
void buildInputPipeline(OpPassManager &pm, const InputOptions &options = {});

/// TOSA ops -> linalg, tensor, arith and scf (upstream MLIR's conversions);
/// part of the input pipeline, a no-op on programs without TOSA.
void buildTosaToLinalgPipeline(OpPassManager &pm);

struct DispatchOptions : PassPipelineOptions<DispatchOptions> {
  Option<bool> fuseRows{
      *this, "fuse-rows",
      llvm::cl::desc("One dispatch per chain of row ops (softmax, layernorm); "
                     "both targets run it (tessel-compile sets it)"),
      llvm::cl::init(false)};
  Option<bool> rowGroupsSingleResult{
      *this, "row-groups-single-result",
      llvm::cl::desc("Row chains with several results stay separate "
                     "dispatches (needed when cpu is a target)"),
      llvm::cl::init(false)};
  Option<bool> fuseEpilogues{
      *this, "fuse-epilogues",
      llvm::cl::desc("Elementwise consumers of a float matmul (bias, "
                     "activation) in its dispatch; only for targets that "
                     "support it (cuda)"),
      llvm::cl::init(false)};
  Option<bool> fusePrimitives{
      *this, "fuse-primitives",
      llvm::cl::desc("A scan with its elementwise producer, consumers and "
                     "scatter in one dispatch (stream compaction); only for "
                     "targets that support it (cuda)"),
      llvm::cl::init(false)};
  Option<int64_t> splitKTargetBlocks{
      *this, "split-k-target-blocks",
      llvm::cl::desc("Split the K loop of contractions with fewer than half "
                     "this many 128x128 output tiles (GPU targets); 0: never"),
      llvm::cl::init(0)};
  Option<bool> deduplicate{
      *this, "deduplicate",
      llvm::cl::desc("Identical dispatch functions become one "
                     "(tessel-deduplicate-dispatches); tessel-compile turns "
                     "it off with a strategy file, whose entries name "
                     "dispatches"),
      llvm::cl::init(true)};
  ListOption<int64_t> matmulMBuckets{
      *this, "matmul-m-buckets",
      llvm::cl::desc("Buckets of a dynamic M with a matmul variant each "
                     "(tessel-specialize-dispatches; the targets' traits)")};
  Option<int64_t> attentionKeyDivisor{
      *this, "attention-key-divisor",
      llvm::cl::desc("An attention variant for dynamic key lengths that are "
                     "multiples of this (tessel-specialize-dispatches; the "
                     "targets' traits); 0: none"),
      llvm::cl::init(0)};
};

/// Split public functions into dispatch functions and host programs.
void buildDispatchPipeline(OpPassManager &pm,
                           const DispatchOptions &options = {});

/// Sets `options` to the dispatch options of a module compiled for every
/// one of `targets`
/// ("cuda", "cpu"; each known to getTargetTraits): fused row chains for
/// every target, matmul epilogues when `fuseEpilogues`, row chains with
/// several results and primitive groups only where every target takes
/// them, split-K (`splitKTargetBlocks`) where any target asks for it, or
/// for every target when `forceSplitK`.
void setDispatchOptions(DispatchOptions &options,
                        ArrayRef<StringRef> targets, bool fuseEpilogues,
                        int64_t splitKTargetBlocks, bool forceSplitK);

struct CPUCodegenOptions : PassPipelineOptions<CPUCodegenOptions> {
  Option<int64_t> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width in bits, where the module has "
                     "no tessel.target"),
      llvm::cl::init(256)};
  Option<bool> printStrategy{
      *this, "print-strategy",
      llvm::cl::desc("Emit a remark per kernel naming its strategy"),
      llvm::cl::init(false)};
  Option<std::string> strategyFile{
      *this, "strategy-file",
      llvm::cl::desc("JSON file of strategies forced per dispatch"),
      llvm::cl::init("")};
  Option<std::string> tuningDb{
      *this, "tuning-db",
      llvm::cl::desc("Tuning database (tessel-tune) to take strategies from"),
      llvm::cl::init("")};
  Option<std::string> strategyReport{
      *this, "strategy-report",
      llvm::cl::desc("Write the kernels' keys, strategies and tuning "
                     "candidates to this JSON file"),
      llvm::cl::init("")};
  Option<bool> diagnosticPackFirstKBlockOnly{
      *this, "diagnostic-pack-first-k-block-only",
      llvm::cl::desc("Timing experiment, WRONG RESULTS: packed matmuls pack "
                     "in the first K block only"),
      llvm::cl::init(false)};
};

/// Dispatch functions -> LLVM dialect kernels with the CPU kernel ABI.
/// Expects a module holding only dispatch functions.
void buildCPUCodegenPipeline(OpPassManager &pm,
                             const CPUCodegenOptions &options);

struct CUDACodegenOptions : PassPipelineOptions<CUDACodegenOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture of the PTX, and the target the "
                     "strategies are chosen for when the module has no "
                     "tessel.target"),
      llvm::cl::init("sm_80")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("PTX features, e.g. +ptx80"),
                               llvm::cl::init("+ptx80")};
  Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("Path of libdevice.10.bc to link (empty: none)"),
      llvm::cl::init("")};
  Option<bool> printStrategy{
      *this, "print-strategy",
      llvm::cl::desc("Emit a remark per kernel naming its strategy"),
      llvm::cl::init(false)};
  Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("Let f32 contractions use TF32 tensor cores"),
      llvm::cl::init(false)};
  Option<int64_t> wgmmaMinTiles{
      *this, "wgmma-min-tiles",
      llvm::cl::desc("Fewer 128x128 output tiles than this keep mma.sync"),
      llvm::cl::init(66)};
  Option<std::string> strategyFile{
      *this, "strategy-file",
      llvm::cl::desc("JSON file of strategies forced per dispatch"),
      llvm::cl::init("")};
  Option<std::string> tuningDb{
      *this, "tuning-db",
      llvm::cl::desc("Tuning database (tessel-tune) to take strategies from"),
      llvm::cl::init("")};
  Option<std::string> strategyReport{
      *this, "strategy-report",
      llvm::cl::desc("Write the kernels' keys, strategies and tuning "
                     "candidates to this JSON file"),
      llvm::cl::init("")};
};

/// Dispatch functions -> distributed kernels (func.func with
/// tessel.workgroup_count/size), before outlining into a gpu.module.
void buildCUDAKernelPipeline(OpPassManager &pm,
                             const CUDACodegenOptions &options);

/// Distributed kernels -> a gpu.module of NVVM kernels with an NVVM target
/// attached, ready for gpu-module-to-binary.
void buildCUDALoweringPipeline(OpPassManager &pm,
                               const CUDACodegenOptions &options);

/// Both of the above.
void buildCUDACodegenPipeline(OpPassManager &pm,
                              const CUDACodegenOptions &options);

/// The GPU-to-CPU transpilation's steps, all on by default except
/// sink-thread-loops (docs/design/cuda-frontend.md says what each gains;
/// bench/rodinia measures them switched off). tessel-cc takes them as
/// `--tessel-transpile='min-cut=false loop-hints=false'`.
struct TranspileOptions : PassPipelineOptions<TranspileOptions> {
  Option<bool> promoteSlots{
      *this, "promote-slots",
      llvm::cl::desc("Promote the stack slots of the kernels to SSA values "
                     "(tessel-promote-slots)"),
      llvm::cl::init(true)};
  Option<bool> breakLoops{
      *this, "break-loops",
      llvm::cl::desc("Advance the carried values of loops with a break flag "
                     "that the loop's results do not need "
                     "(tessel-simplify-break-loops; with promote-slots)"),
      llvm::cl::init(true)};
  Option<bool> eliminateBarriers{
      *this, "eliminate-barriers",
      llvm::cl::desc("Remove barriers that order no memory accesses "
                     "(tessel-eliminate-barriers)"),
      llvm::cl::init(true)};
  Option<bool> uniformLoops{
      *this, "uniform-loops",
      llvm::cl::desc("Keep uniform loops with barriers outside the thread "
                     "loops, their carried values as scalars "
                     "(tessel-interchange-thread-loops)"),
      llvm::cl::init(true)};
  Option<bool> minCut{
      *this, "min-cut",
      llvm::cl::desc("Choose the values stored across thread-loop cuts by a "
                     "minimum cut (else the greedy rule of issue 14)"),
      llvm::cl::init(true)};
  Option<bool> sinkThreadLoops{
      *this, "sink-thread-loops",
      llvm::cl::desc("Move barrier-free thread loops inside uniform loops "
                     "whose accesses are contiguous across threads "
                     "(tessel-sink-thread-loops; off: nw 1.4x slower on the "
                     "H200 host at 16 threads)"),
      llvm::cl::init(false)};
  Option<bool> sinkCarried{
      *this, "sink-carried",
      llvm::cl::desc("Move barrier-free thread loops inside loops that carry "
                     "per-thread values where accesses are contiguous across "
                     "threads (tessel-sink-thread-loops)"),
      llvm::cl::init(true)};
  Option<bool> narrowThreadLoops{
      *this, "narrow-thread-loops",
      llvm::cl::desc("Turn thread loops' guards on the thread index into loop "
                     "bounds (tessel-narrow-thread-loops)"),
      llvm::cl::init(true)};
  Option<bool> splitGuards{
      *this, "split-guards",
      llvm::cl::desc("Give a guarded if among other accesses its own thread "
                     "loop before narrowing"),
      llvm::cl::init(true)};
  Option<bool> skewSharedArrays{
      *this, "skew-shared-arrays",
      llvm::cl::desc("Store 2-D shared arrays skewed where thread loops walk "
                     "their diagonals (tessel-skew-shared-arrays)"),
      llvm::cl::init(true)};
  Option<int64_t> skewStoreCost{
      *this, "skew-store-cost",
      llvm::cl::desc("What a strided store counts for in the skewed "
                     "layout's cost model, in strided loads (1: the model "
                     "before 2026-11-27)"),
      llvm::cl::init(2)}; // SkewCostModel::stridedStore's default
  Option<bool> loopHints{
      *this, "loop-hints",
      llvm::cl::desc("Vectorization hints on the innermost thread loops "
                     "(tessel-cuda-cpu-kernel-abi)"),
      llvm::cl::init(true)};
  Option<bool> floatDivision{
      *this, "float-division",
      llvm::cl::desc("Compute the i32 divisions of innermost thread loops in "
                     "f64, exact and vectorizable"),
      llvm::cl::init(true)};
  Option<bool> parallelAccesses{
      *this, "parallel-accesses",
      llvm::cl::desc("Mark the accesses of the innermost thread loops as "
                     "free of dependences between iterations"),
      llvm::cl::init(true)};
};

/// Imported CUDA C kernels (tessel-cc) -> LLVM-dialect CPU functions, one
/// per kernel, called once per block (the module's CudaC ABI): inline,
/// the Transpile passes (barrier elimination, interchange, fission), then
/// the LLVM lowering.
void buildCUDAToCPUPipeline(OpPassManager &pm,
                            const TranspileOptions &options = {});

/// Imported CUDA C kernels (tessel-cc) -> a gpu.module of NVVM kernels of
/// the same names, with `options`' NVVM target attached (only chip,
/// features and libdevice matter).
void buildCUDAToNVVMPipeline(OpPassManager &pm,
                             const CUDACodegenOptions &options);

/// Registers the pipelines above with the pass registry.
void registerTesselPipelines();

} // namespace mlir::tessel

#endif
