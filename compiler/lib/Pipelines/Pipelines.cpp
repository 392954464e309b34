//===- Pipelines.cpp - named Tessel pass pipelines -------------*- C++ -*-===//

#include "tessel/Pipelines/Pipelines.h"

#include "tessel/Passes.h"
#include "tessel/Target/TargetDescription.h"
#include "tessel/Transpile/SinkThreadLoops.h"
#include "tessel/Transpile/SkewSharedArrays.h"

#include "llvm/Support/CommandLine.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tessel;

void mlir::tessel::buildTosaToLinalgPipeline(OpPassManager &pm) {
  // Upstream MLIR's TOSA lowering, in the order of its own pipeline
  // (tosa::addTosaToLinalgPasses: decompositions, shape inference,
  // broadcasts made explicit, named ops, then elementwise ops), with control
  // flow first (its regions hold TOSA ops) and the tensor and arith forms
  // last. tessel-verify-input has rejected the ops these do not lower.
  pm.addNestedPass<func::FuncOp>(createTosaToSCFPass());
  // Convolution filters (TOSA's OHWI) are transposed to HWCF: the layout
  // the packed CPU convolution and the tensor-core implicit GEMM read.
  TosaToLinalgNamedOptions named;
  named.preferConv2DKernelLayoutHWCF = true;
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(), named,
                              /*validationOptions=*/std::nullopt);
  // tosa.rescale lowers to tosa.apply_scale inside a linalg.generic.
  TosaToArithPassOptions arith;
  arith.includeApplyRescale = true;
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass(arith));
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
}

void mlir::tessel::buildInputPipeline(OpPassManager &pm,
                                      const InputOptions &options) {
  pm.addPass(createVerifyInput());
  buildTosaToLinalgPipeline(pm);
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  // Attention from importers (contractions around a softmax) becomes one
  // op where a target runs it whole; elsewhere the decomposed form is kept.
  // Attention in imported graphs becomes one op where the targets' kernels
  // may take it; the ones they do not take are decomposed right after.
  if (!StringRef(options.attentionTargets).trim().empty())
    pm.addPass(createRaiseAttention());
  pm.addPass(createDecomposeAttention({options.attentionTargets}));
  pm.addPass(createLegalizeInput({options.attentionTargets}));
  // Unit dimensions (ONNX Unsqueeze, broadcasts over one head) dropped
  // before fusion: the GPU elementwise strategy vectorizes the innermost
  // dimension and spreads threads over the others, and a size-1 dimension
  // among them cost BERT's score + mask dispatch 10x its bandwidth time.
  pm.addPass(createLinalgFoldUnitExtentDimsPass());
  pm.addPass(createFuseElementwise());
  pm.addPass(createRaiseToPrimitives());
  pm.addPass(createCollapseContractionDims());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::tessel::buildDispatchPipeline(OpPassManager &pm,
                                         const DispatchOptions &options) {
  // Weights become parameters before anything clones constants into
  // dispatches.
  pm.addPass(createOutlineParameters());
  pm.addPass(createInsertShapeChecks());
  // Checks that always hold (a dimension against itself) go away.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  if (options.splitKTargetBlocks > 0)
    pm.addPass(createSplitContractionK({options.splitKTargetBlocks}));
  pm.addPass(createExpandLongSorts());
  pm.addPass(createAddPrimitiveWorkspaces());
  pm.addPass(createFormDispatches({options.fuseRows,
                                   options.rowGroupsSingleResult,
                                   options.fuseEpilogues,
                                   options.fusePrimitives}));
  pm.addPass(createCSEPass());
  if (options.deduplicate)
    pm.addPass(createDeduplicateDispatches());
  if (!options.matmulMBuckets.empty() || options.attentionKeyDivisor > 0) {
    SpecializeDispatchesOptions specialize;
    specialize.buckets.assign(options.matmulMBuckets.begin(),
                              options.matmulMBuckets.end());
    specialize.keyDivisor = options.attentionKeyDivisor;
    pm.addPass(createSpecializeDispatches(specialize));
  }
}

/// Tensors -> buffers: kernels read and write their bindings in place.
static void addBufferizationPasses(OpPassManager &pm) {
  // Masked ops become masked transfers before anything can put a second op
  // into a vector.mask region.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMaskPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// Copies and leftover structured ops -> loops; n-D vector transfers -> 1-D.
static void addLoopAndTransferLowering(OpPassManager &pm) {
  pm.addPass(createLowerPrimitivesToLoops());
  pm.addPass(createLowerMemRefCopy());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
  VectorTransferToSCFOptions toSCF;
  toSCF.unroll = true;
  pm.addPass(createConvertVectorToSCFPass(toSCF));
}

/// Affine, strided metadata, small floats and scf -> what LLVM/NVVM takes.
/// `expandBf16`: f32 <-> bf16 conversions as integer ops (x86 has no
/// vector instruction for them before AVX512-BF16, and LLVM would call
/// compiler-rt's __truncsfbf2, which the kernels are not linked with).
static void addScalarLowering(OpPassManager &pm, bool expandBf16) {
  pm.addPass(createLowerAffinePass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions floats;
  floats.sourceTypeStrs = {"bf16", "f16"};
  floats.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(floats));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = expandBf16;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createSCFToControlFlowPass());
}

void mlir::tessel::setDispatchOptions(DispatchOptions &options,
                                      ArrayRef<StringRef> targets,
                                      bool fuseEpilogues,
                                      int64_t splitKTargetBlocks,
                                      bool forceSplitK) {
  // Both backends run a row chain with each row read once (cpu: whole rows
  // per register tile) and a matmul's C block with its epilogue applied
  // before it is stored (cpu: each workgroup's block computed whole).
  options.fuseRows = true;
  options.fuseEpilogues = fuseEpilogues;
  bool severalResults = true, primitiveGroups = true, splitK = forceSplitK;
  SmallVector<int64_t> buckets;
  int64_t keyDivisor = 0;
  for (StringRef t : targets) {
    FailureOr<TargetTraits> traits = getTargetTraits(t);
    assert(succeeded(traits) && "targets are checked by the caller");
    severalResults &= traits->rowChainsWithSeveralResults;
    primitiveGroups &= traits->primitiveGroups;
    splitK |= traits->splitKForParallelism;
    llvm::append_range(buckets, traits->matmulMBuckets);
    keyDivisor = std::max(keyDivisor, traits->attentionKeyDivisor);
  }
  options.attentionKeyDivisor = keyDivisor;
  llvm::sort(buckets);
  buckets.erase(llvm::unique(buckets), buckets.end());
  options.matmulMBuckets = buckets;
  options.rowGroupsSingleResult = !severalResults;
  options.fusePrimitives = primitiveGroups;
  if (splitK)
    options.splitKTargetBlocks = splitKTargetBlocks;
}

void mlir::tessel::buildCPUCodegenPipeline(OpPassManager &pm,
                                           const CPUCodegenOptions &options) {
  pm.addPass(createMaterializeKernelABI());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCPUSelectStrategy(
      {/*cpu=*/"generic", options.vectorBits, options.printStrategy,
       options.strategyFile, options.tuningDb, options.strategyReport}));
  pm.addPass(createCPUTileAndVectorize({options.vectorBits}));
  addBufferizationPasses(pm);
  pm.addPass(createCPUDistributeToWorkgroups());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createPromoteBuffersToStackPass());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  // After deallocation: its heap pack buffers are freed by the pass itself.
  pm.addPass(createCPUPackedMatmul({options.diagnosticPackFirstKBlockOnly}));
  addLoopAndTransferLowering(pm);
  pm.addPass(createCPULowerVectors());
  addScalarLowering(pm, /*expandBf16=*/true);
  pm.addPass(createCPULowerToLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::tessel::buildCUDAKernelPipeline(OpPassManager &pm,
                                           const CUDACodegenOptions &options) {
  pm.addPass(createMaterializeKernelABI({"pointers"}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createGPUSelectStrategy(
      {options.chip, options.printStrategy, options.tf32,
       options.wgmmaMinTiles, options.strategyFile, options.tuningDb,
       options.strategyReport}));
  pm.addPass(createGPUTileAndVectorize());
  addBufferizationPasses(pm);
  pm.addPass(createGPUDistributeToBlocksAndThreads());
  // Kernel-local temporaries live in registers/local memory.
  bufferization::PromoteBuffersToStackPassOptions stack;
  stack.maxAllocSizeInBytes = 64 * 1024;
  pm.addNestedPass<func::FuncOp>(
      bufferization::createPromoteBuffersToStackPass(stack));
}

/// The NVVM target (chip, PTX features, libdevice) on every gpu.module.
static void addNVVMTarget(OpPassManager &pm,
                          const CUDACodegenOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = 3;
  if (!options.libdevice.empty())
    target.linkLibs = {options.libdevice};
  pm.addPass(createGpuNVVMAttachTarget(target));
}

/// gpu.module contents (gpu, func, arith, math, cf, llvm) -> NVVM/LLVM.
static void addGPUToNVVM(OpPassManager &pm) {
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  nvvm.indexBitwidth = 64;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(nvvm));
  // sm_90a kernels: wgmma, mbarrier and bulk-tensor NVVM ops are inline
  // PTX (without this, LLVM translation fails on them).
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVVMToLLVMPass());
}

void mlir::tessel::buildCUDALoweringPipeline(
    OpPassManager &pm, const CUDACodegenOptions &options) {
  addLoopAndTransferLowering(pm);
  pm.addPass(createGPULowerVectors());
  // Every temporary left in a kernel on the stack, or an error: a
  // memref.alloc would become a device malloc per thread per launch.
  pm.addPass(createGPUStackAllocations());
  addScalarLowering(pm, /*expandBf16=*/false);
  pm.addPass(createGPUOutlineKernels());
  // Tensor-core kernels: ldmatrix and cp.async (nvgpu) -> NVVM.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVGPUToNVVMPass());
  addGPUToNVVM(pm);
  // TMA tensor maps become byval grid-constant parameters.
  pm.addPass(createGPUMarkGridConstants());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  addNVVMTarget(pm, options);
}

void mlir::tessel::buildCUDACodegenPipeline(
    OpPassManager &pm, const CUDACodegenOptions &options) {
  buildCUDAKernelPipeline(pm, options);
  buildCUDALoweringPipeline(pm, options);
}

void mlir::tessel::buildCUDAToCPUPipeline(OpPassManager &pm,
                                          const TranspileOptions &options) {
  // Device functions into kernels: the transpilation sees whole kernels.
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowerWarpShufflesPass());
  // After the shuffles: they become barriers, which slots must not be
  // carried through.
  if (options.promoteSlots) {
    pm.addPass(createPromoteSlotsPass());
    if (options.breakLoops)
      pm.addPass(createSimplifyBreakLoopsPass());
    pm.addPass(createCanonicalizerPass());
  }
  pm.addPass(createCUDAToParallelLoopsPass());
  if (options.eliminateBarriers)
    pm.addPass(createEliminateBarriersPass());
  pm.addPass(createInterchangeThreadLoopsPass(
      {/*uniformLoops=*/options.uniformLoops, /*minCut=*/options.minCut}));
  pm.addPass(createFissionAtBarriersPass({/*minCut=*/options.minCut}));
  if (options.sinkThreadLoops || options.sinkCarried)
    pm.addPass(createSinkThreadLoopsPass(
        SinkThreadLoopsOptions{/*uniformLoops=*/options.sinkThreadLoops,
                               /*carriedValues=*/options.sinkCarried,
                               /*minCut=*/options.minCut}));
  if (options.narrowThreadLoops)
    pm.addPass(createNarrowThreadLoopsPass(
        NarrowThreadLoopsPassOptions{/*splitGuards=*/options.splitGuards}));
  if (options.skewSharedArrays)
    pm.addPass(createSkewSharedArraysPass(
        SkewCostModel{std::max<int64_t>(options.skewStoreCost, 1)}));
  pm.addPass(createCUDACPUKernelABIPass(
      {/*loopHints=*/options.loopHints,
       /*floatDivision=*/options.floatDivision,
       /*parallelAccesses=*/options.parallelAccesses}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  addScalarLowering(pm, /*expandBf16=*/true);
  // Math ops LLVM has intrinsics for, then C library calls for the rest
  // (erf, cbrt, tan, ...), which the runtime process provides.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createCPULowerToLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::tessel::buildCUDAToNVVMPipeline(OpPassManager &pm,
                                           const CUDACodegenOptions &options) {
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createOutlineCUDAKernels());
  addScalarLowering(pm, /*expandBf16=*/false);
  addGPUToNVVM(pm);
  // Math ops without a libdevice function (math.trunc, ...): LLVM's
  // intrinsics, which NVPTX selects.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertMathToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  addNVVMTarget(pm, options);
}

void mlir::tessel::registerTesselPipelines() {
  PassPipelineRegistration<InputOptions>(
      "tessel-input-pipeline",
      "Verify, inline, legalize and fuse a Tessel input program",
      [](OpPassManager &pm, const InputOptions &options) {
        buildInputPipeline(pm, options);
      });
  PassPipelineRegistration<>(
      "tessel-tosa-to-linalg-pipeline",
      "Lower TOSA ops to linalg, tensor, arith and scf (upstream passes)",
      buildTosaToLinalgPipeline);
  PassPipelineRegistration<DispatchOptions>(
      "tessel-dispatch-pipeline",
      "Split public functions into dispatches and host programs",
      [](OpPassManager &pm, const DispatchOptions &options) {
        buildDispatchPipeline(pm, options);
      });
  PassPipelineRegistration<CPUCodegenOptions>(
      "tessel-cpu-codegen-pipeline",
      "Compile dispatch functions to LLVM-dialect CPU kernels",
      buildCPUCodegenPipeline);
  PassPipelineRegistration<CUDACodegenOptions>(
      "tessel-cuda-codegen-pipeline",
      "Compile dispatch functions to NVVM kernels in a gpu.module",
      buildCUDACodegenPipeline);
  PassPipelineRegistration<TranspileOptions>(
      "tessel-cuda-cpu-pipeline",
      "Transpile imported CUDA C kernels (tessel-cc) to LLVM-dialect CPU "
      "block functions",
      [](OpPassManager &pm, const TranspileOptions &options) {
        buildCUDAToCPUPipeline(pm, options);
      });
  PassPipelineRegistration<CUDACodegenOptions>(
      "tessel-cuda-nvvm-pipeline",
      "Lower imported CUDA C kernels (tessel-cc) to NVVM kernels in a "
      "gpu.module with an NVVM target",
      buildCUDAToNVVMPipeline);
}
