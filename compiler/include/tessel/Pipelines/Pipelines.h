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
                     "imported graphs is recognised, and tessel.attention "
                     "ops that a kernel of each target takes stay whole "
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

/// Imported CUDA C kernels (tessel-cc) -> LLVM-dialect CPU functions, one
/// per kernel, called once per block (the module's CudaC ABI): inline,
/// the Transpile passes (barrier elimination, interchange, fission), then
/// the LLVM lowering.
void buildCUDAToCPUPipeline(OpPassManager &pm);

/// Imported CUDA C kernels (tessel-cc) -> a gpu.module of NVVM kernels of
/// the same names, with `options`' NVVM target attached (only chip,
/// features and libdevice matter).
void buildCUDAToNVVMPipeline(OpPassManager &pm,
                             const CUDACodegenOptions &options);

/// Registers the pipelines above with the pass registry.
void registerTesselPipelines();

} // namespace mlir::tessel

#endif
