//===- Pipelines.cpp - named Tessel pass pipelines -------------*- C++ -*-===//

#include "tessel/Pipelines/Pipelines.h"

#include "tessel/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tessel;

void mlir::tessel::buildInputPipeline(OpPassManager &pm) {
  pm.addPass(createVerifyInput());
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLegalizeInput());
  pm.addPass(createLinalgElementwiseOpFusionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::tessel::buildDispatchPipeline(OpPassManager &pm) {
  pm.addPass(createFormDispatches());
  pm.addPass(createCSEPass());
}

void mlir::tessel::buildCPUCodegenPipeline(OpPassManager &pm,
                                           const CPUCodegenOptions &options) {
  pm.addPass(createMaterializeKernelABI());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCPUTileAndVectorize({options.vectorBits}));
  // Masked ops become masked transfers before anything can put a second op
  // into a vector.mask region.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMaskPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Bufferize: kernels read and write their bindings in place.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCPUDistributeToWorkgroups());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createPromoteBuffersToStackPass());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);

  // Lower.
  pm.addPass(createLowerMemRefCopy());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
  VectorTransferToSCFOptions toSCF;
  toSCF.unroll = true;
  pm.addPass(createConvertVectorToSCFPass(toSCF));
  pm.addPass(createCPULowerVectors());
  pm.addPass(createLowerAffinePass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions floats;
  floats.sourceTypeStrs = {"bf16", "f16"};
  floats.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(floats));
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createCPULowerToLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::tessel::registerTesselPipelines() {
  PassPipelineRegistration<>(
      "tessel-input-pipeline",
      "Verify, inline, legalize and fuse a Tessel input program",
      buildInputPipeline);
  PassPipelineRegistration<>(
      "tessel-dispatch-pipeline",
      "Split public functions into dispatches and host programs",
      buildDispatchPipeline);
  PassPipelineRegistration<CPUCodegenOptions>(
      "tessel-cpu-codegen-pipeline",
      "Compile dispatch functions to LLVM-dialect CPU kernels",
      buildCPUCodegenPipeline);
}
