//===- GPUTileAndVectorize.cpp - tessel-gpu-tile-and-vectorize -*- C++ -*-===//
//
// Applies a kernel's GPUKernelConfig on tensors: block tiles (scf.forall),
// thread tiles (nested scf.forall), sequential reduction steps (scf.for),
// each fusing producers, then vectorizes the per-thread tiles.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/Common/TileAndVectorize.h"
#include "tessel/Codegen/GPU/GPUFlashAttention.h"
#include "tessel/Codegen/GPU/GPUKernelConfig.h"
#include "tessel/Codegen/GPU/GPURowFusion.h"
#include "tessel/Codegen/GPU/GPUSharedMemoryMatmul.h"
#include "tessel/Codegen/GPU/GPUTensorCoreMatmul.h"
#include "tessel/Codegen/GPU/GPUWgmmaMatmul.h"
#include "tessel/Codegen/GPU/GPUWarpReduction.h"
#include "tessel/Codegen/Primitives/GridGather.h"
#include "tessel/Codegen/Primitives/GridScan.h"
#include "tessel/Codegen/Primitives/GridRadixSort.h"
#include "tessel/Codegen/Primitives/GridScatter.h"
#include "tessel/Codegen/Primitives/WarpTopk.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_GPUTILEANDVECTORIZE
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

/// gpu.block/gpu.thread mapping for the non-zero entries of `tiles`; the
/// last tiled loop maps to x.
template <typename MappingAttr>
static SmallVector<Attribute> mappingFor(MLIRContext *ctx,
                                         ArrayRef<int64_t> tiles) {
  int64_t rank = llvm::count_if(tiles, [](int64_t t) { return t != 0; });
  SmallVector<Attribute> mapping;
  for (int64_t d = 0; d < rank; ++d)
    mapping.push_back(MappingAttr::get(
        ctx, static_cast<gpu::MappingId>(static_cast<uint64_t>(rank - 1 - d))));
  return mapping;
}

namespace mlir::tessel {

/// Tiles and vectorizes one kernel as its GPUKernelConfig says.
LogicalResult tileAndVectorizeGPUKernel(func::FuncOp kernel,
                                        const GPUStrategyOptions &options,
                                        bool printStrategy) {
  GPUKernelConfig config = getGPUKernelConfig(kernel, options);
  if (printStrategy)
    kernel.emitRemark() << "kernel " << kernel.getSymName() << ": "
                        << config.strategy;
  IRRewriter rewriter(kernel.getContext());
  using LoopType = scf::SCFTilingOptions::LoopType;
  if (config.attention) {
    if (failed(emitFlashAttention(kernel, config.attention)))
      return failure();
  } else if (config.rowFusion) {
    if (failed(emitRowFusion(kernel)))
      return kernel.emitError("row fusion failed");
  } else if (config.warpReduction) {
    if (failed(emitWarpReduction(kernel, config.root)))
      return kernel.emitError("warp reduction failed");
  } else if (config.wgmmaMatmul) {
    if (failed(emitWgmmaMatmul(kernel, config.root, options.tf32)))
      return kernel.emitError("wgmma matmul failed");
  } else if (config.tensorCoreMatmul) {
    if (failed(emitTensorCoreMatmul(kernel, config.root, options.tf32)))
      return kernel.emitError("tensor-core matmul failed");
  } else if (config.sharedMemoryMatmul) {
    if (failed(emitSharedMemoryMatmul(kernel, config.root)))
      return kernel.emitError("shared-memory matmul failed");
  } else if (config.gridScan) {
    if (failed(emitGridScan(kernel, cast<ScanOp>(config.primitive))))
      return kernel.emitError("grid scan failed");
  } else if (config.gridGather) {
    if (failed(emitGridGather(kernel, cast<GatherOp>(config.primitive))))
      return kernel.emitError("grid gather failed");
  } else if (config.gridRadixSort) {
    if (failed(emitGridRadixSort(kernel, cast<SortOp>(config.primitive))))
      return kernel.emitError("grid radix sort failed");
  } else if (config.warpTopk) {
    if (failed(emitWarpTopk(kernel, cast<TopkOp>(config.primitive))))
      return kernel.emitError("warp top-k failed");
  } else if (config.gridScatter) {
    if (failed(emitGridScatter(kernel, cast<ScatterOp>(config.primitive))))
      return kernel.emitError("grid scatter failed");
  } else if (config.root || config.primitive) {
    auto root = cast<TilingInterface>(
        config.primitive ? config.primitive : config.root.getOperation());
    MLIRContext *ctx = kernel.getContext();
    FailureOr<Operation *> block = tileAndFuse(
        rewriter, root, config.blockTiles, LoopType::ForallOp, kWorkgroupsAttr,
        mappingFor<gpu::GPUBlockMappingAttr>(ctx, config.blockTiles));
    if (failed(block))
      return kernel.emitError("tiling to blocks failed");
    FailureOr<Operation *> thread =
        tileAndFuse(rewriter, cast<TilingInterface>(*block),
                    config.threadTiles, LoopType::ForallOp, "",
                    mappingFor<gpu::GPUThreadMappingAttr>(ctx, config.threadTiles));
    if (failed(thread))
      return kernel.emitError("tiling to threads failed");
    if (failed(tileReductions(rewriter, cast<TilingInterface>(*thread),
                              config.reductionTiles)))
      return kernel.emitError("tiling reductions failed");
  }
  cleanupAfterTiling(kernel);
  vectorizeSmallOps(rewriter, kernel, kGPUMaxVectorElements,
                    /*maskReductions=*/true);
  cleanupAfterTiling(kernel);
  hoistAccumulators(rewriter, kernel);
  cleanupAfterTiling(kernel);
  return success();
}

namespace {
struct GPUTileAndVectorizePass
    : impl::GPUTileAndVectorizeBase<GPUTileAndVectorizePass> {
  using Base::Base;
  void runOnOperation() override {
    GPUStrategyOptions options;
    options.tensorCores = tensorCores;
    options.tf32 = tf32;
    options.wgmma = wgmma;
    options.wgmmaMinTiles = wgmmaMinTiles;
    options.noTensorCoresReason =
        "disabled (tensor-cores=false: a target architecture is older than "
        "sm_80)";
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (fn->hasAttr(kKernelAttr))
        if (failed(tileAndVectorizeGPUKernel(fn, options, printStrategy)))
          return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
